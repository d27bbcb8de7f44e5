// SPDX-License-Identifier: MIT
// The rows of an interleaving (swimlane) diagram: the model threads' events in execution order,
// with consecutive events of one primitive call merged into one row. Shared by the text and SVG
// exporters.
#pragma once

#include "traces/execution_graph.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace oc {

/// One row: a cell in one thread's column.
struct InterleavingRow {
    std::size_t thread = 0;      ///< graph thread (>= 1; init is summarised separately)
    std::string cell;            ///< `R.acq flag=1`, or `set_bit(map) = 0` for a primitive call
    std::vector<EventId> events; ///< the events the row stands for, in po order
    bool at_quiescence = false;  ///< run after every thread finished
};

/// The rows, by Event::step: what the program run executes. Consecutive events (in execution
/// order) of one thread with the same non-empty `primitive` and the same `op` form one row
/// `primitive(locations)`, followed by ` = v1,v2` for the values read or, for pure writes,
/// ` := v` for the values written; a lone event without a primitive shows its event_label in
/// `vocabulary`. A weakened call is named by the form that runs (executed_primitive()); a fence
/// a weakening removed is not drawn (it stays in the graph only for the explaining cycle).
std::vector<InterleavingRow> interleaving_rows(const ExecutionGraph& g, Vocabulary vocabulary);

/// The primitive a call of `written` runs as when `weakened`, one of its events, is weakened:
/// smp_mb() to a release fence is smp_wmb(), to an acquire fence smp_rmb();
/// smp_load_acquire()/smp_store_release() made relaxed are READ_ONCE()/WRITE_ONCE(); another
/// primitive made relaxed (a fully ordered RMW without its fences) is its `_relaxed` form.
std::string executed_primitive(std::string_view written, const Event& weakened);

/// "init: x=0 y=0" (the init writes), or "" if there are none.
std::string init_summary(const ExecutionGraph& g);

}  // namespace oc
