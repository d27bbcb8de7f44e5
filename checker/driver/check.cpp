// SPDX-License-Identifier: MIT
#include "checker/driver/check.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "checker/driver/necessity.hpp"
#include "traces/consistency.hpp"

namespace oc {

std::string_view to_string(Exploration e) {
    switch (e) {
    case Exploration::Exhaustive: return "exhaustive";
    case Exploration::Bounded: return "bounded";
    case Exploration::Sampled: return "sampled";
    case Exploration::CutShort: return "cut short";
    case Exploration::UntilFailure: return "until failure";
    }
    return "?";
}

std::string_view to_string(Status s) {
    switch (s) {
    case Status::Pass: return "pass";
    case Status::Fail: return "FAIL";
    case Status::Incomplete: return "incomplete";
    }
    return "?";
}

Status judge(const std::optional<Finding>& finding, const Expectation& expect, Exploration exploration) {
    const Finding wanted = expect.engine_answer();
    if (!finding) return exploration == Exploration::Exhaustive ? Status::Fail : Status::Incomplete;
    const bool matches = *finding == wanted;
    if (exploration == Exploration::Exhaustive) return matches ? Status::Pass : Status::Fail;
    // A partial search settles only what it witnessed: an engine failure, or both a good and a
    // bad execution (Sometimes). "Never" and "Always" need the whole search.
    const bool witnessed =
        std::holds_alternative<EngineFailure>(*finding) || *finding == Finding{Verdict::Sometimes};
    if (witnessed) return matches ? Status::Pass : Status::Fail;
    // Found Always while Never was expected: the bad outcome was witnessed.
    if (*finding == Finding{Verdict::Always} && wanted == Finding{Verdict::Never}) return Status::Fail;
    return Status::Incomplete;
}

Report check(const VariantDef& variant, const CheckOptions& options) {
    Report report;
    report.id = variant.id();
    report.summary = variant.summary;
    report.expect = variant.expect;

    std::map<std::vector<Value>, OutcomeRecord> outcomes;
    std::vector<Value> min_metric, max_metric;
    std::uint64_t positive = 0, executions = 0;
    std::optional<ExecutionGraph> witness;
    std::map<std::vector<Value>, ExecutionGraph> outcome_graphs;
    // Every distinct execution graph, and whether it is RC11-consistent. Certifying each distinct
    // graph once certifies every execution: consistency is a property of the graph.
    std::unordered_map<std::uint64_t, bool> distinct;
    const bool certify = options.certify && options.explore.capture;

    const ExecutionSink sink = [&](const ExecutionGraph& graph, const FinalState& state) {
        if (options.explore.capture) {
            auto [it, fresh] = distinct.try_emplace(canonical_hash(graph), true);
            if (fresh && certify) {
                if (auto violation = check_rc11(graph)) {
                    it->second = false;
                    if (!report.rejected_graph) {
                        report.first_rejection = describe(graph, *violation);
                        report.rejected_graph = graph;
                    }
                }
            }
            if (!it->second) {
                ++report.rejected;
                return;
            }
            if (fresh && options.collect_sites) collect_sites(graph, report.sites);
        }
        ++executions;
        if (options.keep_first_execution && !report.first_execution) report.first_execution = graph;
        if (state.bad_outcome) {
            ++positive;
            if (!witness) witness = graph;
        }
        auto [it, inserted] = outcomes.try_emplace(state.observables);
        if (inserted) {
            it->second.values = state.observables;
            it->second.bad_outcome = state.bad_outcome;
            if (options.keep_outcome_witnesses) outcome_graphs.emplace(state.observables, graph);
        }
        ++it->second.executions;
        if (min_metric.empty()) {
            min_metric = state.metrics;
            max_metric = state.metrics;
        } else {
            for (std::size_t i = 0; i < state.metrics.size() && i < min_metric.size(); ++i) {
                min_metric[i] = std::min(min_metric[i], state.metrics[i]);
                max_metric[i] = std::max(max_metric[i], state.metrics[i]);
            }
        }
    };

    ExploreResult r = explore(variant, options.explore, sink);

    report.executions = executions;
    report.positive = positive;
    report.distinct_executions = static_cast<std::uint64_t>(
        std::count_if(distinct.begin(), distinct.end(), [](const auto& d) { return d.second; }));
    report.seconds = r.seconds;
    report.observable_names = r.observable_names;
    for (auto& [values, rec] : outcomes) {
        report.outcomes.push_back(rec);
        if (options.keep_outcome_witnesses) report.outcome_witnesses.push_back(outcome_graphs.at(values));
    }
    for (std::size_t i = 0; i < r.metric_names.size() && i < min_metric.size(); ++i)
        report.metrics.push_back(MetricRange{r.metric_names[i], min_metric[i], max_metric[i]});

    if (r.failure)
        report.exploration = Exploration::UntilFailure;
    else if (r.cut_short)
        report.exploration = Exploration::CutShort;
    else if (options.explore.search == SearchKind::Bound)
        report.exploration = Exploration::Bounded;
    else if (options.explore.search == SearchKind::Random)
        report.exploration = Exploration::Sampled;
    else
        report.exploration = Exploration::Exhaustive;

    if (r.failure) {
        report.finding = *r.failure;
        report.failure_detail = r.failure_detail;
        report.replay = r.replay;
        report.witness = std::move(r.failure_graph);
    } else if (executions > 0) {
        report.finding = positive == 0 ? Verdict::Never : positive == executions ? Verdict::Always : Verdict::Sometimes;
        report.witness = std::move(witness);
    }
    report.status = judge(report.finding, report.expect, report.exploration);
    // An inconsistent execution is an engine or capture defect: the report cannot be trusted
    // unless the model declares the engine's known defect.
    if (report.rejected > 0 && report.expect.engine_inconsistency_note.empty()) report.status = Status::Fail;
    return report;
}

}  // namespace oc
