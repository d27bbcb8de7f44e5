// SPDX-License-Identifier: MIT
// vmalloc_purge: seed 004, "[PATCH v2 5/5] mm/vmalloc: Don't spawn workers if somebody already
// purging" (Andrey Ryabinin, 12 Apr 2017; never merged), with the design it built on and the
// designs that replaced it.
//
// The protocol. vfree() ends in free_vmap_area_noflush(): the area's pages are added to
// vmap_lazy_nr (atomic_add_return, fully ordered), the area is put on the purge list, and when
// the returned count exceeds lazy_max_pages() a purge is kicked. Patch 1/5 of the 2017 series
// made the purge a work item, purge_vmap_work, queued with schedule_work(); its function takes
// vmap_purge_lock with mutex_trylock(), takes the whole list (llist_del_all) and subtracts each
// taken area's pages. The seed skips schedule_work() while mutex_is_locked(&vmap_purge_lock):
// somebody is purging already. That is racy, as Michal Hocko acknowledged ("yes, it is racy and
// no we do not care"): a purge that has already taken the list leaves the new area behind, and
// nothing is queued to take it. v5.18 (690467c81b1a) moved draining to drain_vmap_work with an
// unconditional schedule_work() (PENDING deduplicates) and a blocking mutex_lock() plus a
// re-check loop in the worker; its v2 posting had instead guarded schedule_work() with
// atomic_xchg(&drain_vmap_work_in_progress, 1), reset by the worker at the end, dropped in v3.
//
// The model starts at the moment the seed is about. An earlier vfree() put area 0 (2 pages) on
// the list and queued the purge; the kworker KW is running it and holds vmap_purge_lock (its
// trylock, or v5.18's mutex_lock, succeeded), about to take the list. Initial state: area 0 on
// the list, vmap_lazy_nr = 2, PENDING 0 (process_one_work() cleared it), vmap_purge_lock held by
// KW, and for the v2 guard drain_vmap_work_in_progress = 1 (set by area 0's free). F is a CPU
// doing one more vfree() (area 1, 2 pages). lazy_max_pages() is 1, so F's free is over the
// threshold: the case in which the seed's check decides whether a purge is queued. A purge F
// queues runs at quiescence, on KW (the workqueue guarantees it runs eventually).
// Liveness at quiescence (LQ, the bad outcome): after every queued purge has run, an area is
// still on the list and vmap_lazy_nr is above lazy_max_pages(). S2 (vmap_lazy_nr >= 0) is a
// require() at every value-returning read of the counter.
//
// Abstracted away, and why the properties keep their meaning:
// - The TLB flush, the free-area tree and vmap_area_lock (__free_vmap_area()) are local to the
//   purger once it owns the list. The v5.18 rb-tree merge of lazy areas is a set insert (the list
//   is the set of areas, a bitset under purge_vmap_area_lock, so the take is race-checked).
// - No other purger (vm_unmap_aliases(), the alloc_vmap_area() overflow purge) runs, so a trylock
//   never fails (§4.5 M0b, the window those add to the baseline, is not modelled), and
//   vmap_purge_lock is touched by KW alone except in the seed, whose freer reads it: elsewhere it
//   orders nothing another thread observes, and its events are left out (purge_lock_observed()).
// - Starting inside the purge drops the window between the kworker's clear of PENDING and its
//   lock (F's claim then always reads PENDING 0) and frees that run before the purge locks; the
//   seed's check acts while the lock is held, which the model covers. This keeps every variant
//   to a few thousand executions.
// - v5.18's re-check loop: when KW's re-check reads a count above the threshold, the rest of its
//   loop runs at quiescence (after F, before any purge F queued; a runtime quiescence hook, as
//   kernel::Work uses for pending work). An iteration inside the search would mostly spin while
//   F sits between its add and its insert (W1, empty iterations). It changes no verdict: once
//   the re-check has read F's add, vmap_lazy_nr stays above the threshold until KW subtracts
//   area 1 (KW is the only one to subtract), so the loop cannot end before taking area 1.
// - lazy_max_pages() is a constant. The counts are bookkeeping: `works_queued` is the running
//   purge (queued before the start) plus F's schedule_work() calls that claimed PENDING;
//   `queued_while_purging` is F's claims that returned while KW held vmap_purge_lock (a ghost
//   flag KW sets, invisible to the engine).
//
// Kernel sources: mm/vmalloc.c at v4.11 (free_vmap_area_noflush(), __purge_vmap_area_lazy(),
// try_purge_vmap_area_lazy()) with the 2017 series' patch 1/5 (purge_vmap_work) and 5/5 (the
// seed); mm/vmalloc.c at v5.18 (690467c81b1a: drain_vmap_area_work(), free_vmap_area_noflush(),
// __purge_vmap_area_lazy() taking purge_vmap_area_list under purge_vmap_area_lock) and that
// commit's v2 posting (drain_vmap_work_in_progress); kernel/workqueue.c for the PENDING bit
// (queue_work_on(), set_work_pool_and_clear_pending()).
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

