// SPDX-License-Identifier: MIT
// The Linux-kernel memory model (tools/memory-model: linux-kernel.cat, linux-kernel.bell,
// lock.cat) as a predicate over one execution graph. Every relation is computed as a bit matrix
// and named as the cat file names it (dashes become underscores), so that the two read side by
// side. The graph's events carry their LKMM tags (Event::lkmm) and dependencies
// (Event::addr_deps...); the C++11 orders are not read.
//
// LKMM speaks of reads and writes: an RMW event of the graph is two nodes here, its read part
// and its write part, joined by `rmw` (for spin_lock(), lock.cat's LKR and LKW). Initial writes
// (IW) are in no thread: external to every event, po-before nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/lkmm_tags.hpp"
#include "traces/execution_graph.hpp"

namespace oc::lkmm {

/// A set of nodes as a bit row.
using NodeSet = std::vector<std::uint64_t>;

/// The nodes of one graph: each event once, an RMW twice (read part, then write part).
struct Nodes {
    std::vector<EventId> event;       ///< per node: its event
    std::vector<bool> write_part;     ///< per node: the write part of an RMW
    std::vector<std::vector<std::size_t>> first;  ///< [graph thread][po index]: the event's first node
    std::size_t size() const { return event.size(); }
    /// The node of event `id`: an RMW's read part, or with `write_part` its write part.
    std::size_t of(EventId id, bool write_part = false) const;
};

/// The nodes of `g`: each event once, in thread and po order, an RMW twice.
Nodes number_nodes(const ExecutionGraph& g);
/// The same into `nodes`, reusing its storage.
void number_nodes_into(const ExecutionGraph& g, Nodes& nodes);

/// Into `key`: every field of g's events that a memory model reads besides what they read
/// and write and their rf and co (kind, tags, location, memory order, primitive, dependencies),
/// thread by thread. Two graphs with the same key have the same nodes, and the same sets and
/// relations but rf, co and fr: the LKMM check and a cat model keep what those decide by it.
void events_key(const ExecutionGraph& g, std::vector<std::uint64_t>& key);

/// herd's addr, data and ctrl over `N` (`events`: each node's event), from the events'
/// dependency masks: from a read (an RMW's read part) to the dependent access; data goes to an
/// RMW's write part.
void dependencies(const std::vector<const Event*>& events, const Nodes& N, BitRel& addr, BitRel& data, BitRel& ctrl);

/// The pairs of `rel` as events, an RMW's two nodes as one (pairs within it left out), sorted.
std::vector<std::pair<EventId, EventId>> event_pairs(const Nodes& nodes, const BitRel& rel);

/// A cycle of `rel` (or a reflexive pair) as events, an RMW's two nodes as one; empty when none.
std::vector<EventId> cycle_events(const Nodes& nodes, const BitRel& rel);

/// How far to compute: the axioms only (the engine's check of every prefix) or also the
/// plain-access flags (data-race) of a complete graph.
enum class Depth : std::uint8_t { Nesting, Axioms, Flags };

/// Every relation and set of linux-kernel.cat that the axioms and the data-race flag use.
struct Relations {
    /// Every set and relation over n nodes; with Depth::Nesting only the sets, rcu_rscs and
    /// srcu_rscs have n rows, the other relations none (relations() computes no more there).
    explicit Relations(std::size_t n, Depth depth = Depth::Axioms);
    Nodes nodes;
    // sets (bell, lock.cat)
    NodeSet R, W, M, F, IW, Marked, Plain, Acquire, Release, Noreturn, RMW, LKR, LKW, UL;
    // base relations
    BitRel po, po_loc, loc, int_, ext, rf, co, fr, rmw, addr, data, ctrl;
    BitRel rfe, rfi, coe, fre;
    // basic relations and fences
    BitRel acq_po, po_rel, po_unlock_lock_po, rmb, wmb, mb, gp, strong_fence, nonrw_fence, fence;
    // preserved program order, propagation, happens-before
    BitRel ppo, cumul_fence, prop, hb, pb;
    // RCU
    BitRel rcu_rscs, srcu_rscs, rcu_link, rcu_order, rcu_fence, rb;
    // plain accesses (computed only when the graph has plain accesses)
    BitRel xbstar, plain_incoh, data_race;
    BitRel mixed_accesses{0};  ///< Depth::Flags: plain writes and marked accesses of one location, unseparated
    bool has_rcu = false;
    bool has_plain = false;
    /// RCU or SRCU lock/unlock events that no nesting matches (herd: unbalanced-*-locking).
    bool unbalanced_rcu = false, unbalanced_srcu = false;

private:
    Relations(std::size_t n, std::size_t m);  ///< sets and the nestings over n nodes, the rest over m
};

/// The relations of `g`. With Depth::Axioms the plain-access section is left empty; with
/// Depth::Nesting only the event sets (has_plain among them) and the RCU and SRCU read-side
/// sections (rcu-rscs, srcu-rscs, and whether some is unbalanced) are computed.
Relations relations(const ExecutionGraph& g, Depth depth = Depth::Axioms);

/// The flags of `g` where it has only marked accesses and no SRCU event: then only
/// unbalanced-rcu-locking can fire, and it is found by counting each thread's rcu_read_lock()
/// and rcu_read_unlock() as match_nesting() pairs them, without relations (every complete
/// execution of a search is asked its flags). True, with `unbalanced_rcu` set, when `g` is such
/// a graph; false (nothing set) when it may have a plain access or an SRCU event, where only
/// relations() answers. An access is taken as marked when its tags say once, acquire or
/// release; another one may be plain.
bool rcu_nesting_only(const ExecutionGraph& g, bool& unbalanced_rcu);

/// The first spin_unlock() of `g` that lock.cat's `critical` leaves unmatched (its flag
/// unmatched-unlock: `UL \ range(critical)`): the last lock event of its location before it in
/// its thread is not a lock acquisition (there is none, or it is another unlock).
std::optional<EventId> unmatched_unlock(const ExecutionGraph& g);

/// The first axiom of linux-kernel.cat that `r` violates, in the cat file's order: "coherence",
/// "atomic", "happens-before", "propagation", "rcu", "plain-coherence"; nullopt when none.
std::optional<std::string> violated_axiom(const Relations& r);

}  // namespace oc::lkmm

namespace oc {
class MemoryModel;
/// The Linux-kernel memory model (LKMM) of linux-source 6.1's tools/memory-model.
const MemoryModel& lkmm_model();
}  // namespace oc
