// SPDX-License-Identifier: MIT
#include "traces/export.hpp"

#include "checker/memory_model/lkmm_tags.hpp"
#include "tests/traces/graph_builder.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <stdexcept>

using namespace oc;
using oc::test::GraphBuilder;

namespace {

ExportOptions sb_options() {
    ExportOptions options;
    options.title = "SB+poonceonces";
    options.highlighted = {EventId{1, 1}, EventId{2, 1}};  // the two reads of 0: the bad outcome
    return options;
}

const char* const sb_dot = R"dot(digraph execution {
  graph [fontname="Helvetica", label="SB+poonceonces", labelloc=t];
  node [fontname="Helvetica", fontsize=10, shape=box, style=rounded];
  edge [fontname="Helvetica", fontsize=9];
  subgraph cluster_0 {
    label="init";
    e0_0 [label="W.na x=0"];
    e0_1 [label="W.na y=0"];
  }
  subgraph cluster_1 {
    label="P0";
    e1_0 [label="W.rlx x=1\n[WRITE_ONCE, sb.cpp:31]"];
    e1_1 [label="R.rlx y=0\n[READ_ONCE, sb.cpp:32]", style="rounded,filled", fillcolor="lightpink"];
  }
  subgraph cluster_2 {
    label="P1";
    e2_0 [label="W.rlx y=1\n[WRITE_ONCE, sb.cpp:36]"];
    e2_1 [label="R.rlx x=0\n[READ_ONCE, sb.cpp:37]", style="rounded,filled", fillcolor="lightpink"];
  }
  e0_0 -> e0_1 [color="black"];
  e0_1 -> e1_0 [color="black"];
  e0_1 -> e2_0 [color="black"];
  e1_0 -> e1_1 [color="black"];
  e2_0 -> e2_1 [color="black"];
  e0_0 -> e2_1 [color="red", fontcolor="red", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>rf</td></tr></table>>, constraint=false];
  e0_1 -> e1_1 [color="red", fontcolor="red", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>rf</td></tr></table>>, constraint=false];
  e0_0 -> e1_0 [color="blue", fontcolor="blue", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>co</td></tr></table>>, constraint=false];
  e0_1 -> e2_0 [color="blue", fontcolor="blue", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>co</td></tr></table>>, constraint=false];
  e1_1 -> e2_0 [color="darkorange", fontcolor="darkorange", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>fr</td></tr></table>>, constraint=false];
  e2_1 -> e1_0 [color="darkorange", fontcolor="darkorange", label=<<table border="0" cellborder="0" cellpadding="1" bgcolor="white"><tr><td>fr</td></tr></table>>, constraint=false];
}
)dot";

const char* const sb_trace =
    "init.0  W.na x=0\n"
    "init.1  W.na y=0\n"
    "P0.0    W.rlx x=1             [WRITE_ONCE litmus/sb.cpp:31]\n"
    "P0.1    R.rlx y=0  rf init.1  [READ_ONCE litmus/sb.cpp:32]\n"
    "P1.0    W.rlx y=1             [WRITE_ONCE litmus/sb.cpp:36]\n"
    "P1.1    R.rlx x=0  rf init.0  [READ_ONCE litmus/sb.cpp:37]\n"
    "co x: init.0 P0.0\n"
    "co y: init.1 P1.0\n";

const char* const sb_interleaving =
    "init: x=0 y=0\n"
    "P0                   P1\n"
    "------------------   ------------------\n"
    "WRITE_ONCE(x) := 1\n"
    "                     WRITE_ONCE(y) := 1\n"
    "READ_ONCE(y) = 0\n"
    "                     READ_ONCE(x) = 0\n";

}  // namespace

