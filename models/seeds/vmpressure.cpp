// SPDX-License-Identifier: MIT
// vmpressure: seed 000, "[PATCH v3] vmpressure: wake up work only when there is registration
// event" (wangyong, 24 Sep 2021; posted, never merged).
//
// The protocol. Reclaim calls vmpressure() for every memcg it scanned (tree=false: the memcg's
// own window; crossing it with a high level sets memcg->socket_pressure, which throttles TCP on
// cgroup v2) and once for the reclaim target (tree=true: the subtree window). A tree call adds
// its scan count to vmpr->tree_scanned under sr_lock and, once the window is crossed, queues
// vmpr->work; the work takes the counters under sr_lock and signals every eventfd registered on
// vmpr->events under events_lock. Usually nobody has registered an eventfd, so the work wakes a
// kworker for nothing. The seed counts registrations in a static key (num_events:
// static_branch_inc() in vmpressure_register_event() after the list_add, static_branch_dec() in
// unregister) and returns from the tree branch when the key is off. Nothing is ordered by the
// key: a reclaim that reads it stale simply drops one window of scans (the worker re-reads the
// list under events_lock anyway).
//
// The model: three threads on one memcg. REG is a user registering an eventfd
// (vmpressure_register_event()); RCL is one direct reclaimer (shrink_node(): vmpressure(memcg,
// tree=false), then vmpressure(target, tree=true)), each call scanning exactly one window; KW is
// the kworker of vmpr->work (work still queued at the end runs at quiescence). Each property gets
// the scenario with the fewest steps that still shows it:
// - no listener (I2 and the headline count): REG idle; RCL makes one tree call; KW looks once.
// - socket (S1): REG registers concurrently; RCL makes the tree=false call; the work is idle.
// - concurrent (M3's data race): REG registers concurrently; RCL makes one tree call.
// - hb reclaim (L1): REG registers and then publishes `registered` with a release store (a
//   harness edge); RCL makes its tree call only if its acquire read of `registered` saw it, so
//   the registration happens-before the reclaim; KW looks once, concurrently with RCL.
//
// Abstracted away, and why the properties keep their meaning: one memcg and no ancestors (the
// work's ancestor walk repeats the same events_lock pattern per level); the reclaimed counts are
// 0, so vmpressure_calc_level() is always CRITICAL and every event's level/mode filter passes
// (the properties are about whether a signal is sent at all); the gfp, mem_cgroup_disabled(),
// root-memcg and !scanned early returns are taken as "continue" (they do not depend on the key);
// events is the number of registered eventfds (a Plain int under events_lock: list_add is a
// plain update under the mutex, race-checked); eventfd_signal() adds to a counter; jiffies + HZ
// is 1. vmpressure_unregister_event() and static_branch_dec() are not exercised (I1 key >= 0 is
// asserted by static_branch_dec itself). static_branch_unlikely() reads the key count relaxed:
// weaker than text patching, which changes nothing here because no property relies on the key.
//
// Kernel sources: mm/vmpressure.c at blob 76518e4166dc (v5.14/v5.15, the base of the seed diff):
// vmpressure(), vmpressure_work_fn(), vmpressure_event(), vmpressure_register_event(); the seed
// v3 diff (DEFINE_STATIC_KEY_FALSE(num_events), vmpressure_unregistered()); the v1 posting (13 Sep
// 2021: static atomic_t num_events, checked after the accumulation); mm/vmscan.c shrink_node() and
// shrink_node_memcgs() (v5.14) for the order of the two calls; kernel/jump_label.c for
// static_key_slow_inc() under jump_label_mutex; kernel/workqueue.c for the PENDING bit.
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

using namespace oc::kernel;

constexpr long kWin = 512;  // vmpressure_win = SWAP_CLUSTER_MAX * 16

struct Vmpressure {
    /// Which vmpressure() is run.
    enum class Code : std::uint8_t {
        Baseline,       ///< v5.14 mm/vmpressure.c, no key
        V3,             ///< the seed: static_branch check at the top of the tree branch
        CheckAtEntry,   ///< mutant M1: the check at function entry, before `if (tree)`
        V1,             ///< mutant M2 (the v1 posting): atomic_t num_events read after the accumulation
        PlainCounter,   ///< mutant M3: a plain int num_events, checked where v3 checks the key
    };
    /// Which threads do what (each kept to the few steps its property needs).
    enum class Scenario : std::uint8_t {
        NoListener,   ///< REG idle; RCL: one tree call of one window; KW takes one look at its queue
        Socket,       ///< REG registers; RCL: one tree=false call of one window; KW idle
        Concurrent,   ///< REG registers; RCL: one tree call; the work runs at quiescence
        HbReclaim,    ///< REG registers, then releases `registered`; RCL reclaims (one tree call) only if
                      ///< its acquire read of `registered` saw it; KW takes one look at its queue
    };
    /// The bad outcome a variant checks.
    enum class Property : std::uint8_t {
        StaleScans,          ///< I2: tree_scanned left non-zero at quiescence (a stale burst awaits the next listener)
        SocketPressureLost,  ///< S1: the tree=false call crossed its window but socket_pressure was never set
        MissedNotification,  ///< L1: registration happened-before reclaim, yet no eventfd was signalled
    };
    struct Config {
        Code code = Code::V3;
        Scenario scenario = Scenario::NoListener;
        Property property = Property::StaleScans;
    };
    explicit Vmpressure(const Config& c) : cfg(c) {}
    const Config cfg;

