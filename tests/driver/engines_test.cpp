// SPDX-License-Identifier: MIT
// The engines' capabilities() (checker/engines/engines.hpp) against what each engine does: an
// engine runs exactly the searches and memory models it claims, and exactly up to its thread
// limit. The command line and the driver decide by capabilities() before they explore, so a
// claim that is wrong either refuses what would run or lets through what the engine rejects.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "checker/engines/engines.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "tests/test_support.hpp"

using namespace oc;

namespace {

/// Does `engine` accept exploring `variant` with `search` under `model`? (std::invalid_argument
/// is how an engine refuses options; any other outcome counts as accepted.)
bool accepts(const VariantDef& variant, EngineKind engine, SearchKind search, ModelKind model) {
    ExploreOptions o;
    o.engine = engine;
    o.search = search;
    o.model = model;
    o.random_executions = 5;
    o.max_executions = 5;
    try {
        explore(variant, o, [](const ExecutionGraph&, const FinalState&) {});
    } catch (const std::invalid_argument&) {
        return false;
    }
    return true;
}

/// A litmus test of `n` processes, each writing its own location once.
std::shared_ptr<const litmus::Compiled> processes(unsigned n) {
    std::string src = "C threads\n{}\n";
    for (unsigned i = 0; i < n; ++i)
        src += "P" + std::to_string(i) + "(int *x" + std::to_string(i) + ") { WRITE_ONCE(*x" + std::to_string(i) + ", 1); }\n";
    return litmus::compile(litmus::parse(src + "exists (x0=1)\n", "threads.litmus"));
}

/// Does `engine` run a variant of `n` threads? (std::runtime_error: a model the engine cannot run.)
bool runs_threads(EngineKind engine, unsigned n) {
    const auto test = processes(n);
    ExploreOptions o;
    o.engine = engine;
    o.max_executions = 1;
    try {
        explore(litmus::make_variant(test, litmus::RunMode::RaceCheck), o,
                [](const ExecutionGraph&, const FinalState&) {});
    } catch (const std::runtime_error&) {
        return false;
    }
    return true;
}

}  // namespace

TEST_CASE("capabilities: each engine runs exactly the searches and memory models it claims") {
    const VariantDef& sb = test::catalogue_variant("SB/relaxed");
    for (const EngineKind engine : {EngineKind::Graph, EngineKind::Relacy}) {
        const EngineCapabilities& c = capabilities(engine);
        CHECK(c.engine == engine);
        for (const SearchKind search : {SearchKind::Full, SearchKind::Bound, SearchKind::Random})
            for (const ModelKind model : {ModelKind::Rc11, ModelKind::Lkmm, ModelKind::Sc}) {
                CAPTURE(to_string(engine));
                CAPTURE(static_cast<int>(search));
                CAPTURE(to_string(model));
                CHECK(accepts(sb, engine, search, model) == (c.runs(search) && c.judges(model)));
            }
    }
}

TEST_CASE("capabilities: each engine runs exactly up to its thread limit") {
    for (const EngineKind engine : {EngineKind::Graph, EngineKind::Relacy}) {
        const unsigned most = capabilities(engine).max_threads;
        CAPTURE(to_string(engine));
        REQUIRE(most >= 2);
        CHECK(runs_threads(engine, most));
        // The litmus front end takes at most 32 processes, the graph engine's limit.
        if (most < 32) CHECK_FALSE(runs_threads(engine, most + 1));
    }
}
