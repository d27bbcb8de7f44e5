// SPDX-License-Identifier: MIT
// shrinker_bit: seed 002, f90280d6b7 "mm/vmscan.c: clear shrinker bit if there are no objects
// related to memcg" (v4.19), with its list_lru side fae91d6d8be5.
//
// Protocol. A memcg has one bit per shrinker in its shrinker map; reclaim (shrink_slab_memcg)
// calls a shrinker's count_objects() only while its bit is set. list_lru_add() sets the bit
// when a list goes from 0 to 1 object (memcg_set_shrinker_bit: smp_mb__before_atomic();
// set_bit()). Before the patch nothing ever cleared the bit, so a memcg whose objects were gone
// cost a count_objects() call on every reclaim pass. The patch clears the bit when the shrinker
// reports SHRINK_EMPTY, then smp_mb__after_atomic(), calls count_objects() again and sets the
// bit again if the list is no longer empty. The two full barriers make the R shape
// (W nr; mb; W bit || W bit; mb; R nr) forbidden: either the reclaimer's re-count sees the new
// object, or the adder's set_bit lands after the clear. Property (P1, safety at quiescence): a
// list with objects never ends with its bit clear. Metric (Q1): count_objects() calls that
// reported SHRINK_EMPTY over K reclaim passes.
//
// Model ShrinkerBit (threads ADD, RCL): one memcg, one shrinker (bit 0 of one map word), one
// list. The list starts empty with its bit set (a stale bit left by an object since freed: the
// commit message's case 2), ADD adds one object, RCL runs K passes of shrink_slab_memcg over
// the bit. After RCL's first pass clears the bit, the next pass is the commit message's case 1
// (the bit read set, the count read stale), so K >= 2 covers both cases.
//
// Model ShrinkerReparent (threads OFF, RCL), the 8199be001a47 regression (v5.10): the parent's
// list is empty with a stale bit; a child goes offline. OFF runs memcg_offline_kmem(): the
// child's kmemcg_id now names the parent, a list_lru_del() of a child object in that window
// decrements the parent's nr_items (-1), then memcg_drain_list_lru_node() moves the child's
// 2 objects. The pre-fix drain sets the parent's bit only if the parent's count was 0, so it
// skips set_bit on -1; the fix sets it whenever the child had objects.
//
// Abstracted away, and why P1 still means what it says:
// - The shrinker's scan (scan_objects) is not modelled: reclaim never frees the object. Freeing
//   only lowers nr_items, and P1 is about a list that keeps an object.
// - RCU around shrinker_map and the shrinker_idr lookup: they guard lifetimes, not ordering
//   between the bit and the count (docs/primitives.md).
// - shrinker_rwsem: readers only; reclaimers do not exclude each other or the adder.
// - nr_items is a plain field written under nlru->lock and read locklessly (a benign data race
//   in v4.19, READ_ONCE in later kernels): modelled as a relaxed atomic, the READ_ONCE form.
// - Counts are per (lru, node, memcg); with one of each, count_objects() is list_lru_count_one().
// - ADD's nlru->lock is modelled only in locked_count, where RCL takes it too: elsewhere no other
//   thread touches the lock word, so its acquire/release create no hb edge. ADD is the only
//   writer of nr_items, so the read in l->nr_items++ returns 0 and the model writes 1.
// - K = 4 passes (locked_count: 2, which still covers both commit-message cases; the lock
//   traffic grows the search fastest there).
// - ShrinkerReparent: the list_lru_del() and the drain both run under nlru->lock, so they are
//   serialised; the model puts the del in the window between the kmemcg_id switch and the
//   drain (the order that shows the bug; a del before the switch decrements the child, one
//   after the drain the parent, both correctly). nlru->lock itself is left out there because
//   no other thread takes it (a lock word no other thread reads creates no hb edge).
//
// Kernel source modelled (v4.19 unless noted):
//   ADD   mm/list_lru.c list_lru_add() (fae91d6d8be5); mm/memcontrol.c memcg_set_shrinker_bit()
//         (f90280d6b7 adds smp_mb__before_atomic()).
//   RCL   mm/vmscan.c shrink_slab_memcg() (f90280d6b7), do_shrink_slab() -> count_objects() ->
//         mm/list_lru.c list_lru_count_one() (lockless since 0c7c1bed7e13, v4.16; under
//         nlru->lock before it: variant locked_count).
//   OFF   mm/memcontrol.c memcg_offline_kmem(); mm/list_lru.c list_lru_del(),
//         memcg_drain_list_lru_node() (v4.19 rule; 8199be001a47, v5.10, for the fix).
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

