// SPDX-License-Identifier: MIT
#include "cli/format.hpp"

#include "cli/explain.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "checker/version.hpp"
#include "traces/export.hpp"
#include "traces/text_util.hpp"

namespace oc::cli {

namespace {

std::string seconds_text(double s) {
    char buf[32];
    if (s < 1.0)
        std::snprintf(buf, sizeof buf, "%.1fms", s * 1000.0);
    else
        std::snprintf(buf, sizeof buf, "%.2fs", s);
    return buf;
}

std::string pad(std::string s, std::size_t width) { return pad_right(std::move(s), width); }

std::string finding_text(const Report& r) { return r.finding ? to_string(*r.finding) : "-"; }

std::string ratio_text(double ratio) {
    if (ratio <= 0) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, ratio < 10 ? "%.1f" : "%.0f", ratio);
    return buf;
}

std::string shard_text(const Report& r) {
    std::string t;
    if (!r.shard.merged.empty()) {
        t = "merged " + std::to_string(r.shard.merged.size()) + " of " + std::to_string(r.shard.count) + " shards";
    } else {
        t = "shard " + std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count) + ": " +
            std::to_string(r.shard.shard_prefixes) + " of " + std::to_string(r.shard.prefixes) + " prefixes";
    }
    if (r.shard.prefix_depth > 0) t += " (prefixes of " + std::to_string(r.shard.prefix_depth) + " thread choices)";
    if (r.shard.whole_tree_in_shard_zero)
        t += "; shard 0 explored the whole tree (" +
             (r.shard.whole_tree_why.empty() ? std::string("the prefix enumeration met an engine failure") : r.shard.whole_tree_why) + ")";
    return t;
}

std::string hex(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string engine_text(const RunSettings& s) {
    const bool relacy = s.engine == "relacy";
    const std::string model =
        s.model == "auto" ? "memory model per variant (LKMM for models written with kernel primitives, RC11 for C++11 ones)"
                          : s.model;
    std::string t = s.engine == "graph"  ? "graph engine, " + model + ", every consistent execution once"
                    : s.engine == "both" ? "graph engine, " + model + ", cross-checked against relacy's full search"
                                         : "relacy " + s.search + " search";
    if (s.search == "bound") t += ", context bound " + std::to_string(s.context_bound);
    if (s.search == "random") t += ", " + std::to_string(s.random_executions) + " executions";
    if (s.max_executions != 0) t += ", at most " + std::to_string(s.max_executions) + " executions";
    if (s.timeout_seconds > 0) t += ", timeout " + seconds_text(s.timeout_seconds);
    if (s.search == "full" && relacy) t += s.reduction ? ", sleep-set reduction" : ", no reduction";
    if (s.jobs > 1) t += ", " + std::to_string(s.jobs) + " processes";
    if (!s.capture)
        t += ", no capture";
    else if (!s.certify)
        t += ", executions not certified";
    else if (relacy || s.model == "RC11")
        t += ", every execution certified against RC11";
    else
        t += s.model == "LKMM" ? ", every execution checked against LKMM's axioms"
                               : ", every execution checked against its memory model's axioms";
    if (!relacy && s.model != "RC11") t += "; under LKMM, load buffering explored (through an RMW's read only where the model states its dependencies)";
    return t;
}

}  // namespace

std::string site_line(const NecessityRow& row) {
    std::string verdict = row.report.finding ? to_string(*row.report.finding) : "-";
    const std::string result = result_label(row);
    return pad(site_label(row.site), 52) + " " +
           pad(weakening_label(row.site, row.weakening, vocabulary_of(row.report)), 34) + " " +
           pad(verdict, 10) + " " + pad(std::string(to_string(row.report.exploration)), 12) + " " + result;
}

namespace {
std::string values_text(const std::vector<std::string>& names, const std::vector<Value>& values) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
        if (i) out += " /\\ ";
        out += names[i] + "=" + std::to_string(values[i]);
    }
    return out.empty() ? "(no observables)" : out;
}
std::string range_text(const std::optional<MetricRange>& m) {
    if (!m) return "-";
    return m->min == m->max ? std::to_string(m->min) : std::to_string(m->min) + ".." + std::to_string(m->max);
}
}  // namespace

