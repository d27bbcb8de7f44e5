// SPDX-License-Identifier: MIT
// The engine's LKMM check (lkmm_check.cpp) against the relations of lkmm.cpp, which read as the
// cat file does: on every graph the graph engine asks about while it explores the litmus corpus
// and the model catalogue under LKMM (prefixes, inconsistent graphs and guessed reads included),
// both must give the same answer. And LKMM's inert_when_last() (the events the engine adds
// without asking: a fence other than an RCU unlock, a guessed read) holds on each such graph.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/graph/graph_engine.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_check.hpp"
#include "checker/memory_model/lkmm_check_ops.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;
namespace fs = std::filesystem;

namespace {

/// The corpus's tests that compile (its malformed-input tests left out), by path.
std::vector<std::pair<std::string, std::shared_ptr<const litmus::Compiled>>> compiled_corpus() {
    std::vector<std::pair<std::string, std::shared_ptr<const litmus::Compiled>>> out;
    for (const std::string& path : test::litmus_corpus()) {
        try {
            out.emplace_back(path, litmus::compile(litmus::parse_file(path)));
        } catch (const std::exception&) {
        }
    }
    return out;
}

/// A graph-engine search under LKMM that goes on past a data race (as a litmus test's does).
ExploreOptions lkmm_search() {
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    return o;
}

/// `g` without the last event of graph thread `t` (a fence, a read, or a write no read reads).
ExecutionGraph without_last(const ExecutionGraph& g, std::size_t t) {
    ExecutionGraph out;
    std::vector<std::string> names;
    for (std::size_t u = 1; u < g.thread_count(); ++u) names.push_back(g.thread_name(u));
    out.set_thread_names(names);
    for (std::size_t l = 0; l < g.location_count(); ++l) out.add_location(g.location_name(static_cast<LocationId>(l)));
    for (std::size_t u = 0; u < g.thread_count(); ++u)
        for (std::size_t i = 0; i + (u == t ? 1 : 0) < g.thread(u).size(); ++i) out.append(g.thread(u)[i]);
    const EventId last = g.thread(t).back().id;
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        std::vector<EventId> co = g.co(static_cast<LocationId>(l));
        std::erase(co, last);
        out.set_co(static_cast<LocationId>(l), co);
    }
    return out;
}

/// Whether no rf, co or fr edge leads out of the last event of graph thread `t`: a read (no
/// RMW) of the co-latest write of its location, or a co-latest write (no RMW) that no read reads.
bool sink(const ExecutionGraph& g, std::size_t t) {
    const Event& e = g.thread(t).back();
    if (e.kind == EventKind::Read) {
        if (!e.reads_from || !e.location) return false;
        return g.co(*e.location).back() == *e.reads_from;
    }
    if (e.kind != EventKind::Write || g.co(*e.location).back() != e.id) return false;
    for (std::size_t u = 0; u < g.thread_count(); ++u)
        for (const Event& r : g.thread(u))
            if (r.is_read() && r.reads_from == e.id) return false;
    return true;
}

/// LKMM whose consistent() asks both computations and counts where they differ.
class Compared final : public MemoryModel {
public:
    mutable std::uint64_t sinks_checked = 0, sinks_broken = 0;
    mutable std::string first_sink_broken;
    mutable std::uint64_t queries = 0, consistent_graphs = 0, differences = 0, inert_checked = 0, inert_broken = 0,
                          plain_graphs = 0, plain_incoherent = 0, rcu_graphs = 0, rcu_violations = 0,
                          idle_rcu_words = 0, kept_broken = 0;
    mutable std::string first_difference, first_inert_broken;
    std::string current;  ///< the test being explored

