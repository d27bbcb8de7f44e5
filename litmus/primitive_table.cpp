// SPDX-License-Identifier: MIT
// The table of supported kernel primitives (docs/litmus.md lists their mapping) and what is read
// from it: a primitive by its name, its kernel name, whether it returns a value.
#include "litmus/primitive_table.hpp"

#include <utility>

#include "litmus/parser.hpp"

namespace oc::litmus {

namespace {

using detail::PrimSpec;
using A = ArgKind;

constexpr PrimSpec prim_table[] = {
    {"READ_ONCE", Prim::ReadOnce, false, 1, {A::Lvalue}},
    {"smp_load_acquire", Prim::LoadAcquire, false, 1, {A::Pointer}},
    {"rcu_dereference", Prim::RcuDereference, false, 1, {A::Lvalue}},
    {"atomic_read", Prim::AtomicRead, false, 1, {A::Pointer}},
    {"atomic_read_acquire", Prim::AtomicReadAcquire, false, 1, {A::Pointer}},
    {"WRITE_ONCE", Prim::WriteOnce, false, 2, {A::Lvalue, A::Value}},
    {"smp_store_release", Prim::StoreRelease, false, 2, {A::Pointer, A::Value}},
    {"rcu_assign_pointer", Prim::RcuAssignPointer, false, 2, {A::Lvalue, A::Value}},
    {"smp_store_mb", Prim::StoreMb, false, 2, {A::Lvalue, A::Value}},
    {"atomic_set", Prim::AtomicSet, false, 2, {A::Pointer, A::Value}},
    {"atomic_set_release", Prim::AtomicSetRelease, false, 2, {A::Pointer, A::Value}},
    {"smp_mb", Prim::Mb, false, 0, {}},
    {"smp_rmb", Prim::Rmb, false, 0, {}},
    {"smp_wmb", Prim::Wmb, false, 0, {}},
    {"smp_mb__before_atomic", Prim::MbBeforeAtomic, false, 0, {}},
    {"smp_mb__after_atomic", Prim::MbAfterAtomic, false, 0, {}},
    {"smp_mb__after_spinlock", Prim::MbAfterSpinlock, false, 0, {}},
    {"barrier", Prim::Barrier, false, 0, {}},
    // cpu_relax(): the spin-loop hint (a compiler barrier, as barrier()); not in linux-kernel.def
    // (herd7 rejects it), accepted for the spin loops of kernel code (docs/litmus.md, "Loops").
    {"cpu_relax", Prim::Barrier, false, 0, {}},
    {"smp_mb__after_unlock_lock", Prim::MbAfterUnlockLock, false, 0, {}},
    {"smp_mb__after_srcu_read_unlock", Prim::MbAfterSrcuReadUnlock, false, 0, {}},
    {"atomic_add", Prim::AtomicAdd, false, 2, {A::Value, A::Pointer}},
    {"atomic_sub", Prim::AtomicSub, false, 2, {A::Value, A::Pointer}},
    {"atomic_inc", Prim::AtomicInc, false, 1, {A::Pointer}},
    {"atomic_dec", Prim::AtomicDec, false, 1, {A::Pointer}},
    {"atomic_and", Prim::AtomicAnd, false, 2, {A::Value, A::Pointer}},
    {"atomic_or", Prim::AtomicOr, false, 2, {A::Value, A::Pointer}},
    {"atomic_xor", Prim::AtomicXor, false, 2, {A::Value, A::Pointer}},
    {"atomic_andnot", Prim::AtomicAndnot, false, 2, {A::Value, A::Pointer}},
    // Bit operations (Documentation/atomic_bitops.txt; not in linux-kernel.def): set_bit() and
    // clear_bit() are void RMWs, test_and_{set,clear}_bit() fully ordered (kernel.hpp).
    {"set_bit", Prim::SetBit, false, 2, {A::Value, A::Pointer}},
    {"clear_bit", Prim::ClearBit, false, 2, {A::Value, A::Pointer}},
    {"test_and_set_bit", Prim::TestAndSetBit, false, 2, {A::Value, A::Pointer}},
    {"test_and_clear_bit", Prim::TestAndClearBit, false, 2, {A::Value, A::Pointer}},
    {"atomic_add_return", Prim::AddReturn, true, 2, {A::Value, A::Pointer}},
    {"atomic_sub_return", Prim::SubReturn, true, 2, {A::Value, A::Pointer}},
    {"atomic_inc_return", Prim::IncReturn, true, 1, {A::Pointer}},
    {"atomic_dec_return", Prim::DecReturn, true, 1, {A::Pointer}},
    {"atomic_fetch_add", Prim::FetchAdd, true, 2, {A::Value, A::Pointer}},
    {"atomic_fetch_sub", Prim::FetchSub, true, 2, {A::Value, A::Pointer}},
    {"atomic_fetch_inc", Prim::FetchInc, true, 1, {A::Pointer}},
    {"atomic_fetch_dec", Prim::FetchDec, true, 1, {A::Pointer}},
    {"atomic_fetch_and", Prim::FetchAnd, true, 2, {A::Value, A::Pointer}},
    {"atomic_fetch_or", Prim::FetchOr, true, 2, {A::Value, A::Pointer}},
    {"atomic_fetch_xor", Prim::FetchXor, true, 2, {A::Value, A::Pointer}},
    {"atomic_fetch_andnot", Prim::FetchAndnot, true, 2, {A::Value, A::Pointer}},
    {"atomic_xchg", Prim::AtomicXchg, true, 2, {A::Pointer, A::Value}},
    {"xchg", Prim::Xchg, true, 2, {A::Pointer, A::Value}},
    {"atomic_cmpxchg", Prim::AtomicCmpxchg, true, 3, {A::Pointer, A::Value, A::Value}},
    {"cmpxchg", Prim::Cmpxchg, true, 3, {A::Pointer, A::Value, A::Value}},
    {"atomic_sub_and_test", Prim::SubAndTest, false, 2, {A::Value, A::Pointer}},
    {"atomic_dec_and_test", Prim::DecAndTest, false, 1, {A::Pointer}},
    {"atomic_inc_and_test", Prim::IncAndTest, false, 1, {A::Pointer}},
    {"atomic_add_negative", Prim::AddNegative, true, 2, {A::Value, A::Pointer}},
    {"atomic_add_unless", Prim::AddUnless, false, 3, {A::Pointer, A::Value, A::Value}},
    {"spin_lock", Prim::SpinLock, false, 1, {A::Pointer}},
    {"spin_unlock", Prim::SpinUnlock, false, 1, {A::Pointer}},
    {"spin_trylock", Prim::SpinTrylock, false, 1, {A::Pointer}},
    {"spin_is_locked", Prim::SpinIsLocked, false, 1, {A::Pointer}},
    {"rcu_read_lock", Prim::RcuReadLock, false, 0, {}},
    {"rcu_read_unlock", Prim::RcuReadUnlock, false, 0, {}},
    {"synchronize_rcu", Prim::SynchronizeRcu, false, 0, {}},
    {"synchronize_rcu_expedited", Prim::SynchronizeRcu, false, 0, {}},
    {"srcu_read_lock", Prim::SrcuReadLock, false, 1, {A::Pointer}},
    {"srcu_down_read", Prim::SrcuReadLock, false, 1, {A::Pointer}},
    {"srcu_read_unlock", Prim::SrcuReadUnlock, false, 2, {A::Pointer, A::Value}},
    {"srcu_up_read", Prim::SrcuReadUnlock, false, 2, {A::Pointer, A::Value}},
    {"synchronize_srcu", Prim::SynchronizeSrcu, false, 1, {A::Pointer}},
    {"synchronize_srcu_expedited", Prim::SynchronizeSrcu, false, 1, {A::Pointer}},
    // Kernel idioms that linux-kernel.def lacks (herd7 rejects them); docs/litmus.md, "Kernel
    // idioms", gives what each runs as and what that means under LKMM.
    {"spin_lock_irqsave", Prim::SpinLock, false, 2, {A::Pointer, A::Value}},
    {"spin_unlock_irqrestore", Prim::SpinUnlock, false, 2, {A::Pointer, A::Value}},
    {"mutex_lock", Prim::MutexLock, false, 1, {A::Pointer}},
    {"mutex_unlock", Prim::MutexUnlock, false, 1, {A::Pointer}},
    {"mutex_trylock", Prim::MutexTrylock, false, 1, {A::Pointer}},
    {"mutex_is_locked", Prim::MutexIsLocked, false, 1, {A::Pointer}},
    {"static_branch_unlikely", Prim::StaticBranch, false, 1, {A::Pointer}},
    {"static_branch_likely", Prim::StaticBranch, false, 1, {A::Pointer}},
    {"static_branch_inc", Prim::StaticBranchInc, false, 1, {A::Pointer}},
    {"static_branch_dec", Prim::StaticBranchDec, false, 1, {A::Pointer}},
    {"static_branch_enable", Prim::StaticBranchEnable, false, 1, {A::Pointer}},
    {"static_branch_disable", Prim::StaticBranchDisable, false, 1, {A::Pointer}},
    {"atomic_try_cmpxchg", Prim::TryCmpxchg, true, 3, {A::Pointer, A::RegRef, A::Value}},
    {"try_cmpxchg", Prim::TryCmpxchg, true, 3, {A::Pointer, A::RegRef, A::Value}},
    {"BUG_ON", Prim::BugOn, false, 1, {A::Value}},
    {"WARN_ON", Prim::WarnOn, false, 1, {A::Value}},
};

}  // namespace

namespace detail {

const PrimSpec* find_prim(std::string_view name, Order& order) {
    for (const auto& s : prim_table)
        if (s.name == name) {
            order = Order::Full;
            return &s;
        }
    constexpr std::pair<std::string_view, Order> suffixes[] = {
        {"_relaxed", Order::Relaxed}, {"_acquire", Order::Acquire}, {"_release", Order::Release}};
    for (const auto& [suffix, o] : suffixes) {
        if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) continue;
        const std::string_view base = name.substr(0, name.size() - suffix.size());
        for (const auto& s : prim_table)
            if (s.orders && s.name == base) {
                order = o;
                return &s;
            }
    }
    return nullptr;
}

}  // namespace detail