using namespace oc::kernel;

constexpr long kAreaPages = 2;     // (va->va_end - va->va_start) >> PAGE_SHIFT
constexpr long kLazyMaxPages = 1;  // lazy_max_pages()

struct VmallocPurge {
    enum class Code : std::uint8_t {
        Baseline,        ///< 2017 patch 1/5: schedule_work() whenever over the threshold; worker trylock
        Seed,            ///< 2017 patch 5/5: ... && !mutex_is_locked(&vmap_purge_lock)
        V5_18,           ///< 690467c81b1a: unconditional schedule_work(), worker mutex_lock + re-check loop
        V2Guard,         ///< 690467c81b1a's v2: atomic_xchg(&drain_vmap_work_in_progress, 1) guard
        InsertBeforeAdd, ///< mutant M7 on the baseline: llist_add() before atomic_add_return()
    };
    struct Config {
        Code code = Code::Baseline;
    };
    explicit VmallocPurge(const Config& c) : cfg(c) {}
    const Config cfg;

    atomic_long_t vmap_lazy_nr{"vmap_lazy_nr", kAreaPages, observed};  // area 0's pages
    llist_head vmap_purge_list{"vmap_purge_list", bit_mask(0)};       // 2017: struct llist_head {area 0}
    spinlock_t purge_vmap_area_lock{"purge_vmap_area_lock"};          // v5.18
    Plain<long> purge_vmap_area_list{"purge_vmap_area_list", bit_mask(0)};  // v5.18: lazy areas {area 0}
    mutex vmap_purge_lock{"vmap_purge_lock", 1u};  // held by KW (thread 1) at the start
    atomic_t drain_vmap_work_in_progress{"drain_vmap_work_in_progress", 1};  // v2: set by area 0's free
    /// drain_vmap_area_work()'s loop, when its re-check in KW says "again", goes on at quiescence:
    /// after F has returned, before any purge F queued (the running execution finishes first).
    /// Declared before purge_work so that its quiescence hook runs before the work's.
    bool drain_goes_on = false;
    AtQuiescence continuation{1 /* KW */, [this] {
                                  if (drain_goes_on) drain_vmap_area_work();
                              }};
    Work purge_work{"purge_vmap_work", [this] { purge_work_fn(); }};
    Metric works_queued{"works_queued"};
    Metric queued_while_purging{"queued_while_purging"};
    bool purging = true;  // ghost: KW holds vmap_purge_lock (bookkeeping for the metric only)

    // vmap_purge_lock. Only the seed's freer reads it (mutex_is_locked()); in every other variant the
    // one purger (KW) is the only thread that touches it, so it orders nothing another thread can
    // observe and its events are left out to keep the search small.
    bool purge_lock_observed() const { return cfg.code == Code::Seed; }
    bool purge_trylock() { return !purge_lock_observed() || mutex_trylock(vmap_purge_lock); }
    void purge_lock() {
        if (purge_lock_observed()) mutex_lock(vmap_purge_lock);
    }
    void purge_unlock() {
        if (purge_lock_observed()) mutex_unlock(vmap_purge_lock);
    }

    bool v5_18_list() const { return cfg.code == Code::V5_18 || cfg.code == Code::V2Guard; }

    void queue_purge() {
        if (schedule_work(purge_work)) {
            ++works_queued;
            if (purging) ++queued_while_purging;
        }
    }

