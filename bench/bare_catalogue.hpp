// SPDX-License-Identifier: MIT
// Bare-Relacy twins of the catalogue (models/litmus/*.cpp, models/seeds/*.cpp), for the
// benchmark's per-model table (bench/bench.py, docs/performance.md "Benchmark").
//
// A twin is the model written directly against Relacy: rl::atomic<long> for Atomic<T>,
// rl::var<long> for Plain<T>, plain longs for registers, Relacy's own full_search_scheduler.
// It issues the same Relacy operations (loads, stores, RMWs, CASes with the same memory orders,
// fences, rl::yield) in the same order as ordercheck's mapping of the model does
// (checker/model/kernel.hpp, kernel.cpp, runtime.cpp, checker/relacy/relacy_engine.cpp), with the
// same thread count and the same quiescence work in after(); so its iteration count equals
// `ordercheck check ID --no-por`'s interleavings, which bench.py checks per variant ("same tree").
// A twin records the final values of the observables its model declares (registers, observed
// locations, derived values) as its outcome; ordercheck counts outcomes over certified
// executions only, so a twin can count more where certification rejects some (SB/sc_vs_fence).
//
// Included by bare_relacy.cpp after relacy.hpp and bare_common.hpp.
#pragma once

#include <map>
#include <string>

namespace bare {

// ---- ordercheck's kernel primitives, as the Relacy operations it issues for them -------------

namespace kernel {

using A = rl::atomic<long>;
using V = rl::var<long>;
constexpr rl::memory_order rlx = rl::mo_relaxed;
constexpr rl::memory_order acq = rl::mo_acquire;
constexpr rl::memory_order rel = rl::mo_release;
constexpr rl::memory_order acq_rel = rl::mo_acq_rel;
constexpr rl::memory_order sc = rl::mo_seq_cst;

inline long bit_mask(unsigned nr) { return 1L << nr; }

/// fence(order): rl::atomic_thread_fence. smp_mb(), smp_mb__after_spinlock() and the F_sc that
/// smp_mb__before_atomic()/smp_mb__after_atomic() become next to a void RMW are sc; smp_rmb()
/// is acq, smp_wmb() rel.
inline void fence(rl::memory_order mo) { rl::atomic_thread_fence(mo, $); }
inline void smp_mb() { fence(sc); }

/// READ_ONCE, atomic_read, test_bit, static_branch_unlikely, mutex_is_locked: a relaxed load.
inline long read_once(const A& x) { return x.load(rlx, $); }
/// WRITE_ONCE, atomic_set: a relaxed store.
inline void write_once(A& x, long v) { x.store(v, rlx, $); }

/// A fully ordered RMW (atomic_add_return, xchg, test_and_set_bit, llist_del_all...):
/// F_sc; RMW(rlx); F_sc. Returns the old value.
inline long full_fetch_add(A& x, long v) {
    smp_mb();
    const long old = x.fetch_add(v, rlx, $);
    smp_mb();
    return old;
}
inline long full_xchg(A& x, long v) {
    smp_mb();
    const long old = x.exchange(v, rlx, $);
    smp_mb();
    return old;
}

/// spin_lock: exchange(1, acquire) until it returns 0, spin_yield() between attempts.
inline void spin_lock(A& l) {
    while (l.exchange(1, acq, $) != 0) rl::yield(1, $);
}
/// spin_trylock: one strong CAS 0 -> 1, acquire on success, relaxed on failure.
inline bool spin_trylock(A& l) {
    long expected = 0;
    return l.compare_exchange_strong(expected, 1, acq, $, rlx, $);
}
/// spin_unlock, mutex_unlock: a release store of 0.
inline void unlock(A& l) { l.store(0, rel, $); }

/// mutex_lock: strong CAS 0 -> (running thread + 1), acquire/relaxed, spin_yield() between.
inline void mutex_lock(A& owner) {
    const long me = static_cast<long>(rl::thread_index()) + 1;
    for (;;) {
        long expected = 0;
        if (owner.compare_exchange_strong(expected, me, acq, $, rlx, $)) return;
        rl::yield(1, $);
    }
}
inline bool mutex_trylock(A& owner) {
    long expected = 0;
    return owner.compare_exchange_strong(expected, static_cast<long>(rl::thread_index()) + 1, acq, $, rlx, $);
}

/// llist_add(node, head): each attempt READ_ONCE(first), then a fully ordered cmpxchg: F_sc;
/// strong CAS (relaxed/relaxed); F_sc on success only; spin_yield() after a failed attempt.
inline bool llist_add(unsigned node, A& first_word) {
    for (;;) {
        const long first = first_word.load(rlx, $);
        long expected = first;
        smp_mb();
        if (first_word.compare_exchange_strong(expected, first | bit_mask(node), rlx, $, rlx, $)) {
            smp_mb();
            return first == 0;
        }
        rl::yield(1, $);
    }
}

/// static_branch_inc(key): mutex_lock(jump_label_mutex); F_sc; fetch_add(1, rlx); F_sc; unlock.
inline void static_branch_inc(A& enabled, A& jump_label_mutex) {
    mutex_lock(jump_label_mutex);
    full_fetch_add(enabled, 1);
    unlock(jump_label_mutex);
}

/// kernel::WorkOptions: how a work item starts, and the two historical workqueue bugs.
struct WorkOptions {
    bool queued_at_start = false;       ///< PENDING 1 and one execution queued before the start
    bool unordered_on_failure = false;  ///< M4: schedule_work() returns on a relaxed read of PENDING 1
    bool no_mb_after_clear = false;     ///< M5: no F_sc after the worker clears PENDING
};

/// kernel::Work: the PENDING word and the count of queued executions; `executed` is
/// worker-local. The function is passed in by the model.
struct Work {
    A pending, queued;
    int executed = 0;
    WorkOptions options;

