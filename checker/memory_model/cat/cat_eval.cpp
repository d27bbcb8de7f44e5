// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_eval.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <utility>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_compile.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"
#include "checker/memory_model/cat/cat_plan.hpp"
#include "checker/memory_model/cat/cat_values.hpp"
#include "checker/memory_model/cat/thread_spare.hpp"

namespace oc::cat {

bool judge(Outcome& out, const CheckKind& s, bool holds, std::optional<BitRel> r) {
    if (s.negated) holds = !holds;
    if (!s.flag) {
        if (!holds && !out.violated) {
            out.violated = s.name;
            out.violated_relation = std::move(r);
        }
        return !holds;
    }
    if (!holds) return false;
    const bool seen = std::find(out.flags.begin(), out.flags.end(), s.name) != out.flags.end();
    if (!seen) out.flags.push_back(s.name);
    if (!seen && s.undefined) out.undefined.push_back(s.name);
    if (!r) return false;
    for (std::size_t i = 0; i < r->size(); ++i) {
        bool found = false;
        r->for_each(i, [&](std::size_t j) {
            if (!found) out.flag_pairs.push_back({s.name, {i, j}});
            found = true;
        });
        if (found) break;
    }
    return false;
}

namespace {

using namespace values;


class Evaluator final : TopValues {
public:
    Evaluator(const ExecutionGraph& g, Goal goal, const Dialect& dialect, const Program* program)
        : b_(fill(*spare_builtins_, g, dialect, program)), n_(b_.nodes.size()), goal_(goal), prog_(program) {
        base_->current = this;
        const std::uint64_t stamp = program != nullptr ? program->id : 0;
        if (stamp == 0 || base_->stamp != stamp) {
            base_->stamp = stamp;
            build_base();
        } else {  // the same scopes and values, refilled for this graph
            std::size_t k = 0;
            for (auto& [name, s] : b_.sets) base_->vals[k++]->set = s;
            for (auto& [name, r] : b_.rels) base_->vals[k++]->rel = r;
        }
        env_ = base_->env;
        if (prog_ != nullptr) buffers_->start_graph(*prog_);
        index_top(nullptr);
    }