std::string format_diff(const DiffReport& d) {
    std::ostringstream out;
    out << "ordercheck " << version << ": diff " << d.a.id << " (A) -> " << d.b.id << " (B), "
        << (d.a.engine == EngineKind::Graph ? "graph engine under " + d.a.memory_model : std::string("relacy full search"))
        << "\n";
    out << "  A: " << finding_text(d.a) << ", " << d.a.outcomes.size() << " outcomes, " << d.a.executions
        << " executions (" << to_string(d.a.exploration) << ")\n";
    out << "  B: " << finding_text(d.b) << ", " << d.b.outcomes.size() << " outcomes, " << d.b.executions
        << " executions (" << to_string(d.b.exploration) << ")\n";
    out << (d.verdict_changed() ? "  verdict changed: " + finding_text(d.a) + " -> " + finding_text(d.b) + "\n"
                                : "  verdict unchanged\n");
    if (d.equal_outcome_sets())
        out << "  outcome sets " << (d.exact() ? "equal (exact: both searches exhaustive)" : "equal as far as explored")
            << "\n";
    for (std::size_t i : d.only_in_b) {
        out << "  only B reaches: " << values_text(d.b.observable_names, d.b.outcomes[i].values) << "\n";
        if (i < d.b.outcome_witnesses.size()) {
            std::istringstream lines(to_text_trace(d.b.outcome_witnesses[i], vocabulary_of(d.b)));
            for (std::string line; std::getline(lines, line);) out << "      " << line << '\n';
            // why: the cycle through B's weakened barrier (a declared mutant of A), else B's own
            const auto weakened = d.weakened_witnesses.find(i);
            const ExecutionGraph& g = weakened != d.weakened_witnesses.end() ? weakened->second : d.b.outcome_witnesses[i];
            if (weakened != d.weakened_witnesses.end())
                out << "      the same outcome in " << d.weakened_note << " (the program B writes):\n";
            if (const auto c = explaining_cycle(g, model_of(d.b))) out << cycle_text(g, *c, "      ");
        }
    }
    for (std::size_t i : d.only_in_a)
        out << "  only A reaches: " << values_text(d.a.observable_names, d.a.outcomes[i].values) << "\n";
    if (!d.metrics.empty()) {
        out << "  metrics (min..max over executions):\n";
        for (const auto& m : d.metrics)
            out << "    " << pad(m.name, 36) << pad("A " + range_text(m.a), 14) << "B " << range_text(m.b)
                << (m.a && m.b && *m.a == *m.b ? "" : "   changed") << '\n';
    }
    if (!d.only_in_b.empty()) out << "B reaches outcomes A cannot: the change adds behaviour\n";
    return out.str();
}


