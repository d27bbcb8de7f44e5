// SPDX-License-Identifier: MIT
#include "checker/memory_model/rc11_certify.hpp"

#include "tests/traces/graph_builder.hpp"

#include <doctest/doctest.h>

using namespace oc;
using oc::test::GraphBuilder;

namespace {

constexpr auto rlx = MemoryOrder::Relaxed;
constexpr auto acq = MemoryOrder::Acquire;
constexpr auto rel = MemoryOrder::Release;
constexpr auto sc = MemoryOrder::SeqCst;

/// The violation, asserting there is one.
AxiomViolation violation_of(const ExecutionGraph& g) {
    const auto v = check_rc11(g);
    REQUIRE(v.has_value());
    return *v;
}

/// P0: W_sc x=1; R_sc y=0  ||  P1: W_rlx y=1; F_sc; R_rlx x=0  (Relacy reports it; C++20 forbids it)
struct SbFenceVsScAccess {
    GraphBuilder b{{"P0", "P1"}};
    LocationId x = b.location("x");
    LocationId y = b.location("y");
    EventId wx = b.write(0, x, 1, sc);
    EventId ry = b.read(0, y, 0, b.init(y), sc);
    EventId wy = b.write(1, y, 1, rlx);
    EventId f = b.fence(1, sc);
    EventId rx = b.read(1, x, 0, b.init(x), rlx);
};

}  // namespace

TEST_SUITE("traces") {

TEST_CASE("consistent graphs pass: SB relaxed witness, MP release/acquire reading the message") {
    CHECK_FALSE(check_rc11(test::sb_relaxed_witness()).has_value());

    GraphBuilder b({"P0", "P1"});
    const auto data = b.location("data");
    const auto flag = b.location("flag");
    const auto wd = b.write(0, data, 1);
    const auto wf = b.write(0, flag, 1, rel);
    b.read(1, flag, 1, wf, acq);
    b.read(1, data, 1, wd);
    CHECK_FALSE(check_rc11(b.graph()).has_value());
}

TEST_CASE("well-formed: an rf source that wrote another value") {
    GraphBuilder b({"P0"});
    const auto x = b.location("x");
    const auto r = b.read(0, x, 1, b.init(x));
    const auto v = violation_of(b.graph());
    CHECK(v.axiom == "well-formed");
    CHECK(v.cycle == std::vector<EventId>{r, b.init(x)});
    CHECK(v.explanation == "read P0.0 reads 1 but its rf source init.0 wrote 0");
}

TEST_CASE("well-formed: a co list that misses a write or lists a read") {
    GraphBuilder b({"P0"});
    const auto x = b.location("x");
    const auto w = b.write(0, x, 1);
    const auto r = b.read(0, x, 1, w);
    b.graph().set_co(x, {b.init(x)});
    auto v = violation_of(b.graph());
    CHECK(v.axiom == "well-formed");
    CHECK(v.cycle == std::vector<EventId>{w});
    b.graph().set_co(x, {b.init(x), w, r});
    v = violation_of(b.graph());
    CHECK(v.axiom == "well-formed");
    CHECK(v.cycle == std::vector<EventId>{r});
}

TEST_CASE("coherence: CoRR, a read sees a new value and then an older one") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto w = b.write(0, x, 1);
    const auto r_new = b.read(1, x, 1, w);
    const auto r_old = b.read(1, x, 0, b.init(x));
    const auto v = violation_of(b.graph());
    CHECK(v.axiom == "coherence");
    CHECK(v.cycle == std::vector<EventId>{w, r_new, r_old});
}

TEST_CASE("coherence: MP release/acquire seeing the flag but stale data") {
    GraphBuilder b({"P0", "P1"});
    const auto data = b.location("data");
    const auto flag = b.location("flag");
    const auto wd = b.write(0, data, 1);
    const auto wf = b.write(0, flag, 1, rel);
    const auto rf = b.read(1, flag, 1, wf, acq);
    const auto rd = b.read(1, data, 0, b.init(data));
    const auto v = violation_of(b.graph());
    CHECK(v.axiom == "coherence");
    CHECK(v.cycle == std::vector<EventId>{wd, wf, rf, rd});
    CHECK(describe(b.graph(), v) ==
          "coherence: P0.0 happens before P1.1, which precedes it in eco (hb;eco? is reflexive)\n"
          "  P0.0  W.rlx data=1\n"
          "    -po->\n"
          "  P0.1  W.rel flag=1\n"
          "    -rf,sw->\n"
          "  P1.0  R.acq flag=1\n"
          "    -po->\n"
          "  P1.1  R.rlx data=0\n"
          "    -fr->\n"
          "  P0.0  W.rlx data=1\n");
}