TEST_SUITE("traces") {

TEST_CASE("RelationSet parses names, keeps the model's for later and rejects what is no name") {
    CHECK(RelationSet::parse("po,rf,co").shown == std::set{RelationKind::po, RelationKind::rf, RelationKind::co});
    CHECK(RelationSet::parse(" hb , eco,").to_string() == "hb,eco");
    CHECK(RelationSet::parse("").shown.empty());
    CHECK(RelationSet::defaults().to_string() == "po,rf,co,fr");
    // other names are the memory model's, in the order given, once each (explain resolves them)
    const RelationSet mixed = RelationSet::parse("po,ppo,rcu-fence,ppo");
    CHECK(mixed.shown == std::set{RelationKind::po});
    CHECK(mixed.model == std::vector<std::string>{"ppo", "rcu-fence"});
    CHECK(mixed.to_string() == "po,ppo,rcu-fence");
    CHECK_THROWS_WITH_AS(RelationSet::parse("po,p;o"),
                         "'p;o' is no relation name (po, rf, co, fr, sw, hb, eco, or one the memory model defines)",
                         std::invalid_argument);
    const DotStyle style = default_style();
    for (const char* name : {"po", "rf", "co", "fr", "sw", "hb", "eco"})
        CHECK(style.edges.contains(*RelationSet::parse(name).shown.begin()));
}

TEST_CASE("to_dot: a model relation is drawn pair for pair, labelled, in its own colour") {
    const ExecutionGraph g = test::sb_relaxed_witness();
    ExportOptions o = sb_options();
    const EventId a{1, 0}, b{2, 1};
    o.model_relations = {ModelRelation{"ppo", {{a, b}, {a, a}}}, ModelRelation{"pb", {{b, a}}}};
    const std::string dot = to_dot(g, RelationSet::parse("po"), o);
    CHECK(dot.find("e1_0 -> e2_1 [color=\"teal\", fontcolor=\"teal\"") != std::string::npos);
    CHECK(dot.find("<td>ppo</td>") != std::string::npos);
    CHECK(dot.find("e1_0 -> e1_0") == std::string::npos);  // no self loop
    CHECK(dot.find("e2_1 -> e1_0 [color=\"purple\"") != std::string::npos);
}

TEST_CASE("to_dot: golden output for the SB witness, byte-stable") {
    const ExecutionGraph g = test::sb_relaxed_witness();
    const std::string dot = to_dot(g, RelationSet::defaults(), sb_options());
    CHECK(dot == sb_dot);
    CHECK(to_dot(g, RelationSet::defaults(), sb_options()) == dot);
}

TEST_CASE("to_dot: sw and hb edges, escaped names") {
    GraphBuilder b({"wri\"ter", "reader"});
    const auto flag = b.location("fl\"ag");
    const auto w = b.write(0, flag, 1, MemoryOrder::Release);
    b.read(1, flag, 1, w, MemoryOrder::Acquire);
    const std::string dot = to_dot(b.graph(), RelationSet::parse("sw,hb"));
    CHECK(dot.find("label=\"wri\\\"ter\";") != std::string::npos);
    CHECK(dot.find("e1_0 [label=\"W.rel fl\\\"ag=1\"];") != std::string::npos);
    CHECK(dot.find("e1_0 -> e2_0 [color=\"darkgreen\", fontcolor=\"darkgreen\", label=<<table border=\"0\" cellborder=\"0\" cellpadding=\"1\" bgcolor=\"white\"><tr><td>sw</td></tr></table>>, constraint=false];") !=
          std::string::npos);
    CHECK(dot.find("e1_0 -> e2_0 [color=\"indigo\", fontcolor=\"indigo\", label=<<table border=\"0\" cellborder=\"0\" cellpadding=\"1\" bgcolor=\"white\"><tr><td>hb</td></tr></table>>, constraint=false];") !=
          std::string::npos);
    CHECK(dot.find("e0_0 -> e1_0 [color=\"indigo\"") == std::string::npos);  // implied by po
    CHECK(dot.find("<td>po</td>") == std::string::npos);
}

TEST_CASE("to_dot: co and fr edges go to immediate co successors only") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    b.write(0, x, 1);
    b.write(0, x, 2);
    b.read(1, x, 0, b.init(x));
    const std::string dot = to_dot(b.graph(), RelationSet::parse("co,fr"));
    CHECK(dot.find("e0_0 -> e1_0 [color=\"blue\"") != std::string::npos);
    CHECK(dot.find("e1_0 -> e1_1 [color=\"blue\"") != std::string::npos);
    CHECK(dot.find("e0_0 -> e1_1 [color=\"blue\"") == std::string::npos);
    CHECK(dot.find("e2_0 -> e1_0 [color=\"darkorange\"") != std::string::npos);
    CHECK(dot.find("e2_0 -> e1_1 [color=\"darkorange\"") == std::string::npos);
}