bool returns_value(Prim p) {
    switch (p) {
    case Prim::ReadOnce: case Prim::LoadAcquire: case Prim::RcuDereference: case Prim::AtomicRead:
    case Prim::AtomicReadAcquire: case Prim::AddReturn: case Prim::SubReturn: case Prim::IncReturn:
    case Prim::DecReturn: case Prim::FetchAdd: case Prim::FetchSub: case Prim::FetchInc: case Prim::FetchDec:
    case Prim::FetchAnd: case Prim::FetchOr: case Prim::FetchXor: case Prim::FetchAndnot: case Prim::AtomicXchg:
    case Prim::Xchg: case Prim::AtomicCmpxchg: case Prim::Cmpxchg: case Prim::SubAndTest: case Prim::DecAndTest:
    case Prim::IncAndTest: case Prim::AddNegative: case Prim::AddUnless: case Prim::SpinTrylock:
    case Prim::SpinIsLocked: case Prim::SrcuReadLock: case Prim::TestAndSetBit: case Prim::TestAndClearBit:
    case Prim::MutexTrylock: case Prim::MutexIsLocked: case Prim::StaticBranch: case Prim::TryCmpxchg: case Prim::WarnOn: return true;
    default: return false;
    }
}

std::string_view primitive_name(Prim p, Order o) {
    for (const auto& s : prim_table)
        if (s.prim == p && o == Order::Full) return s.name;
    for (const auto& s : prim_table)
        if (s.prim == p) return s.name;
    return "?";
}

