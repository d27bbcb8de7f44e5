// SPDX-License-Identifier: MIT
#include "checker/model/model.hpp"

namespace oc {

std::string_view to_string(Verdict v) {
    switch (v) {
    case Verdict::Never: return "Never";
    case Verdict::Sometimes: return "Sometimes";
    case Verdict::Always: return "Always";
    }
    return "?";
}

std::string_view to_string(EngineFailure f) {
    switch (f) {
    case EngineFailure::DataRace: return "DataRace";
    case EngineFailure::Deadlock: return "Deadlock";
    case EngineFailure::Livelock: return "Livelock";
    case EngineFailure::AssertFailed: return "AssertFailed";
    case EngineFailure::UninitialisedAccess: return "UninitialisedAccess";
    case EngineFailure::Other: return "OtherFailure";
    }
    return "?";
}

std::string to_string(const Finding& f) {
    return std::visit([](auto x) { return std::string(to_string(x)); }, f);
}

std::optional<Finding> parse_finding(std::string_view s) {
    for (Verdict v : {Verdict::Never, Verdict::Sometimes, Verdict::Always})
        if (s == to_string(v)) return Finding{v};
    for (EngineFailure f : {EngineFailure::DataRace, EngineFailure::Deadlock, EngineFailure::Livelock,
                            EngineFailure::AssertFailed, EngineFailure::UninitialisedAccess, EngineFailure::Other})
        if (s == to_string(f)) return Finding{f};
    return std::nullopt;
}

}  // namespace oc
