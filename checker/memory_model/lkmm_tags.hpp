// SPDX-License-Identifier: MIT
// LKMM's vocabulary of events: the tags linux-kernel.bell and lock.cat give an event (once,
// acquire, mb, rcu-lock, LKR...), their names, and which tags each kernel primitive's events
// carry. The execution graph stores the tags as bits (Event::lkmm); the LKMM predicate
// (lkmm.hpp) reads them; the model runtime and the explaining cycle set them through
// lkmm_tags_of().
#pragma once

#include <cstdint>
#include <string>

#include "traces/execution_graph.hpp"

namespace oc {

/// The annotations the Linux-kernel memory model (LKMM, tools/memory-model) gives an event, as
/// linux-kernel.bell and lock.cat name them. Every event carries them next to its C++11 order:
/// kernel primitives set them (lkmm_tags_of() below), a C++-level operation gets them from its
/// memory order. The LKMM predicate (lkmm.hpp) reads only these; RC11 and Relacy read only the
/// C++11 order.
namespace lkmm {
enum Tag : std::uint32_t {
    Once = 1u << 0,            ///< READ_ONCE, WRITE_ONCE, relaxed RMWs, atomic_read/set
    Acquire = 1u << 1,         ///< smp_load_acquire, _acquire RMWs (their read part)
    Release = 1u << 2,         ///< smp_store_release, _release RMWs (their write part)
    Noreturn = 1u << 3,        ///< the read part of a void RMW (atomic_inc, set_bit...)
    Mb = 1u << 4,              ///< smp_mb(), and the fences around a fully ordered RMW
    Rmb = 1u << 5,             ///< smp_rmb()
    Wmb = 1u << 6,             ///< smp_wmb()
    Barrier = 1u << 7,         ///< barrier()
    BeforeAtomic = 1u << 8,    ///< smp_mb__before_atomic()
    AfterAtomic = 1u << 9,     ///< smp_mb__after_atomic()
    AfterSpinlock = 1u << 10,  ///< smp_mb__after_spinlock()
    AfterUnlockLock = 1u << 11,  ///< smp_mb__after_unlock_lock()
    RcuLock = 1u << 12,        ///< rcu_read_lock()
    RcuUnlock = 1u << 13,      ///< rcu_read_unlock()
    SyncRcu = 1u << 14,        ///< synchronize_rcu()
    SrcuLock = 1u << 15,       ///< srcu_read_lock()
    SrcuUnlock = 1u << 16,     ///< srcu_read_unlock()
    SyncSrcu = 1u << 17,       ///< synchronize_srcu()
    LockRmw = 1u << 18,        ///< spin_lock(), successful spin_trylock(): LKR (read part) + LKW (write part)
    Unlock = 1u << 19,         ///< spin_unlock(): UL
    LockFail = 1u << 20,       ///< failed spin_trylock(): LF
    ReadLocked = 1u << 21,     ///< spin_is_locked() returning true: RL
    ReadUnlocked = 1u << 22,   ///< spin_is_locked() returning false: RU
    /// The fence before a fully ordered conditional RMW (cmpxchg): a strong fence only when the
    /// RMW of the same call succeeds (LKMM: a failed cmpxchg is an unordered read).
    IfRmwSucceeds = 1u << 23,
    /// An event of a conditional RMW (the cmpxchg family, atomic_add_unless()). Where it is a read
    /// (the RMW failed), linux-kernel.bell's RMW set still holds it, as herd7 makes a failed
    /// conditional RMW's read an atomic access: smp_mb__before_atomic()/after_atomic() order
    /// through it. It carries no ordering of its own (herd: once; lkmmv2 calls it FailedRMW).
    /// Ignored on an RMW event (a successful one is in RMW anyway).
    ConditionalRmw = 1u << 24,
    /// smp_mb__after_srcu_read_unlock() (the newest linux-kernel.bell's after-srcu-read-unlock;
    /// Linux 6.1's model lacks the primitive): orders what precedes an srcu_read_unlock() that
    /// precedes it with what follows it.
    AfterSrcuReadUnlock = 1u << 25,
};
/// "once", "acquire", "mb", "rcu-lock", "LKR+LKW"...: the tags' names as the cat files spell
/// them, joined by '+'; "" for none.
std::string names(std::uint32_t tags);
}  // namespace lkmm

/// The LKMM tags (lkmm::Tag) of an event, from the kernel primitive that made it, its kind and its
/// C++11 order (a weakened barrier keeps what remains of it): the table of docs/lkmm.md.
std::uint32_t lkmm_tags_of(const Event& e);

}  // namespace oc