    Outcome run(const Model& m, const std::vector<std::string>& want) {
        statements(prelude().statements);
        statements(m.statements);
        if (!stopped_) graph_is_the_execution();
        if (goal_ == Goal::Validate)  // every binding, needed or not: its errors now
            for (const Scope* sc = env_.get(); sc != nullptr; sc = sc->parent.get()) force(*sc);
        for (const std::string& name : want) {
            const ValPtr v = lookup(env_, name);
            std::optional<BitRel> r;
            if (v && v->kind == Val::Kind::Rel) r = v->rel;
            else if (v && v->kind == Val::Kind::Empty) r = BitRel(n_);
            out_.wanted.emplace_back(name, std::move(r));
        }
        out_.nodes = std::move(b_.nodes);
        b_.events_key.clear();  // the nodes are gone: the next graph numbers them again
        return std::move(out_);
    }

private:
    // ---- values ----
    ValPtr set(NodeSet s) const {
        auto v = std::make_shared<Val>();
        v->kind = Val::Kind::Set;
        v->set = std::move(s);
        return v;
    }
    ValPtr rel(BitRel r) const {
        auto v = std::make_shared<Val>();
        v->kind = Val::Kind::Rel;
        v->rel = std::move(r);
        return v;
    }
    ValPtr empty() const { return std::make_shared<Val>(); }
    NodeSet none() const { return NodeSet((n_ + 63) / 64, 0); }
    static bool in(const NodeSet& s, std::size_t i) { return (s[i / 64] >> (i % 64) & 1u) != 0; }
    /// The builtins' and natives' scopes, kept on the thread for the next graph of the same
    /// compiled model (whose builtins have the same names): its values refilled in place.
    struct Base {
        std::uint64_t stamp = 0;  ///< the compiled model's id (0: made for this graph only)
        Env env;
        std::vector<Val*> vals;  ///< the builtins' values, sets then relations, in the maps' order
        Evaluator* current = nullptr;  ///< whose graph the natives work on
        std::vector<std::shared_ptr<Val>> results;  ///< per compiled operation: its last value (run())
        std::vector<Env> chain;  ///< the top-level scopes the last graph made, by seq (bind_top())
        TopIndex index;          ///< of the scopes of `env` and `chain`
    };
    void build_base() {
        Base& base = *base_;
        base.vals.clear();
        base.results.assign(prog_ != nullptr ? prog_->ops.size() : 0, nullptr);
        base.chain.clear();
        for (const std::uint32_t sym : base.index.used) base.index.by_sym[sym].clear();
        base.index.used.clear();
        base.index.indexed = 0;
        Env env;
        auto bind = [&](std::uint32_t sym, std::shared_ptr<Val> v) {
            base.vals.push_back(v.get());
            env = bind_name(env, sym, std::move(v));
        };
        auto sym = b_.layout.syms.begin();  // symbol() of each name, in the maps' order
        for (auto& [name, s] : b_.sets) {
            auto v = std::make_shared<Val>();
            v->kind = Val::Kind::Set;
            v->set = s;
            bind(*sym++, std::move(v));
        }
        for (auto& [name, r] : b_.rels) {
            auto v = std::make_shared<Val>();
            v->kind = Val::Kind::Rel;
            v->rel = r;
            bind(*sym++, std::move(v));
        }
        Evaluator** cur = &base.current;
        auto native = [&](const std::string& name, std::size_t arity,
                          std::function<ValPtr(const std::vector<ValPtr>&, const Pos&)> f) {
            auto v = std::make_shared<Val>();
            v->kind = Val::Kind::Native;
            v->native = std::make_shared<const Val::Native>(Val::Native{std::move(f), arity});
            env = bind_name(env, name, v);
        };
        native("domain", 1, [cur](const auto& a, const Pos& p) { return domain_range(a[0], true, (*cur)->n_, p); });
        native("range", 1, [cur](const auto& a, const Pos& p) { return domain_range(a[0], false, (*cur)->n_, p); });
        native("map", 2, [cur](const auto& a, const Pos& p) {
            return map(a[1], (*cur)->n_, [&](ValPtr item) { return (*cur)->apply(a[0], std::move(item), p); }, p);
        });
        native("cross", 1, [cur](const auto& a, const Pos& p) { return cross(a[0], (*cur)->n_, p); });
        native("different-values", 1,
               [cur](const auto& a, const Pos& p) { return different_values(a[0], (*cur)->b_.value, (*cur)->n_, p); });
        native("total-orders", 1, [cur](const auto& a, const Pos& p) { return total_orders(a[0], (*cur)->n_, p); });
        base.env = std::move(env);
    }
    /// `v` as a relation (the empty value is the empty relation).
    BitRel as_rel(const ValPtr& v, const Pos& p) const { return values::as_rel(v, n_, p); }
    /// The same without a copy (the empty value: an empty relation or set of the graph's size).
    const BitRel& rel_ref(const ValPtr& v, const Pos& p) const {
        if (v->kind == Val::Kind::Rel) return v->rel;
        if (v->kind == Val::Kind::Empty) return empty_rel_;
        type_error(p, "a relation", v);
    }
    const NodeSet& set_ref(const ValPtr& v, const Pos& p) const {
        if (v->kind == Val::Kind::Set) return v->set;
        if (v->kind == Val::Kind::Empty) return empty_set_;
        type_error(p, "a set of events", v);
    }
    NodeSet as_set(const ValPtr& v, const Pos& p) const { return values::as_set(v, n_, p); }
    BitRel id_on(const NodeSet& s) const {
        BitRel r(n_);
        for (std::size_t i = 0; i < n_; ++i)
            if (in(s, i)) r.set(i, i);
        return r;
    }

