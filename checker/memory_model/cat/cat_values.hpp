// SPDX-License-Identifier: MIT
// The values and scopes of the cat evaluator (cat_eval.cpp): internal to it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "traces/execution_graph.hpp"

namespace oc::cat::values {

using lkmm::NodeSet;

struct Val;
using ValPtr = std::shared_ptr<const Val>;
struct Scope;
using Env = std::shared_ptr<const Scope>;

/// A value of the cat language.
struct Val {
    enum class Kind {
        Empty,   ///< 0, {}: the empty set, relation or collection, as the context needs
        Set,     ///< a set of events
        Rel,     ///< a relation
        Event,   ///< one event (a member of a set being mapped over)
        Pair,    ///< one pair (a member of a relation being mapped over)
        Coll,    ///< a set of other values (the candidates of `with`)
        Tuple,   ///< (a, b)
        Func,    ///< a function of the model
        Native,  ///< a built-in function
        Orders,  ///< the total orders of each location's `set` that extend `rel` (cos-opt.cat)
    };
    Kind kind = Kind::Empty;
    NodeSet set;
    BitRel rel{0};
    std::size_t a = 0, b = 0;
    std::vector<ValPtr> items;
    // Func: the model's binding (its parameters and body) and the scope it was defined in
    const Binding* func = nullptr;
    Env env;
    // Native: applied to its argument; `items` holds the arguments given so far (curried)
    struct Native {
        std::function<ValPtr(const std::vector<ValPtr>&, const Pos&)> fn;
        std::size_t arity = 1;
    };
    std::shared_ptr<const Native> native;
};

struct Scope {
    std::uint32_t sym;  ///< symbol(name): lookups compare it
    mutable ValPtr value;  ///< mutable while a `let rec` iterates, and when a lazy binding is forced
    Env parent;
    /// A top-level binding not evaluated yet: its expression and the scope it is evaluated in.
    /// The first lookup evaluates it (so that a check evaluates only what it needs).
    mutable const Expr* lazy = nullptr;
    mutable Env lazy_env;
    /// A top-level binding's place among them (1, 2...; Evaluator::top_ finds it without walking
    /// the chain); 0 for a function's parameter or a `let ... in`'s name.
    mutable std::uint32_t seq = 0;
    /// What made a top-level binding (its Binding, or its `with` Stmt; nullptr: a builtin), and
    /// its compiled operation when it has one (-1: its expression is evaluated).
    mutable const void* origin = nullptr;
    mutable int code = -1;
};

inline Env bind_name(Env env, std::uint32_t sym, ValPtr v) {
    return std::make_shared<const Scope>(Scope{sym, std::move(v), std::move(env), nullptr, nullptr});
}
inline Env bind_name(Env env, const std::string& name, ValPtr v) { return bind_name(std::move(env), symbol(name), std::move(v)); }

inline const char* kind_name(Val::Kind k) {
    switch (k) {
    case Val::Kind::Empty: return "the empty set";
    case Val::Kind::Set: return "a set of events";
    case Val::Kind::Rel: return "a relation";
    case Val::Kind::Event: return "an event";
    case Val::Kind::Pair: return "a pair of events";
    case Val::Kind::Coll: return "a set of values";
    case Val::Kind::Tuple: return "a tuple";
    case Val::Kind::Func: return "a function";
    case Val::Kind::Native: return "a built-in function";
    case Val::Kind::Orders: return "a set of orders";
    }
    return "?";
}

/// Per symbol, its top-level bindings by seq, and the bindings by seq: kept with the scopes
/// (cat_eval.cpp's Base) from one graph to the next.
struct TopIndex {
    std::vector<std::vector<std::pair<std::uint32_t, const Scope*>>> by_sym;
    std::vector<std::uint32_t> used;  ///< the symbols with bindings in by_sym
    std::vector<const Scope*> fresh;  ///< index_top()'s scratch
    std::vector<const Scope*> by_seq;  ///< the top-level bindings by seq
    std::uint32_t indexed = 0;         ///< by_seq and by_sym hold seqs 1..indexed
    /// Forgets seqs from `seq` on (their scopes are no longer the chain's).
    void drop_from(std::uint32_t seq) {
        for (const std::uint32_t sym : used)
            while (!by_sym[sym].empty() && by_sym[sym].back().first >= seq) by_sym[sym].pop_back();
        std::erase_if(used, [&](std::uint32_t sym) { return by_sym[sym].empty(); });
        indexed = seq - 1;
    }
};

// ---- built-in functions (cat_natives.cpp) over a graph of n nodes ----
/// Their names, in the order the evaluator binds them (after the builtins).
const std::vector<std::string>& native_names();
[[noreturn]] void type_error(const Pos& p, const std::string& expected, const ValPtr& found);
/// `v` as a relation or a set (the empty value: the empty one); a type error otherwise.
BitRel as_rel(const ValPtr& v, std::size_t n, const Pos& p);
lkmm::NodeSet as_set(const ValPtr& v, std::size_t n, const Pos& p);
/// domain(r), range(r)
ValPtr domain_range(const ValPtr& v, bool domain, std::size_t n, const Pos& p);
/// map f S: f (given as `apply`) applied to each event of a set, pair of a relation or value
/// of a set of values.
ValPtr map(const ValPtr& over, std::size_t n, const std::function<ValPtr(ValPtr)>& apply, const Pos& p);
/// cross({S1, ..., Sk}): every union of one member of each Si (cross.cat).
ValPtr cross(const ValPtr& sets, std::size_t n, const Pos& p);
/// different-values(r): the pairs of r whose events' values differ.
ValPtr different_values(const ValPtr& v, const std::vector<Value>& values, std::size_t n, const Pos& p);
/// total-orders(S, r): the value `with co from` reads the graph's co by (cat_eval.cpp).
ValPtr total_orders(const ValPtr& args, std::size_t n, const Pos& p);

/// `with x from total-orders(set, base)`: the candidate the graph is, x = its rf | co
/// (`graph_rf_co`) over the pairs of `set` at one location (`loc`), into `chosen`; true when
/// that is a total order of each location's events of `set` that extends `base`.
bool choose_order(const NodeSet& set, const BitRel& base, const BitRel& graph_rf_co, const BitRel& loc, BitRel& chosen);
/// `with x from cross(candidates)`, the candidates being one pair of `options` in each column
/// of `over` (lock.cat's rf of a lock event, cat_compile.cpp's choices()): x = graph_rf_co &
/// options into `chosen`; true when each column of `over` holds exactly one pair of it (a
/// column without options has no candidate, and an empty `over` has one: the empty relation).
bool choose_per_column(const NodeSet& over, const BitRel& options, const BitRel& graph_rf_co, BitRel& chosen);

}  // namespace oc::cat::values
