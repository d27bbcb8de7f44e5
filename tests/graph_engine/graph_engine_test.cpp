// SPDX-License-Identifier: MIT
// The execution-graph engine, on the whole catalogue and the whole litmus corpus: every complete
// execution it explores is distinct (no graph twice) and RC11-consistent; every distinct
// execution Relacy's full search finds is one it finds; the shapes Relacy cannot produce come
// out; and its counts are the consistent-execution counts other tools print.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "checker/graph/graph_engine.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/model/model.hpp"
#include "checker/model/kernel.hpp"
#include "checker/model/primitives.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "litmus/run.hpp"
#include "models/catalogue.hpp"
#include "tests/graph_engine/brute_force.hpp"
#include "tests/test_support.hpp"
#include "checker/memory_model/rc11_certify.hpp"

using namespace oc;
using oc::test::find_variant;

namespace {

CheckOptions graph_options() {
    CheckOptions o;
    o.explore.engine = EngineKind::Graph;
    o.keep_execution_hashes = true;
    return o;
}

/// The steps of `g` (the interleaving diagram's rows) are an order of its events in which po
/// and rf point forward: init's events are step 0, every other event has its own step, after
/// its po-predecessor's and after the step of the write it reads. An RC11-consistent graph has
/// no po | rf cycle, so such an order exists.
void expect_steps_follow_po_and_rf(const ExecutionGraph& g) {
    std::set<std::uint32_t> used;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        std::uint32_t last = 0;
        for (const Event& e : g.thread(t)) {
            if (t == EventId::init_thread) {
                CHECK(e.step == 0);
                continue;
            }
            CHECK(e.step > last);
            CHECK(used.insert(e.step).second);
            last = e.step;
            if (e.is_read() && e.reads_from) CHECK(g.event(*e.reads_from).step < e.step);
        }
    }
}

/// Every execution explored once, every one consistent (checked by the independent certifier
/// in traces/ and by the engine's own predicate).
void expect_optimal_and_consistent(const VariantDef& v) {
    std::set<std::uint64_t> seen;
    std::uint64_t explored = 0;
    const ExecutionSink sink = [&](const ExecutionGraph& g, const FinalState&) {
        ++explored;
        seen.insert(canonical_hash(g));
        const auto violation = check_rc11(g);
        CHECK_MESSAGE(!violation, v.id() << ": " << (violation ? describe(g, *violation) : ""));
        CHECK(rc11_model().consistent(g));
        expect_steps_follow_po_and_rf(g);
    };
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    const ExploreResult r = graph_explore(v, o, sink);
    CHECK_MESSAGE(explored == seen.size(), v.id() << ": " << explored << " explored, " << seen.size() << " distinct");
    CHECK(r.executions == explored);
}

}  // namespace

TEST_CASE("graph engine: every catalogue variant, each execution once, each RC11-consistent, as expected") {
    for (const auto& m : models::catalogue())
        for (const auto& v : m.variants) {
            CAPTURE(v.id());
            expect_optimal_and_consistent(v);
            const Report r = check(v, graph_options());
            CHECK_MESSAGE(r.status == Status::Pass, v.id() << ": " << to_string(r.status));
            CHECK(r.rejected == 0);
            CHECK(r.interleavings == r.executions + (r.exploration == Exploration::UntilFailure ? 1 : 0));
            if (r.exploration == Exploration::Exhaustive) CHECK(r.interleavings == r.distinct_executions);
        }
}

TEST_CASE("graph engine: a superset of Relacy on every catalogue variant (--engine both)") {
    for (const auto& m : models::catalogue())
        for (const auto& v : m.variants) {
            CAPTURE(v.id());
            CheckOptions o = graph_options();
            o.cross_check = true;
            const Report r = check(v, o);
            REQUIRE(r.cross_check);
            CHECK_MESSAGE(r.cross_check->missing == 0, v.id() << ": Relacy executions the graph engine lacks");
            CHECK_MESSAGE(r.cross_check->missing_outcomes == 0, v.id() << ": Relacy outcomes the graph engine lacks");
        }
}