    // free_vmap_area_noflush(va) for area `node`
    void free_vmap_area_noflush(unsigned node) {
        if (cfg.code == Code::InsertBeforeAdd) llist_add(node, vmap_purge_list);  // M7
        const long nr_lazy = atomic_add_return(kAreaPages, vmap_lazy_nr);
        require(nr_lazy - kAreaPages >= 0, "S2: vmap_lazy_nr was negative");
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);  // merge_or_add_vmap_area(va, &purge_vmap_area_root, ...)
            purge_vmap_area_list.write(purge_vmap_area_list.read() | bit_mask(node));
            spin_unlock(purge_vmap_area_lock);
        } else if (cfg.code != Code::InsertBeforeAdd) {
            llist_add(node, vmap_purge_list);  // "After this point, we may free va at any time"
        }
        if (nr_lazy <= kLazyMaxPages) return;  // if (unlikely(nr_lazy > lazy_max_pages()))
        switch (cfg.code) {
        case Code::Baseline:
        case Code::InsertBeforeAdd:
        case Code::V5_18: queue_purge(); break;
        case Code::Seed:
            if (!mutex_is_locked(vmap_purge_lock)) queue_purge();
            break;
        case Code::V2Guard:
            if (!atomic_xchg(drain_vmap_work_in_progress, 1)) queue_purge();
            break;
        }
    }

    // __purge_vmap_area_lazy(ULONG_MAX, 0), with vmap_purge_lock held
    void purge_vmap_area_lazy_locked() {
        long taken = 0;
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);  // purge_vmap_area_root = RB_ROOT; list_replace_init(...)
            taken = purge_vmap_area_list.read();
            purge_vmap_area_list.write(0);
            spin_unlock(purge_vmap_area_lock);
        } else {
            taken = llist_del_all(vmap_purge_list);  // valist = llist_del_all(&vmap_purge_list)
        }
        for (unsigned node = 0; node < 2; ++node)  // per va, after flush_tlb_kernel_range()
            if ((taken & bit_mask(node)) != 0) atomic_sub(kAreaPages, vmap_lazy_nr);
    }

    // try_purge_vmap_area_lazy(work), the 2017 purge work's function
    void try_purge_vmap_area_lazy() {
        if (purge_trylock()) {  // mutex_trylock(&vmap_purge_lock)
            purging = true;
            purge_vmap_area_lazy_locked();
            purging = false;
            purge_unlock();
        }
    }
    // drain_vmap_area_work(work), v5.18: do { lock; purge; unlock; re-check } while (over the threshold)
    void drain_vmap_area_work() {
        purge_lock();  // mutex_lock(&vmap_purge_lock)
        purging = true;
        purge_vmap_area_lazy_locked();
        purging = false;
        purge_unlock();
        drain_recheck(false);
    }
    // The loop's re-check and further iterations, then (v2) the guard's reset. `in_kw_run`: the
    // execution KW runs during the search; if its loop must go on, it continues at quiescence
    // (DrainContinuation).
    void drain_recheck(bool in_kw_run) {
        for (;;) {
            const long nr_lazy = atomic_read(vmap_lazy_nr);  // "Recheck if further work is required."
            require(nr_lazy >= 0, "S2: vmap_lazy_nr was negative");
            if (nr_lazy <= kLazyMaxPages) break;
            if (in_kw_run) {
                drain_goes_on = true;
                return;
            }
            purge_lock();
            purging = true;
            purge_vmap_area_lazy_locked();
            purging = false;
            purge_unlock();
        }
        if (cfg.code == Code::V2Guard) atomic_set(drain_vmap_work_in_progress, 0);
    }
    void purge_work_fn() {
        if (v5_18_list())
            drain_vmap_area_work();
        else
            try_purge_vmap_area_lazy();
    }

    void f() { free_vmap_area_noflush(1); }
    // KW: the purge work's execution, at the snapshot: it holds vmap_purge_lock (taken by
    // try_purge_vmap_area_lazy()'s trylock or drain_vmap_area_work()'s lock) and is about to take
    // the list.
    void kw() {
        run_worker(purge_work, 0);  // KW is purge_work's kworker: later executions run here at quiescence
        ++works_queued;             // the execution KW is running was queued before the start
        purge_vmap_area_lazy_locked();
        purging = false;
        purge_unlock();
        if (v5_18_list()) drain_recheck(true);
    }

    bool bad_outcome() const {
        const long left = v5_18_list() ? purge_vmap_area_list.final() : vmap_purge_list.first.final();
        return left != 0 && vmap_lazy_nr.final() > kLazyMaxPages;
    }
    static constexpr std::array<Thread<VmallocPurge>, 2> threads{
        {{"F", &VmallocPurge::f}, {"KW", &VmallocPurge::kw}}};
};

