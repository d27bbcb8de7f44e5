// SPDX-License-Identifier: MIT
// The bare-Relacy twins of the seed models (models/seeds/*.cpp), on the primitives of
// bare_kernel.hpp (see bare_catalogue.hpp). Included by bare_catalogue.hpp.
#pragma once

#include "bench/bare_kernel.hpp"

namespace bare {

// ---- seed models (models/seeds/) --------------------------------------------------------------

/// shrinker_bit (ShrinkerBit): ADD || RCL, K passes of shrink_slab_memcg().
struct ShrinkerBit : rl::test_suite<ShrinkerBit, 2> {
    enum class OnEmpty { Nothing, ClearRecheck, ClearOnly };
    struct Config {
        OnEmpty on_empty = OnEmpty::ClearRecheck;
        rl::memory_order before = sc;  ///< memcg_set_shrinker_bit()'s fence before set_bit; rlx: none
        rl::memory_order after = sc;   ///< the fence after clear_bit; rlx: none
        bool locked_count = false;
        bool add = true;
        unsigned passes = 4;
    };
    static Config cfg;  // defined below the twins
    A nlru_lock, nr_items, map;
    void before() {
        nlru_lock.store(0, rlx, $);
        nr_items.store(0, rlx, $);
        map.store(bit_mask(0), rlx, $);
    }
    void set_shrinker_bit() {
        if (cfg.before != rlx) fence(cfg.before);
        map.fetch_or(bit_mask(0), rlx, $);
    }
    long count_objects() {
        if (!cfg.locked_count) return read_once(nr_items);
        spin_lock(nlru_lock);
        const long count = read_once(nr_items);
        unlock(nlru_lock);
        return count;  // >= 0: ADD writes only 1
    }
    void add() {
        if (!cfg.add) return;
        if (cfg.locked_count) spin_lock(nlru_lock);
        write_once(nr_items, 1);
        set_shrinker_bit();
        if (cfg.locked_count) unlock(nlru_lock);
    }
    void reclaim() {
        for (unsigned pass = 0; pass < cfg.passes; ++pass) {
            if ((read_once(map) & bit_mask(0)) == 0) continue;
            if (count_objects() != 0) continue;
            if (cfg.on_empty == OnEmpty::Nothing) continue;
            map.fetch_and(~bit_mask(0), rlx, $);
            if (cfg.on_empty == OnEmpty::ClearOnly) continue;
            if (cfg.after != rlx) fence(cfg.after);
            if (count_objects() != 0) set_shrinker_bit();
        }
    }
    void thread(unsigned i) { i == 0 ? add() : reclaim(); }
    void after() { record({nr_items.load(rlx, $), map.load(rlx, $)}); }
};

/// shrinker_bit (ShrinkerReparent): OFF (memcg_offline_kmem + drain) || RCL (one pass).
struct ShrinkerReparent : rl::test_suite<ShrinkerReparent, 2> {
    struct Config {
        bool fixed = true;  ///< 8199be001a47's drain rule (else v4.19's)
    };
    static Config cfg;  // defined below the twins
    static constexpr long child_objects = 2;
    A nr_items, map;
    void before() {
        nr_items.store(0, rlx, $);
        map.store(bit_mask(0), rlx, $);
    }
    void set_shrinker_bit() {
        smp_mb();  // smp_mb__before_atomic(); set_bit()
        map.fetch_or(bit_mask(0), rlx, $);
    }
    void offline() {
        write_once(nr_items, read_once(nr_items) - 1);
        const long dst = read_once(nr_items);
        if (!cfg.fixed) {
            const bool set = dst == 0;
            write_once(nr_items, dst + child_objects);
            if (set) set_shrinker_bit();
        } else {
            write_once(nr_items, dst + child_objects);
            set_shrinker_bit();
        }
    }
    void reclaim() {
        if ((read_once(map) & bit_mask(0)) == 0) return;
        if (read_once(nr_items) != 0) return;
        map.fetch_and(~bit_mask(0), rlx, $);
        smp_mb();  // smp_mb__after_atomic()
        if (read_once(nr_items) != 0) set_shrinker_bit();
    }
    void thread(unsigned i) { i == 0 ? offline() : reclaim(); }
    void after() { record({nr_items.load(rlx, $), map.load(rlx, $)}); }
};

/// memcg_flush (MemcgFlush): CPU0 makes 3 stat updates || CPU1 reads through a flush.
struct MemcgFlush : rl::test_suite<MemcgFlush, 2> {
    enum class Check { None, ReadSkip, MbRead, Inverted };
    struct Config {
        Check check = Check::ReadSkip;
    };
    static Config cfg;  // defined below the twins
    static constexpr long n_cpus = 2, batch = 2, update_pages = 6;
    A thr, state0, global;
    long r_flush = 0, r_stat = 0;
    void before() {
        thr.store(0, rlx, $);
        state0.store(0, rlx, $);
        global.store(0, rlx, $);
    }
    void cpu0() {
        long state = 0;
        for (int i = 0; i < 3; ++i) {
            state += update_pages;
            write_once(state0, state);
            // memcg_rstat_updated(): every update crosses the batch (6 > 2) and adds 3 units
            bool add = true;
            switch (cfg.check) {
            case Check::None: break;
            case Check::ReadSkip: add = read_once(thr) <= n_cpus; break;
            case Check::MbRead:
                smp_mb();
                add = read_once(thr) <= n_cpus;
                break;
            case Check::Inverted: add = read_once(thr) > n_cpus; break;
            }
            if (add) thr.fetch_add(update_pages / batch, rlx, $);  // atomic_add: a void RMW
        }
    }
    void cpu1() {
        r_flush = read_once(thr) > n_cpus;
        if (r_flush) {
            write_once(global, read_once(state0));
            write_once(thr, 0);
        }
        r_stat = read_once(global);
    }
    void thread(unsigned i) { i == 0 ? cpu0() : cpu1(); }
    void after() {
        const long t = thr.load(rlx, $), s = state0.load(rlx, $), g = global.load(rlx, $);
        record({r_flush, r_stat, t > n_cpus, s - g});
    }
};

/// memcg_flush (MemcgFlushOngoing): FLUSH (the periodic flush) || CPU1 (update, then a flush).
struct MemcgFlushOngoing : rl::test_suite<MemcgFlushOngoing, 2> {
    enum class Coord { Trylock, Ongoing, XchgOnly, NoSkip };
    struct Config {
        Coord coord = Coord::Ongoing;
    };
    static Config cfg;  // defined below the twins
    static constexpr long n_cpus = 2, batch = 2, update_pages = 6;
    A thr, ongoing, stats_flush_lock, cgroup_rstat_lock, state1, global;
    long r_flush = 0, r_stat = 0;
    static bool claimed_at_start() { return cfg.coord == Coord::Ongoing || cfg.coord == Coord::XchgOnly; }
    void before() {
        thr.store(n_cpus + 1, rlx, $);
        ongoing.store(claimed_at_start() ? 1 : 0, rlx, $);
        stats_flush_lock.store(0, rlx, $);
        cgroup_rstat_lock.store(0, rlx, $);
        state1.store(0, rlx, $);
        global.store(0, rlx, $);
    }
    void rstat_flush() {
        if (cfg.coord == Coord::NoSkip) spin_lock(cgroup_rstat_lock);
        write_once(global, read_once(state1));
        if (cfg.coord == Coord::NoSkip) {
            write_once(thr, 0);
            unlock(cgroup_rstat_lock);
        }
    }
    bool claim() {
        switch (cfg.coord) {
        case Coord::Trylock: return spin_trylock(stats_flush_lock);
        case Coord::Ongoing:
            if (read_once(ongoing) != 0) return false;
            return full_xchg(ongoing, 1) == 0;
        case Coord::XchgOnly: return full_xchg(ongoing, 1) == 0;
        case Coord::NoSkip: return true;
        }
        return true;
    }
    void flush_and_release() {
        rstat_flush();
        switch (cfg.coord) {
        case Coord::Trylock:
            write_once(thr, 0);
            unlock(stats_flush_lock);
            break;
        case Coord::Ongoing:
        case Coord::XchgOnly:
            write_once(thr, 0);
            write_once(ongoing, 0);
            break;
        case Coord::NoSkip: break;
        }
    }
    void do_flush_stats() {
        if (claim()) flush_and_release();
    }
    void periodic() {
        if (claimed_at_start())
            flush_and_release();
        else
            do_flush_stats();
    }
    void cpu1() {
        write_once(state1, update_pages);
        if (read_once(thr) <= n_cpus) thr.fetch_add(update_pages / batch, rlx, $);
        r_flush = read_once(thr) > n_cpus;
        if (r_flush) do_flush_stats();
        r_stat = read_once(global);
    }
    void thread(unsigned i) { i == 0 ? periodic() : cpu1(); }
    void after() { record({r_flush, r_stat}); }
};

/// vmpressure: REG (vmpressure_register_event) || RCL (one vmpressure() call) || KW (the work's
/// kworker); queued work still pending runs in after().
struct Vmpressure : rl::test_suite<Vmpressure, 3> {
    enum class Code { Baseline, V3, CheckAtEntry, V1, PlainCounter };
    enum class Scenario { NoListener, Socket, Concurrent, HbReclaim };
    struct Config {
        Code code = Code::V3;
        Scenario scenario = Scenario::NoListener;
    };
    static Config cfg;  // defined below the twins
    static constexpr long win = 512;
    // static_key num_events = {enabled, jump_label_mutex}; the mutexes' and locks' owner words
    A key_enabled, jump_label_mutex, num_events_v1, sr_lock, events_lock, registered;
    V num_events_plain{0}, scanned{0}, tree_scanned{0}, events{0}, signals{0}, socket_pressure{0};
    Work work;
    long saw_registered = 0;

