// SPDX-License-Identifier: MIT
// The bare-Relacy catalogue twins' kernel primitives: each of ordercheck's kernel primitives as
// the Relacy operations ordercheck issues for it (see bare_catalogue.hpp). Included by
// bare_catalogue.hpp, after relacy.hpp and bare_common.hpp.
#pragma once

namespace bare {

// ---- ordercheck's kernel primitives, as the Relacy operations it issues for them -------------

namespace kernel {

using A = rl::atomic<long>;
using V = rl::var<long>;
constexpr rl::memory_order rlx = rl::mo_relaxed;
constexpr rl::memory_order acq = rl::mo_acquire;
constexpr rl::memory_order rel = rl::mo_release;
constexpr rl::memory_order acq_rel = rl::mo_acq_rel;
constexpr rl::memory_order sc = rl::mo_seq_cst;

inline long bit_mask(unsigned nr) { return 1L << nr; }

/// fence(order): rl::atomic_thread_fence. smp_mb(), smp_mb__after_spinlock() and the F_sc that
/// smp_mb__before_atomic()/smp_mb__after_atomic() become next to a void RMW are sc; smp_rmb()
/// is acq, smp_wmb() rel.
inline void fence(rl::memory_order mo) { rl::atomic_thread_fence(mo, $); }
inline void smp_mb() { fence(sc); }

/// READ_ONCE, atomic_read, test_bit, static_branch_unlikely, mutex_is_locked: a relaxed load.
inline long read_once(const A& x) { return x.load(rlx, $); }
/// WRITE_ONCE, atomic_set: a relaxed store.
inline void write_once(A& x, long v) { x.store(v, rlx, $); }

/// A fully ordered RMW (atomic_add_return, xchg, test_and_set_bit, llist_del_all...):
/// F_sc; RMW(rlx); F_sc. Returns the old value.
inline long full_fetch_add(A& x, long v) {
    smp_mb();
    const long old = x.fetch_add(v, rlx, $);
    smp_mb();
    return old;
}
inline long full_xchg(A& x, long v) {
    smp_mb();
    const long old = x.exchange(v, rlx, $);
    smp_mb();
    return old;
}

/// spin_lock: exchange(1, acquire) until it returns 0, spin_yield() between attempts.
inline void spin_lock(A& l) {
    while (l.exchange(1, acq, $) != 0) rl::yield(1, $);
}
/// spin_trylock: one strong CAS 0 -> 1, acquire on success, relaxed on failure.
inline bool spin_trylock(A& l) {
    long expected = 0;
    return l.compare_exchange_strong(expected, 1, acq, $, rlx, $);
}
/// spin_unlock, mutex_unlock: a release store of 0.
inline void unlock(A& l) { l.store(0, rel, $); }

/// mutex_lock: strong CAS 0 -> (running thread + 1), acquire/relaxed, spin_yield() between.
inline void mutex_lock(A& owner) {
    const long me = static_cast<long>(rl::thread_index()) + 1;
    for (;;) {
        long expected = 0;
        if (owner.compare_exchange_strong(expected, me, acq, $, rlx, $)) return;
        rl::yield(1, $);
    }
}
inline bool mutex_trylock(A& owner) {
    long expected = 0;
    return owner.compare_exchange_strong(expected, static_cast<long>(rl::thread_index()) + 1, acq, $, rlx, $);
}

/// llist_add(node, head): each attempt READ_ONCE(first), then a fully ordered cmpxchg: F_sc;
/// strong CAS (relaxed/relaxed); F_sc on success only; spin_yield() after a failed attempt.
inline bool llist_add(unsigned node, A& first_word) {
    for (;;) {
        const long first = first_word.load(rlx, $);
        long expected = first;
        smp_mb();
        if (first_word.compare_exchange_strong(expected, first | bit_mask(node), rlx, $, rlx, $)) {
            smp_mb();
            return first == 0;
        }
        rl::yield(1, $);
    }
}

/// static_branch_inc(key): mutex_lock(jump_label_mutex); F_sc; fetch_add(1, rlx); F_sc; unlock.
inline void static_branch_inc(A& enabled, A& jump_label_mutex) {
    mutex_lock(jump_label_mutex);
    full_fetch_add(enabled, 1);
    unlock(jump_label_mutex);
}

/// kernel::WorkOptions: how a work item starts, and the two historical workqueue bugs.
struct WorkOptions {
    bool queued_at_start = false;       ///< PENDING 1 and one execution queued before the start
    bool unordered_on_failure = false;  ///< M4: schedule_work() returns on a relaxed read of PENDING 1
    bool no_mb_after_clear = false;     ///< M5: no F_sc after the worker clears PENDING
};

/// kernel::Work: the PENDING word and the count of queued executions; `executed` is
/// worker-local. The function is passed in by the model.
struct Work {
    A pending, queued;
    int executed = 0;
    WorkOptions options;

    void init(WorkOptions o = {}) {
        options = o;
        pending.store(o.queued_at_start ? 1 : 0, rlx, $);
        queued.store(o.queued_at_start ? 1 : 0, rlx, $);
    }
    /// schedule_work(): (M4: a relaxed read of PENDING, returning false on 1;) F_sc;
    /// xchg(PENDING, 1, rlx); F_sc; on 0 -> 1, queued += 1 (release).
    bool schedule() {
        if (options.unordered_on_failure && pending.load(rlx, $) != 0) return false;
        const long was_pending = full_xchg(pending, 1);
        if (was_pending != 0) return false;
        queued.fetch_add(1, rel, $);
        return true;
    }
    /// process_one_work(): F_rel; PENDING = 0 (rlx); F_sc (not under M5); then the function.
    template <class F>
    void execute_one(F fn) {
        ++executed;
        fence(rel);
        pending.store(0, rlx, $);
        if (!options.no_mb_after_clear) smp_mb();
        fn();
    }
    /// The worker thread: `checks` acquire reads of the queue, each running one execution if one
    /// is queued.
    template <class F>
    void run_worker(unsigned checks, F fn) {
        for (unsigned i = 0; i < checks; ++i)
            if (queued.load(acq, $) > executed) execute_one(fn);
    }
    /// At quiescence (in after()): every execution still queued.
    template <class F>
    void drain(F fn) {
        while (queued.load(acq, $) > executed) execute_one(fn);
    }
};

}  // namespace kernel

using namespace kernel;

}  // namespace bare
