// SPDX-License-Identifier: MIT
// ISA2: a message-passing chain through three threads: P0 writes x, then y; P1 reads y, then
// writes z; P2 reads z, then x. Bad outcome: P2 sees the end of the chain but not x
// (herd: exists (1:r0=1 /\ 2:r1=1 /\ 2:r2=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Isa2 {
    struct Config {
        MemoryOrder y_write = relaxed;
        MemoryOrder y_read = relaxed;
        MemoryOrder z_write = relaxed;
        MemoryOrder z_read = relaxed;
        bool fences = false;  ///< F_rel in P0, F_acq_rel in P1, F_acq in P2, between each thread's two accesses
    };
    explicit Isa2(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Atomic<int> z{"z", 0};
    Reg r0{"1:r0"};
    Reg r1{"2:r1"};
    Reg r2{"2:r2"};

    void p0() {
        x.store(1, relaxed);
        if (cfg.fences) fence(release);
        y.store(1, cfg.y_write);
    }
    void p1() {
        r0 = y.load(cfg.y_read);
        if (cfg.fences) fence(acq_rel);
        z.store(1, cfg.z_write);
    }
    void p2() {
        r1 = z.load(cfg.z_read);
        if (cfg.fences) fence(acquire);
        r2 = x.load(relaxed);
    }
    bool bad_outcome() const { return r0 == 1 && r1 == 1 && r2 == 0; }
    static constexpr std::array<Thread<Isa2>, 3> threads{{{"P0", &Isa2::p0}, {"P1", &Isa2::p1}, {"P2", &Isa2::p2}}};
};

}  // namespace

ModelDef isa2() {
    using C = Isa2::Config;
    return define<Isa2>("ISA2", "litmus", "W x; W y || R y; W z || R z; R x", {
        {"relaxed", C{},
         expect::sometimes("All accesses relaxed: no sw edge, so W x is not hb-before P2's read of x, which "
                           "may read the initial value (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, release, acquire, false},
         expect::never("Both links are sw edges: W x ->sb W y ->sw R y ->sb W z ->sw R z ->sb R x, so W x is "
                       "hb-before P2's R x and coherence (hb;fr irreflexive) forbids it reading the initial "
                       "x."),
         "release writes and acquire reads of y and z"},
        {"fenced", C{relaxed, relaxed, relaxed, relaxed, true},
         expect::never("Fence synchronisation on both links: F_rel ->sb W y ->rf R y ->sb F_acq_rel and "
                       "F_acq_rel ->sb W z ->rf R z ->sb F_acq are sw edges, so W x is hb-before P2's R x "
                       "and coherence (hb;fr irreflexive) forbids it reading the initial x."),
         "relaxed accesses; F_rel in P0, F_acq_rel in P1, F_acq in P2"},
        {"relaxed_middle", C{release, relaxed, relaxed, acquire, false},
         expect::sometimes("The chain is broken in P1: its relaxed read of y does not acquire P0's release "
                           "write and its relaxed write of z does not release to P2, so no sw edge exists and "
                           "W x is not hb-before P2's R x."),
         "release write of y and acquire read of z, P1 relaxed"},
    });
}

}  // namespace oc::models
