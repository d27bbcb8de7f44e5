// SPDX-License-Identifier: MIT
// The interpreter's Instance (interpreter_instance.hpp) at a shared-memory access: the location an
// address designates (computed locations included), the dependencies the access carries, and the
// dispatch of each primitive to the kernel primitives of checker/model/kernel.hpp (one mapping
// for the C++ models and the litmus tests), or of a plain access to its race-checked location.
#include <cstdint>

#include "litmus/interpreter_instance.hpp"

namespace oc::litmus::detail {

// ---- accesses ---------------------------------------------------------------------------------

/// The location an access's address expression designates; `taint` gets the reads the
/// address came from (an addr dependency).
/// An address off one of the test's locations (`y + r2` with r2 = -1) is a location of its own,
/// as herd's `y+-1`: a computed location (slot nl + address mod max_computed_locations), which
/// starts at 0.
std::size_t Instance::resolve(unsigned proc, const Access& a, std::source_location where, Taint& taint) {
    const Value v = eval(proc, a.addr, taint);
    const std::size_t nl = p_.locations.size();
    if (const std::int64_t l = location_at(v, nl); l >= 0) return static_cast<std::size_t>(l);
    const Value from = v - address_base;
    const Value nearest = from + address_stride / 2 >= 0 ? (from + address_stride / 2) / address_stride : -1;
    const Value offset = from - nearest * address_stride;
    if (nearest < 0 || nearest >= static_cast<Value>(nl) || offset <= -address_limit || offset >= address_limit)
        runtime().fail("dereference of a value that is not the address of a location", where);
    if (!p_.computes_addresses)
        runtime().fail("unsupported: an address computed off a location outside an access's address expression", where);
    const auto k = static_cast<std::size_t>(static_cast<std::uint64_t>(v) % max_computed_locations);
    if (computed_[k] != 0 && computed_[k] != v)
        runtime().fail("unsupported: two computed addresses share a computed location (ordercheck runs up to 4 "
                       "addresses off the test's locations per execution)",
                       where);
    computed_[k] = v;
    return nl + k;
}

/// A bit number of a bitop: 0..62 (the model's words are longs; bit 63 is the sign).
unsigned Instance::bit_number(Value nr, std::source_location where) {
    if (nr < 0 || nr > 62) runtime().fail("a bit operation's bit number must be 0 to 62", where);
    return static_cast<unsigned>(nr);
}

Atomic<long>& Instance::atomic_at(std::size_t loc, std::source_location where) {
    if (kinds_[loc] != SlotKind::Atomic)
        runtime().fail(kinds_[loc] == SlotKind::Lock        ? "a memory access to a spinlock_t"
                       : kinds_[loc] == SlotKind::Srcu      ? "a memory access to a struct srcu_struct"
                       : kinds_[loc] == SlotKind::Mutex     ? "a memory access to a struct mutex"
                       : kinds_[loc] == SlotKind::StaticKey ? "a memory access to a static key"
                                                       : "unsupported: an ordered access to a plainly accessed location",
                       where);
    return atomic_slot(loc);
}

spinlock_t& Instance::lock_at(std::size_t loc, std::source_location where) {
    if (kinds_[loc] != SlotKind::Lock) runtime().fail("a spinlock operation on a location that is not a spinlock_t", where);
    return lock_slot(loc);
}

/// Runs access site `ai`; `result` gets the reads the returned value came from.
Value Instance::access(unsigned proc, std::size_t ai, Taint& result) {
    const Access& a = p_.accesses[ai];
    const std::source_location where = source_location_of(c_.spots[ai]);
    // The operands first, with the reads each came from: an access among them (`*z2 = *z1`,
    // the only kind of second access the parser allows in a statement) runs here, before
    // this one, and its value's taint is a data or addr dependency of this access.
    Taint addr, data, unwritten;
    Value v0 = 0, v1 = 0;
    if (a.vals[0] >= 0) v0 = eval(proc, a.vals[0], written_operand(a, 0) ? data : unwritten);
    if (a.vals[1] >= 0) v1 = eval(proc, a.vals[1], written_operand(a, 1) ? data : unwritten);
    const std::size_t loc = a.addr >= 0 ? resolve(proc, a, where, addr) : 0;
    Taint mine;
    Value v = 0;
    {
        const DependencyScope deps(addr, data, ctrl_[proc], mine, where);
        if (a.plain) {
            v = plain_access(a, loc, v0, where);
        } else {
            v = idiom(proc, a, loc, v0, v1, where, v) ? v : primitive(a, ai, loc, v0, v1, where);
        }
    }
    result |= mine;
    if (a.out_reg >= 0 && v == 0) {
        // try_cmpxchg() failed: `old` gets the value it read, which came from that read
        reg(proc, static_cast<std::size_t>(a.out_reg)) = tried_;
        assign_taint(proc, static_cast<std::size_t>(a.out_reg), mine);
    }
    return v;
}

/// The kernel idioms that linux-kernel.def lacks (docs/litmus.md, "Kernel idioms"), each run
/// through the kernel primitive of the C++ models: true if `a` is one, its value in `result`.
bool Instance::idiom(unsigned proc, const Access& a, std::size_t loc, Value v0, Value v1, std::source_location where,
                     Value& result) {
    namespace k = kernel;
    (void)proc;
    result = 0;
    const auto mutex_at = [&]() -> mutex& {
        if (kinds_[loc] != SlotKind::Mutex) runtime().fail("a mutex operation on a location that is not a struct mutex", where);
        return mutex_slot(loc);
    };
    const auto key_at = [&]() -> static_key& {
        if (kinds_[loc] != SlotKind::StaticKey) runtime().fail("a static key operation on a location that is not a static key", where);
        return key_slot(loc);
    };
    switch (a.prim) {
    // spin_lock_irqsave()/spin_unlock_irqrestore() are spin_lock()/spin_unlock() (the flags are
    // a register the lock leaves alone): run under the kernel's own names, which LKMM tags as
    // lock events.
    case Prim::SpinLock: k::spin_lock(lock_at(loc, where), where); return true;
    case Prim::SpinUnlock: k::spin_unlock(lock_at(loc, where), where); return true;
    case Prim::MutexLock: k::mutex_lock(mutex_at(), where); return true;
    case Prim::MutexUnlock: k::mutex_unlock(mutex_at(), where); return true;
    case Prim::MutexTrylock: result = k::mutex_trylock(mutex_at(), where) ? 1 : 0; return true;
    case Prim::MutexIsLocked: result = k::mutex_is_locked(mutex_at(), where) ? 1 : 0; return true;
    case Prim::StaticBranch:
        result = (a.name == "static_branch_likely" ? k::static_branch_likely(key_at(), where)
                                                   : k::static_branch_unlikely(key_at(), where)) ? 1 : 0;
        return true;
    case Prim::StaticBranchInc: k::static_branch_inc(key_at(), where); return true;
    case Prim::StaticBranchDec: k::static_branch_dec(key_at(), where); return true;
    case Prim::StaticBranchEnable: k::static_branch_enable(key_at(), where); return true;
    case Prim::StaticBranchDisable: k::static_branch_disable(key_at(), where); return true;
    case Prim::BugOn:
        if (v0 != 0) runtime().fail("BUG_ON() fired: its condition held", where);
        return true;
    case Prim::WarnOn:
        if (v0 != 0) runtime().fail("WARN_ON() fired: its condition held", where);
        return true;
    default: break;
    }
    (void)v1;
    return false;
}

/// A primitive call, its operands evaluated: `loc` the location (unused without an address).
Value Instance::primitive(const Access& a, std::size_t ai, std::size_t loc, Value v0, Value v1, std::source_location where) {
    const char* label = c_.labels[ai].c_str();
    namespace k = kernel;
    Order order = a.order;
    // Under the C++11 mapping, the head of an address dependency is read as acquire (consume
    // as compilers implement it); LKMM orders by the dependency itself.
    const bool consume_as_acquire = a.dep_head && !runtime().lkmm();
    if (consume_as_acquire && order == Order::Relaxed) order = Order::Acquire;
    // Accesses that may meet a downgraded (plain) location first.
    switch (a.prim) {
    case Prim::ReadOnce:
    case Prim::AtomicRead: {
        if (kinds_[loc] == SlotKind::Plain) return downgraded_read(loc, label, where);
        PrimitiveScope s(label, where);
        if (consume_as_acquire) return k::smp_load_acquire(atomic_at(loc, where), where);
        return a.prim == Prim::ReadOnce ? k::READ_ONCE(atomic_at(loc, where), where)
                                        : k::atomic_read(atomic_at(loc, where), where);
    }
    case Prim::WriteOnce:
    case Prim::AtomicSet: {
        const Value v = v0;
        if (kinds_[loc] == SlotKind::Plain) {
            downgraded_write(loc, v, label, where, lkmm::Once);
            return 0;
        }
        PrimitiveScope s(label, where);
        if (a.prim == Prim::WriteOnce) k::WRITE_ONCE(atomic_at(loc, where), v, where);
        else k::atomic_set(atomic_at(loc, where), v, where);
        return 0;
    }
    // An acquire load or a release store on a location held as plain keeps its ordering as its
    // LKMM tag (the analysis judges such a program under LKMM only).
    case Prim::LoadAcquire:
    case Prim::AtomicReadAcquire:
        if (kinds_[loc] == SlotKind::Plain) return downgraded_read(loc, label, where, lkmm::Acquire);
        break;
    case Prim::StoreRelease:
    case Prim::AtomicSetRelease:
    case Prim::RcuAssignPointer:
        if (kinds_[loc] == SlotKind::Plain) {
            downgraded_write(loc, v0, label, where, lkmm::Release);
            return 0;
        }
        break;
    default: break;
    }
    // Fences and RCU: no location.
    switch (a.prim) {
    case Prim::Mb: k::smp_mb(where); return 0;
    case Prim::Rmb: k::smp_rmb(where); return 0;
    case Prim::Wmb: k::smp_wmb(where); return 0;
    case Prim::MbBeforeAtomic: k::smp_mb__before_atomic(where); return 0;
    case Prim::MbAfterAtomic: k::smp_mb__after_atomic(where); return 0;
    case Prim::MbAfterSpinlock: k::smp_mb__after_spinlock(where); return 0;
    case Prim::Barrier: return 0;
    case Prim::MbAfterUnlockLock: k::smp_mb__after_unlock_lock(where); return 0;
    case Prim::MbAfterSrcuReadUnlock: k::smp_mb__after_srcu_read_unlock(where); return 0;
    case Prim::RcuReadLock: k::rcu_read_lock(rcu(), where); return 0;
    case Prim::RcuReadUnlock: k::rcu_read_unlock(rcu(), where); return 0;
    case Prim::SynchronizeRcu: k::synchronize_rcu(rcu(), where); return 0;
    default: break;
    }
    // Void RMWs: no enclosing scope, so that a preceding smp_mb__before_atomic() keeps its
    // own name on the fence it places.
    switch (a.prim) {
    case Prim::AtomicAdd: k::atomic_add(v0, atomic_at(loc, where), where); return 0;
    case Prim::AtomicSub: k::atomic_sub(v0, atomic_at(loc, where), where); return 0;
    case Prim::AtomicInc: k::atomic_inc(atomic_at(loc, where), where); return 0;
    case Prim::AtomicDec: k::atomic_dec(atomic_at(loc, where), where); return 0;
    case Prim::AtomicAnd: k::atomic_and(v0, atomic_at(loc, where), where); return 0;
    case Prim::AtomicOr: k::atomic_or(v0, atomic_at(loc, where), where); return 0;
    case Prim::AtomicXor: k::atomic_xor(v0, atomic_at(loc, where), where); return 0;
    case Prim::AtomicAndnot: k::atomic_andnot(v0, atomic_at(loc, where), where); return 0;
    case Prim::SetBit: k::set_bit(bit_number(v0, where), atomic_at(loc, where), where); return 0;
    case Prim::ClearBit: k::clear_bit(bit_number(v0, where), atomic_at(loc, where), where); return 0;
    default: break;
    }
    // Everything else, under the litmus test's own name.
    PrimitiveScope s(label, where);
    if (a.prim == Prim::SpinLock || a.prim == Prim::SpinUnlock || a.prim == Prim::SpinTrylock ||
        a.prim == Prim::SpinIsLocked) {
        spinlock_t& l = lock_at(loc, where);
        switch (a.prim) {
        case Prim::SpinLock: k::spin_lock(l, where); return 0;
        case Prim::SpinUnlock: k::spin_unlock(l, where); return 0;
        case Prim::SpinTrylock: return k::spin_trylock(l, where) ? 1 : 0;
        default: return k::spin_is_locked(l, where) ? 1 : 0;
        }
    }
    if (a.prim == Prim::SrcuReadLock || a.prim == Prim::SrcuReadUnlock || a.prim == Prim::SynchronizeSrcu) {
        if (kinds_[loc] != SlotKind::Srcu) runtime().fail("an SRCU operation on a location that is not a struct srcu_struct", where);
        kernel::srcu_struct& ss = srcu_at(loc);
        if (a.srcu_access && runtime().lkmm() && a.prim != Prim::SynchronizeSrcu) {
            // herd's lkmmv2 .def: __load{srcu-lock}(*X), __store{srcu-unlock}(*X,Y): a marked read
            // of the srcu_struct's word, whose value the lock returns, and a marked write of the
            // value given, data-dependent on where that value came from (access()'s
            // DependencyScope). The model pairs them by that dependency and flags a value
            // mismatch (srcu-bad-value-match): no check here.
            if (a.prim == Prim::SrcuReadLock) return k::srcu_read_lock_access(ss, label, where);
            k::srcu_read_unlock_access(ss, static_cast<int>(v0), label, where);
            return 0;
        }
        // The index: herd's srcu_read_lock() reads the srcu_struct's word, which every
        // srcu_read_unlock() writes back unchanged, so it is the initial value (0). The
        // section is the one the parser gave this srcu_read_lock() site (one per site).
        const Value index = p_.locations[loc].init;
        if (runtime().lkmm()) {
            // LKMM: srcu-lock, srcu-unlock and sync-srcu events; srcu_read_lock() returns a
            // value of its own (as herd's does), srcu_read_unlock() carries the value it is
            // given, and the bell matches the two by nesting (srcu-bad-nesting otherwise)
            switch (a.prim) {
            case Prim::SrcuReadLock: return k::srcu_read_lock_section(ss, a.section, where);
            case Prim::SrcuReadUnlock: k::srcu_read_unlock(ss, static_cast<int>(v0), where); return 0;
            default: k::synchronize_srcu(ss, where); return 0;
            }
        }
        switch (a.prim) {
        case Prim::SrcuReadLock: k::srcu_read_lock_section(ss, a.section, where); return index;
        case Prim::SrcuReadUnlock:
            if (v0 != index) runtime().fail("srcu_read_unlock() is given another value than srcu_read_lock() returned", where);
            k::srcu_read_unlock(ss, static_cast<int>(p_.accesses[static_cast<std::size_t>(a.srcu_lock)].section), where);
            return 0;
        default: k::synchronize_srcu(ss, where); return 0;
        }
    }
    Atomic<long>& x = atomic_at(loc, where);
#define OC_BY_ORDER(fn, ...)                                                   \
switch (order) {                                                           \
case Order::Full: return k::fn(__VA_ARGS__, where);                        \
case Order::Relaxed: return k::fn##_relaxed(__VA_ARGS__, where);           \
case Order::Acquire: return k::fn##_acquire(__VA_ARGS__, where);           \
case Order::Release: return k::fn##_release(__VA_ARGS__, where);           \
}                                                                          \
return 0
    switch (a.prim) {
    case Prim::LoadAcquire: return k::smp_load_acquire(x, where);
    case Prim::RcuDereference: return k::rcu_dereference(x, where);
    case Prim::AtomicReadAcquire: return k::atomic_read_acquire(x, where);
    case Prim::StoreRelease: k::smp_store_release(x, v0, where); return 0;
    case Prim::RcuAssignPointer: k::rcu_assign_pointer(x, v0, where); return 0;
    case Prim::StoreMb:
        k::WRITE_ONCE(x, v0, where);
        k::smp_mb(where);
        return 0;
    case Prim::AtomicSetRelease: k::atomic_set_release(x, v0, where); return 0;
    case Prim::AddReturn: OC_BY_ORDER(atomic_add_return, v0, x);
    case Prim::SubReturn: OC_BY_ORDER(atomic_sub_return, v0, x);
    case Prim::IncReturn: OC_BY_ORDER(atomic_add_return, 1, x);
    case Prim::DecReturn: OC_BY_ORDER(atomic_sub_return, 1, x);
    case Prim::FetchAdd: OC_BY_ORDER(atomic_fetch_add, v0, x);
    case Prim::FetchSub: OC_BY_ORDER(atomic_fetch_sub, v0, x);
    case Prim::FetchInc: OC_BY_ORDER(atomic_fetch_add, 1, x);
    case Prim::FetchDec: OC_BY_ORDER(atomic_fetch_sub, 1, x);
    case Prim::FetchAnd: OC_BY_ORDER(atomic_fetch_and, v0, x);
    case Prim::FetchOr: OC_BY_ORDER(atomic_fetch_or, v0, x);
    case Prim::FetchXor: OC_BY_ORDER(atomic_fetch_xor, v0, x);
    case Prim::FetchAndnot: OC_BY_ORDER(atomic_fetch_andnot, v0, x);
    case Prim::AtomicXchg: OC_BY_ORDER(atomic_xchg, x, v0);
    case Prim::Xchg:
        switch (order) {
        case Order::Full: return k::xchg(x, v0, where);
        case Order::Relaxed: return k::xchg_relaxed(x, v0, where);
        case Order::Acquire: return k::atomic_xchg_acquire(x, v0, where);
        case Order::Release: return k::atomic_xchg_release(x, v0, where);
        }
        return 0;
    case Prim::AtomicCmpxchg: OC_BY_ORDER(atomic_cmpxchg, x, v0, v1);
    case Prim::Cmpxchg: OC_BY_ORDER(cmpxchg, x, v0, v1);
    case Prim::SubAndTest: return k::atomic_sub_and_test(v0, x, where) ? 1 : 0;
    case Prim::DecAndTest: return k::atomic_dec_and_test(x, where) ? 1 : 0;
    case Prim::IncAndTest: return k::atomic_inc_and_test(x, where) ? 1 : 0;
    case Prim::AddNegative: {
        // atomic_add_negative{,_relaxed,_acquire,_release}: the add_return of that ordering, < 0.
        const Value r = [&]() -> Value { OC_BY_ORDER(atomic_add_return, v0, x); }();
        return r < 0 ? 1 : 0;
    }
    case Prim::AddUnless: return k::atomic_add_unless(x, v0, v1, where) ? 1 : 0;
    case Prim::TryCmpxchg: {
        // atomic_try_cmpxchg{,_relaxed,_acquire,_release}(v, &old, new): the cmpxchg of that
        // ordering; on failure, access() stores the value read in `old`.
        const Value r = [&]() -> Value { OC_BY_ORDER(atomic_cmpxchg, x, v0, v1); }();
        tried_ = r;
        return r == v0 ? 1 : 0;
    }
    case Prim::TestAndSetBit: return k::test_and_set_bit(bit_number(v0, where), x, where) ? 1 : 0;
    case Prim::TestAndClearBit: return k::test_and_clear_bit(bit_number(v0, where), x, where) ? 1 : 0;
    default: break;
    }
#undef OC_BY_ORDER
    runtime().fail("internal: a primitive the interpreter does not dispatch", where);
}

Value Instance::downgraded_read(std::size_t loc, const char* label, std::source_location where, std::uint32_t tags) {
    PrimitiveScope s(label, where);
    // Under LKMM the access stays marked (Once, Acquire): the engine holds the location as a
    // plain one, but LKMM's hb, ppo and race flag see the READ_ONCE or smp_load_acquire() it is
    // (C-JO-OOTA-4).
    if (runtime().lkmm()) runtime().add_lkmm_tags_to_next(tags);
    return plain_slot(loc).read(where);
}

void Instance::downgraded_write(std::size_t loc, Value v, const char* label, std::source_location where, std::uint32_t tags) {
    PrimitiveScope s(label, where);
    if (runtime().lkmm()) runtime().add_lkmm_tags_to_next(tags);  // still marked (downgraded_read())
    plain_slot(loc).write(v, where);
}

/// `*x` and `*x = v` (`v`): plain accesses, race-checked when the location is Plain.
Value Instance::plain_access(const Access& a, std::size_t loc, Value v, std::source_location where) {
    switch (kinds_[loc]) {
    case SlotKind::Plain:
        if (a.plain_write) {
            plain_slot(loc).write(v, where);
            return 0;
        }
        return plain_slot(loc).read(where);
    case SlotKind::Atomic:
        // PlainAsRelaxed (or a location the analysis proved unreachable from plain code).
        if (a.plain_write) {
            atomic_slot(loc).store(v, relaxed, where);
            return 0;
        }
        return atomic_slot(loc).load(relaxed, where);
    case SlotKind::Srcu: runtime().fail("a plain access to a struct srcu_struct", where);
    case SlotKind::Mutex: runtime().fail("a plain access to a struct mutex", where);
    case SlotKind::StaticKey: runtime().fail("a plain access to a static key", where);
    case SlotKind::Lock:
    case SlotKind::None: break;
    }
    runtime().fail("a plain access to a spinlock_t", where);
}

}  // namespace oc::litmus::detail
