// SPDX-License-Identifier: MIT
// Partial-order reduction keeps what the full search finds: on every variant of the catalogue
// (and the small members of the scaling family), the set of distinct executions (canonical
// hashes), the outcome set, the metrics and the verdict are the same with the sleep-set
// reduction as without it.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/scaling.hpp"
#include "checker/driver/check.hpp"
#include "checker/model/primitives.hpp"
#include "models/catalogue.hpp"

using namespace oc;

namespace {

std::set<std::pair<std::vector<Value>, bool>> outcome_set(const Report& r) {
    std::set<std::pair<std::vector<Value>, bool>> s;
    for (const auto& o : r.outcomes) s.emplace(o.values, o.bad_outcome);
    return s;
}

/// Fence-heavy shapes whose executions depend on the order of SC fences in different threads
/// (the catalogue's fenced litmus tests reach their executions through other orders too).
struct FenceRing3 {  // SB ring of three, F_sc in every thread
    struct Config {};
    explicit FenceRing3(const Config&) {}
    Atomic<int> x{"x", 0}, y{"y", 0}, z{"z", 0};
    Reg r0{"0:r"}, r1{"1:r"}, r2{"2:r"};
    void p0() {
        x.store(1, relaxed);
        fence(seq_cst);
        r0 = y.load(relaxed);
    }
    void p1() {
        y.store(1, relaxed);
        fence(seq_cst);
        r1 = z.load(relaxed);
    }
    void p2() {
        z.store(1, relaxed);
        fence(seq_cst);
        r2 = x.load(relaxed);
    }
    bool bad_outcome() const { return r0 == 0 && r1 == 0 && r2 == 0; }
    static constexpr std::array<Thread<FenceRing3>, 3> threads{
        {{"P0", &FenceRing3::p0}, {"P1", &FenceRing3::p1}, {"P2", &FenceRing3::p2}}};
};

struct RwcFenced {  // W x || R x; F; R y || W y; F; R x
    struct Config {};
    explicit RwcFenced(const Config&) {}
    Atomic<int> x{"x", 0}, y{"y", 0};
    Reg a{"1:a"}, b{"1:b"}, c{"2:c"};
    void p0() { x.store(1, relaxed); }
    void p1() {
        a = x.load(relaxed);
        fence(seq_cst);
        b = y.load(relaxed);
    }
    void p2() {
        y.store(1, relaxed);
        fence(seq_cst);
        c = x.load(relaxed);
    }
    bool bad_outcome() const { return a == 1 && b == 0 && c == 0; }
    static constexpr std::array<Thread<RwcFenced>, 3> threads{
        {{"P0", &RwcFenced::p0}, {"P1", &RwcFenced::p1}, {"P2", &RwcFenced::p2}}};
};

struct FenceChain {  // two fences per thread around a shared counter
    struct Config {};
    explicit FenceChain(const Config&) {}
    Atomic<int> x{"x", 0}, y{"y", 0};
    Reg r0{"0:r0"}, r1{"0:r1"}, r2{"1:r2"}, r3{"1:r3"};
    void p0() {
        x.store(1, relaxed);
        fence(seq_cst);
        r0 = y.load(relaxed);
        fence(seq_cst);
        r1 = y.load(relaxed);
    }
    void p1() {
        y.store(1, relaxed);
        fence(seq_cst);
        r2 = x.load(relaxed);
        y.store(2, relaxed);
        fence(seq_cst);
        r3 = x.load(relaxed);
    }
    bool bad_outcome() const { return r0 == 0 && r2 == 0; }
    static constexpr std::array<Thread<FenceChain>, 2> threads{{{"P0", &FenceChain::p0}, {"P1", &FenceChain::p1}}};
};

std::vector<VariantDef> fence_shapes() {
    std::vector<VariantDef> out;
    for (auto d : {define<FenceRing3>("fence_ring3", "test", "", {{"f", {}, expect::never(""), ""}}),
                   define<RwcFenced>("rwc_fenced", "test", "", {{"f", {}, expect::never(""), ""}}),
                   define<FenceChain>("fence_chain", "test", "", {{"f", {}, expect::never(""), ""}})})
        out.push_back(d.variants.front());
    return out;
}

/// The variants the equivalence is checked on: the whole catalogue, and the scaling family
/// members whose full search takes well under a second.
std::vector<VariantDef> variants_under_test() {
    std::vector<VariantDef> out;
    for (const auto& m : models::catalogue())
        for (const auto& v : m.variants) out.push_back(v);
    for (const auto& v : fence_shapes()) out.push_back(v);
    const std::set<std::string> small{"grid/2x2", "grid/2x4", "grid/3x2", "grid/3x3", "iriw4/relaxed",
                                      "shrinker_passes/t2_k2", "shrinker_passes/t2_k4"};
    for (const auto& m : bench::scaling_models())
        for (const auto& v : m.variants)
            if (small.count(v.id())) out.push_back(v);
    return out;
}

}  // namespace

