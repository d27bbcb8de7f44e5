// SPDX-License-Identifier: MIT
// LB (load buffering): each thread reads one location, then writes the other, with the
// dependency of the write on the read stated where there is one (the LKMM variants).
// Bad outcome: both reads see the other thread's later write (herd: exists (0:r0=1 /\ 1:r1=1)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Lb {
    /// How a thread's write depends on its read (stated with DependsOn, as LKMM reads it).
    enum class Dep : std::uint8_t {
        None,  ///< `r = x; y = 1`
        Ctrl,  ///< `r = x; if (r != 2) y = 1`: always taken, so the outcome needs no thin air (LB+ctrls)
        Data,  ///< `r = x; y = r | 1`: always 1, likewise (LB+datas)
    };
    struct Config {
        MemoryOrder read = relaxed;
        MemoryOrder write = relaxed;
        bool fence0 = false;  ///< F_acq_rel between P0's read and write
        bool fence1 = false;
        Dep dep0 = Dep::None, dep1 = Dep::None;
    };
    // Every dependency of a write on a read is stated below, so that under LKMM the load buffering
    // the graph engine explores is ordered as the code orders it (docs/writing-models.md,
    // "Dependencies"); without them LB/ctrl and LB/data would be Sometimes there.
    static constexpr bool states_dependencies = true;
    explicit Lb(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"0:r0"};
    Reg r1{"1:r1"};

    /// `r = from; [fence]; to = 1` with the dependency `dep`.
    void side(Atomic<int>& from, Atomic<int>& to, Reg& r, bool fenced, Dep dep) {
        const int v = from.load(cfg.read);
        r = v;
        const Reads read = last_read();
        if (fenced) fence(acq_rel);
        switch (dep) {
        case Dep::None: to.store(1, cfg.write); break;
        case Dep::Ctrl: {
            const DependsOn on(Dependency::Ctrl, read);
            if (v != 2) to.store(1, cfg.write);
            break;
        }
        case Dep::Data: {
            const DependsOn on(Dependency::Data, read);
            to.store(v | 1, cfg.write);
            break;
        }
        }
    }
    void p0() { side(x, y, r0, cfg.fence0, cfg.dep0); }
    void p1() { side(y, x, r1, cfg.fence1, cfg.dep1); }
    bool bad_outcome() const { return r0 == 1 && r1 == 1; }
    static constexpr std::array<Thread<Lb>, 2> threads{{{"P0", &Lb::p0}, {"P1", &Lb::p1}}};
};

}  // namespace

ModelDef lb() {
    using C = Lb::Config;
    return define<Lb>("LB", "litmus", "load buffering: R x; W y || R y; W x", {
        {"relaxed", C{},
         expect::never("RC11's no-thin-air axiom (acyclic sb | rf) forbids R x ->sb W y ->rf R y ->sb W x ->rf "
                       "R x. C++20 drops that axiom and allows the outcome, and so does LKMM "
                       "(LB+poonceonces: no dependency orders the read before the write); Relacy cannot "
                       "produce it either way, since a load never reads a store that has not executed yet.")
             .under_lkmm(Verdict::Sometimes,
                         "LKMM (LB+poonceonces): plain po is not in hb and no dependency or fence orders "
                         "either read before its thread's write, so the po | rf cycle is allowed"),
         "all accesses relaxed"},
        {"ctrl", C{.dep0 = Lb::Dep::Ctrl, .dep1 = Lb::Dep::Ctrl},
         expect::never("RC11: no-thin-air (sb | rf acyclic), as for relaxed. LKMM (LB+ctrls): each write is "
                       "ctrl-dependent on its thread's read (the branch is always taken, yet the write is "
                       "still control-dependent), and ctrl to a write is in ppo, so R x ->ppo W y ->rfe R y "
                       "->ppo W x ->rfe R x is an hb cycle: forbidden. Without the stated dependency LKMM "
                       "would allow it, as for relaxed."),
         "each write under `if (r != 2)`, the branch stated as a ctrl dependency"},
        {"data", C{.dep0 = Lb::Dep::Data, .dep1 = Lb::Dep::Data},
         expect::never("RC11: no-thin-air, as for relaxed. LKMM (LB+datas): each write stores `r | 1`, a "
                       "value computed from its thread's read (a data dependency, in ppo even though it is "
                       "always 1): the same hb cycle, forbidden."),
         "each thread writes `r | 1`, stated as a data dependency"},
        {"one_ctrl", C{.dep0 = Lb::Dep::Ctrl},
         expect::never("RC11: no-thin-air, as for relaxed.")
             .under_lkmm(Verdict::Sometimes,
                         "LKMM (litmus/tests/LB+ctrl+po.litmus, herd7 7.57: Sometimes 1 3): P0's ctrl "
                         "dependency orders its read before its write, but nothing orders P1's read before its "
                         "write (plain po), so there is no hb cycle: allowed"),
         "P0's write under `if (r != 2)` (a ctrl dependency); P1 as in relaxed"},
        {"rel_acq", C{acquire, release, false, false},
         expect::never("Each acquire read reads a release write, so both rf edges are sw edges and "
                       "R x ->sb W y ->sw R y ->sb W x ->sw R x is an hb cycle (hb irreflexive); forbidden by "
                       "C++11, C++20, RC11 and LKMM alike."),
         "acquire reads, release writes"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("F_acq_rel between each read and write: F1 ->sb W x ->rf R x ->sb F0 is an sw edge "
                       "(release fence to acquire fence), and so is F0 ->sb W y ->rf R y ->sb F1, so "
                       "hb = (sb | sw)+ is cyclic. Forbidden by C++20 as well, and by LKMM with smp_mb().")
             .because_under_lkmm("Under LKMM an acq_rel fence counts as smp_mb(): R x ->mb W y ->rfe R y ->mb "
                                 "W x ->rfe R x is an hb cycle (LB+fencembonceonces)."),
         "relaxed accesses; F_acq_rel between the read and the write in both threads"},
    });
}

}  // namespace oc::models
