// SPDX-License-Identifier: MIT
// Verdicts, expectations, statuses and exit codes.
#include <doctest/doctest.h>


#include "cli/catalogue_select.hpp"
#include "cli/format.hpp"
#include "checker/driver/check.hpp"
#include "checker/model/primitives.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;
using oc::test::find_variant;

namespace {

Report report_with(Status s) {
    Report r;
    r.status = s;
    return r;
}

}  // namespace

TEST_SUITE("driver") {
    TEST_CASE("judge: an exhaustive search settles every expectation") {
        const auto never = expect::never("");
        CHECK(judge(Finding{Verdict::Never}, never, Exploration::Exhaustive) == Status::Pass);
        CHECK(judge(Finding{Verdict::Sometimes}, never, Exploration::Exhaustive) == Status::Fail);
        CHECK(judge(Finding{Verdict::Always}, never, Exploration::Exhaustive) == Status::Fail);
        CHECK(judge(Finding{EngineFailure::DataRace}, never, Exploration::UntilFailure) == Status::Fail);
        CHECK(judge(Finding{EngineFailure::DataRace}, expect::failure(EngineFailure::DataRace, ""),
                    Exploration::UntilFailure) == Status::Pass);
        CHECK(judge(Finding{Verdict::Never}, expect::failure(EngineFailure::DataRace, ""), Exploration::Exhaustive) ==
              Status::Fail);
        CHECK(judge(std::nullopt, never, Exploration::Exhaustive) == Status::Fail);
    }

    TEST_CASE("judge: a partial search settles only what it witnessed") {
        const auto never = expect::never("");
        const auto sometimes = expect::sometimes("");
        for (Exploration e : {Exploration::CutShort, Exploration::Bounded, Exploration::Sampled}) {
            CHECK(judge(Finding{Verdict::Never}, never, e) == Status::Incomplete);   // not a proof
            CHECK(judge(Finding{Verdict::Sometimes}, never, e) == Status::Fail);     // a witness
            CHECK(judge(Finding{Verdict::Always}, never, e) == Status::Fail);
            CHECK(judge(Finding{Verdict::Sometimes}, sometimes, e) == Status::Pass);
            CHECK(judge(Finding{Verdict::Never}, sometimes, e) == Status::Incomplete);
            CHECK(judge(Finding{Verdict::Always}, sometimes, e) == Status::Incomplete);
            CHECK(judge(std::nullopt, never, e) == Status::Incomplete);
        }
    }

    TEST_CASE("judge: an engine limitation compares against the engine's answer") {
        const auto e = expect::sometimes("RC11 allows").engine_finds(Verdict::Never, "no LB in Relacy");
        CHECK(judge(Finding{Verdict::Never}, e, Exploration::Exhaustive) == Status::Pass);
        CHECK(judge(Finding{Verdict::Sometimes}, e, Exploration::Exhaustive) == Status::Fail);
    }

    TEST_CASE("exit codes: mismatch beats incomplete beats ok") {
        using cli::exit_code;
        CHECK(exit_code({}) == cli::exit_ok);
        CHECK(exit_code({report_with(Status::Pass), report_with(Status::Pass)}) == cli::exit_ok);
        CHECK(exit_code({report_with(Status::Pass), report_with(Status::Incomplete)}) == cli::exit_incomplete);
        CHECK(exit_code({report_with(Status::Incomplete), report_with(Status::Fail)}) == cli::exit_mismatch);
        CHECK(cli::exit_incomplete != cli::exit_usage);
    }

    TEST_CASE("check: SB relaxed is Sometimes with both reads from the initial writes in the witness") {
        const auto models = models::catalogue();
        const Report r = check(find_variant(models, "SB/relaxed"), CheckOptions{});
        REQUIRE(r.finding == Finding{Verdict::Sometimes});
        CHECK(r.exploration == Exploration::Exhaustive);
        CHECK(r.status == Status::Pass);
        CHECK(r.executions == r.interleavings);  // sleep-set reduction (on by default) ran fewer than 64
        CheckOptions full;
        full.explore.reduction = false;
        // Relacy's full search of SB (docs/relacy.md)
        CHECK(check(find_variant(models, "SB/relaxed"), full).executions == 64);
        CHECK(r.positive > 0);
        CHECK(r.negative() > 0);
        // Outcome set: (r0, r1) in {(0,0), (0,1), (1,0), (1,1)}.
        REQUIRE(r.outcomes.size() == 4);
        CHECK(r.observable_names == std::vector<std::string>{"0:r0", "1:r1"});
        REQUIRE(r.witness);
        const ExecutionGraph& g = *r.witness;
        int reads = 0;
        for (EventId id : g.events()) {
            const Event& e = g.event(id);
            if (!e.is_read()) continue;
            ++reads;
            REQUIRE(e.reads_from);
            CHECK(e.reads_from->thread == EventId::init_thread);
        }
        CHECK(reads == 2);
    }

    TEST_CASE("check: a budget cuts the search short and proves nothing") {
        const auto models = models::catalogue();
        CheckOptions o;
        o.explore.max_executions = 5;
        const Report r = check(find_variant(models, "SB/fenced"), o);
        CHECK(r.exploration == Exploration::CutShort);
        CHECK(r.executions == 5);
        CHECK(r.status == Status::Incomplete);
    }

    TEST_CASE("check: random search is reported as sampled") {
        const auto models = models::catalogue();
        CheckOptions o;
        o.explore.search = SearchKind::Random;
        o.explore.random_executions = 200;
        const Report r = check(find_variant(models, "SB/relaxed"), o);
        CHECK(r.exploration == Exploration::Sampled);
        CHECK(r.executions == 200);
    }

    TEST_CASE("select_variants: unknown ids are named, with the ids that exist") {
        const auto models = models::catalogue();
        std::string error;
        CHECK(cli::select_variants(models, {"no-such-model"}, error).empty());
        CHECK(error.find("'no-such-model'") != std::string::npos);
        CHECK(error.find("SB/relaxed") != std::string::npos);
        error.clear();
        const auto by_model = cli::select_variants(models, {"SB"}, error);
        CHECK(error.empty());
        CHECK(by_model.size() >= 3);
        const auto one = cli::select_variants(models, {"SB/relaxed", "SB/relaxed"}, error);
        CHECK(one.size() == 1);
    }
}

