// SPDX-License-Identifier: MIT
#include "traces/relations.hpp"

#include "tests/traces/graph_builder.hpp"

#include <doctest/doctest.h>

using namespace oc;
using oc::test::GraphBuilder;

namespace {
constexpr auto rlx = MemoryOrder::Relaxed;
constexpr auto acq = MemoryOrder::Acquire;
constexpr auto rel = MemoryOrder::Release;
constexpr auto sc = MemoryOrder::SeqCst;
}  // namespace

TEST_SUITE("traces") {

TEST_CASE("po: thread order, init writes before every other event") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto w0 = b.write(0, x, 1);
    const auto w1 = b.write(0, x, 2);
    const auto w2 = b.write(1, x, 3);
    const auto& g = b.graph();
    const Relation p = po(g);
    CHECK(p.contains(w0, w1));
    CHECK_FALSE(p.contains(w1, w0));
    CHECK_FALSE(p.contains(w0, w2));
    CHECK(p.contains(b.init(x), w0));
    CHECK(p.contains(b.init(x), w2));
    CHECK(p.size() == 4);
    CHECK(po_imm(g) == Relation({{b.init(x), w0}, {b.init(x), w2}, {w0, w1}}));
    CHECK(po_loc(g) == p);
}

TEST_CASE("rf, co, fr and their external parts on the SB witness") {
    const ExecutionGraph g = test::sb_relaxed_witness();
    const EventId ix{0, 0}, iy{0, 1}, wx{1, 0}, ry{1, 1}, wy{2, 0}, rx{2, 1};
    CHECK(rf(g) == Relation({{ix, rx}, {iy, ry}}));
    CHECK(rfe(g) == rf(g));
    CHECK(rfi(g).empty());
    CHECK(co(g) == Relation({{ix, wx}, {iy, wy}}));
    CHECK(coe(g) == co(g));
    CHECK(co_imm(g) == co(g));
    CHECK(fr(g) == Relation({{ry, wy}, {rx, wx}}));
    CHECK(fre(g) == fr(g));
    CHECK(fr_imm(g) == fr(g));
    CHECK(sw(g).empty());
    CHECK(hb(g) == po(g));
    CHECK(eco(g) == Relation({{ix, rx}, {ix, wx}, {iy, ry}, {iy, wy}, {ry, wy}, {rx, wx}}));
}

TEST_CASE("co is transitive and fr leaves an RMW out of its own fr") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto u = b.rmw(0, x, 0, 1, b.init(x));
    const auto w = b.write(1, x, 5);
    const auto r = b.read(1, x, 1, u);
    const auto& g = b.graph();
    CHECK(co(g) == Relation({{b.init(x), u}, {b.init(x), w}, {u, w}}));
    CHECK(co_imm(g) == Relation({{b.init(x), u}, {u, w}}));
    CHECK(fr(g) == Relation({{u, w}, {r, w}}));
    CHECK(fr_imm(g) == Relation({{u, w}, {r, w}}));
    CHECK(rmw(g) == Relation({{u, u}}));
    CHECK(rmw_atomicity(g));
}

TEST_CASE("rmw atomicity: a write between an RMW and its source") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto u1 = b.rmw(0, x, 0, 1, b.init(x));
    const auto u2 = b.rmw(1, x, 0, 1, b.init(x));
    const auto& g = b.graph();
    CHECK_FALSE(rmw_atomicity(g));
    CHECK(rmw_atomicity_violations(g) == Relation({{u2, u1}}));
}

TEST_CASE("sw: release write to acquire read, hb carries the message") {
    GraphBuilder b({"P0", "P1"});
    const auto data = b.location("data");
    const auto flag = b.location("flag");
    const auto wd = b.write(0, data, 1);
    const auto wf = b.write(0, flag, 1, rel);
    const auto r_flag = b.read(1, flag, 1, wf, acq);
    const auto rd = b.read(1, data, 1, wd);
    const auto& g = b.graph();
    CHECK(sw(g) == Relation({{wf, r_flag}}));
    CHECK(hb(g).contains(wd, rd));
    CHECK(hb(g).contains(b.init(data), rd));
    CHECK_FALSE(hb(g).contains(rd, wd));
}