using namespace oc::kernel;

constexpr unsigned shrinker_id = 0;  // lru_shrinker_id(lru): bit 0 of the memcg's map word

/// What shrink_slab_memcg() does when count_objects() reports SHRINK_EMPTY.
enum class OnEmpty : std::uint8_t {
    Nothing,       ///< before f90280d6b7: `ret = 0`, the bit stays set
    ClearRecheck,  ///< f90280d6b7: clear_bit; <after>; count again; set the bit again if non-empty
    ClearOnly,     ///< mutant M3: clear_bit and no re-check
};
/// The barrier in memcg_set_shrinker_bit() before set_bit().
enum class Before : std::uint8_t { MbBeforeAtomic, Wmb, None };
/// The barrier in shrink_slab_memcg() between clear_bit() and the second count.
enum class After : std::uint8_t { MbAfterAtomic, Rmb, Wmb, None };

struct ShrinkerBit {
    struct Config {
        OnEmpty on_empty = OnEmpty::ClearRecheck;
        Before before = Before::MbBeforeAtomic;
        After after = After::MbAfterAtomic;
        bool locked_count = false;  ///< list_lru_count_one() reads nr_items under nlru->lock (pre-v4.16)
        bool add = true;            ///< false: no list_lru_add() during the passes (idle memcg)
        unsigned passes = 4;        ///< K reclaim passes
    };
    explicit ShrinkerBit(const Config& c) : cfg(c) {}
    const Config cfg;

    spinlock_t nlru_lock{"nlru->lock"};
    atomic_long_t nr_items{"nr_items", 0, observed};  // l->nr_items: the list starts empty
    bitmap_t map{"map", bit_mask(shrinker_id), observed};  // stale bit from an object since freed
    Metric empty_calls{"count_objects_empty"};  // count_objects() calls that reported SHRINK_EMPTY
    Metric calls{"count_objects_calls"};
    Metric bit_rmws{"map_rmws"};                // set_bit/clear_bit on the map word (cache-line writes)

    // memcg_set_shrinker_bit(memcg, nid, shrinker_id)
    void memcg_set_shrinker_bit() {
        switch (cfg.before) {
        case Before::MbBeforeAtomic: smp_mb__before_atomic(); break;  // "Pairs with smp mb in shrink_slab()"
        case Before::Wmb: smp_wmb(); break;
        case Before::None: break;
        }
        set_bit(shrinker_id, map);
        ++bit_rmws;
    }
    // do_shrink_slab() -> count_objects() -> list_lru_count_one(): the list's object count.
    long count_objects() {
        ++calls;
        long count = 0;
        if (cfg.locked_count) {
            spin_lock(nlru_lock);
            count = READ_ONCE(nr_items);
            spin_unlock(nlru_lock);
        } else {
            count = READ_ONCE(nr_items);
        }
        require(count >= 0, "list_lru_one::nr_items went negative");
        if (count == 0) ++empty_calls;  // super_cache_count(): `if (!total_objects) return SHRINK_EMPTY;`
        return count;
    }

    // ADD: list_lru_add(lru, item) of one object. nlru->lock is taken only where RCL takes it
    // too (locked_count): elsewhere no other thread touches the lock word, so its acquire and
    // release create no hb edge and leaving it out changes no outcome.
    void add() {
        if (!cfg.add) return;
        if (cfg.locked_count) spin_lock(nlru_lock);
        const long old = 0;  // l->nr_items++ under nlru->lock: ADD is the only writer, it reads 0
        WRITE_ONCE(nr_items, old + 1);
        if (old == 0) memcg_set_shrinker_bit();  // "Set shrinker bit if the first element was added"
        if (cfg.locked_count) spin_unlock(nlru_lock);
    }
    // RCL: K passes of shrink_slab_memcg() over this memcg's map.
    void reclaim() {
        for (unsigned pass = 0; pass < cfg.passes; ++pass) {
            if (!test_bit(shrinker_id, map)) continue;  // for_each_set_bit(i, map->map, shrinker_nr_max)
            if (count_objects() != 0) continue;         // ret = do_shrink_slab(): not SHRINK_EMPTY
            switch (cfg.on_empty) {
            case OnEmpty::Nothing: break;  // if (ret == SHRINK_EMPTY) ret = 0;
            case OnEmpty::ClearOnly:
                clear_bit(shrinker_id, map);
                ++bit_rmws;
                break;
            case OnEmpty::ClearRecheck:
                clear_bit(shrinker_id, map);
                ++bit_rmws;
                switch (cfg.after) {
                case After::MbAfterAtomic: smp_mb__after_atomic(); break;
                case After::Rmb: smp_rmb(); break;
                case After::Wmb: smp_wmb(); break;
                case After::None: break;
                }
                if (count_objects() != 0) memcg_set_shrinker_bit();  // else ret = 0
                break;
            }
        }
    }