    std::string_view name() const override { return lkmm_model().name(); }
    bool kernel_events() const override { return true; }
    std::uint8_t orders() const override { return lkmm_model().orders(); }
    bool consistent(const ExecutionGraph& g) const override {
        const bool fast = lkmm::consistent(g);
        if (!lkmm::kept_events_intact()) ++kept_broken;  // what the next graph with these events takes
        const lkmm::Relations r = lkmm::relations(g, lkmm::Depth::Axioms);
        const std::optional<std::string> violated = lkmm::violated_axiom(r);
        const bool reference = !violated;
        ++queries;
        if (r.has_plain) ++plain_graphs;
        if (violated == "plain-coherence") ++plain_incoherent;
        if (violated == "rcu") ++rcu_violations;
        if (!r.rcu_order.empty()) ++rcu_graphs;  // a grace period, or a critical section with one
        // the urcu reader words of RC11's RCU mapping (LKMM's RCU events never touch them)
        for (std::size_t l = 0; l < g.location_count(); ++l)
            if (g.location_name(static_cast<LocationId>(l)).starts_with("rcu_reader")) {
                ++idle_rcu_words;
                break;
            }
        if (reference) ++consistent_graphs;
        if (fast != reference) {
            ++differences;
            if (first_difference.empty())
                first_difference = current + ": the check says " + (fast ? "consistent" : "inconsistent") +
                                   ", the relations " + (reference ? "consistent" : "inconsistent");
        }
        // an inert last event: consistent without it means consistent with it, as the model's
        // own consistent() asks (the rcu axiom left to complete graphs)
        const bool asked = lkmm_model().consistent(g);
        for (std::size_t t = 1; t < g.thread_count() && !asked; ++t) {
            if (g.thread(t).empty()) continue;
            const Event& e = g.thread(t).back();
            if ((!e.is_fence() && !(e.is_read() && !e.reads_from)) || !lkmm_model().inert_when_last(e)) continue;
            ++inert_checked;
            if (lkmm_model().consistent(without_last(g, t))) {
                ++inert_broken;
                if (first_inert_broken.empty())
                    first_inert_broken = current + ": thread " + std::to_string(t) + "'s last event is not inert";
            }
        }
        // likewise a last event that is a sink (inert_as_sink())
        for (std::size_t t = 1; t < g.thread_count() && !asked; ++t) {
            if (g.thread(t).empty() || !sink(g, t) || !lkmm_model().inert_as_sink(g.thread(t).back())) continue;
            ++sinks_checked;
            if (lkmm_model().consistent(without_last(g, t))) {
                ++sinks_broken;
                if (first_sink_broken.empty())
                    first_sink_broken = current + ": thread " + std::to_string(t) + "'s last event is a sink, not inert";
            }
        }
        return reference;
    }
    std::optional<AxiomViolation> check(const ExecutionGraph& g) const override { return lkmm_model().check(g); }
    std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override {
        return lkmm_model().race(g);
    }
    std::vector<std::string> flags(const ExecutionGraph& g) const override { return lkmm_model().flags(g); }
};

void explore(const VariantDef& v, const Compared& model, std::uint64_t max_executions) {
    ExploreOptions o;
    o.max_executions = max_executions;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    graph_explore(v, o, [](const ExecutionGraph&, const FinalState&) {}, model);
}

}  // namespace