    void init(WorkOptions o = {}) {
        options = o;
        pending.store(o.queued_at_start ? 1 : 0, rlx, $);
        queued.store(o.queued_at_start ? 1 : 0, rlx, $);
    }
    /// schedule_work(): (M4: a relaxed read of PENDING, returning false on 1;) F_sc;
    /// xchg(PENDING, 1, rlx); F_sc; on 0 -> 1, queued += 1 (release).
    bool schedule() {
        if (options.unordered_on_failure && pending.load(rlx, $) != 0) return false;
        const long was_pending = full_xchg(pending, 1);
        if (was_pending != 0) return false;
        queued.fetch_add(1, rel, $);
        return true;
    }
    /// process_one_work(): F_rel; PENDING = 0 (rlx); F_sc (not under M5); then the function.
    template <class F>
    void execute_one(F fn) {
        ++executed;
        fence(rel);
        pending.store(0, rlx, $);
        if (!options.no_mb_after_clear) smp_mb();
        fn();
    }
    /// The worker thread: `checks` acquire reads of the queue, each running one execution if one
    /// is queued.
    template <class F>
    void run_worker(unsigned checks, F fn) {
        for (unsigned i = 0; i < checks; ++i)
            if (queued.load(acq, $) > executed) execute_one(fn);
    }
    /// At quiescence (in after()): every execution still queued.
    template <class F>
    void drain(F fn) {
        while (queued.load(acq, $) > executed) execute_one(fn);
    }
};

}  // namespace kernel

using namespace kernel;

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

// ---- seed models (models/seeds/) --------------------------------------------------------------

/// shrinker_bit (ShrinkerBit): ADD || RCL, K passes of shrink_slab_memcg().
struct ShrinkerBit : rl::test_suite<ShrinkerBit, 2> {
    enum class OnEmpty { Nothing, ClearRecheck, ClearOnly };
    struct Config {
        OnEmpty on_empty = OnEmpty::ClearRecheck;
        rl::memory_order before = sc;  ///< memcg_set_shrinker_bit()'s fence before set_bit; rlx: none
        rl::memory_order after = sc;   ///< the fence after clear_bit; rlx: none
        bool locked_count = false;
        bool add = true;
        unsigned passes = 4;
    };
    static Config cfg;  // defined below the twins
    A nlru_lock, nr_items, map;
    void before() {
        nlru_lock.store(0, rlx, $);
        nr_items.store(0, rlx, $);
        map.store(bit_mask(0), rlx, $);
    }
    void set_shrinker_bit() {
        if (cfg.before != rlx) fence(cfg.before);
        map.fetch_or(bit_mask(0), rlx, $);
    }
    long count_objects() {
        if (!cfg.locked_count) return read_once(nr_items);
        spin_lock(nlru_lock);
        const long count = read_once(nr_items);
        unlock(nlru_lock);
        return count;  // >= 0: ADD writes only 1
    }
    void add() {
        if (!cfg.add) return;
        if (cfg.locked_count) spin_lock(nlru_lock);
        write_once(nr_items, 1);
        set_shrinker_bit();
        if (cfg.locked_count) unlock(nlru_lock);
    }
    void reclaim() {
        for (unsigned pass = 0; pass < cfg.passes; ++pass) {
            if ((read_once(map) & bit_mask(0)) == 0) continue;
            if (count_objects() != 0) continue;
            if (cfg.on_empty == OnEmpty::Nothing) continue;
            map.fetch_and(~bit_mask(0), rlx, $);
            if (cfg.on_empty == OnEmpty::ClearOnly) continue;
            if (cfg.after != rlx) fence(cfg.after);
            if (count_objects() != 0) set_shrinker_bit();
        }
    }
    void thread(unsigned i) { i == 0 ? add() : reclaim(); }
    void after() { record({nr_items.load(rlx, $), map.load(rlx, $)}); }
};

/// shrinker_bit (ShrinkerReparent): OFF (memcg_offline_kmem + drain) || RCL (one pass).
struct ShrinkerReparent : rl::test_suite<ShrinkerReparent, 2> {
    struct Config {
        bool fixed = true;  ///< 8199be001a47's drain rule (else v4.19's)
    };
    static Config cfg;  // defined below the twins
    static constexpr long child_objects = 2;
    A nr_items, map;
    void before() {
        nr_items.store(0, rlx, $);
        map.store(bit_mask(0), rlx, $);
    }
    void set_shrinker_bit() {
        smp_mb();  // smp_mb__before_atomic(); set_bit()
        map.fetch_or(bit_mask(0), rlx, $);
    }
    void offline() {
        write_once(nr_items, read_once(nr_items) - 1);
        const long dst = read_once(nr_items);
        if (!cfg.fixed) {
            const bool set = dst == 0;
            write_once(nr_items, dst + child_objects);
            if (set) set_shrinker_bit();
        } else {
            write_once(nr_items, dst + child_objects);
            set_shrinker_bit();
        }
    }
    void reclaim() {
        if ((read_once(map) & bit_mask(0)) == 0) return;
        if (read_once(nr_items) != 0) return;
        map.fetch_and(~bit_mask(0), rlx, $);
        smp_mb();  // smp_mb__after_atomic()
        if (read_once(nr_items) != 0) set_shrinker_bit();
    }
    void thread(unsigned i) { i == 0 ? offline() : reclaim(); }
    void after() { record({nr_items.load(rlx, $), map.load(rlx, $)}); }
};

/// memcg_flush (MemcgFlush): CPU0 makes 3 stat updates || CPU1 reads through a flush.
struct MemcgFlush : rl::test_suite<MemcgFlush, 2> {
    enum class Check { None, ReadSkip, MbRead, Inverted };
    struct Config {
        Check check = Check::ReadSkip;
    };
    static Config cfg;  // defined below the twins
    static constexpr long n_cpus = 2, batch = 2, update_pages = 6;
    A thr, state0, global;
    long r_flush = 0, r_stat = 0;
    void before() {
        thr.store(0, rlx, $);
        state0.store(0, rlx, $);
        global.store(0, rlx, $);
    }
    void cpu0() {
        long state = 0;
        for (int i = 0; i < 3; ++i) {
            state += update_pages;
            write_once(state0, state);
            // memcg_rstat_updated(): every update crosses the batch (6 > 2) and adds 3 units
            bool add = true;
            switch (cfg.check) {
            case Check::None: break;
            case Check::ReadSkip: add = read_once(thr) <= n_cpus; break;
            case Check::MbRead:
                smp_mb();
                add = read_once(thr) <= n_cpus;
                break;
            case Check::Inverted: add = read_once(thr) > n_cpus; break;
            }
            if (add) thr.fetch_add(update_pages / batch, rlx, $);  // atomic_add: a void RMW
        }
    }
    void cpu1() {
        r_flush = read_once(thr) > n_cpus;
        if (r_flush) {
            write_once(global, read_once(state0));
            write_once(thr, 0);
        }
        r_stat = read_once(global);
    }
    void thread(unsigned i) { i == 0 ? cpu0() : cpu1(); }
    void after() {
        const long t = thr.load(rlx, $), s = state0.load(rlx, $), g = global.load(rlx, $);
        record({r_flush, r_stat, t > n_cpus, s - g});
    }
};

/// memcg_flush (MemcgFlushOngoing): FLUSH (the periodic flush) || CPU1 (update, then a flush).
struct MemcgFlushOngoing : rl::test_suite<MemcgFlushOngoing, 2> {
    enum class Coord { Trylock, Ongoing, XchgOnly, NoSkip };
    struct Config {
        Coord coord = Coord::Ongoing;
    };
    static Config cfg;  // defined below the twins
    static constexpr long n_cpus = 2, batch = 2, update_pages = 6;
    A thr, ongoing, stats_flush_lock, cgroup_rstat_lock, state1, global;
    long r_flush = 0, r_stat = 0;
    static bool claimed_at_start() { return cfg.coord == Coord::Ongoing || cfg.coord == Coord::XchgOnly; }
    void before() {
        thr.store(n_cpus + 1, rlx, $);
        ongoing.store(claimed_at_start() ? 1 : 0, rlx, $);
        stats_flush_lock.store(0, rlx, $);
        cgroup_rstat_lock.store(0, rlx, $);
        state1.store(0, rlx, $);
        global.store(0, rlx, $);
    }
    void rstat_flush() {
        if (cfg.coord == Coord::NoSkip) spin_lock(cgroup_rstat_lock);
        write_once(global, read_once(state1));
        if (cfg.coord == Coord::NoSkip) {
            write_once(thr, 0);
            unlock(cgroup_rstat_lock);
        }
    }
    bool claim() {
        switch (cfg.coord) {
        case Coord::Trylock: return spin_trylock(stats_flush_lock);
        case Coord::Ongoing:
            if (read_once(ongoing) != 0) return false;
            return full_xchg(ongoing, 1) == 0;
        case Coord::XchgOnly: return full_xchg(ongoing, 1) == 0;
        case Coord::NoSkip: return true;
        }
        return true;
    }
    void flush_and_release() {
        rstat_flush();
        switch (cfg.coord) {
        case Coord::Trylock:
            write_once(thr, 0);
            unlock(stats_flush_lock);
            break;
        case Coord::Ongoing:
        case Coord::XchgOnly:
            write_once(thr, 0);
            write_once(ongoing, 0);
            break;
        case Coord::NoSkip: break;
        }
    }
    void do_flush_stats() {
        if (claim()) flush_and_release();
    }
    void periodic() {
        if (claimed_at_start())
            flush_and_release();
        else
            do_flush_stats();
    }
    void cpu1() {
        write_once(state1, update_pages);
        if (read_once(thr) <= n_cpus) thr.fetch_add(update_pages / batch, rlx, $);
        r_flush = read_once(thr) > n_cpus;
        if (r_flush) do_flush_stats();
        r_stat = read_once(global);
    }
    void thread(unsigned i) { i == 0 ? periodic() : cpu1(); }
    void after() { record({r_flush, r_stat}); }
};

/// vmpressure: REG (vmpressure_register_event) || RCL (one vmpressure() call) || KW (the work's
/// kworker); queued work still pending runs in after().
struct Vmpressure : rl::test_suite<Vmpressure, 3> {
    enum class Code { Baseline, V3, CheckAtEntry, V1, PlainCounter };
    enum class Scenario { NoListener, Socket, Concurrent, HbReclaim };
    struct Config {
        Code code = Code::V3;
        Scenario scenario = Scenario::NoListener;
    };
    static Config cfg;  // defined below the twins
    static constexpr long win = 512;
    // static_key num_events = {enabled, jump_label_mutex}; the mutexes' and locks' owner words
    A key_enabled, jump_label_mutex, num_events_v1, sr_lock, events_lock, registered;
    V num_events_plain{0}, scanned{0}, tree_scanned{0}, events{0}, signals{0}, socket_pressure{0};
    Work work;
    long saw_registered = 0;