// ---- vmalloc_drain: v6.9's lockless pre-check and the PENDING bit ----------------------------
//
// Since v6.9 (282631cb2447) the purge no longer finds areas under the lock it shares with the
// freer: __purge_vmap_area_lazy() first checks RB_EMPTY_ROOT(&vn->lazy.root) without the lock and
// skips an empty node. The freer inserts under vn->lazy.lock and then calls schedule_work(); the
// kworker clears PENDING, issues smp_mb() and runs the drain. Nothing is lost only because this is
// store buffering with a full barrier on both sides: the freer's claim of PENDING is a fully
// ordered RMW even when the bit is already set (415d83249709, v6.0), and the worker's smp_mb()
// after clearing PENDING (346c09f80459). With either barrier gone the freer can see PENDING still
// set while the worker's lockless check misses the insert: the area is stranded with nothing
// queued (docs/models/vmalloc_purge.md, mutants M4 and M5; M4 is the shape of the TTY hang that
// led to 415d83249709).
//
// The model starts when an earlier free has queued the drain (PENDING set, one execution queued)
// and its area has already been purged (by vm_unmap_aliases() or an earlier execution), so the
// lazy tree is empty and vmap_lazy_nr 0. F frees area 1 (2 pages, over lazy_max_pages() = 1): the
// insert under vn->lazy.lock, then schedule_work(). KW is the kworker running the queued
// execution: clear PENDING (smp_wmb; store; smp_mb), then the purge: the lockless pre-check, and
// if the tree is not empty, the take under the lock. Executions F queues run at quiescence on KW.
// The bad outcome (LQ): area 1 still in the tree at quiescence, nothing left to take it.
//
// Abstracted away, and why LQ keeps its meaning:
// - One node, one area; vmap_purge_lock is taken by KW alone and orders nothing F observes, so it
//   is left out (as in vmalloc_purge). The tree is the set of its areas (a bitset).
// - vmap_lazy_nr is left out: F's free is over the threshold whatever it reads (nothing else adds,
//   and KW subtracts only areas it took, F's after its add), and F's fully ordered add_return comes
//   before the insert, so it orders nothing between the insert and the claim of PENDING, the pair
//   the property is about. With the counter the unreduced search is about ten times larger.
// - The kernel links the first node into the tree with a plain store (rb_link_node) that races
//   with the lockless READ_ONCE of RB_EMPTY_ROOT; the model writes the root with relaxed atomic
//   stores (as WRITE_ONCE would), so a run reports the ordering bug, not that plain-access race.
// - `locked_take_unordered_pending` takes the tree under the lock with no pre-check, as v5.18-v6.8
//   do, but without their re-check loop; the loop only adds takes, so its Never holds with it too.
//
// Kernel sources: mm/vmalloc.c at v6.9 (drain_vmap_area_work(), __purge_vmap_area_lazy(),
// free_vmap_area_noflush()); kernel/workqueue.c (queue_work_on(),
// set_work_pool_and_clear_pending()); include/asm-generic/bitops/atomic.h before and after
// 415d83249709.
struct VmallocDrain {
    struct Config {
        bool lockless_precheck = true;      ///< v6.9: RB_EMPTY_ROOT() before taking the lock
        bool unordered_on_failure = false;  ///< M4: pre-v6.0 generic test_and_set_bit()
        bool no_mb_after_clear = false;     ///< M5: no smp_mb() after clearing PENDING
    };
    explicit VmallocDrain(const Config& c) : cfg(c) {}
    const Config cfg;

    spinlock_t lazy_lock{"vn->lazy.lock"};
    Atomic<long> lazy_root{"vn->lazy.root", 0, observed};  // the areas in the tree (bit n = area n)
    Work drain_work{"drain_vmap_work", [this] { drain_vmap_area_work(); },
                    WorkOptions{.queued_at_start = true,
                                .unordered_on_failure = cfg.unordered_on_failure,
                                .no_mb_after_clear = cfg.no_mb_after_clear}};

