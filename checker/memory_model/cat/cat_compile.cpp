// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_compile.hpp"

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"

namespace oc::cat {

namespace {

/// What the compiler knows of a top-level name where an expression names it.
struct TopName;
using TopEnv = std::map<std::uint32_t, TopName>;
struct TopName {
    std::uint32_t seq = 0;
    Ty ty = Ty::Empty;
    bool known = false;  ///< a value of static type ty (else: evaluated, type not known)
    bool error = false;  ///< its evaluation fails (a name not defined, ill-typed)
    const Binding* fn = nullptr;               ///< a function of the model
    std::shared_ptr<const TopEnv> fenv;        ///< the top-level names its body sees
    std::string native;                        ///< a built-in function
};

enum class St : std::uint8_t { Ok, Error, Unsupported };
struct Res {
    St st = St::Ok;
    Ty ty = Ty::Empty;
    int op = -1;  ///< -1 for the empty value
};
Res unsupported() { return {St::Unsupported, Ty::Empty, -1}; }
Res error() { return {St::Error, Ty::Empty, -1}; }

struct Local {
    std::uint32_t sym;
    enum class K : std::uint8_t { Value, Unsupported } k = K::Value;
    Ty ty = Ty::Empty;
    std::uint32_t slot = 0;
};

class Compiler {
public:
    explicit Compiler(Program& p) : p_(p) {}

    void statements(const std::vector<Stmt>& stmts) {
        for (const Stmt& s : stmts) statement(s);
    }
    void add_top(const std::string& name, Ty ty, const std::string& native = "") {
        TopName t;
        t.seq = next_seq();
        t.ty = ty;
        t.known = native.empty();
        t.native = native;
        p_.origin.push_back(nullptr);
        p_.code.push_back(-1);
        (*top_mut())[symbol(name)] = std::move(t);
    }

private:
    std::uint32_t next_seq() { return static_cast<std::uint32_t>(p_.origin.size()); }

    /// Adds operation o, or finds the same one already there (the same kind, operands and
    /// binding: inlined functions and repeated subexpressions share one operation, which the
    /// evaluation then computes once per graph, Op::once). A `let` and a `let rec` are never
    /// shared: each binds slots of its own.
    int emit(Op o) {
        const bool shared = o.k != Op::K::Let && o.k != Op::K::Rec;
        OpKey key{static_cast<int>(o.k), static_cast<int>(o.ty), o.a, o.b, o.ref};
        if (shared)
            if (const auto it = same_.find(key); it != same_.end()) return it->second;
        p_.ops.push_back(std::move(o));
        const int at = static_cast<int>(p_.ops.size()) - 1;
        if (shared) same_.emplace(key, at);
        return at;
    }
    /// Drops the operations from `size` on (a trial round's).
    void truncate(std::size_t size) {
        p_.ops.resize(size);
        std::erase_if(same_, [size](const auto& kv) { return static_cast<std::size_t>(kv.second) >= size; });
    }
    int op(Op::K k, Ty ty, int a = -1, int b = -1, std::uint32_t ref = 0) {
        Op o;
        o.k = k;
        o.ty = ty;
        o.a = a;
        o.b = b;
        o.ref = ref;
        return emit(std::move(o));
    }
    /// r as a value of type ty (the empty value becomes an empty set or relation).
    int as(const Res& r, Ty ty) { return r.ty == Ty::Empty ? op(Op::K::Zero, ty) : r.op; }
    static Res worst(const Res& a, const Res& b) {
        if (a.st == St::Unsupported || b.st == St::Unsupported) return unsupported();
        return error();
    }
    std::uint32_t new_slot(Ty ty) {
        p_.slot_ty.push_back(ty);
        return static_cast<std::uint32_t>(p_.slot_ty.size()) - 1;
    }

    Res var(std::uint32_t sym) {
        for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
            if (it->sym == sym) {
                if (it->k == Local::K::Unsupported) return unsupported();
                if (it->ty == Ty::Empty) return {};
                return {St::Ok, it->ty, op(Op::K::Local, it->ty, -1, -1, it->slot)};
            }
        const auto it = top_->find(sym);
        if (it == top_->end()) return error();
        const TopName& t = it->second;
        if (t.error) return error();
        if (!t.known) return unsupported();
        if (t.ty == Ty::Empty) return {};
        return {St::Ok, t.ty, op(Op::K::Top, t.ty, -1, -1, t.seq)};
    }

