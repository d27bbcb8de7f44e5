// SPDX-License-Identifier: MIT
// One search under LKMM shared by threads of the process (ExploreOptions::threads): the same
// executions, each once, in the order one thread finds them, with the load-buffering rounds
// learning across threads.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "checker/graph/graph_engine.hpp"
#include "checker/graph/graph_engine_internal.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/memory_model/rc11_certify.hpp"
#include "checker/model/model.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "litmus/run.hpp"
#include "tests/test_support.hpp"

using namespace oc;

namespace {

struct Search {
    std::multiset<std::uint64_t> hashes;  ///< every execution the sink received
    std::vector<std::uint64_t> order;     ///< ... in the order it received them
    std::uint64_t bad = 0;
    std::uint64_t cyclic = 0;  ///< executions with a po | rf cycle (load buffering)
    ExploreResult result;
};

Search search(const VariantDef& v, unsigned threads, std::size_t kept_events = std::size_t{1} << 20) {
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    o.threads = threads;
    o.guess_round_kept_events = kept_events;
    Search s;
    s.result = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState& fs) {
        s.hashes.insert(canonical_hash(g));
        s.order.push_back(canonical_hash(g));
        if (fs.bad_outcome) ++s.bad;
        if (const auto v2 = check_rc11(g); v2 && v2->axiom == "no-thin-air") ++s.cyclic;
    });
    return s;
}

}  // namespace

TEST_CASE("graph engine under LKMM: a search on several threads hands on what one thread does, each once") {
    // Every corpus test, on 3 threads: the same executions in the same order (none twice, though
    // an execution built with guesses can be built in two units), the same counts. With a
    // budget of 10 events kept, the rounds run again and the search proper hands its executions
    // on as they come: the same executions again, in another order.
    std::size_t compared = 0, with_cycles = 0;
    for (const auto& file : oc::test::litmus_corpus()) {
        CAPTURE(file);
        const VariantDef v = litmus::make_variant(litmus::load(file), litmus::RunMode::RaceCheck);
        const Search one = search(v, 1);
        for (const std::size_t kept : {std::size_t{1} << 20, std::size_t{10}}) {
            CAPTURE(kept);
            const Search three = search(v, 3, kept);
            CHECK(three.result.completed == one.result.completed);
            CHECK(three.result.failure == one.result.failure);
            if (!one.result.completed) continue;  // a failure: what came before it depends on the order
            CHECK(three.hashes == one.hashes);
            if (kept > 10) CHECK(three.order == one.order);
            CHECK(three.result.executions == one.result.executions);
            CHECK(three.result.interleavings == one.result.interleavings);
            CHECK(three.result.blocked == one.result.blocked);
            CHECK(three.result.thin_air == one.result.thin_air);
            CHECK(three.result.thin_air_copies == one.result.thin_air_copies);
            CHECK(three.bad == one.bad);
        }
        with_cycles += one.cyclic > 0;
        compared += one.result.completed;
    }
    MESSAGE(compared << " corpus tests, " << with_cycles << " with load buffering");
    CHECK(compared >= 140);
    CHECK(with_cycles >= 10);
}

TEST_CASE("graph engine under LKMM: threads hand executions on in one thread's order, every time") {
    // desc-reserve+3+mb-after-head: load buffering through RMW reads, 252 executions (herd7).
    const VariantDef v = litmus::make_variant(
        litmus::load(OC_SOURCE_ROOT "/litmus/tests/desc-reserve+3+mb-after-head.litmus"), litmus::RunMode::RaceCheck);
    const Search a = search(v, 2), b = search(v, 2), one = search(v, 1);
    CHECK(a.order == b.order);
    CHECK(a.order == one.order);
    CHECK(a.hashes == one.hashes);
    CHECK(a.hashes.size() == 252);
    CHECK(a.bad == 54);
}

namespace {
/// An 18-process RCU ring in the shape of bench/lkmm_bench.py's (GGRRRRGGRGGRGGRGGR, 262,143
/// executions): several seconds of search on two threads. (The 15-process ring, 32,767
/// executions, now ends in under a second, as the timeout below would.)
std::string rcu_ring_18() {
    const std::string kinds = "GGRRRRGGRGGRGGRGGR";
    const std::size_t n = kinds.size();
    std::string src = "C RCU-ring-18\n\n{}\n\n";
    for (std::size_t i = 0; i < n; ++i) {
        const std::string a = "x" + std::to_string(i), b = "x" + std::to_string((i + 1) % n);
        src += "P" + std::to_string(i) + "(int *" + a + ", int *" + b + ")\n{\n\tint r1;\n\n";
        if (kinds[i] == 'R')
            src += "\trcu_read_lock();\n\tr1 = READ_ONCE(*" + a + ");\n\tWRITE_ONCE(*" + b + ", 1);\n\trcu_read_unlock();\n";
        else
            src += "\tr1 = READ_ONCE(*" + a + ");\n\tsynchronize_rcu();\n\tWRITE_ONCE(*" + b + ", 1);\n";
        src += "}\n\n";
    }
    src += "exists (0:r1=1)\n";
    return src;
}
}  // namespace

TEST_CASE("graph engine under LKMM: the timeout bounds a search on several threads, not each unit") {
    // Were each unit of the search given the whole timeout, a unit begun late would run on past
    // it (on a 12-process ring, when the threads ran fixed shards, 2 s and more for a timeout of
    // 1 s).
    const VariantDef v = litmus::make_variant(litmus::compile(litmus::parse(rcu_ring_18(), "ring.litmus")),
                                              litmus::RunMode::RaceCheck);
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    o.threads = 2;
    o.timeout_seconds = 1.0;
    const auto start = std::chrono::steady_clock::now();
    const ExploreResult r = graph_explore(v, o, [](const ExecutionGraph&, const FinalState&) {});
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(r.cut_short);
    CHECK(!r.completed);
    CHECK(wall < 1.6);
}