TEST_CASE("to_text_trace: golden output for the SB witness, byte-stable") {
    const ExecutionGraph g = test::sb_relaxed_witness();
    CHECK(to_text_trace(g, Vocabulary::Cpp11) == sb_trace);
    CHECK(to_text_trace(g, Vocabulary::Cpp11) == to_text_trace(g, Vocabulary::Cpp11));
}

TEST_CASE("to_interleaving_text: threads as columns, rows in execution order, read values") {
    CHECK(to_interleaving_text(test::sb_relaxed_witness(), Vocabulary::Cpp11) == sb_interleaving);

    // One spin_lock call of two events is one row, unless another thread runs in between.
    GraphBuilder b({"A", "B"});
    const auto lock = b.location("lock");
    const auto x = b.location("x");
    b.at("lock.c", 3, "spin_lock", 1).read(0, lock, 0, b.init(lock));
    const auto u = b.at("lock.c", 3, "spin_lock", 1).rmw(0, lock, 0, 1, b.init(lock), MemoryOrder::Acquire);
    b.at("lock.c", 3, "spin_lock", 1).read(1, lock, 1, u);
    b.write(0, x, 9);
    b.at("lock.c", 3, "spin_lock", 1).read(1, lock, 1, u);
    CHECK(to_interleaving_text(b.graph(), Vocabulary::Cpp11) ==
          "init: lock=0 x=0\n"
          "A                       B\n"
          "---------------------   -------------------\n"
          "spin_lock(lock) = 0,0\n"
          "                        spin_lock(lock) = 1\n"
          "W.rlx x=9\n"
          "                        spin_lock(lock) = 1\n");
}

TEST_CASE("to_interleaving_svg: columns, rows and rf arrows, byte-stable") {
    GraphBuilder b({"P<0>", "P1"});
    const auto x = b.location("x");
    const auto w = b.write(0, x, 1);
    b.read(1, x, 1, w);
    const std::string svg = to_interleaving_svg(b.graph(), Vocabulary::Cpp11);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.find(">P&lt;0&gt;</text>") != std::string::npos);
    CHECK(svg.find(">W.rlx x=1</text>") != std::string::npos);
    CHECK(svg.find(">R.rlx x=1</text>") != std::string::npos);
    CHECK(svg.find("marker-end=\"url(#rf-arrow)\"") != std::string::npos);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    CHECK(to_interleaving_svg(b.graph(), Vocabulary::Cpp11) == svg);
}

TEST_CASE("to_json: the whole graph, parseable") {
    const ExecutionGraph g = test::sb_relaxed_witness();
    const std::string text = to_json(g, Vocabulary::Cpp11);
    CHECK(to_json(g, Vocabulary::Cpp11) == text);
    const auto j = nlohmann::json::parse(text);
    CHECK(j["locations"].size() == 2);
    CHECK(j["threads"][1]["name"] == "P0");
    CHECK(j["events"].size() == 6);
    const auto& read = j["events"][3];
    CHECK(read["id"]["name"] == "P0.1");
    CHECK(read["kind"] == "R");
    CHECK(read["order"] == "rlx");
    CHECK(read["location"] == "y");
    CHECK(read["reads_from"]["name"] == "init.1");
    CHECK(read["primitive"] == "READ_ONCE");
    CHECK(read["line"] == 32);
    CHECK(read["step"] == 3);
    CHECK(j["rf"] == nlohmann::json::parse(R"([["init.1", "P0.1"], ["init.0", "P1.1"]])"));
    CHECK(j["co"][0]["order"] == nlohmann::json::parse(R"(["init.0", "P0.0"])"));
}

