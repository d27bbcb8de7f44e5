// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_inert.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_compile.hpp"

namespace oc::cat {

namespace {

/// Whether the event e is in a set: no, yes, or either.
enum class M : std::uint8_t { No, Yes, Maybe };
M join(M a, M b) { return a == b ? a : M::Maybe; }
M either(M a, M b) {
    if (a == M::Yes || b == M::Yes) return M::Yes;
    return a == M::No ? b : b == M::No ? a : M::Maybe;
}
M both(M a, M b) {
    if (a == M::No || b == M::No) return M::No;
    return a == M::Yes ? b : b == M::Yes ? a : M::Maybe;
}
M negate(M a) { return a == M::No ? M::Yes : a == M::Yes ? M::No : M::Maybe; }

struct Scope;
using Chain = std::shared_ptr<const Scope>;
struct A;
using Args = std::shared_ptr<const std::vector<A>>;

/// Whether a value is a set of events, a relation, or either (0, a set of values).
enum class T : std::uint8_t { Either, Set, Rel };
T kind_of(T a, T b) { return a == T::Either ? b : a; }

/// What is known of a value on a graph with e added, against the graph without it. A set: `mem`
/// (e in it) and `changes` (its other members may differ). A relation: a pair may leave e
/// (`out`), enter it (`in`), be (e, e) (`self`), and its other pairs may differ (`changes`); a
/// set of values (map's, cross's) is known as the union of its members. `ex_rf`, `ex_co`: the
/// pairs at e are exactly the graph's rf (co) pairs at e (the final rf/co check). A function:
/// the model's, with where it was defined, or a built-in one with the arguments given so far.
struct A {
    T type = T::Either;
    M mem = M::No;
    bool out = false, in = false, self = false, changes = false;
    bool must_self = false;  ///< the pair (e, e) is in it (id, [S] of a set that holds e, r*)
    bool ex_rf = false, ex_co = false;
    /// For a sink read, which reads the co-latest write w of its location: every pair leaving e
    /// goes to w (`rf^-1`); no pair leaves a co-latest write (`co`, and `fr`, which leaves
    /// reads); the relation is within the identity (`[S]`). So `rf^-1 ; co` leaves e nowhere.
    /// True of the empty relation; each is dropped as pairs may be added.
    bool to_src = true, quiet = true, ident = true;
    bool undefined = false;  ///< names what is not defined (a `try` takes its other branch)
    /// Empty on the graph, e included: `0`, and under Lock::Free the lock sets (LKR, LKW, UL,
    /// LF, RL, RU) and what only they build. `x | none` is x itself, `x ; none` is none.
    bool none = false;
    /// Which value it is, when that is known: 1 the prelude's W, 2 its co0, 3 the graph's co (0:
    /// not known). Kept only by what leaves the value as it is (`x | none`; `co+`, co being
    /// transitive), for cos-opt.cat's `with` and the final co check.
    std::uint8_t same = 0;
    const Binding* fn = nullptr;
    const std::vector<Binding>* group = nullptr;  ///< fn's `let rec` group: visible in its body
    Chain fenv;
    std::string native;
    Args args;
    bool pairs() const { return out || in || self; }
    bool is_fn() const { return fn != nullptr || !native.empty(); }
    bool operator==(const A& o) const {
        return type == o.type && mem == o.mem && out == o.out && in == o.in && self == o.self &&
               changes == o.changes && must_self == o.must_self && ex_rf == o.ex_rf && ex_co == o.ex_co &&
               to_src == o.to_src && quiet == o.quiet && ident == o.ident && undefined == o.undefined && none == o.none &&
               same == o.same && fn == o.fn &&
               group == o.group && fenv == o.fenv && native == o.native && args == o.args;
    }
};
A anything() {
    A a;
    a.mem = M::Maybe;
    a.out = a.in = a.self = a.changes = true;
    a.to_src = a.quiet = a.ident = false;
    return a;
}
/// Either value (a `try` whose first branch may fail, a fixpoint's iterates).
A joined(const A& a, const A& b) {
    if (a.is_fn() || b.is_fn()) return a == b ? a : anything();
    A r;
    r.type = a.type == b.type ? a.type : T::Either;
    r.mem = join(a.mem, b.mem);
    r.out = a.out || b.out;
    r.in = a.in || b.in;
    r.self = a.self || b.self;
    r.changes = a.changes || b.changes;
    r.must_self = a.must_self && b.must_self;
    r.to_src = a.to_src && b.to_src;
    r.quiet = a.quiet && b.quiet;
    r.ident = a.ident && b.ident;
    r.ex_rf = a.ex_rf && b.ex_rf;
    r.ex_co = a.ex_co && b.ex_co;
    r.undefined = a.undefined && b.undefined;
    r.none = a.none && b.none;
    r.same = a.same == b.same ? a.same : 0;
    return r;
}
/// The value known empty on the graph.
A none_value(T type, bool undefined) {
    A a;
    a.type = type;
    a.none = true;
    a.undefined = undefined;
    return a;
}

struct Scope {
    std::uint32_t sym;
    A value;
    Chain parent;
};
const A* find(const Chain& c, std::uint32_t sym) {
    for (const Scope* s = c.get(); s != nullptr; s = s->parent.get())
        if (s->sym == sym) return &s->value;
    return nullptr;
}
Chain bind(Chain c, std::uint32_t sym, A value) {
    return std::make_shared<const Scope>(Scope{sym, std::move(value), std::move(c)});
}

class Walk {
public:
    Walk(const Dialect& dialect, const std::vector<ExecutionGraph>& probes, EventId e, Place place, Lock lock) {
        const Event& ev = probes.front().event(e);
        rf_at_e_ = place == Place::Sink && ev.kind == EventKind::Read;
        co_at_e_ = place == Place::Sink && ev.kind == EventKind::Write;
        const auto [sets, rels] = builtin_names(dialect);
        std::vector<M> mem(sets.size(), M::No);
        for (std::size_t p = 0; p < probes.size(); ++p) {
            Builtins b;
            builtins_into(b, probes[p], dialect, 0);
            const std::size_t node = b.nodes.of(e);
            for (std::size_t k = 0; k < sets.size(); ++k) {
                const auto it = b.sets.find(sets[k]);
                const bool in = it != b.sets.end() && (it->second[node / 64] >> (node % 64) & 1u) != 0;
                const M m = in ? M::Yes : M::No;
                mem[k] = p == 0 ? m : join(mem[k], m);
            }
        }
        for (std::size_t k = 0; k < sets.size(); ++k) {
            A a;
            a.type = T::Set;
            a.mem = mem[k];
            a.changes = sets[k] == "FW" && co_at_e_;  // the write placed co-latest is the final one now
            if (lock == Lock::Free && mem[k] == M::No && lock_set(sets[k])) a.none = true;
            chain_ = bind(chain_, symbol(sets[k]), a);
        }
        const bool located = ev.location.has_value();
        for (const std::string& r : rels) {
            A a;
            a.type = T::Rel;
            a.quiet = r == "co" || r == "fr";  // co-latest: no co after it; fr leaves reads
            a.ident = r == "id";
            if (r == "po" || r == "addr" || r == "data" || r == "ctrl") a.in = true;  // e is last: nothing after it
            else if (r == "rf") a.in = rf_at_e_, a.ex_rf = true;
            else if (r == "co") a.in = co_at_e_, a.ex_co = true;
            else if (r == "fr") a.in = co_at_e_;  // a sink read reads the co-latest write: no fr out of it
            else if (r == "loc") a.out = a.in = a.self = located;
            else if (r == "int") a.out = a.in = a.self = true;
            else if (r == "ext") a.out = a.in = true;
            else if (r == "id") a.self = a.must_self = true;
            else if (r != "rmw") a = anything();  // rmw: e is no RMW
            a.to_src = !a.out;
            if (r == "co") a.same = 3;
            chain_ = bind(chain_, symbol(r), a);
        }
        for (const char* n : {"domain", "range", "map", "cross", "different-values", "total-orders"}) {
            A a;
            a.native = n;
            chain_ = bind(chain_, symbol(n), a);
        }
    }

