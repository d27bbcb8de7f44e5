// SPDX-License-Identifier: MIT
// Seed models vmpressure (seed 000) and vmalloc_purge (seed 004): key verdicts, the metrics that
// reproduce each seed's headline before/after, and the witnesses of the Sometimes verdicts.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "checker/driver/check.hpp"
#include "models/catalogue.hpp"
#include "traces/export.hpp"

using namespace oc;

namespace {

Report run(const ModelDef& m, const std::string& variant) {
    for (const auto& v : m.variants)
        if (v.name == variant) return check(v, CheckOptions{});
    throw std::invalid_argument("no variant " + variant);
}

MetricRange metric(const Report& r, const std::string& name) {
    const auto it =
        std::find_if(r.metrics.begin(), r.metrics.end(), [&](const MetricRange& m) { return m.name == name; });
    if (it == r.metrics.end()) throw std::invalid_argument("no metric " + name);
    return *it;
}

std::size_t observable(const Report& r, const std::string& name) {
    const auto it = std::find(r.observable_names.begin(), r.observable_names.end(), name);
    if (it == r.observable_names.end()) throw std::invalid_argument("no observable " + name);
    return static_cast<std::size_t>(it - r.observable_names.begin());
}

/// The line of a text trace that contains `needle`, or "".
std::string trace_line(const std::string& trace, const std::string& needle) {
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);)
        if (line.find(needle) != std::string::npos) return line;
    return "";
}

}  // namespace