TEST_CASE("graph engine: the litmus corpus, each execution once, a superset of Relacy, judged as expected") {
    for (const auto& file : oc::test::litmus_corpus()) {
        CAPTURE(file);
        const auto test = litmus::load(file);
        const VariantDef v = litmus::make_variant(test, litmus::RunMode::PlainAsRelaxed);
        expect_optimal_and_consistent(v);
        // Relacy needs 12 s or more (desc-reserve+4), or minutes (the urcu spin loops of two or
        // three grace periods): in the benchmarks
        if (file.find("desc-reserve+4") != std::string::npos || file.find("RCU+3gp-chain") != std::string::npos ||
            file.find("RCU+ring") != std::string::npos)
            continue;
        CheckOptions o = graph_options();
        o.cross_check = true;
        const Report r = check(v, o);
        REQUIRE(r.cross_check);
        CHECK(r.cross_check->missing == 0);
        CHECK(r.cross_check->missing_outcomes == 0);
        litmus::LitmusOptions lo;
        lo.engine = EngineKind::Graph;
        const auto result = litmus::run(test, lo);
        CHECK_MESSAGE(result.judgement == litmus::Judgement::Match, result.judgement_text);
    }
}

TEST_CASE("graph engine: the shapes Relacy cannot produce") {
    const auto models = models::catalogue();
    for (const char* id : {"2+2W/relaxed", "2+2W/rel_acq", "2+2W/fence_one_side", "S/relaxed"}) {
        CAPTURE(id);
        const VariantDef& v = find_variant(models, id);
        const Report g = check(v, graph_options());
        CHECK(g.finding == Finding{Verdict::Sometimes});
        CHECK(g.status == Status::Pass);
        CheckOptions relacy;
        relacy.explore.engine = EngineKind::Relacy;
        CHECK(check(v, relacy).finding == Finding{Verdict::Never});  // the gap the engine closes
    }
    // Reads 3 and 2 stores back, and a cmpxchg failing on a stale value.
    for (const char* name : {"MP+3writes+stale", "MP+3writes+stale2", "MP+cmpxchg+stale"}) {
        CAPTURE(name);
        const auto test = litmus::load(std::string(OC_SOURCE_ROOT "/litmus/tests/") + name + ".litmus");
        litmus::LitmusOptions lo;
        lo.engine = EngineKind::Graph;
        CHECK(litmus::run(test, lo).observation == Verdict::Sometimes);
        lo.engine = EngineKind::Relacy;
        CHECK(litmus::run(test, lo).observation == Verdict::Never);
    }
}

TEST_CASE("graph engine: consistent-execution counts other tools print") {
    const auto models = models::catalogue();
    CHECK(check(find_variant(models, "SB/relaxed"), graph_options()).executions == 4);
    CHECK(check(find_variant(models, "MP/relaxed"), graph_options()).executions == 4);
    CHECK(check(find_variant(models, "IRIW/relaxed"), graph_options()).executions == 16);
    // The printk desc_reserve() test, 3 CPUs: 138 (herd7's Positive + Negative, and GenMC's RC11
    // count; LKMM and RC11 agree on this test).
    const auto dr3 = litmus::load(OC_SOURCE_ROOT "/litmus/tests/desc-reserve+3.litmus");
    litmus::LitmusOptions lo;
    lo.engine = EngineKind::Graph;
    const auto r = litmus::run(dr3, lo);
    CHECK(r.positive + r.negative == 138);
    CHECK(r.report.distinct_executions == 138);
    // 4 CPUs: 3,944, GenMC's RC11 count; each explored once.
    const auto dr4 = litmus::load(OC_SOURCE_ROOT "/litmus/tests/desc-reserve+4.litmus");
    const auto r4 = litmus::run(dr4, lo);
    CHECK(r4.positive + r4.negative == 3944);
    CHECK(r4.report.executions == 3944);
    CHECK(r4.report.distinct_executions == 3944);
}

