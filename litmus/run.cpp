// SPDX-License-Identifier: MIT
#include "litmus/run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>

#include "litmus/parser.hpp"

namespace oc::litmus {

std::string_view to_string(Judgement j) {
    switch (j) {
    case Judgement::Match: return "ok";
    case Judgement::Mismatch: return "FAIL";
    case Judgement::Incomplete: return "incomplete";
    case Judgement::Bounded: return "bounded";
    case Judgement::Unjudged: return "unjudged";
    case Judgement::Error: return "ERROR";
    }
    return "?";
}

std::shared_ptr<const Compiled> load(const std::string& path, const MacroTable* macros) {
    return compile(parse_file(path, macros));
}

namespace {

std::string expected_text(const Expected& e) {
    return std::string(to_string(e.outcome)) + (e.datarace ? " DATARACE" : "");
}

/// herd's States, Positive and Negative from the outcome records of `rep`.
void fold_outcomes(const Program& p, const Report& rep, LitmusResult& r) {
    std::vector<int> index;
    for (const Operand& o : p.observed) {
        const std::string name = format_operand(p, o);
        const auto it = std::find(rep.observable_names.begin(), rep.observable_names.end(), name);
        index.push_back(it == rep.observable_names.end() ? -1 : static_cast<int>(it - rep.observable_names.begin()));
    }
    const auto fit = std::find(rep.observable_names.begin(), rep.observable_names.end(), filter_observable);
    const int filter = fit == rep.observable_names.end() ? -1 : static_cast<int>(fit - rep.observable_names.begin());
    std::map<std::vector<Value>, std::uint64_t> states;
    for (const OutcomeRecord& rec : rep.outcomes) {
        if (filter >= 0 && rec.values.at(static_cast<std::size_t>(filter)) == 0) continue;
        std::vector<Value> key;
        for (int i : index) key.push_back(i < 0 ? 0 : rec.values.at(static_cast<std::size_t>(i)));
        // herd counts executions, not interleavings: distinct graphs (under the graph engine every
        // execution is distinct; under Relacy an execution is run by many interleavings).
        const std::uint64_t n = rec.distinct != 0 ? rec.distinct : rec.executions;
        states[key] += n;
        (rec.bad_outcome ? r.positive : r.negative) += n;
    }
    for (auto& [values, n] : states) r.states.push_back(LitmusState{values, n});
}

/// judgelitmus.sh's comparison, on ordercheck's verdicts.
void judge_result(const Program& p, const Report& rep, LitmusResult& r) {
    // ordercheck-engine: records what Relacy finds where it cannot produce RC11's answer.
    const bool relacy = rep.engine == EngineKind::Relacy;
    const bool lkmm = judged_as_lkmm(rep);
    const Expected* want = lkmm                 ? (p.result ? &*p.result : nullptr)
                           : relacy && p.engine ? &*p.engine
                           : p.mapping          ? &*p.mapping
                           : p.result           ? &*p.result
                                                : nullptr;
    const bool bounded = r.unroll_cuts > 0;
    if (want != nullptr && (want->outcome == Outcome::AssertFailed || want->outcome == Outcome::DataRace)) {
        // ordercheck's verdict kinds: a witnessed BUG_ON()/WARN_ON() or data race settles it;
        // their absence is settled only by a complete search.
        const bool assert_failed = r.error.rfind("AssertFailed", 0) == 0;
        const bool seen = want->outcome == Outcome::AssertFailed ? assert_failed : r.datarace;
        const std::string wanted = std::string(to_string(want->outcome));
        if (seen) {
            r.judgement = Judgement::Match;
            r.judgement_text = wanted + " as expected (" + (assert_failed ? r.error : std::string("a data race")) + ")";
        } else if (!r.error.empty()) {
            r.judgement = Judgement::Error;
            r.judgement_text = "!!! Verification error: " + r.error;
        } else if (r.cut_short || bounded) {
            r.judgement = bounded && !r.cut_short ? Judgement::Bounded : Judgement::Incomplete;
            r.judgement_text = "no " + wanted + " within the search, which was " +
                               (bounded ? "cut at --unroll " + std::to_string(r.unroll)
                                        : "cut short" + (r.cut_detail.empty() ? "" : " (" + r.cut_detail + ")")) +
                               " and settles nothing";
        } else {
            r.judgement = Judgement::Mismatch;
            r.judgement_text = "!!! Unexpected: no " + wanted + " in an exhaustive search";
        }
        return;
    }
    if (!r.error.empty()) {
        r.judgement = Judgement::Error;
        r.judgement_text = "!!! Verification error: " + r.error;
        return;
    }
    if (want == nullptr && bounded && !r.cut_short) {
        r.judgement = Judgement::Bounded;
        r.judgement_text = "no Result: annotation; a loop needs more than " + std::to_string(r.unroll) +
                           " iterations, and a bounded search is no proof (raise --unroll)";
        return;
    }
    if (want == nullptr) {
        r.judgement = Judgement::Unjudged;
        r.judgement_text = "no Result: annotation, not judged";
        if (r.cut_short)
            r.judgement_text += "; the search was cut short" + (r.cut_detail.empty() ? "" : " (" + r.cut_detail + ")") +
                                " and settles nothing";
        return;
    }
    const std::string wanted = expected_text(*want);
    std::string source = "Result: " + (p.result ? expected_text(*p.result) : std::string("none"));
    if (lkmm) source += rep.memory_model == "LKMM" ? std::string("; LKMM") : "; LKMM by " + rep.memory_model;
    else if (!rep.memory_model.empty()) source += "; " + rep.memory_model;  // RC11, or a model given as data
    if (p.mapping && !lkmm) source += "; ordercheck-mapping: " + expected_text(*p.mapping) + " (the C++11 mapping differs from LKMM)";
    if (p.engine && relacy) source += "; ordercheck-engine: " + expected_text(*p.engine) + " (the engine cannot produce RC11's answer)";
    std::string explored = std::string(to_string(bounded && rep.exploration == Exploration::Exhaustive ? Exploration::Bounded
                                                                                                        : rep.exploration)) +
                           ", " + std::to_string(rep.executions) + " executions";
    if (rep.blocked > 0) explored += ", " + std::to_string(rep.blocked) + " blocked";
    if (rep.thin_air > 0) explored += ", " + std::to_string(rep.thin_air) + " out of thin air left out";
    if (rep.thin_air_copies > 0) explored += ", " + std::to_string(rep.thin_air_copies) + " with a copy cycle";
    if (bounded) explored += ", " + std::to_string(r.unroll_cuts) + " cut at --unroll " + std::to_string(r.unroll);
    if (!r.cut_detail.empty()) explored += ", " + r.cut_detail;

    // The outcome. A search cut short before any execution completed witnessed nothing: not a
    // deadlock (no execution was seen to block), not a Never. Maybe accepts any Observation,
    // and a search cut short has none.
    const bool none_completed = !r.deadlock && r.positive + r.negative == 0;
    Status outcome = Status::Pass;
    std::string why;
    if ((r.cut_short || bounded) && (none_completed || want->outcome == Outcome::Maybe)) {
        outcome = Status::Incomplete;
    } else if (want->outcome == Outcome::Maybe) {
        outcome = Status::Pass;
    } else if (want->outcome == Outcome::Deadlock) {
        if (!(r.deadlock || r.positive + r.negative == 0)) {
            outcome = Status::Fail;
            why = "!!! Unexpected non-DEADLOCK verification";
        }
    } else if (r.deadlock || r.positive + r.negative == 0) {
        outcome = Status::Fail;
        why = "!!! Unexpected non-" + std::string(to_string(want->outcome)) + " deadlock";
    } else {
        Expectation e = expect::never("");
        e.memory_model = want->outcome == Outcome::Always ? Verdict::Always
                         : want->outcome == Outcome::Never ? Verdict::Never
                                                           : Verdict::Sometimes;
        Exploration how = rep.exploration == Exploration::UntilFailure ? Exploration::CutShort : rep.exploration;
        if (bounded && how == Exploration::Exhaustive) how = Exploration::Bounded;
        outcome = judge(Finding{r.observation}, e, how);
        if (outcome == Status::Fail) why = "!!! Unexpected non-" + std::string(to_string(want->outcome)) + " verification";
    }
    // The data-race flag. A race is witnessed; its absence is settled only by a complete search.
    Status race = Status::Pass;
    if (want->datarace && !r.datarace) {
        race = r.report.exploration == Exploration::Exhaustive && !bounded ? Status::Fail : Status::Incomplete;
        if (race == Status::Fail) why += std::string(why.empty() ? "" : "; ") + "!!! Missing data race flag";
    } else if (!want->datarace && r.datarace) {
        race = Status::Fail;
        why += std::string(why.empty() ? "" : "; ") + "!!! Unexpected data race flag";
    }
    const std::string observed =
        r.deadlock ? std::string("DEADLOCK")
                   : std::string(to_string(r.observation)) + (r.datarace ? " DATARACE" : "");
    if (outcome == Status::Fail || race == Status::Fail) {
        r.judgement = Judgement::Mismatch;
        r.judgement_text = why + " (observed " + observed + "; " + source + "; " + explored + ")";
    } else if (bounded && !r.cut_short) {
        // Even a witnessed Sometimes is reported bounded: the run as a whole covered only the
        // executions within the bound, and its verdict is never a proof.
        r.judgement = Judgement::Bounded;
        r.judgement_text = (none_completed ? std::string("no execution completed") : "observed " + observed) +
                           " within the unroll bound, expected " + wanted + ": a loop needs more than " +
                           std::to_string(r.unroll) + " iterations (" + explored +
                           "), and a bounded search is no proof (raise --unroll)";
    } else if (outcome == Status::Incomplete || race == Status::Incomplete) {
        r.judgement = Judgement::Incomplete;
        r.judgement_text = (none_completed ? std::string("no execution completed") : "observed " + observed) + " so far, expected " + wanted + ": the search was cut short (" +
                           explored + ") and settles nothing";
    } else {
        r.judgement = Judgement::Match;
        r.judgement_text = observed + " as expected (" + source + "; " + explored + ")";
    }
}

}  // namespace

LitmusResult run(const std::shared_ptr<const Compiled>& test, const LitmusOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    const Program& p = test->program;
    LitmusResult r;
    r.test = test;
    CheckOptions co;
    co.explore.max_executions = options.max_executions;
    co.explore.timeout_seconds = options.timeout_seconds;
    co.certify = options.certify;
    co.explore.reduction = options.reduction;
    co.explore.cycle_revisits = options.cycle_revisits;
    co.explore.engine = options.engine;
    co.explore.model = options.model;
    co.explore.memory_model = options.memory_model;
    co.explore.race_ends_execution = options.model != ModelKind::Lkmm;
    // herd7's semantics: a run in which a thread waits forever (a lock never released) is no
    // execution; the test deadlocks when no run completes (graph engine; Relacy stops there)
    co.explore.livelock_ends_search = false;
    LoopBound bound;
    bound.unroll = options.unroll;
    bound.cuts = std::make_shared<std::atomic<std::uint64_t>>(0);
    r.unroll = options.unroll;
    // A search interrupted before it gave a report (worker processes) is one cut short.
    const auto search = [&](const VariantDef& v) {
        if (!options.runner) return check(v, co);
        if (std::optional<Report> rep = options.runner(v, co)) return std::move(*rep);
        Report cut;
        cut.id = v.id();
        cut.exploration = Exploration::CutShort;
        cut.status = Status::Incomplete;
        return cut;
    };
    r.report = search(make_variant(test, RunMode::RaceCheck, bound));
    const Report* rep = &r.report;
    r.flags = r.report.flags;
    // LKMM flags a data race and still judges every execution; under RC11 a race ends the run,
    // and a second run with plain accesses as relaxed ones gives the outcomes.
    if (std::find(r.flags.begin(), r.flags.end(), "data-race") != r.flags.end()) r.datarace = true;
    if (r.report.finding == Finding{EngineFailure::DataRace}) {
        r.datarace = true;
        r.outcome_report = search(make_variant(test, RunMode::PlainAsRelaxed, bound));
        rep = &*r.outcome_report;
    }
    if (rep->finding && std::holds_alternative<EngineFailure>(*rep->finding)) {
        const EngineFailure f = std::get<EngineFailure>(*rep->finding);
        if (f == EngineFailure::Deadlock || f == EngineFailure::Livelock) r.deadlock = true;
        else r.error = std::string(to_string(f)) + ": " + rep->failure_detail;
    } else {
        fold_outcomes(p, *rep, r);
        // every run waited forever: herd7's Never 0 0, judged as a deadlock
        if (rep->livelocked > 0 && rep->executions == 0 && rep->exploration != Exploration::CutShort) r.deadlock = true;
    }
    if (rep->rejected > 0 && r.error.empty())
        r.error = std::to_string(rep->rejected) + " execution(s) the engine reported are not " + rep->memory_model +
                  "-consistent: " +
                  rep->first_rejection;
    r.observation = r.positive == 0 ? Verdict::Never : r.negative == 0 ? Verdict::Always : Verdict::Sometimes;
    r.cut_short = r.report.exploration == Exploration::CutShort ||
                  (r.outcome_report && r.outcome_report->exploration == Exploration::CutShort);
    r.cut_detail = !r.report.cut_detail.empty() ? r.report.cut_detail
                   : r.outcome_report           ? r.outcome_report->cut_detail
                                                : std::string();
    // each report counts the runs cut in its own search (in worker processes too)
    r.unroll_cuts = r.report.unroll_cuts + (r.outcome_report ? r.outcome_report->unroll_cuts : 0);
    switch (p.quantifier) {
    case Quantifier::Exists: r.ok = r.positive > 0; break;
    case Quantifier::NotExists: r.ok = r.positive == 0; break;
    case Quantifier::Forall: r.ok = r.negative == 0; break;
    }
    judge_result(p, *rep, r);
    r.run_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

std::string format_herd(const LitmusResult& r) {
    const Program& p = r.test->program;
    std::ostringstream out;
    const char* kind = p.quantifier == Quantifier::Exists ? "Allowed" : p.quantifier == Quantifier::NotExists ? "Forbidden" : "Required";
    out << "Test " << p.name << ' ' << kind << '\n';
    out << "States " << r.states.size() << '\n';
    for (const LitmusState& s : r.states) {
        for (std::size_t i = 0; i < s.values.size(); ++i) {
            if (i > 0) out << ' ';
            out << format_operand(p, p.observed[i]) << '=' << format_value(p, s.values[i]) << ';';
        }
        out << '\n';
    }
    const bool bounded = r.unroll_cuts > 0;
    if (!r.cut_short && !bounded) out << (r.ok ? "Ok" : "No") << '\n';
    out << "Witnesses\n";
    out << "Positive: " << r.positive << " Negative: " << r.negative << '\n';
    if (r.datarace && std::find(r.flags.begin(), r.flags.end(), "data-race") == r.flags.end()) out << "Flag data-race\n";
    for (const std::string& f : r.flags) out << "Flag " << f << '\n';
    if (p.filter >= 0) out << "Filter " << format_prop(p, p.filter) << '\n';
    out << "Condition " << to_string(p.quantifier) << " (" << format_prop(p, p.condition) << ")\n";
    // herd's Observation is the verdict of a complete search (judgelitmus.sh and cmplitmushist.sh
    // read it so); a search cut short has none, as herd7 stopped by a timeout has none.
    if (r.cut_short)
        out << "Incomplete " << p.name << ": the search was cut short after "
            << (r.outcome_report ? r.outcome_report->executions : r.report.executions)
            << " executions: no verdict (Positive and Negative count what it saw)\n";
    else if (bounded)
        out << "Bounded " << p.name << ": " << r.unroll_cuts << " run(s) cut at --unroll " << r.unroll
            << " (a loop needs more iterations): no verdict (Positive and Negative count the executions within the bound)\n";
    else
        out << "Observation " << p.name << ' ' << to_string(r.observation) << ' ' << r.positive << ' ' << r.negative
            << '\n';
    // Not herd7 lines: where a value comes back to itself through data dependencies (docs/lkmm.md),
    // and runs that wait forever where other runs complete.
    const Report& judged = r.outcome_report ? *r.outcome_report : r.report;
    if (judged.livelocked > 0 && !r.deadlock)
        out << "Waiting " << p.name << ": " << judged.livelocked
            << " run(s) in which a thread waits forever, no executions as herd7 counts them; the first: "
            << judged.livelock_detail << '\n';
    if (judged.thin_air > 0)
        out << "Thin-air " << p.name << ": " << judged.thin_air
            << " execution(s) left out: a value comes back to itself through data dependencies and a computation "
               "(herd7 builds none either)\n";
    if (judged.thin_air_copies > 0)
        out << "Thin-air " << p.name << ": " << judged.thin_air_copies
            << " execution(s) in which a value comes back to itself through copies, counted with the value the writes "
               "have; herd7 gives the cycle a symbolic value, which may satisfy the condition where this one does not\n";
    char time[32];
    std::snprintf(time, sizeof time, "%.4f", r.parse_seconds + r.run_seconds);
    out << "Time " << p.name << ' ' << time << '\n';
    out << "Judgement " << p.name << ' ' << to_string(r.judgement) << ": " << r.judgement_text << '\n';
    return out.str();
}

}  // namespace oc::litmus
