// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_guess.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_compile.hpp"
#include "checker/memory_model/cat/cat_values.hpp"

namespace oc::cat {

namespace {

/// How a value computed on a graph of one thread's events, without rf and co, relates to its
/// value over a complete execution that holds those events (restricted to them):
/// - Local: the same, and a relation whose pairs are within one thread, so that composing it
///   needs no event of another thread (po, addr, [S] of a set decided by the event itself);
/// - Exact: the same on every event and pair (loc, ext, the events' tags, ~S);
/// - Lower: contained in it (rf, co and fr are empty there; a composition misses the events of
///   other threads; the empty relation a `with` is bound to);
/// - Any: no relation known (FW, a difference whose right side is not Exact, map, cross).
/// A Lower value may stand only where the model is monotone: never on the right of `\` or under
/// `~`. An Any value where the model is monotone is replaced by 0 in the derived model.
enum class C : std::uint8_t { Any, Lower, Exact, Local };
C lowest(C a, C b) { return a < b ? a : b; }

/// What a value holds whatever the execution: rf (the graph's reads-from), its edges between
/// threads, po, po restricted to one location; loc and ext help to decide those of `r & ext`,
/// `po & loc`. `dom` and `ran` restrict it to sets, by the names of the derived model's bindings
/// of them.
enum class Tok : std::uint8_t { Rf, Rfe, Po, PoLoc, Loc, Ext };
struct Cover {
    Tok tok;
    std::vector<std::string> dom, ran;
};

struct Entry;
struct Top;
struct Local;
/// The names an expression sees: the top-level ones as they were at version `at`, under the
/// local ones (a local `let`'s, a function's parameters), innermost first.
struct Env {
    const Top* top = nullptr;
    std::uint32_t at = 0;
    const Local* local = nullptr;
    const Entry* find(std::uint32_t sym) const;
};
struct Entry {
    C c = C::Lower;
    std::vector<Cover> cover;
    const Binding* fn = nullptr;
    Env fenv;  ///< a function's: where it was defined
    std::string native;
    bool whole = false;  ///< R::whole
};
/// The top-level names, every binding kept with the version it was made at, so that a function
/// sees the names of where it was defined without a copy of them.
struct Top {
    std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, Entry>>> names;
    std::uint32_t version = 0;
    Entry& set(std::uint32_t sym, Entry e) {
        auto& h = names[sym];
        h.emplace_back(++version, std::move(e));
        return h.back().second;
    }
    const Entry* find(std::uint32_t sym, std::uint32_t at) const {
        const auto it = names.find(sym);
        if (it == names.end()) return nullptr;
        for (auto v = it->second.rbegin(); v != it->second.rend(); ++v)
            if (v->first <= at) return &v->second;
        return nullptr;
    }
    Env now() const { return Env{this, version, nullptr}; }
};
struct Local {
    std::map<std::uint32_t, Entry> names;
    const Local* parent = nullptr;
};
const Entry* Env::find(std::uint32_t sym) const {
    for (const Local* l = local; l != nullptr; l = l->parent) {
        const auto it = l->names.find(sym);
        if (it != l->names.end()) return &it->second;
    }
    return top->find(sym, at);
}

struct R {
    C c = C::Local;
    bool undefined = false;  ///< names what is not defined (a `try` takes its other branch)
    bool replaced = false;   ///< some part was replaced by 0 (a function body cannot be)
    std::vector<Cover> cover;
    ExprPtr out;             ///< the expression in the derived model
    /// a relation whose every pair joins two parts of one event (id, a native RMW's rmw, and
    /// their unions, intersections and restrictions): a graph holds both ends of each pair
    /// whenever it holds one, so its domain and range are exact in the context-monotone copy
    bool whole = false;
};

ExprPtr make(Expr::Op op, const Pos& pos, std::vector<ExprPtr> args = {}) { return make_expr(op, pos, std::move(args)); }
ExprPtr var(const std::string& name, const Pos& pos) {
    auto e = std::make_shared<Expr>();
    e->op = Expr::Op::Var;
    e->pos = pos;
    e->name = name;
    e->sym = symbol(name);
    return e;
}

/// `let name = body`, a statement of the derived model.
Stmt let_stmt(const std::string& name, ExprPtr body, const Pos& pos) {
    Stmt st;
    st.kind = Stmt::Kind::Let;
    st.pos = pos;
    Binding b;
    b.name = name;
    b.sym = symbol(name);
    b.body = std::move(body);
    b.pos = pos;
    st.bindings.push_back(std::move(b));
    return st;
}

struct Candidate {
    std::size_t check = 0;  ///< its number among the checks, in order
    std::string name;
};

class Walk {
public:
    Walk(const Dialect& dialect, std::size_t target, bool context_monotone)
        : target_(target), cm_(context_monotone) {
        const auto [sets, rels] = builtin_names(dialect);
        for (const std::string& s : sets) top_.set(symbol(s), Entry{s == "FW" ? C::Any : C::Exact, {}, nullptr, {}, ""});
        for (const std::string& r : rels) {
            Entry e;
            if (r == "po" || r == "int" || r == "id" || r == "rmw" || r == "addr" || r == "data" || r == "ctrl") e.c = C::Local;
            else if (r == "loc" || r == "ext") e.c = C::Exact;
            else e.c = C::Lower;  // rf, co, fr: empty on the thread's graph
            e.whole = r == "id" || r == "rmw";
            if (r == "rf") e.cover = {{Tok::Rf, {}, {}}};
            if (r == "po") e.cover = {{Tok::Po, {}, {}}};
            if (r == "loc") e.cover = {{Tok::Loc, {}, {}}};
            if (r == "ext") e.cover = {{Tok::Ext, {}, {}}};
            top_.set(symbol(r), std::move(e));
        }
        for (const std::string& n : values::native_names()) {
            Entry e;
            e.native = n;
            top_.set(symbol(n), std::move(e));
        }
    }

