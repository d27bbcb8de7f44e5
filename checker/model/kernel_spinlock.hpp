// SPDX-License-Identifier: MIT
// spinlock_t (include/linux/spinlock.h): spin_lock(), spin_trylock(), spin_unlock(),
// spin_is_locked(); and the barriers that follow a lock: smp_mb__after_spinlock() (spinlock.h)
// and smp_mb__after_unlock_lock(). Part of checker/model/kernel.hpp; each mapping is in
// docs/primitives.md.
#pragma once

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

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

// ---- barriers after lock operations ----------------------------------------------------------

/// smp_mb__after_spinlock(): F_sc.
inline void smp_mb__after_spinlock(OC_HERE) {
    PrimitiveScope s("smp_mb__after_spinlock", where);
    fence(seq_cst, where);
}

// Added for the litmus front end (litmus/interpreter_access.cpp): primitives of LKMM's linux-kernel.def
// that the C++ models had no use for. Each mapping, and where it is stronger or weaker than LKMM,
// is stated here and in docs/litmus.md.

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

#undef OC_HERE
}  // namespace oc::kernel