    Res binary(const Expr& e) {
        const Res a = expr(*e.args[0]), b = expr(*e.args[1]);
        if (a.st != St::Ok || b.st != St::Ok) return worst(a, b);
        using K = Op::K;
        if (e.op == Expr::Op::Union || e.op == Expr::Op::Inter || e.op == Expr::Op::Diff) {
            if ((a.ty == Ty::Set && b.ty == Ty::Rel) || (a.ty == Ty::Rel && b.ty == Ty::Set)) return error();
            const Ty ty = a.ty == Ty::Empty ? b.ty : a.ty;
            if (ty == Ty::Empty) return {};
            const K k = e.op == Expr::Op::Union ? K::Union : e.op == Expr::Op::Inter ? K::Inter : K::Diff;
            return {St::Ok, ty, op(k, ty, as(a, ty), as(b, ty))};
        }
        if (e.op == Expr::Op::Seq) {
            if (a.ty == Ty::Set || b.ty == Ty::Set) return error();
            const int x = as(a, Ty::Rel), y = as(b, Ty::Rel);
            if (p_.ops[x].k == K::Identity) return {St::Ok, Ty::Rel, op(K::DomRestrict, Ty::Rel, p_.ops[x].a, y)};
            if (p_.ops[y].k == K::Identity) return {St::Ok, Ty::Rel, op(K::RanRestrict, Ty::Rel, x, p_.ops[y].a)};
            return {St::Ok, Ty::Rel, op(K::Seq, Ty::Rel, x, y)};
        }
        // Cartesian
        if (a.ty == Ty::Rel || b.ty == Ty::Rel) return error();
        return {St::Ok, Ty::Rel, op(K::Cart, Ty::Rel, as(a, Ty::Set), as(b, Ty::Set))};
    }

    Res apply(const Expr& e) {
        const Expr& f = *e.args[0];
        if (f.op != Expr::Op::Var) return unsupported();
        for (const Local& l : locals_)
            if (l.sym == f.sym) return unsupported();  // a local function, or a value applied
        const auto it = top_->find(f.sym);
        if (it == top_->end()) return error();
        const TopName& t = it->second;
        if (!t.native.empty()) {
            if (t.native != "domain" && t.native != "range" && t.native != "different-values") return unsupported();
            const Res a = expr(*e.args[1]);
            if (a.st != St::Ok) return a;
            if (a.ty == Ty::Set) return error();
            if (t.native == "different-values") return {St::Ok, Ty::Rel, op(Op::K::DiffValues, Ty::Rel, as(a, Ty::Rel))};
            if (a.ty == Ty::Empty) return {St::Ok, Ty::Set, op(Op::K::Zero, Ty::Set)};
            return {St::Ok, Ty::Set, op(t.native == "domain" ? Op::K::Domain : Op::K::Range, Ty::Set, a.op)};
        }
        if (t.fn == nullptr || depth_ > 16) return unsupported();
        const Binding& b = *t.fn;
        std::vector<const Expr*> args;
        if (b.tuple_params) {
            const Expr& tuple = *e.args[1];
            if (tuple.op != Expr::Op::Tuple || tuple.args.size() != b.params.size()) return unsupported();
            for (const ExprPtr& x : tuple.args) args.push_back(x.get());
        } else {
            args.push_back(e.args[1].get());
        }
        // the arguments, in the caller's scope, bound to the parameters' slots
        Op let;
        let.k = Op::K::Let;
        std::vector<Local> params;
        for (std::size_t k = 0; k < args.size(); ++k) {
            const Res a = expr(*args[k]);
            if (a.st != St::Ok) return a;
            Local l{b.param_syms[k], Local::K::Value, a.ty, 0};
            if (a.ty != Ty::Empty) {
                l.slot = new_slot(a.ty);
                let.slots.push_back(static_cast<int>(l.slot));
                let.binds.push_back(a.op);
            }
            params.push_back(l);
        }
        // the body, in the function's scope
        std::vector<Local> saved = std::move(locals_);
        std::shared_ptr<const TopEnv> saved_top = top_view_;
        const TopEnv* saved_env = top_;
        locals_ = std::move(params);
        top_view_ = t.fenv;
        top_ = t.fenv.get();
        ++depth_;
        const Res body = expr(*b.body);
        --depth_;
        locals_ = std::move(saved);
        top_view_ = std::move(saved_top);
        top_ = saved_env;
        if (body.st != St::Ok || body.ty == Ty::Empty) return body;
        let.ty = body.ty;
        let.a = body.op;
        return {St::Ok, body.ty, emit(std::move(let))};
    }

