// SPDX-License-Identifier: MIT
#include "cli/report_html.hpp"

#include <cstdio>
#include <set>
#include <sstream>

#include "cli/explain.hpp"
#include "checker/version.hpp"
#include "traces/export.hpp"
#include "traces/text_util.hpp"

namespace oc::cli {

namespace {

std::string esc(std::string_view s) { return escape_xml(s); }

std::string anchor(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
    return s;
}

/// The <svg> element of an SVG document (drops the XML prolog and DOCTYPE).
std::string svg_element(const std::string& svg) {
    const auto start = svg.find("<svg");
    return start == std::string::npos ? std::string() : svg.substr(start);
}

std::string finding(const Report& r) { return r.finding ? to_string(*r.finding) : "-"; }

std::string seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 1 ? "%.1f ms" : "%.2f s", s < 1 ? s * 1000 : s);
    return buf;
}

constexpr const char* style = R"(
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 80em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-top: 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.pass { color: #176f2c; font-weight: bold; } td.FAIL { color: #b00020; font-weight: bold; }
td.incomplete { color: #a05a00; font-weight: bold; }
p.stopped { color: #a05a00; border: 1px solid #a05a00; padding: 0.5em; }
.note { color: #555; font-size: 0.85em; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; vertical-align: top; }
figcaption { font-size: 0.85em; color: #444; max-width: 40em; }
figure svg { max-width: 38em; height: auto; }
pre.cycle { font-size: 0.8em; background: #f7f7f7; padding: 0.5em; white-space: pre-wrap; }
)";

}  // namespace

std::vector<ModelSection> build_sections(const std::vector<ModelDef>& models, bool with_necessity, EngineKind engine,
                                         std::optional<ModelKind> model, const MemoryModel* memory_model) {
    CheckOptions options;
    options.explore.engine = engine;
    options.explore.memory_model = memory_model;
    std::vector<ModelSection> out;
    for (const auto& m : models) {
        ModelSection s{m.name, m.family, m.description, {}, {}, {}};
        for (const auto& v : m.variants) {
            // Stopped (stop_cause(): an interrupt, the command's --timeout): a variant whose
            // searches the stop reached is left out whole, as are those after it.
            if (stop_cause() != StopCause::None) break;
            options.explore.model = model ? *model : default_memory_model(v, engine);
            Report r = check(v, options);
            std::optional<NecessityReport> n;
            if (with_necessity && r.finding == Finding{Verdict::Never} && r.exploration == Exploration::Exhaustive &&
                r.status == Status::Pass && stop_cause() == StopCause::None)
                n = necessity(v, options);
            std::optional<std::pair<Report, std::string>> witness;
            if (r.witness && stop_cause() == StopCause::None) {
                std::string note;
                try {
                    Report explained = explaining_report(v, r, models, options, note);
                    witness.emplace(std::move(explained), std::move(note));
                } catch (const std::invalid_argument&) {
                    if (stop_cause() == StopCause::None) throw;  // else its search was cut short
                }
            }
            if (stop_cause() != StopCause::None) break;
            if (n) s.necessity.push_back(std::move(*n));
            if (witness) s.witnesses.push_back(std::move(*witness));
            s.reports.push_back(std::move(r));
        }
        if (!s.reports.empty() || stop_cause() == StopCause::None) out.push_back(std::move(s));
        if (stop_cause() != StopCause::None) break;
    }
    return out;
}

std::string render_html(const std::vector<ModelSection>& sections, const std::string& notice) {
    std::ostringstream o;
    std::size_t passed = 0, failed = 0, incomplete = 0;
    for (const auto& s : sections)
        for (const auto& r : s.reports) {
            passed += r.status == Status::Pass;
            failed += r.status == Status::Fail;
            incomplete += r.status == Status::Incomplete;
        }
    const bool graphviz = dot_available();
    bool graph_engine = false, lkmm = false;
    std::set<std::string> memory_models;
    for (const auto& s : sections)
        for (const auto& r : s.reports) {
            graph_engine = graph_engine || r.engine == EngineKind::Graph;
            if (r.engine == EngineKind::Graph) memory_models.insert(r.memory_model);
            lkmm = lkmm || judged_as_lkmm(r);
        }
    // one model for the page, or "per variant" (its column says which)
    const bool per_variant = memory_models.size() > 1;
    const std::string memory_model = memory_models.empty() ? "RC11" : per_variant ? "" : *memory_models.begin();
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ordercheck report</title>\n"
      << "<style>" << style << "</style>\n</head>\n<body>\n";
    o << "<h1>ordercheck report</h1>\n<p>ordercheck " << version
      << ", engine: "
      << (!graph_engine  ? std::string("relacy full search")
          : per_variant  ? std::string("graph engine (every execution consistent under the variant's memory model once: "
                                       "LKMM for models written with kernel primitives, RC11 for C++11 ones)")
                         : "graph engine (every " + memory_model + "-consistent execution once)")
      << (per_variant             ? ", every execution checked against that model's axioms. "
          : memory_model == "LKMM" ? ", every execution checked against LKMM's axioms. "
          : memory_model.rfind("cat: ", 0) == 0 ? ", every execution checked against the cat model's axioms. "
                                   : ", every execution certified against RC11. ")
      << passed << " passed, " << failed
      << " failed, " << incomplete << " incomplete.</p>\n";
    // Under LKMM alone there is no mapping to disagree with: the page speaks LKMM's words only.
    if (!notice.empty()) o << "<p class=\"stopped\"><b>Partial report.</b> " << esc(notice) << "</p>\n";
    o << "<p class=\"note\">Only an <b>exhaustive</b> Never is a proof, within the semantics the engine explores "
         "(docs/limitations.md). "
      << (lkmm && !per_variant ? "Known engine limitations are marked in the notes column.</p>\n"
                                 : "Mapping blind spots (LKMM disagrees with the C++11 mapping) and known engine "
                                   "limitations are marked in the notes column.</p>\n");
    if (!graphviz) o << "<p class=\"note\">graphviz <code>dot</code> was not found: execution graphs are omitted; "
                        "interleaving diagrams are shown.</p>\n";
    o << "<ul>\n";
    for (const auto& s : sections)
        o << "<li><a href=\"#" << anchor(s.name) << "\">" << esc(s.name) << "</a> (" << esc(s.family) << ")</li>\n";
    o << "</ul>\n";

    for (const auto& s : sections) {
        o << "<section id=\"" << anchor(s.name) << "\">\n<h2>" << esc(s.name) << "</h2>\n<p>" << esc(s.description)
          << "</p>\n";
        o << "<table class=\"variants\">\n<tr><th>variant</th><th>what differs</th>"
          << (per_variant ? "<th>model</th>" : "") << "<th>expected</th><th>verdict</th>"
             "<th>exploration</th><th>executions</th><th>distinct</th><th>time</th><th>status</th><th>notes</th></tr>\n";
        for (const auto& r : s.reports) {
            std::string notes;
            if (r.expect.engine)
                notes += "engine limitation: RC11 says " + to_string(r.expect.memory_model) + ". ";
            if (r.expect.lkmm) notes += "mapping blind spot: LKMM says " + std::string(to_string(*r.expect.lkmm)) + ". ";
            if (r.rejected) notes += std::to_string(r.rejected) + " inconsistent executions rejected. ";
            if (!r.failure_detail.empty()) notes += "engine: " + r.failure_detail;
            o << "<tr><td>" << esc(r.id) << "</td><td>" << esc(r.summary) << "</td><td>"
              << (per_variant ? esc(r.memory_model) + "</td><td>" : "") << esc(to_string(r.expect.engine_answer()))
              << "</td><td>" << esc(finding(r)) << "</td><td>"
              << esc(to_string(r.exploration)) << "</td><td>" << r.executions << "</td><td>" << r.distinct_executions
              << "</td><td>" << seconds(r.seconds) << "</td><td class=\"" << to_string(r.status) << "\">"
              << to_string(r.status) << "</td><td>" << esc(notes) << "</td></tr>\n";
        }
        o << "</table>\n";

        bool any_metric = false;
        for (const auto& r : s.reports) any_metric |= !r.metrics.empty();
        if (any_metric) {
            o << "<h3>Metrics (min..max over executions)</h3>\n<table class=\"metrics\">\n<tr><th>variant</th>"
                 "<th>metric</th><th>min</th><th>max</th></tr>\n";
            for (const auto& r : s.reports)
                for (const auto& m : r.metrics)
                    o << "<tr><td>" << esc(r.id) << "</td><td>" << esc(m.name) << "</td><td>" << m.min << "</td><td>"
                      << m.max << "</td></tr>\n";
            o << "</table>\n";
        }

        for (const auto& n : s.necessity) {
            if (n.rows.empty()) continue;
            o << "<h3>Barrier necessity of " << esc(n.base.id) << "</h3>\n<table class=\"necessity\">\n<tr><th>site</th>"
                 "<th>weakening</th><th>verdict</th><th>exploration</th><th>result</th><th>the cycle it breaks "
                 "(barrier in brackets)</th><th>LKMM caveat</th></tr>\n";
            for (const auto& row : n.rows) {
                std::string cycle;
                if (row.result == Necessity::Needed && row.report.witness)
                    if (const auto c = cycle_of(row.report); c && !c->steps.empty())
                        cycle = cycle_heading(*c) + ": " + cycle_line(*row.report.witness, *c);
                o << "<tr><td>" << esc(site_label(row.site)) << "</td><td>"
                  << esc(weakening_label(row.site, row.weakening, vocabulary_of(row.report))) << "</td><td>"
                  << esc(finding(row.report)) << "</td><td>" << esc(to_string(row.report.exploration)) << "</td><td>"
                  << esc(result_label(row))
                  << "</td><td><code>" << esc(cycle) << "</code></td><td>" << esc(row.lkmm_caveat) << "</td></tr>\n";
            }
            o << "</table>\n";
        }

        bool heading = false;
        for (const auto& [r, note] : s.witnesses) {
            if (!r.witness) continue;
            if (!heading) {
                o << "<h3>Witnesses</h3>\n";
                heading = true;
            }
            const auto cycle = cycle_of(r);
            const bool focused = focus_of(*r.witness, cycle).has_value() &&
                                 !(r.finding && std::holds_alternative<EngineFailure>(*r.finding));
            std::string error;
            if (graphviz)
                if (auto svg = render_svg(witness_dot(r, *r.witness, ExplainOptions{}, cycle, r.id), error))
                    o << "<figure class=\"graph\">" << svg_element(*svg) << "<figcaption>" << esc(r.id)
                      << ": execution graph" << esc(note)
                      << (focused ? " (focused: the explaining cycle, or the stale reads; the barrier green)" : "")
                      << " (po black, rf red, co blue, fr orange; stale reads filled)</figcaption></figure>\n";
            o << "<figure class=\"interleaving\">" << svg_element(to_interleaving_svg(*r.witness, vocabulary_of(r))) << "<figcaption>"
              << esc(r.id) << ": interleaving, time downward</figcaption></figure>\n";
            if (cycle) o << "<pre class=\"cycle\">" << esc(cycle_text(*r.witness, *cycle)) << "</pre>\n";
        }
        o << "</section>\n";
    }
    o << "</body>\n</html>\n";
    return o.str();
}

}  // namespace oc::cli
