// SPDX-License-Identifier: MIT
// `ordercheck explain`: draws a variant's witness (or, when asked, one representative execution)
// as DOT, SVG, a text trace, an interleaving diagram (text and SVG) and JSON.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "checker/driver/necessity.hpp"
#include "checker/memory_model/explaining_cycle.hpp"
#include "traces/export.hpp"

namespace oc::cli {

struct ExplainOptions {
    /// false: the focused figure (the explaining cycle's events and edges, the rest folded away);
    /// true: every event, with the relations of `show` (`--show all` or a relation list).
    bool full = false;
    RelationSet show = RelationSet::defaults();
    bool any = false;    ///< no witness: draw the first execution explored instead
    bool force = false;  ///< write into a directory that already holds files
    /// Appended to what the figure shows ("the first execution with the bad outcome" + note).
    std::string note;
    /// When set, says what the witness is instead ("an execution with the outcome ...": diff).
    std::string what;
};

/// What explain wrote (paths) and what it has to say (messages for the user).
struct ExplainResult {
    bool drew = false;                 ///< a graph was drawn
    std::vector<std::filesystem::path> written;
    std::vector<std::string> messages;
    std::optional<ExplainingCycle> cycle;  ///< the witness's explaining cycle, if it has one
};

/// The memory model a report was judged under (LKMM, SC, else RC11: Relacy's C++11 witnesses
/// are RC11-consistent).
const MemoryModel& model_of(const Report& report);

/// The words the report's figures and listings use: LKMM's tags and the kernel's primitives
/// under LKMM, C++11 memory orders under RC11 (and Relacy's C++11 search).
Vocabulary vocabulary_of(const Report& report);

/// Why `show` names a relation `model` does not define ("'zz': LKMM defines no such relation
/// (...)"), nullopt when it names none. The names of RelationKind are always drawn.
std::optional<std::string> unknown_relation(const MemoryModel& model, const RelationSet& show);

/// The explaining cycle of the report's witness; nullopt without a witness, for an engine
/// failure, or when the model answers with no cycle (`why` then says why).
std::optional<ExplainingCycle> cycle_of(const Report& report, std::string* why = nullptr);

/// The focused figure's content: the cycle's events and steps, its barriers; without a cycle
/// the stale reads, the writes they read from and the writes they miss. nullopt when that
/// leaves nothing to show (draw the full figure instead).
std::optional<Focus> focus_of(const ExecutionGraph& g, const std::optional<ExplainingCycle>& cycle);

/// The cycle as text: heading, the one-line cycle, one line per step with its source, the
/// barrier, and the prose paragraph wrapped at `width` columns, each line after `indent`.
std::string cycle_text(const ExecutionGraph& g, const ExplainingCycle& c, std::string_view indent = "",
                       std::size_t width = 100);

/// The cycle as JSON (keys sorted): model, kind, axiom, relation, barrier_relation, steps with
/// events, labels and sources, line, prose.
std::string cycle_json(const ExecutionGraph& g, const ExplainingCycle& c);

/// What best explains `variant`'s bad outcome, given its `report`: for a declared mutant
/// (VariantDef::derived), its base explored with the barrier weakened, whose witness has a cycle
/// through that barrier; else, when the witness's only cycle is "not SC", an execution with the
/// bad outcome and no reordering at all, if the variant has one; else `report`. `note` is set to
/// what the figure's title adds ("" for `report` itself). Throws std::invalid_argument for a
/// derivation that names no base or barrier.
Report explaining_report(const VariantDef& variant, Report report, const std::vector<ModelDef>& models,
                         const CheckOptions& options, std::string& note);

/// The figure of the report's witness as DOT: focused unless `options.full`.
std::string witness_dot(const Report& report, const ExecutionGraph& g, const ExplainOptions& options,
                        const std::optional<ExplainingCycle>& cycle, const std::string& title);

/// The events a figure highlights: stale reads (a write co-after the one they read from had
/// already executed when they ran: the weak behaviour in the witness), and for an engine
/// failure the last event of each thread.
std::set<EventId> highlighted_events(const ExecutionGraph& g, bool engine_failure);

/// Writes the figures of `report` into `dir` (created if needed). Throws std::runtime_error for a
/// directory that holds files when `force` is not set, or a write that fails.
ExplainResult explain(const Report& report, const ExplainOptions& options, const std::filesystem::path& dir);

}  // namespace oc::cli