    void before() {
        key_enabled.store(0, rlx, $);
        jump_label_mutex.store(0, rlx, $);
        num_events_v1.store(0, rlx, $);
        sr_lock.store(0, rlx, $);
        events_lock.store(0, rlx, $);
        registered.store(0, rlx, $);
        work.init();
    }
    bool key_off() { return !(read_once(key_enabled) > 0); }
    void vmpressure(bool tree) {
        if (cfg.code == Code::CheckAtEntry && key_off()) return;
        if (tree) {
            if (cfg.code == Code::V3 && key_off()) return;
            if (cfg.code == Code::PlainCounter && num_events_plain($).load() == 0) return;
            spin_lock(sr_lock);
            const long s = tree_scanned($).load() + win;
            tree_scanned($).store(s);
            unlock(sr_lock);
            if (s < win) return;
            if (cfg.code == Code::V1 && read_once(num_events_v1) == 0) return;
            work.schedule();
        } else {
            spin_lock(sr_lock);
            const long s = scanned($).load() + win;
            scanned($).store(s);
            if (s < win) {
                unlock(sr_lock);
                return;
            }
            scanned($).store(0);
            unlock(sr_lock);
            socket_pressure($).store(1);
        }
    }
    void work_fn() {
        spin_lock(sr_lock);
        const long s = tree_scanned($).load();
        if (s == 0) {
            unlock(sr_lock);
            return;
        }
        tree_scanned($).store(0);
        unlock(sr_lock);
        mutex_lock(events_lock);
        const long n = events($).load();
        if (n > 0) signals($).store(signals($).load() + n);
        unlock(events_lock);
    }
    void reg() {
        if (cfg.scenario == Scenario::NoListener) return;
        mutex_lock(events_lock);
        events($).store(events($).load() + 1);
        unlock(events_lock);
        switch (cfg.code) {
        case Code::V3:
        case Code::CheckAtEntry: static_branch_inc(key_enabled, jump_label_mutex); break;
        case Code::V1: num_events_v1.fetch_add(1, rlx, $); break;  // atomic_add: a void RMW
        case Code::PlainCounter: num_events_plain($).store(num_events_plain($).load() + 1); break;
        case Code::Baseline: break;
        }
        if (cfg.scenario == Scenario::HbReclaim) registered.store(1, rel, $);
    }
    void rcl() {
        switch (cfg.scenario) {
        case Scenario::NoListener:
        case Scenario::Concurrent: vmpressure(true); break;
        case Scenario::Socket: vmpressure(false); break;
        case Scenario::HbReclaim:
            saw_registered = registered.load(acq, $);
            if (saw_registered == 1) vmpressure(true);
            break;
        }
    }
    void kw() {
        const bool looks = cfg.scenario == Scenario::NoListener || cfg.scenario == Scenario::HbReclaim;
        work.run_worker(looks ? 1 : 0, [this] { work_fn(); });
    }
    void thread(unsigned i) { i == 0 ? reg() : i == 1 ? rcl() : kw(); }
    void after() {
        work.drain([this] { work_fn(); });
        record({tree_scanned($).load(), signals($).load(), socket_pressure($).load(), saw_registered});
    }
};

/// vmalloc_purge: F (free_vmap_area_noflush of area 1) || KW (the running purge, holding
/// vmap_purge_lock); v5.18's re-check loop and queued purges go on in after().
struct VmallocPurge : rl::test_suite<VmallocPurge, 2> {
    enum class Code { Baseline, Seed, V5_18, V2Guard, InsertBeforeAdd };
    struct Config {
        Code code = Code::Baseline;
    };
    static Config cfg;  // defined below the twins
    static constexpr long area_pages = 2, lazy_max_pages = 1;
    A vmap_lazy_nr, vmap_purge_list, purge_vmap_area_lock, vmap_purge_lock, drain_in_progress;
    V purge_vmap_area_list{bit_mask(0)};
    Work purge_work;
    bool drain_goes_on = false;

