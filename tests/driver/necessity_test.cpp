// SPDX-License-Identifier: MIT
// Barrier necessity and outcome-set diff.
#include <doctest/doctest.h>

#include <array>
#include <stdexcept>

#include "cli/commands.hpp"
#include "checker/driver/diff.hpp"
#include "checker/driver/necessity.hpp"
#include "checker/model/kernel.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;
using oc::test::find_variant;

namespace {

const NecessityRow& row_for(const NecessityReport& n, const std::string& primitive, Weakening w) {
    for (const auto& r : n.rows)
        if (r.site.primitive == primitive && r.weakening == w) return r;
    throw std::runtime_error("no row for " + primitive);
}

using namespace oc::kernel;

#define OC_LINE_TEXT2(x) #x
#define OC_LINE_TEXT(x) OC_LINE_TEXT2(x)

/// Store buffering with an smp_mb() in each thread: two ordering sites of one primitive, told
/// apart by their lines.
struct TwoMb {
    struct Config {
        bool p1_mb = true;
    };
    explicit TwoMb(const Config& c) : cfg(c) {}
    const Config cfg;
    Atomic<int> x{"x", 0}, y{"y", 0};
    Reg r0{"0:r0"}, r1{"1:r1"};
    void p0() { WRITE_ONCE(x, 1); smp_mb(); r0 = READ_ONCE(y); }
    // clang-format off
    void p1() { WRITE_ONCE(y, 1); if (cfg.p1_mb) smp_mb(); r1 = READ_ONCE(x); } static constexpr const char* p1_mb = "smp_mb@" OC_LINE_TEXT(__LINE__);
    // clang-format on
    bool bad_outcome() const { return r0 == 0 && r1 == 0; }
    static constexpr std::array<Thread<TwoMb>, 2> threads{{{"P0", &TwoMb::p0}, {"P1", &TwoMb::p1}}};
};

ModelDef two_mb(const char* weakened) {
    return define<TwoMb>("two_mb", "test", "SB with an smp_mb() in each thread", {
        {"both", TwoMb::Config{true}, expect::never("both smp_mb(): SB forbidden")},
        {"no_p1_mb", TwoMb::Config{false}, expect::sometimes("P1's smp_mb() gone"), "", weakens("both", weakened)},
    });
}

}  // namespace

