// SPDX-License-Identifier: MIT
// check(): explore one variant and fold its executions into a Report (plain data, no printing).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/model/model.hpp"
#include "checker/driver/sites.hpp"
#include "checker/engines/engines.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

/// What was explored; only `Exhaustive` may be called a proof.
enum class Exploration : std::uint8_t {
    Exhaustive,  ///< full search ran to completion
    Bounded,     ///< context-bounded search (complete or not, it skips schedules)
    Sampled,     ///< random executions
    CutShort,    ///< a budget or timeout stopped the search
    UntilFailure,  ///< the engine stopped at the first failing execution (a data race...)
    Shard,       ///< one shard of a full search ran to completion (a part; merge settles it)
};
std::string_view to_string(Exploration e);

/// How a report stands against its expectation.
enum class Status : std::uint8_t {
    Pass,        ///< the finding matches the expectation, and the exploration settles it
    Fail,        ///< the finding contradicts the expectation (a witness or a complete search shows it)
    Incomplete,  ///< the exploration was not exhaustive and found nothing that settles it
    Unjudged,    ///< no expectation to judge against (a litmus test without a Result: line)
};
std::string_view to_string(Status s);

/// One distinct final state.
struct OutcomeRecord {
    std::vector<Value> values;     ///< in the order of Report::observable_names
    bool bad_outcome = false;
    std::uint64_t executions = 0;  ///< executions that ended in it
    std::uint64_t distinct = 0;    ///< distinct execution graphs among them (== executions under the graph engine)
    /// Their canonical hashes, with CheckOptions::keep_execution_hashes: what shard reports are
    /// merged by (shards may share an execution: an await's, docs/graph-engine.md).
    std::vector<std::uint64_t> hashes;
    auto operator<=>(const OutcomeRecord&) const = default;
};

struct MetricRange {
    std::string name;
    Value min = 0, max = 0;
    auto operator<=>(const MetricRange&) const = default;
};

/// Whether partial-order reduction was used, as the report must say.
enum class Reduction : std::uint8_t {
    Off,        ///< not asked for (--no-por), or a search it does not apply to (bound, random)
    SleepSets,  ///< sleep-set reduction
    FellBack,   ///< asked for, but the variant was explored with the full search (see reduction_note)
    Optimal,    ///< the graph engine: every execution graph once, no interleavings
};
std::string_view to_string(Reduction r);

/// Which part of a sharded search a report covers.
struct ShardInfo {
    unsigned index = 0;
    unsigned count = 1;              ///< 1: not sharded
    unsigned prefix_depth = 0;       ///< thread choices fixed by a prefix
    std::uint64_t prefixes = 0;      ///< prefixes of the whole tree
    std::uint64_t shard_prefixes = 0;  ///< prefixes this shard explored
    /// Shard 0 explored the whole tree, the others nothing (`whole_tree_why` says why: the
    /// prefix enumeration met an engine failure, or the search cannot be split exactly).
    bool whole_tree_in_shard_zero = false;
    std::string whole_tree_why;
    std::vector<unsigned> merged;    ///< in a merged report: the shard indices it combines
    auto operator<=>(const ShardInfo&) const = default;
};

/// What `--engine both` found when it compared the engines on one variant.
struct CrossCheck {
    std::uint64_t relacy_distinct = 0;    ///< distinct executions Relacy explored (spin-free ones)
    std::uint64_t relacy_with_spins = 0;  ///< ... and those with a failed spin iteration (compared by outcome)
    std::uint64_t missing = 0;            ///< Relacy executions the graph engine did not find
    std::uint64_t missing_outcomes = 0;   ///< Relacy outcomes the graph engine did not reach
    std::optional<ExecutionGraph> first_missing;  ///< the first missing execution
    std::string relacy_verdict;           ///< Relacy's finding, for the report
    std::string relacy_exploration;
    auto operator<=>(const CrossCheck&) const = default;
};

