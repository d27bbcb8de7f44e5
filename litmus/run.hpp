// SPDX-License-Identifier: MIT
// Runs a litmus test through the driver's check(), derives herd's view of the result (States,
// Positive/Negative, Observation) and judges it against the file's `Result:` annotation the
// way the kernel's judgelitmus.sh does.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "litmus/def_table.hpp"
#include "litmus/interpreter.hpp"

namespace oc::litmus {

struct LitmusOptions {
    std::uint64_t max_executions = 0;  ///< per search; 0: no limit (a search cut short settles nothing)
    double timeout_seconds = 0;
    bool certify = true;               ///< check every execution against RC11 (CheckOptions::certify)
    bool reduction = true;             ///< partial-order reduction (ExploreOptions::reduction)
    bool cycle_revisits = true;        ///< load-buffering cycles by revisits (ExploreOptions::cycle_revisits)
    /// The graph engine (every RC11-consistent execution once: Positive/Negative count
    /// executions as herd does) or Relacy (interleavings; ordercheck-engine: annotations apply).
    EngineKind engine = EngineKind::Graph;
    /// The memory model (graph engine): LKMM judges the test by its Result: line as herd7 with
    /// the kernel's model does; RC11 by the C++11 mapping (ordercheck-mapping: annotations apply).
    ModelKind model = ModelKind::Rc11;
    /// A model loaded at run time (a cat file) judging in place of `model`'s, which names the
    /// role it plays (ExploreOptions::memory_model).
    const MemoryModel* memory_model = nullptr;
    /// Iterations a loop that is not an await may run (docs/litmus.md, "Loops"); an execution
    /// that needs more is cut, and the run is then bounded.
    unsigned unroll = default_unroll;
    /// Runs one search of the test (`check()` when unset). The command line sets it to split
    /// the search over worker processes (`litmus --jobs`); nullopt: interrupted before it
    /// produced a report.
    std::function<std::optional<Report>(const VariantDef&, const CheckOptions&)> runner;
};

enum class Judgement : std::uint8_t {
    Match,       ///< the observation (and the data-race flag) is what the annotation says
    Mismatch,    ///< it is not
    Incomplete,  ///< the search was cut short and settled nothing
    Bounded,     ///< some execution needed more loop iterations than the unroll bound: no verdict
    Unjudged,    ///< no `Result:` annotation
    Error,       ///< the engine stopped on something else (an assertion, a bad dereference)
};
std::string_view to_string(Judgement j);

/// One distinct final state over Program::observed, with how many executions ended in it.
struct LitmusState {
    std::vector<Value> values;
    std::uint64_t executions = 0;
};

struct LitmusResult {
    std::shared_ptr<const Compiled> test;
    Report report;                        ///< the race-checking run
    std::optional<Report> outcome_report; ///< the plain-as-relaxed run, after a data race
    std::vector<LitmusState> states;      ///< executions passing the filter, sorted by values
    std::uint64_t positive = 0;           ///< executions (passing the filter) where the proposition holds
    std::uint64_t negative = 0;
    bool ok = false;                      ///< herd's Ok: the quantified condition holds
    bool datarace = false;                ///< the race-checking run found a data race (LKMM: the data-race flag)
    std::vector<std::string> flags;       ///< the memory model's flags (LKMM), as herd prints them
    bool deadlock = false;                ///< an execution could not finish (deadlock or livelock)
    Verdict observation = Verdict::Never; ///< Never (P = 0), Always (N = 0), else Sometimes
    /// A budget or a timeout stopped a search: the states and counts are what it saw so far, and
    /// the herd-like output prints no Observation line (scripts read that line as the verdict).
    bool cut_short = false;
    std::string cut_detail;  ///< why, when no budget, timeout or signal did (Report::cut_detail)
    /// Runs cut at the unroll bound (a loop that is not an await needed more iterations): the
    /// search covered only the executions within the bound, and the herd-like output prints no
    /// Observation line but a `Bounded` one (herd7 flags such a run `Loop`).
    std::uint64_t unroll_cuts = 0;
    unsigned unroll = default_unroll;
    std::string error;                    ///< set for Judgement::Error: what the engine said
    Judgement judgement = Judgement::Unjudged;
    std::string judgement_text;           ///< one line: why
    double parse_seconds = 0, run_seconds = 0;
};

/// Parses and compiles a test file (throws LitmusError).
/// `macros`: the configuration's linux-kernel.def, which then says what each primitive is
/// (def_table.hpp); nullptr: ordercheck's own table (litmus/primitive_table.cpp).
std::shared_ptr<const Compiled> load(const std::string& path, const MacroTable* macros = nullptr);

/// Explores the test (twice when the first run finds a data race) and judges it.
LitmusResult run(const std::shared_ptr<const Compiled>& test, const LitmusOptions& options);

/// herd-like output: Test, States, Ok/No, Witnesses, Positive/Negative, Flag data-race,
/// Condition, Observation, Time, then the judgement line. For a search cut short, no Ok/No and no
/// Observation: an `Incomplete` line instead (what herd7 killed by a timeout leaves is no
/// Observation line either; docs/litmus.md); for a run cut at the unroll bound, a `Bounded` line.
std::string format_herd(const LitmusResult& r);

}  // namespace oc::litmus