    // ---- applying functions ----
    ValPtr apply(const ValPtr& f, ValPtr arg, const Pos& p) {
        if (f->kind == Val::Kind::Native) {
            std::vector<ValPtr> args = f->items;
            args.push_back(std::move(arg));
            if (args.size() == f->native->arity) return f->native->fn(args, p);
            auto partial = std::make_shared<Val>(*f);
            partial->items = std::move(args);
            return partial;
        }
        if (f->kind != Val::Kind::Func) type_error(p, "a function", f);
        Env env = f->env;
        const Binding& b = *f->func;
        if (b.tuple_params) {
            if (arg->kind != Val::Kind::Tuple || arg->items.size() != b.params.size())
                throw CatError(p, "expected " + std::to_string(b.params.size()) + " arguments, found " +
                                      (arg->kind == Val::Kind::Tuple ? std::to_string(arg->items.size()) : "1"));
            for (std::size_t k = 0; k < b.params.size(); ++k) env = bind_name(env, b.param_syms[k], arg->items[k]);
        } else {
            env = bind_name(env, b.param_syms[0], std::move(arg));
        }
        return eval(*b.body, env);
    }

    // ---- expressions ----
    ValPtr lookup(const Env& env, const std::string& name) { return lookup(env, symbol(name)); }
    ValPtr lookup(const Env& env, std::uint32_t sym) {
        // the local names first, then the latest top-level binding of sym up to where the
        // chain reaches the top level
        const Scope* s = env.get();
        for (; s != nullptr && s->seq == 0; s = s->parent.get())
            if (s->sym == sym) return force(*s);
        if (s == nullptr || sym >= top_->by_sym.size()) return nullptr;
        const auto& bindings = top_->by_sym[sym];
        auto it = std::upper_bound(bindings.begin(), bindings.end(), s->seq,
                                   [](std::uint32_t q, const std::pair<std::uint32_t, const Scope*>& b) { return q < b.first; });
        if (it == bindings.begin()) return nullptr;
        return force(*std::prev(it)->second);
    }
    /// Numbers the top-level bindings made since `old` (env_ grew from it) and indexes them.
    void index_top(const Scope* old) {
        std::vector<const Scope*>& fresh = top_->fresh;
        fresh.clear();
        for (const Scope* s = env_.get(); s != nullptr && s != old; s = s->parent.get()) fresh.push_back(s);
        auto& by_sym = top_->by_sym;
        for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) {
            const Scope* s = *it;
            s->seq = ++top_seq_;
            if (compiled_) {  // the compiler's numbering must be the evaluator's
                compiled_ = top_seq_ < prog_->origin.size() && prog_->origin[top_seq_] == s->origin;
                if (compiled_) s->code = prog_->code[top_seq_];
            }
            if (!compiled_) s->code = -1;  // a scope kept from the last graph included
            if (top_seq_ <= top_->indexed && top_->by_seq[top_seq_] == s) continue;  // kept, and indexed then
            if (top_seq_ <= top_->indexed) top_->drop_from(top_seq_);
            if (top_->by_seq.size() <= top_seq_) top_->by_seq.resize(top_seq_ + 64);
            top_->by_seq[top_seq_] = s;
            if (s->sym >= by_sym.size()) by_sym.resize(s->sym + 64);
            if (by_sym[s->sym].empty()) top_->used.push_back(s->sym);
            by_sym[s->sym].emplace_back(s->seq, s);
            top_->indexed = top_seq_;
        }
    }
    ValPtr force(const Scope& s) {
        if (s.lazy != nullptr && s.code >= 0) {
            s.value = run(s.code);
            s.lazy = nullptr;
            s.lazy_env = nullptr;
        }
        if (s.lazy != nullptr) {
            s.value = eval(*s.lazy, s.lazy_env);
            s.lazy = nullptr;
            s.lazy_env = nullptr;
        }
        return s.value;
    }

