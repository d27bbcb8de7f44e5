// SPDX-License-Identifier: MIT
#include "checker/driver/check.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "checker/driver/sites.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/memory_model/rc11_certify.hpp"
#include "checker/engines/engines.hpp"

namespace oc {

std::string_view to_string(Exploration e) {
    switch (e) {
    case Exploration::Exhaustive: return "exhaustive";
    case Exploration::Bounded: return "bounded";
    case Exploration::Sampled: return "sampled";
    case Exploration::CutShort: return "cut short";
    case Exploration::UntilFailure: return "until failure";
    case Exploration::Shard: return "shard";
    }
    return "?";
}

std::string_view to_string(Reduction r) {
    switch (r) {
    case Reduction::Off: return "off";
    case Reduction::SleepSets: return "sleep sets";
    case Reduction::FellBack: return "fell back to full search";
    case Reduction::Optimal: return "optimal (execution graphs)";
    }
    return "?";
}

std::string_view to_string(Status s) {
    switch (s) {
    case Status::Pass: return "pass";
    case Status::Fail: return "FAIL";
    case Status::Incomplete: return "incomplete";
    case Status::Unjudged: return "unjudged";
    }
    return "?";
}

Status judge(const std::optional<Finding>& finding, const Expectation& expect, Exploration exploration) {
    if (!expect.judged) return Status::Unjudged;
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

Expectation expectation_for(const Expectation& e, EngineKind engine, ModelKind model) {
    if (engine == EngineKind::Relacy) return e;
    Expectation g = e;
    g.engine.reset();
    g.engine_note = {};
    g.engine_inconsistency_note = {};
    if (model == ModelKind::Lkmm && !e.lkmm_why.empty()) g.why = e.lkmm_why;
    if (model == ModelKind::Lkmm && e.lkmm) {
        g.memory_model = *e.lkmm;
        if (!e.lkmm_note.empty()) g.why = e.lkmm_note;
    }
    if (model == ModelKind::Lkmm) {
        g.lkmm.reset();
        g.lkmm_note = {};
    }
    return g;
}

namespace {

Report check_once(const VariantDef& variant, const CheckOptions& options) {
    Report report;
    report.id = variant.id();
    report.summary = variant.summary;
    report.engine = options.explore.engine;
    const std::uint64_t cuts_before = variant.cut_runs ? variant.cut_runs() : 0;
    const bool lkmm = options.explore.model == ModelKind::Lkmm;
    // A model loaded at run time (a cat file) judges in place of the built-in one the kind names.
    const MemoryModel* selected = report.engine == EngineKind::Graph ? options.explore.memory_model : nullptr;
    // the model whose own predicate certifies and whose flags are collected (RC11: the certifier)
    const MemoryModel* axioms = selected ? selected : lkmm ? &lkmm_model() : nullptr;
    report.memory_model = report.engine == EngineKind::Graph ? model_name(options.explore) : "C++11 (Relacy)";
    report.model_kind = options.explore.model;
    report.expect = expectation_for(variant.expect, report.engine, options.explore.model);

    std::map<std::vector<Value>, OutcomeRecord> outcomes;
    std::vector<Value> min_metric, max_metric;
    std::uint64_t positive = 0, executions = 0, filtered = 0;
    std::optional<ExecutionGraph> witness;
    std::map<std::vector<Value>, ExecutionGraph> outcome_graphs;
    // Every distinct execution graph, and whether it is consistent under the model judged by.
    // Certifying each distinct
    // graph once certifies every execution: consistency is a property of the graph.
    std::unordered_map<std::uint64_t, bool> distinct;
    const bool certify = options.certify && options.explore.capture;

    // What the sink needs of an execution that depends on the graph alone: done by the search's
    // threads when it runs on several (ExploreOptions::prepare), else here.
    struct Prepared {
        std::uint64_t hash = 0;
        std::optional<AxiomViolation> violation;  ///< when certifying
        std::vector<std::string> flags;           ///< of an execution the filter keeps
    };
    // under the graph engine `axioms` is the model the engine judged by
    const bool engine_model = report.engine == EngineKind::Graph;
    const auto prepare = [certify, axioms, engine_model](const ExecutionGraph& graph, const FinalState& state,
                                                         std::optional<std::uint64_t> hash = std::nullopt) {
        auto p = std::make_shared<Prepared>();
        p->hash = hash ? *hash : canonical_hash(graph);
        // RC11: the independent certifier (rc11_certify.hpp); LKMM: the model's own predicate (its
        // independent reference is herd7's verdicts, recorded in litmus/); a cat model: its own
        // herd7 raises a flag only on executions its filter keeps (a filtered execution is
        // not one the test asks about: paulmckrcu/litmus C-AlanStern.2018.01.11a)
        const bool with_flags = axioms != nullptr && !state.filtered_out;
        // the graph engine's own model has already found each axiom to hold on this graph: its
        // well-formedness is what is left to certify
        const bool checked = state.model_checked && engine_model;
        if (certify && axioms && !checked) std::tie(p->violation, p->flags) = axioms->check_and_flags(graph, with_flags);
        else if (certify && axioms) p->violation = check_well_formed(graph);
        else if (certify) p->violation = check_rc11(graph);
        if (with_flags && (!certify || checked)) p->flags = axioms->flags(graph);
        return p;
    };
    const ExecutionSink sink = [&](const ExecutionGraph& graph, const FinalState& state) {
        bool first_time = !options.explore.capture;  // without capture every execution counts
        std::optional<std::uint64_t> seen_hash;
        if (options.explore.capture) {
            const Prepared* pre = static_cast<const Prepared*>(state.prepared.get());
            const std::uint64_t hash = pre ? pre->hash : canonical_hash(graph);
            seen_hash = hash;
            auto [it, fresh] = distinct.try_emplace(hash, true);
            first_time = fresh;
            std::shared_ptr<const Prepared> made;  // computed here, for a fresh execution only
            if (fresh && !pre) pre = (made = prepare(graph, state, hash)).get();
            if (fresh && certify) {
                if (const auto& violation = pre->violation) {
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
            if (fresh)
                for (const std::string& f : pre->flags)
                    if (std::find(report.flags.begin(), report.flags.end(), f) == report.flags.end()) {
                        report.flags.push_back(f);
                        std::sort(report.flags.begin(), report.flags.end());
                    }
        }
        ++executions;
        if (state.filtered_out) ++filtered;
        if (options.keep_first_execution && !report.first_execution) report.first_execution = graph;
        if (state.bad_outcome) {
            ++positive;
            if (!witness) witness = graph;
        }
        auto [it, inserted] = outcomes.try_emplace(state.observables);
        if (inserted) {  // its values are the key's until the report takes them (below)
            it->second.bad_outcome = state.bad_outcome;
            if (options.keep_outcome_witnesses) outcome_graphs.emplace(state.observables, graph);
        }
        ++it->second.executions;
        if (first_time) ++it->second.distinct;
        if (first_time && seen_hash && options.keep_execution_hashes) it->second.hashes.push_back(*seen_hash);
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

    ExploreOptions explore_options = options.explore;
    if (options.explore.capture && (axioms == nullptr || axioms->concurrent())) explore_options.prepare = prepare;
    if (options.progress) {
        explore_options.progress = [&](const ExploreProgress& p) {
            CheckProgress c;
            c.id = report.id;
            c.interleavings = p.interleavings;
            c.distinct_executions = distinct.size();
            c.elapsed_seconds = p.elapsed_seconds;
            c.fraction = p.fraction;
            options.progress(c);
        };
    }
    // A variant exact only where events carry LKMM's tags is not run where they do not count.
    const bool kernel_model = report.engine == EngineKind::Graph && (selected ? selected->kernel_events() : lkmm);
    ExploreResult r;
    if (!variant.kernel_model_only.empty() && !kernel_model) {
        r.engine = report.engine;
        r.model = options.explore.model;
        r.failure = EngineFailure::Other;
        r.failure_detail = "unsupported under " + report.memory_model + ": " + variant.kernel_model_only +
                           " (run it under LKMM: the graph engine with --model lkmm)";
    } else {
        r = explore(variant, explore_options, sink);
    }

    report.executions = executions;
    report.blocked = r.blocked;
    report.livelocked = r.livelocked;
    report.livelock_detail = r.livelock_detail;
    report.thin_air = r.thin_air;
    report.thin_air_copies = r.thin_air_copies;
    report.positive = positive;
    report.filtered = filtered;
    report.distinct_executions = static_cast<std::uint64_t>(
        std::count_if(distinct.begin(), distinct.end(), [](const auto& d) { return d.second; }));
    report.seconds = r.seconds;
    report.rounds = r.rounds;
    report.interleavings = r.interleavings;
    report.redundant_interleavings = r.redundant;
    report.reduction = r.reduction ? Reduction::SleepSets : Reduction::Off;
    if (r.engine == EngineKind::Graph) report.reduction = Reduction::Optimal;
    report.fraction = r.fraction;
    report.shard.index = r.shard_index;
    report.shard.count = r.shard_count;
    report.shard.prefix_depth = r.prefix_depth;
    report.shard.prefixes = r.prefixes;
    report.shard.shard_prefixes = r.shard_prefixes;
    report.shard.whole_tree_in_shard_zero = r.whole_tree_in_shard_zero;
    report.shard.whole_tree_why = r.whole_tree_why;
    if (options.keep_execution_hashes) {
        for (const auto& [hash, consistent] : distinct)
            if (consistent) report.execution_hashes.push_back(hash);
        std::sort(report.execution_hashes.begin(), report.execution_hashes.end());
    }
    report.observable_names = r.observable_names;
    // each record moved out of the map, which lets go of it (a search of 19 RCU processes has
    // half a million final states)
    report.outcomes.reserve(outcomes.size());
    while (!outcomes.empty()) {
        auto node = outcomes.extract(outcomes.begin());
        OutcomeRecord& rec = node.mapped();
        std::sort(rec.hashes.begin(), rec.hashes.end());
        if (options.keep_outcome_witnesses) report.outcome_witnesses.push_back(std::move(outcome_graphs.at(node.key())));
        rec.values = std::move(node.key());
        report.outcomes.push_back(std::move(rec));
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
    else if (options.explore.shard_count > 1)
        report.exploration = Exploration::Shard;
    else
        report.exploration = Exploration::Exhaustive;

    report.cut_detail = r.cut_detail;
    if (r.failure) {
        report.finding = *r.failure;
        report.failure_detail = r.failure_detail;
        report.replay = r.replay;
        report.witness = std::move(r.failure_graph);
    } else if (executions > 0) {
        // Executions a filter excludes count neither way (all excluded: the outcome is never seen).
        report.finding = positive == 0                        ? Verdict::Never
                         : positive == executions - filtered ? Verdict::Always
                                                              : Verdict::Sometimes;
        report.witness = std::move(witness);
    }
    report.unroll = variant.unroll;
    if (variant.cut_runs) report.unroll_cuts = variant.cut_runs() - cuts_before;
    if (report.unroll_cuts > 0 && report.exploration != Exploration::CutShort &&
        report.exploration != Exploration::UntilFailure)
        report.exploration = Exploration::Bounded;
    report.status = judge(report.finding, report.expect, report.exploration);
    // A search that cut a loop at the unroll bound is no proof, even of a witnessed Sometimes
    // (as `ordercheck litmus` judges it): only a contradiction it witnessed settles anything.
    if (report.unroll_cuts > 0 && report.status == Status::Pass) report.status = Status::Incomplete;
    // An inconsistent execution is an engine or capture defect: the report cannot be trusted
    // unless the model declares the engine's known defect.
    if (report.rejected > 0 && report.expect.engine_inconsistency_note.empty()) report.status = Status::Fail;
    return report;
}

}  // namespace

namespace {
Report check_one_engine(const VariantDef& variant, const CheckOptions& options);
Report cross_check(const VariantDef& variant, const CheckOptions& options);
}  // namespace

Report check(const VariantDef& variant, const CheckOptions& options) {
    if (options.cross_check) return cross_check(variant, options);
    if (options.model_per_variant && options.explore.engine == EngineKind::Graph && !options.explore.memory_model) {
        CheckOptions o = options;
        o.explore.model = default_memory_model(variant, EngineKind::Graph);
        return check_one_engine(variant, o);
    }
    return check_one_engine(variant, options);
}

bool searched_in_rounds(const VariantDef& variant, const CheckOptions& options) {
    if (options.explore.engine != EngineKind::Graph || options.cross_check) return false;
    if (options.explore.memory_model != nullptr) return options.explore.memory_model->kernel_events();
    if (options.model_per_variant) return default_memory_model(variant, EngineKind::Graph) == ModelKind::Lkmm;
    return options.explore.model == ModelKind::Lkmm;
}

bool written_with_kernel_primitives(const VariantDef& variant) {
    auto kernel = [](const ExecutionGraph& g) {
        for (std::size_t t = 1; t < g.thread_count(); ++t)
            for (const Event& e : g.thread(t))
                if (e.order != MemoryOrder::NonAtomic && (e.primitive == nullptr || *e.primitive == '\0')) return false;
        return true;
    };
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Rc11;
    o.max_executions = 1;
    std::optional<bool> found;
    try {
        const ExploreResult r = explore(variant, o, [&](const ExecutionGraph& g, const FinalState&) {
            if (!found) found = kernel(g);
        });
        if (!found) found = kernel(r.failure_graph);
    } catch (const std::exception&) {
        return false;  // the graph engine cannot run it (too many threads...): not under LKMM either
    }
    return *found;
}

std::string model_name(const ExploreOptions& options) {
    return options.memory_model ? options.memory_model->description() : std::string(to_string(options.model));
}

ModelKind default_memory_model(const VariantDef& variant, EngineKind engine) {
    if (!capabilities(engine).lkmm) return ModelKind::Rc11;
    return written_with_kernel_primitives(variant) ? ModelKind::Lkmm : ModelKind::Rc11;
}

namespace {

/// Runs the graph engine and Relacy's full search; every distinct spin-free execution Relacy
/// explores must be one the graph engine explores, and every outcome Relacy reaches one the graph
/// engine reaches (Relacy's executions with failed spin iterations have no graph-engine twin: a
/// failed iteration blocks a thread there).
Report cross_check(const VariantDef& variant, const CheckOptions& options) {
    CheckOptions g = options;
    g.cross_check = false;
    g.explore.engine = EngineKind::Graph;
    g.keep_execution_hashes = true;
    Report report = check_one_engine(variant, g);
    CheckOptions r = g;
    r.explore.engine = EngineKind::Relacy;
    r.progress = nullptr;
    CrossCheck cc;
    std::vector<std::uint64_t> graph_hashes = report.execution_hashes;
    std::set<std::vector<Value>> graph_outcomes;
    for (const auto& o : report.outcomes) graph_outcomes.insert(o.values);
    std::set<std::uint64_t> seen, missing;
    std::set<std::vector<Value>> missing_outcomes;
    std::unordered_map<std::uint64_t, bool> certified;
    const ExecutionSink sink = [&](const ExecutionGraph& graph, const FinalState& state) {
        const std::uint64_t h = canonical_hash(graph);
        auto [it, fresh] = certified.try_emplace(h, true);
        if (fresh) it->second = !check_rc11(graph);
        if (!it->second) return;  // Relacy's known SC-fence defect: certification rejects it
        if (!graph_outcomes.count(state.observables)) missing_outcomes.insert(state.observables);
        if (state.spin_failures > 0) {
            ++cc.relacy_with_spins;
            return;
        }
        if (!seen.insert(h).second) return;
        if (!std::binary_search(graph_hashes.begin(), graph_hashes.end(), h)) {
            missing.insert(h);
            if (!cc.first_missing) cc.first_missing = graph;
        }
    };
    ExploreOptions eo = r.explore;
    eo.progress = nullptr;
    if (const unsigned most = capabilities(EngineKind::Relacy).max_threads; variant.thread_count() > most) {
        cc.relacy_exploration = "not run: Relacy runs at most " + std::to_string(most) + " threads";
        report.cross_check = std::move(cc);
        return report;
    }
    ExploreResult rr = explore(variant, eo, sink);
    cc.relacy_distinct = seen.size();
    cc.missing = missing.size();
    cc.missing_outcomes = missing_outcomes.size();
    cc.relacy_exploration = rr.failure ? "until failure" : rr.cut_short ? "cut short" : "exhaustive";
    cc.relacy_verdict = rr.failure ? std::string(to_string(*rr.failure)) : "";
    if (cc.missing > 0 || cc.missing_outcomes > 0) report.status = Status::Fail;
    if (!options.keep_execution_hashes) report.execution_hashes.clear();
    report.cross_check = std::move(cc);
    return report;
}

Report check_one_engine(const VariantDef& variant, const CheckOptions& options) {
    Report report = check_once(variant, options);
    if (report.reduction == Reduction::SleepSets && report.exploration == Exploration::UntilFailure) {
        // The reduction finds an engine failure if the full search does, but the executions
        // explored before it, and which failure comes first, depend on the order of the search.
        // Report what the full search reports.
        CheckOptions full = options;
        full.explore.reduction = false;
        const double reduced_seconds = report.seconds;
        const std::uint64_t reduced_interleavings = report.interleavings;
        report = check_once(variant, full);
        report.reduction = Reduction::FellBack;
        char took[32];
        std::snprintf(took, sizeof took, "%.3g s", reduced_seconds);
        report.reduction_note = "the reduced search found the engine failure after " +
                                std::to_string(reduced_interleavings) + " interleavings (" + took +
                                "); rerun without reduction so that the counts and the failing execution are the full search's";
        report.seconds += reduced_seconds;
    }
    return report;
}

}  // namespace

namespace {

/// The combined exploration of a set of shards.
Exploration merged_exploration(const std::vector<Report>& shards, bool all_present) {
    bool cut = false, bounded = false, partial = !all_present;
    for (const auto& r : shards) {
        switch (r.exploration) {
        case Exploration::UntilFailure: return Exploration::UntilFailure;
        case Exploration::CutShort: cut = true; break;
        case Exploration::Bounded: bounded = true; break;
        case Exploration::Sampled: partial = true; break;
        case Exploration::Exhaustive:  // an unsharded report (a shard that took the whole tree)
        case Exploration::Shard: break;
        }
    }
    if (cut) return Exploration::CutShort;
    if (bounded) return Exploration::Bounded;
    return partial ? Exploration::Shard : Exploration::Exhaustive;
}

}  // namespace

Report merge_shards(const std::vector<Report>& shards) {
    if (shards.empty()) throw std::invalid_argument("merge: no shard reports");
    const Report& first = shards.front();
    const unsigned count = first.shard.count;
    std::vector<bool> seen(count, false);
    for (const auto& r : shards) {
        if (r.id != first.id) throw std::invalid_argument("merge: reports of " + first.id + " and " + r.id);
        if (r.shard.count != count || r.shard.index >= count)
            throw std::invalid_argument("merge: " + r.id + ": shards of different splits (" +
                                        std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) +
                                        " and ?/" + std::to_string(count) + ")");
        if (seen[r.shard.index])
            throw std::invalid_argument("merge: " + r.id + ": shard " + std::to_string(r.shard.index) + "/" +
                                        std::to_string(count) + " given twice");
        seen[r.shard.index] = true;
    }
    std::vector<const Report*> ordered;
    for (const auto& r : shards) ordered.push_back(&r);
    std::sort(ordered.begin(), ordered.end(),
              [](const Report* a, const Report* b) { return a->shard.index < b->shard.index; });

    Report m;
    m.id = first.id;
    m.summary = first.summary;
    m.expect = first.expect;
    m.shard.index = 0;
    m.shard.count = count;
    m.reduction = first.reduction;
    m.engine = first.engine;
    m.memory_model = first.memory_model;
    m.model_kind = first.model_kind;
    std::map<std::vector<Value>, OutcomeRecord> outcomes;
    std::vector<std::uint64_t> hashes;
    bool all_hashes = true;
    for (const Report* r : ordered) {
        m.shard.merged.push_back(r->shard.index);
        m.shard.prefix_depth = std::max(m.shard.prefix_depth, r->shard.prefix_depth);
        m.shard.prefixes = std::max(m.shard.prefixes, r->shard.prefixes);
        m.shard.shard_prefixes += r->shard.shard_prefixes;
        m.shard.whole_tree_in_shard_zero = m.shard.whole_tree_in_shard_zero || r->shard.whole_tree_in_shard_zero;
        if (m.shard.whole_tree_why.empty()) m.shard.whole_tree_why = r->shard.whole_tree_why;
        m.executions += r->executions;
        m.blocked += r->blocked;
        m.livelocked += r->livelocked;
        if (m.livelock_detail.empty()) m.livelock_detail = r->livelock_detail;
        if (m.cut_detail.empty()) m.cut_detail = r->cut_detail;
        m.thin_air += r->thin_air;
        m.thin_air_copies += r->thin_air_copies;
        m.unroll = r->unroll;
        m.unroll_cuts += r->unroll_cuts;
        m.positive += r->positive;
        m.filtered += r->filtered;
        m.rejected += r->rejected;
        m.interleavings += r->interleavings;
        m.redundant_interleavings += r->redundant_interleavings;
        m.seconds += r->seconds;
        if (r->reduction != m.reduction) m.reduction = Reduction::FellBack;
        if (!r->reduction_note.empty() && m.reduction_note.empty())
            m.reduction_note = "shard " + std::to_string(r->shard.index) + ": " + r->reduction_note;
        if (m.observable_names.empty()) m.observable_names = r->observable_names;
        if (r->rejected > 0 && m.first_rejection.empty()) {
            m.first_rejection = r->first_rejection;
            m.rejected_graph = r->rejected_graph;
        }
        for (const auto& o : r->outcomes) {
            auto [it, fresh] = outcomes.try_emplace(o.values, o);
            if (!fresh) {
                it->second.executions += o.executions;
                it->second.distinct += o.distinct;  // an upper bound: shards may share executions
                it->second.hashes.insert(it->second.hashes.end(), o.hashes.begin(), o.hashes.end());
            }
        }
        for (const auto& metric : r->metrics) {
            auto it = std::find_if(m.metrics.begin(), m.metrics.end(),
                                   [&](const MetricRange& x) { return x.name == metric.name; });
            if (it == m.metrics.end()) {
                m.metrics.push_back(metric);
            } else {
                it->min = std::min(it->min, metric.min);
                it->max = std::max(it->max, metric.max);
            }
        }
        if (r->distinct_executions > 0 && r->execution_hashes.empty()) all_hashes = false;
        hashes.insert(hashes.end(), r->execution_hashes.begin(), r->execution_hashes.end());
        if (r->finding && std::holds_alternative<EngineFailure>(*r->finding) && !m.finding) {
            m.finding = r->finding;
            m.failure_detail = r->failure_detail;
            m.replay = r->replay;
            m.witness = r->witness;
            m.witness_path = r->witness_path;
        }
    }
    std::sort(hashes.begin(), hashes.end());
    hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
    m.execution_hashes = hashes;
    if (all_hashes) {
        m.distinct_executions = hashes.size();
    } else {
        // Without hashes the union cannot be counted: an upper bound, the sum.
        for (const Report* r : ordered) m.distinct_executions += r->distinct_executions;
    }
    for (auto& [values, rec] : outcomes) {
        // with every shard's hashes, an outcome's executions are counted once however many
        // shards reached them
        if (all_hashes) {
            std::sort(rec.hashes.begin(), rec.hashes.end());
            rec.hashes.erase(std::unique(rec.hashes.begin(), rec.hashes.end()), rec.hashes.end());
            if (!rec.hashes.empty()) rec.distinct = rec.hashes.size();
        }
        m.outcomes.push_back(rec);
    }

    const bool all_present = std::all_of(seen.begin(), seen.end(), [](bool b) { return b; });
    m.exploration = merged_exploration(shards, all_present);
    if (!m.finding && m.executions > 0) {
        m.finding = m.positive == 0                            ? Verdict::Never
                    : m.positive == m.executions - m.filtered ? Verdict::Always
                                                              : Verdict::Sometimes;
        for (const Report* r : ordered)
            if (r->witness && r->positive > 0) {
                m.witness = r->witness;
                m.witness_path = r->witness_path;
                break;
            }
    }
    m.fraction = 0;
    for (const Report* r : ordered) m.fraction += r->fraction / count;
    if (m.unroll_cuts > 0 && m.exploration == Exploration::Exhaustive) m.exploration = Exploration::Bounded;
    m.status = judge(m.finding, m.expect, m.exploration);
    if (m.unroll_cuts > 0 && m.status == Status::Pass) m.status = Status::Incomplete;  // as check()
    if (m.rejected > 0 && m.expect.engine_inconsistency_note.empty()) m.status = Status::Fail;
    return m;
}

}  // namespace oc
