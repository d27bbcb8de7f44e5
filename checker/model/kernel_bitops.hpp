// SPDX-License-Identifier: MIT
// Atomic bit operations (include/asm-generic/bitops/atomic.h and bitops/lock.h,
// Documentation/atomic_bitops.txt) on a bitmap word: set_bit(), test_and_set_bit(),
// clear_bit_unlock()... Part of checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_atomic.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

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

#undef OC_HERE
}  // namespace oc::kernel
