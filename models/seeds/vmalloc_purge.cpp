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
             "of them while the purge holds the lock."),
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
             "->sb unlock ->sw F's lock ->sb claim would make the claim read 0.)"),
         "690467c81b1a (v5.18): drain_vmap_work, unconditional schedule_work(), mutex_lock + re-check loop"},
        {"v2_in_progress_guard", C{K::V2Guard},
         expect::sometimes(
             "The v2 guard has its own lost wake-up, an SC interleaving: KW takes area 0, subtracts 2 and its "
             "re-check reads vmap_lazy_nr = 0 <= 1, so its loop ends; F adds 2 (returns 2 > 1), inserts area 1 "
             "under the lock, and atomic_xchg(&drain_vmap_work_in_progress, 1) reads the initial 1 (KW's reset "
             "has not run), so it skips schedule_work(); then KW's atomic_set(0). Nothing is queued: area 1 and "
             "vmap_lazy_nr = 2 are left at quiescence. The re-check may also read its own 0 after F's add has "
             "run (one store back, F's add is not hb-before it): the same outcome."),
         "690467c81b1a's v2 posting: schedule_work() only if !atomic_xchg(&drain_vmap_work_in_progress, 1)"},
        {"insert_before_add", C{K::InsertBeforeAdd},
         expect::failure(EngineFailure::AssertFailed,
                         "Mutant M7: with llist_add() before atomic_add_return(), the purge can take area 1 and "
                         "subtract its pages before F adds them (an SC interleaving: F llist_adds area 1, KW's "
                         "del_all takes both areas and subtracts 4 from 2); F's add_return then reads -2, which "
                         "the S2 require() rejects."),
         "mutant M7 on the baseline: the area is inserted before its pages are counted (S2)"},
    });
}

}  // namespace oc::models