    void before() {
        key_enabled.store(0, rlx, $);
        jump_label_mutex.store(0, rlx, $);
        num_events_v1.store(0, rlx, $);
        sr_lock.store(0, rlx, $);
        events_lock.store(0, rlx, $);
        registered.store(0, rlx, $);
        work.init();
    }
    bool key_off() { return !(read_once(key_enabled) > 0); }
    void vmpressure(bool tree) {
        if (cfg.code == Code::CheckAtEntry && key_off()) return;
        if (tree) {
            if (cfg.code == Code::V3 && key_off()) return;
            if (cfg.code == Code::PlainCounter && num_events_plain($).load() == 0) return;
            spin_lock(sr_lock);
            const long s = tree_scanned($).load() + win;
            tree_scanned($).store(s);
            unlock(sr_lock);
            if (s < win) return;
            if (cfg.code == Code::V1 && read_once(num_events_v1) == 0) return;
            work.schedule();
        } else {
            spin_lock(sr_lock);
            const long s = scanned($).load() + win;
            scanned($).store(s);
            if (s < win) {
                unlock(sr_lock);
                return;
            }
            scanned($).store(0);
            unlock(sr_lock);
            socket_pressure($).store(1);
        }
    }
    void work_fn() {
        spin_lock(sr_lock);
        const long s = tree_scanned($).load();
        if (s == 0) {
            unlock(sr_lock);
            return;
        }
        tree_scanned($).store(0);
        unlock(sr_lock);
        mutex_lock(events_lock);
        const long n = events($).load();
        if (n > 0) signals($).store(signals($).load() + n);
        unlock(events_lock);
    }
    void reg() {
        if (cfg.scenario == Scenario::NoListener) return;
        mutex_lock(events_lock);
        events($).store(events($).load() + 1);
        unlock(events_lock);
        switch (cfg.code) {
        case Code::V3:
        case Code::CheckAtEntry: static_branch_inc(key_enabled, jump_label_mutex); break;
        case Code::V1: num_events_v1.fetch_add(1, rlx, $); break;  // atomic_add: a void RMW
        case Code::PlainCounter: num_events_plain($).store(num_events_plain($).load() + 1); break;
        case Code::Baseline: break;
        }
        if (cfg.scenario == Scenario::HbReclaim) registered.store(1, rel, $);
    }
    void rcl() {
        switch (cfg.scenario) {
        case Scenario::NoListener:
        case Scenario::Concurrent: vmpressure(true); break;
        case Scenario::Socket: vmpressure(false); break;
        case Scenario::HbReclaim:
            saw_registered = registered.load(acq, $);
            if (saw_registered == 1) vmpressure(true);
            break;
        }
    }
    void kw() {
        const bool looks = cfg.scenario == Scenario::NoListener || cfg.scenario == Scenario::HbReclaim;
        work.run_worker(looks ? 1 : 0, [this] { work_fn(); });
    }
    void thread(unsigned i) { i == 0 ? reg() : i == 1 ? rcl() : kw(); }
    void after() {
        work.drain([this] { work_fn(); });
        record({tree_scanned($).load(), signals($).load(), socket_pressure($).load(), saw_registered});
    }
};

/// vmalloc_purge: F (free_vmap_area_noflush of area 1) || KW (the running purge, holding
/// vmap_purge_lock); v5.18's re-check loop and queued purges go on in after().
struct VmallocPurge : rl::test_suite<VmallocPurge, 2> {
    enum class Code { Baseline, Seed, V5_18, V2Guard, InsertBeforeAdd };
    struct Config {
        Code code = Code::Baseline;
    };
    static Config cfg;  // defined below the twins
    static constexpr long area_pages = 2, lazy_max_pages = 1;
    A vmap_lazy_nr, vmap_purge_list, purge_vmap_area_lock, vmap_purge_lock, drain_in_progress;
    V purge_vmap_area_list{bit_mask(0)};
    Work purge_work;
    bool drain_goes_on = false;