std::string format_junit(const std::vector<Report>& reports, const RunSettings& settings) {
    std::size_t failures = 0, skipped = 0;
    double total = 0;
    for (const auto& r : reports) {
        failures += r.status == Status::Fail;
        skipped += r.status == Status::Incomplete || r.status == Status::Unjudged;
        total += r.seconds;
    }
    std::ostringstream out;
    char time_buf[32];
    std::snprintf(time_buf, sizeof time_buf, "%.6f", total);
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out << "<testsuites name=\"ordercheck\" tests=\"" << reports.size() << "\" failures=\"" << failures
        << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << time_buf << "\">\n";
    out << "  <testsuite name=\"ordercheck check\" tests=\"" << reports.size() << "\" failures=\"" << failures
        << "\" errors=\"0\" skipped=\"" << skipped << "\" time=\"" << time_buf << "\">\n";
    out << "    <properties>\n";
    out << "      <property name=\"ordercheck.version\" value=\"" << version << "\"/>\n";
    out << "      <property name=\"engine\" value=\"" << escape_xml(engine_text(settings)) << "\"/>\n";
    out << "    </properties>\n";
    for (const auto& r : reports) {
        const auto slash = r.id.find('/');
        std::snprintf(time_buf, sizeof time_buf, "%.6f", r.seconds);
        out << "    <testcase classname=\"" << escape_xml(r.id.substr(0, slash)) << "\" name=\""
            << escape_xml(r.id.substr(slash + 1)) << "\" time=\"" << time_buf << "\">\n";
        const std::string detail = "verdict " + finding_text(r) + ", expected " + to_string(r.expect.engine_answer()) +
                                   " (" + r.memory_model + "), " + std::string(to_string(r.exploration)) +
                                   " exploration, " +
                                   std::to_string(r.executions) + " executions";
        if (r.status == Status::Fail) {
            out << "      <failure type=\"unexpected-verdict\" message=\"" << escape_xml(detail) << "\">"
                << escape_xml(detail + (r.witness_path.empty() ? "\nwitness: ordercheck explain " + r.id + " --out DIR"
                                                               : "\nwitness: " + r.witness_path))
                << (r.failure_detail.empty() ? "" : escape_xml("\nengine: " + r.failure_detail))
                << (r.rejected > 0 ? escape_xml("\n" + r.first_rejection) : "") << "</failure>\n";
        } else if (r.status == Status::Incomplete) {
            out << "      <skipped message=\"" << escape_xml("not settled: " + detail) << "\"/>\n";
        } else if (r.status == Status::Unjudged) {
            out << "      <skipped message=\"" << escape_xml("no expectation (no Result: line): " + detail) << "\"/>\n";
        }
        out << "      <system-out>" << escape_xml(detail) << "</system-out>\n";
        out << "    </testcase>\n";
    }
    out << "  </testsuite>\n</testsuites>\n";
    return out.str();
}

int exit_code(const std::vector<Report>& reports) {
    bool incomplete = false;
    for (const auto& r : reports) {
        if (r.status == Status::Fail) return exit_mismatch;
        if (r.status == Status::Incomplete) incomplete = true;
    }
    return incomplete ? exit_incomplete : exit_ok;
}

