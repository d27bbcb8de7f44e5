// SPDX-License-Identifier: MIT
// R+shrinker_bit: the core of seed 002 (f90280d6b7, v4.19), an R shape written with the kernel
// primitives. P0 is list_lru_add()'s side: nr_items goes 0 -> 1, then memcg_set_shrinker_bit()
// sets the bit after smp_mb__before_atomic(). P1 is shrink_slab_memcg() after the shrinker
// reported SHRINK_EMPTY: clear_bit(), smp_mb__after_atomic(), then the recount.
// Bad outcome: the bit ends clear while P1's recount read 0, so it will not set the bit again:
// a list with an item and its shrinker bit clear (herd: exists (map=0 /\ 1:r0=0)).
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

using namespace oc::kernel;

struct RShrinkerBit {
    enum class Before : std::uint8_t { MbBeforeAtomic, Wmb, None };
    enum class After : std::uint8_t { MbAfterAtomic, Rmb, Wmb, None };
    struct Config {
        Before before = Before::MbBeforeAtomic;  ///< P0's barrier between WRITE_ONCE and set_bit
        After after = After::MbAfterAtomic;      ///< P1's barrier between clear_bit and READ_ONCE
    };
    explicit RShrinkerBit(const Config& c) : cfg(c) {}
    const Config cfg;

    atomic_long_t nr_items{"nr_items", 0};
    bitmap_t map{"map", 1, observed};  // bit 0 starts set: a stale bit from an object since removed
    Reg r0{"1:r0"};

    void p0() {
        WRITE_ONCE(nr_items, 1);
        switch (cfg.before) {
        case Before::MbBeforeAtomic: smp_mb__before_atomic(); break;
        case Before::Wmb: smp_wmb(); break;
        case Before::None: break;
        }
        set_bit(0, map);
    }
    void p1() {
        clear_bit(0, map);
        switch (cfg.after) {
        case After::MbAfterAtomic: smp_mb__after_atomic(); break;
        case After::Rmb: smp_rmb(); break;
        case After::Wmb: smp_wmb(); break;
        case After::None: break;
        }
        r0 = READ_ONCE(nr_items);
    }
    bool bad_outcome() const { return (map.final() & bit_mask(0)) == 0 && r0 == 0; }
    static constexpr std::array<Thread<RShrinkerBit>, 2> threads{
        {{"P0", &RShrinkerBit::p0}, {"P1", &RShrinkerBit::p1}}};
};

}  // namespace

