// SPDX-License-Identifier: MIT
#include "checker/cli/format.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/version.hpp"
#include "traces/export.hpp"

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

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string finding_text(const Report& r) { return r.finding ? to_string(*r.finding) : "-"; }

std::string engine_text(const RunSettings& s) {
    std::string t = "relacy " + s.search + " search";
    if (s.search == "bound") t += ", context bound " + std::to_string(s.context_bound);
    if (s.search == "random") t += ", " + std::to_string(s.random_executions) + " executions";
    if (s.max_executions != 0) t += ", at most " + std::to_string(s.max_executions) + " executions";
    if (s.timeout_seconds > 0) t += ", timeout " + seconds_text(s.timeout_seconds);
    if (!s.capture)
        t += ", no capture";
    else if (!s.certify)
        t += ", executions not certified";
    else
        t += ", every execution certified against RC11";
    return t;
}

}  // namespace

std::string site_line(const NecessityRow& row) {
    std::string verdict = row.report.finding ? to_string(*row.report.finding) : "-";
    std::string result(to_string(row.result));
    if (row.weakening != Weakening::Remove) {
        if (row.result == Necessity::Needed) result = "needed: the weaker form breaks it";
        if (row.result == Necessity::NotNeeded) result = "the weaker form suffices under the C++11 mapping";
    }
    return pad(site_label(row.site), 52) + " " + pad(weakening_label(row.site, row.weakening), 34) + " " +
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
    out << "ordercheck " << version << ": diff " << d.a.id << " (A) -> " << d.b.id << " (B)\n";
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
            std::istringstream lines(to_text_trace(d.b.outcome_witnesses[i]));
            for (std::string line; std::getline(lines, line);) out << "      " << line << '\n';
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

namespace {
std::string xml_escape(std::string_view s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}
}  // namespace

std::string format_junit(const std::vector<Report>& reports, const RunSettings& settings) {
    std::size_t failures = 0, skipped = 0;
    double total = 0;
    for (const auto& r : reports) {
        failures += r.status == Status::Fail;
        skipped += r.status == Status::Incomplete;
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
    out << "      <property name=\"engine\" value=\"" << xml_escape(engine_text(settings)) << "\"/>\n";
    out << "    </properties>\n";
    for (const auto& r : reports) {
        const auto slash = r.id.find('/');
        std::snprintf(time_buf, sizeof time_buf, "%.6f", r.seconds);
        out << "    <testcase classname=\"" << xml_escape(r.id.substr(0, slash)) << "\" name=\""
            << xml_escape(r.id.substr(slash + 1)) << "\" time=\"" << time_buf << "\">\n";
        const std::string detail = "verdict " + finding_text(r) + ", expected " + to_string(r.expect.engine_answer()) +
                                   ", " + std::string(to_string(r.exploration)) + " exploration, " +
                                   std::to_string(r.executions) + " executions";
        if (r.status == Status::Fail) {
            out << "      <failure type=\"unexpected-verdict\" message=\"" << xml_escape(detail) << "\">"
                << xml_escape(detail + (r.witness_path.empty() ? "\nwitness: ordercheck explain " + r.id + " --out DIR"
                                                               : "\nwitness: " + r.witness_path))
                << (r.failure_detail.empty() ? "" : xml_escape("\nengine: " + r.failure_detail))
                << (r.rejected > 0 ? xml_escape("\n" + r.first_rejection) : "") << "</failure>\n";
        } else if (r.status == Status::Incomplete) {
            out << "      <skipped message=\"" << xml_escape("not settled: " + detail) << "\"/>\n";
        }
        out << "      <system-out>" << xml_escape(detail) << "</system-out>\n";
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
    out << pad("variant", id_width) << pad("expected", 14) << pad("verdict", 14) << pad("exploration", 15)
        << pad("executions", 12) << pad("distinct", 10) << pad("time", 10) << "status\n";
    std::size_t passed = 0, failed = 0, incomplete = 0;
    for (const auto& r : reports) {
        out << pad(r.id, id_width) << pad(to_string(r.expect.engine_answer()), 14) << pad(finding_text(r), 14)
            << pad(std::string(to_string(r.exploration)), 15) << pad(std::to_string(r.executions), 12)
            << pad(std::to_string(r.distinct_executions), 10) << pad(seconds_text(r.seconds), 10)
            << to_string(r.status) << '\n';
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
            out << "    engine limitation: RC11 says " << to_string(r.expect.memory_model) << "; this engine finds "
                << to_string(*r.expect.engine) << " (" << r.expect.engine_note << ")\n";
        if (r.expect.lkmm)
            out << "    mapping blind spot: LKMM says " << to_string(*r.expect.lkmm)
                << "; the C++11 mapping says " << to_string(r.expect.memory_model) << " (" << r.expect.lkmm_note
                << ")\n";
        if (!r.failure_detail.empty()) out << "    engine: " << r.failure_detail << '\n';
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
        case Status::Incomplete: ++incomplete; break;
        }
    }
    out << '\n';
    if (incomplete != 0)
        out << incomplete << " variant(s) incomplete: the search did not settle the expectation "
            << "(not exhaustive); rerun with --search full and no budget.\n";
    out << passed << " passed, " << failed << " failed";
    if (incomplete != 0) out << ", " << incomplete << " incomplete";
    out << '\n';
    return out.str();
}

std::string format_json(const std::vector<Report>& reports, const RunSettings& settings) {
    using nlohmann::json;
    json doc;
    doc["schema"] = "ordercheck-report";
    doc["schema_version"] = 1;
    doc["ordercheck_version"] = version;
    doc["engine"] = {{"name", "relacy"},
                     {"search", settings.search},
                     {"max_executions", settings.max_executions},
                     {"timeout_seconds", settings.timeout_seconds},
                     {"context_bound", settings.context_bound},
                     {"random_executions", settings.random_executions},
                     {"capture", settings.capture},
                     {"certify", settings.certify && settings.capture}};
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
        v["status"] = r.status == Status::Pass ? "pass" : r.status == Status::Fail ? "fail" : "incomplete";
        v["executions"] = r.executions;
        v["positive"] = r.positive;
        v["distinct_executions"] = r.distinct_executions;
        v["rejected_executions"] = r.rejected;
        v["first_rejection"] = r.rejected > 0 ? json(r.first_rejection) : json(nullptr);
        v["negative"] = r.negative();
        v["seconds"] = r.seconds;
        v["observables"] = r.observable_names;
        json outcomes = json::array();
        for (const auto& o : r.outcomes)
            outcomes.push_back({{"values", o.values}, {"bad_outcome", o.bad_outcome}, {"executions", o.executions}});
        v["outcomes"] = outcomes;
        json metrics = json::array();
        for (const auto& m : r.metrics) metrics.push_back({{"name", m.name}, {"min", m.min}, {"max", m.max}});
        v["metrics"] = metrics;
        v["engine_failure"] = r.failure_detail.empty() ? json(nullptr) : json(r.failure_detail);
        variants.push_back(v);
    }
    doc["variants"] = variants;
    doc["exit_code"] = exit_code(reports);
    return doc.dump(2) + "\n";
}

}  // namespace oc::cli
