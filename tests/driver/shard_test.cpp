// SPDX-License-Identifier: MIT
// Prefix sharding: the N shards of a variant together explore exactly what the unsharded search
// explores. The union of their distinct executions and outcomes equals the full run's, their
// interleavings add up to its interleavings, and merge_shards() gives the same verdict.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/scaling.hpp"
#include "checker/driver/check.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;

namespace {

/// The variant "MODEL/variant" of the catalogue or of the scaling family (bench/).
const VariantDef& find(const std::string& id) {
    static const std::vector<ModelDef> all = [] {
        auto m = models::catalogue();
        for (auto& s : bench::scaling_models()) m.push_back(std::move(s));
        return m;
    }();
    return test::find_variant(all, id);
}

std::set<std::vector<Value>> outcome_values(const std::vector<OutcomeRecord>& outcomes) {
    std::set<std::vector<Value>> s;
    for (const auto& o : outcomes) s.insert(o.values);
    return s;
}

}  // namespace

TEST_SUITE("shards") {
    TEST_CASE("the union of the shards is the full search, with and without reduction") {
        const std::vector<std::string> ids{"SB/fenced",         "IRIW/relaxed",      "grid/3x3",
                                           "shrinker_bit/baseline", "memcg_flush/patched", "vmalloc_purge/seed",
                                           "vmpressure/baseline", "shrinker_passes/t2_k4"};
        for (const bool reduction : {true, false})
            for (const auto& id : ids)
                for (const unsigned n : {2u, 3u, 7u}) {
                    CAPTURE(id);
                    CAPTURE(n);
                    CAPTURE(reduction);
                    CheckOptions o;
                    o.keep_execution_hashes = true;
                    o.explore.reduction = reduction;
                    const Report full = check(find(id), o);
                    REQUIRE(full.exploration == Exploration::Exhaustive);
                    std::vector<Report> shards;
                    std::set<std::uint64_t> hashes;
                    std::set<std::vector<Value>> outcomes;
                    std::uint64_t interleavings = 0;
                    for (unsigned i = 0; i < n; ++i) {
                        CheckOptions s = o;
                        s.explore.shard_index = i;
                        s.explore.shard_count = n;
                        shards.push_back(check(find(id), s));
                        const Report& r = shards.back();
                        CHECK(r.exploration == Exploration::Shard);
                        CHECK(r.shard.index == i);
                        CHECK(r.shard.count == n);
                        hashes.insert(r.execution_hashes.begin(), r.execution_hashes.end());
                        const auto ov = outcome_values(r.outcomes);
                        outcomes.insert(ov.begin(), ov.end());
                        interleavings += r.interleavings;
                    }
                    CHECK(std::vector<std::uint64_t>(hashes.begin(), hashes.end()) == full.execution_hashes);
                    CHECK(outcomes == outcome_values(full.outcomes));
                    CHECK(interleavings == full.interleavings);  // exactly the same search, split
                    const Report merged = merge_shards(shards);
                    CHECK(merged.exploration == Exploration::Exhaustive);
                    CHECK(merged.finding == full.finding);
                    CHECK(merged.status == full.status);
                    CHECK(merged.distinct_executions == full.distinct_executions);
                    CHECK(merged.executions == full.executions);
                    CHECK(merged.positive == full.positive);
                    // With the shards' hashes, each outcome's distinct executions are counted once
                    // however many shards reached them: the merge equals the full search.
                    CHECK(merged.outcomes == full.outcomes);
                    CHECK(merged.metrics == full.metrics);
                }
    }

    TEST_CASE("a merge is exhaustive only when every shard is there and completed") {
        CheckOptions o;
        o.keep_execution_hashes = true;
        std::vector<Report> shards;
        for (unsigned i = 0; i < 3; ++i) {
            CheckOptions s = o;
            s.explore.shard_index = i;
            s.explore.shard_count = 3;
            shards.push_back(check(find("grid/3x3"), s));
        }
        const std::vector<Report> two{shards[0], shards[2]};
        const Report partial = merge_shards(two);
        CHECK(partial.exploration == Exploration::Shard);
        CHECK(partial.status != Status::Fail);
        std::vector<Report> cut = shards;
        cut[1].exploration = Exploration::CutShort;
        CHECK(merge_shards(cut).exploration == Exploration::CutShort);
        CHECK_THROWS_AS(merge_shards({shards[0], shards[0]}), std::invalid_argument);
        Report other = shards[1];
        other.id = "SB/relaxed";
        CHECK_THROWS_AS(merge_shards({shards[0], other}), std::invalid_argument);
        Report wrong_split = shards[1];
        wrong_split.shard.count = 4;
        CHECK_THROWS_AS(merge_shards({shards[0], wrong_split}), std::invalid_argument);
    }

    TEST_CASE("an engine failure in the prefix enumeration: shard 0 takes the whole tree") {
        const VariantDef& v = find("vmpressure/plain_counter");  // a data race on the first path
        const Report full = check(v, CheckOptions{});
        std::vector<Report> shards;
        for (unsigned i = 0; i < 3; ++i) {
            CheckOptions s;
            s.explore.shard_index = i;
            s.explore.shard_count = 3;
            shards.push_back(check(v, s));
            CHECK(shards.back().shard.whole_tree_in_shard_zero);
        }
        CHECK(shards[1].interleavings == 0);
        const Report merged = merge_shards(shards);
        CHECK(merged.finding == full.finding);
        CHECK(merged.exploration == Exploration::UntilFailure);
        CHECK(merged.status == Status::Pass);
    }

    TEST_CASE("load buffering under LKMM: the graph engine's shards count each execution once") {
        // With guessed reads one execution can be built on two branches; within one search the
        // canonical hash hands it on once, two shards cannot see each other's. Split, these
        // variants counted executions twice (memcg_flush/patched: 15 for 13).
        for (const char* id : {"memcg_flush/patched", "memcg_flush/check_after_mb", "LB/relaxed"}) {
            CAPTURE(id);
            const VariantDef& v = find(id);
            CheckOptions o;
            o.explore.engine = EngineKind::Graph;
            o.explore.model = ModelKind::Lkmm;
            o.keep_execution_hashes = true;
            const Report full = check(v, o);
            std::vector<Report> shards;
            for (unsigned i = 0; i < 4; ++i) {
                CheckOptions s = o;
                s.explore.shard_index = i;
                s.explore.shard_count = 4;
                shards.push_back(check(v, s));
                CHECK(shards.back().shard.whole_tree_in_shard_zero);
                CHECK(!shards.back().shard.whole_tree_why.empty());
            }
            const Report merged = merge_shards(shards);
            CHECK(merged.executions == full.executions);
            CHECK(merged.positive == full.positive);
            CHECK(merged.finding == full.finding);
        }
    }
}