std::string format_text(const std::vector<Report>& reports, const RunSettings& settings) {
    std::ostringstream out;
    out << "ordercheck " << version << " (" << engine_text(settings) << ")\n";
    std::size_t id_width = 7;
    for (const auto& r : reports) id_width = std::max(id_width, r.id.size());
    id_width += 2;
    const bool relacy = settings.engine == "relacy";
    const bool per_variant = settings.model == "auto" && !relacy;  // a column names each variant's model
    out << pad("variant", id_width) << (per_variant ? pad("model", 7) : "") << pad("expected", 14) << pad("verdict", 14)
        << pad("exploration", 15)
        << pad(relacy ? "interleavings" : "explored", 15) << pad("distinct", 10) << pad("outcomes", 10) << pad("ratio", 9)
        << pad("time", 10) << "status\n";
    std::size_t passed = 0, failed = 0, incomplete = 0, unjudged = 0;
    std::size_t stuck = 0;  // incomplete for a reason a budget does not lift (Report::cut_detail)
    for (const auto& r : reports) {
        out << pad(r.id, id_width) << (per_variant ? pad(r.memory_model, 7) : "")
            << pad(to_string(r.expect.engine_answer()), 14) << pad(finding_text(r), 14)
            << pad(std::string(to_string(r.exploration)), 15) << pad(std::to_string(r.interleavings), 15)
            << pad(std::to_string(r.distinct_executions), 10) << pad(std::to_string(r.distinct_outcomes()), 10)
            << pad(ratio_text(r.interleavings_per_execution()), 9) << pad(seconds_text(r.seconds), 10)
            << to_string(r.status) << '\n';
        if (r.reduction == Reduction::FellBack)
            out << "    reduction: " << to_string(r.reduction) << " (" << r.reduction_note << ")\n";
        if (r.shard.count > 1) out << "    " << shard_text(r) << '\n';
        if (r.rejected > 0) {
            out << "    REJECTED " << r.rejected << " execution(s) the engine reported are not RC11-consistent and "
                << "were not counted" << (r.expect.engine_inconsistency_note.empty()
                                              ? std::string(": an engine or capture defect")
                                              : " (known engine defect: " +
                                                    std::string(r.expect.engine_inconsistency_note) + ")")
                << "; the first:\n";
            std::istringstream lines(r.first_rejection);
            for (std::string line; std::getline(lines, line);) out << "      " << line << '\n';
        }
        if (r.expect.engine)
            out << "    engine limitation: " << (judged_as_lkmm(r) ? "LKMM" : "RC11") << " says "
                << to_string(r.expect.memory_model) << "; this engine finds "
                << to_string(*r.expect.engine) << " (" << r.expect.engine_note << ")\n";
        if (r.expect.lkmm)
            out << "    mapping blind spot: LKMM says " << to_string(*r.expect.lkmm)
                << "; the C++11 mapping says " << to_string(r.expect.memory_model) << " (" << r.expect.lkmm_note
                << ")\n";
        if (!r.failure_detail.empty()) out << "    engine: " << r.failure_detail << '\n';
        if (!r.cut_detail.empty()) out << "    cut short: " << r.cut_detail << '\n';
        if (r.unroll_cuts > 0)
            out << "    bounded: " << r.unroll_cuts << " run(s) cut at --unroll " << r.unroll
                << " (a loop needs more iterations): the verdict covers the executions within the bound and is "
                   "no proof (raise --unroll)\n";
        if (r.thin_air > 0)
            out << "    out of thin air: " << r.thin_air << " execution(s) left out whose guessed value comes back to itself "
                << "through data dependencies and a computation (herd7 builds none either; docs/lkmm.md)\n";
        if (r.thin_air_copies > 0)
            out << "    copy cycles: " << r.thin_air_copies << " execution(s) whose value comes back to itself through "
                << "copies, counted with the value the writes have; herd7 gives such a cycle a symbolic value (docs/lkmm.md)\n";
        if (r.blocked > 0)
            out << "    blocked: " << r.blocked << " execution(s) ended with a thread waiting at a spin loop whose "
                << "value another execution changes (not complete; not counted above)\n";
        if (r.livelocked > 0)
            out << "    waiting forever: " << r.livelocked << " run(s) in which a thread waits forever, no execution as "
                << "herd7 counts them (not counted above); the first: " << r.livelock_detail << "\n";
        if (r.cross_check) {
            const CrossCheck& c = *r.cross_check;
            out << "    cross-check with Relacy (" << c.relacy_exploration << "): " << c.relacy_distinct
                << " distinct spin-free execution(s), " << c.relacy_with_spins << " with failed spin iterations; "
                << (c.missing == 0 && c.missing_outcomes == 0
                        ? std::string("every one is found by the graph engine")
                        : "MISSING from the graph engine: " + std::to_string(c.missing) + " execution(s), " +
                              std::to_string(c.missing_outcomes) + " outcome(s) (an engine defect)")
                << '\n';
            if (c.first_missing) {
                out << "      the first missing execution:\n";
                for (EventId id : c.first_missing->in_execution_order())
                    out << "        " << to_string(*c.first_missing, id) << "  "
                        << event_label(*c.first_missing, c.first_missing->event(id), Vocabulary::Cpp11) << '\n';
            }
        }
        if (!r.metrics.empty()) {
            out << "    metrics (min..max):";
            for (const auto& m : r.metrics)
                out << ' ' << m.name << ' ' << (m.min == m.max ? std::to_string(m.min)
                                                                : std::to_string(m.min) + ".." + std::to_string(m.max))
                    << (&m == &r.metrics.back() ? "" : ",");
            out << '\n';
        }
        switch (r.status) {
        case Status::Pass: ++passed; break;
        case Status::Fail: ++failed; break;
        case Status::Incomplete:
            ++incomplete;
            stuck += !r.cut_detail.empty();
            break;
        case Status::Unjudged: ++unjudged; break;
        }
    }
    if (relacy)
        out << "\ninterleavings: engine iterations run (redundant ones included); distinct: distinct executions "
               "(canonical hash of events, rf, co); outcomes: distinct final states; ratio: interleavings per "
               "distinct execution\n";
    else
        out << "\nexplored: complete execution graphs the graph engine visited (under "
            << (per_variant ? std::string("the variant's memory model") : settings.model)
            << "); distinct: distinct "
               "executions (canonical hash of events, rf, co); outcomes: distinct final states; ratio: explored per "
               "distinct execution (1.0: each execution once)\n";
    out << '\n';
    if (incomplete != 0)
        out << incomplete << " variant(s) incomplete: the search did not settle the expectation "
            << "(not exhaustive); "
            << (stuck == incomplete ? "see \"cut short\" above for why.\n"
                                    : "rerun with --search full and no budget" +
                                          std::string(stuck != 0 ? " (\"cut short\" above: why the others stopped).\n" : ".\n"));
    out << passed << " passed, " << failed << " failed";
    if (incomplete != 0) out << ", " << incomplete << " incomplete";
    if (unjudged != 0) out << ", " << unjudged << " unjudged (no expectation)";
    out << '\n';
    return out.str();
}

