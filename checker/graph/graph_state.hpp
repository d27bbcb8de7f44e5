// SPDX-License-Identifier: MIT
// The graph the execution-graph engine explores: its events with the engine's bookkeeping (the
// order in which each was added, whether it was added maximally, what a revisit may still
// change), each location's coherence order, and how an RMW or CAS call computes its write part.
// Internal to checker/graph/ (graph_engine_internal.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "checker/model/runtime.hpp"

namespace oc::graph_detail {

// ---- the graph the engine explores ---------------------------------------------------------

/// How an RMW or CAS call computes its write part, so that a revisit can change what it read.
struct RmwSpec {
    bool present = false;  ///< the event comes from Engine::rmw() or Engine::cas()
    bool cas = false;
    RmwOp op = RmwOp::Exchange;
    Value operand = 0;  ///< rmw: new = old OP operand
    Value expected = 0, desired = 0;
    MemoryOrder success = MemoryOrder::Relaxed, failure = MemoryOrder::Relaxed;
};

inline Value apply(RmwOp op, Value old, Value operand) {
    switch (op) {
    case RmwOp::Exchange: return operand;
    case RmwOp::Add: return old + operand;
    case RmwOp::Sub: return old - operand;
    case RmwOp::And: return old & operand;
    case RmwOp::Or: return old | operand;
    case RmwOp::Xor: return old ^ operand;
    }
    return operand;
}

/// One event with the engine's bookkeeping. An RMW has a read part and a write part, each with
/// its own stamp (the order in which the engine added it), as if they were two events.
struct Node {
    Event ev;
    std::uint32_t stamp = 0;   ///< the event, or an RMW's read part
    std::uint32_t wstamp = 0;  ///< an RMW's write part
    bool rmax = true;          ///< read part: it read the co-latest write when it got its rf
    bool wmax = true;          ///< write part: it was placed co-last when added
    /// A waiting read revisited in place: the stamp of the write it then took (0: none). It took
    /// that write as a read added after it would, maximally (GraphEngine::in_place_revisits()).
    std::uint32_t took_in_place = 0;
    /// An RMW or successful-CAS call whose write part is not in the graph yet (its read was
    /// revisited): ev.kind is Read until the replay adds the write part.
    bool pending = false;
    /// False once a backward revisit kept this read in the revisiting write's porf-prefix: the
    /// graph it is in was built by that revisit, and revisiting the read again would build some
    /// graphs twice (GenMC's "stable" reads).
    bool revisitable = true;
    /// Load buffering (LKMM): the read took a guessed value that a write not yet in the graph
    /// may write; ev.reads_from holds a placeholder (the initial write) that the memory model
    /// never sees. Matched with a real write when the execution completes (complete_guessed()).
    bool guessed = false;
    /// Replay dependencies (Runtime::replay_dependencies()): bit i set when whether this event
    /// happens, or what it accesses or writes, may depend on the value of its thread's read at po
    /// index i. All ones: unknown (a C++ model).
    std::uint64_t replay = ~std::uint64_t{0};
    RmwSpec spec;
    /// lkmm_tags_of(ev), and what it was computed from (lkmm_tags())
    mutable std::uint32_t tags = 0, tags_key = 0;
    mutable const char* tags_primitive = nullptr;
    /// lkmm_tags_of(ev) | ev.lkmm: LKMM's tags of the event, its extra tags included, with
    /// lkmm_tags_of() called again only when what it reads changed
    std::uint32_t lkmm_tags() const;
    std::uint32_t write_stamp() const { return ev.kind == EventKind::Rmw ? wstamp : stamp; }
};

struct Graph {
    std::vector<std::vector<Node>> threads{1};  ///< graph threads: 0 init, t+1 model thread t
    std::vector<std::vector<EventId>> co;       ///< per location, the writes in coherence order
    std::uint32_t next_stamp = 1;
    /// A revisit closed a po | rf cycle on the way to this graph (revisits.cpp): a complete
    /// execution from it may have one, and may be built again another way.
    bool cycle_revisited = false;
    /// The memory model found this graph consistent when it was pushed (GraphEngine::push_checked());
    /// the run that pops it need not ask again.
    bool checked = false;

    Node& at(EventId id) { return threads[id.thread][id.index]; }
    const Node& at(EventId id) const { return threads[id.thread][id.index]; }
    bool has(EventId id) const { return id.thread < threads.size() && id.index < threads[id.thread].size(); }
    std::size_t co_position(LocationId loc, EventId w) const {
        const auto& c = co[loc];
        return static_cast<std::size_t>(std::find(c.begin(), c.end(), w) - c.begin());
    }
};

}  // namespace oc::graph_detail
