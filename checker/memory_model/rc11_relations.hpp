// SPDX-License-Identifier: MIT
// The base relations RC11 is computed from (po, rf, co, fr over densely numbered events) and
// RC11's data race, shared by RC11 (rc11.cpp) and SC (sc.cpp), which is their acyclicity.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "traces/execution_graph.hpp"

namespace oc::rc11 {

struct Dense {
    std::vector<const Event*> ev;
    std::vector<std::size_t> thread_start;  // dense index of each graph thread's first event
    std::size_t index(EventId id) const { return thread_start[id.thread] + id.index; }
};

/// The base relations of one graph.
struct Base {
    explicit Base(std::size_t n) : po(n), rf(n), co(n), fr(n), src(n, n) {}
    Dense d;
    BitRel po, rf, co, fr;
    std::vector<std::size_t> src;  ///< each read's rf source (n: none)
};

/// The base relations of `g`.
Base base_relations(const ExecutionGraph& g);

/// A data race of `g` as RC11 defines it, nullopt if none.
std::optional<std::pair<EventId, EventId>> rc11_race(const ExecutionGraph& g);

}  // namespace oc::rc11