struct Report {
    std::string id;
    std::string summary;
    /// The expectation this report is judged against: under the graph engine, the memory model's
    /// answer (a variant's engine_finds() notes record Relacy's gaps and apply to Relacy only).
    Expectation expect;
    EngineKind engine = EngineKind::Relacy;
    /// "RC11", "LKMM" (graph engine), "C++11 (Relacy)", or a cat model's description()
    /// (`cat: FILE ("TITLE")`): what judged, for people to read.
    std::string memory_model;
    /// The role of the model that judged (graph engine): its expectations, flags and race
    /// semantics. A cat model with the kernel's event tags plays LKMM's.
    ModelKind model_kind = ModelKind::Rc11;
    /// Graph engine: executions that ended with a thread waiting at an await whose value could
    /// still change in another branch (not complete executions; not in `executions`).
    std::uint64_t blocked = 0;
    /// Graph engine with ExploreOptions::livelock_ends_search off (litmus tests): runs in which
    /// a thread waited forever, no executions (herd7 counts none), and what the first one said.
    std::uint64_t livelocked = 0;
    std::string livelock_detail;
    /// Graph engine under LKMM: executions left out as out of thin air, and those kept with a
    /// cycle of copies (ExploreResult::thin_air, thin_air_copies).
    std::uint64_t thin_air = 0, thin_air_copies = 0;
    /// Runs cut at the unroll bound (VariantDef::unroll): when any was, the search covered only
    /// the executions within the bound (`unroll`), the exploration is Bounded and a pass is
    /// Incomplete: never a proof.
    std::uint64_t unroll_cuts = 0;
    unsigned unroll = 0;
    std::optional<CrossCheck> cross_check;  ///< set by --engine both
    std::optional<Finding> finding;   ///< unset when no execution completed
    Exploration exploration = Exploration::Exhaustive;
    Status status = Status::Incomplete;
    std::uint64_t executions = 0;     ///< completed executions explored
    std::uint64_t positive = 0;       ///< ... in which the bad outcome held
    /// ... that the model's filter excludes (a litmus `filter`): in no verdict, not in positive.
    std::uint64_t filtered = 0;
    std::uint64_t distinct_executions = 0;  ///< distinct execution graphs among them (canonical_hash)
    /// Executions the engine reported that the certification rejected (not consistent under the
    /// memory model judged by: RC11's independent certifier, or LKMM's predicate): not counted above.
    std::uint64_t rejected = 0;
    std::string first_rejection;      ///< the axiom and cycle of the first rejected execution
    /// The memory model's flags raised by some execution (LKMM: "data-race",
    /// "unbalanced-rcu-locking"...; herd prints them as `Flag NAME`), sorted.
    std::vector<std::string> flags;
    std::optional<ExecutionGraph> rejected_graph;  ///< that execution
    std::vector<std::string> observable_names;
    std::vector<OutcomeRecord> outcomes;  ///< sorted by values
    std::vector<MetricRange> metrics;
    /// The first execution with the bad outcome, or the execution the engine stopped on.
    std::optional<ExecutionGraph> witness;
    /// The first execution explored (kept when CheckOptions::keep_first_execution is set).
    std::optional<ExecutionGraph> first_execution;
    /// The ordering sites seen (CheckOptions::collect_sites), with what each carries.
    std::map<Site, SiteKinds> sites;
    /// One execution per distinct outcome, parallel to `outcomes` (keep_outcome_witnesses).
    std::vector<ExecutionGraph> outcome_witnesses;
    std::string failure_detail;
    /// Why the search was cut short, when no budget, timeout or signal did (ExploreResult::cut_detail).
    std::string cut_detail;
    std::string replay;
    std::string witness_path;  ///< where the CLI wrote the witness figures, if it did
    double seconds = 0;
    std::vector<SearchRound> rounds;  ///< ExploreResult::rounds (`litmus --time` prints them)

    // ---- accounting (docs/performance.md) ----
    /// Interleavings the engine ran: every iteration of its search, those the reduction knew to
    /// be redundant, rejected ones and a failing one included.
    std::uint64_t interleavings = 0;
    std::uint64_t redundant_interleavings = 0;  ///< of them, known redundant when they ran
    Reduction reduction = Reduction::Off;
    std::string reduction_note;      ///< why the reduction fell back
    /// The canonical hashes of the distinct consistent (certified) executions, sorted
    /// (CheckOptions::keep_execution_hashes): what shard reports are merged by.
    std::vector<std::uint64_t> execution_hashes;
    ShardInfo shard;
    /// Estimated fraction of the search tree explored when it stopped (1 when complete).
    double fraction = 0;

