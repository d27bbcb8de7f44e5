// SPDX-License-Identifier: MIT
// 2+2W: each thread writes both locations, in opposite orders. Bad outcome: each location ends
// with the value of the thread that wrote it first (herd: exists (x=1 /\ y=1)), i.e. both
// second writes are coherence-before the other thread's first write.
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct TwoPlusTwoW {
    struct Config {
        MemoryOrder write = relaxed;
        bool fence0 = false;  ///< F_sc between P0's writes
        bool fence1 = false;
    };
    explicit TwoPlusTwoW(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0, observed};
    Atomic<int> y{"y", 0, observed};

    void p0() {
        x.store(1, cfg.write);
        if (cfg.fence0) fence(seq_cst);
        y.store(2, cfg.write);
    }
    void p1() {
        y.store(1, cfg.write);
        if (cfg.fence1) fence(seq_cst);
        x.store(2, cfg.write);
    }
    bool bad_outcome() const { return x.final() == 1 && y.final() == 1; }
    static constexpr std::array<Thread<TwoPlusTwoW>, 2> threads{
        {{"P0", &TwoPlusTwoW::p0}, {"P1", &TwoPlusTwoW::p1}}};
};

constexpr const char* mo_is_execution_order =
    "Relacy: stores join modification order in execution order, so mo never contradicts sb here";

}  // namespace

ModelDef two_plus_two_w() {
    using C = TwoPlusTwoW::Config;
    return define<TwoPlusTwoW>("2+2W", "litmus", "two writes each, opposite orders: W x; W y || W y; W x", {
        {"relaxed", C{},
         expect::sometimes("Final x=1 and y=1 need W x=1 ->sb W y=2 ->mo W y=1 ->sb W x=2 ->mo W x=1; with no "
                           "sw edge hb is just sb, and no RC11 axiom forbids a cycle of sb and mo (LKMM allows "
                           "2+2W+poonceonces too).")
             .engine_finds(Verdict::Never, mo_is_execution_order),
         "all writes relaxed"},
        {"rel_acq", C{release, false, false},
         expect::sometimes("Release writes alone create no sw edge (there is no read to acquire), so hb is "
                           "still just sb and the sb/mo cycle of the bad outcome is allowed by RC11.")
             .engine_finds(Verdict::Never, mo_is_execution_order),
         "all writes release (the shape has no reads, so nothing acquires)"},
        {"fenced", C{relaxed, true, true},
         expect::never("F0 ->sb W y=2 ->mo W y=1 ->sb F1 puts F0 before F1 in psc ([F_sc];hb;eco;hb;[F_sc]), "
                       "and F1 ->sb W x=2 ->mo W x=1 ->sb F0 puts F1 before F0: a psc cycle (SC axiom). "
                       "Relacy cannot produce the outcome even without the fences, so this variant does not "
                       "exercise them."),
         "relaxed writes; F_sc between the writes in both threads"},
        {"fence_one_side", C{relaxed, true, false},
         expect::sometimes("A single SC fence cannot make a psc cycle, and hb is still just sb: RC11 allows "
                           "the sb/mo cycle.")
             .engine_finds(Verdict::Never, mo_is_execution_order),
         "F_sc in P0 only"},
    });
}

}  // namespace oc::models
