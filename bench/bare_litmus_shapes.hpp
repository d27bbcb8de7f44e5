// SPDX-License-Identifier: MIT
// The bare-Relacy twins of the litmus calibration models (models/litmus/*.cpp), on the
// primitives of bare_kernel.hpp (see bare_catalogue.hpp). Included by bare_catalogue.hpp.
#pragma once

#include "bench/bare_kernel.hpp"

namespace bare {

// ---- litmus calibration models (models/litmus/) ---------------------------------------------

/// SB: W x; R y || W y; R x.
struct Sb : rl::test_suite<Sb, 2> {
    struct Config {
        rl::memory_order write = rlx, read = rlx;
        bool fence0 = false, fence1 = false, sc0 = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0, r1 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(1, cfg.sc0 ? sc : cfg.write, $);
            if (cfg.fence0) fence(sc);
            r0 = y.load(cfg.sc0 ? sc : cfg.read, $);
        } else {
            y.store(1, cfg.write, $);
            if (cfg.fence1) fence(sc);
            r1 = x.load(cfg.read, $);
        }
    }
    void after() { record({r0, r1}); }
};

/// MP: W x; W y || R y; R x.
struct Mp : rl::test_suite<Mp, 2> {
    struct Config {
        rl::memory_order flag_write = rlx, flag_read = rlx;
        bool release_fence = false, acquire_fence = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0, r1 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(1, rlx, $);
            if (cfg.release_fence) fence(rel);
            y.store(1, cfg.flag_write, $);
        } else {
            r0 = y.load(cfg.flag_read, $);
            if (cfg.acquire_fence) fence(acq);
            r1 = x.load(rlx, $);
        }
    }
    void after() { record({r0, r1}); }
};

/// LB: R x; W y || R y; W x.
struct Lb : rl::test_suite<Lb, 2> {
    enum class Dep { None, Ctrl, Data };  // models/litmus/lb.cpp: `if (r != 2) W = 1`, `W = r | 1`
    struct Config {
        rl::memory_order read = rlx, write = rlx;
        bool fence0 = false, fence1 = false;
        Dep dep0 = Dep::None, dep1 = Dep::None;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0, r1 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    static void write(A& to, long r, Dep dep) {
        if (dep == Dep::Data) to.store(r | 1, cfg.write, $);
        else if (dep == Dep::None || r != 2) to.store(1, cfg.write, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            r0 = x.load(cfg.read, $);
            if (cfg.fence0) fence(acq_rel);
            write(y, r0, cfg.dep0);
        } else {
            r1 = y.load(cfg.read, $);
            if (cfg.fence1) fence(acq_rel);
            write(x, r1, cfg.dep1);
        }
    }
    void after() { record({r0, r1}); }
};

/// IRIW: W x || W y || R x; R y || R y; R x.
struct IriwLitmus : rl::test_suite<IriwLitmus, 4> {
    struct Config {
        rl::memory_order write = rlx, read = rlx;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        switch (i) {
        case 0: x.store(1, cfg.write, $); break;
        case 1: y.store(1, cfg.write, $); break;
        case 2:
            r0 = x.load(cfg.read, $);
            r1 = y.load(cfg.read, $);
            break;
        default:
            r2 = y.load(cfg.read, $);
            r3 = x.load(cfg.read, $);
            break;
        }
    }
    void after() { record({r0, r1, r2, r3}); }
};

/// WRC: W x || R x; W y || R y; R x.
struct Wrc : rl::test_suite<Wrc, 3> {
    struct Config {
        rl::memory_order x_write = rlx, x_read = rlx, y_write = rlx, y_read = rlx;
        bool release_fence1 = false, acquire_fence2 = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0, r1 = 0, r2 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        switch (i) {
        case 0: x.store(1, cfg.x_write, $); break;
        case 1:
            r0 = x.load(cfg.x_read, $);
            if (cfg.release_fence1) fence(rel);
            y.store(1, cfg.y_write, $);
            break;
        default:
            r1 = y.load(cfg.y_read, $);
            if (cfg.acquire_fence2) fence(acq);
            r2 = x.load(cfg.x_read, $);
            break;
        }
    }
    void after() { record({r0, r1, r2}); }
};

/// 2+2W: W x; W y || W y; W x. Observables: the final x and y.
struct TwoPlusTwoW : rl::test_suite<TwoPlusTwoW, 2> {
    struct Config {
        rl::memory_order write = rlx;
        bool fence0 = false, fence1 = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(1, cfg.write, $);
            if (cfg.fence0) fence(sc);
            y.store(2, cfg.write, $);
        } else {
            y.store(1, cfg.write, $);
            if (cfg.fence1) fence(sc);
            x.store(2, cfg.write, $);
        }
    }
    void after() { record({x.load(rlx, $), y.load(rlx, $)}); }
};

