// SPDX-License-Identifier: MIT
// The seed models: memcg_flush's baseline and patched reach exactly the same outcome set (the
// patch is an optimisation, not a behaviour change, §3.4 E1), their metrics differ, and a few
// key verdicts of shrinker_bit and memcg_flush hold.
#include <doctest/doctest.h>

#include <set>
#include <utility>
#include <vector>

#include "checker/driver/check.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;
using oc::test::find_variant;

namespace {

/// The outcome set: each distinct final state with its bad-outcome flag, without counts.
std::set<std::pair<std::vector<Value>, bool>> outcome_set(const Report& r) {
    std::set<std::pair<std::vector<Value>, bool>> out;
    for (const auto& o : r.outcomes) out.emplace(o.values, o.bad_outcome);
    return out;
}

MetricRange metric(const Report& r, const std::string& name) {
    for (const auto& m : r.metrics)
        if (m.name == name) return m;
    FAIL("no metric " << name << " in " << r.id);
    return {};
}

}  // namespace

TEST_SUITE("seeds") {
    TEST_CASE("memcg_flush: baseline and patched reach the same outcome set; the patch saves RMWs") {
        const auto models = models::catalogue();
        const Report base = check(find_variant(models, "memcg_flush/baseline"), CheckOptions{});
        const Report patched = check(find_variant(models, "memcg_flush/patched"), CheckOptions{});
        for (const Report* r : {&base, &patched}) {
            CHECK(r->exploration == Exploration::Exhaustive);
            CHECK(r->status == Status::Pass);
            CHECK(r->finding == Finding{Verdict::Sometimes});
        }
        REQUIRE(base.observable_names == std::vector<std::string>{"1:flush", "1:stat", "thr>N", "unflushed"});
        REQUIRE(patched.observable_names == base.observable_names);
        // E1: the same final (consumer decision, stat read, thr > N, unflushed) tuples, bad flags included.
        const auto base_set = outcome_set(base);
        CHECK(base_set.size() == 9);
        CHECK(outcome_set(patched) == base_set);
        // The bad outcome (A1) is in both: 12 pages unflushed with thr <= N.
        CHECK(base_set.contains({{1, 6, 0, 12}, true}));
        // Q1: every batch crossing is an atomic_add before the patch; at most one per flush interval after.
        CHECK(metric(base, "thr_rmws") == MetricRange{"thr_rmws", 3, 3});
        CHECK(metric(patched, "thr_rmws") == MetricRange{"thr_rmws", 1, 2});
        CHECK(metric(patched, "thr_skips").max == 2);
        // smp_mb() before the check changes no outcome (mutant M3).
        const Report mb = check(find_variant(models, "memcg_flush/check_after_mb"), CheckOptions{});
        CHECK(outcome_set(mb) == base_set);
    }

    TEST_CASE("memcg_flush: skipping while a flush is in progress reads stale stats; v6.8 does not") {
        const auto models = models::catalogue();
        const Report trylock = check(find_variant(models, "memcg_flush/v6.0_trylock"), CheckOptions{});
        const Report ongoing = check(find_variant(models, "memcg_flush/v6.4_skip_if_ongoing"), CheckOptions{});
        const Report xchg = check(find_variant(models, "memcg_flush/v6.4_xchg_only"), CheckOptions{});
        const Report noskip = check(find_variant(models, "memcg_flush/v6.8_no_skip"), CheckOptions{});
        CHECK(trylock.finding == Finding{Verdict::Sometimes});
        CHECK(ongoing.finding == Finding{Verdict::Sometimes});
        CHECK(noskip.finding == Finding{Verdict::Never});
        CHECK(noskip.status == Status::Pass);
        // The test-and-test-and-set never writes the line when a flush is in progress.
        CHECK(metric(ongoing, "ongoing_rmws_failed").max == 0);
        CHECK(metric(xchg, "ongoing_rmws_failed").max == 1);
        CHECK(outcome_set(xchg) == outcome_set(ongoing));
    }

    TEST_CASE("memcg_flush: the inverted check loses every flush") {
        const auto models = models::catalogue();
        const Report r = check(find_variant(models, "memcg_flush/inverted_check"), CheckOptions{});
        CHECK(r.finding == Finding{Verdict::Always});
        CHECK(metric(r, "thr_rmws").max == 0);
    }

    TEST_CASE("shrinker_bit: both barriers are needed; count_objects() on an empty list drops from K to 2") {
        const auto models = models::catalogue();
        const auto run = [&](const char* id) { return check(find_variant(models, id), CheckOptions{}); };
        const Report merged = run("shrinker_bit/merged");
        CHECK(merged.finding == Finding{Verdict::Never});
        CHECK(merged.exploration == Exploration::Exhaustive);
        CHECK(run("shrinker_bit/no_after_atomic").finding == Finding{Verdict::Sometimes});
        CHECK(run("shrinker_bit/no_before_atomic").finding == Finding{Verdict::Sometimes});
        const Report rmb = run("shrinker_bit/after_atomic_as_rmb");
        CHECK(rmb.finding == Finding{Verdict::Never});  // under the C++11 mapping only
        CHECK(rmb.expect.lkmm == Verdict::Sometimes);
        CHECK(run("shrinker_bit/reparent_before_fix").finding == Finding{Verdict::Sometimes});
        CHECK(run("shrinker_bit/reparent_fixed").finding == Finding{Verdict::Never});
        // Q1 over K = 4 passes.
        CHECK(metric(run("shrinker_bit/baseline_idle"), "count_objects_empty") ==
              MetricRange{"count_objects_empty", 4, 4});
        CHECK(metric(run("shrinker_bit/merged_idle"), "count_objects_empty") ==
              MetricRange{"count_objects_empty", 2, 2});
        CHECK(metric(run("shrinker_bit/baseline"), "count_objects_empty").max == 4);
        // With a concurrent list_lru_add(): 2, plus the commit message's case 1 (a stale first count).
        CHECK(metric(merged, "count_objects_empty").max == 3);
    }
}