    // free_vmap_area_noflush(va) for area 1, after its (fully ordered) atomic_long_add_return():
    // 0 + 2 pages > lazy_max_pages(), so it is over the threshold.
    void f() {
        spin_lock(lazy_lock);  // insert_vmap_area(va, &vn->lazy.root, &vn->lazy.head)
        WRITE_ONCE(lazy_root, READ_ONCE(lazy_root) | bit_mask(1));
        spin_unlock(lazy_lock);
        schedule_work(drain_work);  // if (unlikely(nr_lazy > nr_lazy_max))
    }
    // drain_vmap_area_work() -> __purge_vmap_area_lazy(ULONG_MAX, 0, false), one node
    void drain_vmap_area_work() {
        if (cfg.lockless_precheck && READ_ONCE(lazy_root) == 0) return;  // RB_EMPTY_ROOT(&vn->lazy.root)
        spin_lock(lazy_lock);  // WRITE_ONCE(vn->lazy.root.rb_node, NULL); list_replace_init(...)
        WRITE_ONCE(lazy_root, 0);  // the areas taken are purged; their pages subtracted (not modelled)
        spin_unlock(lazy_lock);
    }
    void kw() { run_worker(drain_work, 1); }  // process_one_work() of the queued execution

    bool bad_outcome() const { return lazy_root.final() != 0; }
    static constexpr std::array<Thread<VmallocDrain>, 2> threads{
        {{"F", &VmallocDrain::f}, {"KW", &VmallocDrain::kw}}};
};

}  // namespace

