// SPDX-License-Identifier: MIT
// S: P0 writes x, then y; P1 reads y, then writes x. Bad outcome: P1 reads P0's write of y,
// yet P0's write of x wins coherence over P1's (herd: exists (x=2 /\ 1:r0=1)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct S {
    struct Config {
        MemoryOrder y_write = relaxed;
        MemoryOrder y_read = relaxed;
        bool release_fence0 = false;  ///< F_rel between P0's writes
        bool acquire_fence1 = false;  ///< F_acq between P1's read and write
    };
    explicit S(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0, observed};
    Atomic<int> y{"y", 0};
    Reg r0{"1:r0"};

    void p0() {
        x.store(2, relaxed);
        if (cfg.release_fence0) fence(release);
        y.store(1, cfg.y_write);
    }
    void p1() {
        r0 = y.load(cfg.y_read);
        if (cfg.acquire_fence1) fence(acquire);
        x.store(1, relaxed);
    }
    bool bad_outcome() const { return x.final() == 2 && r0 == 1; }
    static constexpr std::array<Thread<S>, 2> threads{{{"P0", &S::p0}, {"P1", &S::p1}}};
};

}  // namespace

ModelDef s() {
    using C = S::Config;
    return define<S>("S", "litmus", "W x; W y || R y; W x, with P0's write of x last in coherence", {
        {"relaxed", C{},
         expect::sometimes("With no sw edge, hb is just sb: W x=2 ->sb W y ->rf R y ->sb W x=1 ->mo W x=2 is a "
                           "cycle through mo, which no RC11 axiom forbids (sb | rf stays acyclic).")
             .engine_finds(Verdict::Never,
                           "Relacy: stores join modification order in execution order, so P1's write of x, "
                           "executed after its read of y, is always mo-after P0's"),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, false, false},
         expect::never("R y (acquire) reading W y (release) is an sw edge, so W x=2 ->sb W y ->sw R y ->sb W "
                       "x=1 makes W x=2 hb-before W x=1; coherence (hb;mo irreflexive) then forbids W x=1 "
                       "->mo W x=2. (Relacy cannot produce S even without the synchronisation, so this variant does "
                       "not exercise it.)"),
         "release write and acquire read of y"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("F_rel ->sb W y ->rf R y ->sb F_acq is an sw edge, so W x=2 is hb-before W x=1 and "
                       "coherence (hb;mo irreflexive) forbids W x=1 ->mo W x=2. (Relacy cannot produce S even "
                       "without the fences, so this variant does not exercise them.)")
             .under_lkmm(Verdict::Sometimes,
                         "S+wmb+rmb: smp_rmb orders only reads against reads, not P1's read of y before its "
                         "write of x, so LKMM allows it; the acquire-fence mapping of smp_rmb is stronger"),
         "relaxed accesses; F_rel between P0's writes, F_acq between P1's read and write"},
    });
}

}  // namespace oc::models
