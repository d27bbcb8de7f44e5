// SPDX-License-Identifier: MIT
#include "checker/cli/format.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/version.hpp"

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
    return t;
}

}  // namespace

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
                     {"random_executions", settings.random_executions}};
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
