// SPDX-License-Identifier: MIT
// The explaining cycle: for each calibration shape where a fence matters, remove each fence in
// turn (necessity), restore it in the witness, and check that the memory model names the right
// axiom and that the cycle passes through the removed fence. Plus the cycle's own mechanics on
// hand-built graphs: restoring, the SC fallback, the prose.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "checker/driver/necessity.hpp"
#include "checker/memory_model/explaining_cycle.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/run.hpp"
#include "models/catalogue.hpp"
#include "tests/test_support.hpp"

using namespace oc;
using oc::test::catalogue_variant;

namespace {

struct Shape {
    const char* id;     ///< a catalogue variant ("SB/fenced"), or a test of the litmus corpus ("IRIW+mbs")
    const char* axiom;  ///< the axiom the witness violates once its fence is back
    int fences = 0;     ///< how many fences' removals are needed (0: at least one)
};

/// Removes every fence of `v` in turn; for each whose removal is needed, checks the witness's
/// explaining cycle. Returns how many fences were checked.
int check_removed_fences(const VariantDef& v, ModelKind kind, const char* axiom) {
    CheckOptions options;
    options.explore.engine = EngineKind::Graph;
    options.explore.model = kind;
    const MemoryModel& model = kind == ModelKind::Lkmm ? lkmm_model() : rc11_model();
    const NecessityReport n = necessity(v, options);
    int checked = 0;
    for (const auto& row : n.rows) {
        if (row.weakening != Weakening::Remove || row.result != Necessity::Needed) continue;
        INFO(v.id(), ": ", site_label(row.site), " removed");
        REQUIRE(row.report.witness.has_value());
        const ExecutionGraph& g = *row.report.witness;
        std::vector<EventId> removed;
        for (EventId id : g.events())
            if (g.event(id).weakened_from && g.event(id).is_fence()) removed.push_back(id);
        REQUIRE(!removed.empty());
        std::string why;
        const auto c = explaining_cycle(g, model, &why);
        INFO("why: ", why);
        REQUIRE(c.has_value());
        INFO("cycle: ", cycle_line(g, *c));
        CHECK(c->kind == ExplainingCycle::Kind::Restored);
        CHECK(c->model == model.name());
        CHECK(c->axiom == axiom);
        // the cycle passes through the removed fence, and the barrier's po steps are marked
        for (EventId f : removed) CHECK(std::find(c->barriers.begin(), c->barriers.end(), f) != c->barriers.end());
        CHECK(std::count_if(c->steps.begin(), c->steps.end(), [](const CycleStep& s) { return s.barrier; }) >= 2);
        // a closed cycle: each step starts where the previous one ended
        for (std::size_t i = 0; i < c->steps.size(); ++i)
            CHECK(c->steps[i].to == c->steps[(i + 1) % c->steps.size()].from);
        ++checked;
    }
    return checked;
}

/// check_removed_fences() on each shape, under `kind`.
void check_shapes(std::initializer_list<Shape> shapes, ModelKind kind) {
    for (const Shape& s : shapes) {
        INFO(std::string(s.id));
        const std::string id = s.id;
        const int checked =
            id.find('/') != std::string::npos
                ? check_removed_fences(catalogue_variant(id), kind, s.axiom)
                : check_removed_fences(litmus::make_variant(litmus::load(OC_SOURCE_ROOT "/litmus/tests/" + id + ".litmus"),
                                                            litmus::RunMode::RaceCheck),
                                       kind, s.axiom);
        if (s.fences > 0)
            CHECK(checked == s.fences);
        else
            CHECK(checked >= 1);
    }
}

}  // namespace

