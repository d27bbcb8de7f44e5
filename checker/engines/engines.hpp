// SPDX-License-Identifier: MIT
// The engines behind the exploration interface (checker/explore/exploration.hpp): which exist,
// what each can do, and explore(), which hands a variant to the one the options name. This is
// the only code that knows the backends (checker/graph/, checker/relacy/); the driver, litmus,
// the models and the command line reach an engine through here and nowhere else.
#pragma once

#include <string>
#include <string_view>

#include "checker/explore/exploration.hpp"

namespace oc {

/// What one engine can do: the questions callers ask before they explore.
struct EngineCapabilities {
    EngineKind engine = EngineKind::Graph;
    /// Largest number of model threads a variant may have.
    unsigned max_threads = 0;
    /// The memory models it judges by.
    bool rc11 = false, lkmm = false, sc = false;
    /// A memory model loaded at run time (ExploreOptions::memory_model: a cat file).
    bool cat = false;
    /// The searches it runs (SearchKind::Full always).
    bool bound = false, random = false;
    /// Prefix sharding (ExploreOptions::shard_count > 1).
    bool shards = false;
    /// Sleep-set reduction (ExploreOptions::reduction): the graph engine needs none (it visits
    /// each execution once), Relacy's is optional.
    bool reduction = false;

    bool judges(ModelKind m) const {
        switch (m) {
        case ModelKind::Rc11: return rc11;
        case ModelKind::Lkmm: return lkmm;
        case ModelKind::Sc: return sc;
        }
        return false;
    }
    bool runs(SearchKind s) const { return s == SearchKind::Full || (s == SearchKind::Bound ? bound : random); }
};

/// What engine `e` can do.
const EngineCapabilities& capabilities(EngineKind e);

/// Explores `variant` with the engine `options.engine` names and feeds each completed execution
/// to `sink`. Throws std::runtime_error for a model the engine cannot run, and
/// std::invalid_argument for options the engine does not support.
ExploreResult explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink);

}  // namespace oc