TEST_SUITE("lkmm-check") {
    TEST_CASE("the engine's LKMM check answers as the relations do, on every graph of the corpus and catalogue") {
        Compared model;
        const std::vector<std::string> tests = test::litmus_corpus();
        REQUIRE(tests.size() > 100);
        std::size_t explored = 0;
        for (const auto& [path, test] : compiled_corpus()) {
            model.current = fs::path(path).filename().string();
            try {
                explore(litmus::make_variant(test, litmus::RunMode::RaceCheck), model, 300);
                ++explored;
            } catch (const std::exception&) {
                // a test the graph engine refuses: nothing was asked
            }
        }
        for (const ModelDef& m : models::catalogue())
            for (const VariantDef& v : m.variants) {
                model.current = v.id();
                try {
                    explore(v, model, 300);
                    ++explored;
                } catch (const std::exception&) {
                }
            }
        MESSAGE(explored << " tests and variants explored, " << model.queries << " graphs asked about ("
                         << model.consistent_graphs << " consistent)");
        CHECK_MESSAGE(model.differences == 0, model.first_difference);
        CHECK(model.kept_broken == 0);
        MESSAGE(model.inert_checked << " inconsistent graphs ending in an inert event checked");
        CHECK_MESSAGE(model.inert_broken == 0, model.first_inert_broken);
        CHECK(model.inert_checked > 100);
        MESSAGE(model.sinks_checked << " inconsistent graphs ending in a sink access checked");
        CHECK_MESSAGE(model.sinks_broken == 0, model.first_sink_broken);
        CHECK(model.sinks_checked > 100);
        CHECK(explored > 150);
        // both answers were exercised many times
        CHECK(model.consistent_graphs > 10000);
        CHECK(model.queries - model.consistent_graphs > 1000);
        // graphs with plain accesses, some of them ruled out by plain-coherence alone
        MESSAGE(model.plain_graphs << " graphs with plain accesses, " << model.plain_incoherent
                                   << " violating plain-coherence only");
        CHECK(model.plain_graphs > 1000);
        CHECK(model.plain_incoherent > 10);
        // graphs with grace periods and critical sections, some ruled out by the rcu axiom
        MESSAGE(model.rcu_graphs << " graphs with a grace period, " << model.rcu_violations
                                 << " violating the rcu axiom");
        CHECK(model.rcu_graphs > 500);  // 688 since the rings' cycles come from revisits, not guesses
        CHECK(model.rcu_violations > 10);
        // ... with no location of RC11's RCU mapping: each would be a node of every graph
        CHECK(model.idle_rcu_words == 0);
    }

    TEST_CASE("an execution with RCU events is handed on as checked whole by the model, one without is not; each with its steps") {
        // FinalState::model_checked: certification (checker/driver) then asks no axiom again,
        // so it must be set exactly when the engine ran the whole check on the very graph
        for (const auto& [name, rcu] : {std::pair{"RCU+3gp-chain+reader", true}, {"desc-reserve+3", false}}) {
            CAPTURE(name);
            const VariantDef v = litmus::make_variant(
                litmus::compile(litmus::parse_file(std::string(OC_SOURCE_ROOT "/litmus/tests/") + name + ".litmus")),
                litmus::RunMode::RaceCheck);
            std::size_t executions = 0, checked = 0, consistent = 0;
            graph_explore(v, lkmm_search(), [&](const ExecutionGraph& g, const FinalState& f) {
                ++executions;
                CHECK(lkmm::has_rcu_events(g) == rcu);
                if (f.model_checked) ++checked;
                if (lkmm::consistent(g, true)) ++consistent;
                // the graph the engine checked whole is handed on with its steps numbered: po
                // and rf point forward (no execution of these tests has a po | rf cycle)
                CHECK_FALSE(f.load_buffering);
                for (std::size_t t = 1; t < g.thread_count(); ++t)
                    for (const Event& e : g.thread(t)) {
                        CHECK(e.step > (e.id.index == 0 ? 0u : g.thread(t)[e.id.index - 1].step));
                        if (e.is_read() && e.reads_from) CHECK(g.event(*e.reads_from).step < e.step);
                    }
            }, lkmm_model());
            CHECK(executions > 0);
            CHECK(consistent == executions);
            CHECK(checked == (rcu ? executions : 0));
        }
    }

    TEST_CASE("the check's bit operations: a set over every node restricts nothing, one short of that does") {
        using namespace oc::lkmm::check_detail;
        // widths around the word boundaries: the last word of a row is partly used or full
        for (const std::size_t n : {1u, 3u, 63u, 64u, 65u, 127u, 128u, 130u}) {
            CAPTURE(n);
            Work k;
            k.begin(n);
            const auto run = [&](auto&& o) {
                using O = std::decay_t<decltype(o)>;
                Word* all = k.set();
                for (std::size_t i = 0; i < n; ++i) O::put(all, i);
                CHECK(o.full(all));
                for (const std::size_t gone : {std::size_t{0}, n / 2, n - 1}) {
                    CAPTURE(gone);
                    Word* some = k.set();
                    for (std::size_t i = 0; i < n; ++i)
                        if (i != gone) O::put(some, i);
                    CHECK_FALSE(o.full(some));
                    // [some] ; r ; [some] over the full relation leaves out row and column `gone` only
                    Word* r = k.rel();
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t j = 0; j < n; ++j) o.set(r, i, j);
                    o.restrict(r, some, some);
                    for (std::size_t i = 0; i < n; ++i)
                        for (std::size_t j = 0; j < n; ++j) REQUIRE(o.test(r, i, j) == (i != gone && j != gone));
                    const Word* before = o.copy(r);
                    o.restrict(r, all, all);  // a no-op
                    CHECK(std::equal(r, r + n * o.w, before));
                }
                // fencerel of an empty set is empty; of one fence, po ; [F] ; po within its thread
                k.info.assign(n, NodeInfo{});
                for (auto& ni : k.info) ni.end = static_cast<std::uint32_t>(n);  // one thread
                Word* none = k.set();
                CHECK(o.empty(o.fencerel(none)));
                Word* f = k.set();
                O::put(f, n / 2);
                Word* fr = o.fencerel(f);
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = 0; j < n; ++j) REQUIRE(o.test(fr, i, j) == (i < n / 2 && j > n / 2));
            };
            if (k.w() == 1)
                run(Ops<1>(k));
            else if (k.w() == 2)
                run(Ops<2>(k));
            run(Ops<0>(k));
        }
    }

    TEST_CASE("deferred checks: the same executions as asking each graph when it is pushed") {
        // ExploreOptions::defer_checks: under LKMM a graph with RCU events is checked whole once
        // complete, and then the graphs pushed unasked are run before they are asked; one that
        // breaks an axiom is dropped with all its run pushed. Each execution must come out as
        // often, with the same final state, as when every choice is asked when it is pushed.
        std::size_t compared = 0, rcu_tests = 0;
        for (const auto& [path, test] : compiled_corpus()) {
            CAPTURE(path);
            const VariantDef v = litmus::make_variant(test, litmus::RunMode::RaceCheck);
            const auto run = [&](bool defer, bool& rcu) {
                ExploreOptions o = lkmm_search();
                o.max_executions = 5000;
                o.defer_checks = defer;
                std::vector<std::pair<std::uint64_t, std::vector<Value>>> seen;
                const ExploreResult r = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState& f) {
                    seen.emplace_back(canonical_hash(g), f.observables);
                    rcu = rcu || lkmm::has_rcu_events(g);
                });
                std::sort(seen.begin(), seen.end());
                return std::tuple{seen, r.executions, r.blocked, r.cut_short, r.failure};
            };
            bool rcu = false, unused = false;
            std::tuple<std::vector<std::pair<std::uint64_t, std::vector<Value>>>, std::uint64_t, std::uint64_t, bool,
                       std::optional<EngineFailure>>
                asked;
            try {
                asked = run(false, rcu);
            } catch (const std::exception&) {
                continue;  // a test the graph engine refuses
            }
            const auto deferred = run(true, unused);
            CHECK(std::get<0>(deferred) == std::get<0>(asked));
            CHECK(std::get<1>(deferred) == std::get<1>(asked));
            CHECK(std::get<2>(deferred) == std::get<2>(asked));
            CHECK(std::get<3>(deferred) == std::get<3>(asked));
            CHECK(std::get<4>(deferred) == std::get<4>(asked));
            ++compared;
            if (rcu) ++rcu_tests;
        }
        MESSAGE(compared << " corpus tests compared, " << rcu_tests << " with RCU events");
        CHECK(compared > 150);
        CHECK(rcu_tests > 15);
    }

    TEST_CASE("the RCU nesting counted per thread answers as the relations do, on every execution of the corpus") {
        // lkmm::rcu_nesting_only(), the flags' short way: where it answers (no plain access, no
        // SRCU event), the relations must find no plain access, no SRCU section, and the same
        // unbalanced RCU nesting; and it must answer for the RCU tests of the corpus.
        std::size_t answered = 0, unbalanced = 0, rcu = 0, declined = 0;
        for (const auto& [path, test] : compiled_corpus()) {
            CAPTURE(path);
            const VariantDef v = litmus::make_variant(test, litmus::RunMode::RaceCheck);
            ExploreOptions o = lkmm_search();
            o.max_executions = 2000;
            try {
                graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState&) {
                    bool ub = false;
                    const bool short_way = lkmm::rcu_nesting_only(g, ub);
                    const lkmm::Relations r = lkmm::relations(g, lkmm::Depth::Nesting);
                    if (!short_way) {
                        ++declined;
                        return;
                    }
                    ++answered;
                    CHECK_FALSE(r.has_plain);
                    CHECK_FALSE(r.unbalanced_srcu);
                    CHECK(r.srcu_rscs.empty());
                    CHECK(ub == r.unbalanced_rcu);
                    unbalanced += ub;
                    rcu += !r.rcu_rscs.empty();
                });
            } catch (const std::exception&) {
                continue;  // a test the graph engine refuses
            }
        }
        // an unlock that no lock opened, then a lock left open: each unbalanced on its own
        for (const char* body : {"rcu_read_unlock();\n\tWRITE_ONCE(*x, 1);\n\trcu_read_lock();\n\trcu_read_unlock();",
                                 "rcu_read_lock();\n\tWRITE_ONCE(*x, 1);\n\trcu_read_lock();\n\trcu_read_unlock();"}) {
            CAPTURE(body);
            const std::string src = std::string("C unbalanced\n\n{}\n\nP0(int *x)\n{\n\t") + body + "\n}\n\nexists (x=1)\n";
            const VariantDef v = litmus::make_variant(litmus::compile(litmus::parse(src, "unbalanced.litmus")),
                                                      litmus::RunMode::RaceCheck);
            std::size_t seen = 0;
            graph_explore(v, lkmm_search(), [&](const ExecutionGraph& g, const FinalState&) {
                bool ub = false;
                CHECK(lkmm::rcu_nesting_only(g, ub));
                CHECK(ub);
                CHECK(lkmm::relations(g, lkmm::Depth::Nesting).unbalanced_rcu);
                ++seen;
            });
            CHECK(seen == 1);
        }
        MESSAGE(answered << " executions answered the short way (" << unbalanced << " unbalanced, " << rcu
                         << " with an RCU section), " << declined << " declined");
        CHECK(answered > 1000);
        CHECK(unbalanced > 0);
        CHECK(rcu > 100);
        CHECK(declined > 50);
    }
}