    /// a OP b on sets or relations; the empty value takes the other's kind
    template <class SetOp, class RelOp>
    ValPtr binary(const Expr& e, const ValPtr& a, const ValPtr& b, SetOp so, RelOp ro) const {
        const bool is_set = a->kind == Val::Kind::Set || b->kind == Val::Kind::Set;
        const bool is_rel = a->kind == Val::Kind::Rel || b->kind == Val::Kind::Rel;
        if (is_set && is_rel)
            throw CatError(e.pos, std::string("expected two sets or two relations, found ") + kind_name(a->kind) +
                                      " and " + kind_name(b->kind));
        if (is_set) {
            NodeSet x = as_set(a, e.args[0]->pos);
            const NodeSet& y = set_ref(b, e.args[1]->pos);
            for (std::size_t k = 0; k < x.size(); ++k) x[k] = so(x[k], y[k]);
            return set(std::move(x));
        }
        if (is_rel || (a->kind == Val::Kind::Empty && b->kind == Val::Kind::Empty)) {
            if (!is_rel) return empty();
            BitRel x = as_rel(a, e.args[0]->pos);
            ro(x, rel_ref(b, e.args[1]->pos));
            return rel(std::move(x));
        }
        type_error(a->kind == Val::Kind::Empty ? e.args[1]->pos : e.args[0]->pos, "a set or a relation",
                   a->kind == Val::Kind::Empty ? b : a);
    }