std::string format_json(const std::vector<Report>& reports, const RunSettings& settings) {
    using nlohmann::json;
    json doc;
    doc["schema"] = "ordercheck-report";
    doc["schema_version"] = 1;
    doc["ordercheck_version"] = version;
    doc["engine"] = {{"name", settings.engine},
                     {"memory_model", settings.engine == "relacy" ? std::string("C++11") : settings.model},
                     {"search", settings.search},
                     {"max_executions", settings.max_executions},
                     {"timeout_seconds", settings.timeout_seconds},
                     {"context_bound", settings.context_bound},
                     {"random_executions", settings.random_executions},
                     {"capture", settings.capture},
                     {"certify", settings.certify && settings.capture},
                     {"reduction", settings.reduction && settings.search == "full"},
                     {"model_option", settings.model_option},
                     {"jobs", settings.jobs}};
    doc["catalogue"] = {{"hash", settings.catalogue}, {"litmus", settings.litmus}};
    json variants = json::array();
    for (const auto& r : reports) {
        json v;
        v["id"] = r.id;
        v["summary"] = r.summary;
        v["expected"] = to_string(r.expect.engine_answer());
        v["memory_model_answer"] = to_string(r.expect.memory_model);
        v["engine_limitation"] = r.expect.engine ? json(std::string(r.expect.engine_note)) : json(nullptr);
        v["lkmm_answer"] = r.expect.lkmm ? json(std::string(to_string(*r.expect.lkmm))) : json(nullptr);
        v["justification"] = std::string(r.expect.why);
        v["verdict"] = r.finding ? json(to_string(*r.finding)) : json(nullptr);
        v["exploration"] = std::string(to_string(r.exploration));
        v["engine"] = std::string(to_string(r.engine));
        v["memory_model"] = r.memory_model;
        if (r.engine == EngineKind::Graph) v["memory_model_role"] = std::string(to_string(r.model_kind));
        v["blocked_executions"] = r.blocked;
        v["livelocked_runs"] = r.livelocked;
        if (r.livelocked > 0) v["livelock"] = r.livelock_detail;
        v["thin_air_executions"] = r.thin_air;
        v["copy_cycle_executions"] = r.thin_air_copies;
        if (r.unroll > 0) {
            v["unroll"] = r.unroll;
            v["unroll_cuts"] = r.unroll_cuts;
        }
        if (r.cross_check)
            v["cross_check"] = {{"relacy_distinct", r.cross_check->relacy_distinct},
                                {"relacy_with_spin_failures", r.cross_check->relacy_with_spins},
                                {"missing_executions", r.cross_check->missing},
                                {"missing_outcomes", r.cross_check->missing_outcomes}};
        v["status"] = std::string(to_string(r.status)) == "FAIL" ? std::string("fail") : std::string(to_string(r.status));
        v["executions"] = r.executions;
        v["positive"] = r.positive;
        v["filtered_executions"] = r.filtered;
        v["distinct_executions"] = r.distinct_executions;
        v["rejected_executions"] = r.rejected;
        v["first_rejection"] = r.rejected > 0 ? json(r.first_rejection) : json(nullptr);
        v["negative"] = r.negative();
        v["seconds"] = r.seconds;
        v["observables"] = r.observable_names;
        json outcomes = json::array();
        for (const auto& o : r.outcomes) {
            json out = {{"values", o.values}, {"bad_outcome", o.bad_outcome}, {"executions", o.executions},
                        {"distinct_executions", o.distinct}};
            if (!o.hashes.empty() && !r.execution_hashes.empty()) {  // a report that carries its hashes
                json hashes = json::array();
                for (std::uint64_t h : o.hashes) hashes.push_back(hex(h));
                out["execution_hashes"] = hashes;
            }
            outcomes.push_back(out);
        }
        v["outcomes"] = outcomes;
        json metrics = json::array();
        for (const auto& m : r.metrics) metrics.push_back({{"name", m.name}, {"min", m.min}, {"max", m.max}});
        v["metrics"] = metrics;
        v["engine_failure"] = r.failure_detail.empty() ? json(nullptr) : json(r.failure_detail);
        v["cut_short_why"] = r.cut_detail.empty() ? json(nullptr) : json(r.cut_detail);
        v["replay"] = r.replay.empty() ? json(nullptr) : json(r.replay);
        v["witness"] = r.witness_path.empty() ? json(nullptr) : json(r.witness_path);
        v["interleavings"] = r.interleavings;
        v["redundant_interleavings"] = r.redundant_interleavings;
        v["distinct_outcomes"] = r.distinct_outcomes();
        v["interleavings_per_execution"] = r.interleavings_per_execution();
        v["reduction"] = {{"mode", std::string(to_string(r.reduction))},
                          {"note", r.reduction_note.empty() ? json(nullptr) : json(r.reduction_note)}};
        v["fraction_explored"] = r.fraction;
        if (r.shard.count > 1)
            v["shard"] = {{"index", r.shard.index},
                          {"count", r.shard.count},
                          {"prefix_depth", r.shard.prefix_depth},
                          {"prefixes", r.shard.prefixes},
                          {"shard_prefixes", r.shard.shard_prefixes},
                          {"whole_tree_in_shard_zero", r.shard.whole_tree_in_shard_zero},
                          {"whole_tree_why", r.shard.whole_tree_why},
                          {"merged", r.shard.merged}};
        else
            v["shard"] = nullptr;
        if (!r.execution_hashes.empty()) {
            json hashes = json::array();
            for (std::uint64_t h : r.execution_hashes) hashes.push_back(hex(h));
            v["execution_hashes"] = hashes;
        }
        variants.push_back(v);
    }
    doc["variants"] = variants;
    doc["exit_code"] = exit_code(reports);
    return doc.dump(2) + "\n";
}

