// SPDX-License-Identifier: MIT
// memcg_flush: seed 003, 873f64b791a2 "mm/memcontrol.c: remove the redundant updating of
// stats_flush_threshold" (v6.0), its v5.19 baseline and the v6.4/v6.8 flush designs.
//
// Protocol. Each memcg stat update adds to a per-CPU counter; memcg_rstat_updated() adds
// abs(val) to the per-CPU stats_updates and, once that exceeds MEMCG_CHARGE_BATCH, adds
// x / MEMCG_CHARGE_BATCH to the global atomic stats_flush_threshold and zeroes the per-CPU
// count. Readers (mem_cgroup_flush_stats()) flush the per-CPU stats into the memcg's totals
// only when the threshold exceeds num_online_cpus(); the flush (__mem_cgroup_flush_stats())
// snapshots every CPU and resets the threshold to 0. The patch skips the atomic_add, one
// cache-line-dirtying RMW per batch on every CPU, once atomic_read() already shows the
// threshold above num_online_cpus(): readers only ever test `thr > N`, so adding more changes
// nothing they can observe. The check needs no ordering: a stale read that skips is the same
// outcome as the baseline's add landing just before the flush's reset and being wiped.
//
// Model MemcgFlush (threads CPU0, CPU1): CPU0 makes 3 stat updates; CPU1 is a reader that
// calls mem_cgroup_flush_stats() and reads the stat. Scaled constants: N = num_online_cpus()
// = 2, MEMCG_CHARGE_BATCH = 2, every update val = 6 pages, so every update is a batch crossing
// that adds 3 units, more than N: one crossing makes the stats flushable (in the kernel this
// takes N+1 one-unit crossings or one large update spanning several batches; here every update
// is large, so the skip shows within 3 updates). thr starts at 0, just after a flush. Observables (§3.4 E1): CPU1's consumer decision `thr > N` and the stat it read,
// the final `thr > N` (would the next reader flush?) and the final unflushed pages. The bad
// outcome (A1): at quiescence more than MEMCG_CHARGE_BATCH * N pages are unflushed while
// `thr <= N`, so no reader flushes them until the 2 s periodic flush ("out of sync by atmost
// (MEMCG_CHARGE_BATCH * nr_cpus)" in the kernel's comment). Metric (Q1): atomic_add()s on
// stats_flush_threshold.
//
// Model MemcgFlushOngoing (threads FLUSH, CPU1), for the flush-coordination designs: FLUSH is
// the periodic flush_memcg_stats_dwork() (with stats_flush_ongoing the model starts after its
// claim succeeded: ongoing = 1); CPU1 makes one stat update and then, as a reader,
// calls mem_cgroup_flush_stats() and reads the stat. stats_flush_threshold starts above N (the
// stats are flushable). Bad outcome (A2): CPU1 found the stats flushable, returned from
// mem_cgroup_flush_stats(), and read a stat that misses its own update, which happened-before
// the call (sb). Before v6.4 a concurrent flusher made spin_trylock() fail; 3cd9992b9302 (v6.4)
// replaced the lock by the test-and-test-and-set of stats_flush_ongoing; both return at once.
// 7d7ef0a4686a (v6.8) removed the skip: every flusher flushes, serialised by the rstat lock.
//
// Abstracted away, and why the properties still mean what they say:
// - One memcg, one stat item, one updating CPU: the per-CPU stat has one writer, and CPU1's
//   per-CPU stat is 0 (MemcgFlush) or CPU1's own update (MemcgFlushOngoing). The benign
//   check-then-act race of two updating CPUs (both read <= N, both add) is not modelled: it
//   adds at most one RMW per racing CPU and cannot change `thr > N` (both already add).
// - stats_updates is per-CPU and touched only by its CPU (v6.0): a local variable.
// - cgroup_rstat_updated()'s updated-CPU tree: the flush visits every CPU. A flush that sees
//   more can only make stale reads rarer, so a stale-stats witness stays one.
// - The flush's per-CPU prev snapshot: with one stat CPU and flushes serialised, the total is
//   the last snapshot (`global = state`), written with WRITE_ONCE and read with READ_ONCE as
//   memcg_page_state() does.
// - MemcgFlush has one flusher (CPU1), so spin_trylock(&stats_flush_lock) always succeeds and
//   the lock word is touched by no other thread (no hb edge): left out. cgroup_rstat_lock is
//   modelled only where it is the serialisation (v6.8); in the trylock/ongoing designs flushes
//   are already exclusive. flush_next_time (read only by the ratelimited path) is left out.
//
// Kernel source modelled (mm/memcontrol.c): memcg_rstat_updated(), __mem_cgroup_flush_stats(),
// mem_cgroup_flush_stats() at v5.19 (baseline) and 873f64b791a2 (v6.0); do_flush_stats() at
// 3cd9992b9302 (v6.4) and 7d7ef0a4686a (v6.8); flush_memcg_stats_dwork().
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