    /// `let [rec] bindings in body` (body: nullptr for a top-level let rec, whose Rec op then
    /// has no result): the bindings' slots pushed on locals_ (and left there).
    Res let(const std::vector<Binding>& bindings, bool rec, const Expr* body) {
        if (!rec) {
            Op let;
            let.k = Op::K::Let;
            std::vector<Local> bound;
            for (const Binding& b : bindings) {
                if (!b.params.empty()) {
                    bound.push_back({b.sym, Local::K::Unsupported});
                    continue;
                }
                const Res v = expr(*b.body);
                if (v.st == St::Unsupported) {
                    bound.push_back({b.sym, Local::K::Unsupported});
                    continue;
                }
                if (v.st == St::Error) return v;  // evaluated when bound: the let fails
                Local l{b.sym, Local::K::Value, v.ty, 0};
                if (v.ty != Ty::Empty) {
                    l.slot = new_slot(v.ty);
                    let.slots.push_back(static_cast<int>(l.slot));
                    let.binds.push_back(v.op);
                }
                bound.push_back(l);
            }
            for (const Local& l : bound) locals_.push_back(l);
            const Res r = expr(*body);
            if (r.st != St::Ok || r.ty == Ty::Empty) return r;
            let.ty = r.ty;
            let.a = r.op;
            return {St::Ok, r.ty, emit(std::move(let))};
        }
        for (const Binding& b : bindings)
            if (!b.params.empty()) return unsupported();
        // the bindings' types: from the empty value, until they do not change
        std::vector<Ty> ty(bindings.size(), Ty::Empty);
        const std::size_t base = locals_.size(), ops0 = p_.ops.size(), slots0 = p_.slot_ty.size();
        for (int round = 0;; ++round) {
            locals_.resize(base);
            truncate(ops0);  // the last round's trial
            p_.slot_ty.resize(slots0);
            if (round > 4) return unsupported();
            for (std::size_t k = 0; k < bindings.size(); ++k)
                locals_.push_back({bindings[k].sym, Local::K::Value, ty[k], new_slot(ty[k])});
            const std::size_t ops = p_.ops.size();
            bool changed = false;
            for (std::size_t k = 0; k < bindings.size(); ++k) {
                const Res v = expr(*bindings[k].body);
                if (v.st != St::Ok) {
                    locals_.resize(base);
                    return v;
                }
                if (v.ty != ty[k]) {
                    if (ty[k] != Ty::Empty) {  // a set at one step, a relation at the next
                        locals_.resize(base);
                        return unsupported();
                    }
                    ty[k] = v.ty;
                    changed = true;
                }
            }
            if (!changed) {
                truncate(ops);
                break;
            }
        }
        Op rec_op;
        rec_op.k = Op::K::Rec;
        rec_op.pos = bindings[0].pos;
        for (std::size_t k = 0; k < bindings.size(); ++k) {
            const Res v = expr(*bindings[k].body);
            rec_op.slots.push_back(static_cast<int>(locals_[base + k].slot));
            rec_op.binds.push_back(v.ty == Ty::Empty ? -1 : v.op);
        }
        if (body == nullptr) {
            rec_op.ty = Ty::Empty;
            return {St::Ok, Ty::Empty, emit(std::move(rec_op))};
        }
        const Res r = expr(*body);
        if (r.st != St::Ok || r.ty == Ty::Empty) return r;
        rec_op.ty = r.ty;
        rec_op.a = r.op;
        return {St::Ok, r.ty, emit(std::move(rec_op))};
    }