TEST_CASE("graph engine: conflicting RMWs and locks, each execution once") {
    // Small programs on which a revisit rule once built a graph twice: RMWs that read the same
    // write (the conflict a later RMW resolves by revisiting the earlier one), and a lock taken
    // by two threads while a third writes what a critical section reads. Counts are Relacy's
    // distinct executions on the same programs (these shapes are within its reach).
    struct Case {
        const char* name;
        const char* source;
        std::uint64_t executions;
    };
    const Case cases[] = {
        {"3 RMWs", "C c3\n{}\nP0(int *x) { int r1; r1 = cmpxchg_relaxed(x, 1, 2); }\n"
                  "P1(int *x) { int r1; r1 = cmpxchg_relaxed(x, 0, 1); }\nP2(int *x) { int r0; r0 = xchg_relaxed(x, 1); }\n"
                  "exists (x=0)\n", 6},
        {"4 CAS increments", "C c4\n{}\n"
                             "P0(int *x) { int r0; int r1; r0 = READ_ONCE(*x); r1 = cmpxchg_relaxed(x, r0, r0+1); }\n"
                             "P1(int *x) { int r0; int r1; r0 = READ_ONCE(*x); r1 = cmpxchg_relaxed(x, r0, r0+1); }\n"
                             "P2(int *x) { int r0; int r1; r0 = READ_ONCE(*x); r1 = cmpxchg_relaxed(x, r0, r0+1); }\n"
                             "P3(int *x) { int r0; int r1; r0 = READ_ONCE(*x); r1 = cmpxchg_relaxed(x, r0, r0+1); }\n"
                             "exists (x=0)\n", 280},
        {"lock", "C l\n{}\nP0(int *x, spinlock_t *s) { spin_lock(s); WRITE_ONCE(*x, 1); spin_unlock(s); }\n"
                 "P1(int *z, spinlock_t *s) { int r0; spin_lock(s); r0 = READ_ONCE(*z); spin_unlock(s); }\n"
                 "P2(int *z) { WRITE_ONCE(*z, 1); }\nexists (1:r0=0)\n", 4},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        const VariantDef v = litmus::make_variant(litmus::compile(litmus::parse(c.source, "t.litmus")),
                                                  litmus::RunMode::PlainAsRelaxed);
        expect_optimal_and_consistent(v);
        CheckOptions o = graph_options();
        o.cross_check = true;
        const Report r = check(v, o);
        CHECK(r.executions == c.executions);
        CHECK(r.distinct_executions == c.executions);
        REQUIRE(r.cross_check);
        CHECK(r.cross_check->missing == 0);
    }
}

TEST_CASE("graph engine: refuses a search it does not run") {
    const auto models = models::catalogue();
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.search = SearchKind::Random;
    CHECK_THROWS_AS(explore(find_variant(models, "SB/relaxed"), o, [](const ExecutionGraph&, const FinalState&) {}),
                    std::invalid_argument);
}

TEST_CASE("graph engine: the same set of graphs as a brute-force enumeration of every rf and co") {
    // Every catalogue variant and litmus test the enumerator handles (loop-free, value-independent
    // event structure, at most brute_force_max_candidates candidate graphs); the others are
    // counted, so that the test fails if the supported set silently shrinks.
    std::vector<VariantDef> variants;
    for (const auto& m : models::catalogue())
        for (const auto& v : m.variants) variants.push_back(v);
    for (const auto& file : oc::test::litmus_corpus()) {
        if (file.find("desc-reserve") != std::string::npos) continue;  // too many candidates
        variants.push_back(litmus::make_variant(litmus::load(file), litmus::RunMode::PlainAsRelaxed));
    }
    std::size_t compared = 0;
    for (const auto& v : variants) {
        if (v.thread_count() > 6) continue;
        const testing::BruteForceResult expected = testing::brute_force(v);
        if (!expected.supported) continue;
        CAPTURE(v.id());
        std::set<std::uint64_t> found;
        ExploreOptions o;
        o.engine = EngineKind::Graph;
        graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState&) { found.insert(canonical_hash(g)); });
        CHECK(found == expected.hashes);
        ++compared;
    }
    MESSAGE("brute force compared on " << compared << " variants");
    CHECK(compared >= 90);
}

