// SPDX-License-Identifier: MIT
// Exporters of an execution graph: DOT figure, text trace (the golden form), interleaving
// (swimlane) diagram as text and SVG, JSON. Pure functions of their arguments, byte-stable.
#pragma once

#include "traces/execution_graph.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace oc {

/// The relations a figure can show (names as in the cat files).
enum class RelationKind : std::uint8_t { po, rf, co, fr, sw, hb, eco };

/// "po", "rf", "co", "fr", "sw", "hb", "eco".
std::string_view short_name(RelationKind kind);

/// Every RelationKind's name: "po, rf, co, fr, sw, hb, eco".
std::string figure_relation_names();

/// Which relations a figure shows (herd's `show`).
struct RelationSet {
    std::set<RelationKind> shown;
    /// Other names, in the order given: relations the memory model defines (LKMM's "ppo", "pb";
    /// a cat model's `let`s), resolved against the model when the figure is drawn.
    std::vector<std::string> model;

    /// Parses a comma-separated list such as "po,rf,co,ppo": the kinds above by their names, any
    /// other name into `model`; throws std::invalid_argument for an item that is no name.
    static RelationSet parse(std::string_view text);
    /// po, rf, co, fr: the primary relations plus from-read.
    static RelationSet defaults();
    bool contains(RelationKind kind) const { return shown.contains(kind); }
    /// "po,rf,co" in enum order, then the model's names.
    std::string to_string() const;
    friend bool operator==(const RelationSet&, const RelationSet&) = default;
};

/// How one relation's edges look.
struct EdgeStyle {
    std::string_view color;
    bool constrains_layout = false;  ///< false: DOT `constraint=false`
};

/// The look of a figure: one edge table (like LKMM's linux-kernel.cfg `edgeattr`) and fills.
struct DotStyle {
    std::map<RelationKind, EdgeStyle> edges;
    std::string_view highlight_fill = "lightpink";
    std::string_view barrier_fill = "palegreen";
    std::string_view font = "Helvetica";
};

/// The default table: po black (shapes the layout), rf red, co blue, fr orange, sw green,
/// hb indigo, eco grey.
DotStyle default_style();

/// A relation the memory model defines, as pairs of events (MemoryModel::relation()).
struct ModelRelation {
    std::string name;
    std::vector<std::pair<EventId, EventId>> pairs;
};

/// What to draw beyond the graph itself.
struct ExportOptions {
    std::string title;                ///< graph label; empty for none
    std::set<EventId> highlighted;    ///< filled nodes: the events that make the bad outcome
    /// The words event labels use: the memory model the execution was judged under.
    Vocabulary vocabulary = Vocabulary::Cpp11;
    /// Drawn by to_dot after the RelationSet's kinds, every pair as it is, labelled with the
    /// relation's name, each relation in its own colour (model_relation_colors()).
    std::vector<ModelRelation> model_relations;
};

/// The colours of model relations, the first relation's first; they repeat after the last.
const std::vector<std::string_view>& model_relation_colors();

/// A DOT digraph: a `cluster_<t>` per thread (init too), nodes `e<t>_<i>`; immediate po edges
/// shape the layout; rf, sw as they are, co and fr to immediate co successors, hb and eco as
/// transitive reductions (hb without the pairs po already shows), all `constraint=false`.
std::string to_dot(const ExecutionGraph& g, const RelationSet& show, const ExportOptions& options = {},
                   const DotStyle& style = default_style());

/// One edge of a focused figure: a step of the explaining cycle, labelled as the model names it.
struct FocusEdge {
    EventId from, to;
    std::string label;      ///< "po", "rfe", "fr"... (written in full: DOT places it by its own width)
    RelationKind kind = RelationKind::po;  ///< for the colour
    bool barrier = false;   ///< an ordering the barrier supplies: drawn bold
};

/// What a focused figure keeps: a few events, the edges between them, the barriers in question.
struct Focus {
    std::vector<EventId> events;
    std::vector<FocusEdge> edges;
    std::set<EventId> barriers;  ///< drawn filled with DotStyle::barrier_fill
};

/// The focused figure: only `focus.events`, one cluster per thread that has some; consecutive
/// shown events of a thread are joined by po (labelled "po ..." where events were folded
/// away), then `focus.edges` (po steps drawn over the thread's own po edge, bold for a
/// barrier's). Byte-stable like to_dot.
std::string to_dot_focused(const ExecutionGraph& g, const Focus& focus, const ExportOptions& options = {},
                           const DotStyle& style = default_style());

/// One line per event in (thread, index) order, GenMC-style, then one `co <loc>:` line per
/// location: `P0.1  R.rlx y=0  rf init.1  [READ_ONCE litmus/sb.cpp:32]` (Cpp11), `R[once] y=0`
/// (Lkmm).
std::string to_text_trace(const ExecutionGraph& g, Vocabulary vocabulary);

/// Threads as columns, one row per event (or per primitive call) in execution order: what the
/// program run executes (interleaving_rows()).
std::string to_interleaving_text(const ExecutionGraph& g, Vocabulary vocabulary);

/// The interleaving diagram as a standalone SVG, with rf arrows between threads.
std::string to_interleaving_svg(const ExecutionGraph& g, Vocabulary vocabulary);

/// The whole graph as JSON (locations, threads, events with all fields, rf, co), keys sorted.
/// An event's ordering is its C++11 `order` (Cpp11) or its LKMM `tags` (Lkmm), with what the
/// program as written has at a weakened event (`weakened_from`).
std::string to_json(const ExecutionGraph& g, Vocabulary vocabulary);

/// True if graphviz `dot` is an executable on PATH.
bool dot_available();

/// Runs `dot -Tsvg` on `dot_source`; the SVG text, or nullopt with `error` set (e.g. when
/// graphviz is not installed or rejects the input).
std::optional<std::string> render_svg(const std::string& dot_source, std::string& error);

}  // namespace oc
