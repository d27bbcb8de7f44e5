// SPDX-License-Identifier: MIT
// RelationSet, the default DotStyle, and the DOT exporter.
#include "traces/export.hpp"

#include "traces/relations.hpp"
#include "traces/text_util.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace oc {

namespace {

constexpr std::array all_kinds{RelationKind::po, RelationKind::rf, RelationKind::co, RelationKind::fr,
                               RelationKind::sw, RelationKind::hb, RelationKind::eco};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string node_id(EventId e) { return "e" + std::to_string(e.thread) + "_" + std::to_string(e.index); }

std::string node_line(const ExecutionGraph& g, const Event& e, const ExportOptions& options, const DotStyle& style,
                      const std::set<EventId>& barriers = {}) {
    std::string label = escape_dot(event_label(g, e, options.vocabulary));
    if (const std::string note = source_note(e, 1, ", "); !note.empty()) label += "\\n" + escape_dot(note);
    std::string line = "    " + node_id(e.id) + " [label=\"" + label + "\"";
    const bool barrier = barriers.contains(e.id);
    const bool filled = barrier || options.highlighted.contains(e.id);
    if (filled || e.at_quiescence) {
        line += ", style=\"rounded";
        line += filled ? ",filled" : "";
        line += barrier ? ",bold" : "";
        line += e.at_quiescence ? ",dashed" : "";
        line += "\"";
    }
    if (filled) line += ", fillcolor=\"" + escape_dot(barrier ? style.barrier_fill : style.highlight_fill) + "\"";
    return line + "];\n";
}

/// An edge's label on a white plate. dot places the label of a constraint=false edge (rf, co, fr:
/// every edge between threads) on the edge's own spline, so the line, drawn in the label's colour,
/// ran through its first letter: "rfe" read "fe", "fre" read "re". The plate keeps every letter
/// readable wherever dot puts it. An HTML-like label: `text` is escaped for XML.
std::string edge_label(std::string_view text) {
    return "label=<<table border=\"0\" cellborder=\"0\" cellpadding=\"1\" bgcolor=\"white\"><tr><td>" +
           escape_xml(text) + "</td></tr></table>>";
}

std::string header(const ExportOptions& options, const DotStyle& style) {
    const std::string font = "fontname=\"" + escape_dot(style.font) + "\"";
    std::string out = "digraph execution {\n";
    out += "  graph [" + font;
    if (!options.title.empty()) out += ", label=\"" + escape_dot(options.title) + "\", labelloc=t";
    out += "];\n";
    out += "  node [" + font + ", fontsize=10, shape=box, style=rounded];\n";
    out += "  edge [" + font + ", fontsize=9];\n";
    return out;
}

EdgeStyle edge_style(const DotStyle& style, RelationKind kind) {
    const auto found = style.edges.find(kind);
    return found != style.edges.end() ? found->second : EdgeStyle{"black", false};
}

/// The edges drawn for one relation: reduced forms keep the figure readable.
Relation edges_of(const ExecutionGraph& g, RelationKind kind) {
    switch (kind) {
    case RelationKind::po: return po_imm(g);
    case RelationKind::rf: return rf(g);
    case RelationKind::co: return co_imm(g);
    case RelationKind::fr: return fr_imm(g);
    case RelationKind::sw: return sw(g);
    case RelationKind::hb: return hb(g).transitive_reduction().minus(po(g));
    case RelationKind::eco: return eco(g).transitive_reduction();
    }
    return {};
}

}  // namespace

std::string_view short_name(RelationKind kind) {
    switch (kind) {
    case RelationKind::po: return "po";
    case RelationKind::rf: return "rf";
    case RelationKind::co: return "co";
    case RelationKind::fr: return "fr";
    case RelationKind::sw: return "sw";
    case RelationKind::hb: return "hb";
    case RelationKind::eco: return "eco";
    }
    return "?";
}

std::string figure_relation_names() {
    std::string out;
    for (RelationKind k : all_kinds) out += (out.empty() ? "" : ", ") + std::string(short_name(k));
    return out;
}

RelationSet RelationSet::parse(std::string_view text) {
    RelationSet out;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trim(text.substr(0, comma));
        if (!item.empty()) {
            auto it = std::find_if(all_kinds.begin(), all_kinds.end(),
                                   [&](RelationKind k) { return short_name(k) == item; });
            if (it != all_kinds.end()) {
                out.shown.insert(*it);
            } else {
                const bool name = std::all_of(item.begin(), item.end(), [](char c) {
                    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                           c == '_' || c == '.';
                });
                if (!name)
                    throw std::invalid_argument("'" + std::string(item) + "' is no relation name (" + figure_relation_names() +
                                                ", or one the memory model defines)");
                if (std::find(out.model.begin(), out.model.end(), item) == out.model.end()) out.model.emplace_back(item);
            }
        }
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return out;
}

RelationSet RelationSet::defaults() {
    return RelationSet{{RelationKind::po, RelationKind::rf, RelationKind::co, RelationKind::fr}, {}};
}

std::string RelationSet::to_string() const {
    std::string out;
    for (RelationKind k : shown) out += (out.empty() ? "" : ",") + std::string(short_name(k));
    for (const std::string& m : model) out += (out.empty() ? "" : ",") + m;
    return out;
}

