// SPDX-License-Identifier: MIT
// Lock-less lists (include/linux/llist.h): llist_add(), llist_del_all(), llist_empty().
// Part of checker/model/kernel.hpp; each mapping is in docs/primitives.md.
#pragma once

#include "checker/model/kernel_atomic.hpp"
#include "checker/model/kernel_bitops.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- llist (include/linux/llist.h), nodes as bits of the head word ---------------------------

/// A lock-less list head. The model represents the list as the set of node numbers on it (bit
/// n = node n), which is what the protocols observe (empty or not, who took which nodes).
struct llist_head {
    explicit llist_head(const char* name, long initial_nodes = 0, OC_HERE) : first(name, initial_nodes, where) {}
    Atomic<long> first;
};
/// llist_add(node, head): cmpxchg loop, fully ordered on success; returns true if the list was
/// empty. Each attempt re-reads the head, as llist_add_batch() did before v6.2 turned it into a
/// try_cmpxchg() loop that reuses the value a failed cmpxchg read: the two loops reach the same
/// outcomes (a retry with the value the failed cmpxchg read is the attempt whose READ_ONCE read
/// it), and this one is an await (a failed attempt writes nothing and feeds nothing forward).
inline bool llist_add(unsigned node, llist_head& head, OC_HERE) {
    PrimitiveScope s("llist_add", where);
    for (;;) {
        spin_iteration();
        const long first = head.first.load(relaxed, where);  // READ_ONCE(head->first)
        long expected = first;
        if (detail::cmpxchg_impl(head.first, expected, first | bit_mask(node), Ordering::Full, "llist_add", where))
            return first == 0;
        spin_yield();
    }
}
/// llist_del_all(head): xchg(&head->first, NULL), fully ordered; returns the nodes taken.
inline long llist_del_all(llist_head& head, OC_HERE) {
    return detail::ordered_rmw(head.first, RmwOp::Exchange, 0L, Ordering::Full, "llist_del_all", where);
}
inline bool llist_empty(const llist_head& head, OC_HERE) {
    PrimitiveScope s("llist_empty", where);
    return head.first.load(relaxed, where) == 0;
}

#undef OC_HERE
}  // namespace oc::kernel
