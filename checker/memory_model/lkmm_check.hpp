// SPDX-License-Identifier: MIT
// LKMM's consistency check for the graph engine: whether a graph satisfies linux-kernel.cat's
// axioms, the same answer as !violated_axiom(relations(g)) (lkmm.hpp), computed in reused buffers
// and stopped at the first violated axiom.
#pragma once

#include "traces/execution_graph.hpp"

namespace oc::lkmm {

/// Whether `g` satisfies LKMM's axioms (coherence, atomic, happens-before, propagation, rcu,
/// plain-coherence). Without `with_rcu`, the rcu axiom is not asked, and plain-coherence is
/// asked without rb and rcu-fence (weaker): the graph engine's check of a graph that may still
/// grow (MemoryModel::consistent_when_complete() says why).
bool consistent(const ExecutionGraph& g, bool with_rcu = true);

/// For the tests: whether the buffers of the events-only part that consistent() left at the
/// start of this thread's buffers, and takes again without copying for the next graph with the
/// same events, still hold what was kept (no later part of a check wrote into them).
bool kept_events_intact();

/// Whether some event of `g` is an RCU or SRCU lock, unlock or grace period.
bool has_rcu_events(const ExecutionGraph& g);

}  // namespace oc::lkmm