TEST_CASE("event labels speak the memory model's words: C++11 orders, or LKMM's tags") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto flag = b.location("flag");
    b.at("mp.c", 3, "WRITE_ONCE", 1).write(0, x, 1);
    b.at("mp.c", 4, "smp_wmb", 2).fence(0, MemoryOrder::Release);
    const auto w = b.at("mp.c", 5, "smp_store_release", 3).write(0, flag, 1, MemoryOrder::Release);
    b.at("mp.c", 9, "smp_load_acquire", 1).read(1, flag, 1, w, MemoryOrder::Relaxed);  // weakened below
    b.at("mp.c", 10, "smp_mb", 2).fence(1, MemoryOrder::Relaxed);                       // removed below
    b.at("mp.c", 11, "READ_ONCE", 3).read(1, x, 0, b.init(x));
    ExecutionGraph base = b.graph();
    base.set_tag_namer(&lkmm::names);  // as the model runtime names them
    const ExecutionGraph g = with_events_edited(base, [](Event& e) {
        if (e.id == EventId{2, 0}) e.weakened_from = MemoryOrder::Acquire;
        if (e.id == EventId{2, 1}) e.weakened_from = MemoryOrder::SeqCst;
        // the tags the runtime gives these (lkmm_tags_of)
        if (e.id.thread != 0) e.lkmm = e.is_fence() ? (e.order == MemoryOrder::Release ? lkmm::Wmb : 0u)
                                       : e.order == MemoryOrder::Release ? lkmm::Release : lkmm::Once;
    });
    const auto label = [&](EventId id, Vocabulary v) { return event_label(g, g.event(id), v); };
    CHECK(label({1, 1}, Vocabulary::Cpp11) == "F.rel");
    CHECK(label({1, 1}, Vocabulary::Lkmm) == "F[wmb]");
    CHECK(label({1, 2}, Vocabulary::Cpp11) == "W.rel flag=1");
    CHECK(label({1, 2}, Vocabulary::Lkmm) == "W[release] flag=1");
    CHECK(label({2, 0}, Vocabulary::Cpp11) == "R.rlx(weakened from acq) flag=1");
    CHECK(label({2, 0}, Vocabulary::Lkmm) == "R[once] flag=1 (weakened from smp_load_acquire)");
    CHECK(label({2, 1}, Vocabulary::Cpp11) == "F.rlx(removed: sc)");
    CHECK(label({2, 1}, Vocabulary::Lkmm) == "F (removed: smp_mb)");
    CHECK(label({0, 0}, Vocabulary::Lkmm) == "W x=0");  // an initial write: no tag
    // No exporter leaks a C++11 word under LKMM.
    const ExportOptions lkmm{.title = "", .highlighted = {}, .vocabulary = Vocabulary::Lkmm, .model_relations = {}};
    for (const std::string& out : {to_text_trace(g, Vocabulary::Lkmm), to_interleaving_text(g, Vocabulary::Lkmm),
                                   to_interleaving_svg(g, Vocabulary::Lkmm), to_json(g, Vocabulary::Lkmm),
                                   to_dot(g, RelationSet::defaults(), lkmm)})
        for (const char* word : {"rlx", ".rel", ".acq", ".sc", ".na"})
            CHECK_MESSAGE(out.find(word) == std::string::npos, word << " in\n" << out);
    const auto j = nlohmann::json::parse(to_json(g, Vocabulary::Lkmm));
    CHECK(j["events"][5]["tags"] == "once");
    CHECK(!j["events"][5].contains("order"));  // the C++11 order is RC11's word
    CHECK(j["events"][5]["weakened_from"] == "smp_load_acquire");
    CHECK(nlohmann::json::parse(to_json(g, Vocabulary::Cpp11))["events"][5]["weakened_from"] == "acq");
}

