// SPDX-License-Identifier: MIT
#include "cli/explain.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "traces/relations.hpp"
#include "traces/text_util.hpp"

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

/// Writes under a temporary name and renames: a file is never left half written (an interrupt,
/// a second Ctrl-C that ends the process at once).
void write_file(const fs::path& path, const std::string& text, ExplainResult& result) {
    fs::path part = path;
    part += ".part";
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    std::error_code renamed;
    if (out) fs::rename(part, path, renamed);
    if (!out || renamed) {
        fs::remove(part, renamed);
        throw std::runtime_error("cannot write " + path.string());
    }
    result.written.push_back(path);
}

}  // namespace

const MemoryModel& model_of(const Report& report) {
    const MemoryModel* m = find_memory_model(report.memory_model);  // "C++11 (Relacy)": none
    return m != nullptr ? *m : rc11_model();
}

Vocabulary vocabulary_of(const Report& report) {
    return judged_as_lkmm(report) ? Vocabulary::Lkmm : Vocabulary::Cpp11;
}

std::optional<ExplainingCycle> cycle_of(const Report& report, std::string* why) {
    if (!report.witness) return std::nullopt;
    if (report.finding && std::holds_alternative<EngineFailure>(*report.finding)) {
        if (why) *why = "the engine stopped on a failure, not a bad outcome";
        return std::nullopt;
    }
    return explaining_cycle(*report.witness, model_of(report), why);
}