std::optional<RunDifference> run_difference(const RunSettings& a, const RunSettings& b) {
    const auto number = [](double x) {
        std::ostringstream o;
        o.precision(17);
        o << x;
        return o.str();
    };
    const auto yes = [](bool x) { return std::string(x ? "true" : "false"); };
    const auto list = [](const std::vector<std::string>& v) {
        std::string t;
        for (const auto& s : v) t += (t.empty() ? "" : ",") + s;
        return t;
    };
    const auto map_text = [](const std::map<std::string, std::string>& m) {
        std::string t;
        for (const auto& [k, v] : m) t += (t.empty() ? "" : ",") + k + "=" + v;
        return t.empty() ? std::string("none") : t;
    };
    const auto quote = [](const std::string& s) { return s.empty() ? std::string("(not recorded)") : s; };
    const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
        {"ordercheck_version", {quote(a.version), quote(b.version)}},
        {"engine", {a.engine, b.engine}},
        {"memory_model", {a.model, b.model}},
        {"model_option", {quote(a.model_option), quote(b.model_option)}},
        {"search", {a.search, b.search}},
        {"max_executions", {std::to_string(a.max_executions), std::to_string(b.max_executions)}},
        {"timeout_seconds", {number(a.timeout_seconds), number(b.timeout_seconds)}},
        {"context_bound", {std::to_string(a.context_bound), std::to_string(b.context_bound)}},
        {"random_executions", {std::to_string(a.random_executions), std::to_string(b.random_executions)}},
        {"capture", {yes(a.capture), yes(b.capture)}},
        {"certify", {yes(a.certify), yes(b.certify)}},
        {"reduction", {yes(a.reduction), yes(b.reduction)}},
        {"catalogue", {quote(a.catalogue), quote(b.catalogue)}},
        {"litmus", {map_text(a.litmus), map_text(b.litmus)}},
        {"variants", {list(a.variants), list(b.variants)}},
    };
    for (const auto& [field, values] : fields)
        if (values.first != values.second) return RunDifference{field, values.first, values.second};
    return std::nullopt;
}

