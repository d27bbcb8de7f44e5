// SPDX-License-Identifier: MIT
// The reads a litmus test's text shows ordered before every later write of their process
// (litmus/ordered_reads.cpp, VariantDef::ordered_reads): which ones the analysis lists, and the
// engine's own rule checking each claim on the whole corpus.
#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>
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

/// The listed (process, line) pairs of a test whose P0 is `p0` (lines from 1 at `p0`'s first
/// line) and whose P1 is a plain load-buffering partner.
std::set<std::pair<unsigned, std::uint32_t>> listed(const std::string& p0, bool plain_is_plain = true,
                                                    bool by_dependencies = false) {
    const std::string head = "C t\n{}\n";
    const std::string src = head + "P0(int *x, int *y, int *z, spinlock_t *l)\n{\n" + p0 +
                            "}\nP1(int *x, int *y)\n{\n\tint r1;\n\tr1 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, 1);\n}\n"
                            "exists (0:r0=1 /\\ 1:r1=1)\n";
    const litmus::Program p = litmus::parse(src, "t.litmus");
    std::set<std::pair<unsigned, std::uint32_t>> out;
    for (const auto& o : litmus::ordered_reads(p, plain_is_plain))
        if (o.thread == 1 && o.ordered(by_dependencies ? ordering::dependency : ordering::all) == true)
            out.insert({o.thread, o.line - 4});  // P0's body starts at line 5
    return out;
}
/// What the analysis says of P0's line 2 (its first read): ordered, not, or not known (nullopt;
/// also when the line is not listed).
std::optional<bool> said(const std::string& p0) {
    const std::string src = "C t\n{}\nP0(int *x, int *y, int *z, spinlock_t *l)\n{\n" + p0 +
                            "}\nP1(int *x, int *y)\n{\n\tint r1;\n\tr1 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, 1);\n}\n"
                            "exists (0:r0=1 /\\ 1:r1=1)\n";
    for (const auto& o : litmus::ordered_reads(litmus::parse(src, "t.litmus"), true))
        if (o.thread == 1 && o.line == 6) return o.ordered(ordering::all);
    return std::nullopt;
}
const std::set<std::pair<unsigned, std::uint32_t>> none;
const std::set<std::pair<unsigned, std::uint32_t>> first_line{{1u, 2u}};

}  // namespace