TEST_SUITE("certification") {
    TEST_CASE("Relacy's SC-fence-vs-SC-access outcome is rejected by RC11 certification") {
        const auto models = models::catalogue();
        const VariantDef& v = find_variant(models, "SB/sc_vs_fence");
        CheckOptions raw;
        raw.certify = false;
        const Report uncertified = check(v, raw);
        CHECK(uncertified.finding == Finding{Verdict::Sometimes});  // the engine's false positive
        CHECK(uncertified.rejected == 0);

        const Report certified = check(v, CheckOptions{});
        CHECK(certified.finding == Finding{Verdict::Never});
        CHECK(certified.rejected > 0);
        CHECK(certified.first_rejection.find("sc") != std::string::npos);
        REQUIRE(certified.rejected_graph);
        CHECK(certified.status == Status::Pass);  // the variant declares the engine's known defect
        CHECK(certified.executions + certified.rejected == uncertified.executions);
    }

    TEST_CASE("an unexpected inconsistent execution fails the check") {
        const auto models = models::catalogue();
        VariantDef v = find_variant(models, "SB/sc_vs_fence");
        v.expect.engine_inconsistency_note = {};
        const Report r = check(v, CheckOptions{});
        CHECK(r.finding == Finding{Verdict::Never});
        CHECK(r.status == Status::Fail);
    }

    TEST_CASE("every execution of the calibration suite is RC11-consistent") {
        for (const auto& m : models::catalogue())
            for (const auto& v : m.variants) {
                if (!v.expect.engine_inconsistency_note.empty()) continue;
                const Report r = check(v, CheckOptions{});
                CAPTURE(r.id);
                CHECK(r.rejected == 0);
                CHECK(r.status == Status::Pass);
            }
    }
}