/// R: W x; W y || W y; R x. Observables: the final y, P1's read.
struct RLitmus : rl::test_suite<RLitmus, 2> {
    struct Config {
        rl::memory_order y_write = rlx, x_read = rlx;
        bool fence0 = false, fence1 = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(1, rlx, $);
            if (cfg.fence0) fence(sc);
            y.store(1, cfg.y_write, $);
        } else {
            y.store(2, cfg.y_write, $);
            if (cfg.fence1) fence(sc);
            r0 = x.load(cfg.x_read, $);
        }
    }
    void after() { record({y.load(rlx, $), r0}); }
};

/// S: W x; W y || R y; W x. Observables: the final x, P1's read.
struct SLitmus : rl::test_suite<SLitmus, 2> {
    struct Config {
        rl::memory_order y_write = rlx, y_read = rlx;
        bool release_fence0 = false, acquire_fence1 = false;
    };
    static Config cfg;  // defined below the twins
    A x, y;
    long r0 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(2, rlx, $);
            if (cfg.release_fence0) fence(rel);
            y.store(1, cfg.y_write, $);
        } else {
            r0 = y.load(cfg.y_read, $);
            if (cfg.acquire_fence1) fence(acq);
            x.store(1, rlx, $);
        }
    }
    void after() { record({x.load(rlx, $), r0}); }
};

/// CoRR: W x (; W x) || R x; R x.
struct CoRR : rl::test_suite<CoRR, 2> {
    struct Config {
        bool second_write = false;
    };
    static Config cfg;  // defined below the twins
    A x;
    long r0 = 0, r1 = 0;
    void before() { x.store(0, rlx, $); }
    void thread(unsigned i) {
        if (i == 0) {
            x.store(1, rlx, $);
            if (cfg.second_write) x.store(2, rlx, $);
        } else {
            r0 = x.load(rlx, $);
            r1 = x.load(rlx, $);
        }
    }
    void after() { record({r0, r1}); }
};

/// ISA2: W x; W y || R y; W z || R z; R x.
struct Isa2 : rl::test_suite<Isa2, 3> {
    struct Config {
        rl::memory_order y_write = rlx, y_read = rlx, z_write = rlx, z_read = rlx;
        bool fences = false;
    };
    static Config cfg;  // defined below the twins
    A x, y, z;
    long r0 = 0, r1 = 0, r2 = 0;
    void before() {
        x.store(0, rlx, $);
        y.store(0, rlx, $);
        z.store(0, rlx, $);
    }
    void thread(unsigned i) {
        switch (i) {
        case 0:
            x.store(1, rlx, $);
            if (cfg.fences) fence(rel);
            y.store(1, cfg.y_write, $);
            break;
        case 1:
            r0 = y.load(cfg.y_read, $);
            if (cfg.fences) fence(acq_rel);
            z.store(1, cfg.z_write, $);
            break;
        default:
            r1 = z.load(cfg.z_read, $);
            if (cfg.fences) fence(acq);
            r2 = x.load(rlx, $);
            break;
        }
    }
    void after() { record({r0, r1, r2}); }
};

/// R+shrinker_bit: WRITE_ONCE(nr, 1); <before>; set_bit(0, map) || clear_bit(0, map); <after>;
/// r0 = READ_ONCE(nr). smp_mb__before_atomic() right before set_bit and smp_mb__after_atomic()
/// right after clear_bit are F_sc; smp_wmb() F_rel, smp_rmb() F_acq.
struct RShrinkerBit : rl::test_suite<RShrinkerBit, 2> {
    struct Config {
        rl::memory_order before;  // fence before set_bit; rlx: none
        rl::memory_order after;   // fence after clear_bit; rlx: none
    };
    static Config cfg;  // defined below the twins
    A nr_items, map;
    long r0 = 0;
    void before() {
        nr_items.store(0, rlx, $);
        map.store(1, rlx, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            write_once(nr_items, 1);
            if (cfg.before != rlx) fence(cfg.before);
            map.fetch_or(bit_mask(0), rlx, $);
        } else {
            map.fetch_and(~bit_mask(0), rlx, $);
            if (cfg.after != rlx) fence(cfg.after);
            r0 = read_once(nr_items);
        }
    }
    void after() { record({map.load(rlx, $), r0}); }
};

}  // namespace bare