    void before() {
        vmap_lazy_nr.store(area_pages, rlx, $);
        vmap_purge_list.store(bit_mask(0), rlx, $);
        purge_vmap_area_lock.store(0, rlx, $);
        vmap_purge_lock.store(2, rlx, $);  // held by KW (thread 1): owner = 1 + 1
        drain_in_progress.store(1, rlx, $);
        purge_work.init();
    }
    static bool lock_observed() { return cfg.code == Code::Seed; }
    static bool v5_18_list() { return cfg.code == Code::V5_18 || cfg.code == Code::V2Guard; }
    void purge_unlock() {
        if (lock_observed()) unlock(vmap_purge_lock);
    }
    void queue_purge() { purge_work.schedule(); }

    void free_area(unsigned node) {
        if (cfg.code == Code::InsertBeforeAdd) llist_add(node, vmap_purge_list);
        const long nr_lazy = full_fetch_add(vmap_lazy_nr, area_pages) + area_pages;
        RL_ASSERT(nr_lazy - area_pages >= 0);  // S2
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);
            purge_vmap_area_list($).store(purge_vmap_area_list($).load() | bit_mask(node));
            unlock(purge_vmap_area_lock);
        } else if (cfg.code != Code::InsertBeforeAdd) {
            llist_add(node, vmap_purge_list);
        }
        if (nr_lazy <= lazy_max_pages) return;
        switch (cfg.code) {
        case Code::Baseline:
        case Code::InsertBeforeAdd:
        case Code::V5_18: queue_purge(); break;
        case Code::Seed:
            if (read_once(vmap_purge_lock) == 0) queue_purge();  // !mutex_is_locked()
            break;
        case Code::V2Guard:
            if (full_xchg(drain_in_progress, 1) == 0) queue_purge();
            break;
        }
    }
    void purge_locked() {
        long taken = 0;
        if (v5_18_list()) {
            spin_lock(purge_vmap_area_lock);
            taken = purge_vmap_area_list($).load();
            purge_vmap_area_list($).store(0);
            unlock(purge_vmap_area_lock);
        } else {
            taken = full_xchg(vmap_purge_list, 0);  // llist_del_all
        }
        for (unsigned node = 0; node < 2; ++node)
            if ((taken & bit_mask(node)) != 0) vmap_lazy_nr.fetch_sub(area_pages, rlx, $);  // atomic_sub
    }
    void try_purge() {
        if (!lock_observed() || mutex_trylock(vmap_purge_lock)) {
            purge_locked();
            purge_unlock();
        }
    }
    // v5.18's drain_vmap_area_work(); vmap_purge_lock is not observed in its variants (no events)
    void drain_work() {
        purge_locked();
        drain_recheck(false);
    }
    void drain_recheck(bool in_kw_run) {
        for (;;) {
            const long nr_lazy = read_once(vmap_lazy_nr);
            RL_ASSERT(nr_lazy >= 0);  // S2
            if (nr_lazy <= lazy_max_pages) break;
            if (in_kw_run) {
                drain_goes_on = true;
                return;
            }
            purge_locked();
        }
        if (cfg.code == Code::V2Guard) write_once(drain_in_progress, 0);
    }
    void work_fn() {
        if (v5_18_list())
            drain_work();
        else
            try_purge();
    }
    void kw() {
        purge_locked();
        purge_unlock();
        if (v5_18_list()) drain_recheck(true);
    }
    void thread(unsigned i) { i == 0 ? free_area(1) : kw(); }
    void after() {
        if (drain_goes_on) drain_work();  // the AtQuiescence continuation, declared before the work
        purge_work.drain([this] { work_fn(); });
        record({vmap_lazy_nr.load(rlx, $)});
    }
};

