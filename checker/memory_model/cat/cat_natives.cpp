// SPDX-License-Identifier: MIT
// The cat evaluator's built-in functions that need no evaluation of their own (map, which
// applies a function of the model, is the evaluator's): cat_values.hpp.
#include <utility>

#include "checker/memory_model/cat/cat_values.hpp"

namespace oc::cat::values {

namespace {

ValPtr rel(BitRel r) {
    auto v = std::make_shared<Val>();
    v->kind = Val::Kind::Rel;
    v->rel = std::move(r);
    return v;
}

}  // namespace

const std::vector<std::string>& native_names() {
    static const std::vector<std::string> names = {"domain", "range", "map", "cross", "different-values", "total-orders"};
    return names;
}

void type_error(const Pos& p, const std::string& expected, const ValPtr& found) {
    throw CatError(p, "expected " + expected + ", found " + kind_name(found->kind));
}

BitRel as_rel(const ValPtr& v, std::size_t n, const Pos& p) {
    if (v->kind == Val::Kind::Rel) return v->rel;
    if (v->kind == Val::Kind::Empty) return BitRel(n);
    type_error(p, "a relation", v);
}

lkmm::NodeSet as_set(const ValPtr& v, std::size_t n, const Pos& p) {
    if (v->kind == Val::Kind::Set) return v->set;
    if (v->kind == Val::Kind::Empty) return lkmm::NodeSet((n + 63) / 64, 0);
    type_error(p, "a set of events", v);
}

ValPtr domain_range(const ValPtr& v, bool domain, std::size_t n, const Pos& p) {
    const BitRel r = as_rel(v, n, p);
    auto out = std::make_shared<Val>();
    out->kind = Val::Kind::Set;
    out->set.assign((n + 63) / 64, 0);
    for (std::size_t i = 0; i < n; ++i)
        r.for_each(i, [&](std::size_t j) {
            const std::size_t k = domain ? i : j;
            out->set[k / 64] |= std::uint64_t{1} << (k % 64);
        });
    return out;
}

ValPtr map(const ValPtr& over, std::size_t n, const std::function<ValPtr(ValPtr)>& apply, const Pos& p) {
    auto out = std::make_shared<Val>();
    out->kind = Val::Kind::Coll;
    auto each = [&](ValPtr item) { out->items.push_back(apply(std::move(item))); };
    if (over->kind == Val::Kind::Set) {
        for (std::size_t i = 0; i < n; ++i)
            if ((over->set[i / 64] >> (i % 64) & 1u) != 0) {
                auto e = std::make_shared<Val>();
                e->kind = Val::Kind::Event;
                e->a = i;
                each(e);
            }
    } else if (over->kind == Val::Kind::Rel) {
        for (std::size_t i = 0; i < n; ++i)
            over->rel.for_each(i, [&](std::size_t j) {
                auto e = std::make_shared<Val>();
                e->kind = Val::Kind::Pair;
                e->a = i;
                e->b = j;
                each(e);
            });
    } else if (over->kind == Val::Kind::Coll) {
        for (const ValPtr& item : over->items) each(item);
    } else if (over->kind != Val::Kind::Empty) {
        type_error(p, "a set, a relation or a set of values to map over", over);
    }
    return out;
}

ValPtr cross(const ValPtr& sets, std::size_t n, const Pos& p) {
    std::vector<BitRel> acc{BitRel(n)};
    const std::vector<ValPtr> none_items;
    const auto& outer = sets->kind == Val::Kind::Empty ? none_items : sets->items;
    if (sets->kind != Val::Kind::Coll && sets->kind != Val::Kind::Empty) type_error(p, "a set of sets", sets);
    for (const ValPtr& s : outer) {
        if (s->kind != Val::Kind::Coll && s->kind != Val::Kind::Empty) type_error(p, "a set of relations", s);
        std::vector<BitRel> next;
        for (const BitRel& a : acc)
            for (const ValPtr& r : s->items) {
                BitRel u = a;
                u.unite(as_rel(r, n, p));
                next.push_back(std::move(u));
            }
        if (next.size() > 100000) throw CatError(p, "expected at most 100000 candidates, found more");
        acc = std::move(next);
    }
    auto out = std::make_shared<Val>();
    out->kind = Val::Kind::Coll;
    for (BitRel& r : acc) out->items.push_back(rel(std::move(r)));
    return out;
}

ValPtr different_values(const ValPtr& v, const std::vector<Value>& values, std::size_t n, const Pos& p) {
    BitRel r = as_rel(v, n, p), out(n);
    for (std::size_t i = 0; i < n; ++i)
        r.for_each(i, [&](std::size_t j) {
            if (values[i] != values[j]) out.set(i, j);
        });
    return rel(std::move(out));
}

ValPtr total_orders(const ValPtr& args, std::size_t n, const Pos& p) {
    if (args->kind != Val::Kind::Tuple || args->items.size() != 2) type_error(p, "a pair (set, relation)", args);
    auto v = std::make_shared<Val>();
    v->kind = Val::Kind::Orders;
    v->set = as_set(args->items[0], n, p);
    v->rel = as_rel(args->items[1], n, p);
    return v;
}

bool choose_order(const NodeSet& set, const BitRel& base, const BitRel& graph_rf_co, const BitRel& loc, BitRel& chosen) {
    // a word at a time: chosen = rf_co & loc over the set's pairs (no (i, i)); total when
    // every other node of the set at i's location is before or after i in it
    const std::size_t n = chosen.size(), words = chosen.words();
    const auto in = [&](std::size_t i) { return (set[i / 64] >> (i % 64) & 1u) != 0; };
    for (std::size_t i = 0; i < n; ++i) {
        if (!in(i)) continue;
        for (std::size_t w = 0; w < words; ++w) chosen.row(i)[w] = graph_rf_co.row(i)[w] & loc.row(i)[w] & set[w];
        chosen.reset(i, i);
    }
    const BitRel before = chosen.inverse();
    for (std::size_t i = 0; i < n; ++i) {
        if (!in(i)) continue;
        for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t others = loc.row(i)[w] & set[w] & ~chosen.row(i)[w] & ~before.row(i)[w];
            if (w == i / 64) others &= ~(std::uint64_t{1} << (i % 64));
            if (others != 0) return false;
        }
    }
    BitRel missing = base;
    missing.subtract(chosen);
    return missing.empty();
}

bool choose_per_column(const NodeSet& over, const BitRel& options, const BitRel& graph_rf_co, BitRel& chosen) {
    chosen = graph_rf_co;
    chosen.intersect(options);
    // a word of columns at a time: the columns some row has a pair in, and those two rows have
    for (std::size_t w = 0; w < chosen.words(); ++w) {
        std::uint64_t once = 0, twice = 0;
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            twice |= once & chosen.row(i)[w];
            once |= chosen.row(i)[w];
        }
        if ((over[w] & ~once) != 0 || (over[w] & twice) != 0) return false;
    }
    return true;
}

}  // namespace oc::cat::values