const std::vector<std::string_view>& model_relation_colors() {
    static const std::vector<std::string_view> colors = {"teal", "purple", "saddlebrown", "deeppink", "olivedrab",
                                                         "navy", "goldenrod", "crimson"};
    return colors;
}

DotStyle default_style() {
    DotStyle style;
    style.edges = {
        {RelationKind::po, {"black", true}},  {RelationKind::rf, {"red", false}},
        {RelationKind::co, {"blue", false}},  {RelationKind::fr, {"darkorange", false}},
        {RelationKind::sw, {"darkgreen", false}}, {RelationKind::hb, {"indigo", false}},
        {RelationKind::eco, {"gray40", false}},
    };
    return style;
}

std::string to_dot(const ExecutionGraph& g, const RelationSet& show, const ExportOptions& options,
                   const DotStyle& style) {
    std::string out = header(options, style);
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        if (g.thread(t).empty()) continue;
        out += "  subgraph cluster_" + std::to_string(t) + " {\n";
        out += "    label=\"" + escape_dot(g.thread_name(t)) + "\";\n";
        for (const Event& e : g.thread(t)) out += node_line(g, e, options, style);
        out += "  }\n";
    }
    for (RelationKind kind : show.shown) {
        const EdgeStyle edge = edge_style(style, kind);
        std::string attrs = "color=\"" + escape_dot(edge.color) + "\"";
        if (kind != RelationKind::po) {
            attrs += ", fontcolor=\"" + escape_dot(edge.color) + "\", " + edge_label(short_name(kind));
        }
        if (!edge.constrains_layout) attrs += ", constraint=false";
        const Relation edges = edges_of(g, kind);
        for (const auto& [a, b] : edges.pairs())
            out += "  " + node_id(a) + " -> " + node_id(b) + " [" + attrs + "];\n";
    }
    const auto& colors = model_relation_colors();
    for (std::size_t k = 0; k < options.model_relations.size(); ++k) {
        const ModelRelation& m = options.model_relations[k];
        const std::string color = escape_dot(colors[k % colors.size()]);
        const std::string attrs = "color=\"" + color + "\", fontcolor=\"" + color + "\", " + edge_label(m.name) +
                                  ", constraint=false";
        for (const auto& [a, b] : m.pairs)
            if (a != b && g.contains(a) && g.contains(b))
                out += "  " + node_id(a) + " -> " + node_id(b) + " [" + attrs + "];\n";
    }
    return out + "}\n";
}

std::string to_dot_focused(const ExecutionGraph& g, const Focus& focus, const ExportOptions& options,
                           const DotStyle& style) {
    std::set<EventId> shown(focus.events.begin(), focus.events.end());
    std::string out = header(options, style);
    // The po steps of the focus that join consecutive shown events are drawn as the thread's own
    // po edge, labelled; the others are extra edges.
    std::map<std::pair<EventId, EventId>, const FocusEdge*> po_steps;
    for (const FocusEdge& e : focus.edges)
        if (e.kind == RelationKind::po) po_steps[{e.from, e.to}] = &e;
    std::set<const FocusEdge*> drawn;
    std::string po_edges;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        std::vector<EventId> ids;
        for (const Event& e : g.thread(t))
            if (shown.contains(e.id)) ids.push_back(e.id);
        if (ids.empty()) continue;
        out += "  subgraph cluster_" + std::to_string(t) + " {\n";
        out += "    label=\"" + escape_dot(g.thread_name(t)) + "\";\n";
        for (EventId id : ids) out += node_line(g, g.event(id), options, style, focus.barriers);
        out += "  }\n";
        const EdgeStyle po = edge_style(style, RelationKind::po);
        for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
            const bool folded = ids[i + 1].index != ids[i].index + 1;
            std::string attrs = "color=\"" + escape_dot(po.color) + "\"";
            std::string label = folded ? "po ..." : "";
            if (const auto it = po_steps.find({ids[i], ids[i + 1]}); it != po_steps.end()) {
                drawn.insert(it->second);
                label = it->second->label + (folded ? " ..." : "");
                if (it->second->barrier) attrs += ", penwidth=2.5";
                else attrs += ", penwidth=1.5";
            } else {
                attrs += ", style=dashed";
            }
            if (!label.empty()) attrs += ", " + edge_label(label);
            if (!po.constrains_layout) attrs += ", constraint=false";
            po_edges += "  " + node_id(ids[i]) + " -> " + node_id(ids[i + 1]) + " [" + attrs + "];\n";
        }
    }
    out += po_edges;
    for (const FocusEdge& e : focus.edges) {
        if (drawn.contains(&e) || !shown.contains(e.from) || !shown.contains(e.to)) continue;
        const EdgeStyle edge = edge_style(style, e.kind);
        std::string attrs = "color=\"" + escape_dot(edge.color) + "\", fontcolor=\"" + escape_dot(edge.color) +
                            "\", " + edge_label(e.label) + ", penwidth=" + (e.barrier ? "2.5" : "1.5");
        if (e.kind == RelationKind::po || !edge.constrains_layout) attrs += ", constraint=false";
        out += "  " + node_id(e.from) + " -> " + node_id(e.to) + " [" + attrs + "];\n";
    }
    return out + "}\n";
}

}  // namespace oc