TEST_CASE("graph engine under LKMM: the same set of graphs as the brute-force enumeration, load buffering included") {
    // The litmus corpus (exact dependencies: the engine explores po | rf cycles by guessing read
    // values) against every rf and co the enumerator tries, judged by the LKMM predicate. The
    // enumeration is independent of the engine's guesses, revisits and pruning.
    // The catalogue's C++ models too: those that state no dependencies are explored as having
    // none, so every po | rf cycle LKMM then allows must be found.
    std::vector<VariantDef> variants;
    for (const auto& m : models::catalogue())
        for (const auto& v : m.variants) variants.push_back(v);
    const std::size_t catalogue_size = variants.size();
    for (const auto& file : oc::test::litmus_corpus()) {
        if (file.find("desc-reserve") != std::string::npos) continue;  // too many candidates
        variants.push_back(litmus::make_variant(litmus::load(file), litmus::RunMode::RaceCheck));
    }
    std::size_t compared = 0, with_cycles = 0, cpp = 0, partial = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const VariantDef& v = variants[i];
        // LKMM's predicate costs more per candidate than RC11's: 4 threads and more make the
        // enumeration take minutes
        if (v.thread_count() > 3) continue;
        const testing::BruteForceResult expected = testing::brute_force(v, &lkmm_model());
        if (!expected.supported) continue;
        CAPTURE(v.id());
        std::set<std::uint64_t> found;
        bool cycle = false;
        ExploreOptions o;
        o.engine = EngineKind::Graph;
        o.model = ModelKind::Lkmm;
        o.race_ends_execution = false;
        graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState&) {
            found.insert(canonical_hash(g));
            if (const auto v2 = check_rc11(g); v2 && v2->axiom == "no-thin-air") cycle = true;
        });
        // a store only a load-buffering cycle runs is in no execution of the initial values'
        // events, all the enumerator tries (BruteForceResult::every_shape): there its executions
        // are some of the engine's (LB+ctrls+plain-read+untaken's cycle is herd7's, checked by
        // the litmus-lkmm-herd test)
        if (expected.every_shape)
            CHECK(found == expected.hashes);
        else
            CHECK(std::includes(found.begin(), found.end(), expected.hashes.begin(), expected.hashes.end()));
        with_cycles += cycle;
        partial += !expected.every_shape;
        ++compared;
        cpp += i < catalogue_size;
    }
    MESSAGE("brute force under LKMM compared on " << compared << " variants (" << cpp << " C++), " << with_cycles
                                                   << " with a po | rf cycle, " << partial
                                                   << " on the initial values' events only");
    CHECK(compared >= 100);
    CHECK(cpp >= 40);
    // LB+poonceonces, LB+3+poonceonces, LB+fencembonceonce+poonceonce, LB+ctrl+po, LB/relaxed, LB/one_ctrl
    CHECK(with_cycles >= 6);
}

TEST_CASE("graph engine under LKMM: a C++ model that states its dependencies gets load buffering, as its litmus twin") {
    // models/litmus/lb.cpp states each dependency with DependsOn (states_dependencies); the corpus
    // tests are the same programs, with herd7's verdicts recorded (litmus/herd7-verdicts.tsv).
    const auto models = models::catalogue();
    const std::pair<const char*, const char*> twins[] = {
        {"LB/relaxed", "LB+poonceonces"}, {"LB/ctrl", "LB+ctrls"}, {"LB/data", "LB+datas"}, {"LB/one_ctrl", "LB+ctrl+po"}};
    CheckOptions lkmm = graph_options();
    lkmm.explore.model = ModelKind::Lkmm;
    for (const auto& [id, name] : twins) {
        CAPTURE(id);
        const VariantDef& v = find_variant(models, id);
        CHECK(v.exact_dependencies);
        const Report cpp = check(v, lkmm);
        const Report lit = check(litmus::make_variant(litmus::load(std::string(OC_SOURCE_ROOT "/litmus/tests/") + name +
                                                                   ".litmus"),
                                                      litmus::RunMode::RaceCheck),
                                 lkmm);
        CHECK(cpp.exploration == Exploration::Exhaustive);
        CHECK(cpp.finding == lit.finding);
        CHECK(cpp.executions == lit.executions);
        CHECK(cpp.positive == lit.positive);
    }
    // LB/relaxed's load buffering is an LKMM execution, not an RC11 one
    CHECK(check(find_variant(models, "LB/relaxed"), lkmm).finding == Finding{Verdict::Sometimes});
    CHECK(check(find_variant(models, "LB/relaxed"), graph_options()).finding == Finding{Verdict::Never});
}