    /// Whether every axiom, `with` and final rf/co check lets e in.
    bool statements(const std::vector<Stmt>& in) {
        for (const Stmt& s : in)
            if (!statement(s)) return false;
        return true;
    }
    bool final_checks() const {
        const A* rf = find(chain_, symbol("rf"));
        const A* co = find(chain_, symbol("co"));
        return rf != nullptr && co != nullptr && !rf->changes && !co->changes && exact(*rf, true) && exact(*co, false);
    }
    /// After the prelude: `W` and `co0` as the prelude leaves them, which `with co from
    /// total-orders(W, co0)` reads (cos-opt.cat).
    void mark_prelude() {
        for (const auto& [name, tag] : {std::pair<const char*, std::uint8_t>{"W", 1}, {"co0", 2}})
            if (const A* a = find(chain_, symbol(name))) {
                A v = *a;
                v.same = tag;
                chain_ = bind(chain_, symbol(name), v);
            }
    }

private:
    bool rf_at_e_ = false, co_at_e_ = false;  ///< the graph's rf (co) has a pair at e
    Chain chain_;

    /// lock.cat's sets, built from the lock events alone (cat_builtins.cpp).
    static bool lock_set(const std::string& name) {
        return name == "LKR" || name == "LKW" || name == "UL" || name == "LF" || name == "RL" || name == "RU";
    }