ModelDef vmalloc_purge() {
    using C = VmallocPurge::Config;
    using K = VmallocPurge::Code;
    return define<VmallocPurge>(
        "vmalloc_purge", "seed",
        "seed 004: vfree(area 1): add_return; insert; schedule_work if over || running purge: take list; sub; unlock", {
        {"baseline", C{K::Baseline},
         expect::never(
             "F's free is over the threshold (its add_return reads 2 or KW's 0: it returns 4 or 2 > 1) and calls "
             "schedule_work() after its llist_add. The claim is an RMW and reads the mo-latest PENDING: only "
             "the initial 0 and F's own write exist, so it reads 0 and queues; the execution's acquire read of "
             "the queue reads F's release increment (sw), so llist_add is hb-before that execution's "
             "llist_del_all, an RMW, which reads a list value mo-after the cmpxchg: area 1 is taken by it or "
             "was taken by KW's del_all. KW's del_all reads the initial {area 0} or F's cmpxchg (which kept "
             "bit 0), so it takes area 0. Each taken area's pages are subtracted: the list ends empty and "
             "vmap_lazy_nr 0. Metrics: 2 works queued (the running purge and F's) in every execution, up to 1 "
             "of them while the purge holds the lock. LKMM: the claim reads 0 by value (PENDING's other writes, "
             "the initial one and the execution's clear, store 0); the list and vmap_lazy_nr change only by "
             "RMWs, which atomicity chains as above; and the execution's del_all cannot read a list value "
             "co-before F's cmpxchg: del_all ->fre cmpxchg ->mb (the successful cmpxchg's trailing fence) F's "
             "release increment of the queue ->rfe the execution's acquire read ->acq-po del_all is a pb cycle."),
         "2017 patch 1/5: schedule_work() whenever nr_lazy > lazy_max_pages() (the seed's base)"},
        {"seed", C{K::Seed},
         expect::sometimes(
             "Michal Hocko's window, an SC interleaving, so RC11 and LKMM allow it: KW's llist_del_all takes "
             "{area 0}; F adds 2 (returns 4 > 1), llist_adds area 1 after the del_all (co), and mutex_is_locked() "
             "reads the owner word's initial value (KW holds the lock; its unlock has not run), so it skips "
             "schedule_work(); KW subtracts 2 and unlocks. Nothing is queued: area 1 stays on the list with "
             "vmap_lazy_nr = 2 > lazy_max_pages() at quiescence. Not Always: if F's llist_add is co-before the "
             "del_all, KW takes area 1 too; if F's read takes KW's unlock, it queues. Metrics: F queues only "
             "after reading the unlock, so 1..2 works queued and none while the purge holds the lock."),
         "2017 patch 5/5, the seed: ... && !mutex_is_locked(&vmap_purge_lock)"},
        {"v5_18", C{K::V5_18},
         expect::never(
             "Unconditional schedule_work(): F's claim reads PENDING 0 (only the initial 0 and F's own write "
             "exist) and queues an execution, sw-after F's release increment, so F's insert (sb-before the "
             "claim) is hb-before that execution's take under purge_vmap_area_lock, which therefore takes area 1 "
             "unless an earlier take did. KW's take (under the same lock) finds area 0. Every taken area is "
             "subtracted and the re-check loop only adds purges: the list ends empty and vmap_lazy_nr 0. (With "
             "PENDING already set the lock would still decide it: if the worker's section came first, its clear "
             "->sb unlock ->sw F's lock ->sb claim would make the claim read 0.) LKMM: the claim reads 0 by value "
             "(PENDING's other writes, the initial one and the execution's clear, store 0). lock.cat orders the "
             "purge_vmap_area_lock sections, each spin_lock()'s LKR reading the previous section's spin_unlock, "
             "so a section's plain writes ->po-rel its unlock ->rfe the next LKR ->acq-po that section's plain "
             "reads are wr-vis, and plain-coherence makes each take read the list the previous section left; the "
             "queued execution's section comes after F's (F's release increment ->rfe its acquire read of the "
             "queue), so it takes area 1 unless an earlier take did, and vmap_lazy_nr, changed only by RMWs "
             "chained by atomicity, ends 0."),
         "690467c81b1a (v5.18): drain_vmap_work, unconditional schedule_work(), mutex_lock + re-check loop"},
        {"v2_in_progress_guard", C{K::V2Guard},
         expect::sometimes(
             "The v2 guard has its own lost wake-up, an SC interleaving: KW takes area 0, subtracts 2 and its "
             "re-check reads vmap_lazy_nr = 0 <= 1, so its loop ends; F adds 2 (returns 2 > 1), inserts area 1 "
             "under the lock, and atomic_xchg(&drain_vmap_work_in_progress, 1) reads the initial 1 (KW's reset "
             "has not run), so it skips schedule_work(); then KW's atomic_set(0). Nothing is queued: area 1 and "
             "vmap_lazy_nr = 2 are left at quiescence. The re-check may also read its own 0 after F's add has "
             "run (one store back, F's add is not hb-before it): the same outcome. The first interleaving is "
             "sequentially consistent, so LKMM allows the outcome too."),
         "690467c81b1a's v2 posting: schedule_work() only if !atomic_xchg(&drain_vmap_work_in_progress, 1)"},
        {"insert_before_add", C{K::InsertBeforeAdd},
         expect::failure(EngineFailure::AssertFailed,
                         "Mutant M7: with llist_add() before atomic_add_return(), the purge can take area 1 and "
                         "subtract its pages before F adds them (an SC interleaving: F llist_adds area 1, KW's "
                         "del_all takes both areas and subtracts 4 from 2); F's add_return then reads -2, which "
                         "the S2 require() rejects. The interleaving is sequentially consistent, so LKMM allows it "
                         "too: the require() fails under LKMM as well."),
         "mutant M7 on the baseline: the area is inserted before its pages are counted (S2)"},
    });
}