namespace {
/// LB whose load-buffering execution alone fails an assertion: P0 writes y = r0 + 1, so y is 2
/// only if P0 read P1's x = 1, which P1 writes after reading y. No dependency is stated, so
/// under LKMM nothing orders P0's read before its write, and P1 can read 2: the assertion fails
/// in an LKMM execution with a po | rf cycle, and in no RC11 one.
struct LbAssert {
    struct Config {};
    explicit LbAssert(const Config&) {}
    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    void p0() { kernel::WRITE_ONCE(y, kernel::READ_ONCE(x) + 1); }
    void p1() {
        const int r1 = kernel::READ_ONCE(y);
        kernel::WRITE_ONCE(x, 1);
        require(r1 != 2, "P1 read y = 2: P0 read x = 1 from P1's later write");
    }
    bool bad_outcome() const { return false; }
    static constexpr std::array<Thread<LbAssert>, 2> threads{{{"P0", &LbAssert::p0}, {"P1", &LbAssert::p1}}};
};
}  // namespace

TEST_CASE("graph engine under LKMM: an assertion that only a load-buffering execution fails is found") {
    const ModelDef m = define<LbAssert>("LbAssert", "test", "LB failing an assertion",
                                        {{"plain", {}, expect::failure(EngineFailure::AssertFailed, "")}});
    // on one thread, and split over two (ExploreOptions::threads)
    for (const unsigned threads : {1u, 2u}) {
        CAPTURE(threads);
        CheckOptions lkmm = graph_options();
        lkmm.explore.model = ModelKind::Lkmm;
        lkmm.explore.threads = threads;
        const Report r = check(m.variants[0], lkmm);
        REQUIRE(r.finding.has_value());
        CHECK(r.finding == Finding{EngineFailure::AssertFailed});
        // the failing execution is drawn with the guess matched: P0's read reads P1's write
        bool p0_reads_p1 = false;
        REQUIRE(r.witness.has_value());
        for (const Event& e : r.witness->thread(EventId::of_model_thread(0)))
            if (e.is_read() && e.reads_from && e.reads_from->thread == EventId::of_model_thread(1)) p0_reads_p1 = true;
        CHECK(p0_reads_p1);
    }
    // under RC11 po | rf is acyclic: no execution fails
    CHECK(check(m.variants[0], graph_options()).finding == Finding{Verdict::Never});
}

namespace {
/// LB written with kernel primitives and no `states_dependencies`: `r = READ_ONCE(x); [if (r)]
/// WRITE_ONCE(y, 1)` on both sides.
struct LbUnstated {
    struct Config {
        bool conditional = false;  ///< each write under `if (r)`: a ctrl dependency nobody states
    };
    explicit LbUnstated(const Config& c) : cfg(c) {}
    const Config cfg;
    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"0:r0"};
    Reg r1{"1:r1"};
    void side(Atomic<int>& from, Atomic<int>& to, Reg& r) {
        const int v = kernel::READ_ONCE(from);
        r = v;
        if (!cfg.conditional || v != 0) kernel::WRITE_ONCE(to, 1);
    }
    void p0() { side(x, y, r0); }
    void p1() { side(y, x, r1); }
    bool bad_outcome() const { return r0 == 1 && r1 == 1; }
    static constexpr std::array<Thread<LbUnstated>, 2> threads{{{"P0", &LbUnstated::p0}, {"P1", &LbUnstated::p1}}};
};
}  // namespace

