// SPDX-License-Identifier: MIT
// Memory barriers (include/asm-generic/barrier.h): smp_load_acquire(), smp_store_release(),
// smp_mb(), smp_rmb(), smp_wmb(), smp_mb__before_atomic() and smp_mb__after_atomic(). The
// barriers that go with a lock or an SRCU operation are with those, as in the kernel
// (spinlock.hpp, srcu.hpp). Part of checker/model/kernel.hpp; each mapping is in
// docs/primitives.md.
#pragma once

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- acquire and release accesses ------------------------------------------------------------

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

#undef OC_HERE
}  // namespace oc::kernel
