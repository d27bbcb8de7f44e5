// SPDX-License-Identifier: MIT
// LB (load buffering): each thread reads one location, then writes the other.
// Bad outcome: both reads see the other thread's later write (herd: exists (0:r0=1 /\ 1:r1=1)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Lb {
    struct Config {
        MemoryOrder read = relaxed;
        MemoryOrder write = relaxed;
        bool fence0 = false;  ///< F_acq_rel between P0's read and write
        bool fence1 = false;
    };
    explicit Lb(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"0:r0"};
    Reg r1{"1:r1"};

    void p0() {
        r0 = x.load(cfg.read);
        if (cfg.fence0) fence(acq_rel);
        y.store(1, cfg.write);
    }
    void p1() {
        r1 = y.load(cfg.read);
        if (cfg.fence1) fence(acq_rel);
        x.store(1, cfg.write);
    }
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
                         "either read before its thread's write, so the po | rf cycle is allowed")
             .lkmm_engine_finds(Verdict::Never,
                                "the graph engine adds events in po | rf order, so it cannot build a po | rf "
                                "cycle: load buffering is not explored under LKMM (docs/lkmm.md)"),
         "all accesses relaxed"},
        {"rel_acq", C{acquire, release, false, false},
         expect::never("Each acquire read reads a release write, so both rf edges are sw edges and "
                       "R x ->sb W y ->sw R y ->sb W x ->sw R x is an hb cycle (hb irreflexive); forbidden by "
                       "C++11, C++20, RC11 and LKMM alike."),
         "acquire reads, release writes"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("F_acq_rel between each read and write: F1 ->sb W x ->rf R x ->sb F0 is an sw edge "
                       "(release fence to acquire fence), and so is F0 ->sb W y ->rf R y ->sb F1, so "
                       "hb = (sb | sw)+ is cyclic. Forbidden by C++20 as well, and by LKMM with smp_mb()."),
         "relaxed accesses; F_acq_rel between the read and the write in both threads"},
    });
}

}  // namespace oc::models