TEST_CASE("graph engine under LKMM: a settled round's executions reach the sink, kept or explored again") {
    // desc-reserve+3+mb-after-head has load buffering through its RMW reads (herd7: 54 + 198).
    // Its guessing round turns out to be the search proper: kept, its executions go to the sink
    // from memory; over the budget, the search proper runs that round again. Both the same.
    const auto test = litmus::compile(litmus::parse_file(OC_SOURCE_ROOT "/litmus/tests/desc-reserve+3+mb-after-head.litmus"));
    const VariantDef v = litmus::make_variant(test, litmus::RunMode::RaceCheck);
    auto explore_with = [&](std::size_t kept_events) {
        ExploreOptions o;
        o.engine = EngineKind::Graph;
        o.model = ModelKind::Lkmm;
        o.race_ends_execution = false;
        o.guess_round_kept_events = kept_events;
        std::multiset<std::uint64_t> seen;
        std::size_t bad = 0;
        const ExploreResult r = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState& fs) {
            seen.insert(canonical_hash(g));
            if (fs.bad_outcome) ++bad;
        });
        CHECK(r.completed);
        return std::make_pair(seen, bad);
    };
    const auto kept = explore_with(std::size_t{1} << 20);
    const auto again = explore_with(10);
    CHECK(kept.first.size() == 252);
    CHECK(kept.second == 54);
    CHECK(again.first == kept.first);
    CHECK(again.second == kept.second);
}

TEST_CASE("graph engine under LKMM: a model that states no dependencies is explored as having none") {
    const ModelDef m = define<LbUnstated>("LbUnstated", "test", "LB, no dependency stated",
                                          {{"plain", {}, expect::sometimes("")},
                                           {"conditional", {.conditional = true}, expect::never("")}});
    CHECK(!m.variants[0].exact_dependencies);
    CheckOptions lkmm = graph_options();
    lkmm.explore.model = ModelKind::Lkmm;
    // Unconditional writes: nothing orders either read before its write, so LKMM allows the
    // po | rf cycle (LB+poonceonces), and the engine finds it although the model stated nothing.
    const Report plain = check(m.variants[0], lkmm);
    CHECK(plain.exploration == Exploration::Exhaustive);
    CHECK(plain.finding == Finding{Verdict::Sometimes});
    CHECK(plain.executions == 4);
    // Each write under `if (r)`: 1 is written only once 1 was read, a value out of thin air. With
    // no dependency in the graph LKMM's axioms would not forbid the cycle, but the model's branch
    // is the code's ctrl dependency (LB+ctrls: forbidden), and the engine never guesses a value no
    // execution writes first.
    const Report conditional = check(m.variants[1], lkmm);
    CHECK(conditional.exploration == Exploration::Exhaustive);
    CHECK(conditional.finding == Finding{Verdict::Never});
    CHECK(conditional.executions == 1);
}

namespace {
/// P0 reads x, then y, then writes z with the value it read from y, stating that data dependency;
/// then an if on x's value around a write of w, stating the ctrl dependency on x's read only.
struct TwoReads {
    struct Config {};
    static constexpr bool states_dependencies = true;
    explicit TwoReads(const Config&) {}
    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Atomic<int> z{"z", 0};
    Atomic<int> w{"w", 0};
    void p0() {
        const int a = x.load(relaxed);
        const Reads rx = last_read();
        const int b = y.load(relaxed);
        const Reads ry = last_read();
        {
            const DependsOn on(Dependency::Data, ry);
            z.store(b, relaxed);
            const DependsOn also(Dependency::Ctrl, rx | ry);  // nested: adds to the enclosing one
            if (a == 0) w.store(1, relaxed);
        }
        z.store(2, relaxed);  // after the scopes: no dependency
    }
    void p1() { y.store(1, relaxed); }
    bool bad_outcome() const { return false; }
    static constexpr std::array<Thread<TwoReads>, 2> threads{{{"P0", &TwoReads::p0}, {"P1", &TwoReads::p1}}};
};
}  // namespace