    static_key num_events{"num_events"};                     // v3: DEFINE_STATIC_KEY_FALSE(num_events)
    atomic_t num_events_v1{"num_events_v1", 0};              // v1: static atomic_t num_events
    Plain<int> num_events_plain{"num_events_plain", 0};      // M3: static int num_events
    spinlock_t sr_lock{"sr_lock"};
    Plain<long> scanned{"scanned", 0};                       // vmpr->scanned (tree=false window)
    Plain<long> tree_scanned{"tree_scanned", 0, observed};   // vmpr->tree_scanned
    mutex events_lock{"events_lock"};
    Plain<int> events{"events", 0};                          // vmpr->events: registered eventfds
    Plain<int> signals{"signals", 0, observed};              // eventfd_signal() calls
    Plain<long> socket_pressure{"socket_pressure", 0, observed};  // memcg->socket_pressure (plain at the base)
    Atomic<int> registered{"registered", 0};                 // harness: register_event() has returned
    Reg saw_registered{"RCL:registered"};
    Work work{"vmpr->work", [this] { vmpressure_work_fn(); }};
    Metric works_queued{"works_queued"};            // schedule_work() calls that claimed PENDING
    Metric works_no_listener{"works_no_listener"};  // executions of the work that signalled nobody
    Metric tree_scanned_max{"tree_scanned_max"};    // largest tree_scanned the reclaimer left behind

    bool key_off() { return !static_branch_unlikely(num_events); }  // vmpressure_unregistered()

    // mm/vmpressure.c vmpressure(gfp, memcg, tree, scanned, reclaimed = 0)
    void vmpressure(bool tree, long nr_scanned) {
        if (cfg.code == Code::CheckAtEntry && key_off()) return;  // M1: "bail out early in vmpressure() entry"
        if (tree) {
            if (cfg.code == Code::V3 && key_off()) return;                    // the seed
            if (cfg.code == Code::PlainCounter && num_events_plain.read() == 0) return;  // M3
            spin_lock(sr_lock);
            const long s = tree_scanned.read() + nr_scanned;  // scanned = vmpr->tree_scanned += scanned;
            tree_scanned.write(s);                            // (vmpr->tree_reclaimed += 0)
            spin_unlock(sr_lock);
            if (s > tree_scanned_max.value()) tree_scanned_max += s - tree_scanned_max.value();
            if (s < kWin) return;
            if (cfg.code == Code::V1 && atomic_read(num_events_v1) == 0) return;  // v1: "|| atomic_read() == 0"
            if (schedule_work(work)) ++works_queued;
        } else {
            spin_lock(sr_lock);
            const long s = scanned.read() + nr_scanned;  // scanned = vmpr->scanned += scanned;
            scanned.write(s);
            if (s < kWin) {
                spin_unlock(sr_lock);
                return;
            }
            scanned.write(0);  // vmpr->scanned = vmpr->reclaimed = 0;
            spin_unlock(sr_lock);
            // level = vmpressure_calc_level(s, 0) == VMPRESSURE_CRITICAL > VMPRESSURE_LOW
            socket_pressure.write(1);  // memcg->socket_pressure = jiffies + HZ;
        }
    }

    // mm/vmpressure.c vmpressure_work_fn() and vmpressure_event() for this memcg (no ancestors)
    void vmpressure_work_fn() {
        spin_lock(sr_lock);
        const long s = tree_scanned.read();
        if (s == 0) {  // "work was rescheduled again before the old work context cleared the counters"
            spin_unlock(sr_lock);
            ++works_no_listener;
            return;
        }
        tree_scanned.write(0);  // vmpr->tree_scanned = 0; (vmpr->tree_reclaimed = 0;)
        spin_unlock(sr_lock);
        mutex_lock(events_lock);  // vmpressure_event(): list_for_each_entry(ev, &vmpr->events, node)
        const int n = events.read();
        if (n > 0)
            signals.write(signals.read() + n);  // eventfd_signal(ev->efd, 1) for each
        else
            ++works_no_listener;
        mutex_unlock(events_lock);
    }