TEST_CASE("ordered reads: what the text shows ordered, on every path") {
    // Line 1 declares r0, line 2 reads x.
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == first_line);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, r0);\n") == first_line);  // data
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 1)\n\t\tWRITE_ONCE(*y, 1);\n") == first_line);  // ctrl
    CHECK(listed("\tint r0;\n\tr0 = smp_load_acquire(x);\n\tWRITE_ONCE(*y, 1);\n") == first_line);  // acq-po
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_store_release(y, 1);\n") == first_line);  // po-rel
    // an RMW's write, data-dependent; the RMW's own read has no write after it
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tr0 = xchg_relaxed(y, r0);\n") ==
          std::set<std::pair<unsigned, std::uint32_t>>{{1u, 2u}, {1u, 3u}});
    // an RMW's read: ordered as a relaxed read; an acquire RMW orders every marked write
    CHECK(listed("\tint r0;\n\tr0 = xchg_relaxed(x, 2);\n\tWRITE_ONCE(*y, 1);\n") == none);
    CHECK(listed("\tint r0;\n\tr0 = xchg_acquire(x, 2);\n\tWRITE_ONCE(*y, 1);\n") == first_line);
    CHECK(listed("\tint r0;\n\tr0 = cmpxchg_acquire(x, 0, 2);\n\tWRITE_ONCE(*y, 1);\n") == none);  // may fail
    CHECK(listed("\tint r0;\n\tr0 = xchg_relaxed(x, 2);\n\tif (r0 == 0)\n\t\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == none);
    // Unordered, or ordered on one path only: not listed.
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n") == none);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_wmb();\n\tWRITE_ONCE(*y, 1);\n") == none);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 0)\n\t\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == none);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 1)\n\t\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == none);
    CHECK(listed("\tint r0;\n\tint r2;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 1)\n\t\tr2 = r0;\n\tWRITE_ONCE(*y, r2);\n") ==
          none);  // a dependency on one path only
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 1)\n\t\tWRITE_ONCE(*z, 1);\n\tWRITE_ONCE(*y, 1);\n") ==
          none);  // ctrl ends with the if
    // a plain write: unordered, unless no marked access reaches its location and the run keeps
    // plain accesses plain (the race-checking run LKMM uses)
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, r0);\n\t*z = 1;\n", false) == none);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, r0);\n\t*z = 1;\n") == first_line);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, r0);\n\t*x = 1;\n") == none);
    CHECK(listed("\tint r0;\n\tr0 = *x;\n\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == none);  // a plain read
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tBUG_ON(r0 == 2);\n\tWRITE_ONCE(*y, 1);\n") ==
          none);  // an assertion may end the thread
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tspin_lock(l);\n") == none);  // a lock's write
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tspin_lock(l);\n\tspin_unlock(l);\n") == first_line);
    // Under a cat model only the dependencies count (its fences may order less).
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n", true, true) == none);
    CHECK(listed("\tint r0;\n\tr0 = smp_load_acquire(x);\n\tWRITE_ONCE(*y, 1);\n", true, true) == none);
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tif (r0 == 1)\n\t\tWRITE_ONCE(*y, r0);\n", true, true) ==
          first_line);
    // Said unordered (the read guesses), or not known (the rounds' learnt rules decide).
    CHECK(said("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*y, 1);\n") == false);
    CHECK(said("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tWRITE_ONCE(*y, 1);\n") == true);
    CHECK(!said("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tBUG_ON(r0 == 2);\n").has_value());
    CHECK(said("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tBUG_ON(r0 == 2);\n\tWRITE_ONCE(*y, 1);\n") == false);
    // Loops: the writes of the next iterations follow too.
    CHECK(listed("\tint r0;\n\tint i;\n\tfor (i = 0; i < 2; i = i + 1) {\n\t\tr0 = READ_ONCE(*x);\n\t\tWRITE_ONCE(*y, r0);\n\t}\n") ==
          std::set<std::pair<unsigned, std::uint32_t>>{{1u, 4u}});
    CHECK(listed("\tint r0;\n\tint i;\n\tfor (i = 0; i < 2; i = i + 1) {\n\t\tWRITE_ONCE(*z, 1);\n\t\tr0 = READ_ONCE(*x);\n"
                 "\t\tWRITE_ONCE(*y, r0);\n\t}\n") == none);  // the next iteration's write of z
    CHECK(listed("\tint r0;\n\tint i;\n\tfor (i = 0; i < 2; i = i + 1) {\n\t\tr0 = READ_ONCE(*x);\n\t\tsmp_mb();\n"
                 "\t\tWRITE_ONCE(*y, 1);\n\t}\n\tWRITE_ONCE(*z, 1);\n") == std::set<std::pair<unsigned, std::uint32_t>>{{1u, 4u}});
    CHECK(listed("\tint r0;\n\tint i;\n\tr0 = READ_ONCE(*x);\n\tfor (i = 0; i < 2; i = i + 1) {\n\t\tif (i == 1)\n\t\t\tsmp_mb();\n"
                 "\t\tWRITE_ONCE(*y, 1);\n\t}\n") == none);  // the first iteration's write has no fence before it
    // An await may leave the thread waiting forever after the read; a jump is not followed.
    CHECK(listed("\tint r0;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\twhile (READ_ONCE(*z) == 0)\n\t\t;\n\tWRITE_ONCE(*y, 1);\n") ==
          none);
    CHECK(listed("\tint r0;\n\tint i;\n\tr0 = READ_ONCE(*x);\n\tsmp_mb();\n\tfor (i = 0; i < 2; i = i + 1) {\n\t\tif (i == 1)\n"
                 "\t\t\tbreak;\n\t\tWRITE_ONCE(*y, 1);\n\t}\n") == none);
}

TEST_CASE("ordered reads: every claim on the corpus holds by the engine's own rule, and leaving them out changes nothing") {
    // With ExploreOptions::guess_ordered_reads the listed reads guess as every read did before,
    // and the engine throws when one's guess outlives its thread; without it they guess nothing.
    // Both searches must give the same executions.
    std::size_t listed_tests = 0, listed_reads = 0, cut = 0;
    for (const auto& file : oc::test::litmus_corpus()) {
        CAPTURE(file);
        const VariantDef v = litmus::make_variant(litmus::load(file), litmus::RunMode::RaceCheck);
        std::size_t ordered = 0;
        for (const auto& o : v.ordered_reads) ordered += o.ordered(ordering::all) == true;
        if (ordered == 0) continue;
        ++listed_tests;
        listed_reads += ordered;
        const auto run = [&](bool guess) {
            ExploreOptions o;
            o.engine = EngineKind::Graph;
            o.model = ModelKind::Lkmm;
            o.race_ends_execution = false;
            o.guess_ordered_reads = guess;
            // guessing everywhere costs hundreds of times the search on desc-reserve+4: a
            // search cut short still checks every guess it made
            if (guess) o.timeout_seconds = 2;
            std::multiset<std::uint64_t> hashes;
            const ExploreResult r = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState&) {
                hashes.insert(canonical_hash(g));
            });
            return std::pair{r, hashes};
        };
        std::pair<ExploreResult, std::multiset<std::uint64_t>> checked, pruned;
        REQUIRE_NOTHROW(checked = run(true));
        if (!checked.first.completed && checked.first.cut_short) {
            ++cut;
            continue;
        }
        pruned = run(false);
        CHECK(pruned.first.completed == checked.first.completed);
        CHECK(pruned.first.failure == checked.first.failure);
        CHECK(pruned.first.executions == checked.first.executions);
        CHECK(pruned.first.thin_air == checked.first.thin_air);
        if (checked.first.completed) CHECK(pruned.second == checked.second);
    }
    MESSAGE(listed_tests << " corpus tests list " << listed_reads << " ordered reads; " << cut
                         << " of them checked up to a 2 s cut");
    CHECK(listed_tests >= 100);
    CHECK(cut <= 5);
}
