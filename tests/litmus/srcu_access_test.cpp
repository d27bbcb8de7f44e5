// SPDX-License-Identifier: MIT
// SRCU's read side as memory accesses (herd's newest linux-kernel.def, "lkmmv2"): with
// Access::srcu_access set, srcu_read_lock()/srcu_down_read() are a marked read of the
// srcu_struct's word tagged srcu-lock, and srcu_read_unlock()/srcu_up_read() a marked write of the
// value given, tagged srcu-unlock and data-dependent on the lock's read; without it, Linux 6.1's
// srcu-lock/srcu-unlock events (fences on the srcu_struct).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/memory_model/lkmm_tags.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "litmus/parser.hpp"
#include "litmus/run.hpp"
#include "tests/litmus/litmus_test_support.hpp"
#include "tests/traces/graph_builder.hpp"

using namespace oc;
using namespace oc::litmus;

namespace {

const char* const source = "C srcu-access\n(* Result: Never *)\n{}\n"
                           "P0(int *x, int *y, struct srcu_struct *s) { int r0; int r1; int r2; int r3;\n"
                           "  r0 = srcu_read_lock(s);\n"    // line 5
                           "  r1 = READ_ONCE(*x);\n"        // 6
                           "  r2 = READ_ONCE(*y);\n"        // 7
                           "  srcu_read_unlock(s, r0);\n"   // 8
                           "  r3 = srcu_down_read(s);\n"    // 9
                           "  srcu_up_read(s, r3);\n"       // 10
                           "}\n"
                           "P1(int *x, int *y, struct srcu_struct *s) { WRITE_ONCE(*y, 1); synchronize_srcu(s); "
                           "WRITE_ONCE(*x, 1); }\n"
                           "exists (0:r1=1 /\\ 0:r2=0)\n";

/// `src` parsed, its SRCU read-side accesses marked as lkmmv2's (`srcu_access`) or left alone.
std::shared_ptr<const Compiled> compiled(const std::string& src, bool srcu_access) {
    Program p = parse(src, "t.litmus");
    for (Access& a : p.accesses)
        if (!a.plain && (a.prim == Prim::SrcuReadLock || a.prim == Prim::SrcuReadUnlock)) a.srcu_access = srcu_access;
    return compile(std::move(p));
}

using oc::litmus::test::FirstExecution;
/// The test's first execution under the graph engine and LKMM; `test` owns what its events point into.
FirstExecution first_execution(bool srcu_access) {
    return oc::litmus::test::first_execution_under_lkmm(compiled(source, srcu_access));
}

/// P0's first event at `line`.
const Event& at(const std::vector<Event>& p0, unsigned line) {
    const Event* found = nullptr;
    for (const Event& e : p0)
        if (found == nullptr && e.where.line == line) found = &e;
    REQUIRE(found != nullptr);
    return *found;
}

LitmusResult run_lkmm(const std::string& src, bool srcu_access) {
    LitmusOptions o;
    o.model = ModelKind::Lkmm;
    return run(compiled(src, srcu_access), o);
}

}  // namespace