TEST_SUITE("explaining cycle") {
    // RC11, on the catalogue's C++ shapes with fences (sb.cpp, mp.cpp...): F_sc fences order
    // through psc, so where the shape has no release/acquire pair the restored witness violates
    // `sc`; a release fence and an acquire fence synchronise (sw), so the restored witness has
    // an hb edge that eco contradicts: `coherence`.
    TEST_CASE("RC11: the calibration shapes name their axiom and pass through the removed fence") {
        check_shapes({
            // F0 ->po R y ->fr W y ->po F1 and back: psc is cyclic (no sw: no release/acquire pair reads across)
            {"SB/fenced", "sc"},
            // F_rel ->po W y ->rf R y ->po F_acq is sw, so W x ->hb R x, which reads the initial x: hb;fr reflexive
            {"MP/fenced", "coherence"},
            // F0 ->po W y=1 ->co W y=2 ->po F1 and F1 ->po R x ->fr W x ->po F0: psc cycle, no sw (P1 reads nothing before F1)
            {"R/fenced", "sc"},
            // F_rel ->sw F_acq makes W x=2 hb-before W x=1, which is co-before it: hb;co reflexive
            {"S/fenced", "coherence"},
            // writes only, no sw: F0 and F1 psc-before each other through the two co edges
            {"2+2W/fenced", "sc"},
            // P1's R x ->po F_rel ->sw F_acq ->po R x of P2, which reads init: fr;rf takes it back to P1's read (eco)
            {"WRC/fenced", "coherence"},
            // the release/acquire fence chain P0 -> P1 -> P2 puts W x hb-before P2's R x, which reads init
            {"ISA2/fenced", "coherence"},
            // IRIW: the catalogue has no fenced C++ variant (see models/litmus/iriw.cpp); the corpus
            // test with smp_mb() (F_sc) between the reads: P2's and P3's fences psc-before each other
            {"IRIW+mbs", "sc", 2},
        }, ModelKind::Rc11);
    }

    // LKMM, on the corpus's litmus tests (linux-kernel.cat): a strong fence forbids through pb
    // (prop ; strong-fence ; hb*): `propagation`; smp_wmb/smp_rmb/release only order within
    // hb (ppo, cumul-fence in prop & int): `happens-before`.
    TEST_CASE("LKMM: the calibration shapes name their axiom and pass through the removed fence") {
        check_shapes({
            // R y ->fre W y ->mb R x: prop ; strong-fence on both sides, a pb cycle
            {"SB+mbonceonces", "propagation"},
            // R x ->fre W x ->wmb W y ->rfe R y is prop & int (both ends in P1), so hb; R y ->rmb R x is ppo: hb cycle
            {"MP+wmb+rmb", "happens-before"},
            // R x ->fre W x ->mb W y ->coe W y ->mb R x: pb cycle through both strong fences
            {"R+mbonceonces", "propagation"},
            // W x=1 ->coe W x=2 ->wmb W y ->rfe R y is prop & int in P1; R y ->ctrl W x=1 is ppo: hb cycle
            {"S+wmb+ctrl", "happens-before"},
            // W x=2 ->mb W y=1 ->coe W y=2 ->mb W x=1 ->coe W x=2: prop ; strong-fence twice, a pb cycle
            {"2+2W+fencembonceonces+diy7", "propagation"},
            // W x ->rfe R x ->po-rel W y is A-cumulative (cumul-fence), so P2's R x ->fre W x ... ->rfe R y is
            // prop & int; R y ->rmb R x is ppo: hb cycle
            {"WRC+release+rmb+undeclared", "happens-before"},
            // R x ->fre W x ->mb W y, then hb*: ->rfe R y ->ctrl W z ->rfe R z ->rmb R x: a pb cycle
            {"ISA2+mb+ctrl+rmb", "propagation"},
            // R y ->fre W y ->rfe R y(P3) ->mb R x ->fre W x ->rfe R x(P2) ->mb R y: pb (prop ends in rfe) twice
            {"IRIW+mbs", "propagation", 2},
        }, ModelKind::Lkmm);
    }

    TEST_CASE("the shrinker seed: each barrier's cycle is the R shape through it") {
        CheckOptions options;
        options.explore.engine = EngineKind::Graph;
        options.explore.model = ModelKind::Lkmm;
        const NecessityReport n = necessity(catalogue_variant("shrinker_bit/merged"), options);
        int needed = 0;
        for (const auto& row : n.rows) {
            if (row.result != Necessity::Needed) continue;
            ++needed;
            const auto c = explaining_cycle(*row.report.witness, lkmm_model());
            REQUIRE(c.has_value());
            CHECK(c->kind == ExplainingCycle::Kind::Restored);
            REQUIRE(c->barriers.size() == 1);
            CHECK(row.report.witness->event(c->barriers.front()).primitive == row.site.primitive);
            // the stale read of nr_items and the write it misses are on the cycle
            const std::string line = cycle_line(*row.report.witness, *c);
            CHECK(line.find("R nr_items=0 ->fre W nr_items=1") != std::string::npos);
        }
        CHECK(needed == 5);  // all but smp_mb__before_atomic() -> smp_wmb(), which suffices under LKMM
    }

    TEST_CASE("the SC model: exactly the executions some interleaving explains") {
        CheckOptions o;
        o.explore.engine = EngineKind::Graph;
        o.explore.model = ModelKind::Sc;
        // SB: of RC11's 4 executions, the one where both reads miss the other write has a
        // po|fr cycle: 3 remain, none with the bad outcome.
        const Report sb = check(catalogue_variant("SB/relaxed"), o);
        CHECK(sb.memory_model == "SC");
        CHECK(sb.finding == Finding{Verdict::Never});
        CHECK(sb.executions == 3);
        CHECK(sb.exploration == Exploration::Exhaustive);
        // MP, LB, IRIW: their weak outcomes are exactly the non-SC ones
        for (const char* id : {"MP/relaxed", "IRIW/relaxed", "2+2W/relaxed", "R/relaxed"}) {
            INFO(std::string(id));
            CHECK(check(catalogue_variant(id), o).finding == Finding{Verdict::Never});
        }
        // no_recheck's bad outcome is a plain interleaving (see its expectation): reachable under SC
        CHECK(check(catalogue_variant("shrinker_bit/no_recheck"), o).finding == Finding{Verdict::Sometimes});
        // every SC execution is an RC11 execution: certification rejects none
        CHECK(check(catalogue_variant("shrinker_bit/merged"), o).rejected == 0);
    }

    TEST_CASE("restore_weakened gives back the order as written, and only that") {
        ExecutionGraph g;
        const LocationId x = g.add_location("x");
        g.set_thread_names({"P0"});
        Event init;
        init.id.thread = EventId::init_thread;
        init.kind = EventKind::Write;
        init.location = x;
        init.primitive = "init";
        g.append(init);
        Event f;
        f.id.thread = 1;
        f.kind = EventKind::Fence;
        f.order = MemoryOrder::Relaxed;
        f.weakened_from = MemoryOrder::SeqCst;
        f.primitive = "smp_mb__after_atomic";
        g.append(f);
        Event w;
        w.id.thread = 1;
        w.kind = EventKind::Write;
        w.order = MemoryOrder::Relaxed;
        w.weakened_from = MemoryOrder::Release;
        w.location = x;
        w.written_value = 1;
        w.primitive = "smp_store_release";
        g.append(w);
        const ExecutionGraph r = restore_weakened(g);
        const Event& rf = r.event(EventId{1, 0});
        const Event& rw = r.event(EventId{1, 1});
        CHECK(rf.order == MemoryOrder::SeqCst);
        CHECK(!rf.weakened_from);
        CHECK(rf.lkmm == lkmm::AfterAtomic);
        CHECK(rw.order == MemoryOrder::Release);
        CHECK(rw.lkmm == lkmm::Release);
        CHECK(r.co(x) == g.co(x));
        CHECK(r.event(EventId{0, 0}) == g.event(EventId{0, 0}));
    }

    TEST_CASE("nothing weakened: the non-SC cycle, or none for an SC outcome") {
        // SB/relaxed's witness: both reads miss the other thread's write: po|fr cycle
        const Report sb = check(catalogue_variant("SB/relaxed"), CheckOptions{});
        REQUIRE(sb.witness.has_value());
        const auto c = explaining_cycle(*sb.witness, rc11_model());
        REQUIRE(c.has_value());
        CHECK(c->kind == ExplainingCycle::Kind::NotSc);
        CHECK(c->steps.size() == 4);
        CHECK(cycle_line(*sb.witness, *c) == "W x=1 ->po R y=0 ->fr W y=1 ->po R x=0 ->fr W x=1");
        CHECK(cycle_prose(*sb.witness, *c).find("No interleaving produces this") != std::string::npos);
        // One thread alone: every execution is SC, so there is no cycle and no barrier can help.
        ExecutionGraph g;
        const LocationId x = g.add_location("x");
        g.set_thread_names({"P0"});
        Event init;
        init.id.thread = EventId::init_thread;
        init.location = x;
        g.append(init);
        Event r;
        r.id.thread = 1;
        r.kind = EventKind::Read;
        r.location = x;
        r.reads_from = EventId{0, 0};
        g.append(r);
        const auto sc = explaining_cycle(g, rc11_model());
        REQUIRE(sc.has_value());
        CHECK(sc->kind == ExplainingCycle::Kind::Sc);
        CHECK(sc->steps.empty());
        CHECK(cycle_prose(g, *sc).find("No barrier can forbid it") != std::string::npos);
    }
}
