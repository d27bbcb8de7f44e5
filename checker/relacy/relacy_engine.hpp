// SPDX-License-Identifier: MIT
// Runs one variant under Relacy's scheduler. This header is Relacy-free; relacy_engine.cpp is the
// only translation unit of the project that includes <relacy/relacy.hpp>.
#pragma once

#include "checker/explore/exploration.hpp"

namespace oc {

/// Largest number of model threads Relacy's suite is instantiated for.
inline constexpr unsigned relacy_max_threads = 6;

/// Explores `variant` under Relacy (full, bounded or random search) and feeds each completed
/// execution to `sink`. Throws std::runtime_error for a model Relacy cannot run (too many
/// threads or locations, model too large).
ExploreResult relacy_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink);

}  // namespace oc