// In every variant the bad outcome fixes the coherence order of map: the bit ends clear only if
// clear_bit's write is mo-after set_bit's, and RMW atomicity (rmw & (fr;mo) is empty) makes
// clear_bit read from its immediate mo-predecessor, set_bit. So set_bit ->rf clear_bit, and
// READ_ONCE reading 0 is R nr ->fr W nr.
ModelDef r_shrinker_bit() {
    using C = RShrinkerBit::Config;
    using B = RShrinkerBit::Before;
    using A = RShrinkerBit::After;
    return define<RShrinkerBit>(
        "R+shrinker_bit", "litmus",
        "seed 002 core: WRITE_ONCE(nr); mb__before_atomic; set_bit || clear_bit; mb__after_atomic; READ_ONCE(nr)", {
        {"merged", C{B::MbBeforeAtomic, A::MbAfterAtomic},
         expect::never("Both barriers are F_sc. Atomicity makes set_bit ->rf clear_bit, so F0 ->sb set_bit ->rf "
                       "clear_bit ->sb F1 puts F0 before F1 in psc, and F1 ->sb R nr ->fr W nr ->sb F0 puts F1 "
                       "before F0: a psc cycle. (Also F0 ->sw F1 through the rf edge, so W nr is hb-before "
                       "R nr and coherence forbids reading 0.) LKMM forbids it too."),
         "as merged: smp_mb__before_atomic() before set_bit, smp_mb__after_atomic() after clear_bit"},
        {"no_before_atomic", C{B::None, A::MbAfterAtomic},
         expect::sometimes("Without P0's barrier set_bit is a relaxed RMW with no release fence before it, so "
                           "set_bit ->rf clear_bit is no sw edge: W nr is not hb-before R nr, a single SC fence "
                           "makes no psc cycle, and R nr may read 0 (LKMM allows it too: W->W unordered).")
             .because_under_lkmm("Without P0's barrier nothing orders W nr before set_bit (a void RMW: W nr "
                                 "->po set_bit is not in ppo, and no strong or cumulative fence lies between), "
                                 "so R nr ->fre W nr reaches no strong fence: no pb cycle, no hb cycle, and "
                                 "R nr may read 0 (the R shape with a strong fence on P1's side only)."),
         "smp_mb__before_atomic() removed (mutant M2)",
         weakens("merged", "smp_mb__before_atomic", Weakening::Remove)},
        {"no_after_atomic", C{B::MbBeforeAtomic, A::None},
         expect::sometimes("Without P1's barrier nothing acquires after clear_bit's relaxed read, so "
                           "F0 ->sb set_bit ->rf clear_bit is no sw edge and a single SC fence makes no psc "
                           "cycle: R nr may read 0 (the R shape; LKMM allows it too)."),
         "smp_mb__after_atomic() removed (mutant M1)",
         weakens("merged", "smp_mb__after_atomic", Weakening::Remove)},
        {"neither", C{B::None, A::None},
         expect::sometimes("No fences and only relaxed accesses: no sw edge and no SC fence, so R nr may read "
                           "0 whatever the coherence order of map. LKMM allows it too (R+poonceonces): set_bit "
                           "and clear_bit are void RMWs, unordered, so with no fence W nr ->po set_bit and "
                           "clear_bit ->po R nr are not in ppo; W nr ->po set_bit ->rfe clear_bit ->po R nr ->fre "
                           "W nr is then no hb cycle, and with no strong fence no pb cycle either."),
         "both barriers removed"},
        {"before_atomic_as_wmb", C{B::Wmb, A::MbAfterAtomic},
         expect::never("smp_wmb() is F_rel. F_rel ->sb set_bit ->rf clear_bit ->sb F1 (F_sc, at least acquire) "
                       "is an sw edge (set_bit heads the release sequence), so W nr ->sb F_rel ->sw F1 ->sb R nr "
                       "makes W nr hb-before R nr, and coherence (hb;fr irreflexive) forbids reading 0. LKMM "
                       "forbids it as well: R nr ->fre W nr ->wmb set_bit ->rfe clear_bit ->mb R nr is a pb "
                       "cycle."),
         "smp_wmb() instead of smp_mb__before_atomic() (mutant M5)",
         weakens("merged", "smp_mb__before_atomic", Weakening::ToReleaseFence)},
        {"after_atomic_as_rmb", C{B::MbBeforeAtomic, A::Rmb},
         expect::never("smp_rmb() is F_acq. F0 (F_sc, at least release) ->sb set_bit ->rf clear_bit ->sb F_acq "
                       "is an sw edge: a relaxed RMW's read feeds an acquire fence like any read. So W nr ->sb "
                       "F0 ->sw F_acq ->sb R nr makes W nr hb-before R nr, and coherence (hb;fr irreflexive) "
                       "forbids reading 0.")
             .under_lkmm(Verdict::Sometimes,
                         "smp_rmb() orders only R4rmb = R \\ Noreturn reads; clear_bit's read is Noreturn, so "
                         "nothing orders it before READ_ONCE(nr_items): the R shape with no strong fence on "
                         "P1's side, allowed"),
         "smp_rmb() instead of smp_mb__after_atomic() (mutant M4)",
         weakens("merged", "smp_mb__after_atomic", Weakening::ToAcquireFence)},
        {"after_atomic_as_wmb", C{B::MbBeforeAtomic, A::Wmb},
         expect::sometimes("smp_wmb() is F_rel, which acquires nothing: F0 ->sb set_bit ->rf clear_bit reaches "
                           "no acquire fence or read, so there is no sw edge, a single SC fence makes no psc "
                           "cycle, and R nr may read 0 (LKMM allows it too: smp_wmb orders only W->W).")
             .because_under_lkmm("smp_wmb() orders only writes before writes: clear_bit ->po R nr is not in "
                                 "ppo and P1 has no strong fence. R nr ->fre W nr ->mb set_bit is a pb step, "
                                 "but nothing leads from set_bit back to R nr (set_bit ->rfe clear_bit ends "
                                 "there): no pb or hb cycle, and R nr may read 0 (the R shape with a strong "
                                 "fence on P0's side only)."),
         "smp_wmb() instead of smp_mb__after_atomic() (mutant M6)",
         weakens("merged", "smp_mb__after_atomic", Weakening::ToReleaseFence)},
    });
}

}  // namespace oc::models
