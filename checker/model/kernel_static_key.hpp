// SPDX-License-Identifier: MIT
// Static keys (include/linux/static_key.h, which is include/linux/jump_label.h):
// static_branch_inc(), static_branch_dec(), static_branch_unlikely(), static_branch_likely().
// Part of checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_atomic.hpp"
#include "checker/model/kernel_mutex.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- static keys -----------------------------------------------------------------------------

/// A static key: the enable count. static_branch_inc/dec serialise on jump_label_mutex and
/// update the count fully ordered. Weaker than the kernel: text patching synchronises every CPU
/// before inc returns (like membarrier), which C++11 cannot express.
struct static_key {
    explicit static_key(const char* name, OC_HERE) : enabled(name, 0, where), jump_label_mutex("jump_label_mutex", where) {}
    /// A key whose count starts at `count` (DEFINE_STATIC_KEY_TRUE: 1).
    static_key(const char* name, int count, SrcLoc where)
        : enabled(name, count, where), jump_label_mutex("jump_label_mutex", where) {}
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
/// static_branch_enable(&key), static_branch_disable(&key) (kernel/jump_label.c
/// static_key_enable_cpuslocked(), static_key_disable_cpuslocked()): under jump_label_mutex, the
/// count goes 0 -> 1 (enable) or 1 -> 0 (disable) by a fully ordered RMW, and is left alone when
/// it already has the value wanted. The kernel reads the count first without the mutex and
/// returns early when nothing is to be done; taking the mutex in every case only adds ordering
/// on a path that changes nothing.
namespace detail {
/// The count from `from` to from ± 1 (`op`) under jump_label_mutex; left alone otherwise.
inline void static_key_switch(static_key& key, int from, RmwOp op, const char* name, SrcLoc where) {
    PrimitiveScope s(name, where);
    mutex_lock(key.jump_label_mutex, where);
    if (key.enabled.load(relaxed, where) == from) ordered_rmw(key.enabled, op, 1, Ordering::Full, name, where);
    mutex_unlock(key.jump_label_mutex, where);
}
}  // namespace detail
inline void static_branch_enable(static_key& key, OC_HERE) {
    detail::static_key_switch(key, 0, RmwOp::Add, "static_branch_enable", where);
}
inline void static_branch_disable(static_key& key, OC_HERE) {
    detail::static_key_switch(key, 1, RmwOp::Sub, "static_branch_disable", where);
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

#undef OC_HERE
}  // namespace oc::kernel
