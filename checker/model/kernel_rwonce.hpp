// SPDX-License-Identifier: MIT
// READ_ONCE() and WRITE_ONCE() (include/asm-generic/rwonce.h): the marked plain accesses.
// Part of checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

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

#undef OC_HERE
}  // namespace oc::kernel
