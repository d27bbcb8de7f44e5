// SPDX-License-Identifier: MIT
// Load buffering by revisits (ExploreOptions::cycle_revisits, docs/graph-engine.md): the reads
// the text shows nothing depends on (litmus/ordered_reads.cpp, undepended_reads()), a cycle
// built by a revisit with no guess, and the same executions as the guesses alone build, on
// the whole corpus, on one thread and on two.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checker/graph/graph_engine.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/model/model.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/ordered_reads.hpp"
#include "litmus/parser.hpp"
#include "litmus/run.hpp"
#include "tests/test_support.hpp"

using namespace oc;

namespace {

/// The lines of P0 (from 1 at its first body line) that undepended_reads() lists, for a test
/// whose P0 body is `p0` (and P1's `p1`).
std::set<std::uint32_t> undepended(const std::string& p0,
                                   const std::string& p1 = "\tint r1;\n\tr1 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, 1);\n") {
    const std::string src = "C t\n{}\nP0(int *x, int *y, int *z)\n{\n" + p0 + "}\nP1(int *x, int *y)\n{\n" + p1 +
                            "}\nexists (0:r0=1 /\\ 1:r1=1)\n";
    std::set<std::uint32_t> out;
    for (const auto& [thread, line] : litmus::undepended_reads(litmus::parse(src, "t.litmus")))
        if (thread == 1) out.insert(line - 4);  // P0's body starts at line 5
    return out;
}

struct Run {
    ExploreResult result;
    std::multiset<std::uint64_t> hashes;  ///< canonical hash of every execution handed on
};

Run explore(const VariantDef& v, bool cycle_revisits, unsigned threads = 1) {
    ExploreOptions o;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    o.livelock_ends_search = false;
    o.cycle_revisits = cycle_revisits;
    o.threads = threads;
    Run r;
    r.result = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState&) { r.hashes.insert(canonical_hash(g)); });
    return r;
}

}  // namespace

TEST_CASE("cycle revisits: the reads whose value nothing of their thread uses") {
    // Line 1 declares r0, line 2 reads x.
    CHECK(undepended("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n") == std::set<std::uint32_t>{2});
    // used by a write's value, a branch (even one after the write), an address
    CHECK(undepended("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, r0);\n").empty());
    CHECK(undepended("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n\tif (r0)\n\t\tWRITE_ONCE(*z, 1);\n").empty());
    CHECK(undepended("\tint r0;\n\tint r2;\n\tr0 = READ_ONCE(*x);\n\tr2 = r0 + 1;\n\tWRITE_ONCE(*y, 1);\n").empty());
    // a read not assigned to a register, or an RMW, is not listed
    CHECK(undepended("\tint r0;\n\tWRITE_ONCE(*y, READ_ONCE(*x));\n").empty());
    CHECK(undepended("\tint r0;\n\tr0 = xchg_relaxed(x, 2);\n\tWRITE_ONCE(*y, 1);\n").empty());
    // a line with a second read that is used
    CHECK(undepended("\tint r0;\n\tint r2;\n\tr0 = READ_ONCE(*x); r2 = READ_ONCE(*z);\n\tWRITE_ONCE(*y, r2);\n").empty());
    // a process with another read after it, or a loop: a revisit changes one read, and another
    // may have to change with it (LB+two-reads-each)
    CHECK(undepended("\tint r0;\n\tint r1;\n\tr0 = READ_ONCE(*x);\n\tr1 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n").empty());
    CHECK(undepended("\tint r0;\n\tint i;\n\tfor (i = 0; i < 2; i = i + 1)\n\t\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n")
              .empty());
    // a location another process reads too: one write may have to revisit both
    // (LB+two-readers-of-one-write)
    CHECK(undepended("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n", "\tint r1;\n\tr1 = READ_ONCE(*x);\n")
              .empty());
}

TEST_CASE("cycle revisits: LB+poonceonces has its cycle with no guess") {
    // Neither read is used: the text shows that no read guesses, so the first round, without
    // guesses, is the whole search, and the cycle (both read 1, LKMM allows it: nothing orders
    // either read before its thread's write) comes from a revisit.
    const VariantDef v = litmus::make_variant(litmus::load(OC_SOURCE_ROOT "/litmus/tests/LB+poonceonces.litmus"),
                                              litmus::RunMode::RaceCheck);
    CHECK(v.text_guesses_nothing(ordering::all));
    const Run with = explore(v, true);
    CHECK(with.result.completed);
    CHECK(with.result.executions == 4);
    CHECK(with.hashes == explore(v, false).hashes);
}

TEST_CASE("cycle revisits: the same executions as the guesses alone, on the corpus") {
    // Each execution once (a multiset of canonical hashes), the same ones with and without cycle
    // revisits, and with them on two threads (threads sharing the search).
    std::size_t files = 0;
    for (const auto& file : oc::test::litmus_corpus()) {
        if (file.find("desc-reserve+4") != std::string::npos) continue;  // seconds under the guesses alone
        CAPTURE(file);
        const VariantDef v = litmus::make_variant(litmus::load(file), litmus::RunMode::RaceCheck);
        const Run guesses = explore(v, false);
        const Run revisits = explore(v, true);
        CHECK(revisits.result.completed == guesses.result.completed);
        CHECK(revisits.result.failure == guesses.result.failure);
        CHECK(revisits.result.executions == guesses.result.executions);
        CHECK(revisits.result.thin_air == guesses.result.thin_air);
        CHECK(revisits.hashes == guesses.hashes);
        CHECK(std::set<std::uint64_t>(revisits.hashes.begin(), revisits.hashes.end()).size() == revisits.hashes.size());
        const Run two = explore(v, true, 2);
        CHECK(two.result.executions == guesses.result.executions);
        CHECK(two.hashes == guesses.hashes);
        ++files;
    }
    CHECK(files >= 150);
}