TEST_SUITE("necessity") {
    TEST_CASE("a declared mutant names one of several sites of a primitive by its line") {
        CheckOptions o;
        o.explore.engine = EngineKind::Graph;
        o.explore.model = ModelKind::Lkmm;
        {
            const std::vector<ModelDef> models{two_mb("smp_mb")};
            const VariantDef& mutant = models[0].variants[1];
            try {
                (void)check_as_weakened_base(mutant, models, o);
                FAIL("an ambiguous primitive was accepted");
            } catch (const std::invalid_argument& e) {
                const std::string what = e.what();
                CHECK(what.find("has 2 ordering sites of smp_mb(); name one by its line") != std::string::npos);
                CHECK(what.find(TwoMb::p1_mb) != std::string::npos);  // the candidates, with their lines
            }
        }
        {
            const std::vector<ModelDef> models{two_mb(TwoMb::p1_mb)};
            const VariantDef& mutant = models[0].variants[1];
            const Report weakened = check_as_weakened_base(mutant, models, o);
            const Report written = check(mutant, o);
            CHECK(weakened.finding == Finding{Verdict::Sometimes});
            CHECK(weakened.finding == written.finding);
            CHECK(weakened.outcomes.size() == written.outcomes.size());
            CHECK(derivation_label(mutant).find("smp_mb() at line ") != std::string::npos);
        }
        {
            // check rejects what explain, diff and report would reject, before any work (exit 2)
            char prog[] = "ordercheck", cmd[] = "check", all[] = "--all", quiet[] = "--no-progress";
            char* argv[] = {prog, cmd, all, quiet};
            CHECK_THROWS_AS((void)declared_site(two_mb("smp_mb").variants[1], {two_mb("smp_mb")}, ExploreOptions{}),
                            std::invalid_argument);
            ExploreOptions one;
            one.max_executions = 1;  // a search cut short may miss a site: it decides nothing
            CHECK_FALSE(declared_site(two_mb("smp_mb").variants[1], {two_mb("smp_mb")}, one).has_value());
            CHECK(oc::cli::main(4, argv, {two_mb("smp_mb")}) == 2);
            CHECK(oc::cli::main(4, argv, {two_mb(TwoMb::p1_mb)}) == 0);
        }
        for (const char* bad : {"smp_mb@1", "smp_mb@x", "@12", "smp_mb@"}) {
            INFO(bad);
            const std::vector<ModelDef> models{two_mb(bad)};
            CHECK_THROWS_AS((void)check_as_weakened_base(models[0].variants[1], models, o), std::invalid_argument);
        }
    }

    TEST_CASE("both barriers of the shrinker-bit R shape are needed; before_atomic -> smp_wmb suffices") {
        const auto models = models::catalogue();
        const NecessityReport n = necessity(find_variant(models, "R+shrinker_bit/merged"), CheckOptions{});
        CHECK(n.base.finding == Finding{Verdict::Never});
        REQUIRE(n.rows.size() == 6);  // two smp_mb-like sites, three weakenings each
        const auto& after = row_for(n, "smp_mb__after_atomic", Weakening::Remove);
        CHECK(after.result == Necessity::Needed);
        CHECK(after.report.witness.has_value());
        CHECK(row_for(n, "smp_mb__before_atomic", Weakening::Remove).result == Necessity::Needed);
        CHECK(row_for(n, "smp_mb__before_atomic", Weakening::ToReleaseFence).result == Necessity::NotNeeded);
        const auto& rmb = row_for(n, "smp_mb__after_atomic", Weakening::ToAcquireFence);
        CHECK(rmb.result == Necessity::NotNeeded);
        CHECK(rmb.lkmm_caveat.find("LKMM") != std::string::npos);
        CHECK(row_for(n, "smp_mb__after_atomic", Weakening::ToReleaseFence).result == Necessity::Needed);
        for (const auto& r : n.rows) CHECK(r.report.exploration == Exploration::Exhaustive);
    }

    TEST_CASE("weakening matches the hand-written mutant") {
        const auto models = models::catalogue();
        const NecessityReport n = necessity(find_variant(models, "R+shrinker_bit/merged"), CheckOptions{});
        const Report mutant = check(find_variant(models, "R+shrinker_bit/no_after_atomic"), CheckOptions{});
        const auto& weakened = row_for(n, "smp_mb__after_atomic", Weakening::Remove).report;
        CHECK(weakened.finding == mutant.finding);
        CHECK(weakened.outcomes.size() == mutant.outcomes.size());
        CHECK(weakened.executions == mutant.executions);
    }

    TEST_CASE("a declared mutant reaches what its base reaches with the barrier weakened") {
        // VariantDef::derived says which barrier of which variant a hand-written mutant weakens;
        // explain draws the weakened base in its place, so the two must be the same program.
        const auto models = models::catalogue();
        int declared = 0;
        for (const auto& m : models)
            for (const auto& v : m.variants) {
                if (!v.derived) continue;
                ++declared;
                for (ModelKind kind : {ModelKind::Rc11, ModelKind::Lkmm}) {
                    INFO(v.id(), " under ", to_string(kind));
                    CheckOptions o;
                    o.explore.engine = EngineKind::Graph;
                    o.explore.model = kind;
                    const Report mutant = check(v, o);
                    const Report weakened = check_as_weakened_base(v, models, o);
                    CHECK(weakened.id == v.id());
                    CHECK(weakened.finding == mutant.finding);
                    REQUIRE(weakened.outcomes.size() == mutant.outcomes.size());
                    for (std::size_t i = 0; i < mutant.outcomes.size(); ++i)
                        CHECK(weakened.outcomes[i].values == mutant.outcomes[i].values);
                }
            }
        CHECK(declared == 10);
        CHECK_THROWS_AS(check_as_weakened_base(find_variant(models, "SB/relaxed"), models, CheckOptions{}),
                        std::invalid_argument);
    }

    TEST_CASE("acquire/release accesses are weakened to relaxed") {
        const auto models = models::catalogue();
        const NecessityReport n = necessity(find_variant(models, "MP/rel_acq"), CheckOptions{});
        REQUIRE(n.rows.size() == 2);
        for (const auto& r : n.rows) {
            CHECK(r.weakening == Weakening::ToRelaxed);
            CHECK(r.result == Necessity::Needed);
        }
    }

    TEST_CASE("necessity refuses a variant that is not proved") {
        const auto models = models::catalogue();
        CHECK_THROWS_AS(necessity(find_variant(models, "SB/relaxed"), CheckOptions{}), std::invalid_argument);
    }
}

TEST_SUITE("diff") {
    TEST_CASE("removing the fences adds exactly the SB outcome") {
        const auto models = models::catalogue();
        const DiffReport d = diff(find_variant(models, "SB/fenced"), find_variant(models, "SB/relaxed"), CheckOptions{});
        CHECK(d.exact());
        CHECK(d.verdict_changed());
        CHECK(d.only_in_a.empty());
        REQUIRE(d.only_in_b.size() == 1);
        CHECK(d.b.outcomes[d.only_in_b[0]].values == std::vector<Value>{0, 0});
        CHECK(d.b.outcome_witnesses.size() == d.b.outcomes.size());
    }

    TEST_CASE("a variant against itself has equal outcome sets") {
        const auto models = models::catalogue();
        const auto& v = find_variant(models, "MP/rel_acq");
        const DiffReport d = diff(v, v, CheckOptions{});
        CHECK(d.equal_outcome_sets());
        CHECK_FALSE(d.verdict_changed());
    }

    TEST_CASE("variants of different models cannot be compared") {
        const auto models = models::catalogue();
        CHECK_THROWS_AS(diff(find_variant(models, "SB/relaxed"), find_variant(models, "R/relaxed"), CheckOptions{}),
                        std::invalid_argument);
    }
}
