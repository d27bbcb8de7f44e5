// SPDX-License-Identifier: MIT
// SB (store buffering): each thread writes its own flag, then reads the other's.
// Bad outcome: both reads see 0 (herd: exists (0:r0=0 /\ 1:r1=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Sb {
    struct Config {
        MemoryOrder write = relaxed;
        MemoryOrder read = relaxed;
        bool fence0 = false;  ///< F_sc between P0's write and read
        bool fence1 = false;
        bool sc0 = false;     ///< P0's write and read are seq_cst accesses (overrides write/read)
    };
    explicit Sb(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"0:r0"};
    Reg r1{"1:r1"};

    void p0() {
        x.store(1, cfg.sc0 ? seq_cst : cfg.write);
        if (cfg.fence0) fence(seq_cst);
        r0 = y.load(cfg.sc0 ? seq_cst : cfg.read);
    }
    void p1() {
        y.store(1, cfg.write);
        if (cfg.fence1) fence(seq_cst);
        r1 = x.load(cfg.read);
    }
    bool bad_outcome() const { return r0 == 0 && r1 == 0; }
    static constexpr std::array<Thread<Sb>, 2> threads{{{"P0", &Sb::p0}, {"P1", &Sb::p1}}};
};

}  // namespace

ModelDef sb() {
    using C = Sb::Config;
    return define<Sb>("SB", "litmus", "store buffering: W x; R y || W y; R x", {
        {"relaxed", C{},
         expect::sometimes("Relaxed accesses impose no order between a thread's write and its later read "
                           "of another location: both reads may take the initial writes (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, false, false},
         expect::sometimes("Release writes and acquire reads order nothing here: an sw edge needs a read that "
                           "reads from a release write, and in the bad outcome both reads read the initial "
                           "writes, so hb is just sb and no coherence or SC axiom is violated (RC11 allows it)."),
         "release writes, acquire reads"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("With both reads 0, F0 ->sb R y ->fr W y ->sb F1 puts F0 before F1 in psc "
                       "([F_sc];hb;eco;hb;[F_sc]), and F1 ->sb R x ->fr W x ->sb F0 puts F1 before F0: a psc "
                       "cycle, which the SC axiom forbids."),
         "relaxed accesses; F_sc between the write and the read in both threads"},
        {"one_fence", C{relaxed, relaxed, true, false},
         expect::sometimes("A single SC fence orders nothing against the other thread's unfenced "
                           "accesses: psc has no cycle with one fence."),
         "F_sc in P0 only (remove one fence from fenced)"},
        {"sc_vs_fence", C{relaxed, relaxed, false, true, true},
         expect::never("P0: W_sc x; R_sc y. P1: W_rlx y; F_sc; R_rlx x. With both reads 0, psc relates "
                       "W x -> R y (sb between SC events), R y -> F1 (R y ->fr W y ->sb F1), and F1 -> W x "
                       "(F1 ->sb R x ->fr W x): a cycle, which the SC axiom forbids (C++11, C++20 and RC11 "
                       "all forbid the outcome).")
             .engine_reports_inconsistent("Relacy does not relate SC fences to SC accesses "
                                          "(docs/relacy.md, Fences and seq_cst); certification rejects those executions")
             .under_lkmm(Verdict::Sometimes,
                         "LKMM has no seq_cst access: under --model lkmm a C++ seq_cst access counts as "
                         "acquire and release, and SB with a strong fence on one side only is allowed "
                         "(SB+poonceonces with one smp_mb())"),
         "seq_cst accesses in P0 against F_sc between relaxed accesses in P1"},
    });
}

}  // namespace oc::models