    /// The pairs at e of `a` are exactly the graph's rf (`rf`) or co pairs at e.
    bool exact(const A& a, bool rf) const {
        if (rf ? a.ex_rf : a.ex_co) return true;
        return !a.pairs() && !(rf ? rf_at_e_ : co_at_e_);
    }

    A expr(const Expr& e, const Chain& env, int depth) {
        using Op = Expr::Op;
        if (depth > 200) return anything();
        const auto sub = [&](std::size_t k) { return expr(*e.args[k], env, depth + 1); };
        switch (e.op) {
        case Op::Var: {
            const A* a = find(env, e.sym);
            if (a == nullptr) {
                A u = anything();
                u.undefined = true;
                return u;
            }
            return *a;
        }
        case Op::Empty: return none_value(T::Either, false);
        case Op::Universe: {
            A a;
            a.type = T::Set;
            a.mem = M::Yes;
            return a;
        }
        case Op::Union:
        case Op::Add:
        case Op::Inter:
        case Op::Diff:
        case Op::Seq:
        case Op::Cartesian: return binary(e.op, sub(0), sub(1));
        case Op::Star:
        case Op::Plus:
        case Op::Opt: {
            const A a = sub(0);
            if (a.is_fn()) return anything();
            if (a.none && e.op == Op::Plus) return none_value(T::Rel, a.undefined);
            if (a.same == 3 && e.op == Op::Plus) return a;  // the graph's co is transitive
            A r = a;
            r.type = T::Rel;
            r.ex_rf = r.ex_co = false;
            r.none = false, r.same = 0;  // r* and r? hold id
            // a path from e goes on from w only if a pair leaves w
            const bool stops = a.to_src && a.quiet;
            if (e.op != Op::Opt) {
                r.self = a.self || (a.out && a.in && !stops);
                r.changes = a.changes || (a.in && a.out);
            }
            r.to_src = !a.out || stops;
            if (e.op != Op::Plus) r.self = r.must_self = true, r.quiet = false;
            return r;
        }
        case Op::Inverse: {
            A a = sub(0);
            if (a.is_fn()) return anything();
            // the pairs at e exactly the graph's rf there (a sink read's (w, e)): reversed, they
            // lead to w only
            a.to_src = !a.in || a.ex_rf;
            std::swap(a.out, a.in);
            a.type = T::Rel;  // (e, e) stays
            a.ex_rf = a.ex_co = false;
            a.same = 0;  // none stays none
            a.quiet = false;
            return a;
        }
        case Op::Complement: {
            const A a = sub(0);
            if (a.is_fn()) return anything();
            // a set's complement holds e when the set does not; a relation's may hold any pair
            // at e (0's: either, both said)
            A r;
            r.type = a.type;
            r.mem = a.type == T::Rel ? M::No : negate(a.mem);
            r.out = r.in = r.self = a.type != T::Set;
            r.to_src = r.quiet = r.ident = a.type == T::Set;
            r.changes = a.changes;
            r.undefined = a.undefined;
            return r;
        }
        case Op::Identity: {
            const A a = sub(0);
            if (a.is_fn()) return anything();
            A r;
            r.type = T::Rel;
            r.self = a.mem != M::No;
            r.must_self = a.mem == M::Yes;
            r.quiet = false;  // w may be in the set
            r.changes = a.changes;
            r.undefined = a.undefined;
            if (a.none) return none_value(T::Rel, a.undefined);
            return r;
        }
        case Op::App: {
            if (e.args[0]->op == Op::Var && e.args[0]->name == "tag2set" && e.args[1]->op == Op::Tag) {
                const A* a = find(env, symbol(tag_set_name(e.args[1]->name)));
                return a != nullptr ? *a : anything();
            }
            return apply(sub(0), *e.args[1], env, depth);
        }
        case Op::SetLit: {
            A r;
            for (std::size_t k = 0; k < e.args.size(); ++k) r = k == 0 ? sub(k) : binary(Op::Union, r, sub(k));
            return r;
        }
        case Op::Try: {
            const A a = sub(0);
            const A b = sub(1);
            return a.undefined ? b : joined(a, b);  // a type error takes the other branch too
        }
        case Op::Let: return expr(*e.args[0], group(e.bindings, e.rec, env, depth), depth + 1);
        default: return anything();  // a tag as a value, a tuple outside an application
        }
    }

