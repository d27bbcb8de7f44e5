// SPDX-License-Identifier: MIT
// The execution-graph engine: explores the consistent execution graphs of a variant, each
// exactly once, under a named memory model (memory_model.hpp). docs/graph-engine.md describes
// the algorithm, its blocking semantics and how it is tested.
#pragma once

#include "checker/explore/exploration.hpp"

namespace oc {

class MemoryModel;

/// Explores `variant` under the memory model `options.model` names (RC11, LKMM or SC; full search
/// only; shards supported) and feeds each complete
/// consistent execution to `sink`. Throws std::invalid_argument for a bounded or random search,
/// std::runtime_error for a model whose replay diverges (it is not deterministic).
ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink);

/// The same under an explicit memory model.
ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                            const MemoryModel& model);

}  // namespace oc