    void before() {
        vmap_lazy_nr.store(area_pages, rlx, $);
        vmap_purge_list.store(bit_mask(0), rlx, $);
        purge_vmap_area_lock.store(0, rlx, $);
        vmap_purge_lock.store(2, rlx, $);  // held by KW (thread 1): owner = 1 + 1
        drain_in_progress.store(1, rlx, $);
        purge_work.init();
    }
    static bool lock_observed() { return cfg.code == Code::Seed; }
    static bool v5_18_list() { return cfg.code == Code::V5_18 || cfg.code == Code::V2Guard; }
    void purge_unlock() {
        if (lock_observed()) unlock(vmap_purge_lock);
    }
    void queue_purge() { purge_work.schedule(); }

    void free_area(unsigned node) {
        if (cfg.code == Code::InsertBeforeAdd) llist_add(node, vmap_purge_list);
        const long nr_lazy = full_fetch_add(vmap_lazy_nr, area_pages) + area_pages;
        RL_ASSERT(nr_lazy - area_pages >= 0);  // S2
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);
            purge_vmap_area_list($).store(purge_vmap_area_list($).load() | bit_mask(node));
            unlock(purge_vmap_area_lock);
        } else if (cfg.code != Code::InsertBeforeAdd) {
            llist_add(node, vmap_purge_list);
        }
        if (nr_lazy <= lazy_max_pages) return;
        switch (cfg.code) {
        case Code::Baseline:
        case Code::InsertBeforeAdd:
        case Code::V5_18: queue_purge(); break;
        case Code::Seed:
            if (read_once(vmap_purge_lock) == 0) queue_purge();  // !mutex_is_locked()
            break;
        case Code::V2Guard:
            if (full_xchg(drain_in_progress, 1) == 0) queue_purge();
            break;
        }
    }
    void purge_locked() {
        long taken = 0;
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);
            taken = purge_vmap_area_list($).load();
            purge_vmap_area_list($).store(0);
            unlock(purge_vmap_area_lock);
        } else {
            taken = full_xchg(vmap_purge_list, 0);  // llist_del_all
        }
        for (unsigned node = 0; node < 2; ++node)
            if ((taken & bit_mask(node)) != 0) vmap_lazy_nr.fetch_sub(area_pages, rlx, $);  // atomic_sub
    }
    void try_purge() {
        if (!lock_observed() || mutex_trylock(vmap_purge_lock)) {
            purge_locked();
            purge_unlock();
        }
    }
    // v5.18's drain_vmap_area_work(); vmap_purge_lock is not observed in its variants (no events)
    void drain_work() {
        purge_locked();
        drain_recheck(false);
    }
    void drain_recheck(bool in_kw_run) {
        for (;;) {
            const long nr_lazy = read_once(vmap_lazy_nr);
            RL_ASSERT(nr_lazy >= 0);  // S2
            if (nr_lazy <= lazy_max_pages) break;
            if (in_kw_run) {
                drain_goes_on = true;
                return;
            }
            purge_locked();
        }
        if (cfg.code == Code::V2Guard) write_once(drain_in_progress, 0);
    }
    void work_fn() {
        if (v5_18_list())
            drain_work();
        else
            try_purge();
    }
    void kw() {
        purge_locked();
        purge_unlock();
        if (v5_18_list()) drain_recheck(true);
    }
    void thread(unsigned i) { i == 0 ? free_area(1) : kw(); }
    void after() {
        if (drain_goes_on) drain_work();  // the AtQuiescence continuation, declared before the work
        purge_work.drain([this] { work_fn(); });
        record({vmap_lazy_nr.load(rlx, $)});
    }
};

