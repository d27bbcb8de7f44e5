// SPDX-License-Identifier: MIT
#include "checker/explore/explore.hpp"

#include "checker/graph/explore.hpp"
#include "checker/relacy/explore.hpp"

namespace oc {

std::string_view to_string(EngineKind e) {
    switch (e) {
    case EngineKind::Relacy: return "relacy";
    case EngineKind::Graph: return "graph";
    }
    return "?";
}

std::optional<EngineKind> parse_engine(std::string_view s) {
    if (s == "relacy") return EngineKind::Relacy;
    if (s == "graph") return EngineKind::Graph;
    return std::nullopt;
}

ExploreResult explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    switch (options.engine) {
    case EngineKind::Graph: return graph_explore(variant, options, sink);
    case EngineKind::Relacy: break;
    }
    return relacy_explore(variant, options, sink);
}

}  // namespace oc
