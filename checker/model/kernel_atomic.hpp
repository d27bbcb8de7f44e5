// SPDX-License-Identifier: MIT
// atomic_t and atomic_long_t operations (include/linux/atomic.h and the generated
// include/linux/atomic/*.h; Documentation/atomic_t.txt): read/set, the void and value-returning
// RMWs in their ordering forms, xchg and the cmpxchg family, atomic_andnot, atomic_fetch_andnot
// and atomic_add_unless; and the RMW helpers (detail::) the other groups build on. Part of
// checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

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

// ---- atomic_andnot, atomic_fetch_andnot, atomic_add_unless ------------------------------------
// Added for the litmus front end (litmus/interpreter_access.cpp): primitives of LKMM's linux-kernel.def
// that the C++ models had no use for. Each mapping, and where it is stronger or weaker than LKMM,
// is stated here and in docs/litmus.md.

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

#undef OC_HERE
}  // namespace oc::kernel