    std::vector<Candidate> candidates;
    std::vector<std::string> coherence;  ///< the axioms over po-loc and rf, unrestricted
    bool done = false;                   ///< the target check was reached

    void statements(const std::vector<Stmt>& in, std::vector<Stmt>& out) {
        for (const Stmt& s : in) {
            if (done) return;
            statement(s, out);
        }
    }

private:
    Top top_;
    std::size_t target_;
    /// The context-monotone copy (guess_order()): a value over more events of the thread may
    /// only be larger, so a composition, a closure, a domain or a range of thread-local
    /// relations is Lower, not Local or Exact (it may pass through an event the graph lacks).
    bool cm_;
    std::size_t checks_ = 0;
    std::size_t sets_ = 0;
    std::vector<Stmt> pending_;  ///< the set bindings a cover names, emitted before the statement

    static void keep(R& r, const R& part) {
        r.replaced = r.replaced || part.replaced;
        r.undefined = r.undefined || part.undefined;
    }
    /// `r` where the model is monotone: an Any value is replaced by 0.
    static R lower(R r, const Pos& pos) {
        if (r.c == C::Any) {
            r.c = C::Lower;
            r.out = make(Expr::Op::Empty, pos);
            r.replaced = true;
        }
        return r;
    }
    static R any(const ExprPtr& e) { return R{C::Any, false, false, {}, e}; }

    std::string set_binding(const ExprPtr& set, const Env& env, const Pos& pos) {  // env: the top level
        std::string name = "ordercheck: set " + std::to_string(sets_++);
        pending_.push_back(let_stmt(name, lower(expr(set, env, false, 0), pos).out, pos));
        return name;
    }