/// vmalloc_drain (VmallocDrain): F (insert area 1 under vn->lazy.lock; schedule_work) || KW (the
/// drain work's kworker, running the execution queued before the start); executions F queues
/// run in after().
struct VmallocDrain : rl::test_suite<VmallocDrain, 2> {
    struct Config {
        bool lockless_precheck = true;      ///< v6.9: RB_EMPTY_ROOT() before taking the lock
        bool unordered_on_failure = false;  ///< M4
        bool no_mb_after_clear = false;     ///< M5
    };
    static Config cfg;  // defined below the twins
    A lazy_lock, lazy_root;
    Work drain_work;

    void before() {
        lazy_lock.store(0, rlx, $);
        lazy_root.store(0, rlx, $);
        drain_work.init({.queued_at_start = true,
                         .unordered_on_failure = cfg.unordered_on_failure,
                         .no_mb_after_clear = cfg.no_mb_after_clear});
    }
    void f() {
        spin_lock(lazy_lock);
        write_once(lazy_root, read_once(lazy_root) | bit_mask(1));
        unlock(lazy_lock);
        drain_work.schedule();
    }
    void work_fn() {
        if (cfg.lockless_precheck && read_once(lazy_root) == 0) return;  // RB_EMPTY_ROOT()
        spin_lock(lazy_lock);
        write_once(lazy_root, 0);
        unlock(lazy_lock);
    }
    void thread(unsigned i) { i == 0 ? f() : drain_work.run_worker(1, [this] { work_fn(); }); }
    void after() {
        drain_work.drain([this] { work_fn(); });
        record({lazy_root.load(rlx, $)});
    }
};