    A binary(Expr::Op op, const A& a, const A& b) const {
        using Op = Expr::Op;
        if (a.is_fn() || b.is_fn()) return anything();
        // an operand empty on the graph: the other one as it is, or nothing
        if (a.none || b.none) {
            const bool undefined = a.undefined || b.undefined;
            const T type = op == Op::Seq || op == Op::Cartesian ? T::Rel : kind_of(a.type, b.type);
            switch (op) {
            case Op::Union:
            case Op::Add: {
                A r = a.none ? b : a;
                if (r.type == T::Either) r.type = type;
                r.undefined = undefined;
                return r;
            }
            case Op::Diff:
                if (!a.none) {
                    A r = a;
                    r.undefined = undefined;
                    return r;
                }
                return none_value(type, undefined);
            default: return none_value(type, undefined);  // Inter, Seq, Cartesian
            }
        }
        A r;
        r.type = op == Op::Seq || op == Op::Cartesian ? T::Rel : kind_of(a.type, b.type);
        r.changes = a.changes || b.changes;
        r.undefined = a.undefined || b.undefined;
        switch (op) {
        case Op::Union:
        case Op::Add:
            r.mem = either(a.mem, b.mem);
            r.out = a.out || b.out, r.in = a.in || b.in, r.self = a.self || b.self;
            r.must_self = a.must_self || b.must_self;
            // each side's pairs at e are the graph's rf (co) pairs there or none, one side's are
            r.ex_rf = (a.ex_rf || !a.pairs()) && (b.ex_rf || !b.pairs()) && (a.ex_rf || b.ex_rf);
            r.ex_co = (a.ex_co || !a.pairs()) && (b.ex_co || !b.pairs()) && (a.ex_co || b.ex_co);
            r.to_src = a.to_src && b.to_src, r.quiet = a.quiet && b.quiet, r.ident = a.ident && b.ident;
            break;
        case Op::Inter:
            r.mem = both(a.mem, b.mem);
            r.out = a.out && b.out, r.in = a.in && b.in, r.self = a.self && b.self;
            r.must_self = a.must_self && b.must_self;
            r.to_src = a.to_src || b.to_src, r.quiet = a.quiet || b.quiet, r.ident = a.ident || b.ident;
            break;
        case Op::Diff:
            r.mem = both(a.mem, negate(b.mem));
            r.out = a.out, r.in = a.in, r.self = a.self && !b.must_self;
            r.must_self = a.must_self && !b.self;
            r.to_src = a.to_src, r.quiet = a.quiet, r.ident = a.ident;
            break;
        case Op::Seq: {
            // (e, z): e a y, y b z, with y = e or not (y = w, the write a sink read reads, leads
            // nowhere when a leaves e only to w and nothing leaves w in b); an old pair through
            // e: x a e, e b z
            const bool via = a.to_src && b.quiet;
            r.out = (a.out && !via) || (a.self && b.out);
            r.in = b.in || (b.self && a.in);
            r.self = (a.self && b.self) || (a.out && b.in && !via);
            r.must_self = a.must_self && b.must_self;
            r.changes = r.changes || (a.in && b.out);
            r.to_src = (!a.out || via || (a.to_src && b.ident)) && (!a.self || b.to_src);
            r.quiet = a.quiet || (a.ident && b.quiet);
            r.ident = a.ident && b.ident;
            break;
        }
        default:  // Cartesian
            r.out = a.mem != M::No;
            r.in = b.mem != M::No;
            r.self = a.mem != M::No && b.mem != M::No;
            r.must_self = a.mem == M::Yes && b.mem == M::Yes;
            r.quiet = r.ident = false;
            break;
        }
        r.to_src = r.to_src || !r.out;
        return r;
    }