TEST_CASE("sw: a relaxed read or a relaxed write does not synchronise") {
    GraphBuilder b({"P0", "P1"});
    const auto flag = b.location("flag");
    const auto w_rel = b.write(0, flag, 1, rel);
    b.read(1, flag, 1, w_rel, rlx);
    CHECK(sw(b.graph()).empty());

    GraphBuilder c({"P0", "P1"});
    const auto flag2 = c.location("flag");
    const auto w_rlx = c.write(0, flag2, 1, rlx);
    c.read(1, flag2, 1, w_rlx, acq);
    CHECK(sw(c.graph()).empty());
}

TEST_CASE("sw through a release sequence continued by an RMW chain") {
    GraphBuilder b({"P0", "P1", "P2"});
    const auto flag = b.location("flag");
    const auto w = b.write(0, flag, 1, rel);
    const auto u1 = b.rmw(1, flag, 1, 2, w, rlx);
    const auto u2 = b.rmw(2, flag, 2, 3, u1, rlx);
    const auto& g = b.graph();
    CHECK(rs(g).contains(w, u2));
    CHECK(rs(g).contains(u1, u2));
    CHECK(sw(g).empty());  // the RMWs are relaxed: nobody acquires

    GraphBuilder c({"P0", "P1", "P2"});
    const auto f = c.location("flag");
    const auto head = c.write(0, f, 1, rel);
    const auto mid = c.rmw(1, f, 1, 2, head, rlx);
    const auto r = c.read(2, f, 2, mid, acq);
    CHECK(sw(c.graph()) == Relation({{head, r}}));
}

TEST_CASE("sw: C++20 release sequences have no same-thread continuation") {
    GraphBuilder b({"P0", "P1"});
    const auto flag = b.location("flag");
    b.write(0, flag, 1, rel);
    const auto later = b.write(0, flag, 2, rlx);  // in the C++11 release sequence, not in C++20's
    b.read(1, flag, 2, later, acq);
    CHECK(sw(b.graph()).empty());
}

TEST_CASE("sw between fences: release fence before the write, acquire fence after the read") {
    GraphBuilder b({"P0", "P1", "P2"});
    const auto data = b.location("data");
    const auto flag = b.location("flag");
    const auto wd = b.write(0, data, 1);
    const auto f_rel = b.fence(0, rel);
    const auto wf = b.write(0, flag, 1, rlx);
    const auto u = b.rmw(1, flag, 1, 2, wf, rlx);
    b.read(2, flag, 2, u, rlx);
    const auto f_acq = b.fence(2, acq);
    const auto rd = b.read(2, data, 1, wd);
    const auto& g = b.graph();
    CHECK(sw(g) == Relation({{f_rel, f_acq}}));
    CHECK(hb(g).contains(wd, rd));
    CHECK_FALSE(hb(g).contains(wd, u));  // the relaxed RMW itself acquires nothing
}

TEST_CASE("psc orders the seq_cst events of SB with a fence against seq_cst accesses") {
    GraphBuilder b({"P0", "P1"});
    const auto x = b.location("x");
    const auto y = b.location("y");
    const auto wx = b.write(0, x, 1, sc);
    const auto ry = b.read(0, y, 0, b.init(y), sc);
    b.write(1, y, 1, rlx);
    const auto f = b.fence(1, sc);
    b.read(1, x, 0, b.init(x), rlx);
    const auto& g = b.graph();
    const Relation p = psc(g);
    CHECK(p.contains(wx, ry));  // po between seq_cst accesses
    CHECK(p.contains(ry, f));   // fr to the write, then po to the fence
    CHECK(p.contains(f, wx));   // po to the read, then fr to the seq_cst write
    CHECK(psc_f(g, hb(g), eco(g)).empty());
}

TEST_CASE("psc_f orders seq_cst fences through eco, where scb has no rf (IRIW+fences)") {
    const auto [g, f1, f2] = test::iriw_sc_fences_weak_outcome();
    const Relation h = hb(g);
    CHECK(psc_f(g, h, eco(g)) == Relation({{f1, f2}, {f2, f1}}));
    CHECK_FALSE(psc_base(g, h).contains(f1, f2));
}

}  // TEST_SUITE