using namespace oc::kernel;

constexpr int num_online_cpus = 2;     // N: CPU0 and CPU1
constexpr int memcg_charge_batch = 2;  // MEMCG_CHARGE_BATCH, scaled from 64
constexpr long update_pages = 6;       // val of every update: 6 / 2 = 3 units > N

/// The test memcg_rstat_updated() puts before atomic_add(x / MEMCG_CHARGE_BATCH, &thr).
enum class Check : std::uint8_t {
    None,      ///< v5.19: unconditional atomic_add
    ReadSkip,  ///< 873f64b791a2: if (atomic_read(&thr) <= num_online_cpus()) atomic_add(...)
    MbRead,    ///< mutant M3: smp_mb() before that atomic_read()
    Inverted,  ///< the condition inverted (the mistake caught in review of the 2025 rework's v1)
};

struct MemcgFlush {
    struct Config {
        Check check = Check::ReadSkip;
    };
    explicit MemcgFlush(const Config& c) : cfg(c) {}
    const Config cfg;

    atomic_t stats_flush_threshold{"stats_flush_threshold", 0};
    Atomic<long> state0{"state[cpu0]", 0};  // memcg->vmstats_percpu->state[idx] of CPU0
    Atomic<long> global{"vmstats.state", 0};  // memcg->vmstats->state[idx], written by the flush
    Reg r_flush{"1:flush"};  // CPU1's consumer decision: atomic_read(&thr) > num_online_cpus()
    Reg r_stat{"1:stat"};    // the stat CPU1 read after mem_cgroup_flush_stats()
    Derived thr_above_n{"thr>N", [this] { return Value{stats_flush_threshold.final() > num_online_cpus}; }};
    Derived unflushed{"unflushed", [this] { return Value{state0.final() - global.final()}; }};
    Metric thr_rmws{"thr_rmws"};    // atomic_add()s on stats_flush_threshold (Q1)
    Metric thr_skips{"thr_skips"};  // batch crossings that only read it

    // memcg_rstat_updated(memcg, val), after __mod_memcg_state() added val to the per-CPU stat.
    void memcg_rstat_updated(unsigned& stats_updates, long val) {
        const unsigned x = stats_updates += static_cast<unsigned>(val);  // __this_cpu_add_return()
        if (x <= memcg_charge_batch) return;
        bool add = true;
        switch (cfg.check) {
        case Check::None: break;
        case Check::ReadSkip: add = atomic_read(stats_flush_threshold) <= num_online_cpus; break;
        case Check::MbRead:
            smp_mb();
            add = atomic_read(stats_flush_threshold) <= num_online_cpus;
            break;
        case Check::Inverted: add = atomic_read(stats_flush_threshold) > num_online_cpus; break;
        }
        if (add) {
            atomic_add(static_cast<int>(x / memcg_charge_batch), stats_flush_threshold);
            ++thr_rmws;
        } else {
            ++thr_skips;
        }
        stats_updates = 0;  // __this_cpu_write(stats_updates, 0)
    }
    // CPU0: three stat updates.
    void cpu0() {
        unsigned stats_updates = 0;  // per-CPU, touched only by CPU0
        long state = 0;
        for (int i = 0; i < 3; ++i) {
            state += update_pages;  // __this_cpu_add(memcg->vmstats_percpu->state[idx], val)
            WRITE_ONCE(state0, state);
            memcg_rstat_updated(stats_updates, update_pages);
        }
    }
    // CPU1: a reader (memory.stat, reclaim): mem_cgroup_flush_stats(), then the stat.
    void cpu1() {
        r_flush = atomic_read(stats_flush_threshold) > num_online_cpus;
        if (r_flush) {
            // __mem_cgroup_flush_stats(): cgroup_rstat_flush_irqsafe() snapshots every CPU.
            WRITE_ONCE(global, READ_ONCE(state0));
            atomic_set(stats_flush_threshold, 0);
        }
        r_stat = READ_ONCE(global);  // memcg_page_state()
    }