/// vmalloc_drain (VmallocDrain): F (insert area 1 under vn->lazy.lock; schedule_work) || KW (the
/// drain work's kworker, running the execution queued before the start); executions F queues
/// run in after().
struct VmallocDrain : rl::test_suite<VmallocDrain, 2> {
    struct Config {
        bool lockless_precheck = true;      ///< v6.9: RB_EMPTY_ROOT() before taking the lock
        bool unordered_on_failure = false;  ///< M4
        bool no_mb_after_clear = false;     ///< M5
    };
    static Config cfg;  // defined below the twins
    A lazy_lock, lazy_root;
    Work drain_work;

    void before() {
        lazy_lock.store(0, rlx, $);
        lazy_root.store(0, rlx, $);
        drain_work.init({.queued_at_start = true,
                         .unordered_on_failure = cfg.unordered_on_failure,
                         .no_mb_after_clear = cfg.no_mb_after_clear});
    }
    void f() {
        spin_lock(lazy_lock);
        write_once(lazy_root, read_once(lazy_root) | bit_mask(1));
        unlock(lazy_lock);
        drain_work.schedule();
    }
    void work_fn() {
        if (cfg.lockless_precheck && read_once(lazy_root) == 0) return;  // RB_EMPTY_ROOT()
        spin_lock(lazy_lock);
        write_once(lazy_root, 0);
        unlock(lazy_lock);
    }
    void thread(unsigned i) { i == 0 ? f() : drain_work.run_worker(1, [this] { work_fn(); }); }
    void after() {
        drain_work.drain([this] { work_fn(); });
        record({lazy_root.load(rlx, $)});
    }
};

}  // namespace bare