TEST_CASE("coherence: an RMW reading from a write co-after it") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto w = b.write(1, x, 1);
    const auto u = b.rmw(0, x, 1, 2, w);
    b.graph().set_co(x, {b.init(x), u, w});
    const auto v = violation_of(b.graph());
    CHECK(v.axiom == "coherence");
    CHECK(v.cycle == std::vector<EventId>{u, w});
}

TEST_CASE("atomicity: two RMWs read the same write") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto u1 = b.rmw(0, x, 0, 1, b.init(x));
    const auto u2 = b.rmw(1, x, 0, 1, b.init(x));
    const auto v = violation_of(b.graph());
    CHECK(v.axiom == "atomicity");
    CHECK(v.cycle == std::vector<EventId>{u1, u2});
    CHECK(v.explanation == "RMW P1.0 reads from init.0 but P0.0 comes between them in co");
}

TEST_CASE("no-thin-air: LB where each read reads the other thread's later write") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto y = b.location("y");
    // Appended out of step order on purpose: each read names a write that does not exist yet.
    ExecutionGraph& g = b.graph();
    auto future_read = [&](unsigned thread, LocationId loc, EventId from) {
        Event e;
        e.id.thread = EventId::of_model_thread(thread);
        e.kind = EventKind::Read;
        e.location = loc;
        e.read_value = 1;
        e.reads_from = from;
        return e;
    };
    const Event rx = future_read(0, x, EventId{EventId::of_model_thread(1), 1});
    const Event ry = future_read(1, y, EventId{EventId::of_model_thread(0), 1});
    const auto r0 = g.append(rx);
    const auto w0 = b.write(0, y, 1);
    const auto r1 = g.append(ry);
    const auto w1 = b.write(1, x, 1);
    const auto v = violation_of(g);
    CHECK(v.axiom == "no-thin-air");
    CHECK(v.cycle == std::vector<EventId>{r0, w0, r1, w1});
}

TEST_CASE("sc: SB with a seq_cst fence against seq_cst accesses is forbidden") {
    SbFenceVsScAccess t;
    const ExecutionGraph& g = t.b.graph();
    const auto v = violation_of(g);
    CHECK(v.axiom == "sc");
    CHECK(v.cycle == std::vector<EventId>{t.wx, t.ry, t.f});
    CHECK(describe(g, v) ==
          "sc: psc is cyclic: no single order of the seq_cst events explains the reads\n"
          "  P0.0  W.sc x=1\n"
          "    -po->\n"
          "  P0.1  R.sc y=0\n"
          "    -psc (fr;po)->\n"
          "  P1.1  F.sc\n"
          "    -psc (po;fr)->\n"
          "  P0.0  W.sc x=1\n");
    CHECK(relation_name(g, t.wy, t.rx) == "po");
    CHECK(relation_name(g, t.rx, t.wy) == "?");
}

TEST_CASE("sc: the same SB passes once P0 reads P1's write, and SB+fences both sides fails") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto y = b.location("y");
    b.write(0, x, 1, sc);
    const auto wy = b.write(1, y, 1, rlx);
    b.read(0, y, 1, wy, sc);
    b.fence(1, sc);
    b.read(1, x, 0, b.init(x), rlx);
    CHECK_FALSE(check_rc11(b.graph()).has_value());

    GraphBuilder c({"P0", "P1"});
    const auto cx = c.location("x");
    const auto cy = c.location("y");
    c.write(0, cx, 1, rlx);
    c.fence(0, sc);
    c.read(0, cy, 0, c.init(cy), rlx);
    c.write(1, cy, 1, rlx);
    c.fence(1, sc);
    c.read(1, cx, 0, c.init(cx), rlx);
    CHECK(violation_of(c.graph()).axiom == "sc");
}

TEST_CASE("sc: IRIW with seq_cst fences between the readers' loads is forbidden") {
    const auto [g, f1, f2] = test::iriw_sc_fences_weak_outcome();
    const auto v = violation_of(g);
    CHECK(v.axiom == "sc");
    CHECK(v.cycle == std::vector<EventId>{f1, f2});
    CHECK(relation_name(g, f1, f2) == "psc (po;fr;rf;po)");
}

}  // TEST_SUITE