TEST_CASE("DependsOn and last_read: the masks each access records") {
    const ModelDef m = define<TwoReads>("TwoReads", "test", "dependency masks", {{"only", {}, expect::never("")}});
    CheckOptions o = graph_options();
    o.keep_first_execution = true;
    const Report r = check(m.variants.front(), o);
    REQUIRE(r.first_execution.has_value());
    const auto& p0 = r.first_execution->thread(1);
    REQUIRE(p0.size() == 5);  // R x, R y, W z, W w, W z
    CHECK(m.variants.front().exact_dependencies);
    CHECK(p0[2].data_deps == 0b10);  // W z = b: on the read of y (po index 1)
    CHECK(p0[2].ctrl_deps == 0);
    CHECK(p0[3].data_deps == 0b10);  // inside both scopes
    CHECK(p0[3].ctrl_deps == 0b11);
    CHECK(p0[4].data_deps == 0);     // the scopes restored what was before them
    CHECK(p0[4].ctrl_deps == 0);
    CHECK(p0[0].data_deps == 0);
}

namespace {
/// A loop that never ends: in P0 itself (`in_thread`: x counts up forever, no spin_yield()), or
/// in work run at quiescence, where every read takes the final value (x is 1 there, and the
/// loop waits for 2).
struct Endless {
    struct Config {
        bool in_thread = false;
    };
    explicit Endless(const Config& c) : cfg(c) {}
    const Config cfg;
    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    AtQuiescence wait_for_two{0, [this] {
                                  while (x.load(MemoryOrder::Relaxed) != 2) {
                                  }
                              }};
    void p0() {
        if (cfg.in_thread)
            for (;;) x.store(x.load(MemoryOrder::Relaxed) + 1, MemoryOrder::Relaxed);
        x.store(1, MemoryOrder::Relaxed);
    }
    void p1() { y.store(1, MemoryOrder::Relaxed); }
    bool bad_outcome() const { return false; }
    static constexpr std::array<Thread<Endless>, 2> threads{{{"P0", &Endless::p0}, {"P1", &Endless::p1}}};
};
}  // namespace

TEST_CASE("graph engine: a run that does not end stops the search, cut short, and says where") {
    const ModelDef m = define<Endless>("Endless", "test", "a loop that never ends",
                                       {{"at_quiescence", {}, expect::never("")}, {"in_thread", {true}, expect::never("")}});
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.max_thread_events = 100;
    const ExecutionSink none = [](const ExecutionGraph&, const FinalState&) {};
    for (const ModelKind model : {ModelKind::Rc11, ModelKind::Lkmm}) {
        CAPTURE(to_string(model));
        o.model = model;
        const ExploreResult q = graph_explore(m.variants[0], o, none);
        CHECK(q.cut_short);
        CHECK(!q.completed);
        CHECK(q.cut_detail.find("the work run at quiescence made 100 events") != std::string::npos);
        const ExploreResult t = graph_explore(m.variants[1], o, none);
        CHECK(t.cut_short);
        CHECK(t.cut_detail.find("thread P0 made 100 events") != std::string::npos);
    }
    // the report says it, and does not call the search exhaustive
    CheckOptions c = graph_options();
    c.explore.max_thread_events = 100;
    const Report r = check(m.variants[0], c);
    CHECK(r.exploration == Exploration::CutShort);
    CHECK(r.status == Status::Incomplete);
    CHECK(r.cut_detail.find("at quiescence") != std::string::npos);
    // with no event limit, the timeout still ends a run that does not end
    o.model = ModelKind::Rc11;
    o.max_thread_events = 0;
    o.timeout_seconds = 0.2;
    const ExploreResult late = graph_explore(m.variants[0], o, none);
    CHECK(late.cut_short);
    CHECK(late.cut_detail.empty());
    CHECK(late.seconds < 10);
}