    // P1: at quiescence the list has an object and its bit is clear.
    bool bad_outcome() const { return nr_items.final() > 0 && (map.final() & bit_mask(shrinker_id)) == 0; }
    static constexpr std::array<Thread<ShrinkerBit>, 2> threads{
        {{"ADD", &ShrinkerBit::add}, {"RCL", &ShrinkerBit::reclaim}}};
};

/// memcg_drain_list_lru_node()'s rule for setting the destination's bit.
enum class DrainRule : std::uint8_t {
    DstWasEmpty,  ///< v4.19: set = (!dst->nr_items && src->nr_items)
    SrcNonEmpty,  ///< 8199be001a47: if (src->nr_items) { ...; memcg_set_shrinker_bit(); }
};

struct ShrinkerReparent {
    struct Config {
        DrainRule rule = DrainRule::SrcNonEmpty;
    };
    explicit ShrinkerReparent(const Config& c) : cfg(c) {}
    const Config cfg;

    static constexpr long child_objects = 2;  // src->nr_items: only OFF touches the child's list

    atomic_long_t nr_items{"parent.nr_items", 0, observed};  // dst: the parent's list, empty
    bitmap_t map{"parent.map", bit_mask(shrinker_id), observed};  // with a stale bit
    Metric negative_reads{"negative_count_reads"};  // P2: count_objects() saw nr_items < 0

    void memcg_set_shrinker_bit() {
        smp_mb__before_atomic();
        set_bit(shrinker_id, map);
    }
    long count_objects() {
        const long count = READ_ONCE(nr_items);
        // v4.19 returns it as unsigned long: a negative count is huge, not SHRINK_EMPTY.
        if (count < 0) ++negative_reads;
        return count;
    }

    // OFF: memcg_offline_kmem() of the child: kmemcg_id now names the parent; a list_lru_del()
    // of a child object in the window (on another CPU, serialised by nlru->lock) decrements the
    // parent's count; then memcg_drain_all_list_lrus() -> memcg_drain_list_lru_node().
    void offline() {
        // list_lru_del(): l = list_lru_from_kmem() finds the parent's list_lru_one; l->nr_items--;
        WRITE_ONCE(nr_items, READ_ONCE(nr_items) - 1);
        // memcg_drain_list_lru_node(lru, nid, src_idx = child, dst_memcg = parent)
        const long dst = READ_ONCE(nr_items);
        switch (cfg.rule) {
        case DrainRule::DstWasEmpty: {
            const bool set = dst == 0 && child_objects != 0;
            WRITE_ONCE(nr_items, dst + child_objects);
            if (set) memcg_set_shrinker_bit();
            break;
        }
        case DrainRule::SrcNonEmpty:
            if (child_objects != 0) {
                WRITE_ONCE(nr_items, dst + child_objects);
                memcg_set_shrinker_bit();
            }
            break;
        }
    }
    // RCL: one pass of shrink_slab_memcg() (f90280d6b7) over the parent's map.
    void reclaim() {
        if (!test_bit(shrinker_id, map)) return;
        if (count_objects() != 0) return;
        clear_bit(shrinker_id, map);
        smp_mb__after_atomic();
        if (count_objects() != 0) memcg_set_shrinker_bit();
    }

    // P1 on the parent: it ends with objects and its bit clear.
    bool bad_outcome() const { return nr_items.final() > 0 && (map.final() & bit_mask(shrinker_id)) == 0; }
    static constexpr std::array<Thread<ShrinkerReparent>, 2> threads{
        {{"OFF", &ShrinkerReparent::offline}, {"RCL", &ShrinkerReparent::reclaim}}};
};

}  // namespace