    // A1: more than MEMCG_CHARGE_BATCH * N pages unflushed and no reader will flush them.
    bool bad_outcome() const {
        return state0.final() - global.final() > memcg_charge_batch * num_online_cpus &&
               stats_flush_threshold.final() <= num_online_cpus;
    }
    static constexpr std::array<Thread<MemcgFlush>, 2> threads{
        {{"CPU0", &MemcgFlush::cpu0}, {"CPU1", &MemcgFlush::cpu1}}};
};

/// How a flusher coordinates with a flush already in progress.
enum class Coord : std::uint8_t {
    Trylock,  ///< v5.15..v6.3: if (!spin_trylock_irqsave(&stats_flush_lock, flag)) return;
    Ongoing,  ///< 3cd9992b9302 (v6.4): if (atomic_read(&ongoing) || atomic_xchg(&ongoing, 1)) return;
    XchgOnly, ///< 3cd9992b9302's v1: if (atomic_xchg(&ongoing, 1)) return; (no test first)
    NoSkip,   ///< 7d7ef0a4686a (v6.8): no skip; cgroup_rstat_flush() serialises on cgroup_rstat_lock
};

struct MemcgFlushOngoing {
    struct Config {
        Coord coord = Coord::Ongoing;
    };
    explicit MemcgFlushOngoing(const Config& c) : cfg(c) {}
    const Config cfg;

    atomic_t stats_flush_threshold{"stats_flush_threshold", num_online_cpus + 1};  // flushable
    atomic_t stats_flush_ongoing{"stats_flush_ongoing", claimed_at_start() ? 1 : 0};  // FLUSH's claim
    spinlock_t stats_flush_lock{"stats_flush_lock"};
    spinlock_t cgroup_rstat_lock{"cgroup_rstat_lock"};
    Atomic<long> state1{"state[cpu1]", 0};
    Atomic<long> global{"vmstats.state", 0};
    Reg r_flush{"1:flush"};
    Reg r_stat{"1:stat"};
    Metric flushes{"flushes"};
    Metric skipped{"skipped_flushes"};
    Metric ongoing_rmws{"ongoing_rmws"};  // atomic_xchg()s on stats_flush_ongoing
    Metric wasted_rmws{"ongoing_rmws_failed"};  // ... that found a flush in progress (a useless line write)

    // cgroup_rstat_flush(root): snapshot the (one) stat CPU into the total. v6.8 resets the
    // (per-memcg) threshold inside it, in mem_cgroup_css_rstat_flush(), under the rstat lock.
    void rstat_flush() {
        ++flushes;
        if (cfg.coord == Coord::NoSkip) spin_lock(cgroup_rstat_lock);
        WRITE_ONCE(global, READ_ONCE(state1));
        if (cfg.coord == Coord::NoSkip) {
            atomic_set(stats_flush_threshold, 0);
            spin_unlock(cgroup_rstat_lock);
        }
    }
    // The head of __mem_cgroup_flush_stats() (v6.0) / do_flush_stats() (v6.4): false = skip.
    bool claim() {
        switch (cfg.coord) {
        case Coord::Trylock: return spin_trylock(stats_flush_lock);
        case Coord::Ongoing:
            if (atomic_read(stats_flush_ongoing) != 0) return false;
            return claim_ongoing();
        case Coord::XchgOnly: return claim_ongoing();
        case Coord::NoSkip: return true;
        }
        return true;
    }
    bool claim_ongoing() {
        ++ongoing_rmws;
        if (atomic_xchg(stats_flush_ongoing, 1) == 0) return true;
        ++wasted_rmws;
        return false;
    }
    // The rest: flush, reset the threshold, release the claim.
    void flush_and_release() {
        rstat_flush();
        switch (cfg.coord) {
        case Coord::Trylock:
            atomic_set(stats_flush_threshold, 0);
            spin_unlock(stats_flush_lock);
            break;
        case Coord::Ongoing:
        case Coord::XchgOnly:
            atomic_set(stats_flush_threshold, 0);
            atomic_set(stats_flush_ongoing, 0);
            break;
        case Coord::NoSkip: break;
        }
    }
    void do_flush_stats() {
        if (claim())
            flush_and_release();
        else
            ++skipped;
    }
    // FLUSH: flush_memcg_stats_dwork() -> do_flush_stats(), the periodic flush. With
    // stats_flush_ongoing the model starts after FLUSH's claim succeeded (ongoing = 1): the
    // executions where CPU1 claims first are ones where CPU1 flushes itself and FLUSH skips
    // (A2 holds in them), and leaving FLUSH's 4-event claim out keeps the search small.
    void periodic() {
        if (claimed_at_start())
            flush_and_release();
        else
            do_flush_stats();
    }
    bool claimed_at_start() const { return cfg.coord == Coord::Ongoing || cfg.coord == Coord::XchgOnly; }
    // CPU1: one stat update, then a read through mem_cgroup_flush_stats().
    void cpu1() {
        WRITE_ONCE(state1, update_pages);
        // memcg_rstat_updated() (873f64b791a2): thr is already above N, or reset by the flush
        if (atomic_read(stats_flush_threshold) <= num_online_cpus)
            atomic_add(static_cast<int>(update_pages / memcg_charge_batch), stats_flush_threshold);
        r_flush = atomic_read(stats_flush_threshold) > num_online_cpus;  // mem_cgroup_flush_stats()
        if (r_flush) do_flush_stats();
        r_stat = READ_ONCE(global);
    }