TEST_SUITE("reduction") {
    TEST_CASE("every variant: same distinct executions, outcomes, metrics and verdict with and without reduction") {
        std::uint64_t reduced = 0, full_total = 0;
        unsigned variants = 0, fell_back = 0;
        for (const auto& v : variants_under_test()) {
            CAPTURE(v.id());
            CheckOptions with;
            with.keep_execution_hashes = true;
            CheckOptions without = with;
            without.explore.reduction = false;
            const Report a = check(v, with);
            const Report b = check(v, without);
            CHECK(b.reduction == Reduction::Off);
            CHECK(a.reduction != Reduction::Off);
            if (a.reduction == Reduction::FellBack) ++fell_back;
            CHECK(a.finding == b.finding);
            CHECK(a.exploration == b.exploration);
            CHECK(a.status == b.status);
            CHECK(a.execution_hashes == b.execution_hashes);
            CHECK(a.distinct_executions == b.distinct_executions);
            CHECK(outcome_set(a) == outcome_set(b));
            CHECK(a.metrics == b.metrics);
            CHECK((a.rejected > 0) == (b.rejected > 0));
            CHECK(a.interleavings <= b.interleavings);
            reduced += a.interleavings;
            full_total += b.interleavings;
            ++variants;
        }
        MESSAGE(variants << " variants: " << full_total << " interleavings without reduction, " << reduced
                         << " with it; " << fell_back << " fell back to the full search (engine failures)");
        CHECK(variants > 70);
        CHECK(reduced * 3 < full_total);  // it does reduce
    }

    TEST_CASE("the reduction itself finds the engine failures the full search finds") {
        // check() reruns a failing variant without reduction; explore() shows what the reduced
        // search found on its own.
        for (const auto& m : models::catalogue())
            for (const auto& v : m.variants) {
                if (!std::holds_alternative<EngineFailure>(v.expect.engine_answer())) continue;
                CAPTURE(v.id());
                ExploreOptions o;
                const ExploreResult r = explore(v, o, [](const ExecutionGraph&, const FinalState&) {});
                CHECK(r.reduction);
                REQUIRE(r.failure.has_value());
                CHECK(Finding{*r.failure} == v.expect.engine_answer());
                const Report rep = check(v, CheckOptions{});
                CHECK(rep.reduction == Reduction::FellBack);
                CHECK(!rep.reduction_note.empty());
            }
    }

    TEST_CASE("sleep sets cut the textbook examples as the prototype did") {
        std::map<std::string, VariantDef> by_id;
        for (const auto& m : models::catalogue())
            for (const auto& v : m.variants) by_id.emplace(v.id(), v);
        for (const auto& m : bench::scaling_models())
            for (const auto& v : m.variants) by_id.emplace(v.id(), v);
        CheckOptions o;
        const Report sb = check(by_id.at("SB/relaxed"), o);
        CHECK(sb.interleavings <= 14);
        CHECK(sb.distinct_executions == 4);
        const Report iriw = check(by_id.at("iriw4/relaxed"), o);
        CHECK(iriw.interleavings <= 245);
        CHECK(iriw.distinct_executions == 16);
        o.explore.reduction = false;
        CHECK(check(by_id.at("iriw4/relaxed"), o).interleavings == 120960);  // Relacy's full search
    }
}