ModelDef vmalloc_drain() {
    using C = VmallocDrain::Config;
    return define<VmallocDrain>(
        "vmalloc_drain", "seed",
        "seed 004 at v6.9: free: add_return; insert under lock; schedule_work || kworker: clear PENDING; mb; "
        "lockless RB_EMPTY_ROOT; take under lock", {
        {"v6_9", C{},
         expect::never(
             "Store buffering with an SC fence on each side. F: insert (W root) ... F_sc; xchg PENDING; F_sc. KW: "
             "W PENDING=0; F_sc; R root. The SC fences are totally ordered. If F's first fence precedes KW's, "
             "KW's read of the root (sb-after its fence) must see F's insert, which is sb-before F's fence: KW "
             "takes area 1. If KW's fence precedes F's, F's xchg (sb-after F's fence) must read KW's clear or a "
             "later PENDING, i.e. 0: F claims PENDING and queues; the queued execution's acquire read of the "
             "queue reads F's release increment, so F's insert is hb-before its lockless check, which sees area "
             "1 and takes it. Either way the tree ends empty. LKMM agrees (the fully ordered test_and_set_bit "
             "and smp_mb() close the same cycle)."),
         "v6.9: lockless RB_EMPTY_ROOT pre-check, fully ordered PENDING claim (v6.0+), smp_mb after clearing"},
        {"v6_9_unordered_pending", C{.unordered_on_failure = true},
         expect::sometimes(
             "Mutant M4 (pre-415d83249709 generic test_and_set_bit): F's claim starts with a relaxed read of "
             "PENDING and returns, with no barrier, when it reads 1. F: W root; unlock (release); R PENDING = 1 "
             "(the initial value, mo-before KW's clear). KW: W PENDING=0; F_sc; R root = the initial empty tree. "
             "The cycle W root ->po R PENDING ->fr W PENDING=0 ->po F_sc ->po R root ->fr W root has an SC fence "
             "on KW's side only, which RC11 and LKMM allow (SB with one fence): KW's pre-check skips the purge, "
             "F queues nothing, and area 1 stays in the tree with vmap_lazy_nr = 2. Not Always: if F's read "
             "takes KW's clear, F claims PENDING and queues."),
         "M4: v6.9 code on a test_and_set_bit() that is unordered when the bit is set (the TTY-hang shape)"},
        {"v6_9_no_mb_after_clear", C{.no_mb_after_clear = true},
         expect::sometimes(
             "Mutant M5 (ghost PENDING, pre-346c09f80459): KW clears PENDING (F_rel; W 0) and reads the root with "
             "no fence between. F: W root; F_sc; xchg PENDING reads 1 (the initial value, so F's xchg is mo-before "
             "KW's clear); F_sc. KW: W PENDING=0; R root = empty. The release fence orders only KW's earlier "
             "accesses. The cycle W root ->po F_sc ->po xchg ->fr W PENDING=0 ->po R root ->fr W root (the xchg "
             "reads the initial value that KW's clear overwrites) has an SC fence on F's side only: store "
             "buffering, allowed by RC11 and LKMM. F sees PENDING still set and queues nothing, KW's pre-check "
             "misses area 1, which is stranded. Not Always: if F's xchg reads KW's clear, it queues.")
             .because_under_lkmm(
                 "Mutant M5 (ghost PENDING, pre-346c09f80459): KW's smp_wmb() orders only its earlier writes "
                 "before its clear of PENDING, and nothing orders the clear before its read of the root (W->R "
                 "program order is not in ppo). F: W root; xchg PENDING (fully ordered: mb) reads 1, the initial "
                 "value KW's clear overwrites (xchg ->fre W PENDING=0); KW: W PENDING=0; R root = empty (R root "
                 "->fre W root). R root ->fre W root ->mb xchg is a pb step, but from W PENDING=0 no strong "
                 "fence leads on: store buffering with a strong fence on F's side only, allowed. F sees PENDING "
                 "still set and queues nothing, KW's pre-check misses area 1, which is stranded. Not Always: if "
                 "F's xchg reads KW's clear, it queues."),
         "M5: the worker's smp_mb() after clearing PENDING removed (the ghost PENDING)"},
        {"locked_take_unordered_pending", C{.lockless_precheck = false, .unordered_on_failure = true},
         expect::never(
             "M4's unordered claim, but KW takes the tree under vn->lazy.lock with no lockless pre-check, as "
             "v5.18-v6.8 do. The lock word's RMWs order the two critical sections. If F's section is first, "
             "KW's lock acquire reads F's unlock release (through the RMW chain): F's insert is hb-before KW's "
             "read of the root, which takes area 1. If KW's section is first, F's lock reads KW's unlock: KW's "
             "clear of PENDING is hb-before F's relaxed read, which then reads 0 (no later PENDING write "
             "exists yet), so F goes on to the fully ordered xchg, reads 0 and queues; the queued execution "
             "(acquire on the queue) sees the insert and takes area 1. LKMM agrees: the lock orders it."),
         "M4's claim on v5.18-v6.8's locked take (without their re-check loop): the lock makes it safe"},
    });
}

}  // namespace oc::models