// Shared argument for the Never variants (merged and its weakenings that stay safe). In a bad
// execution ADD ran (nr_items ends 1), so its set_bit S exists. The bit ends clear, so the
// mo-last write to map is a clear_bit C of RCL, and S ->mo C (if S were mo-after every clear,
// the bit would end set). Every write after S in mo is one of RCL's RMWs, so C reads from the
// release sequence headed by S (rf;rmw chains). RCL's second count R2 follows C in sb and read
// 0, i.e. R2 ->fr W nr (ADD's WRITE_ONCE, sb-before S). W nr ->hb R2 would make hb;fr
// reflexive, which coherence forbids; so each Never variant shows W nr ->hb R2 (or a psc
// cycle). And R2 must read 0: had it read 1, RCL's set_bit follows C in sb, hence in mo
// (write coherence), contradicting C being mo-last.
ModelDef shrinker_bit() {
    using C = ShrinkerBit::Config;
    ModelDef def = define<ShrinkerBit>(
        "shrinker_bit", "seed",
        "seed 002 (f90280d6b7, v4.19): clear the memcg shrinker bit on SHRINK_EMPTY, mb, re-count, set again", {
        {"baseline", C{OnEmpty::Nothing, Before::None},
         expect::never("Nothing clears the bit: map starts with bit 0 set and its only writes are set_bit "
                       "(fetch_or of bit 0). Whatever the coherence order, the mo-last write leaves bit 0 set, "
                       "so the bit is never clear at quiescence. The cost: RCL calls count_objects() on every "
                       "pass, K calls while the list reads empty. The same under LKMM, by program logic in every "
                       "execution: every write to map, the initial one included, has bit 0 set (set_bit ORs it "
                       "into whatever it reads), and the final value is one of them."),
         "before f90280d6b7 (fae91d6d8be5 list_lru side, no barrier): SHRINK_EMPTY only sets ret = 0"},
        {"merged", C{},
         expect::never("S = ADD's set_bit, C = RCL's mo-last clear_bit (S ->mo C, or the bit ends set), R2 = "
                       "RCL's re-count after C, which read 0 (else RCL sets the bit after C). C reads from S's "
                       "release sequence (every map write after S is an RCL RMW). smp_mb__before_atomic() is "
                       "F_sc sb-before S and "
                       "smp_mb__after_atomic() is F_sc sb-after C, so F_add ->sw F_rcl (release fence, release "
                       "sequence of S, acquire fence) and W nr ->sb F_add ->sw F_rcl ->sb R2: W nr ->hb R2, and "
                       "R2 reading 0 (R2 ->fr W nr) violates coherence. Also a psc cycle: F_add ->psc F_rcl by "
                       "the sw edge, F_rcl ->sb R2 ->fr W nr ->sb F_add. LKMM forbids it too (R shape with "
                       "strong fences on both sides).")
             .because_under_lkmm("S, C, R2 as above. S ->coe C is prop and smp_mb__after_atomic() makes C ->mb "
                                 "R2 a strong fence, so S ->pb R2; R2 reading 0 is R2 ->fre W nr (prop), and "
                                 "smp_mb__before_atomic() makes W nr ->mb S a strong fence, so R2 ->pb S: a pb "
                                 "cycle, forbidden by propagation (the R shape with strong fences on both "
                                 "sides, R+fencembonceonces)."),
         "as merged: clear_bit; smp_mb__after_atomic(); count again; set_bit again if non-empty"},
        {"no_after_atomic", C{OnEmpty::ClearRecheck, Before::MbBeforeAtomic, After::None},
         expect::sometimes("Without RCL's barrier nothing acquires after C's relaxed read: S ->rf C is no sw "
                           "edge, ADD's F_sc is the only SC fence (no psc cycle), so R2 may read 0 while "
                           "W nr is mo-latest (RC11 allows; mutant M1, the commit message's R shape; LKMM "
                           "allows it too)."),
         "smp_mb__after_atomic() removed (mutant M1)",
         weakens("merged", "smp_mb__after_atomic", Weakening::Remove)},
        {"no_before_atomic", C{OnEmpty::ClearRecheck, Before::None, After::MbAfterAtomic},
         expect::sometimes("Without ADD's barrier S is a relaxed RMW with no release fence before it: "
                           "S ->rf C into RCL's F_sc is no sw edge, a single SC fence makes no psc cycle, and "
                           "R2 may read 0 although W nr is sb-before S (W->W unordered; mutant M2; LKMM allows "
                           "it too). nlru->lock does not help: spin_unlock comes after set_bit.")
             .because_under_lkmm("Without ADD's barrier nothing orders W nr before S (a void RMW: W nr ->po S "
                                 "is not in ppo, and no strong or cumulative fence lies between), so R2 ->fre "
                                 "W nr reaches no strong fence: no pb or hb cycle, and R2 may read 0 (mutant "
                                 "M2). nlru->lock does not help: spin_unlock comes after set_bit."),
         "smp_mb__before_atomic() removed (mutant M2)",
         weakens("merged", "smp_mb__before_atomic", Weakening::Remove)},
        {"no_recheck", C{OnEmpty::ClearOnly},
         expect::sometimes("A plain interleaving, no weak behaviour needed: RCL reads the bit and counts 0, ADD "
                           "then adds its object and sets the bit, and RCL's clear_bit (an RMW reading S) clears "
                           "it. Nothing sets it again (mutant M3). The interleaving is sequentially consistent, "
                           "so LKMM allows it too."),
         "clear_bit() on SHRINK_EMPTY with no second count"},
        {"before_atomic_as_wmb", C{OnEmpty::ClearRecheck, Before::Wmb, After::MbAfterAtomic},
         expect::never("S, C, R2 as in merged. smp_wmb() is F_rel. F_rel ->sb S, C reads S's release "
                       "sequence, C ->sb F_sc (an "
                       "acquire fence too): F_rel ->sw F_sc, so W nr ->hb R2 and R2 cannot read 0 (coherence). "
                       "LKMM forbids it as well: R2 ->fre W nr ->wmb S ->rfe C ->mb R2 is a pb cycle (mutant "
                       "M5).")
             .because_under_lkmm("S, C, R2 as in merged; C' = the RCL RMW just after S in co reads S "
                                 "(atomicity), and C' is C or po-before it. R2 ->fre W nr ->wmb S ->rfe C' is "
                                 "prop (smp_wmb() is a cumulative fence), and smp_mb__after_atomic() orders "
                                 "every access po-before C before R2 (strong fence): R2 ->pb R2, a pb cycle "
                                 "(mutant M5)."),
         "smp_wmb() instead of smp_mb__before_atomic() (mutant M5)",
         weakens("merged", "smp_mb__before_atomic", Weakening::ToReleaseFence)},
        {"after_atomic_as_rmb", C{OnEmpty::ClearRecheck, Before::MbBeforeAtomic, After::Rmb},
         expect::never("S, C, R2 as in merged. smp_rmb() is F_acq. ADD's F_sc (a release fence) ->sb S, C "
                       "reads S's release sequence "
                       "and C ->sb F_acq: the read of a relaxed RMW feeds an acquire fence like any read, so "
                       "F_sc ->sw F_acq and W nr ->hb R2: R2 cannot read 0 (coherence).")
             .under_lkmm(Verdict::Sometimes,
                         "smp_rmb() orders only R4rmb = R \\ Noreturn reads; clear_bit()'s read is Noreturn, so "
                         "nothing orders C before R2 on RCL's side: the R shape with a strong fence on one side "
                         "only, allowed (mutant M4; see R+shrinker_bit/after_atomic_as_rmb)"),
         "smp_rmb() instead of smp_mb__after_atomic() (mutant M4)",
         weakens("merged", "smp_mb__after_atomic", Weakening::ToAcquireFence)},
        {"after_atomic_as_wmb", C{OnEmpty::ClearRecheck, Before::MbBeforeAtomic, After::Wmb},
         expect::sometimes("smp_wmb() is F_rel, which acquires nothing: S ->rf C reaches no acquire fence or "
                           "acquire read, so no sw edge, ADD's F_sc is the only SC fence, and R2 may read 0 "
                           "(mutant M6; LKMM allows it too: smp_wmb orders only W->W).")
             .because_under_lkmm("smp_wmb() orders only writes before writes: C ->po R2 is not in ppo and RCL "
                                 "has no strong fence. R2 ->fre W nr ->mb S is a pb step, but nothing leads "
                                 "from S back to R2: no pb or hb cycle, and R2 may read 0 (mutant M6)."),
         "smp_wmb() instead of smp_mb__after_atomic() (mutant M6)",
         weakens("merged", "smp_mb__after_atomic", Weakening::ToReleaseFence)},
        {"locked_count", C{OnEmpty::ClearRecheck, Before::None, After::None, true, true, 2},
         expect::never("No barriers, but RCL's counts take nlru->lock, which ADD holds around W nr and S. Lock "
                       "order is mo of the lock word. If ADD's section comes first, spin_unlock ->sw spin_lock "
                       "before R2, so W nr ->hb R2 and R2 reads 1 (coherence), and RCL sets the bit again "
                       "after C. If R2's section comes first, C ->sb unlock ->sw lock ->sb S, so C ->hb S and "
                       "C ->mo S (write coherence): the bit ends set. Either way P1 holds (mutant M7). LKMM "
                       "(lock.cat): the sections are ordered, each spin_lock()'s LKR reading the previous "
                       "section's spin_unlock (UL, a release). If ADD's section precedes R2's, R2 reading 0 gives "
                       "R2 ->fre W nr ->po-rel ADD's UL ->rfe the LKR of RCL's next section, an internal prop edge "
                       "(in hb) against LKR ->acq-po R2: an hb cycle. If R2's section comes first, S ->coe C "
                       "->po-rel RCL's UL ->rfe ADD's LKR ->acq-po S is the same hb cycle, so C ->co S."),
         "pre-v4.16 count: list_lru_count_one() under nlru->lock, no barriers (mutant M7); K = 2 passes, "
         "which cover both commit-message cases (the lock traffic grows the search)"},
        {"baseline_idle", C{OnEmpty::Nothing, Before::None, After::None, false, false},
         expect::never("No object is added: nr_items stays 0 (its only write is the initial one), so "
                       "nr_items > 0 never holds. Measures the headline: count_objects() on the empty list "
                       "on each of the K passes. The same under LKMM, by program logic in every execution: "
                       "nr_items has no write but the initial 0, so it ends 0."),
         "baseline with no list_lru_add(): the drop_caches benchmark's memcg (stale bit, empty list)"},
        {"merged_idle", C{OnEmpty::ClearRecheck, Before::MbBeforeAtomic, After::MbAfterAtomic, false, false},
         expect::never("No object is added: nr_items stays 0, so nr_items > 0 never holds. Measures the "
                       "headline: two count_objects() calls on the first pass (SHRINK_EMPTY, clear, re-count), "
                       "none after. The same under LKMM, by program logic in every execution: nr_items has no "
                       "write but the initial 0, so it ends 0."),
         "merged with no list_lru_add(): the drop_caches benchmark's memcg (stale bit, empty list)"},
    });

    using R = ShrinkerReparent::Config;
    ModelDef rep = define<ShrinkerReparent>("shrinker_bit", "seed", "", {
        {"reparent_before_fix", R{DrainRule::DstWasEmpty},
         expect::sometimes("A plain interleaving: RCL's whole pass runs first (bit set, count 0, clear_bit, "
                           "F_sc, count 0: the parent is empty). OFF's list_lru_del() then takes the parent to "
                           "-1, and the v4.19 drain sees dst != 0, skips set_bit and leaves dst at 1. Nothing "
                           "sets the bit again (8199be001a47's race, with the del in the offline window). The "
                           "interleaving is sequentially consistent, so LKMM allows it too."),
         "8199be001a47 race, v4.19 drain rule: set = (!dst->nr_items && src->nr_items)"},
        {"reparent_fixed", R{DrainRule::SrcNonEmpty},
         expect::never("The drain always sets the bit after writing dst (F_sc from smp_mb__before_atomic, then "
                       "S). For the bit to end clear, RCL's clear_bit C is mo-after S and reads S (its only "
                       "mo-predecessor after S); F_sc ->sb S ->rf C ->sb F_sc is an sw edge, so OFF's last "
                       "write of nr_items (dst + 2 = 1) ->hb R2, and R2 reads 1, not 0 (coherence), so RCL "
                       "sets the bit again. If S is mo-after C, the bit ends set. Negative counts (-1) are "
                       "still read (P2 fails in both versions; v4.19 treats them as non-empty). LKMM forbids it "
                       "too: with S ->rfe C (atomicity), R2 reading 0 gives R2 ->fre W nr=1 ->mb S "
                       "(smp_mb__before_atomic() orders through the set_bit that follows) ->rfe C ->mb R2 "
                       "(smp_mb__after_atomic() through the clear_bit before it): prop ; strong-fence ; hb, a pb "
                       "cycle."),
         "8199be001a47: if (src->nr_items) { dst->nr_items += src->nr_items; memcg_set_shrinker_bit(); }"},
    });
    for (auto& v : rep.variants) def.variants.push_back(std::move(v));
    return def;
}

}  // namespace oc::models
