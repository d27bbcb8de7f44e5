// SPDX-License-Identifier: MIT
// Linux kernel primitives mapped onto C++11 relaxed accesses plus fences (never onto seq_cst
// accesses: Relacy does not relate seq_cst fences to seq_cst accesses). Each mapping, and where
// it is stronger or weaker than the kernel memory model (LKMM), is in docs/primitives.md.
#pragma once

#include <functional>
#include <new>
#include <source_location>

#include "checker/model/primitives.hpp"

namespace oc::kernel {

using SrcLoc = std::source_location;
#define OC_HERE SrcLoc where = SrcLoc::current()

using atomic_t = Atomic<int>;
using atomic_long_t = Atomic<long>;
/// A bitmap word for the bitops (bit numbers 0..62).
using bitmap_t = Atomic<long>;

/// Which ordering a kernel RMW carries: the plain name is fully ordered; _relaxed/_acquire/_release.
enum class Ordering : std::uint8_t { Full, Relaxed, Acquire, Release };

namespace detail {
inline MemoryOrder rmw_order(Ordering o) {
    switch (o) {
    case Ordering::Acquire: return acquire;
    case Ordering::Release: return release;
    case Ordering::Full:
    case Ordering::Relaxed: break;
    }
    return relaxed;
}
/// A fully ordered RMW is F_sc; RMW(rlx); F_sc (atomic_t.txt: "like having an smp_mb() before
/// and an smp_mb() after"). A bare seq_cst RMW would be weaker.
template <class T>
T ordered_rmw(Atomic<T>& v, RmwOp op, T operand, Ordering o, const char* name, SrcLoc where) {
    PrimitiveScope scope(name, where);
    if (o == Ordering::Full) fence(seq_cst, where);
    T old{};
    const MemoryOrder mo = rmw_order(o);
    switch (op) {
    case RmwOp::Exchange: old = v.exchange(operand, mo, where); break;
    case RmwOp::Add: old = v.fetch_add(operand, mo, where); break;
    case RmwOp::Sub: old = v.fetch_sub(operand, mo, where); break;
    case RmwOp::And: old = v.fetch_and(operand, mo, where); break;
    case RmwOp::Or: old = v.fetch_or(operand, mo, where); break;
    case RmwOp::Xor: old = v.fetch_xor(operand, mo, where); break;
    }
    if (o == Ordering::Full) fence(seq_cst, where);
    return old;
}
/// A void (non-value-returning) RMW: unordered. A preceding smp_mb__before_atomic() turns into
/// F_sc right before it; smp_mb__after_atomic() right after it becomes F_sc.
template <class T>
void void_rmw(Atomic<T>& v, RmwOp op, T operand, const char* name, SrcLoc where) {
    Runtime& rt = runtime();
    if (rt.adjacency().before_armed) {
        const SrcLoc armed = rt.adjacency().before_where;
        PrimitiveScope scope("smp_mb__before_atomic", armed);
        fence(seq_cst, armed);
    }
    ordered_rmw(v, op, operand, Ordering::Relaxed, name, where);
    rt.adjacency().after_void_rmw = true;
}
template <class T>
bool cmpxchg_impl(Atomic<T>& v, T& expected, T desired, Ordering o, const char* name, SrcLoc where) {
    PrimitiveScope scope(name, where);
    // A conditional RMW is unordered on failure (atomic_t.txt), whatever its ordering: a failed
    // cmpxchg_acquire() is no acquire, so the failure order is relaxed. The leading fence of
    // the fully ordered form is emitted on every attempt (slightly stronger than LKMM on
    // failure under the C++11 mapping; under LKMM it counts only when the RMW succeeds).
    if (o == Ordering::Full) {
        runtime().add_lkmm_tags_to_next(lkmm::IfRmwSucceeds);  // LKMM: a failed cmpxchg is unordered
        fence(seq_cst, where);
    }
    // LKMM: a failed attempt is still in the RMW set (herd7), for smp_mb__{before,after}_atomic()
    runtime().add_lkmm_tags_to_next(lkmm::ConditionalRmw);
    const bool ok = v.compare_exchange(expected, desired, rmw_order(o), relaxed, where);
    if (ok && o == Ordering::Full) fence(seq_cst, where);
    return ok;
}
}  // namespace detail

// ---- marked accesses -------------------------------------------------------------------------

/// READ_ONCE(x): a relaxed load (no dependency ordering in C++11: weaker than LKMM there).
template <class T>
T READ_ONCE(const Atomic<T>& x, OC_HERE) {
    PrimitiveScope s("READ_ONCE", where);
    return x.load(relaxed, where);
}
/// WRITE_ONCE(x, v): a relaxed store.
template <class T, class V>
void WRITE_ONCE(Atomic<T>& x, V v, OC_HERE) {
    PrimitiveScope s("WRITE_ONCE", where);
    x.store(static_cast<T>(v), relaxed, where);
}
template <class T>
T smp_load_acquire(const Atomic<T>& x, OC_HERE) {
    PrimitiveScope s("smp_load_acquire", where);
    return x.load(acquire, where);
}
template <class T, class V>
void smp_store_release(Atomic<T>& x, V v, OC_HERE) {
    PrimitiveScope s("smp_store_release", where);
    x.store(static_cast<T>(v), release, where);
}

// ---- barriers --------------------------------------------------------------------------------

/// smp_mb(): F_sc.
inline void smp_mb(OC_HERE) {
    PrimitiveScope s("smp_mb", where);
    fence(seq_cst, where);
}
/// smp_rmb(): an acquire fence (stronger than LKMM: also orders R->W, and synchronises through
/// reads of void RMWs).
inline void smp_rmb(OC_HERE) {
    PrimitiveScope s("smp_rmb", where);
    fence(acquire, where);
}
/// smp_wmb(): a release fence (stronger than LKMM: also orders R->W and is cumulative via hb).
inline void smp_wmb(OC_HERE) {
    PrimitiveScope s("smp_wmb", where);
    fence(release, where);
}
/// smp_mb__before_atomic(): F_sc placed right before the next operation of this thread if that
/// is a void RMW; nothing otherwise (so misuse shows up as missing ordering).
inline void smp_mb__before_atomic(OC_HERE) {
    if (runtime().lkmm()) {  // LKMM: a before-atomic fence, ordering through any later RMW
        PrimitiveScope s("smp_mb__before_atomic", where);
        fence(seq_cst, where);
        return;
    }
    Runtime::Adjacency& a = runtime().adjacency();
    a.before_armed = true;
    a.before_where = where;
}
/// smp_mb__after_atomic(): F_sc if the previous operation of this thread was a void RMW;
/// nothing otherwise.
inline void smp_mb__after_atomic(OC_HERE) {
    // LKMM: an after-atomic fence, ordering through any earlier RMW.
    if (!runtime().lkmm() && !runtime().adjacency().after_void_rmw) return;
    PrimitiveScope s("smp_mb__after_atomic", where);
    fence(seq_cst, where);
}
/// smp_mb__after_spinlock(): F_sc.
inline void smp_mb__after_spinlock(OC_HERE) {
    PrimitiveScope s("smp_mb__after_spinlock", where);
    fence(seq_cst, where);
}

// ---- atomic_t / atomic_long_t ---------------------------------------------------------------

template <class T>
T atomic_read(const Atomic<T>& v, OC_HERE) {
    PrimitiveScope s("atomic_read", where);
    return v.load(relaxed, where);
}
template <class T>
T atomic_read_acquire(const Atomic<T>& v, OC_HERE) {
    PrimitiveScope s("atomic_read_acquire", where);
    return v.load(acquire, where);
}
template <class T, class V>
void atomic_set(Atomic<T>& v, V i, OC_HERE) {
    PrimitiveScope s("atomic_set", where);
    v.store(static_cast<T>(i), relaxed, where);
}
template <class T, class V>
void atomic_set_release(Atomic<T>& v, V i, OC_HERE) {
    PrimitiveScope s("atomic_set_release", where);
    v.store(static_cast<T>(i), release, where);
}

// Void RMWs: unordered.
template <class T, class V> void atomic_add(V i, Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Add, static_cast<T>(i), "atomic_add", where); }
template <class T, class V> void atomic_sub(V i, Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Sub, static_cast<T>(i), "atomic_sub", where); }
template <class T> void atomic_inc(Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Add, T{1}, "atomic_inc", where); }
template <class T> void atomic_dec(Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Sub, T{1}, "atomic_dec", where); }
template <class T, class V> void atomic_and(V i, Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::And, static_cast<T>(i), "atomic_and", where); }
template <class T, class V> void atomic_or(V i, Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Or, static_cast<T>(i), "atomic_or", where); }
template <class T, class V> void atomic_xor(V i, Atomic<T>& v, OC_HERE) { detail::void_rmw(v, RmwOp::Xor, static_cast<T>(i), "atomic_xor", where); }

