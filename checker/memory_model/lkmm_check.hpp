// SPDX-License-Identifier: MIT
// LKMM's consistency check for the graph engine: whether a graph satisfies linux-kernel.cat's
// axioms, the same answer as !violated_axiom(relations(g)) (lkmm.hpp), computed in reused buffers
// and stopped at the first violated axiom.
#pragma once

#include "traces/execution_graph.hpp"

namespace oc::lkmm {

/// Whether `g` satisfies LKMM's axioms (coherence, atomic, happens-before, propagation, rcu,
/// plain-coherence).
bool consistent(const ExecutionGraph& g);

}  // namespace oc::lkmm