    static std::vector<Cover> meet(const std::vector<Cover>& a, const std::vector<Cover>& b) {
        std::vector<Cover> out;
        for (const Cover& x : a)
            for (const Cover& y : b) {
                const auto both = [&](Tok t) {
                    Cover c{t, x.dom, x.ran};
                    c.dom.insert(c.dom.end(), y.dom.begin(), y.dom.end());
                    c.ran.insert(c.ran.end(), y.ran.begin(), y.ran.end());
                    out.push_back(std::move(c));
                };
                const auto is = [&](Tok p, Tok q) { return (x.tok == p && y.tok == q) || (x.tok == q && y.tok == p); };
                if (x.tok == y.tok) both(x.tok);
                else if (is(Tok::Rf, Tok::Ext)) both(Tok::Rfe);
                else if (is(Tok::Po, Tok::Loc)) both(Tok::PoLoc);
            }
        return out;
    }

    R expr(const ExprPtr& e, const Env& env, bool top_body, int depth) {
        using Op = Expr::Op;
        const Pos& p = e->pos;
        if (depth > 64) return any(e);
        const auto sub = [&](std::size_t k, bool top = false) {
            return lower(expr(e->args[k], env, top, depth + 1), e->args[k]->pos);
        };
        const auto rebuilt = [&](std::vector<R> parts) {
            std::vector<ExprPtr> args;
            for (const R& r : parts) args.push_back(r.out);
            auto out = std::make_shared<Expr>(*e);
            out->args = std::move(args);
            return ExprPtr(out);
        };
        switch (e->op) {
        case Op::Var: {
            const Entry* en = env.find(e->sym);
            if (en == nullptr) return R{C::Any, true, false, {}, e};
            if (en->fn != nullptr || !en->native.empty()) return any(e);  // a function as a value
            R r{en->c, false, false, en->cover, e};
            r.whole = en->whole;
            return r;
        }
        case Op::Empty: return R{C::Local, false, false, {}, e};
        case Op::Universe:
        case Op::Tag: return R{C::Exact, false, false, {}, e};
        case Op::Union:
        case Op::Inter:
        case Op::Seq:
        case Op::Cartesian: {
            // [S] ; r and r ; [S] restrict a cover of r, when S can be named at the top level
            // (no local name or parameter in scope)
            R a = lower(expr(e->args[0], env, top_body, depth + 1), e->args[0]->pos);
            R b = lower(expr(e->args[1], env, top_body, depth + 1), e->args[1]->pos);
            R r{C::Lower, false, false, {}, rebuilt({a, b})};
            keep(r, a);
            keep(r, b);
            const bool ia = e->args[0]->op == Op::Identity, ib = e->args[1]->op == Op::Identity;
            switch (e->op) {
            case Op::Union:
                r.whole = a.whole && b.whole;
                r.c = lowest(a.c, b.c);
                r.cover = a.cover;
                r.cover.insert(r.cover.end(), b.cover.begin(), b.cover.end());
                break;
            case Op::Inter:
                r.whole = a.whole || b.whole;
                r.c = (a.c == C::Local && b.c >= C::Exact) || (b.c == C::Local && a.c >= C::Exact) ? C::Local : lowest(a.c, b.c);
                r.cover = meet(a.cover, b.cover);
                break;
            case Op::Seq:
                r.whole = (ia && b.whole) || (ib && a.whole);
                if (a.c == C::Local && b.c == C::Local && (!cm_ || ia || ib)) r.c = C::Local;
                else if ((ia && a.c >= C::Exact && b.c >= C::Exact) || (ib && b.c >= C::Exact && a.c >= C::Exact))
                    r.c = lowest(ia ? b.c : a.c, ib ? a.c : b.c) == C::Local ? C::Local : C::Exact;
                if (top_body && ia && !b.cover.empty()) {
                    const std::string s = set_binding(e->args[0]->args[0], env, p);
                    r.cover = b.cover;
                    for (Cover& c : r.cover) c.dom.push_back(s);
                } else if (top_body && ib && !a.cover.empty()) {
                    const std::string s = set_binding(e->args[1]->args[0], env, p);
                    r.cover = a.cover;
                    for (Cover& c : r.cover) c.ran.push_back(s);
                }
                break;
            default:  // Cartesian
                r.c = a.c >= C::Exact && b.c >= C::Exact ? C::Exact : C::Lower;
            }
            if (r.c == C::Any) r.c = C::Lower;
            return r;
        }
        case Op::Diff: {
            R a = sub(0);
            R b = expr(e->args[1], env, false, depth + 1);
            R r{b.c >= C::Exact ? a.c : C::Any, false, false, {}, rebuilt({a, b})};
            keep(r, a);
            keep(r, b);
            return r;
        }
        case Op::Complement: {
            R a = expr(e->args[0], env, false, depth + 1);
            R r{a.c >= C::Exact ? C::Exact : C::Any, a.undefined, a.replaced, {}, rebuilt({a})};
            return r;
        }
        case Op::Star:
        case Op::Plus:
        case Op::Opt:
        case Op::Inverse:
        case Op::Identity: {
            R a = sub(0, top_body && e->op != Op::Inverse && e->op != Op::Identity);
            R r{a.c, a.undefined, a.replaced, {}, rebuilt({a})};
            if (e->op == Op::Star || e->op == Op::Plus) r.c = a.c == C::Local && !cm_ ? C::Local : C::Lower;
            if (e->op == Op::Identity) r.c = a.c >= C::Exact ? C::Local : C::Lower;
            if (e->op != Op::Inverse && e->op != Op::Identity) r.cover = a.cover;
            r.whole = e->op == Op::Inverse && a.whole;
            return r;
        }
        case Op::App: return apply(e, env, depth);
        case Op::Try: {
            R a = expr(e->args[0], env, false, depth + 1);
            R b = expr(e->args[1], env, false, depth + 1);
            R r = a.undefined ? b : a;
            r.out = rebuilt({a, b});
            r.undefined = a.undefined && b.undefined;
            return r;
        }
        case Op::Let: {
            Local scope;
            scope.parent = env.local;
            std::vector<Binding> bindings = e->bindings;
            bind_local(bindings, e->rec, env, scope, depth);
            R body = expr(e->args[0], Env{env.top, env.at, &scope}, false, depth + 1);
            auto out = std::make_shared<Expr>(*e);
            out->bindings = std::move(bindings);
            out->args = {body.out};
            body.out = out;
            return body;
        }
        default: return any(e);  // tuples, set literals, ++
        }
    }