// The configuration each twin runs with (set by bare::twin before the search).
inline Sb::Config Sb::cfg;
inline Mp::Config Mp::cfg;
inline Lb::Config Lb::cfg;
inline IriwLitmus::Config IriwLitmus::cfg;
inline Wrc::Config Wrc::cfg;
inline TwoPlusTwoW::Config TwoPlusTwoW::cfg;
inline RLitmus::Config RLitmus::cfg;
inline SLitmus::Config SLitmus::cfg;
inline CoRR::Config CoRR::cfg;
inline Isa2::Config Isa2::cfg;
inline RShrinkerBit::Config RShrinkerBit::cfg;
inline ShrinkerBit::Config ShrinkerBit::cfg;
inline ShrinkerReparent::Config ShrinkerReparent::cfg;
inline MemcgFlush::Config MemcgFlush::cfg;
inline MemcgFlushOngoing::Config MemcgFlushOngoing::cfg;
inline Vmpressure::Config Vmpressure::cfg;
inline VmallocPurge::Config VmallocPurge::cfg;
inline VmallocDrain::Config VmallocDrain::cfg;

// ---- the registry -----------------------------------------------------------------------------

/// Every catalogue variant with a twin, by ordercheck id.
inline std::map<std::string, Runner> catalogue_twins() {
    using SBit = ShrinkerBit;
    using OE = ShrinkerBit::OnEmpty;
    using MF = MemcgFlush::Check;
    using MO = MemcgFlushOngoing::Coord;
    using VC = Vmpressure::Code;
    using VS = Vmpressure::Scenario;
    using VP = VmallocPurge::Code;
    return {
        {"SB/relaxed", twin<Sb>({})},
        {"SB/rel_acq", twin<Sb>({.write = rel, .read = acq})},
        {"SB/fenced", twin<Sb>({.fence0 = true, .fence1 = true})},
        {"SB/one_fence", twin<Sb>({.fence0 = true})},
        {"SB/sc_vs_fence", twin<Sb>({.fence1 = true, .sc0 = true})},
        {"MP/relaxed", twin<Mp>({})},
        {"MP/rel_acq", twin<Mp>({.flag_write = rel, .flag_read = acq})},
        {"MP/fenced", twin<Mp>({.release_fence = true, .acquire_fence = true})},
        {"MP/release_only", twin<Mp>({.flag_write = rel})},
        {"MP/fence_one_side", twin<Mp>({.release_fence = true})},
        {"LB/relaxed", twin<Lb>({})},
        {"LB/rel_acq", twin<Lb>({.read = acq, .write = rel})},
        {"LB/fenced", twin<Lb>({.fence0 = true, .fence1 = true})},
        {"LB/ctrl", twin<Lb>({.dep0 = Lb::Dep::Ctrl, .dep1 = Lb::Dep::Ctrl})},
        {"LB/data", twin<Lb>({.dep0 = Lb::Dep::Data, .dep1 = Lb::Dep::Data})},
        {"LB/one_ctrl", twin<Lb>({.dep0 = Lb::Dep::Ctrl})},
        {"IRIW/relaxed", twin<IriwLitmus>({})},
        {"IRIW/rel_acq", twin<IriwLitmus>({.write = rel, .read = acq})},
        {"WRC/relaxed", twin<Wrc>({})},
        {"WRC/rel_acq", twin<Wrc>({.x_write = rel, .x_read = acq, .y_write = rel, .y_read = acq})},
        {"WRC/y_rel_acq", twin<Wrc>({.y_write = rel, .y_read = acq})},
        {"WRC/fenced", twin<Wrc>({.release_fence1 = true, .acquire_fence2 = true})},
        {"WRC/wmb_acquire", twin<Wrc>({.y_read = acq, .release_fence1 = true})},
        {"2+2W/relaxed", twin<TwoPlusTwoW>({})},
        {"2+2W/rel_acq", twin<TwoPlusTwoW>({.write = rel})},
        {"2+2W/fenced", twin<TwoPlusTwoW>({.fence0 = true, .fence1 = true})},
        {"2+2W/fence_one_side", twin<TwoPlusTwoW>({.fence0 = true})},
        {"R/relaxed", twin<RLitmus>({})},
        {"R/rel_acq", twin<RLitmus>({.y_write = rel, .x_read = acq})},
        {"R/fenced", twin<RLitmus>({.fence0 = true, .fence1 = true})},
        {"R/fence_one_side", twin<RLitmus>({.fence1 = true})},
        {"S/relaxed", twin<SLitmus>({})},
        {"S/rel_acq", twin<SLitmus>({.y_write = rel, .y_read = acq})},
        {"S/fenced", twin<SLitmus>({.release_fence0 = true, .acquire_fence1 = true})},
        {"CoRR/relaxed", twin<CoRR>({})},
        {"CoRR/two_writes", twin<CoRR>({.second_write = true})},
        {"ISA2/relaxed", twin<Isa2>({})},
        {"ISA2/rel_acq", twin<Isa2>({.y_write = rel, .y_read = acq, .z_write = rel, .z_read = acq})},
        {"ISA2/fenced", twin<Isa2>({.fences = true})},
        {"ISA2/relaxed_middle", twin<Isa2>({.y_write = rel, .z_read = acq})},
        {"R+shrinker_bit/merged", twin<RShrinkerBit>({sc, sc})},
        {"R+shrinker_bit/no_before_atomic", twin<RShrinkerBit>({rlx, sc})},
        {"R+shrinker_bit/no_after_atomic", twin<RShrinkerBit>({sc, rlx})},
        {"R+shrinker_bit/neither", twin<RShrinkerBit>({rlx, rlx})},
        {"R+shrinker_bit/before_atomic_as_wmb", twin<RShrinkerBit>({rel, sc})},
        {"R+shrinker_bit/after_atomic_as_rmb", twin<RShrinkerBit>({sc, acq})},
        {"R+shrinker_bit/after_atomic_as_wmb", twin<RShrinkerBit>({sc, rel})},

        {"shrinker_bit/baseline", twin<SBit>({.on_empty = OE::Nothing, .before = rlx})},
        {"shrinker_bit/merged", twin<SBit>({})},
        {"shrinker_bit/no_after_atomic", twin<SBit>({.after = rlx})},
        {"shrinker_bit/no_before_atomic", twin<SBit>({.before = rlx})},
        {"shrinker_bit/no_recheck", twin<SBit>({.on_empty = OE::ClearOnly})},
        {"shrinker_bit/before_atomic_as_wmb", twin<SBit>({.before = rel})},
        {"shrinker_bit/after_atomic_as_rmb", twin<SBit>({.after = acq})},
        {"shrinker_bit/after_atomic_as_wmb", twin<SBit>({.after = rel})},
        {"shrinker_bit/locked_count", twin<SBit>({.before = rlx, .after = rlx, .locked_count = true, .passes = 2})},
        {"shrinker_bit/baseline_idle", twin<SBit>({.on_empty = OE::Nothing, .before = rlx, .after = rlx, .add = false})},
        {"shrinker_bit/merged_idle", twin<SBit>({.add = false})},
        {"shrinker_bit/reparent_before_fix", twin<ShrinkerReparent>({.fixed = false})},
        {"shrinker_bit/reparent_fixed", twin<ShrinkerReparent>({})},
        {"memcg_flush/baseline", twin<MemcgFlush>({MF::None})},
        {"memcg_flush/patched", twin<MemcgFlush>({MF::ReadSkip})},
        {"memcg_flush/check_after_mb", twin<MemcgFlush>({MF::MbRead})},
        {"memcg_flush/inverted_check", twin<MemcgFlush>({MF::Inverted})},
        {"memcg_flush/v6.0_trylock", twin<MemcgFlushOngoing>({MO::Trylock})},
        {"memcg_flush/v6.4_skip_if_ongoing", twin<MemcgFlushOngoing>({MO::Ongoing})},
        {"memcg_flush/v6.4_xchg_only", twin<MemcgFlushOngoing>({MO::XchgOnly})},
        {"memcg_flush/v6.8_no_skip", twin<MemcgFlushOngoing>({MO::NoSkip})},
        {"vmpressure/baseline", twin<Vmpressure>({VC::Baseline, VS::NoListener})},
        {"vmpressure/v3", twin<Vmpressure>({VC::V3, VS::NoListener})},
        {"vmpressure/v1_check_after_accumulation", twin<Vmpressure>({VC::V1, VS::NoListener})},
        {"vmpressure/v3_socket_pressure", twin<Vmpressure>({VC::V3, VS::Socket})},
        {"vmpressure/check_at_entry", twin<Vmpressure>({VC::CheckAtEntry, VS::Socket})},
        {"vmpressure/baseline_register_hb_reclaim", twin<Vmpressure>({VC::Baseline, VS::HbReclaim})},
        {"vmpressure/v3_register_hb_reclaim", twin<Vmpressure>({VC::V3, VS::HbReclaim})},
        {"vmpressure/plain_counter", twin<Vmpressure>({VC::PlainCounter, VS::Concurrent}, rl::test_result_data_race)},
        {"vmalloc_purge/baseline", twin<VmallocPurge>({VP::Baseline})},
        {"vmalloc_purge/seed", twin<VmallocPurge>({VP::Seed})},
        {"vmalloc_purge/v5_18", twin<VmallocPurge>({VP::V5_18})},
        {"vmalloc_purge/v2_in_progress_guard", twin<VmallocPurge>({VP::V2Guard})},
        {"vmalloc_purge/insert_before_add", twin<VmallocPurge>({VP::InsertBeforeAdd}, rl::test_result_user_assert_failed)},
        {"vmalloc_drain/v6_9", twin<VmallocDrain>({})},
        {"vmalloc_drain/v6_9_unordered_pending", twin<VmallocDrain>({.unordered_on_failure = true})},
        {"vmalloc_drain/v6_9_no_mb_after_clear", twin<VmallocDrain>({.no_mb_after_clear = true})},
        {"vmalloc_drain/locked_take_unordered_pending",
         twin<VmallocDrain>({.lockless_precheck = false, .unordered_on_failure = true})},
    };
}

}  // namespace bare