    ValPtr eval(const Expr& e, const Env& env) {
        using Op = Expr::Op;
        auto arg = [&](std::size_t k) { return eval(*e.args[k], env); };
        switch (e.op) {
        case Op::Var: {
            ValPtr v = lookup(env, e.sym);
            if (!v) throw CatError(e.pos, "expected a defined name, found '" + e.name + "', which is not defined");
            return v;
        }
        case Op::Empty: return empty();
        case Op::Universe: {
            static const std::uint32_t universe = symbol("_");
            return lookup(env_, universe);
        }
        case Op::Tag: throw CatError(e.pos, "expected a set or a relation, found the tag '" + e.name);
        case Op::Union:
            return binary(e, arg(0), arg(1), [](auto x, auto y) { return x | y; }, [](BitRel& x, const BitRel& y) { x.unite(y); });
        case Op::Inter:
            return binary(e, arg(0), arg(1), [](auto x, auto y) { return x & y; },
                          [](BitRel& x, const BitRel& y) { x.intersect(y); });
        case Op::Diff:
            return binary(e, arg(0), arg(1), [](auto x, auto y) { return x & ~y; },
                          [](BitRel& x, const BitRel& y) { x.subtract(y); });
        case Op::Seq: {
            const ValPtr a = arg(0), b = arg(1);
            return rel(rel_ref(a, e.args[0]->pos).compose(rel_ref(b, e.args[1]->pos)));
        }
        case Op::Cartesian: {
            const ValPtr av = arg(0), bv = arg(1);
            const NodeSet& a = set_ref(av, e.args[0]->pos);
            const NodeSet& b = set_ref(bv, e.args[1]->pos);
            BitRel r(n_);
            for (std::size_t i = 0; i < n_; ++i)
                if (in(a, i))
                    for (std::size_t w = 0; w < b.size(); ++w) r.row(i)[w] = b[w];
            return rel(std::move(r));
        }
        case Op::Add: {
            const ValPtr a = arg(0), b = arg(1);
            if (a->kind == Val::Kind::Pair && (b->kind == Val::Kind::Rel || b->kind == Val::Kind::Empty)) {
                BitRel r = as_rel(b, e.pos);
                r.set(a->a, a->b);
                return rel(std::move(r));
            }
            if (a->kind == Val::Kind::Event && (b->kind == Val::Kind::Set || b->kind == Val::Kind::Empty)) {
                NodeSet s = as_set(b, e.pos);
                s[a->a / 64] |= std::uint64_t{1} << (a->a % 64);
                return set(std::move(s));
            }
            if (b->kind != Val::Kind::Coll && b->kind != Val::Kind::Empty) type_error(e.args[1]->pos, "a set of values", b);
            auto out = std::make_shared<Val>();
            out->kind = Val::Kind::Coll;
            out->items.push_back(a);
            if (b->kind == Val::Kind::Coll) out->items.insert(out->items.end(), b->items.begin(), b->items.end());
            return out;
        }
        case Op::Star:
        case Op::Plus:
        case Op::Opt: {
            BitRel r = as_rel(arg(0), e.args[0]->pos);
            if (e.op != Op::Opt) r.close();
            if (e.op != Op::Plus) r.add_identity();
            return rel(std::move(r));
        }
        case Op::Inverse: {
            const ValPtr a = arg(0);
            return rel(rel_ref(a, e.args[0]->pos).inverse());
        }
        case Op::Complement: {
            const ValPtr a = arg(0);
            if (a->kind == Val::Kind::Rel) {
                BitRel all(n_);
                for (std::size_t i = 0; i < n_; ++i)
                    for (std::size_t j = 0; j < n_; ++j) all.set(i, j);
                all.subtract(a->rel);
                return rel(std::move(all));
            }
            NodeSet s = as_set(a, e.args[0]->pos);
            const NodeSet& u = *b_.layout.all;
            for (std::size_t k = 0; k < s.size(); ++k) s[k] = u[k] & ~s[k];
            return set(std::move(s));
        }
        case Op::Identity: {
            const ValPtr a = arg(0);
            return rel(id_on(set_ref(a, e.args[0]->pos)));
        }
        case Op::App:
            // herd's tag2set('t): the events that carry tag t (the set of t, capitalised)
            if (e.args[0]->op == Op::Var && e.args[0]->name == "tag2set" && e.args[1]->op == Op::Tag) {
                const auto it = b_.sets.find(tag_set_name(e.args[1]->name));
                if (it == b_.sets.end()) throw CatError(e.args[1]->pos, "expected a tag the model declares, found '" + e.args[1]->name);
                return set(it->second);
            }
            return apply(arg(0), arg(1), e.args[1]->pos);
        case Op::Tuple: {
            auto out = std::make_shared<Val>();
            out->kind = Val::Kind::Tuple;
            for (std::size_t k = 0; k < e.args.size(); ++k) out->items.push_back(arg(k));
            return out;
        }
        case Op::SetLit: {
            if (e.args.empty()) return empty();
            NodeSet s = none();
            for (std::size_t k = 0; k < e.args.size(); ++k) {
                const ValPtr v = arg(k);
                if (v->kind != Val::Kind::Event) type_error(e.args[k]->pos, "an event", v);
                s[v->a / 64] |= std::uint64_t{1} << (v->a % 64);
            }
            return set(std::move(s));
        }
        case Op::Try:
            try {
                return arg(0);
            } catch (const CatError&) {
                return arg(1);
            }
        case Op::Let: return eval(*e.args[0], let(e.bindings, e.rec, env));
        }
        throw CatError(e.pos, "expected an expression");
    }

    ValPtr function(const Binding& b, const Env& env) const {
        auto f = std::make_shared<Val>();
        f->kind = Val::Kind::Func;
        f->func = &b;
        f->env = env;
        return f;
    }

    static bool same(const ValPtr& a, const ValPtr& b) {
        if (a->kind != b->kind) return false;
        if (a->kind == Val::Kind::Set) return a->set == b->set;
        if (a->kind == Val::Kind::Rel) return a->rel == b->rel;
        return a->kind == Val::Kind::Empty;
    }