    // REG: vmpressure_register_event() (and, in HbReclaim, the harness's release of `registered`).
    void reg() {
        if (cfg.scenario == Scenario::NoListener) return;
        mutex_lock(events_lock);
        events.write(events.read() + 1);  // list_add(&ev->node, &vmpr->events);
        mutex_unlock(events_lock);
        switch (cfg.code) {
        case Code::V3:
        case Code::CheckAtEntry: static_branch_inc(num_events); break;
        case Code::V1: atomic_add(1, num_events_v1); break;
        case Code::PlainCounter: num_events_plain.write(num_events_plain.read() + 1); break;
        case Code::Baseline: break;
        }
        if (cfg.scenario == Scenario::HbReclaim) smp_store_release(registered, 1);
    }
    // RCL: shrink_node() -> shrink_node_memcgs(): vmpressure(memcg, false, ...) per memcg, then
    // vmpressure(target, true, ...). Each scenario runs the one call its property is about.
    void rcl() {
        switch (cfg.scenario) {
        case Scenario::NoListener: vmpressure(true, kWin); break;
        case Scenario::Socket: vmpressure(false, kWin); break;
        case Scenario::Concurrent: vmpressure(true, kWin); break;
        case Scenario::HbReclaim:
            // L1 is about a reclaim that starts after the registration returned: one that does not
            // see it is not the property's concern, so it does not run (this keeps the search small).
            saw_registered = smp_load_acquire(registered);
            if (saw_registered == 1) vmpressure(true, kWin);
            break;
        }
    }
    // KW: the system_wq kworker of vmpr->work: one look at its queue where a work can race with the
    // properties' accesses; otherwise none (every queued execution then runs at quiescence).
    void kw() {
        const bool looks = cfg.scenario == Scenario::NoListener || cfg.scenario == Scenario::HbReclaim;
        run_worker(work, looks ? 1 : 0);
    }

    bool bad_outcome() const {
        switch (cfg.property) {
        case Property::StaleScans: return tree_scanned.final() != 0;
        case Property::SocketPressureLost: return socket_pressure.final() == 0;
        case Property::MissedNotification: return saw_registered == 1 && signals.final() == 0;
        }
        return false;
    }
    static constexpr std::array<Thread<Vmpressure>, 3> threads{
        {{"REG", &Vmpressure::reg}, {"RCL", &Vmpressure::rcl}, {"KW", &Vmpressure::kw}}};
};

}  // namespace