namespace {

RelationKind kind_of(const std::string& relation) {
    if (relation.starts_with("rf")) return RelationKind::rf;
    if (relation.starts_with("co")) return RelationKind::co;
    if (relation.starts_with("fr")) return RelationKind::fr;
    return RelationKind::po;
}

/// `text` as lines of at most `width` columns (words kept whole), each after `indent`.
std::string wrap(const std::string& text, std::string_view indent, std::size_t width) {
    std::istringstream words(text);
    std::string out, line, word;
    while (words >> word) {
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
            out += std::string(indent) + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += std::string(indent) + line + "\n";
    return out;
}

}  // namespace

std::optional<Focus> focus_of(const ExecutionGraph& g, const std::optional<ExplainingCycle>& cycle) {
    Focus f;
    std::set<EventId> events;
    if (cycle && !cycle->steps.empty()) {
        for (const CycleStep& s : cycle->steps) {
            events.insert(s.from);
            f.edges.push_back(FocusEdge{s.from, s.to, s.relation, kind_of(s.relation), s.barrier});
        }
        for (EventId b : cycle->barriers.empty() ? cycle->restored : cycle->barriers) {
            events.insert(b);
            f.barriers.insert(b);
        }
    } else {
        // No cycle: the reads that miss a write of another thread, what they read, what they miss.
        const Relation from_read = fr_imm(g);
        for (const auto& [id, missed] : from_read.pairs()) {
            if (missed.thread == id.thread) continue;
            const EventId source = *g.event(id).reads_from;
            events.insert({id, source, missed});
            f.edges.push_back(FocusEdge{source, id, "rf", RelationKind::rf, false});
            f.edges.push_back(FocusEdge{id, missed, "fr", RelationKind::fr, false});
        }
        if (cycle)
            for (EventId b : cycle->restored) {
                events.insert(b);
                f.barriers.insert(b);
            }
    }
    if (events.empty()) return std::nullopt;
    f.events.assign(events.begin(), events.end());
    return f;
}

std::string cycle_text(const ExecutionGraph& g, const ExplainingCycle& c, std::string_view indent, std::size_t width) {
    const std::string in(indent);
    std::string out = in + "explaining cycle: " + cycle_heading(c) + "\n";
    if (!c.steps.empty()) {
        out += in + "  " + cycle_line(g, c) + "\n";
        std::size_t name_width = 0;
        for (const CycleStep& s : c.steps)
            name_width = std::max(name_width, cycle_event_name(g, g.event(s.from), vocabulary_of(c)).size());
        for (std::size_t i = 0; i <= c.steps.size(); ++i) {
            const EventId id = i < c.steps.size() ? c.steps[i].from : c.steps.front().from;
            const Event& e = g.event(id);
            std::string line = in + "    " + pad_right(to_string(g, id), 8) + " " +
                               pad_right(cycle_event_name(g, e, vocabulary_of(c)), name_width) + "  " + source_spot(e);
            if (std::binary_search(c.barriers.begin(), c.barriers.end(), id)) line += "  <- the barrier";
            out += trim_line_ends(line) + "\n";
            if (i < c.steps.size())
                out += in + "      -" + c.steps[i].relation + "->" + (c.steps[i].barrier ? "  (ordered by the barrier)" : "") + "\n";
        }
        if (c.kind == ExplainingCycle::Kind::Restored)
            out += in + "  the barrier supplies: " + c.barrier_relation + "\n";
    }
    out += wrap(cycle_prose(g, c), in + "  ", width);
    return out;
}

std::string cycle_json(const ExecutionGraph& g, const ExplainingCycle& c) {
    using nlohmann::json;
    const auto event_json = [&](EventId id) {
        const Event& e = g.event(id);
        return json{{"id", to_string(g, id)}, {"name", cycle_event_name(g, e, vocabulary_of(c))},
                    {"label", event_label(g, e, vocabulary_of(c))},
                    {"primitive", e.primitive}, {"source", source_spot(e)}};
    };
    json steps = json::array();
    for (const CycleStep& s : c.steps)
        steps.push_back(json{{"from", event_json(s.from)}, {"to", event_json(s.to)}, {"relation", s.relation},
                             {"barrier", s.barrier}});
    json barriers = json::array();
    for (EventId b : c.barriers) barriers.push_back(event_json(b));
    const char* kind = c.kind == ExplainingCycle::Kind::Restored ? "restored"
                       : c.kind == ExplainingCycle::Kind::NotSc  ? "not-sc"
                                                                 : "sc";
    const json out{{"model", c.model},
                   {"kind", kind},
                   {"axiom", c.axiom},
                   {"relation", c.relation},
                   {"heading", cycle_heading(c)},
                   {"barrier_relation", c.barrier_relation},
                   {"barriers", barriers},
                   {"steps", steps},
                   {"line", cycle_line(g, c)},
                   {"prose", cycle_prose(g, c)}};
    return out.dump(2) + "\n";
}

Report explaining_report(const VariantDef& variant, Report report, const std::vector<ModelDef>& models,
                         const CheckOptions& options, std::string& note) {
    note.clear();
    const bool failure = report.finding && std::holds_alternative<EngineFailure>(*report.finding);
    if (!report.witness || failure) return report;
    // A declared mutant: its base with the barrier weakened (the same program, with the barrier
    // kept in the graph), whose witness has an explaining cycle through that barrier.
    if (variant.derived) {
        Report weakened = check_as_weakened_base(variant, models, options);
        if (weakened.witness && weakened.finding == report.finding) {
            note = " of " + derivation_label(variant) + ", the program this mutant writes";
            return weakened;
        }
    }
    // A cycle that only says "not SC" may have nothing to do with the bad outcome: if the outcome
    // also happens with no reordering at all, that execution is the explanation.
    const auto c = cycle_of(report);
    if (c && c->kind == ExplainingCycle::Kind::NotSc) {
        CheckOptions sc = options;
        sc.explore.engine = EngineKind::Graph;
        sc.explore.model = ModelKind::Sc;
        sc.explore.memory_model = nullptr;
        sc.keep_first_execution = false;
        sc.collect_sites = false;
        Report under_sc = check(variant, sc);
        if (under_sc.witness && under_sc.finding && !std::holds_alternative<EngineFailure>(*under_sc.finding)) {
            note = ", with no reordering at all (an SC execution)";
            // An SC execution is one of the asked model's too: named in its words (LKMM's tags).
            under_sc.memory_model = report.memory_model;
            under_sc.model_kind = report.model_kind;
            return under_sc;
        }
    }
    return report;
}

std::optional<std::string> unknown_relation(const MemoryModel& model, const RelationSet& show) {
    const std::vector<std::string> names = model.relation_names();
    for (const std::string& m : show.model)
        if (std::find(names.begin(), names.end(), m) == names.end()) {
            std::string known;
            for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
            return "'" + m + "': " + std::string(model.name()) + " defines no such relation (the figure draws " +
                   figure_relation_names() + (known.empty() ? std::string() : "; the model: " + known) + ")";
        }
    return std::nullopt;
}

std::string witness_dot(const Report& report, const ExecutionGraph& g, const ExplainOptions& options,
                        const std::optional<ExplainingCycle>& cycle, const std::string& title) {
    const bool failure = report.finding && std::holds_alternative<EngineFailure>(*report.finding);
    ExportOptions eo;
    eo.title = title;
    eo.highlighted = highlighted_events(g, failure);
    eo.vocabulary = vocabulary_of(report);
    if (!options.full && !failure)
        if (const auto focus = focus_of(g, cycle)) {
            // only the stale reads on show stay filled
            std::set<EventId> keep;
            for (EventId id : focus->events)
                if (eo.highlighted.contains(id)) keep.insert(id);
            eo.highlighted = std::move(keep);
            return to_dot_focused(g, *focus, eo);
        }
    // The relations the model defines: those the list names beyond the figure's own, and sw, hb
    // and eco where the model has its own (LKMM's hb is not C++11's (po | sw)+).
    RelationSet show = options.show;
    const MemoryModel& model = model_of(report);
    const std::vector<std::string> defined = model.relation_names();
    for (RelationKind k : {RelationKind::sw, RelationKind::hb, RelationKind::eco}) {
        const std::string name(short_name(k));
        if (show.contains(k) && std::find(defined.begin(), defined.end(), name) != defined.end()) {
            show.shown.erase(k);
            if (std::find(show.model.begin(), show.model.end(), name) == show.model.end()) show.model.push_back(name);
        }
    }
    if (const auto why = unknown_relation(model, show)) throw std::invalid_argument("--show: " + *why + "; or focus, all");
    for (const std::string& name : show.model) {
        auto pairs = model.relation(g, name);
        if (!pairs) throw std::invalid_argument("--show: '" + name + "' is not a relation of " + std::string(model.name()));
        eo.model_relations.push_back(ModelRelation{name, std::move(*pairs)});
    }
    return to_dot(g, show, eo);
}

ExplainResult explain(const Report& report, const ExplainOptions& options, const fs::path& dir) {
    ExplainResult result;
    const bool failure = report.finding && std::holds_alternative<EngineFailure>(*report.finding);
    const ExecutionGraph* graph = nullptr;
    std::string what;
    if (report.witness) {
        graph = &*report.witness;
        what = failure            ? "the execution the engine stopped on (" + to_string(*report.finding) +
                                         (report.failure_detail.empty() ? "" : ": " + report.failure_detail) + ")"
               : options.what.empty() ? "the first execution with the bad outcome" + options.note
                                      : options.what + options.note;
    } else {
        result.messages.push_back(report.id + ": no bad outcome in " + std::to_string(report.executions) +
                                  " executions (" + std::string(to_string(report.exploration)) +
                                  " exploration): there is no witness to draw");
        if (report.unroll_cuts > 0)
            result.messages.push_back(std::to_string(report.unroll_cuts) + " run(s) cut at --unroll " +
                                      std::to_string(report.unroll) +
                                      " (a loop needs more iterations): no proof either way (raise --unroll)");
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

    std::string why;
    if (report.witness && graph == &*report.witness) result.cycle = cycle_of(report, &why);
    const bool focused = !options.full && !failure && focus_of(*graph, result.cycle).has_value();
    const std::string dot = witness_dot(report, *graph, options, result.cycle,
                                        report.id + ": " + what + (focused ? " (focused; --show all for every event)" : ""));
    write_file(dir / "witness.dot", dot, result);
    const Vocabulary vocabulary = vocabulary_of(report);
    write_file(dir / "witness.txt", to_text_trace(*graph, vocabulary), result);
    write_file(dir / "interleaving.txt", to_interleaving_text(*graph, vocabulary), result);
    write_file(dir / "interleaving.svg", to_interleaving_svg(*graph, vocabulary), result);
    write_file(dir / "witness.json", to_json(*graph, vocabulary), result);
    std::string error;
    if (auto svg = render_svg(dot, error))
        write_file(dir / "witness.svg", *svg, result);
    else
        result.messages.push_back("witness.svg not written: " + error);
    if (result.cycle) {
        write_file(dir / "cycle.txt", cycle_text(*graph, *result.cycle), result);
        write_file(dir / "cycle.json", cycle_json(*graph, *result.cycle), result);
    } else if (!why.empty() && report.witness && graph == &*report.witness) {
        result.messages.push_back("no explaining cycle: " + why);
    }
    result.drew = true;
    result.messages.insert(result.messages.begin(),
                           report.id + " (" +
                               (report.engine == EngineKind::Graph ? "graph engine under " + report.memory_model
                                                                    : std::string("relacy")) +
                               "): drew " + what +
                               (!focused                                       ? ""
                                : result.cycle && !result.cycle->steps.empty() ? ", focused on its explaining cycle"
                                                                               : ", focused on its stale reads"));
    return result;
}

}  // namespace oc::cli
