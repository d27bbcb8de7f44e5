// SPDX-License-Identifier: MIT
#include "traces/relation.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include <cstdint>
#include <deque>
#include <map>

namespace oc {

namespace {

std::vector<EventId> sorted_unique(std::vector<EventId> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

/// A dense bit matrix over a sorted node list: the fast form for closure and composition.
class BitMatrix {
public:
    explicit BitMatrix(std::vector<EventId> nodes)
        : nodes_(std::move(nodes)), words_((nodes_.size() + 63) / 64), bits_(nodes_.size() * words_, 0) {}

    BitMatrix(std::vector<EventId> nodes, const std::vector<EventPair>& pairs) : BitMatrix(std::move(nodes)) {
        for (const auto& [a, b] : pairs) set(index(a), index(b));
    }

    std::size_t size() const { return nodes_.size(); }
    std::size_t index(EventId e) const {
        return static_cast<std::size_t>(std::lower_bound(nodes_.begin(), nodes_.end(), e) - nodes_.begin());
    }
    bool test(std::size_t i, std::size_t j) const { return (bits_[i * words_ + j / 64] >> (j % 64)) & 1U; }
    void set(std::size_t i, std::size_t j) { bits_[i * words_ + j / 64] |= std::uint64_t{1} << (j % 64); }
    /// row dst |= row src of `from` (which must share this node list).
    void or_row(std::size_t dst, const BitMatrix& from, std::size_t src) {
        for (std::size_t w = 0; w < words_; ++w) bits_[dst * words_ + w] |= from.bits_[src * from.words_ + w];
    }
    void warshall() {
        for (std::size_t k = 0; k < size(); ++k)
            for (std::size_t i = 0; i < size(); ++i)
                if (test(i, k)) or_row(i, *this, k);
    }
    /// The set bits as pairs, in sorted order (rows and columns follow the sorted node list).
    std::vector<EventPair> pairs() const {
        std::vector<EventPair> out;
        for (std::size_t i = 0; i < size(); ++i)
            for (std::size_t j = 0; j < size(); ++j)
                if (test(i, j)) out.emplace_back(nodes_[i], nodes_[j]);
        return out;
    }

private:
    std::vector<EventId> nodes_;
    std::size_t words_;
    std::vector<std::uint64_t> bits_;
};

/// Records parents along DFS tree edges and the first cycle closed by a back edge.
struct CycleRecorder : boost::default_dfs_visitor {
    std::vector<std::size_t>* parent;
    std::optional<std::vector<std::size_t>>* cycle;

    template <typename Edge, typename Graph>
    void tree_edge(Edge e, const Graph& g) const {
        (*parent)[boost::target(e, g)] = boost::source(e, g);
    }
    template <typename Edge, typename Graph>
    void back_edge(Edge e, const Graph& g) const {
        if (*cycle) return;
        // The target is an ancestor of the source on the DFS stack: walk the tree path back to it.
        const std::size_t to = boost::target(e, g);
        std::vector<std::size_t> path{boost::source(e, g)};
        while (path.back() != to) path.push_back((*parent)[path.back()]);
        std::reverse(path.begin(), path.end());
        *cycle = std::move(path);
    }
};

}  // namespace

Relation::Relation(std::vector<EventPair> pairs) : pairs_(std::move(pairs)) {
    std::sort(pairs_.begin(), pairs_.end());
    pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
}

Relation Relation::identity(const std::vector<EventId>& events) {
    std::vector<EventPair> p;
    p.reserve(events.size());
    for (EventId e : events) p.emplace_back(e, e);
    return Relation(std::move(p));
}

bool Relation::contains(EventId from, EventId to) const {
    return std::binary_search(pairs_.begin(), pairs_.end(), EventPair{from, to});
}

std::vector<EventId> Relation::successors(EventId from) const {
    auto first = std::lower_bound(pairs_.begin(), pairs_.end(), EventPair{from, EventId{}});
    std::vector<EventId> out;
    for (auto it = first; it != pairs_.end() && it->first == from; ++it) out.push_back(it->second);
    return out;
}

std::vector<EventId> Relation::domain() const {
    std::vector<EventId> out;
    for (const auto& p : pairs_) out.push_back(p.first);
    return sorted_unique(std::move(out));
}

std::vector<EventId> Relation::range() const {
    std::vector<EventId> out;
    for (const auto& p : pairs_) out.push_back(p.second);
    return sorted_unique(std::move(out));
}

std::vector<EventId> Relation::field() const {
    std::vector<EventId> out;
    for (const auto& p : pairs_) {
        out.push_back(p.first);
        out.push_back(p.second);
    }
    return sorted_unique(std::move(out));
}

Relation Relation::union_with(const Relation& other) const {
    Relation out;
    std::set_union(pairs_.begin(), pairs_.end(), other.pairs_.begin(), other.pairs_.end(),
                   std::back_inserter(out.pairs_));
    return out;
}

Relation Relation::intersect_with(const Relation& other) const {
    Relation out;
    std::set_intersection(pairs_.begin(), pairs_.end(), other.pairs_.begin(), other.pairs_.end(),
                          std::back_inserter(out.pairs_));
    return out;
}

Relation Relation::minus(const Relation& other) const {
    Relation out;
    std::set_difference(pairs_.begin(), pairs_.end(), other.pairs_.begin(), other.pairs_.end(),
                        std::back_inserter(out.pairs_));
    return out;
}

Relation Relation::compose(const Relation& other) const {
    if (empty() || other.empty()) return {};
    std::vector<EventId> nodes = field();
    std::vector<EventId> more = other.field();
    nodes.insert(nodes.end(), more.begin(), more.end());
    nodes = sorted_unique(std::move(nodes));
    const BitMatrix right(nodes, other.pairs_);
    BitMatrix result(nodes);
    for (const auto& [a, b] : pairs_) result.or_row(result.index(a), right, right.index(b));
    Relation out;
    out.pairs_ = result.pairs();
    return out;
}

Relation Relation::compose_maybe(const Relation& other) const { return union_with(compose(other)); }

Relation Relation::maybe_compose(const Relation& other) const { return other.union_with(compose(other)); }

Relation Relation::inverse() const {
    std::vector<EventPair> p;
    p.reserve(pairs_.size());
    for (const auto& [a, b] : pairs_) p.emplace_back(b, a);
    return Relation(std::move(p));
}

Relation Relation::transitive_closure() const {
    if (empty()) return {};
    BitMatrix m(field(), pairs_);
    m.warshall();
    Relation out;
    out.pairs_ = m.pairs();
    return out;
}

Relation Relation::reflexive_closure(const std::vector<EventId>& universe) const {
    return union_with(identity(universe));
}

Relation Relation::reflexive_transitive_closure(const std::vector<EventId>& universe) const {
    return transitive_closure().union_with(identity(universe));
}

Relation Relation::transitive_reduction() const {
    const Relation t = transitive_closure();
    return t.minus(t.compose(t));
}

bool Relation::is_irreflexive() const {
    return std::none_of(pairs_.begin(), pairs_.end(), [](const EventPair& p) { return p.first == p.second; });
}

bool Relation::is_acyclic() const { return !find_cycle().has_value(); }

std::optional<std::vector<EventId>> Relation::find_cycle() const {
    if (empty()) return std::nullopt;
    const std::vector<EventId> nodes = field();
    auto index = [&](EventId e) {
        return static_cast<std::size_t>(std::lower_bound(nodes.begin(), nodes.end(), e) - nodes.begin());
    };
    // The Boost.Graph view: vertex i is nodes[i]; edges in sorted pair order, so the DFS and the
    // cycle it reports are deterministic.
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> view(nodes.size());
    for (const auto& [a, b] : pairs_) boost::add_edge(index(a), index(b), view);

    std::vector<std::size_t> parent(nodes.size());
    std::optional<std::vector<std::size_t>> cycle;
    CycleRecorder recorder;
    recorder.parent = &parent;
    recorder.cycle = &cycle;
    boost::depth_first_search(view, boost::visitor(recorder));
    if (!cycle) return std::nullopt;
    std::vector<EventId> out;
    for (std::size_t v : *cycle) out.push_back(nodes[v]);
    return canonical_cycle(std::move(out));
}

std::optional<std::vector<EventId>> Relation::find_path(EventId from, EventId to) const {
    std::map<EventId, EventId> parent;  // reached event -> the event it was reached from
    std::deque<EventId> queue;
    auto reach = [&](EventId e, EventId via) {
        if (parent.contains(e)) return false;
        parent.emplace(e, via);
        queue.push_back(e);
        return e == to;
    };
    bool found = false;
    for (EventId s : successors(from))
        if ((found = reach(s, from))) break;
    while (!found && !queue.empty()) {
        const EventId e = queue.front();
        queue.pop_front();
        for (EventId s : successors(e))
            if ((found = reach(s, e))) break;
    }
    if (!found) return std::nullopt;
    std::vector<EventId> path{to};
    do {
        path.push_back(parent.at(path.back()));
    } while (path.back() != from);
    std::reverse(path.begin(), path.end());
    return path;
}

std::vector<EventId> canonical_cycle(std::vector<EventId> cycle) {
    if (cycle.empty()) return cycle;
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    return cycle;
}

}  // namespace oc