    Res expr(const Expr& e) {
        using O = Expr::Op;
        using K = Op::K;
        switch (e.op) {
        case O::Var: return var(e.sym);
        case O::Empty: return {};
        case O::Universe: {
            static const std::uint32_t universe = symbol("_");
            return var(universe);
        }
        case O::Tag: return error();
        case O::Union:
        case O::Inter:
        case O::Diff:
        case O::Seq:
        case O::Cartesian: return binary(e);
        case O::Star:
        case O::Plus:
        case O::Opt:
        case O::Inverse: {
            const Res a = expr(*e.args[0]);
            if (a.st != St::Ok) return a;
            if (a.ty == Ty::Set) return error();
            const K k = e.op == O::Star ? K::Star : e.op == O::Plus ? K::Plus : e.op == O::Opt ? K::Opt : K::Inverse;
            return {St::Ok, Ty::Rel, op(k, Ty::Rel, as(a, Ty::Rel))};
        }
        case O::Complement: {
            const Res a = expr(*e.args[0]);
            if (a.st != St::Ok) return a;
            const Ty ty = a.ty == Ty::Rel ? Ty::Rel : Ty::Set;
            return {St::Ok, ty, op(K::Complement, ty, as(a, ty), -1, universe_)};
        }
        case O::Identity: {
            const Res a = expr(*e.args[0]);
            if (a.st != St::Ok) return a;
            if (a.ty == Ty::Rel) return error();
            return {St::Ok, Ty::Rel, op(K::Identity, Ty::Rel, as(a, Ty::Set))};
        }
        case O::App:
            if (e.args[0]->op == O::Var && e.args[0]->name == "tag2set") {  // the builtin set of a tag
                if (e.args[1]->op != O::Tag) return unsupported();
                const auto it = tag_sets_.find(tag_set_name(e.args[1]->name));
                if (it == tag_sets_.end()) return error();
                return {St::Ok, Ty::Set, op(K::Top, Ty::Set, -1, -1, it->second)};
            }
            return apply(e);
        case O::SetLit:
            if (e.args.empty()) return {};
            return unsupported();
        case O::Try: {
            const Res a = expr(*e.args[0]);
            if (a.st == St::Error) return expr(*e.args[1]);
            return a;
        }
        case O::Let: {
            const std::size_t base = locals_.size();
            const Res r = let(e.bindings, e.rec, e.args[0].get());
            locals_.resize(base);
            return r;
        }
        case O::Add:
        case O::Tuple: return unsupported();
        }
        return unsupported();
    }

    void statement(const Stmt& s) {
        switch (s.kind) {
        case Stmt::Kind::Let: let_statement(s); return;
        case Stmt::Kind::Include:
            if (s.intrinsic) {
                if (s.name == "cos-opt.cat" || s.name == "cos.cat") statements(cos_opt().statements);
                return;
            }
            statements(s.included);
            return;
        case Stmt::Kind::Enum:
        case Stmt::Kind::Ignored: return;
        case Stmt::Kind::With: {
            TopName t;
            t.seq = next_seq();
            t.ty = Ty::Rel;
            t.known = true;
            with_step(s, t.seq);
            p_.origin.push_back(&s);
            p_.code.push_back(-1);
            (*top_mut())[s.sym] = std::move(t);
            return;
        }
        case Stmt::Kind::Check: {
            const Res r = expr(*s.expr);
            const bool ok = r.st == St::Ok && r.ty != Ty::Empty;
            p_.checks.push_back(ok ? r.op : -1);
            ++(ok ? p_.compiled : p_.evaluated);
            // the evaluator's type error (acyclic or irreflexive of a set) stays its own
            if (r.st != St::Ok || (r.ty == Ty::Set && s.test != Stmt::Test::Empty)) planned_ = false;
            Step st = step(Step::K::Check, ok ? r.op : -1);
            st.test = s.test, st.flag = s.flag, st.negated = s.negated, st.undefined = s.undefined, st.name = s.name;
            p_.steps.push_back(std::move(st));
            return;
        }
        }
    }