    /// A function applied: domain and range, or a function of the model inlined with its
    /// arguments' classes (its body is shared by every application, so nothing in it can be
    /// replaced: a body that would need it makes the application Any).
    R apply(const ExprPtr& e, const Env& env, int depth) {
        const ExprPtr& f = e->args[0];
        const ExprPtr& arg = e->args[1];
        if (f->op != Expr::Op::Var) return any(e);
        if (f->name == "tag2set" && arg->op == Expr::Op::Tag) return R{C::Exact, false, false, {}, e};
        const Entry* found = env.find(f->sym);
        if (found == nullptr) return R{C::Any, true, false, {}, e};
        const Entry& fe = *found;
        const auto with_arg = [&](const R& a) {
            auto out = std::make_shared<Expr>(*e);
            out->args = {f, a.out};
            return ExprPtr(out);
        };
        if (fe.native == "domain" || fe.native == "range") {
            R a = lower(expr(arg, env, false, depth + 1), arg->pos);
            R r{a.c == C::Local && (!cm_ || a.whole) ? C::Exact : C::Lower, a.undefined, a.replaced, {}, with_arg(a)};
            return r;
        }
        if (fe.fn == nullptr || fe.fenv.top == nullptr) return any(e);
        const Binding& b = *fe.fn;
        Local params;
        params.parent = fe.fenv.local;
        std::vector<R> args;
        if (!b.tuple_params && b.params.size() == 1) {
            args.push_back(lower(expr(arg, env, false, depth + 1), arg->pos));
        } else if (b.tuple_params && arg->op == Expr::Op::Tuple && arg->args.size() == b.params.size()) {
            for (const ExprPtr& a : arg->args) args.push_back(lower(expr(a, env, false, depth + 1), a->pos));
        } else {
            return any(e);
        }
        for (std::size_t k = 0; k < args.size(); ++k) {
            Entry pe;
            pe.c = args[k].c;
            pe.cover = args[k].cover;
            pe.whole = args[k].whole;
            params.names[b.param_syms[k]] = pe;
        }
        R body = expr(b.body, Env{fe.fenv.top, fe.fenv.at, &params}, false, depth + 1);
        if (body.replaced) return any(e);
        R r{body.c, false, false, body.cover, nullptr};
        for (const R& a : args) keep(r, a);
        if (b.tuple_params) {
            std::vector<ExprPtr> items;
            for (const R& a : args) items.push_back(a.out);
            auto t = std::make_shared<Expr>(*arg);
            t->args = std::move(items);
            R tr;
            tr.out = t;
            r.out = with_arg(tr);
        } else {
            r.out = with_arg(args[0]);
        }
        return r;
    }

