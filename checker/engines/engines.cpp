// SPDX-License-Identifier: MIT
#include "checker/engines/engines.hpp"

#include <stdexcept>

#include "checker/graph/graph_engine.hpp"
#include "checker/model/runtime.hpp"
#include "checker/relacy/relacy_engine.hpp"

namespace oc {

const EngineCapabilities& capabilities(EngineKind e) {
    static const EngineCapabilities graph{.engine = EngineKind::Graph,
                                          .max_threads = max_threads,
                                          .rc11 = true, .lkmm = true, .sc = true, .cat = true,
                                          .bound = false, .random = false,
                                          .shards = true,
                                          .reduction = false};
    static const EngineCapabilities relacy{.engine = EngineKind::Relacy,
                                           .max_threads = relacy_max_threads,
                                           .rc11 = true, .lkmm = false, .sc = false, .cat = false,
                                           .bound = true, .random = true,
                                           .shards = true,
                                           .reduction = true};
    return e == EngineKind::Relacy ? relacy : graph;
}

ExploreResult explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    switch (options.engine) {
    case EngineKind::Graph: return graph_explore(variant, options, sink);
    case EngineKind::Relacy: break;
    }
    if (options.memory_model != nullptr)
        throw std::invalid_argument("ordercheck: Relacy explores C++11 only; a cat model needs the graph engine "
                                    "(--engine graph)");
    if (options.model != ModelKind::Rc11)
        throw std::invalid_argument("ordercheck: Relacy explores C++11 only; " + std::string(to_string(options.model)) +
                                    " needs the graph engine (--engine graph)");
    return relacy_explore(variant, options, sink);
}

}  // namespace oc
