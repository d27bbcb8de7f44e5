// SPDX-License-Identifier: MIT
#include "checker/cli/explain.hpp"

#include <fstream>
#include <stdexcept>

namespace oc::cli {

namespace fs = std::filesystem;

std::set<EventId> highlighted_events(const ExecutionGraph& g, bool engine_failure) {
    std::set<EventId> out;
    for (EventId id : g.events()) {
        const Event& e = g.event(id);
        if (!e.is_read() || !e.reads_from || !e.location) continue;
        // Stale: a write co-after the one read from had already executed when the read ran.
        const auto& co = g.co(*e.location);
        bool after_source = false;
        for (EventId w : co) {
            if (w == *e.reads_from) {
                after_source = true;
                continue;
            }
            if (after_source && w != id && g.event(w).step < e.step) {
                out.insert(id);
                break;
            }
        }
    }
    if (engine_failure)
        for (std::size_t t = 1; t < g.thread_count(); ++t)
            if (!g.thread(t).empty()) out.insert(g.thread(t).back().id);
    return out;
}

namespace {

void write_file(const fs::path& path, const std::string& text, ExplainResult& result) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path.string());
    result.written.push_back(path);
}

}  // namespace

ExplainResult explain(const Report& report, const ExplainOptions& options, const fs::path& dir) {
    ExplainResult result;
    const bool failure = report.finding && std::holds_alternative<EngineFailure>(*report.finding);
    const ExecutionGraph* graph = nullptr;
    std::string what;
    if (report.witness) {
        graph = &*report.witness;
        what = failure ? "the execution the engine stopped on (" + to_string(*report.finding) + ")"
                       : "the first execution with the bad outcome";
    } else {
        result.messages.push_back(report.id + ": no bad outcome in " + std::to_string(report.executions) +
                                  " executions (" + std::string(to_string(report.exploration)) +
                                  " exploration): there is no witness to draw");
        if (options.any && report.first_execution) {
            graph = &*report.first_execution;
            what = "a representative execution (the first explored; it has no bad outcome)";
        } else if (!options.any) {
            result.messages.push_back("use --any to draw a representative execution instead");
        }
    }
    if (graph == nullptr) return result;

    if (fs::exists(dir) && !fs::is_directory(dir)) throw std::runtime_error(dir.string() + " is not a directory");
    if (fs::exists(dir) && !fs::is_empty(dir) && !options.force)
        throw std::runtime_error(dir.string() + " already holds files; choose an empty directory or pass --force");
    fs::create_directories(dir);

    ExportOptions eo;
    eo.title = report.id + ": " + what;
    eo.highlighted = highlighted_events(*graph, failure);
    const std::string dot = to_dot(*graph, options.show, eo);
    write_file(dir / "witness.dot", dot, result);
    write_file(dir / "witness.txt", to_text_trace(*graph), result);
    write_file(dir / "interleaving.txt", to_interleaving_text(*graph), result);
    write_file(dir / "interleaving.svg", to_interleaving_svg(*graph), result);
    write_file(dir / "witness.json", to_json(*graph), result);
    std::string error;
    if (auto svg = render_svg(dot, error))
        write_file(dir / "witness.svg", *svg, result);
    else
        result.messages.push_back("witness.svg not written: " + error);
    result.drew = true;
    result.messages.insert(result.messages.begin(), report.id + ": drew " + what);
    return result;
}

}  // namespace oc::cli