// Value-returning RMWs, each in the fully ordered, _relaxed, _acquire and _release forms.
#define OC_RMW_FORMS(name, op, result)                                                                        \
    template <class T, class V> T name(V i, Atomic<T>& v, OC_HERE) {                                          \
        const T old = detail::ordered_rmw(v, op, static_cast<T>(i), Ordering::Full, #name, where);            \
        return result;                                                                                         \
    }                                                                                                          \
    template <class T, class V> T name##_relaxed(V i, Atomic<T>& v, OC_HERE) {                                \
        const T old = detail::ordered_rmw(v, op, static_cast<T>(i), Ordering::Relaxed, #name "_relaxed", where); \
        return result;                                                                                         \
    }                                                                                                          \
    template <class T, class V> T name##_acquire(V i, Atomic<T>& v, OC_HERE) {                                \
        const T old = detail::ordered_rmw(v, op, static_cast<T>(i), Ordering::Acquire, #name "_acquire", where); \
        return result;                                                                                         \
    }                                                                                                          \
    template <class T, class V> T name##_release(V i, Atomic<T>& v, OC_HERE) {                                \
        const T old = detail::ordered_rmw(v, op, static_cast<T>(i), Ordering::Release, #name "_release", where); \
        return result;                                                                                         \
    }
OC_RMW_FORMS(atomic_add_return, RmwOp::Add, static_cast<T>(old + static_cast<T>(i)))
OC_RMW_FORMS(atomic_sub_return, RmwOp::Sub, static_cast<T>(old - static_cast<T>(i)))
OC_RMW_FORMS(atomic_fetch_add, RmwOp::Add, old)
OC_RMW_FORMS(atomic_fetch_sub, RmwOp::Sub, old)
OC_RMW_FORMS(atomic_fetch_and, RmwOp::And, old)
OC_RMW_FORMS(atomic_fetch_or, RmwOp::Or, old)
OC_RMW_FORMS(atomic_fetch_xor, RmwOp::Xor, old)
#undef OC_RMW_FORMS

template <class T> T atomic_inc_return(Atomic<T>& v, OC_HERE) { return atomic_add_return(1, v, where); }
template <class T> T atomic_dec_return(Atomic<T>& v, OC_HERE) { return atomic_sub_return(1, v, where); }
template <class T> T atomic_inc_return_relaxed(Atomic<T>& v, OC_HERE) { return atomic_add_return_relaxed(1, v, where); }
template <class T> T atomic_dec_return_relaxed(Atomic<T>& v, OC_HERE) { return atomic_sub_return_relaxed(1, v, where); }
/// atomic_dec_and_test(): fully ordered; true when the new value is 0.
template <class T> bool atomic_dec_and_test(Atomic<T>& v, OC_HERE) { return atomic_sub_return(1, v, where) == 0; }
template <class T, class V> bool atomic_sub_and_test(V i, Atomic<T>& v, OC_HERE) { return atomic_sub_return(i, v, where) == 0; }
template <class T> bool atomic_inc_and_test(Atomic<T>& v, OC_HERE) { return atomic_add_return(1, v, where) == 0; }
template <class T, class V> bool atomic_add_negative(V i, Atomic<T>& v, OC_HERE) { return atomic_add_return(i, v, where) < 0; }

/// atomic_xchg(v, new) and its ordering forms; xchg(x, new) on any Atomic.
template <class T, class V> T atomic_xchg(Atomic<T>& v, V n, OC_HERE) { return detail::ordered_rmw(v, RmwOp::Exchange, static_cast<T>(n), Ordering::Full, "atomic_xchg", where); }
template <class T, class V> T atomic_xchg_relaxed(Atomic<T>& v, V n, OC_HERE) { return detail::ordered_rmw(v, RmwOp::Exchange, static_cast<T>(n), Ordering::Relaxed, "atomic_xchg_relaxed", where); }
template <class T, class V> T atomic_xchg_acquire(Atomic<T>& v, V n, OC_HERE) { return detail::ordered_rmw(v, RmwOp::Exchange, static_cast<T>(n), Ordering::Acquire, "atomic_xchg_acquire", where); }
template <class T, class V> T atomic_xchg_release(Atomic<T>& v, V n, OC_HERE) { return detail::ordered_rmw(v, RmwOp::Exchange, static_cast<T>(n), Ordering::Release, "atomic_xchg_release", where); }
template <class T, class V> T xchg(Atomic<T>& x, V n, OC_HERE) { return detail::ordered_rmw(x, RmwOp::Exchange, static_cast<T>(n), Ordering::Full, "xchg", where); }
template <class T, class V> T xchg_relaxed(Atomic<T>& x, V n, OC_HERE) { return detail::ordered_rmw(x, RmwOp::Exchange, static_cast<T>(n), Ordering::Relaxed, "xchg_relaxed", where); }

/// atomic_cmpxchg(v, old, new) / cmpxchg(x, old, new): returns the value read; fully ordered on
/// success only. _relaxed/_acquire/_release as named.
#define OC_CMPXCHG_FORM(fname, ord)                                                          \
    template <class T, class O, class N> T fname(Atomic<T>& v, O old, N n, OC_HERE) {        \
        T expected = static_cast<T>(old);                                                    \
        detail::cmpxchg_impl(v, expected, static_cast<T>(n), ord, #fname, where);            \
        return expected;                                                                     \
    }
OC_CMPXCHG_FORM(atomic_cmpxchg, Ordering::Full)
OC_CMPXCHG_FORM(atomic_cmpxchg_relaxed, Ordering::Relaxed)
OC_CMPXCHG_FORM(atomic_cmpxchg_acquire, Ordering::Acquire)
OC_CMPXCHG_FORM(atomic_cmpxchg_release, Ordering::Release)
OC_CMPXCHG_FORM(cmpxchg, Ordering::Full)
OC_CMPXCHG_FORM(cmpxchg_relaxed, Ordering::Relaxed)
OC_CMPXCHG_FORM(cmpxchg_acquire, Ordering::Acquire)
OC_CMPXCHG_FORM(cmpxchg_release, Ordering::Release)
#undef OC_CMPXCHG_FORM

// ---- bitops (include/asm-generic/bitops/atomic.h, Documentation/atomic_bitops.txt) ----------

inline long bit_mask(unsigned nr) { return 1L << nr; }
/// set_bit/clear_bit/change_bit: void RMWs, unordered.
inline void set_bit(unsigned nr, bitmap_t& addr, OC_HERE) { detail::void_rmw(addr, RmwOp::Or, bit_mask(nr), "set_bit", where); }
inline void clear_bit(unsigned nr, bitmap_t& addr, OC_HERE) { detail::void_rmw(addr, RmwOp::And, ~bit_mask(nr), "clear_bit", where); }
inline void change_bit(unsigned nr, bitmap_t& addr, OC_HERE) { detail::void_rmw(addr, RmwOp::Xor, bit_mask(nr), "change_bit", where); }
/// test_bit: a relaxed load.
inline bool test_bit(unsigned nr, const bitmap_t& addr, OC_HERE) {
    PrimitiveScope s("test_bit", where);
    return (addr.load(relaxed, where) & bit_mask(nr)) != 0;
}
inline bool test_bit_acquire(unsigned nr, const bitmap_t& addr, OC_HERE) {
    PrimitiveScope s("test_bit_acquire", where);
    return (addr.load(acquire, where) & bit_mask(nr)) != 0;
}
/// test_and_{set,clear,change}_bit: fully ordered, also when the bit was already in the wanted
/// state (since v6.0, 415d83249709).
inline bool test_and_set_bit(unsigned nr, bitmap_t& addr, OC_HERE) {
    return (detail::ordered_rmw(addr, RmwOp::Or, bit_mask(nr), Ordering::Full, "test_and_set_bit", where) & bit_mask(nr)) != 0;
}
inline bool test_and_clear_bit(unsigned nr, bitmap_t& addr, OC_HERE) {
    return (detail::ordered_rmw(addr, RmwOp::And, ~bit_mask(nr), Ordering::Full, "test_and_clear_bit", where) & bit_mask(nr)) != 0;
}
inline bool test_and_change_bit(unsigned nr, bitmap_t& addr, OC_HERE) {
    return (detail::ordered_rmw(addr, RmwOp::Xor, bit_mask(nr), Ordering::Full, "test_and_change_bit", where) & bit_mask(nr)) != 0;
}
/// The generic test_and_set_bit before v6.0: an unordered early return when the bit is set.
inline bool test_and_set_bit_pre_v6_0(unsigned nr, bitmap_t& addr, OC_HERE) {
    PrimitiveScope s("test_and_set_bit", where);
    if ((addr.load(relaxed, where) & bit_mask(nr)) != 0) return true;
    return (detail::ordered_rmw(addr, RmwOp::Or, bit_mask(nr), Ordering::Full, "test_and_set_bit", where) & bit_mask(nr)) != 0;
}
/// test_and_set_bit_lock: acquire; clear_bit_unlock: release.
inline bool test_and_set_bit_lock(unsigned nr, bitmap_t& addr, OC_HERE) {
    return (detail::ordered_rmw(addr, RmwOp::Or, bit_mask(nr), Ordering::Acquire, "test_and_set_bit_lock", where) & bit_mask(nr)) != 0;
}
inline void clear_bit_unlock(unsigned nr, bitmap_t& addr, OC_HERE) {
    detail::ordered_rmw(addr, RmwOp::And, ~bit_mask(nr), Ordering::Release, "clear_bit_unlock", where);
}

// ---- locks -----------------------------------------------------------------------------------

/// spinlock_t: lock = acquire exchange loop; unlock = release store. Weaker than LKMM, whose
/// locks also order unlock->lock on one CPU across different locks (possible false alarms).
struct spinlock_t {
    explicit spinlock_t(const char* name, OC_HERE) : word(name, 0, where) {}
    Atomic<int> word;
};
inline void spin_lock(spinlock_t& l, OC_HERE) {
    PrimitiveScope s("spin_lock", where);
    // Under an engine that blocks a failed spin iteration (the graph engine), an attempt is a
    // compare-exchange 0 -> 1: a failed attempt is a read and writes nothing, as an await must.
    // A successful attempt is the same event as a successful exchange (U.acq 0->1).
    const bool awaits = runtime().engine().blocks_failed_spins();
    for (;;) {
        spin_iteration();
        if (awaits) {
            int expected = 0;
            if (l.word.compare_exchange(expected, 1, acquire, relaxed, where)) return;
        } else if (l.word.exchange(1, acquire, where) == 0) {
            return;
        }
        spin_yield();
    }
}
inline bool spin_trylock(spinlock_t& l, OC_HERE) {
    PrimitiveScope s("spin_trylock", where);
    int expected = 0;
    return l.word.compare_exchange(expected, 1, acquire, relaxed, where);
}
inline void spin_unlock(spinlock_t& l, OC_HERE) {
    PrimitiveScope s("spin_unlock", where);
    l.word.store(0, release, where);
}
inline bool spin_is_locked(const spinlock_t& l, OC_HERE) {
    PrimitiveScope s("spin_is_locked", where);
    return l.word.load(relaxed, where) != 0;
}

/// struct mutex: the owner word; lock = acquire CAS loop, trylock = one acquire CAS,
/// unlock = release store, mutex_is_locked = relaxed read of the owner (no ordering).
struct mutex {
    explicit mutex(const char* name, OC_HERE) : owner(name, 0, where) {}
    /// A mutex already held when the model starts, by model thread `holder` (a lock taken before
    /// the snapshot the model begins at; the initial write is hb-before every event).
    mutex(const char* name, unsigned holder, SrcLoc where = SrcLoc::current())
        : owner(name, static_cast<int>(holder) + 1, where) {}
    Atomic<int> owner;
};
inline void mutex_lock(mutex& m, OC_HERE) {
    PrimitiveScope s("mutex_lock", where);
    const int me = static_cast<int>(runtime().current_model_thread()) + 1;
    for (;;) {
        spin_iteration();
        int expected = 0;
        if (m.owner.compare_exchange(expected, me, acquire, relaxed, where)) return;
        spin_yield();
    }
}
inline bool mutex_trylock(mutex& m, OC_HERE) {
    PrimitiveScope s("mutex_trylock", where);
    int expected = 0;
    return m.owner.compare_exchange(expected, static_cast<int>(runtime().current_model_thread()) + 1, acquire,
                                    relaxed, where);
}
inline void mutex_unlock(mutex& m, OC_HERE) {
    PrimitiveScope s("mutex_unlock", where);
    m.owner.store(0, release, where);
}
inline bool mutex_is_locked(const mutex& m, OC_HERE) {
    PrimitiveScope s("mutex_is_locked", where);
    return m.owner.load(relaxed, where) != 0;
}

// ---- llist (include/linux/llist.h), nodes as bits of the head word ---------------------------

/// A lock-less list head. The model represents the list as the set of node numbers on it (bit
/// n = node n), which is what the protocols observe (empty or not, who took which nodes).
struct llist_head {
    explicit llist_head(const char* name, long initial_nodes = 0, OC_HERE) : first(name, initial_nodes, where) {}
    Atomic<long> first;
};
/// llist_add(node, head): cmpxchg loop, fully ordered on success; returns true if the list was
/// empty. Each attempt re-reads the head, as llist_add_batch() did before v6.2 turned it into a
/// try_cmpxchg() loop that reuses the value a failed cmpxchg read: the two loops reach the same
/// outcomes (a retry with the value the failed cmpxchg read is the attempt whose READ_ONCE read
/// it), and this one is an await (a failed attempt writes nothing and feeds nothing forward).
inline bool llist_add(unsigned node, llist_head& head, OC_HERE) {
    PrimitiveScope s("llist_add", where);
    for (;;) {
        spin_iteration();
        const long first = head.first.load(relaxed, where);  // READ_ONCE(head->first)
        long expected = first;
        if (detail::cmpxchg_impl(head.first, expected, first | bit_mask(node), Ordering::Full, "llist_add", where))
            return first == 0;
        spin_yield();
    }
}
/// llist_del_all(head): xchg(&head->first, NULL), fully ordered; returns the nodes taken.
inline long llist_del_all(llist_head& head, OC_HERE) {
    return detail::ordered_rmw(head.first, RmwOp::Exchange, 0L, Ordering::Full, "llist_del_all", where);
}
inline bool llist_empty(const llist_head& head, OC_HERE) {
    PrimitiveScope s("llist_empty", where);
    return head.first.load(relaxed, where) == 0;
}

// ---- static keys -----------------------------------------------------------------------------

/// A static key: the enable count. static_branch_inc/dec serialise on jump_label_mutex and
/// update the count fully ordered. Weaker than the kernel: text patching synchronises every CPU
/// before inc returns (like membarrier), which C++11 cannot express.
struct static_key {
    explicit static_key(const char* name, OC_HERE) : enabled(name, 0, where), jump_label_mutex("jump_label_mutex", where) {}
    Atomic<int> enabled;
    mutex jump_label_mutex;
};
inline void static_branch_inc(static_key& key, OC_HERE) {
    PrimitiveScope s("static_branch_inc", where);
    mutex_lock(key.jump_label_mutex, where);
    detail::ordered_rmw(key.enabled, RmwOp::Add, 1, Ordering::Full, "static_branch_inc", where);
    mutex_unlock(key.jump_label_mutex, where);
}
inline void static_branch_dec(static_key& key, OC_HERE) {
    PrimitiveScope s("static_branch_dec", where);
    mutex_lock(key.jump_label_mutex, where);
    const int old = detail::ordered_rmw(key.enabled, RmwOp::Sub, 1, Ordering::Full, "static_branch_dec", where);
    require(old > 0, "static_branch_dec: the key count went negative", where);
    mutex_unlock(key.jump_label_mutex, where);
}
/// static_branch_unlikely/likely(&key): not a memory access in the kernel (a patched jump); a
/// relaxed load of the count here.
inline bool static_branch_unlikely(const static_key& key, OC_HERE) {
    PrimitiveScope s("static_branch_unlikely", where);
    return key.enabled.load(relaxed, where) > 0;
}
inline bool static_branch_likely(const static_key& key, OC_HERE) {
    PrimitiveScope s("static_branch_likely", where);
    return key.enabled.load(relaxed, where) > 0;
}

// ---- workqueue -------------------------------------------------------------------------------

/// How a work item starts, and the two historical workqueue bugs a model can switch on.
struct WorkOptions {
    /// PENDING set and one execution queued before the model starts (the worker thread runs it
    /// when its run_worker() looks at the queue).
    bool queued_at_start = false;
    /// Mutant: schedule_work() on a pre-v6.0 generic test_and_set_bit(), which returned early,
    /// with no barrier, when a relaxed read found the bit set (fixed by 415d83249709).
    bool unordered_on_failure = false;
    /// Mutant: the worker clears PENDING without the smp_mb() that follows it
    /// (the "ghost PENDING" fixed by 346c09f80459).
    bool no_mb_after_clear = false;
};

/// A work item with its PENDING bit. schedule_work() claims PENDING (fully ordered xchg) and, on
/// 0->1, queues one execution. One worker thread per item (run_worker) runs queued executions:
/// each clears PENDING (F_rel; store 0; F_sc) and then runs the function. Executions still
/// queued when every thread has finished run at quiescence, so liveness can be checked at the end.
class Work {
public:
    Work(const char* name, std::function<void()> fn, WorkOptions options = {}, SrcLoc where = SrcLoc::current());
    Work(const Work&) = delete;
    Work& operator=(const Work&) = delete;

    /// schedule_work(): true iff this call claimed PENDING and queued an execution.
    bool schedule(SrcLoc where);
    /// The worker thread's body: `checks` times, run one queued execution if there is one.
    void run_worker(unsigned checks, SrcLoc where);
    /// Executions run so far (by the worker thread or at quiescence).
    int executions() const { return executed_; }
    /// Executions run at quiescence.
    int executions_at_quiescence() const { return executed_at_quiescence_; }
    const char* name() const { return name_; }

private:
    void execute_one(SrcLoc where);
    static void drain(void* self);

    const char* name_;
    std::function<void()> fn_;
    WorkOptions options_;
    Atomic<int> pending_;
    Atomic<int> queued_;        // executions queued so far (the worker pool's queue, as a count)
    int executed_ = 0;          // worker-local
    int executed_at_quiescence_ = 0;
    int worker_thread_ = -1;
    SrcLoc declared_;
};
inline bool schedule_work(Work& w, OC_HERE) { return w.schedule(where); }
/// The body of a work item's worker thread: up to `checks` looks at its queue.
inline void run_worker(Work& w, unsigned checks, OC_HERE) { w.run_worker(checks, where); }

// ---- RCU (userspace RCU's memory-barrier flavour, urcu-mb) ------------------------------------

/// An RCU domain: one reader word per thread, 1 while the thread is inside a read-side critical
/// section (urcu-mb's per-reader counter, with a single grace-period phase: a model's threads run
/// finitely many steps, so no reader can starve the updater). The nesting depth is thread-local
/// bookkeeping, not shared memory. Declare one per model, for all of its threads.
class rcu_domain {
public:
    explicit rcu_domain(unsigned threads, OC_HERE) : threads_(threads < max_threads ? threads : max_threads) {
        static_assert(max_threads == 16, "one reader-word name per thread");
        static constexpr const char* names[max_threads] = {
            "rcu_reader0",  "rcu_reader1",  "rcu_reader2",  "rcu_reader3", "rcu_reader4",  "rcu_reader5",
            "rcu_reader6",  "rcu_reader7",  "rcu_reader8",  "rcu_reader9", "rcu_reader10", "rcu_reader11",
            "rcu_reader12", "rcu_reader13", "rcu_reader14", "rcu_reader15"};
        for (unsigned t = 0; t < threads_; ++t) ::new (static_cast<void*>(readers_[t])) Atomic<int>(names[t], 0, where);
    }
    ~rcu_domain() {
        for (unsigned t = 0; t < threads_; ++t) reader(t).~Atomic();
    }
    rcu_domain(const rcu_domain&) = delete;
    rcu_domain& operator=(const rcu_domain&) = delete;
    unsigned threads() const { return threads_; }
    Atomic<int>& reader(unsigned t) { return *std::launder(reinterpret_cast<Atomic<int>*>(readers_[t])); }
    unsigned& nesting(unsigned t) { return nesting_[t]; }

private:
    alignas(Atomic<int>) unsigned char readers_[max_threads][sizeof(Atomic<int>)];
    unsigned nesting_[max_threads] = {};
    unsigned threads_;
};
/// rcu_read_lock(): outermost only: the thread's reader word := 1 (rlx), then F_sc.
inline void rcu_read_lock(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("rcu_read_lock", where);
    const unsigned me = runtime().current_model_thread();
    require(me < d.threads(), "rcu_read_lock(): the thread is not in the RCU domain", where);
    if (runtime().lkmm()) {  // LKMM: an rcu-lock event; the axioms match the nesting
        fence(seq_cst, where);
        return;
    }
    if (d.nesting(me)++ != 0) return;
    d.reader(me).store(1, relaxed, where);
    fence(seq_cst, where);
}
/// rcu_read_unlock(): outermost only: F_sc, then the thread's reader word := 0 (rlx).
inline void rcu_read_unlock(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("rcu_read_unlock", where);
    const unsigned me = runtime().current_model_thread();
    if (runtime().lkmm()) {  // LKMM: an rcu-unlock event
        require(me < d.threads(), "rcu_read_unlock(): the thread is not in the RCU domain", where);
        fence(seq_cst, where);
        return;
    }
    require(me < d.threads() && d.nesting(me) > 0, "rcu_read_unlock() without rcu_read_lock()", where);
    if (--d.nesting(me) != 0) return;
    fence(seq_cst, where);
    d.reader(me).store(0, relaxed, where);
}
/// synchronize_rcu(): F_sc; wait (spin_yield) until each thread's reader word reads 0; F_sc.
/// Called inside a read-side critical section it waits for itself forever, as urcu does: the
/// engine reports a livelock.
inline void synchronize_rcu(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("synchronize_rcu", where);
    fence(seq_cst, where);
    if (runtime().lkmm()) return;  // LKMM: one sync-rcu event; the rcu axiom gives its meaning
    for (unsigned t = 0; t < d.threads(); ++t)
        for (;;) {
            spin_iteration();
            if (d.reader(t).load(relaxed, where) == 0) break;
            spin_yield();
        }
    fence(seq_cst, where);
}
/// rcu_dereference(p): load(acquire). A C++ model marks no dependencies, so the address
/// dependency LKMM honours is approximated as compilers implement memory_order_consume: by
/// acquire (stronger than LKMM: it also orders later accesses that do not depend on the value).
template <class T>
T rcu_dereference(const Atomic<T>& p, OC_HERE) {
    PrimitiveScope s("rcu_dereference", where);
    return p.load(acquire, where);
}
/// rcu_assign_pointer(p, v): a release store, as smp_store_release().
template <class T, class V>
void rcu_assign_pointer(Atomic<T>& p, V v, OC_HERE) {
    PrimitiveScope s("rcu_assign_pointer", where);
    p.store(static_cast<T>(v), release, where);
}

// =============================================================================================
// Added for the litmus front end (litmus/interpreter.cpp): primitives of LKMM's linux-kernel.def
// that the C++ models had no use for. Each mapping, and where it is stronger or weaker than LKMM,
// is stated here and in docs/litmus.md.
// =============================================================================================

// ---- barriers after lock and SRCU operations -------------------------------------------------

/// smp_mb__after_unlock_lock(): F_sc. LKMM (linux-kernel.cat, `mb`): an unlock followed by a lock
/// (on this CPU in program order, or of the same lock in coherence order) and then this fence
/// orders every access before the unlock with every access after the fence, as smp_mb() does; the
/// kernel defines it as smp_mb() on powerpc and as nothing elsewhere. F_sc orders every access
/// before it with every access after it: as strong as LKMM after an unlock+lock pair, and stronger
/// where no such pair precedes it (LKMM then orders nothing) or for the accesses between the lock
/// and the fence.
inline void smp_mb__after_unlock_lock(OC_HERE) {
    PrimitiveScope s("smp_mb__after_unlock_lock", where);
    fence(seq_cst, where);
}
/// smp_mb__after_srcu_read_unlock(): F_sc. LKMM orders the accesses up to a srcu_read_unlock()
/// with every access after this fence; the kernel's srcu_read_unlock() already contains smp_mb(),
/// so the kernel defines it as nothing. srcu_read_unlock() below starts with F_sc, so this F_sc
/// adds ordering only where no srcu_read_unlock() precedes it (stronger than LKMM there).
inline void smp_mb__after_srcu_read_unlock(OC_HERE) {
    PrimitiveScope s("smp_mb__after_srcu_read_unlock", where);
    fence(seq_cst, where);
}

// ---- atomic_andnot, atomic_fetch_andnot, atomic_add_unless ------------------------------------

/// atomic_andnot(i, v): v &= ~i, a void RMW (unordered), as atomic_and().
template <class T, class V> void atomic_andnot(V i, Atomic<T>& v, OC_HERE) {
    detail::void_rmw(v, RmwOp::And, static_cast<T>(~static_cast<T>(i)), "atomic_andnot", where);
}
/// atomic_fetch_andnot(i, v) and its ordering forms: atomic_fetch_and(~i, v) of the same ordering.
template <class T, class V> T atomic_fetch_andnot(V i, Atomic<T>& v, OC_HERE) {
    return detail::ordered_rmw(v, RmwOp::And, static_cast<T>(~static_cast<T>(i)), Ordering::Full, "atomic_fetch_andnot", where);
}
template <class T, class V> T atomic_fetch_andnot_relaxed(V i, Atomic<T>& v, OC_HERE) {
    return detail::ordered_rmw(v, RmwOp::And, static_cast<T>(~static_cast<T>(i)), Ordering::Relaxed, "atomic_fetch_andnot_relaxed", where);
}
template <class T, class V> T atomic_fetch_andnot_acquire(V i, Atomic<T>& v, OC_HERE) {
    return detail::ordered_rmw(v, RmwOp::And, static_cast<T>(~static_cast<T>(i)), Ordering::Acquire, "atomic_fetch_andnot_acquire", where);
}
template <class T, class V> T atomic_fetch_andnot_release(V i, Atomic<T>& v, OC_HERE) {
    return detail::ordered_rmw(v, RmwOp::And, static_cast<T>(~static_cast<T>(i)), Ordering::Release, "atomic_fetch_andnot_release", where);
}

/// atomic_add_unless(v, a, u): adds a to v unless v is u; true if it added. The kernel
/// (atomic_fetch_add_unless(): a relaxed read, then a try_cmpxchg() loop) and LKMM
/// (`__atomic_add_unless{mb}`) make it fully ordered when it adds and a relaxed read when it does
/// not. Here: a relaxed load; if it reads u, return false (no fence); else a fully ordered
/// cmpxchg of that value (F_sc; CAS; F_sc on success), and on failure a new attempt that re-reads
/// v (an await, as llist_add(): a retry reads what the failed cmpxchg would have passed on). As
/// cmpxchg(), the leading F_sc is emitted on a failed attempt too, which only a blocked graph
/// sees.
template <class T, class A, class U> bool atomic_add_unless(Atomic<T>& v, A a, U u, OC_HERE) {
    PrimitiveScope s("atomic_add_unless", where);
    for (;;) {
        spin_iteration();
        // LKMM: when it reads u, this read is the failed RMW (herd7: in the RMW set, once)
        runtime().add_lkmm_tags_to_next(lkmm::ConditionalRmw);
        const T old = v.load(relaxed, where);
        if (old == static_cast<T>(u)) return false;
        T expected = old;
        if (detail::cmpxchg_impl(v, expected, static_cast<T>(old + static_cast<T>(a)), Ordering::Full, "atomic_add_unless", where))
            return true;
        spin_yield();
    }
}

// ---- SRCU (sleepable RCU): the urcu-mb scheme of rcu_domain, per srcu_struct and per section ---

/// struct srcu_struct: an independent RCU domain with one reader word per read-side *section*
/// (rcu_domain has one per thread). The index that srcu_read_lock() returns names the section,
/// and srcu_read_unlock(ss, idx) closes that section: LKMM pairs each srcu_read_unlock() with the
/// srcu_read_lock() whose value it is given, and two sections of one thread that overlap without
/// nesting stay independent. srcu_read_lock(ss) takes the calling thread's section (index = the
/// thread's number; nested sections of a thread then flatten, as for rcu_read_lock());
/// srcu_read_lock_section(ss, n) takes section n (the litmus interpreter gives each
/// srcu_read_lock() site its own). synchronize_srcu() waits for the sections of its srcu_struct
/// only, as LKMM's sync-srcu does.
class srcu_struct {
public:
    static constexpr unsigned max_sections = 32;
    /// `sections` reader words (at most max_sections), named by `names` (which must outlive the
    /// srcu_struct; nullptr: "srcu_section0", "srcu_section1"...).
    explicit srcu_struct(unsigned sections, const char* const* names = nullptr, OC_HERE)
        : sections_(sections < max_sections ? sections : max_sections) {
        static constexpr const char* defaults[max_sections] = {
            "srcu_section0",  "srcu_section1",  "srcu_section2",  "srcu_section3",  "srcu_section4",
            "srcu_section5",  "srcu_section6",  "srcu_section7",  "srcu_section8",  "srcu_section9",
            "srcu_section10", "srcu_section11", "srcu_section12", "srcu_section13", "srcu_section14",
            "srcu_section15", "srcu_section16", "srcu_section17", "srcu_section18", "srcu_section19",
            "srcu_section20", "srcu_section21", "srcu_section22", "srcu_section23", "srcu_section24",
            "srcu_section25", "srcu_section26", "srcu_section27", "srcu_section28", "srcu_section29",
            "srcu_section30", "srcu_section31"};
        for (unsigned i = 0; i < sections_; ++i)
            ::new (static_cast<void*>(readers_[i])) Atomic<int>(names != nullptr ? names[i] : defaults[i], 0, where);
    }
    ~srcu_struct() {
        for (unsigned i = 0; i < sections_; ++i) reader(i).~Atomic();
    }
    srcu_struct(const srcu_struct&) = delete;
    srcu_struct& operator=(const srcu_struct&) = delete;
    unsigned sections() const { return sections_; }
    Atomic<int>& reader(unsigned i) { return *std::launder(reinterpret_cast<Atomic<int>*>(readers_[i])); }
    unsigned& nesting(unsigned i) { return nesting_[i]; }

private:
    alignas(Atomic<int>) unsigned char readers_[max_sections][sizeof(Atomic<int>)];
    unsigned nesting_[max_sections] = {};
    unsigned sections_;
};
/// Opens section `n` (outermost only: its reader word := 1 (rlx), then F_sc); returns n.
inline int srcu_read_lock_section(srcu_struct& ss, unsigned n, OC_HERE) {
    PrimitiveScope s("srcu_read_lock", where);
    if (runtime().lkmm()) {
        // LKMM: an srcu-lock event on the srcu_struct; herd gives each srcu_read_lock() a value
        // of its own, which srcu_read_unlock() must be given back (srcu-bad-nesting otherwise)
        const auto index = static_cast<int>(1 + runtime().next_event_id().index);
        runtime().srcu_event(ss.reader(0).location(), index, where);
        return index;
    }
    require(n < ss.sections(), "srcu_read_lock(): no such section in the srcu_struct", where);
    if (ss.nesting(n)++ == 0) {
        ss.reader(n).store(1, relaxed, where);
        fence(seq_cst, where);
    }
    return static_cast<int>(n);
}
/// srcu_read_lock(ss): the calling thread's section (its number); returns the index to pass to
/// srcu_read_unlock().
inline int srcu_read_lock(srcu_struct& ss, OC_HERE) {
    return srcu_read_lock_section(ss, runtime().current_model_thread(), where);
}
/// srcu_read_unlock(ss, idx): closes section idx (outermost only: F_sc, then its word := 0 (rlx)).
/// Like urcu-mb's rcu_read_unlock(), it orders the section's accesses before everything after it,
/// which LKMM's srcu_read_unlock() does not (stronger than LKMM).
inline void srcu_read_unlock(srcu_struct& ss, int idx, OC_HERE) {
    PrimitiveScope s("srcu_read_unlock", where);
    if (runtime().lkmm()) {  // LKMM: an srcu-unlock event; the axioms match it by nesting
        runtime().srcu_event(ss.reader(0).location(), idx, where);
        return;
    }
    require(idx >= 0 && static_cast<unsigned>(idx) < ss.sections() && ss.nesting(static_cast<unsigned>(idx)) > 0,
            "srcu_read_unlock() of a section that srcu_read_lock() did not open", where);
    const unsigned n = static_cast<unsigned>(idx);
    if (--ss.nesting(n) != 0) return;
    fence(seq_cst, where);
    ss.reader(n).store(0, relaxed, where);
}
/// synchronize_srcu(ss): F_sc; wait (spin_yield) until each section's reader word reads 0; F_sc.
/// The grace-period guarantee follows from the SC fences as for synchronize_rcu(). Inside one of
/// the srcu_struct's own sections it waits for itself (the engine reports a livelock).
inline void synchronize_srcu(srcu_struct& ss, OC_HERE) {
    PrimitiveScope s("synchronize_srcu", where);
    if (runtime().lkmm()) {  // LKMM: one sync-srcu event on the srcu_struct
        runtime().srcu_event(ss.reader(0).location(), 0, where);
        return;
    }
    fence(seq_cst, where);
    for (unsigned n = 0; n < ss.sections(); ++n)
        for (;;) {
            spin_iteration();
            if (ss.reader(n).load(relaxed, where) == 0) break;
            spin_yield();
        }
    fence(seq_cst, where);
}

#undef OC_HERE
}  // namespace oc::kernel
