// SPDX-License-Identifier: MIT
// The engine's LKMM check (lkmm_check.cpp) against the relations of lkmm.cpp, which read as the
// cat file does: on every graph the graph engine asks about while it explores the litmus corpus
// and the model catalogue under LKMM (prefixes, inconsistent graphs and guessed reads included),
// both must give the same answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/graph/graph_engine.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_check.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "models/catalogue.hpp"

using namespace oc;
namespace fs = std::filesystem;

namespace {

/// LKMM whose consistent() asks both computations and counts where they differ.
class Compared final : public MemoryModel {
public:
    mutable std::uint64_t queries = 0, consistent_graphs = 0, differences = 0;
    mutable std::string first_difference;
    std::string current;  ///< the test being explored

    std::string_view name() const override { return lkmm_model().name(); }
    bool kernel_events() const override { return true; }
    bool consistent(const ExecutionGraph& g) const override {
        const bool fast = lkmm::consistent(g);
        const bool reference = !lkmm::violated_axiom(lkmm::relations(g, lkmm::Depth::Axioms));
        ++queries;
        if (reference) ++consistent_graphs;
        if (fast != reference) {
            ++differences;
            if (first_difference.empty())
                first_difference = current + ": the check says " + (fast ? "consistent" : "inconsistent") +
                                   ", the relations " + (reference ? "consistent" : "inconsistent");
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
        std::vector<fs::path> tests;
        for (const auto& entry : fs::directory_iterator(std::string(OC_SOURCE_ROOT) + "/litmus/tests"))
            if (entry.path().extension() == ".litmus") tests.push_back(entry.path());
        std::sort(tests.begin(), tests.end());
        REQUIRE(tests.size() > 100);
        std::size_t explored = 0;
        for (const fs::path& path : tests) {
            std::shared_ptr<const litmus::Compiled> test;
            try {
                test = litmus::compile(litmus::parse_file(path.string()));
            } catch (const std::exception&) {
                continue;  // the corpus's malformed-input tests
            }
            model.current = path.filename().string();
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
        CHECK(explored > 150);
        // both answers were exercised many times
        CHECK(model.consistent_graphs > 10000);
        CHECK(model.queries - model.consistent_graphs > 1000);
    }
}