    /// The scope after `let [rec] bindings`. A `let rec` starts every name empty and evaluates
    /// the bindings in order, each seeing the others' latest values, until none changes: the
    /// least fixed point for the monotone definitions (rcu-order), and for the bell's matching
    /// of nested lock/unlock pairs the innermost-first matching it is written for.
    Env let(const std::vector<Binding>& bindings, bool rec, const Env& env, bool lazy = false) {
        if (!rec) {
            Env out = env;
            for (const Binding& b : bindings) {
                if (lazy && b.params.empty()) {
                    out = bind_name(out, b.sym, nullptr);
                    out->lazy = b.body.get();
                    out->lazy_env = env;
                    out->origin = &b;
                    continue;
                }
                out = bind_name(out, b.sym, b.params.empty() ? eval(*b.body, env) : function(b, env));
                out->origin = &b;
            }
            return out;
        }
        Env out = env;
        std::vector<const Scope*> scopes;
        for (const Binding& b : bindings) {
            out = bind_name(out, b.sym, empty());
            out->origin = &b;
            scopes.push_back(out.get());
        }
        for (std::size_t k = 0; k < bindings.size(); ++k)
            if (!bindings[k].params.empty()) scopes[k]->value = function(bindings[k], out);
        for (unsigned round = 0;; ++round) {
            if (round > 10 * n_ * n_ + 100) throw CatError(bindings[0].pos, "expected the let rec to reach a fixed point, found none");
            bool changed = false;
            for (std::size_t k = 0; k < bindings.size(); ++k) {
                if (!bindings[k].params.empty()) continue;
                ValPtr v = eval(*bindings[k].body, out);
                if (!same(v, scopes[k]->value)) {
                    changed = true;
                    scopes[k]->value = std::move(v);
                }
            }
            if (!changed) return out;
        }
    }

    // ---- statements ----
    /// In order, up to the first failing axiom when that ends the evaluation (stopped_).
    void statements(const std::vector<Stmt>& stmts) {
        for (const Stmt& s : stmts) {
            if (stopped_) return;
            statement(s);
        }
    }
    void fail(const std::string& name, std::optional<BitRel> r) {
        if (!out_.violated) {
            out_.violated = name;
            out_.violated_relation = std::move(r);
        }
        if (goal_ == Goal::FirstViolation) stopped_ = true;
    }
    void statement(const Stmt& s) {
        switch (s.kind) {
        // a top-level value is evaluated when first needed: the consistency of a prefix needs
        // the axioms' relations only, not the flags' (the data races of linux-kernel.cat)
        case Stmt::Kind::Let: {
            const Scope* old = env_.get();
            if (s.rec && compiled_ && compiled_rec(s)) return;
            if (!s.rec && reuse_let(s)) return;
            env_ = let(s.bindings, s.rec, env_, true);
            index_top(old);
            record(old);
            return;
        }
        case Stmt::Kind::Include:
            if (s.intrinsic) {
                if (s.name == "cos-opt.cat" || s.name == "cos.cat") statements(cos_opt().statements);
                return;  // stdlib.cat: the prelude; cross.cat: the built-in cross
            }
            statements(s.included);
            return;
        case Stmt::Kind::Enum:
        case Stmt::Kind::Ignored: return;
        case Stmt::Kind::With: with(s); return;
        case Stmt::Kind::Check: check(s); return;
        }
    }
    void check(const Stmt& s) {
        const std::size_t nth = checks_++;
        if (s.flag && goal_ == Goal::FirstViolation) return;
        const int code = compiled_ && nth < prog_->checks.size() ? prog_->checks[nth] : -1;
        const ValPtr v = code >= 0 ? run(code) : eval(*s.expr, env_);
        bool holds = false;
        std::optional<BitRel> r;
        if (s.test == Stmt::Test::Empty) {
            if (v->kind == Val::Kind::Set) holds = v->set == none();
            else {
                r = as_rel(v, s.expr->pos);
                holds = r->empty();
            }
        } else {
            r = as_rel(v, s.expr->pos);
            holds = s.test == Stmt::Test::Acyclic ? r->acyclic() : !r->reflexive_somewhere();
        }
        if (judge(out_, {s.name, s.flag, s.negated, s.undefined}, holds, std::move(r)) && goal_ == Goal::FirstViolation)
            stopped_ = true;
    }
    /// The model's final rf and co must be the graph's: lock.cat derives the rf of a lock's read
    /// (LKR) from co, and a graph whose LKR reads from elsewhere is no execution of the model.
    void graph_is_the_execution() {
        for (const auto& [name, graph] : {std::pair<const char*, const BitRel*>{"rf", &b_.graph_rf}, {"co", &b_.graph_co}}) {
            const ValPtr v = lookup(env_, name);
            if (v && v->kind == Val::Kind::Rel && !(v->rel == *graph)) fail(std::string("the graph's ") + name, std::nullopt);
            if (v && v->kind == Val::Kind::Empty && !graph->empty()) fail(std::string("the graph's ") + name, std::nullopt);
        }
    }
    void with(const Stmt& s) {
        const ValPtr c = eval(*s.expr, env_);
        BitRel chosen(n_);
        bool ok = false;
        if (c->kind == Val::Kind::Orders) {
            ok = choose_order(c->set, c->rel, b_.graph_rf_co, *b_.layout.loc, chosen);
        } else if (c->kind == Val::Kind::Coll || c->kind == Val::Kind::Empty) {
            BitRel support(n_);
            for (const ValPtr& cand : c->items) support.unite(as_rel(cand, s.expr->pos));
            chosen = b_.graph_rf_co;
            chosen.intersect(support);
            for (const ValPtr& cand : c->items) ok = ok || as_rel(cand, s.expr->pos) == chosen;
        } else {
            type_error(s.expr->pos, "a set of candidate relations", c);
        }
        bind_top(s.sym, &s, rel(chosen));
        if (!ok) fail("with " + s.name, std::nullopt);
    }

