// SPDX-License-Identifier: MIT
#include "checker/explore/exploration.hpp"


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

std::string_view to_string(ModelKind m) {
    switch (m) {
    case ModelKind::Rc11: return "RC11";
    case ModelKind::Lkmm: return "LKMM";
    case ModelKind::Sc: return "SC";
    }
    return "?";
}

std::optional<ModelKind> parse_model(std::string_view s) {
    if (s == "rc11" || s == "RC11") return ModelKind::Rc11;
    if (s == "lkmm" || s == "LKMM") return ModelKind::Lkmm;
    return std::nullopt;
}

}  // namespace oc