TEST_CASE("the interleaving shows what the weakened program runs: no removed fence, the weaker primitive") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto flag = b.location("flag");
    b.at("mp.c", 3, "WRITE_ONCE", 1).write(0, x, 1);
    b.at("mp.c", 4, "smp_mb", 2).fence(0, MemoryOrder::Release);  // smp_mb() weakened to smp_wmb()
    const auto w = b.at("mp.c", 5, "WRITE_ONCE", 3).write(0, flag, 1);
    b.at("mp.c", 9, "smp_load_acquire", 1).read(1, flag, 1, w, MemoryOrder::Relaxed);
    b.at("mp.c", 10, "smp_mb", 2).fence(1, MemoryOrder::Relaxed);  // removed
    b.at("mp.c", 11, "READ_ONCE", 3).read(1, x, 0, b.init(x));
    const ExecutionGraph g = with_events_edited(b.graph(), [](Event& e) {
        if (e.is_fence() || e.id == EventId{2, 0})
            e.weakened_from = e.is_fence() ? MemoryOrder::SeqCst : MemoryOrder::Acquire;
    });
    for (Vocabulary v : {Vocabulary::Cpp11, Vocabulary::Lkmm}) {
        const std::string text = to_interleaving_text(g, v);
        CHECK(text ==
              "init: x=0 flag=0\n"
              "P0                      P1\n"
              "---------------------   -------------------\n"
              "WRITE_ONCE(x) := 1\n"
              "smp_wmb()\n"
              "WRITE_ONCE(flag) := 1\n"
              "                        READ_ONCE(flag) = 1\n"
              "                        READ_ONCE(x) = 0\n");
        const std::string svg = to_interleaving_svg(g, v);
        CHECK(svg.find("smp_mb") == std::string::npos);
        CHECK(svg.find(">smp_wmb()</text>") != std::string::npos);
    }
    // The trace and the figure keep the removed fence, marked, for the explaining cycle.
    CHECK(to_text_trace(g, Vocabulary::Lkmm).find("F (removed: smp_mb)") != std::string::npos);
}

TEST_CASE("edge labels sit on a white plate, so the edge's line does not cross out a letter") {
    const std::string dot = to_dot(test::sb_relaxed_witness(), RelationSet::defaults(), sb_options());
    CHECK(dot.find("label=\"rf\"") == std::string::npos);
    CHECK(dot.find("bgcolor=\"white\"><tr><td>rf</td>") != std::string::npos);
    Focus focus;
    focus.events = {EventId{1, 1}, EventId{2, 0}};
    focus.edges = {FocusEdge{EventId{1, 1}, EventId{2, 0}, "fre<&>", RelationKind::fr, false}};
    const std::string focused = to_dot_focused(test::sb_relaxed_witness(), focus, sb_options());
    CHECK(focused.find("<td>fre&lt;&amp;&gt;</td>") != std::string::npos);
}

TEST_CASE("render_svg: graphviz accepts the DOT") {
    if (!dot_available()) {
        MESSAGE("graphviz 'dot' not on PATH: skipping the render check");
        return;
    }
    std::string error;
    const auto svg = render_svg(to_dot(test::sb_relaxed_witness(), RelationSet::defaults(), sb_options()), error);
    REQUIRE_MESSAGE(svg.has_value(), error);
    CHECK(svg->find("<svg") != std::string::npos);
    CHECK(svg->find("SB+poonceonces") != std::string::npos);

    CHECK_FALSE(render_svg("digraph { a -> ; }", error).has_value());
    CHECK(error.find("dot -Tsvg failed") != std::string::npos);
}

TEST_CASE("render_svg: a clear message when dot is not on PATH") {
    const char* old = std::getenv("PATH");
    const std::string saved = old ? old : "";
    setenv("PATH", "/nonexistent-ordercheck-dir", 1);
    std::string error;
    const auto svg = render_svg("digraph {}", error);
    setenv("PATH", saved.c_str(), 1);
    CHECK_FALSE(svg.has_value());
    CHECK(error == "graphviz 'dot' was not found on PATH: install graphviz, or render the .dot file elsewhere");
}

}  // TEST_SUITE