TEST_SUITE("litmus interpreter") {
    TEST_CASE("SRCU as accesses (lkmmv2): the lock reads the srcu_struct's word, the unlock writes its value back") {
        const FirstExecution f = first_execution(true);
        REQUIRE(f.report.first_execution);
        const ExecutionGraph& g = *f.report.first_execution;
        const std::vector<Event>& p0 = g.thread(1);
        for (const auto& [lock_line, unlock_line, lock_name, unlock_name] :
             {std::tuple{5u, 8u, "srcu_read_lock", "srcu_read_unlock"}, std::tuple{9u, 10u, "srcu_down_read", "srcu_up_read"}}) {
            CAPTURE(lock_name);
            const Event& lock = at(p0, lock_line);
            const Event& unlock = at(p0, unlock_line);
            // the lock: a marked read of the srcu_struct's word, srcu-lock only (no once)
            CHECK(lock.kind == EventKind::Read);
            CHECK(lock.order == MemoryOrder::Relaxed);
            CHECK(std::strcmp(lock.primitive, lock_name) == 0);
            CHECK(lock.lkmm == lkmm::SrcuLock);
            CHECK(lkmm_tags_of(lock) == lkmm::SrcuLock);
            REQUIRE(lock.location);
            CHECK(g.location_name(*lock.location) == "s");  // the srcu_struct's word, named as the struct
            CHECK(lock.read_value == 0);
            // the unlock: a marked write of the value the lock read to that word, srcu-unlock only,
            // data-dependent on the lock's read (a copy of its value)
            CHECK(unlock.kind == EventKind::Write);
            CHECK(unlock.order == MemoryOrder::Relaxed);
            CHECK(std::strcmp(unlock.primitive, unlock_name) == 0);
            CHECK(unlock.lkmm == lkmm::SrcuUnlock);
            CHECK(lkmm_tags_of(unlock) == lkmm::SrcuUnlock);
            CHECK(unlock.location == lock.location);
            CHECK(unlock.written_value == lock.read_value);
            CHECK(unlock.data_deps == std::uint64_t{1} << lock.id.index);
            CHECK(unlock.data_copy);
            CHECK(unlock.addr_deps == 0);
            CHECK(unlock.ctrl_deps == 0);
        }
        // srcu_down_read() comes after srcu_read_unlock()'s write to the word: it reads that write
        REQUIRE(at(p0, 9).reads_from);
        CHECK(*at(p0, 9).reads_from == at(p0, 8).id);
        // synchronize_srcu() stays a sync-srcu event on the srcu_struct
        const Event* sync = nullptr;
        for (const Event& e : g.thread(2))
            if (std::strcmp(e.primitive, "synchronize_srcu") == 0) sync = &e;
        REQUIRE(sync != nullptr);
        CHECK(sync->kind == EventKind::Fence);
        CHECK(sync->lkmm == lkmm::SyncSrcu);
        CHECK(sync->location == at(p0, 5).location);
    }

    TEST_CASE("SRCU as accesses (lkmmv2): without the flag, Linux 6.1's srcu events") {
        const FirstExecution f = first_execution(false);
        REQUIRE(f.report.first_execution);
        const std::vector<Event>& p0 = f.report.first_execution->thread(1);
        for (const auto& [lock_line, unlock_line] : {std::pair{5u, 8u}, std::pair{9u, 10u}}) {
            const Event& lock = at(p0, lock_line);
            const Event& unlock = at(p0, unlock_line);
            CHECK(lock.kind == EventKind::Fence);
            CHECK(lock.lkmm == lkmm::SrcuLock);
            CHECK(unlock.kind == EventKind::Fence);
            CHECK(unlock.lkmm == lkmm::SrcuUnlock);
            CHECK(unlock.location == lock.location);
            CHECK(unlock.written_value == lock.written_value);  // the lock's own value, given back
            CHECK(unlock.data_deps == 0);
        }
    }

    TEST_CASE("SRCU as accesses (lkmmv2): the grace period's guarantee, and a value the lock did not read") {
        // The built-in LKMM pairs the sections by nesting: the SRCU+sync+po shape stays Never.
        const LitmusResult r = run_lkmm(source, true);
        CHECK(r.error.empty());
        CHECK(r.observation == Verdict::Never);
        CHECK(r.judgement == Judgement::Match);
        CHECK(r.flags.empty());
        // The unlock is given another value: no verification error (the model flags it).
        const std::string bad = "C t\n(* Result: Never *)\n{}\n"
                                "P0(struct srcu_struct *s) { int r0; r0 = srcu_read_lock(s); srcu_read_unlock(s, r0 + 1); }\n"
                                "P1(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=2)\n";
        const LitmusResult v = run_lkmm(bad, true);
        CHECK(v.error.empty());
        CHECK(v.judgement == Judgement::Match);
        CHECK(std::find(v.flags.begin(), v.flags.end(), "srcu-bad-nesting") != v.flags.end());
        // ... where the 6.1 mapping hands the unlock the lock's own value and checks nothing here
        // either: the model's flag judges it
        const LitmusResult old = run_lkmm(bad, false);
        CHECK(std::find(old.flags.begin(), old.flags.end(), "srcu-bad-nesting") != old.flags.end());
    }

    TEST_CASE("SRCU as accesses (lkmmv2): the built-in LKMM compares the value a srcu-lock read with its unlock's") {
        // srcu-bad-nesting (different-values(srcu-rscs)): a lock that is a read has the value it
        // read, not the 0 it writes (none)
        oc::test::GraphBuilder b({"P0"});
        const LocationId s = b.location("s", 1);
        const EventId lock = b.lkmm_read(0, s, 1, b.init(s), lkmm::SrcuLock);
        const EventId unlock = b.lkmm_write(0, s, 1, lkmm::SrcuUnlock, oc::test::Deps{0, oc::test::on(lock), 0});
        CHECK(lkmm_model().flags(b.graph()).empty());
        b.lkmm_read(0, s, 1, unlock, lkmm::SrcuLock);
        b.lkmm_write(0, s, 2, lkmm::SrcuUnlock);  // given another value
        const auto flags = lkmm_model().flags(b.graph());
        CHECK(std::find(flags.begin(), flags.end(), "srcu-bad-nesting") != flags.end());
    }
}