    // ---- compiled operations (cat_compile.hpp) ----
    Runner runner() { return Runner(*prog_, *buffers_, n_, b_.value, *this); }
    /// The value of compiled operation `op` (one allocation: the value the scope keeps).
    ValPtr run(int op) {
        Runner r = runner();
        const bool is_rel = prog_->ops[static_cast<std::size_t>(op)].ty == Ty::Rel;
        const BitRel* x = is_rel ? &r.rel(op) : nullptr;
        const NodeSet* y = is_rel ? nullptr : &r.set(op);
        // the value the last graph's evaluation made for op, when nothing else holds it
        std::shared_ptr<Val>& v = base_->results[static_cast<std::size_t>(op)];
        if (!v || v.use_count() != 1) v = std::make_shared<Val>();
        v->kind = is_rel ? Val::Kind::Rel : Val::Kind::Set;
        if (is_rel) v->rel = *x;
        else v->set = *y;
        return v;
    }
    const BitRel* rel(std::uint32_t seq, const Pos& pos) override {
        const ValPtr v = force(*top_->by_seq[seq]);
        if (v->kind == Val::Kind::Empty) return nullptr;
        if (v->kind != Val::Kind::Rel) type_error(pos, "a relation", v);
        return &v->rel;  // the scope keeps v
    }
    const NodeSet* set(std::uint32_t seq, const Pos& pos) override {
        const ValPtr v = force(*top_->by_seq[seq]);
        if (v->kind == Val::Kind::Empty) return nullptr;
        if (v->kind != Val::Kind::Set) type_error(pos, "a set of events", v);
        return &v->set;
    }
    /// A top-level `let rec` of values, by its compiled fixed point.
    bool compiled_rec(const Stmt& s) {
        const auto it = prog_->rec.find(top_seq_ + 1);
        if (it == prog_->rec.end()) return false;
        Runner r = runner();
        r.rec(it->second);
        const Op& o = prog_->ops[static_cast<std::size_t>(it->second)];
        for (std::size_t k = 0; k < s.bindings.size(); ++k) {
            const auto slot = static_cast<std::uint32_t>(o.slots[k]);
            const Ty ty = prog_->slot_ty[slot];
            bind_top(s.bindings[k].sym, &s.bindings[k],
                     ty == Ty::Rel ? rel(r.slot_rel(slot)) : ty == Ty::Set ? set(r.slot_set(slot)) : empty());
        }
        return true;
    }