    void let_statement(const Stmt& s) {
        const std::uint32_t first = next_seq();
        std::vector<std::pair<std::uint32_t, TopName>> bound;
        if (!s.rec) {
            std::shared_ptr<const TopEnv> fenv;
            for (const Binding& b : s.bindings) {
                TopName t;
                t.seq = next_seq();
                p_.origin.push_back(&b);
                int code = -1;
                if (!b.params.empty()) {
                    if (!fenv) fenv = std::make_shared<const TopEnv>(*top_);
                    t.fn = &b;
                    t.fenv = fenv;
                } else {
                    const Res r = expr(*b.body);
                    t.known = r.st == St::Ok;
                    t.error = r.st == St::Error;
                    t.ty = r.ty;
                    if (r.st == St::Ok && r.ty != Ty::Empty) code = r.op;
                    ++(code >= 0 ? p_.compiled : p_.evaluated);
                    if (r.st == St::Unsupported) {
                        if (const auto c = choices(*b.body)) choices_[t.seq] = *c;
                        else planned_ = false;
                    } else if (r.st != St::Ok) {
                        planned_ = false;
                    }
                }
                p_.code.push_back(code);
                bound.emplace_back(b.sym, std::move(t));
            }
        } else {
            bool values = true;
            for (const Binding& b : s.bindings) values = values && b.params.empty();
            Res r = unsupported();
            const std::size_t base = locals_.size();
            if (values) r = let(s.bindings, true, nullptr);
            for (std::size_t k = 0; k < s.bindings.size(); ++k) {
                const Binding& b = s.bindings[k];
                TopName t;
                t.seq = next_seq();
                t.known = r.st == St::Ok;
                t.error = r.st == St::Error;
                if (t.known) t.ty = p_.slot_ty[locals_[base + k].slot];
                if (!values) t.known = false;  // functions of a let rec: evaluated
                p_.origin.push_back(&b);
                p_.code.push_back(-1);
                ++(r.st == St::Ok ? p_.compiled : p_.evaluated);
                bound.emplace_back(b.sym, std::move(t));
            }
            locals_.resize(base);
            if (r.st == St::Ok) p_.rec[first] = r.op;
            if (r.st == St::Ok) p_.steps.push_back(step(Step::K::Rec, r.op, first));
            else planned_ = false;
        }
        for (auto& [sym, t] : bound) (*top_mut())[sym] = std::move(t);
    }

    /// The current top-level names, copied first when a function's scope shares them.
    TopEnv* top_mut() {
        if (top_view_.use_count() > 1 || !top_view_) top_view_ = std::make_shared<TopEnv>(top_ ? *top_ : TopEnv{});
        top_ = top_view_.get();
        return const_cast<TopEnv*>(top_);
    }