    A apply(const A& f, const Expr& arg_expr, const Chain& env, int depth) {
        if (!f.native.empty()) {
            const A arg = expr(arg_expr, env, depth + 1);
            std::vector<A> args = f.args ? *f.args : std::vector<A>{};
            args.push_back(arg);
            const std::size_t arity = f.native == "map" ? 2 : 1;
            if (args.size() < arity) {
                A partial = f;
                partial.args = std::make_shared<const std::vector<A>>(std::move(args));
                return partial;
            }
            return native(f.native, args, env, depth);
        }
        if (f.fn == nullptr) return anything();
        const Binding& b = *f.fn;
        Chain scope = f.fenv;
        if (f.group != nullptr) scope = functions(*f.group, f.fenv, scope);
        if (b.params.size() == 1 && !(b.tuple_params && arg_expr.op == Expr::Op::Tuple)) {
            scope = bind(scope, b.param_syms[0], expr(arg_expr, env, depth + 1));
        } else if (b.tuple_params && arg_expr.op == Expr::Op::Tuple && arg_expr.args.size() == b.params.size()) {
            for (std::size_t k = 0; k < b.params.size(); ++k)
                scope = bind(scope, b.param_syms[k], expr(*arg_expr.args[k], env, depth + 1));
        } else {
            return anything();
        }
        return expr(*b.body, scope, depth + 1);
    }

    A native(const std::string& name, const std::vector<A>& args, const Chain& env, int depth) {
        const A& a = args.back();
        if (a.is_fn()) return anything();
        A r;
        r.undefined = a.undefined;
        if (a.none && name != "map") return none_value(name == "domain" || name == "range" ? T::Set : a.type, a.undefined);
        if (name == "domain" || name == "range") {
            const bool d = name == "domain";
            r.type = T::Set;
            r.mem = (d ? a.out : a.in) || a.self ? M::Maybe : M::No;
            r.changes = a.changes || (d ? a.in : a.out);  // an old event gains a pair with e
            return r;
        }
        if (name == "cross" || name == "different-values") {  // the union of the candidates; a part of r
            r = a;
            r.ex_rf = r.ex_co = r.must_self = false;  // one candidate need not hold all the union does
            r.same = 0;
            return r;
        }
        if (name == "map") {
            // f on one member of the set: an event, a pair or a value that may be e's or not
            A member = a;
            if (member.mem == M::Yes) member.mem = M::Maybe;
            member.ex_rf = member.ex_co = member.must_self = false;
            const A& f = args[0];
            if (!f.is_fn()) return anything();
            if (a.none) return none_value(T::Either, a.undefined);  // over no member: no value
            auto one = std::make_shared<Expr>();
            one->op = Expr::Op::Var;
            one->name = "ordercheck: member";
            one->sym = symbol(one->name);
            const Chain with_member = bind(env, one->sym, member);
            A out = apply(f, *one, with_member, depth + 1);
            out.ex_rf = out.ex_co = false;
            return out;
        }
        return anything();  // total-orders outside `with co from`
    }

    /// The functions of a `let rec` group, each seeing the group.
    static Chain functions(const std::vector<Binding>& bindings, const Chain& fenv, Chain into) {
        for (const Binding& b : bindings) {
            if (b.params.empty()) continue;
            A f;
            f.fn = &b;
            f.group = &bindings;
            f.fenv = fenv;
            into = bind(std::move(into), b.sym, f);
        }
        return into;
    }

    /// The bindings of a let over `env`: a `let rec`'s values as the least fixpoint, iterated
    /// from nothing (every iterate joined with the last, so that it ends: the values are of
    /// finite height).
    Chain group(const std::vector<Binding>& bindings, bool rec, const Chain& env, int depth) {
        if (!rec) {
            Chain out = env;
            for (const Binding& b : bindings) {
                A v;
                if (!b.params.empty()) {
                    v.fn = &b;
                    v.fenv = env;
                } else {
                    v = expr(*b.body, env, depth + 1);
                }
                out = bind(out, b.sym, v);
            }
            return out;
        }
        const Chain fns = functions(bindings, env, env);
        std::vector<A> now(bindings.size());
        for (int round = 0; round < 64; ++round) {
            Chain c = fns;
            for (std::size_t k = 0; k < bindings.size(); ++k)
                if (bindings[k].params.empty()) c = bind(c, bindings[k].sym, now[k]);
            bool same = true;
            std::vector<A> next = now;
            for (std::size_t k = 0; k < bindings.size(); ++k) {
                if (!bindings[k].params.empty()) continue;
                next[k] = joined(now[k], expr(*bindings[k].body, c, depth + 1));
                same = same && next[k] == now[k];
            }
            if (same) return c;
            now = std::move(next);
        }
        Chain c = fns;
        for (const Binding& b : bindings)
            if (b.params.empty()) c = bind(c, b.sym, anything());
        return c;
    }