    // A2: CPU1 asked for a flush and still read a stat without its own earlier update.
    bool bad_outcome() const { return r_flush != 0 && r_stat < update_pages; }
    static constexpr std::array<Thread<MemcgFlushOngoing>, 2> threads{
        {{"FLUSH", &MemcgFlushOngoing::periodic}, {"CPU1", &MemcgFlushOngoing::cpu1}}};
};

}  // namespace

ModelDef memcg_flush() {
    using C = MemcgFlush::Config;
    ModelDef def = define<MemcgFlush>(
        "memcg_flush", "seed",
        "seed 003 (873f64b791a2, v6.0): skip atomic_add to stats_flush_threshold once it exceeds num_online_cpus()", {
        {"baseline", C{Check::None},
         expect::sometimes("A plain interleaving: CPU0's first update adds 3 (thr > N), CPU1 reads it, "
                           "snapshots state[cpu0] = 6, then CPU0's other two updates (state 18, two adds) run "
                           "before CPU1's atomic_set(thr, 0), which is mo-after the adds and wipes them: 12 "
                           "pages unflushed (> BATCH*N = 4) with thr = 0. No weak behaviour needed; the "
                           "documented bound does not count adds wiped between snapshot and reset. The "
                           "interleaving is sequentially consistent, so LKMM allows it too."),
         "v5.19: atomic_add(x / MEMCG_CHARGE_BATCH, &stats_flush_threshold) on every batch crossing"},
        {"patched", C{Check::ReadSkip},
         expect::sometimes("The baseline's interleaving: CPU0's second and third updates run between CPU1's "
                           "snapshot and its reset; their atomic_read() returns 3 (> N, CPU0's own add, the "
                           "mo-latest value) so they skip; the reset leaves thr = 0 and 12 pages unflushed. "
                           "A skip on a read that is stale with respect to the reset (allowed: nothing orders "
                           "CPU1's relaxed atomic_set before CPU0's relaxed read) gives the same final state as "
                           "the baseline's add landing before the reset, so the outcome sets are equal. The "
                           "interleaving is sequentially consistent, so LKMM allows it too, and the stale skip as "
                           "well (CPU1's atomic_set and CPU0's atomic_read are unordered once accesses, linked by "
                           "no fence, release or acquire: no hb or pb cycle)."),
         "873f64b791a2: if (atomic_read(&stats_flush_threshold) <= num_online_cpus()) atomic_add(...)"},
        {"check_after_mb", C{Check::MbRead},
         expect::sometimes("smp_mb() is F_sc in CPU0 only; CPU1 has no SC fence and writes thr with a relaxed "
                           "store, so the fence creates no sw or psc edge: every execution of patched remains, "
                           "and with it the bad interleaving. The check needs no ordering (mutant M3). The bad "
                           "interleaving is sequentially consistent, and LKMM allows every SC execution whatever "
                           "its fences, so LKMM allows it too."),
         "smp_mb() before the check's atomic_read() (mutant M3)"},
        {"inverted_check", C{Check::Inverted},
         expect::always("Every write to thr stores 0: the initial write does; an atomic_add runs only after a "
                        "check read a value > N, and CPU1's reset (0) only after its read of a value > N. By "
                        "induction on any order every read returns 0, so no add happens, CPU1 never flushes, and "
                        "all 18 pages stay unflushed with thr = 0 <= N in every execution. The same under LKMM, "
                        "by program logic, load buffering included: only CPU0's adds could write a value > N, "
                        "and the first of them would need its check to read one of CPU0's own po-later adds, "
                        "which coherence (po-loc | com acyclic) forbids."),
         "the condition inverted: add only when thr > num_online_cpus() (caught in review of the 2025 v1)"},
    });

    using O = MemcgFlushOngoing::Config;
    ModelDef ongoing = define<MemcgFlushOngoing>("memcg_flush", "seed", "", {
        {"v6.0_trylock", O{Coord::Trylock},
         expect::sometimes("A plain interleaving: FLUSH takes stats_flush_lock and snapshots state[cpu1] = 0 "
                           "before CPU1's update; CPU1 updates, reads thr = 3 > N, its spin_trylock() fails "
                           "(the CAS reads FLUSH's 1), it returns and reads the stat before FLUSH writes it (0, "
                           "or FLUSH's stale snapshot 0): its own update, sb-before the call, is missing. The "
                           "seed's own kernel has the stale-stats window 7d7ef0a4686a describes. The interleaving "
                           "is sequentially consistent, so LKMM allows it too (the failed spin_trylock() is an LF, "
                           "a read with no ordering, per lock.cat)."),
         "v5.15..v6.3 (the seed's kernel): if (!spin_trylock_irqsave(&stats_flush_lock, flag)) return;"},
        {"v6.4_skip_if_ongoing", O{Coord::Ongoing},
         expect::sometimes("The same window with the test-and-test-and-set: FLUSH holds stats_flush_ongoing and "
                           "snapshots state[cpu1] = 0 (before CPU1's update, or one store back: nothing orders "
                           "CPU1's relaxed write before FLUSH's relaxed read); CPU1 updates, finds thr > N, its "
                           "atomic_read(&stats_flush_ongoing) returns 1 (the mo-latest write, or FLUSH's claim one "
                           "store back after FLUSH's relaxed atomic_set(ongoing, 0), which releases nothing), it "
                           "returns and reads a stat without its own update (A2; the stale stats 7d7ef0a4686a "
                           "fixed). The first order named (FLUSH's snapshot before CPU1's update, CPU1's reads "
                           "before FLUSH's two atomic_set()s) is a sequentially consistent interleaving, so LKMM "
                           "allows it too."),
         "3cd9992b9302 (v6.4): if (atomic_read(&ongoing) || atomic_xchg(&ongoing, 1)) return;"},
        {"v6.4_xchg_only", O{Coord::XchgOnly},
         expect::sometimes("The same window: CPU1's atomic_xchg reads FLUSH's 1 (RMWs read the mo-latest "
                           "value), it skips and reads the stale stat. Same outcomes as the test-and-test-and-"
                           "set; only the RMW count differs: the xchg dirties the line even when it fails. The "
                           "interleaving is sequentially consistent (the fully ordered xchg reads FLUSH's claim "
                           "before FLUSH's atomic_set(ongoing, 0)), so LKMM allows it too."),
         "3cd9992b9302's v1: if (atomic_xchg(&stats_flush_ongoing, 1)) return; (the TTAS came from review)"},
        {"v6.8_no_skip", O{Coord::NoSkip},
         expect::never("Every flusher flushes: when CPU1 finds thr > N it snapshots state[cpu1] itself; its "
                       "READ_ONCE is sb-after its own WRITE_ONCE(6), so write-read coherence (hb;fr "
                       "irreflexive) forbids reading the initial 0, and it writes global = 6. Its final read of "
                       "global reads its own write or a later one in mo, FLUSH's, whose snapshot is 6 too: "
                       "FLUSH's critical section is after CPU1's in cgroup_rstat_lock order, so CPU1's unlock "
                       "->sw FLUSH's lock and CPU1's state write ->hb FLUSH's read. LKMM: CPU1's snapshot reads 6 "
                       "by coherence (po-loc | com acyclic), and cgroup_rstat_lock orders the sections (lock.cat: "
                       "each spin_lock()'s LKR reads the previous section's spin_unlock). If FLUSH's section is "
                       "second, its READ_ONCE reading 0 would give R ->fre W state ->po-rel CPU1's unlock ->rfe "
                       "FLUSH's LKR, an internal prop edge (in hb) against LKR ->acq-po R: an hb cycle. If it is "
                       "first, FLUSH's write of global is co-before CPU1's (CPU1's ->coe FLUSH's ->po-rel FLUSH's "
                       "unlock ->rfe CPU1's LKR ->acq-po CPU1's write would be the same kind of hb cycle), so "
                       "CPU1's final read, po-after its own write, reads 6."),
         "7d7ef0a4686a (v6.8): no skip; every flusher runs cgroup_rstat_flush() under cgroup_rstat_lock"},
    });
    for (auto& v : ongoing.variants) def.variants.push_back(std::move(v));
    return def;
}

}  // namespace oc::models