    // ---- a model compiled whole (Program::planned) ----
    static Step step(Step::K k, int a = -1, std::uint32_t seq = 0) {
        Step s;
        s.k = k;
        s.a = a;
        s.seq = seq;
        return s;
    }
    /// The step of `with x from e`, when e is one the plan runs; else the model is not planned.
    void with_step(const Stmt& s, std::uint32_t seq) {
        std::vector<const Expr*> args;
        const Expr* head = spine(*s.expr, args);
        Step st = step(Step::K::Orders);
        st.seq = seq;
        st.name = s.name;
        if (native(*head, "total-orders") && args.size() == 1 && args[0]->op == Expr::Op::Tuple && args[0]->args.size() == 2) {
            const Res a = expr(*args[0]->args[0]), b = expr(*args[0]->args[1]);
            if (a.st == St::Ok && b.st == St::Ok && a.ty != Ty::Rel && b.ty != Ty::Set) {
                st.a = as(a, Ty::Set);
                st.b = b.ty == Ty::Empty ? -1 : b.op;
                p_.steps.push_back(std::move(st));
                return;
            }
        }
        if (native(*head, "cross") && args.size() == 1 && args[0]->op == Expr::Op::Var) {
            const auto it = top_->find(args[0]->sym);
            const auto c = it == top_->end() ? choices_.end() : choices_.find(it->second.seq);
            if (c != choices_.end()) {
                st.k = Step::K::Choices;
                st.a = c->second.first;
                st.b = c->second.second;
                p_.steps.push_back(std::move(st));
                return;
            }
        }
        planned_ = false;
    }
    /// The head of an application `f a1 a2 ...`, its arguments into `args`.
    static const Expr* spine(const Expr& e, std::vector<const Expr*>& args) {
        const Expr* h = &e;
        for (; h->op == Expr::Op::App; h = h->args[0].get()) args.insert(args.begin(), h->args[1].get());
        return h;
    }
    /// The top-level name e is (a Var no local shadows), nullptr otherwise.
    const TopName* top_name(const Expr& e) const {
        if (e.op != Expr::Op::Var) return nullptr;
        for (const Local& l : locals_)
            if (l.sym == e.sym) return nullptr;
        const auto it = top_->find(e.sym);
        return it == top_->end() ? nullptr : &it->second;
    }
    /// e names the built-in function `name` (not a local, nor a model's redefinition).
    bool native(const Expr& e, const char* name) const {
        const TopName* t = top_name(e);
        return t != nullptr && t->native == name;
    }
    static bool mentions(const Expr& e, std::uint32_t sym) {
        if (e.op == Expr::Op::Var && e.sym == sym) return true;
        for (const ExprPtr& a : e.args)
            if (mentions(*a, sym)) return true;
        for (const Binding& b : e.bindings)
            if (mentions(*b.body, sym)) return true;
        return false;
    }
    /// lock.cat's candidates of one rf edge into each event e of a set S:
    /// `let f e = map g R(e) in map f S`, g being `fun p -> p ++ 0` (a local or top-level
    /// function), R(e) an expression or a top-level function applied to e (Linux 6.1's lock.cat
    /// writes them inside f, the newest outside) whose pairs are all in column e (confined()).
    /// Their cross product is every choice of one pair per column. Returns the operations of S
    /// and of R with {e} read as S.
    std::optional<std::pair<int, int>> choices(const Expr& body) {
        using O = Expr::Op;
        if (body.op != O::Let || body.rec || body.bindings.size() != 1) return std::nullopt;
        const Binding& f = body.bindings[0];
        if (f.params.size() != 1 || f.tuple_params) return std::nullopt;
        const Expr* inner = f.body.get();
        const Binding* g = nullptr;
        if (inner->op == O::Let && !inner->rec && inner->bindings.size() == 1) {
            g = &inner->bindings[0];
            inner = inner->args[0].get();
        }
        std::vector<const Expr*> outer, in;
        const Expr* h1 = spine(*body.args[0], outer);
        const Expr* h2 = spine(*inner, in);
        if (!native(*h1, "map") || outer.size() != 2 || outer[0]->op != O::Var || outer[0]->sym != f.sym) return std::nullopt;
        if (!native(*h2, "map") || in.size() != 2 || in[0]->op != O::Var) return std::nullopt;
        if (g == nullptr || in[0]->sym != g->sym) g = top_function(*in[0], f.sym);
        if (g == nullptr || g->params.size() != 1 || g->tuple_params || g->body->op != O::Add ||
            g->body->args[0]->op != O::Var || g->body->args[0]->sym != g->param_syms[0] || g->body->args[1]->op != O::Empty)
            return std::nullopt;
        const Expr& S = *outer[1];
        if (mentions(S, f.param_syms[0]) || mentions(S, f.sym) || mentions(*in[1], f.sym) || mentions(*in[1], g->sym))
            return std::nullopt;
        const Res set = expr(S);
        if (set.st != St::Ok || set.ty == Ty::Rel) return std::nullopt;
        const int over = as(set, Ty::Set);
        std::vector<const Expr*> app;
        const Expr* h3 = spine(*in[1], app);
        if (app.size() == 1 && app[0]->op == O::Var && app[0]->sym == f.param_syms[0]) {
            // R(e) = h e: h's body, e its parameter, in the scope h was defined in
            const Binding* h = top_function(*h3, f.sym);
            if (h == nullptr || h->params.size() != 1 || h->tuple_params) return std::nullopt;
            const TopName* t = top_name(*h3);
            std::shared_ptr<const TopEnv> saved_top = top_view_;
            const TopEnv* saved_env = top_;
            top_view_ = t->fenv;
            top_ = t->fenv.get();
            const int rel = confined(*h->body, h->param_syms[0], over);
            top_view_ = std::move(saved_top);
            top_ = saved_env;
            return rel < 0 ? std::nullopt : std::optional(std::pair{over, rel});
        }
        const int rel = confined(*in[1], f.param_syms[0], over);
        if (rel < 0) return std::nullopt;
        return std::pair{over, rel};
    }
    /// The top-level function e names (a Var), not shadowed by `self` or a local; nullptr if none.
    const Binding* top_function(const Expr& e, std::uint32_t self) const {
        const TopName* t = e.sym == self ? nullptr : top_name(e);
        return t == nullptr ? nullptr : t->fn;
    }
    /// R(e) with {e} read as the set `over`, when every pair of R(e) ends at e: `X * {e}`, and
    /// unions, intersections and differences that keep that (X and what the differences take
    /// away do not mention e). Column e of the result is then R(e). -1 otherwise.
    int confined(const Expr& r, std::uint32_t e, int over) {
        using O = Expr::Op;
        const auto free_rel = [&](const Expr& x) {
            if (mentions(x, e)) return -1;
            const Res v = expr(x);
            return v.st == St::Ok && v.ty != Ty::Set ? as(v, Ty::Rel) : -1;
        };
        switch (r.op) {
        case O::Cartesian: {
            const Expr& lit = *r.args[1];
            if (lit.op != O::SetLit || lit.args.size() != 1 || lit.args[0]->op != O::Var || lit.args[0]->sym != e) return -1;
            if (mentions(*r.args[0], e)) return -1;
            const Res x = expr(*r.args[0]);
            if (x.st != St::Ok || x.ty == Ty::Rel) return -1;
            return op(Op::K::Cart, Ty::Rel, as(x, Ty::Set), over);
        }
        case O::Union:
        case O::Inter: {
            const bool a = mentions(*r.args[0], e), b = mentions(*r.args[1], e);
            if (r.op == O::Union && !(a && b)) return -1;
            const int x = a ? confined(*r.args[0], e, over) : free_rel(*r.args[0]);
            const int y = b ? confined(*r.args[1], e, over) : free_rel(*r.args[1]);
            if (x < 0 || y < 0 || (!a && !b)) return -1;
            return op(r.op == O::Union ? Op::K::Union : Op::K::Inter, Ty::Rel, x, y);
        }
        case O::Diff: {
            const int x = confined(*r.args[0], e, over), y = free_rel(*r.args[1]);
            return x < 0 || y < 0 ? -1 : op(Op::K::Diff, Ty::Rel, x, y);
        }
        default: return -1;
        }
    }

public:
    void start() { top_mut(); }
    void builtin_set(const std::string& name) { tag_sets_[name] = next_seq(); }
    bool planned() const { return planned_; }
    /// The top-level binding `name` has at the end (seq 0: none) and its type.
    std::pair<std::uint32_t, Ty> final_binding(const std::string& name) const {
        const auto it = top_->find(symbol(name));
        if (it == top_->end() || !it->second.known) return {0, Ty::Empty};
        return {it->second.seq, it->second.ty};
    }
    void set_universe(std::uint32_t seq) { universe_ = seq; }

private:
    Program& p_;
    std::shared_ptr<const TopEnv> top_view_;
    const TopEnv* top_ = nullptr;
    std::vector<Local> locals_;
    int depth_ = 0;
    bool planned_ = true;
    std::map<std::string, std::uint32_t> tag_sets_;  ///< the builtin sets by name (tag2set)
    std::map<std::uint32_t, std::pair<int, int>> choices_;  ///< top-level number -> choices()
    using OpKey = std::tuple<int, int, int, int, std::uint32_t>;  ///< kind, type, operands, ref
    std::map<OpKey, int> same_;  ///< the operations emit() shares, by what they compute
    std::uint32_t universe_ = 0;
};

}  // namespace

std::shared_ptr<const Program> compile(const Model& model, const std::vector<std::string>& builtin_sets,
                                       const std::vector<std::string>& builtin_rels,
                                       const std::vector<std::string>& natives) {
    static std::atomic<std::uint64_t> programs{0};
    auto p = std::make_shared<Program>();
    p->id = ++programs;
    p->origin.push_back(nullptr);  // numbers start at 1
    p->code.push_back(-1);
    Compiler c(*p);
    c.start();
    for (const std::string& s : builtin_sets) {
        if (s == "_") c.set_universe(static_cast<std::uint32_t>(p->origin.size()));
        c.builtin_set(s);
        c.add_top(s, Ty::Set);
    }
    for (const std::string& r : builtin_rels) c.add_top(r, Ty::Rel);
    for (const std::string& f : natives) c.add_top(f, Ty::Empty, f);
    c.statements(prelude().statements);
    c.statements(model.statements);
    p->builtin_sets = builtin_sets.size();
    p->builtin_rels = builtin_rels.size();
    p->events_only_top.assign(p->origin.size(), 0);
    for (std::size_t k = 0; k < builtin_sets.size(); ++k) p->events_only_top[1 + k] = 1;
    for (std::size_t k = 0; k < builtin_rels.size(); ++k) {
        const std::string& r = builtin_rels[k];
        if (r != "rf" && r != "co" && r != "fr") p->events_only_top[1 + builtin_sets.size() + k] = 1;
    }
    finish(*p);
    p->planned = c.planned();
    std::tie(p->final_rf, p->final_rf_ty) = c.final_binding("rf");
    std::tie(p->final_co, p->final_co_ty) = c.final_binding("co");
    return p;
}

}  // namespace oc::cat