    bool statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Let: chain_ = group(s.bindings, s.rec, chain_, 0); return true;
        case Stmt::Kind::With: {
            const Expr& x = *s.expr;
            // `with co from total-orders(S, r)` (cos-opt.cat) chooses the graph's co over S. With
            // the prelude's W and co0 the graph's co is always a candidate (the initial writes
            // first, the co-latest last), so it is chosen and it is the graph's co; otherwise the
            // same candidate is chosen with e as without when e is not in S, no pair of r is at
            // e, and neither changes
            if (x.op == Expr::Op::App && x.args[0]->op == Expr::Op::Var && x.args[0]->name == "total-orders" &&
                x.args[1]->op == Expr::Op::Tuple && x.args[1]->args.size() == 2) {
                const Expr& set = *x.args[1]->args[0];
                const Expr& rel = *x.args[1]->args[1];
                A co;
                const A* w = set.op == Expr::Op::Var ? find(chain_, set.sym) : nullptr;
                const A* co0 = rel.op == Expr::Op::Var ? find(chain_, rel.sym) : nullptr;
                if (w != nullptr && co0 != nullptr && w->same == 1 && co0->same == 2) {
                    co.type = T::Rel;
                    co.in = co_at_e_;
                    co.ex_co = true;
                    co.quiet = true;  // co-latest: no co pair leaves the write a sink read reads
                    co.ident = false;
                    co.same = 3;
                } else {
                    const A s_ = expr(set, chain_, 0), r_ = expr(rel, chain_, 0);
                    if (s_.is_fn() || r_.is_fn() || s_.changes || r_.changes || s_.mem != M::No || r_.pairs()) return false;
                }
                chain_ = bind(chain_, s.sym, co);
                return true;
            }
            // otherwise the same candidate is chosen with e as without only when no candidate
            // has a pair at e and none changes
            const A c = expr(x, chain_, 0);
            if (c.is_fn() || c.pairs() || c.changes) return false;
            chain_ = bind(chain_, s.sym, c);
            return true;
        }
        case Stmt::Kind::Include:
            if (!s.intrinsic) return statements(s.included);
            if (s.name == "cos.cat" || s.name == "cos-opt.cat") return statements(cos_opt().statements);
            return true;  // cross.cat: built-in functions
        case Stmt::Kind::Enum:
        case Stmt::Kind::Ignored: return true;
        case Stmt::Kind::Check: {
            if (s.flag) return true;  // a warning, not an axiom
            const A a = expr(*s.expr, chain_, 0);
            if (a.is_fn() || a.changes) return false;
            if (s.negated) return true;  // ~empty, ~acyclic...: what held of the old events holds
            switch (s.test) {
            case Stmt::Test::Acyclic: return !a.self && !(a.out && a.in);
            case Stmt::Test::Irreflexive: return !a.self;
            case Stmt::Test::Empty: return !a.pairs() && a.mem == M::No;
            }
            return false;
        }
        }
        return false;
    }
};

}  // namespace

bool inert_event(const Model& model, const std::vector<ExecutionGraph>& probes, EventId e, Place place, Lock lock) {
    if (probes.empty()) return false;
    const Event& ev = probes.front().event(e);
    if (ev.kind != EventKind::Fence && ev.kind != EventKind::Read && ev.kind != EventKind::Write) return false;
    if (place == Place::Sink && ev.kind == EventKind::Fence) return false;
    if (place == Place::Last && ev.kind != EventKind::Fence && (ev.kind != EventKind::Read || ev.reads_from)) return false;
    Walk walk(model.dialect, probes, e, place, lock);
    if (!walk.statements(prelude().statements)) return false;
    walk.mark_prelude();
    return walk.statements(model.statements) && walk.final_checks();
}

}  // namespace oc::cat