    // ---- the top-level scopes kept from one graph to the next (Base::chain) ----
    /// The scope for the next top-level binding, of value v: the one made for the same
    /// binding at the last graph when everything before it was kept too, else a new one.
    void bind_top(std::uint32_t sym, const void* origin, ValPtr v) {
        const Scope* old = env_.get();
        const std::uint32_t seq = top_seq_ + 1;
        auto& chain = base_->chain;
        if (reuse_ && seq < chain.size() && chain[seq] && chain[seq]->origin == origin && chain[seq]->parent == env_) {
            chain[seq]->value = std::move(v);
            env_ = chain[seq];
            index_top(old);
            return;
        }
        env_ = bind_name(env_, sym, std::move(v));
        env_->origin = origin;
        index_top(old);
        record(old);
    }
    /// `let` bindings (not rec) by the scopes made for them at the last graph, reset.
    bool reuse_let(const Stmt& s) {
        const std::uint32_t first = top_seq_ + 1;
        const auto& chain = base_->chain;
        if (!reuse_ || chain.size() < first + s.bindings.size()) return false;
        for (std::size_t k = 0; k < s.bindings.size(); ++k) {
            const Env& sc = chain[first + k];
            if (!sc || sc->origin != &s.bindings[k] || sc->parent != (k == 0 ? env_ : chain[first + k - 1])) return false;
        }
        const Scope* old = env_.get();
        for (std::size_t k = 0; k < s.bindings.size(); ++k) {
            const Binding& b = s.bindings[k];
            if (!b.params.empty()) continue;  // a function: its scope is the same
            const Scope& sc = *chain[first + k];
            sc.value = nullptr;
            sc.lazy = b.body.get();
            sc.lazy_env = env_;
        }
        env_ = chain[first + s.bindings.size() - 1];
        index_top(old);
        return true;
    }
    /// Keeps the top-level scopes made since `old` for the next graph; those the last graph
    /// made after them no longer follow from this one's.
    void record(const Scope* old) {
        reuse_ = false;
        if (base_->stamp == 0) return;
        auto& chain = base_->chain;
        chain.resize(top_seq_ + 1);
        for (Env sc = env_; sc && sc.get() != old; sc = sc->parent) chain[sc->seq] = sc;
    }

    static Builtins& fill(Builtins& b, const ExecutionGraph& g, const Dialect& dialect, const Program* program) {
        builtins_into(b, g, dialect, program != nullptr ? program->id : 0);
        return b;
    }
    ThreadSpare<Builtins> spare_builtins_;  ///< its maps kept from one graph to the next
    ThreadSpare<Base> base_;
    Builtins& b_;
    std::size_t n_;
    BitRel empty_rel_{n_};
    NodeSet empty_set_ = NodeSet((n_ + 63) / 64, 0);
    Goal goal_;
    bool stopped_ = false;  ///< an axiom failed and the goal is the first violation
    bool reuse_ = true;     ///< every top-level scope so far is the last graph's (bind_top())
    const Program* prog_;
    bool compiled_ = prog_ != nullptr;  ///< false from the first binding the compiler numbered otherwise
    std::size_t checks_ = 0;            ///< check statements met so far
    ThreadSpare<Buffers> buffers_;
    Env env_;
    TopIndex* top_ = &base_->index;
    std::uint32_t top_seq_ = 0;
    Outcome out_;
};

}  // namespace

void prepare(Model& model) {
    const auto [sets, rels] = builtin_names(model.dialect);
    model.program = compile(model, sets, rels, native_names());
}

Outcome evaluate(const Model& model, const ExecutionGraph& g, Goal goal, const std::vector<std::string>& want) {
    const Program* p = model.program.get();
    if (p != nullptr && p->planned && want.empty() && goal != Goal::Validate) return run_plan(*p, g, model.dialect, goal);
    return Evaluator(g, goal, model.dialect, model.program.get()).run(model, want);
}

}  // namespace oc::cat