    std::uint64_t negative() const { return executions - filtered - positive; }
    /// Distinct final states (outcomes).
    std::uint64_t distinct_outcomes() const { return outcomes.size(); }
    /// Interleavings per distinct execution: what an optimal explorer would save (0 when none).
    double interleavings_per_execution() const {
        return distinct_executions == 0 ? 0.0
                                        : static_cast<double>(interleavings) / static_cast<double>(distinct_executions);
    }
};

/// A progress snapshot of a running check.
struct CheckProgress {
    std::string id;
    std::uint64_t interleavings = 0;
    std::uint64_t distinct_executions = 0;
    double elapsed_seconds = 0;
    double fraction = -1;  ///< estimated fraction done, negative when unknown
};

struct CheckOptions {
    ExploreOptions explore;
    /// Run the graph engine and Relacy and check that every execution Relacy finds is one the
    /// graph engine finds (the report is the graph engine's, with CrossCheck filled in).
    bool cross_check = false;
    /// Check every execution against the memory model's axioms before it counts (needs capture):
    /// RC11's independent certifier (checker/memory_model/rc11_certify.hpp), or under LKMM its
    /// predicate.
    bool certify = true;
    /// Keep the first (certified) execution in Report::first_execution.
    bool keep_first_execution = false;
    /// Collect the ordering sites of every distinct execution into Report::sites.
    bool collect_sites = false;
    /// Keep one witness execution per distinct outcome in Report::outcome_witnesses.
    bool keep_outcome_witnesses = false;
    /// Fill Report::execution_hashes (shards, parallel runs, tests).
    bool keep_execution_hashes = false;
    /// Called about every ExploreOptions::progress_interval seconds while the search runs.
    std::function<void(const CheckProgress&)> progress;
    /// `--model auto`: each variant is judged under default_memory_model() (explore.model is
    /// ignored) when the graph engine runs alone.
    bool model_per_variant = false;
};

/// Whether the variant is written with the kernel's primitives: every atomic access and fence of
/// its first execution comes from one (READ_ONCE, smp_mb, set_bit, spin_lock...; litmus tests
/// are), plain accesses aside. A model that uses C++11 atomics or fences directly is not.
bool written_with_kernel_primitives(const VariantDef& variant);

/// Whether the graph engine searches `variant` under `options` in load-buffering rounds (a model
/// with kernel events: LKMM, or a cat model with the kernel's tags). Such a search is split over
/// threads of one process (ExploreOptions::threads), not into shards in several: each shard would
/// run every round whole, and the search proper would not be split anyway.
bool searched_in_rounds(const VariantDef& variant, const CheckOptions& options);

/// The memory model `--model auto` judges a variant under: LKMM for a variant written with the
/// kernel's primitives, RC11 for one written with C++11 atomics; RC11 (the C++11 mapping) under
/// Relacy, which has no LKMM.
ModelKind default_memory_model(const VariantDef& variant, EngineKind engine);

/// The report was judged under LKMM: the built-in model, or a cat model with the kernel's tags.
inline bool judged_as_lkmm(const Report& r) {
    return r.memory_model == "LKMM" || (r.engine == EngineKind::Graph && r.model_kind == ModelKind::Lkmm);
}

/// The name of the memory model `options` select, as reports print it: "RC11", "LKMM", or the
/// description() of the model loaded at run time (ExploreOptions::memory_model).
std::string model_name(const ExploreOptions& options);

/// Explores `variant` and judges the result against its expectation.
Report check(const VariantDef& variant, const CheckOptions& options);

/// Combines the reports of shards of one variant (same id and shard count) into one report, as
/// if one search had explored them: distinct executions are the union of their hashes, outcome
/// counts add up. It is `exhaustive` only if every shard is present and completed its part.
/// Throws std::invalid_argument for reports that do not belong together.
Report merge_shards(const std::vector<Report>& shards);

/// The expectation a report under `engine` and `model` is judged against: the graph engine is
/// judged against the memory model's answer (engine_finds() notes record Relacy's gaps and apply
/// to Relacy only); under LKMM, against the variant's LKMM answer (under_lkmm()), which is its
/// RC11 answer where it states none.
Expectation expectation_for(const Expectation& e, EngineKind engine, ModelKind model = ModelKind::Rc11);

/// Judges a finding against an expectation given how it was explored.
Status judge(const std::optional<Finding>& finding, const Expectation& expect, Exploration exploration);

}  // namespace oc