    /// The bindings of a let, their bodies made the derived model's. A `let rec`'s values are
    /// least fixed points of monotone equations: each stays a lower bound when its equations are
    /// monotone in the others, which their class checks; its own class is Lower, its cover none.
    /// Top-level: into top_, the set bindings its covers name kept for after the statement.
    void bind_top(std::vector<Binding>& bindings, bool rec) {
        if (rec) {
            for (Binding& b : bindings) {
                Entry& en = top_.set(b.sym, Entry{});
                if (!b.params.empty()) en.fn = &b;
            }
            for (Binding& b : bindings)
                if (!b.params.empty()) top_.names[b.sym].back().second.fenv = top_.now();
            for (Binding& b : bindings)
                if (b.params.empty()) b.body = lower(expr(b.body, top_.now(), false, 1), b.body->pos).out;
            return;
        }
        const Env before = top_.now();
        std::vector<std::pair<std::uint32_t, Entry>> made;
        for (Binding& b : bindings) {
            Entry en;
            if (!b.params.empty()) {
                en.fn = &b;
                en.fenv = before;
            } else {
                R r = lower(expr(b.body, before, true, 1), b.body->pos);
                en.c = r.c;
                en.whole = r.whole;
                en.cover = std::move(r.cover);
                b.body = r.out;
            }
            made.emplace_back(b.sym, std::move(en));
        }
        for (auto& [sym, en] : made) top_.set(sym, std::move(en));
    }
    /// A local let's bindings into `scope` (under `env`).
    void bind_local(std::vector<Binding>& bindings, bool rec, const Env& env, Local& scope, int depth) {
        const Env inner{env.top, env.at, &scope};
        for (Binding& b : bindings) {
            if (!rec && b.params.empty()) {
                R r = lower(expr(b.body, env, false, depth + 1), b.body->pos);
                Entry en;
                en.c = r.c;
                en.whole = r.whole;
                en.cover = std::move(r.cover);
                b.body = r.out;
                scope.names[b.sym] = std::move(en);
            } else {
                Entry en;
                if (!b.params.empty()) {
                    en.fn = &b;
                    en.fenv = rec ? inner : env;
                }
                scope.names[b.sym] = std::move(en);
            }
        }
        if (rec)
            for (Binding& b : bindings)
                if (b.params.empty()) b.body = lower(expr(b.body, inner, false, depth + 1), b.body->pos).out;
    }