ModelDef vmpressure() {
    using C = Vmpressure::Config;
    using K = Vmpressure::Code;
    using S = Vmpressure::Scenario;
    using P = Vmpressure::Property;
    return define<Vmpressure>(
        "vmpressure", "seed",
        "seed 000: static key num_events gates vmpressure(tree=true) || register_event || vmpressure work", {
        {"baseline", C{K::Baseline, S::NoListener, P::StaleScans},
         expect::never(
             "No key: the tree call writes tree_scanned under sr_lock and calls schedule_work(). RCL is the only "
             "claimer and PENDING starts 0, so the claim (an RMW, reading the mo-latest value) reads 0 and queues "
             "an execution; the worker's acquire read of the queue, during the run or at quiescence, reads RCL's "
             "release increment (sw), so RCL's write of tree_scanned is hb-before the work's sr_lock section, "
             "which by coherence reads it and zeroes tree_scanned. Metric: every execution queues one work that "
             "signals nobody. LKMM: the claim reads 0 by value (PENDING's other writes, the initial one and the "
             "execution's clear, store 0), and RCL's plain write of tree_scanned ->po-rel its release increment "
             "of the queue ->rfe the work's acquire read ->acq-po the work's plain read makes the write wr-vis "
             "to that read, so plain-coherence forbids it reading the initial 0; the work's zeroing is then "
             "co-after RCL's write (coherence), and no later write exists."),
         "v5.14 vmpressure(), no static key; no listener; one tree call crossing the window (headline, before)"},
        {"v3", C{K::V3, S::NoListener, P::StaleScans},
         expect::never("No registration: the only write to the key count is its initial value 0, so "
                       "static_branch_unlikely() reads 0 (rf from init) and the tree call returns before touching "
                       "tree_scanned; no work is queued. Metric: 0 works queued. The same under LKMM, by program "
                       "logic in every execution: REG does not register, so the key count's only write is the "
                       "initial 0, the one write static_branch_unlikely() can read."),
         "the seed: static_branch check at the top of the tree branch; no listener (headline, after)"},
        {"v1_check_after_accumulation", C{K::V1, S::NoListener, P::StaleScans},
         expect::always("v1 reads num_events after the accumulation: the tree call adds a window to tree_scanned "
                        "under sr_lock, then atomic_read(num_events) reads the initial 0 (the only write) and "
                        "returns. No work is ever queued, so nothing resets tree_scanned: it ends at one window in "
                        "every execution (I2 violated: a stale burst awaits the first listener). The same under "
                        "LKMM, by program logic: num_events has no write but the initial 0, tree_scanned none "
                        "but the initial 0 and RCL's accumulation, whose read (po-before its write) coherence "
                        "(po-loc | com acyclic) confines to the initial 0; RCL's write of one window is co-last."),
         "mutant M2: v1 placement (atomic_t read after the accumulation under sr_lock); no listener"},
        {"v3_socket_pressure", C{K::V3, S::Socket, P::SocketPressureLost},
         expect::never("The seed's check sits inside the tree branch, so the tree=false call never reads the key. "
                       "RCL crosses its window and writes socket_pressure, sb-before its end; it is the only write "
                       "besides the initial one, so the final value is 1 whatever REG does (S1 holds). The same "
                       "under LKMM, a single-thread effect in every execution: RCL's read of scanned can only read "
                       "the initial 0 (RCL's own writes are po-later: coherence), so it crosses the window; "
                       "the initial write is co-first, so RCL's write of socket_pressure is co-last."),
         "the seed, registration concurrent with a tree=false call (S1)"},
        {"check_at_entry", C{K::CheckAtEntry, S::Socket, P::SocketPressureLost},
         expect::sometimes("With the check at entry the tree=false call returns when its relaxed read of the key "
                           "count reads 0. Nothing orders REG's static_branch_inc() before that read in hb, so it "
                           "may read the initial 0 (e.g. RCL runs before REG): socket_pressure is never written. It "
                           "may also read the increment (rf), and then socket_pressure is set: Sometimes, not "
                           "Always (with no registration at all it would be Always). LKMM agrees: a reclaim that "
                           "runs before the registration sees the unpatched branch."),
         "mutant M1: the check at vmpressure() entry (Michal Hocko's suggestion); S1 violated"},
        {"baseline_register_hb_reclaim", C{K::Baseline, S::HbReclaim, P::MissedNotification},
         expect::never("Where RCL's acquire read of `registered` reads REG's release store (sw), REG's list_add "
                       "(the plain write of events under events_lock) is hb-before RCL's tree call. No key: the "
                       "call writes tree_scanned and its claim reads PENDING 0 (RCL is the only claimer) and "
                       "queues; the execution's acquire read of the queue reads the release increment (sw), so "
                       "list_add and the tree_scanned write are hb-before the work's reads, which by coherence "
                       "read 1 registered event and one window: the work signals. LKMM: the claim reads 0 by "
                       "value (as in baseline); list_add ->po-rel REG's smp_store_release ->rfe RCL's acquire read "
                       "->po-rel RCL's release increment of the queue (rfe ; po-rel: an A-cumulative cumul-fence), "
                       "RCL's tree_scanned write ->po-rel the same increment, and the increment ->rfe the work's "
                       "acquire read ->acq-po its plain reads: both plain writes are wr-vis to those reads, and "
                       "plain-coherence forbids them reading the initial 0s."),
         "v5.14, registration happens-before reclaim: L1 holds before the patch"},
        {"v3_register_hb_reclaim", C{K::V3, S::HbReclaim, P::MissedNotification},
         expect::never("As baseline_register_hb_reclaim, plus the key: static_branch_inc()'s add ->sb "
                       "smp_store_release(registered) ->sw RCL's acquire read ->sb static_branch_unlikely(), so the "
                       "add is hb-before the key read and is the mo-last write to the key: coherence makes the read "
                       "return 1, the tree branch goes on, and the work (hb-after list_add through the "
                       "release/acquire of the queue) signals. L1: a registration that happens-before reclaim is "
                       "always notified. LKMM: were the key read K to read the initial 0, K ->fre the add ->mb "
                       "(static_branch_inc()'s fully ordered add) smp_store_release ->rfe RCL's acquire read "
                       "->acq-po K would be a pb cycle (the MP shape); the work then signals as in "
                       "baseline_register_hb_reclaim (wr-vis through the release chain, plain-coherence)."),
         "the seed, registration happens-before reclaim (L1)"},
        {"plain_counter", C{K::PlainCounter, S::Concurrent, P::StaleScans},
         expect::failure(EngineFailure::DataRace,
                         "num_events as a plain int: REG's num_events++ and RCL's plain read at the top of the tree "
                         "branch share no lock and no other synchronisation (RCL takes sr_lock, REG events_lock, "
                         "and neither reads what the other writes before the read): two plain accesses to one "
                         "location, one a write, unordered by hb, a data race in every interleaving (LKMM: a plain "
                         "race too; with two registrants the ++ could also lose an increment)."),
         "mutant M3: plain int num_events++ and a plain read where v3 reads the key"},
    });
}

}  // namespace oc::models
