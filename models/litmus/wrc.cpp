// SPDX-License-Identifier: MIT
// WRC (write-to-read causality): P0 writes x; P1 reads x, then writes y; P2 reads y, then x.
// Bad outcome: P2 sees P1's write but not the write P1 saw (herd: exists (1:r0=1 /\ 2:r1=1 /\ 2:r2=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Wrc {
    struct Config {
        MemoryOrder x_write = relaxed;
        MemoryOrder x_read = relaxed;  ///< both reads of x
        MemoryOrder y_write = relaxed;
        MemoryOrder y_read = relaxed;
        bool release_fence1 = false;  ///< F_rel between P1's read of x and write of y
        bool acquire_fence2 = false;  ///< F_acq between P2's reads
    };
    explicit Wrc(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"1:r0"};
    Reg r1{"2:r1"};
    Reg r2{"2:r2"};

    void p0() { x.store(1, cfg.x_write); }
    void p1() {
        r0 = x.load(cfg.x_read);
        if (cfg.release_fence1) fence(release);
        y.store(1, cfg.y_write);
    }
    void p2() {
        r1 = y.load(cfg.y_read);
        if (cfg.acquire_fence2) fence(acquire);
        r2 = x.load(cfg.x_read);
    }
    bool bad_outcome() const { return r0 == 1 && r1 == 1 && r2 == 0; }
    static constexpr std::array<Thread<Wrc>, 3> threads{{{"P0", &Wrc::p0}, {"P1", &Wrc::p1}, {"P2", &Wrc::p2}}};
};

}  // namespace

ModelDef wrc() {
    using C = Wrc::Config;
    return define<Wrc>("WRC", "litmus", "write-to-read causality: W x || R x; W y || R y; R x", {
        {"relaxed", C{},
         expect::sometimes("All accesses relaxed: no sw edge, so P1's read of x is not hb-before P2's read of "
                           "x, and P2 may read the initial x (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, release, acquire, false, false},
         expect::never("Both rf edges into acquire reads are sw edges: W x ->sw P1's R x ->sb W y ->sw R y "
                       "->sb P2's R x, so W x is hb-before P2's R x, and coherence (hb;fr irreflexive) forbids "
                       "it reading the initial x."),
         "release writes, acquire reads"},
        {"y_rel_acq", C{relaxed, relaxed, release, acquire, false, false},
         expect::never("Only y is release/acquire: P1's R x ->sb W y ->sw R y ->sb P2's R x makes the two reads "
                       "of x hb-ordered; P2's read of the initial x would be fr to W x, which P1's read reads "
                       "from, so P1's R x ->hb P2's R x ->fr;rf P1's R x is an hb;eco cycle (read-read "
                       "coherence). LKMM agrees: smp_store_release is A-cumulative."),
         "x relaxed; release write and acquire read of y"},
        {"fenced", C{relaxed, relaxed, relaxed, relaxed, true, true},
         expect::never("F_rel ->sb W y ->rf R y ->sb F_acq is an sw edge, and the release fence also covers "
                       "P1's earlier read of x: P1's R x ->sb F_rel ->sw F_acq ->sb P2's R x, so the reads "
                       "of x are hb-ordered and read-read coherence (hb;eco irreflexive) forbids P2 reading "
                       "the initial x after P1 read 1.")
             .under_lkmm(Verdict::Sometimes,
                         "WRC+wmb+rmb: smp_wmb orders only W->W, not P1's read of x before its write of y, "
                         "so LKMM allows it; the release-fence mapping of smp_wmb is stronger"),
         "relaxed accesses; F_rel in P1 between R x and W y, F_acq in P2 between the reads"},
        {"wmb_acquire", C{relaxed, relaxed, relaxed, acquire, true, false},
         expect::never("P1's F_rel ->sb W y ->rf R y (acquire) is an sw edge; the release fence covers P1's "
                       "earlier read of x, so P1's R x is hb-before P2's R x and read-read coherence forbids "
                       "P2 reading the initial x.")
             .under_lkmm(Verdict::Sometimes,
                         "WRC+wmb+acquire: smp_wmb does not order P1's read of x before its write of y, and "
                         "is not A-cumulative, so LKMM allows it"),
         "relaxed accesses; F_rel in P1, acquire read of y in P2"},
    });
}

}  // namespace oc::models