namespace {

Exploration parse_exploration(const std::string& s) {
    for (Exploration e : {Exploration::Exhaustive, Exploration::Bounded, Exploration::Sampled, Exploration::CutShort,
                          Exploration::UntilFailure, Exploration::Shard})
        if (to_string(e) == s) return e;
    throw std::runtime_error("unknown exploration '" + s + "'");
}

Reduction parse_reduction(const std::string& s) {
    for (Reduction r : {Reduction::Off, Reduction::SleepSets, Reduction::FellBack, Reduction::Optimal})
        if (to_string(r) == s) return r;
    throw std::runtime_error("unknown reduction '" + s + "'");
}

template <class T>
T get_or(const nlohmann::json& j, const char* key, T fallback) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

}  // namespace

std::vector<Report> parse_json(const std::string& text,
                               const std::function<const VariantDef*(const std::string&)>& lookup,
                               RunSettings* settings) {
    using nlohmann::json;
    std::vector<Report> reports;
    try {
        const json doc = json::parse(text);
        if (!doc.is_object() || doc.value("schema", "") != "ordercheck-report")
            throw std::runtime_error("not an ordercheck JSON report");
        if (doc.value("schema_version", 0) != 1)
            throw std::runtime_error("unsupported schema_version " + doc.value("schema_version", json(0)).dump());
        if (settings != nullptr) {
            const json& e = doc.at("engine");
            settings->engine = e.value("name", "relacy");
            settings->search = e.value("search", "full");
            settings->max_executions = e.value("max_executions", std::uint64_t{0});
            settings->timeout_seconds = e.value("timeout_seconds", 0.0);
            settings->context_bound = e.value("context_bound", 0u);
            settings->random_executions = e.value("random_executions", std::uint64_t{0});
            settings->capture = e.value("capture", true);
            settings->certify = e.value("certify", true);
            settings->reduction = e.value("reduction", false);
            settings->jobs = e.value("jobs", 1u);
            const std::string model = e.value("memory_model", std::string("RC11"));
            settings->model = model == "C++11" ? "RC11" : model;  // "C++11": Relacy's, named by the engine
            // The identity of the run (absent from reports of older versions: left empty)
            settings->model_option = e.value("model_option", std::string());
            settings->version = doc.value("ordercheck_version", std::string());
            const json catalogue = doc.value("catalogue", json::object());
            settings->catalogue = catalogue.is_object() ? catalogue.value("hash", std::string()) : std::string();
            settings->litmus = catalogue.is_object() ? catalogue.value("litmus", std::map<std::string, std::string>{})
                                                     : std::map<std::string, std::string>{};
            settings->variants.clear();
            for (const json& v : doc.at("variants")) settings->variants.push_back(v.at("id").get<std::string>());
        }
        for (const json& v : doc.at("variants")) {
            Report r;
            r.id = v.at("id").get<std::string>();
            const VariantDef* def = lookup(r.id);
            if (def == nullptr) throw std::runtime_error("unknown variant '" + r.id + "'");
            r.summary = def->summary;
            r.engine = parse_engine(v.value("engine", std::string("relacy"))).value_or(EngineKind::Relacy);
            r.memory_model = v.value("memory_model", std::string());
            // the role of the model that judged (absent from reports of older versions: its name)
            const std::string role = v.value("memory_model_role", r.memory_model);
            r.model_kind = role == "LKMM" ? ModelKind::Lkmm : role == "SC" ? ModelKind::Sc : ModelKind::Rc11;
            r.expect = expectation_for(def->expect, r.engine, r.model_kind);
            r.blocked = v.value("blocked_executions", std::uint64_t{0});
            r.livelocked = v.value("livelocked_runs", std::uint64_t{0});
            r.livelock_detail = v.value("livelock", std::string());
            r.thin_air = v.value("thin_air_executions", std::uint64_t{0});
            r.thin_air_copies = v.value("copy_cycle_executions", std::uint64_t{0});
            r.unroll = v.value("unroll", 0u);
            r.unroll_cuts = v.value("unroll_cuts", std::uint64_t{0});
            if (!v.at("verdict").is_null()) {
                const auto f = parse_finding(v.at("verdict").get<std::string>());
                if (!f) throw std::runtime_error("unknown verdict " + v.at("verdict").dump());
                r.finding = *f;
            }
            r.exploration = parse_exploration(v.at("exploration").get<std::string>());
            const std::string status = v.at("status").get<std::string>();
            r.status = status == "pass"       ? Status::Pass
                       : status == "fail"     ? Status::Fail
                       : status == "unjudged" ? Status::Unjudged
                                              : Status::Incomplete;
            r.executions = v.at("executions").get<std::uint64_t>();
            r.positive = v.at("positive").get<std::uint64_t>();
            r.filtered = v.value("filtered_executions", std::uint64_t{0});
            r.distinct_executions = v.at("distinct_executions").get<std::uint64_t>();
            r.rejected = v.value("rejected_executions", std::uint64_t{0});
            r.first_rejection = get_or<std::string>(v, "first_rejection", "");
            r.seconds = v.value("seconds", 0.0);
            r.observable_names = v.value("observables", std::vector<std::string>{});
            for (const json& o : v.at("outcomes")) {
                r.outcomes.push_back(OutcomeRecord{o.at("values").get<std::vector<Value>>(),
                                                   o.at("bad_outcome").get<bool>(),
                                                   o.at("executions").get<std::uint64_t>(),
                                                   o.value("distinct_executions", std::uint64_t{0}),
                                                   {}});
                for (const json& h : o.value("execution_hashes", json::array()))
                    r.outcomes.back().hashes.push_back(std::stoull(h.get<std::string>(), nullptr, 16));
            }
            for (const json& m : v.at("metrics"))
                r.metrics.push_back(MetricRange{m.at("name").get<std::string>(), m.at("min").get<Value>(),
                                                m.at("max").get<Value>()});
            r.failure_detail = get_or<std::string>(v, "engine_failure", "");
            r.cut_detail = get_or<std::string>(v, "cut_short_why", "");
            r.replay = get_or<std::string>(v, "replay", "");
            r.witness_path = get_or<std::string>(v, "witness", "");
            r.interleavings = v.value("interleavings", r.executions);
            r.redundant_interleavings = v.value("redundant_interleavings", std::uint64_t{0});
            if (const auto it = v.find("reduction"); it != v.end() && it->is_object()) {
                r.reduction = parse_reduction(it->at("mode").get<std::string>());
                r.reduction_note = get_or<std::string>(*it, "note", "");
            }
            r.fraction = v.value("fraction_explored", 0.0);
            if (const auto it = v.find("shard"); it != v.end() && it->is_object()) {
                r.shard.index = it->at("index").get<unsigned>();
                r.shard.count = it->at("count").get<unsigned>();
                r.shard.prefix_depth = it->value("prefix_depth", 0u);
                r.shard.prefixes = it->value("prefixes", std::uint64_t{0});
                r.shard.shard_prefixes = it->value("shard_prefixes", std::uint64_t{0});
                r.shard.whole_tree_in_shard_zero = it->value("whole_tree_in_shard_zero", false);
                r.shard.whole_tree_why = it->value("whole_tree_why", std::string{});
                r.shard.merged = it->value("merged", std::vector<unsigned>{});
            }
            for (const json& h : v.value("execution_hashes", json::array()))
                r.execution_hashes.push_back(std::stoull(h.get<std::string>(), nullptr, 16));
            reports.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("malformed ordercheck JSON report: ") + e.what());
    }
    return reports;
}

}  // namespace oc::cli