    /// One statement into `out`, after the set bindings its covers name (which see what it sees).
    void statement(const Stmt& s, std::vector<Stmt>& out) {
        std::vector<Stmt> made;
        switch (s.kind) {
        case Stmt::Kind::Let: {
            Stmt d = s;
            bind_top(d.bindings, s.rec);
            // the functions' entries point at the model's own bindings, which outlive the walk
            for (std::size_t k = 0; k < d.bindings.size(); ++k)
                if (!s.bindings[k].params.empty()) top_.names[s.bindings[k].sym].back().second.fn = &s.bindings[k];
            made.push_back(std::move(d));
            break;
        }
        case Stmt::Kind::With: {
            made.push_back(let_stmt(s.name, make(Expr::Op::Empty, s.pos), s.pos));
            top_.set(s.sym, Entry{});
            break;
        }
        case Stmt::Kind::Include: {
            Stmt d = s;
            d.included.clear();
            if (s.intrinsic && s.name != "cos-opt.cat" && s.name != "cos.cat") {
                made.push_back(s);
                break;
            }
            d.intrinsic = false;
            statements(s.intrinsic ? cos_opt().statements : s.included, d.included);
            made.push_back(std::move(d));
            break;
        }
        case Stmt::Kind::Enum:
        case Stmt::Kind::Ignored: made.push_back(s); break;
        case Stmt::Kind::Check: check(s, made); break;
        }
        for (Stmt& p : pending_) out.push_back(std::move(p));
        pending_.clear();
        for (Stmt& d : made) out.push_back(std::move(d));
    }

    void check(const Stmt& s, std::vector<Stmt>& out) {
        const std::size_t nth = checks_++;
        if (s.flag || s.negated || s.test != Stmt::Test::Acyclic) return;
        R r = expr(s.expr, top_.now(), true, 0);
        if (r.c == C::Any) return;  // no lower bound: nothing to learn from it
        bool rf = false, po_loc = false;
        const Cover* best = nullptr;
        for (const Cover& c : r.cover) {
            const bool plain = c.dom.empty() && c.ran.empty();
            if (plain && c.tok == Tok::Rf) rf = true;
            if (plain && (c.tok == Tok::Po || c.tok == Tok::PoLoc)) po_loc = true;
            if ((c.tok == Tok::Rf || c.tok == Tok::Rfe) && (best == nullptr || c.dom.size() + c.ran.size() < best->dom.size() + best->ran.size()))
                best = &c;
        }
        if (rf && po_loc) coherence.push_back(s.name);
        if (best != nullptr) candidates.push_back({nth, s.name});
        if (nth != target_ || best == nullptr) return;
        // [B] ; X ; [A]: a read in the sets the rf edges into X go to, a write in those they leave
        const auto restrict = [&](const std::vector<std::string>& names) {
            ExprPtr set;
            for (const std::string& n : names) set = set ? make(Expr::Op::Inter, s.pos, {set, var(n, s.pos)}) : var(n, s.pos);
            return set;
        };
        ExprPtr order = r.out;
        if (ExprPtr b = restrict(best->ran)) order = make(Expr::Op::Seq, s.pos, {make(Expr::Op::Identity, s.pos, {b}), order});
        if (ExprPtr a = restrict(best->dom)) order = make(Expr::Op::Seq, s.pos, {order, make(Expr::Op::Identity, s.pos, {a})});
        out.push_back(let_stmt(guess_order_name, order, s.pos));
        done = true;
    }
};

}  // namespace

std::optional<GuessOrder> guess_order(const Model& model, bool context_monotone) {
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::vector<Stmt> scratch;
    Walk survey(model.dialect, none, context_monotone);
    survey.statements(prelude().statements, scratch);
    survey.statements(model.statements, scratch);
    if (survey.candidates.empty() || survey.coherence.empty()) return std::nullopt;
    // the last axiom that holds the rf edges between threads: linux-kernel.cat's happens-before
    // comes after coherence, which holds them too but orders a read before a write only when
    // both are of one location
    const Candidate& chosen = survey.candidates.back();
    GuessOrder g;
    g.axiom = chosen.name;
    g.coherence = survey.coherence.front();
    g.derived.title = model.title;
    g.derived.dialect = model.dialect;
    Walk walk(model.dialect, chosen.check, context_monotone);
    walk.statements(prelude().statements, g.derived.statements);
    walk.statements(model.statements, g.derived.statements);
    if (!walk.done) return std::nullopt;
    return g;
}

}  // namespace oc::cat
