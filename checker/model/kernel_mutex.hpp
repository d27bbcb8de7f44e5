// SPDX-License-Identifier: MIT
// struct mutex (include/linux/mutex.h): mutex_lock(), mutex_trylock(), mutex_unlock(),
// mutex_is_locked(). Part of checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- mutex -----------------------------------------------------------------------------------

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

#undef OC_HERE
}  // namespace oc::kernel
