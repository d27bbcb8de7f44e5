// SPDX-License-Identifier: MIT
#include "traces/relation.hpp"

#include <doctest/doctest.h>

using oc::EventId;
using oc::EventPair;
using oc::Relation;

namespace {

EventId ev(std::uint16_t thread, std::uint32_t index) { return EventId{thread, index}; }

const EventId a = ev(1, 0), b = ev(1, 1), c = ev(2, 0), d = ev(2, 1);

}  // namespace

TEST_SUITE("traces") {

TEST_CASE("Relation sorts and deduplicates its pairs") {
    const Relation r({{c, d}, {a, b}, {c, d}, {a, a}});
    CHECK(r.pairs() == std::vector<EventPair>{{a, a}, {a, b}, {c, d}});
    CHECK(r.contains(a, b));
    CHECK_FALSE(r.contains(b, a));
    CHECK(r.successors(a) == std::vector<EventId>{a, b});
    CHECK(r.domain() == std::vector<EventId>{a, c});
    CHECK(r.range() == std::vector<EventId>{a, b, d});
    CHECK(r.field() == std::vector<EventId>{a, b, c, d});
}

TEST_CASE("set operations, inverse and composition") {
    const Relation r({{a, b}, {b, c}});
    const Relation s({{b, c}, {c, d}});
    CHECK(r.union_with(s) == Relation({{a, b}, {b, c}, {c, d}}));
    CHECK(r.intersect_with(s) == Relation({{b, c}}));
    CHECK(r.minus(s) == Relation({{a, b}}));
    CHECK(r.inverse() == Relation({{b, a}, {c, b}}));
    CHECK(r.compose(s) == Relation({{a, c}, {b, d}}));
    CHECK(s.compose(r).empty());
    CHECK(r.compose_maybe(s) == Relation({{a, b}, {a, c}, {b, c}, {b, d}}));
    CHECK(r.maybe_compose(s) == Relation({{a, c}, {b, c}, {b, d}, {c, d}}));
}

TEST_CASE("closures and reduction") {
    const Relation chain({{a, b}, {b, c}, {c, d}});
    const Relation closed = chain.transitive_closure();
    CHECK(closed == Relation({{a, b}, {a, c}, {a, d}, {b, c}, {b, d}, {c, d}}));
    CHECK(closed.transitive_reduction() == chain);
    CHECK(chain.reflexive_closure({a, d}) == Relation({{a, a}, {a, b}, {b, c}, {c, d}, {d, d}}));
    CHECK(chain.reflexive_transitive_closure({b}).size() == closed.size() + 1);
    CHECK(Relation({{a, b}, {b, a}}).transitive_closure() == Relation({{a, a}, {a, b}, {b, a}, {b, b}}));
}

TEST_CASE("restriction by predicate") {
    const Relation r({{a, b}, {a, c}, {c, d}});
    auto in_thread_1 = [](EventId e) { return e.thread == 1; };
    CHECK(r.restrict_domain(in_thread_1) == Relation({{a, b}, {a, c}}));
    CHECK(r.restrict_range(in_thread_1) == Relation({{a, b}}));
    CHECK(Relation::identity({c, a}) == Relation({{a, a}, {c, c}}));
}

TEST_CASE("irreflexivity, acyclicity and the cycle found") {
    const Relation acyclic({{a, b}, {b, c}, {a, c}});
    CHECK(acyclic.is_irreflexive());
    CHECK(acyclic.is_acyclic());
    CHECK_FALSE(acyclic.find_cycle().has_value());

    // d -> b -> c -> d with a tail a -> b: the cycle, rotated to start at its smallest event.
    const Relation cyclic({{a, b}, {b, c}, {c, d}, {d, b}});
    CHECK(cyclic.is_irreflexive());
    CHECK_FALSE(cyclic.is_acyclic());
    REQUIRE(cyclic.find_cycle().has_value());
    CHECK(*cyclic.find_cycle() == std::vector<EventId>{b, c, d});

    const Relation loop({{a, b}, {c, c}});
    CHECK_FALSE(loop.is_irreflexive());
    CHECK(loop.find_cycle() == std::optional<std::vector<EventId>>(std::vector<EventId>{c}));
}

TEST_CASE("find_path returns a shortest path, or a shortest cycle through a point") {
    const Relation r({{a, b}, {b, c}, {c, d}, {a, c}, {d, a}});
    CHECK(r.find_path(a, d) == std::optional<std::vector<EventId>>({a, c, d}));
    CHECK(r.find_path(a, a) == std::optional<std::vector<EventId>>({a, c, d, a}));
    CHECK_FALSE(Relation({{a, b}}).find_path(b, a).has_value());
    const EventId e = ev(3, 0);
    const Relation two_ways({{a, b}, {a, c}, {b, d}, {c, e}, {e, d}});  // a-b-d is shorter than a-c-e-d
    CHECK(two_ways.find_path(a, d) == std::optional<std::vector<EventId>>({a, b, d}));
    CHECK(oc::canonical_cycle({d, b, c}) == std::vector<EventId>{b, c, d});
}

}  // TEST_SUITE