TEST_SUITE("seeds_vm") {
    TEST_CASE("every vmpressure and vmalloc_purge variant passes, and the verdicts are settled") {
        for (const ModelDef& m : {models::vmpressure(), models::vmalloc_purge()}) {
            for (const auto& v : m.variants) {
                const Report r = check(v, CheckOptions{});
                CAPTURE(r.id);
                CHECK(r.status == Status::Pass);
                CHECK(r.rejected == 0);
                if (std::holds_alternative<Verdict>(r.expect.memory_model))
                    CHECK(r.exploration == Exploration::Exhaustive);
            }
        }
    }

    TEST_CASE("vmpressure headline: a work item queued with no listener before the patch, none after") {
        const ModelDef m = models::vmpressure();
        const Report before = run(m, "baseline");
        const Report after = run(m, "v3");
        CHECK(before.finding == Finding{Verdict::Never});
        CHECK(after.finding == Finding{Verdict::Never});
        CHECK(metric(before, "works_queued").min >= 1);
        CHECK(metric(before, "works_no_listener").min >= 1);
        CHECK(metric(after, "works_queued").max == 0);
        CHECK(metric(after, "works_no_listener").max == 0);
        // v1 placement: no work either, but the scans pile up under sr_lock (I2).
        const Report v1 = run(m, "v1_check_after_accumulation");
        CHECK(v1.finding == Finding{Verdict::Always});
        CHECK(metric(v1, "works_queued").max == 0);
        CHECK(metric(v1, "tree_scanned_max").min == 512);
        CHECK(metric(after, "tree_scanned_max").max == 0);
    }

    TEST_CASE("vmpressure L1: a registration that happens-before reclaim is notified, and the check is not vacuous") {
        const ModelDef m = models::vmpressure();
        for (const char* v : {"v3_register_hb_reclaim", "baseline_register_hb_reclaim"}) {
            const Report r = run(m, v);
            CAPTURE(r.id);
            CHECK(r.finding == Finding{Verdict::Never});
            const std::size_t saw = observable(r, "RCL:registered");
            const std::size_t signals = observable(r, "signals");
            bool reclaimed_after_registration = false;
            for (const auto& o : r.outcomes)
                if (o.values[saw] == 1) {
                    reclaimed_after_registration = true;
                    CHECK(o.values[signals] == 1);
                }
            CHECK(reclaimed_after_registration);
            CHECK(metric(r, "works_no_listener").max == 0);
        }
    }

    TEST_CASE("vmpressure S1: the check at entry loses socket pressure, the seed's placement does not") {
        const ModelDef m = models::vmpressure();
        const Report entry = run(m, "check_at_entry");
        CHECK(entry.finding == Finding{Verdict::Sometimes});
        REQUIRE(entry.witness);
        // The witness: the entry check read the key's initial 0 (no hb from static_branch_inc()).
        const std::string key_read = trace_line(to_text_trace(*entry.witness, Vocabulary::Cpp11), "static_branch_unlikely");
        CHECK(key_read.find("num_events=0") != std::string::npos);
        CHECK(key_read.find("rf init") != std::string::npos);
        CHECK(run(m, "v3_socket_pressure").finding == Finding{Verdict::Never});
    }

    TEST_CASE("vmpressure M3: a plain int counter is a data race") {
        const Report r = run(models::vmpressure(), "plain_counter");
        CHECK(r.finding == Finding{EngineFailure::DataRace});
        CHECK(r.failure_detail.find("num_events_plain") != std::string::npos);
    }

    TEST_CASE("vmalloc_purge: the seed's mutex_is_locked skip strands an area (Michal Hocko's window)") {
        const ModelDef m = models::vmalloc_purge();
        const Report seed = run(m, "seed");
        CHECK(seed.finding == Finding{Verdict::Sometimes});
        REQUIRE(seed.witness);
        const std::string trace = to_text_trace(*seed.witness, Vocabulary::Cpp11);
        // F read the lock held (the owner word's initial value: KW holds it), so it queued nothing.
        const std::string is_locked = trace_line(trace, "mutex_is_locked");
        CHECK(is_locked.find("rf init") != std::string::npos);
        CHECK(trace_line(trace, "schedule_work").empty());
        // KW's llist_del_all took only area 0 (bit 0): area 1 came after it.
        CHECK(trace_line(trace, "vmap_purge_list 1->0").find("llist_del_all") != std::string::npos);
        CHECK(run(m, "baseline").finding == Finding{Verdict::Never});
        CHECK(run(m, "v5_18").finding == Finding{Verdict::Never});
    }

    TEST_CASE("vmalloc_purge: the v2 in-progress guard loses a wake-up too") {
        const Report r = run(models::vmalloc_purge(), "v2_in_progress_guard");
        CHECK(r.finding == Finding{Verdict::Sometimes});
        REQUIRE(r.witness);
        const std::string trace = to_text_trace(*r.witness, Vocabulary::Cpp11);
        CHECK(trace_line(trace, "drain_vmap_work_in_progress 1->1").find("atomic_xchg") != std::string::npos);
        CHECK(trace_line(trace, "schedule_work").empty());
    }

    TEST_CASE("vmalloc_purge headline: purge works queued while a purge runs, 2 before and 1 after") {
        const ModelDef m = models::vmalloc_purge();
        const Report before = run(m, "baseline");
        const Report after = run(m, "seed");
        // The running purge plus the free's own: the baseline always queues a second work.
        CHECK(metric(before, "works_queued").min == 2);
        CHECK(metric(before, "works_queued").max == 2);
        CHECK(metric(before, "queued_while_purging").max == 1);
        // The seed queues the second only once the purge has dropped the lock.
        CHECK(metric(after, "works_queued").min == 1);
        CHECK(metric(after, "queued_while_purging").max == 0);
        // v5.18 went back to always queueing (PENDING deduplicates).
        CHECK(metric(run(m, "v5_18"), "works_queued").min == 2);
    }

    TEST_CASE("vmalloc_purge S2: inserting before counting drives vmap_lazy_nr negative") {
        const Report r = run(models::vmalloc_purge(), "insert_before_add");
        CHECK(r.finding == Finding{EngineFailure::AssertFailed});
        CHECK(r.failure_detail.find("S2") != std::string::npos);
    }
}