namespace detail {

bool is_lock_prim(Prim p) {
    return p == Prim::SpinLock || p == Prim::SpinUnlock || p == Prim::SpinTrylock || p == Prim::SpinIsLocked;
}
bool is_srcu_prim(Prim p) { return p == Prim::SrcuReadLock || p == Prim::SrcuReadUnlock || p == Prim::SynchronizeSrcu; }
bool is_atomic_rmw(Prim p) {
    switch (p) {
    case Prim::AtomicAdd: case Prim::AtomicSub: case Prim::AtomicInc: case Prim::AtomicDec: case Prim::AtomicAnd:
    case Prim::AtomicOr: case Prim::AtomicXor: case Prim::AddReturn: case Prim::SubReturn: case Prim::IncReturn:
    case Prim::DecReturn: case Prim::FetchAdd: case Prim::FetchSub: case Prim::FetchInc: case Prim::FetchDec:
    case Prim::FetchAnd: case Prim::FetchOr: case Prim::FetchXor: case Prim::FetchAndnot: case Prim::AtomicXchg:
    case Prim::Xchg: case Prim::AtomicCmpxchg: case Prim::Cmpxchg: case Prim::SubAndTest: case Prim::DecAndTest:
    case Prim::IncAndTest: case Prim::AddNegative: case Prim::AtomicAndnot: case Prim::AddUnless:
    case Prim::SetBit: case Prim::ClearBit: case Prim::TestAndSetBit: case Prim::TestAndClearBit: case Prim::TryCmpxchg:
        return true;
    default: return false;
    }
}

}  // namespace detail

}  // namespace oc::litmus
