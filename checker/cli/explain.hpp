// SPDX-License-Identifier: MIT
// `ordercheck explain`: draws a variant's witness (or, when asked, one representative execution)
// as DOT, SVG, a text trace, an interleaving diagram (text and SVG) and JSON.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "traces/export.hpp"

namespace oc::cli {

struct ExplainOptions {
    RelationSet show = RelationSet::defaults();
    bool any = false;    ///< no witness: draw the first execution explored instead
    bool force = false;  ///< write into a directory that already holds files
};

/// What explain wrote (paths) and what it has to say (messages for the user).
struct ExplainResult {
    bool drew = false;                 ///< a graph was drawn
    std::vector<std::filesystem::path> written;
    std::vector<std::string> messages;
};

/// The events a figure highlights: stale reads (a write co-after the one they read from had
/// already executed when they ran: the weak behaviour in the witness), and for an engine
/// failure the last event of each thread.
std::set<EventId> highlighted_events(const ExecutionGraph& g, bool engine_failure);

/// Writes the figures of `report` into `dir` (created if needed). Throws std::runtime_error for a
/// directory that holds files when `force` is not set, or a write that fails.
ExplainResult explain(const Report& report, const ExplainOptions& options, const std::filesystem::path& dir);

}  // namespace oc::cli
