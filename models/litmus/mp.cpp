// SPDX-License-Identifier: MIT
// MP (message passing): P0 writes the data, then the flag; P1 reads the flag, then the data.
// Bad outcome: P1 sees the flag but not the data (herd: exists (1:r0=1 /\ 1:r1=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Mp {
    struct Config {
        MemoryOrder flag_write = relaxed;
        MemoryOrder flag_read = relaxed;
        bool release_fence = false;  ///< F_rel between P0's two writes
        bool acquire_fence = false;  ///< F_acq between P1's two reads
    };
    explicit Mp(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};  // the data
    Atomic<int> y{"y", 0};  // the flag
    Reg r0{"1:r0"};
    Reg r1{"1:r1"};

    void p0() {
        x.store(1, relaxed);
        if (cfg.release_fence) fence(release);
        y.store(1, cfg.flag_write);
    }
    void p1() {
        r0 = y.load(cfg.flag_read);
        if (cfg.acquire_fence) fence(acquire);
        r1 = x.load(relaxed);
    }
    bool bad_outcome() const { return r0 == 1 && r1 == 0; }
    static constexpr std::array<Thread<Mp>, 2> threads{{{"P0", &Mp::p0}, {"P1", &Mp::p1}}};
};

}  // namespace

ModelDef mp() {
    using C = Mp::Config;
    return define<Mp>("MP", "litmus", "message passing: W x; W y || R y; R x", {
        {"relaxed", C{},
         expect::sometimes("All accesses relaxed: no sw edge, so nothing makes W x hb-before R x; R x may read "
                           "the initial write while R y reads W y (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, false, false},
         expect::never("R y (acquire) reading W y (release) is an sw edge, so W x ->sb W y ->sw R y ->sb R x "
                       "makes W x hb-before R x; R x reading the initial write would be fr to W x, and "
                       "coherence (hb;eco irreflexive) forbids W x ->hb R x ->fr W x."),
         "release write of y, acquire read of y"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("Fence synchronisation: F_rel ->sb W y ->rf R y ->sb F_acq is an sw edge from the "
                       "release fence to the acquire fence, so W x is hb-before R x and coherence (hb;fr "
                       "irreflexive) forbids R x reading the initial write.")
             .because_under_lkmm("Under LKMM P0's F_rel counts as smp_wmb() and P1's F_acq as smp_rmb() "
                                 "(MP+wmb+rmb): R x ->fre W x ->wmb W y ->rfe R y is prop, so R x "
                                 "->hb R y within P1, and R y ->rmb R x closes an hb cycle."),
         "relaxed accesses; F_rel between P0's writes, F_acq between P1's reads"},
        {"release_only", C{release, relaxed, false, false},
         expect::sometimes("A release write with no acquire on the reading side makes no sw edge (sw needs an "
                           "acquire read or an acquire fence after the read): W x is not hb-before R x.")
             .because_under_lkmm("P0's release write orders W x before W y (po-rel), but P1's two once reads "
                                 "are unordered (no ppo between them): no hb or pb cycle forbids R x reading "
                                 "the initial write."),
         "release write of y, relaxed reads"},
        {"fence_one_side", C{relaxed, relaxed, true, false},
         expect::sometimes("A release fence with no acquire on the reading side makes no sw edge: W x is not "
                           "hb-before R x, so R x may read the initial write.")
             .because_under_lkmm("Under LKMM P0's fence counts as smp_wmb(), which orders W x before W y, but "
                                 "P1's two once reads are unordered (no ppo between them): no hb or pb cycle "
                                 "forbids R x reading the initial write."),
         "F_rel in P0 only"},
    });
}

}  // namespace oc::models
