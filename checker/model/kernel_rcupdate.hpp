// SPDX-License-Identifier: MIT
// RCU (include/linux/rcupdate.h): rcu_domain, rcu_read_lock(), rcu_read_unlock(),
// synchronize_rcu(), rcu_dereference(), rcu_assign_pointer(). Part of checker/model/kernel.hpp;
// each mapping is in docs/primitives.md.
#pragma once

#include <new>

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- RCU (userspace RCU's memory-barrier flavour, urcu-mb) ------------------------------------

/// "rcu_reader0", "rcu_reader1"...: the names of an RCU domain's reader words, one per thread.
struct RcuReaderNames {
    char at[max_threads][16] = {};
    constexpr RcuReaderNames() {
        for (unsigned t = 0; t < max_threads; ++t) {
            const char prefix[] = "rcu_reader";
            unsigned n = 0;
            for (; prefix[n] != '\0'; ++n) at[t][n] = prefix[n];
            if (t >= 10) at[t][n++] = static_cast<char>('0' + t / 10);
            at[t][n] = static_cast<char>('0' + t % 10);
        }
    }
};
static_assert(max_threads < 100, "two digits per reader-word name");
inline constexpr RcuReaderNames rcu_reader_names{};

/// An RCU domain: one reader word per thread, 1 while the thread is inside a read-side critical
/// section (urcu-mb's per-reader counter, with a single grace-period phase: a model's threads run
/// finitely many steps, so no reader can starve the updater). The nesting depth is thread-local
/// bookkeeping, not shared memory. Declare one per model, for all of its threads. Under LKMM the
/// RCU calls are events of their own and no reader word is made: a location no event accesses
/// would still be a node (its initial write) of every graph the memory model judges.
class rcu_domain {
public:
    explicit rcu_domain(unsigned threads, OC_HERE)
        : threads_(threads < max_threads ? threads : max_threads), words_(runtime().lkmm() ? 0 : threads_) {
        for (unsigned t = 0; t < words_; ++t)
            ::new (static_cast<void*>(readers_[t])) Atomic<int>(rcu_reader_names.at[t], 0, where);
    }
    ~rcu_domain() {
        for (unsigned t = 0; t < words_; ++t) reader(t).~Atomic();
    }
    rcu_domain(const rcu_domain&) = delete;
    rcu_domain& operator=(const rcu_domain&) = delete;
    unsigned threads() const { return threads_; }
    Atomic<int>& reader(unsigned t) { return *std::launder(reinterpret_cast<Atomic<int>*>(readers_[t])); }
    unsigned& nesting(unsigned t) { return nesting_[t]; }

private:
    alignas(Atomic<int>) unsigned char readers_[max_threads][sizeof(Atomic<int>)];
    unsigned nesting_[max_threads] = {};
    unsigned threads_;
    unsigned words_;  ///< reader words made: threads_, none under LKMM
};
/// rcu_read_lock(): outermost only: the thread's reader word := 1 (rlx), then F_sc.
inline void rcu_read_lock(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("rcu_read_lock", where);
    const unsigned me = runtime().current_model_thread();
    require(me < d.threads(), "rcu_read_lock(): the thread is not in the RCU domain", where);
    if (runtime().lkmm()) {  // LKMM: an rcu-lock event; the axioms match the nesting
        fence(seq_cst, where);
        return;
    }
    if (d.nesting(me)++ != 0) return;
    d.reader(me).store(1, relaxed, where);
    fence(seq_cst, where);
}
/// rcu_read_unlock(): outermost only: F_sc, then the thread's reader word := 0 (rlx).
inline void rcu_read_unlock(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("rcu_read_unlock", where);
    const unsigned me = runtime().current_model_thread();
    if (runtime().lkmm()) {  // LKMM: an rcu-unlock event
        require(me < d.threads(), "rcu_read_unlock(): the thread is not in the RCU domain", where);
        fence(seq_cst, where);
        return;
    }
    require(me < d.threads() && d.nesting(me) > 0, "rcu_read_unlock() without rcu_read_lock()", where);
    if (--d.nesting(me) != 0) return;
    fence(seq_cst, where);
    d.reader(me).store(0, relaxed, where);
}
/// synchronize_rcu(): F_sc; wait (spin_yield) until each thread's reader word reads 0; F_sc.
/// Called inside a read-side critical section it waits for itself forever, as urcu does: the
/// engine reports a livelock.
inline void synchronize_rcu(rcu_domain& d, OC_HERE) {
    PrimitiveScope s("synchronize_rcu", where);
    fence(seq_cst, where);
    if (runtime().lkmm()) return;  // LKMM: one sync-rcu event; the rcu axiom gives its meaning
    for (unsigned t = 0; t < d.threads(); ++t)
        for (;;) {
            spin_iteration();
            if (d.reader(t).load(relaxed, where) == 0) break;
            spin_yield();
        }
    fence(seq_cst, where);
}
/// rcu_dereference(p): load(acquire). A C++ model marks no dependencies, so the address
/// dependency LKMM honours is approximated as compilers implement memory_order_consume: by
/// acquire (stronger than LKMM: it also orders later accesses that do not depend on the value).
template <class T>
T rcu_dereference(const Atomic<T>& p, OC_HERE) {
    PrimitiveScope s("rcu_dereference", where);
    return p.load(acquire, where);
}
/// rcu_assign_pointer(p, v): a release store, as smp_store_release().
template <class T, class V>
void rcu_assign_pointer(Atomic<T>& p, V v, OC_HERE) {
    PrimitiveScope s("rcu_assign_pointer", where);
    p.store(static_cast<T>(v), release, where);
}

#undef OC_HERE
}  // namespace oc::kernel
