// SPDX-License-Identifier: MIT
// A binary relation over events: a sorted, deduplicated vector of pairs, with the operators of
// herd's cat language (union, ;, ^-1, +, ?, restriction) and cycle finding through Boost.Graph.
#pragma once

#include "traces/execution_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace oc {

using EventPair = std::pair<EventId, EventId>;

/// A set of (from, to) event pairs. A value type; every operation returns a new relation.
class Relation {
public:
    Relation() = default;
    /// Takes any pairs; sorts and deduplicates them.
    explicit Relation(std::vector<EventPair> pairs);

    /// [S]: the identity on the given events.
    static Relation identity(const std::vector<EventId>& events);

    const std::vector<EventPair>& pairs() const { return pairs_; }
    std::size_t size() const { return pairs_.size(); }
    bool empty() const { return pairs_.empty(); }
    /// True if (from, to) is in the relation.
    bool contains(EventId from, EventId to) const;
    /// The events related from `from`, sorted.
    std::vector<EventId> successors(EventId from) const;
    /// dom(r), sorted.
    std::vector<EventId> domain() const;
    /// codom(r), sorted.
    std::vector<EventId> range() const;
    /// dom(r) | codom(r), sorted.
    std::vector<EventId> field() const;

    /// r | s
    Relation union_with(const Relation& other) const;
    /// r & s
    Relation intersect_with(const Relation& other) const;
    /// r \ s
    Relation minus(const Relation& other) const;
    /// r ; s  (sequential composition)
    Relation compose(const Relation& other) const;
    /// r ; s?  =  r | r;s
    Relation compose_maybe(const Relation& other) const;
    /// r? ; s  =  s | r;s
    Relation maybe_compose(const Relation& other) const;
    /// r^-1
    Relation inverse() const;
    /// r+
    Relation transitive_closure() const;
    /// r? over `universe`: r | [universe].
    Relation reflexive_closure(const std::vector<EventId>& universe) const;
    /// r* over `universe`: r+ | [universe].
    Relation reflexive_transitive_closure(const std::vector<EventId>& universe) const;
    /// The pairs of r+ not implied by two steps of r+ (the Hasse diagram; meant for acyclic r).
    Relation transitive_reduction() const;

    /// [P]; r: keeps the pairs whose source satisfies `pred(EventId)`.
    template <typename Pred>
    Relation restrict_domain(Pred pred) const {
        return filter([&](const EventPair& p) { return pred(p.first); });
    }
    /// r; [P]: keeps the pairs whose target satisfies `pred(EventId)`.
    template <typename Pred>
    Relation restrict_range(Pred pred) const {
        return filter([&](const EventPair& p) { return pred(p.second); });
    }
    /// Keeps the pairs satisfying `pred(const EventPair&)`.
    template <typename Pred>
    Relation filter(Pred pred) const {
        Relation out;
        std::copy_if(pairs_.begin(), pairs_.end(), std::back_inserter(out.pairs_), pred);
        return out;  // a subsequence of a sorted, unique vector stays sorted and unique
    }

    /// True if no event is related to itself.
    bool is_irreflexive() const;
    /// True if r+ is irreflexive.
    bool is_acyclic() const;
    /// One cycle e0 -> e1 -> ... -> ek -> e0 as [e0, ..., ek], rotated to start at its smallest
    /// event; nullopt if acyclic. A self-loop gives a one-element cycle. Found by a DFS over a
    /// Boost.Graph view of the relation.
    std::optional<std::vector<EventId>> find_cycle() const;
    /// A shortest path [from, ..., to] of at least one step, or nullopt. With from == to this is
    /// a shortest cycle through `from`, written [from, ..., from].
    std::optional<std::vector<EventId>> find_path(EventId from, EventId to) const;

    friend bool operator==(const Relation&, const Relation&) = default;

private:
    std::vector<EventPair> pairs_;
};

/// Rotates a cycle so that its smallest event comes first (a canonical form for output).
std::vector<EventId> canonical_cycle(std::vector<EventId> cycle);

}  // namespace oc
