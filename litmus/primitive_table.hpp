// SPDX-License-Identifier: MIT
// The supported kernel primitives as the parser sees them: each one's name, whether it has
// _relaxed/_acquire/_release forms, and the shape of its arguments (primitive_table.cpp holds the
// table); and the kernel functions LKMM does not define, which the parser names in its error.
// Internal to litmus/: the public names (primitive_name(), returns_value()) are in parser.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "litmus/ast.hpp"

namespace oc::litmus::detail {

/// One supported primitive. `orders`: it also exists as name_relaxed/_acquire/_release.
struct PrimSpec {
    std::string_view name;
    Prim prim;
    bool orders;
    std::uint8_t nargs;
    std::array<ArgKind, 3> args;
};

/// The primitives of a struct mutex and of a static key (docs/litmus.md, "Kernel idioms").
inline bool is_mutex_prim(Prim p) {
    return p == Prim::MutexLock || p == Prim::MutexUnlock || p == Prim::MutexTrylock || p == Prim::MutexIsLocked;
}
inline bool is_key_prim(Prim p) {
    return p == Prim::StaticBranch || p == Prim::StaticBranchInc || p == Prim::StaticBranchDec ||
           p == Prim::StaticBranchEnable || p == Prim::StaticBranchDisable;
}

/// Spinlock, SRCU and value-modifying atomic primitives (the analysis's classes).
bool is_lock_prim(Prim p);
bool is_srcu_prim(Prim p);
bool is_atomic_rmw(Prim p);

/// The primitive spelled `name` ("atomic_inc_return_acquire"), its ordering in `order`; nullptr
/// for a name that is none.
const PrimSpec* find_prim(std::string_view name, Order& order);

/// Kernel functions that LKMM's linux-kernel.def does not define either (so herd7 rejects them
/// too): named in the error, with what to write instead where there is something.
struct NotInLkmm {
    std::string_view name;
    std::string_view instead;
};
inline constexpr NotInLkmm not_in_lkmm[] = {
    {"atomic_inc_not_zero", "write atomic_add_unless(v, 1, 0), which is how the kernel defines it"},
    {"atomic_fetch_add_unless", "write atomic_add_unless(v, a, u), which returns whether it added"},
    {"atomic_dec_unless_positive", ""},
    {"atomic_inc_unless_negative", ""},
    {"atomic_dec_if_positive", ""},
    {"spin_unlock_wait", "it was removed from the kernel in v4.13"},
    {"call_rcu", ""}, {"rcu_barrier", ""}, {"smp_cond_load_acquire", ""}, {"smp_cond_load_relaxed", ""},
    {"raw_spin_lock", ""}, {"raw_spin_unlock", ""}, {"local_irq_disable", ""},
    {"local_irq_enable", ""}, {"cmpxchg64", ""}, {"atomic64_read", ""}, {"atomic_long_read", ""},
    {"atomic_long_set", ""}, {"kfree", "model the free as a store, e.g. WRITE_ONCE(*y, 0)"},
};

}  // namespace oc::litmus::detail
