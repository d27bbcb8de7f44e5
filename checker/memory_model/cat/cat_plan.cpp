// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_plan.hpp"

#include <algorithm>
#include <optional>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_values.hpp"
#include "checker/memory_model/cat/thread_spare.hpp"

namespace oc::cat {

namespace {

class Plan final : TopValues {
public:
    Plan(const Program& p, const ExecutionGraph& g, const Dialect& dialect, Goal goal)
        : p_(p), b_(*builtins_), goal_(goal) {
        builtins_into(b_, g, dialect, p.id);
        n_ = b_.nodes.size();
        buffers_->start_graph(p);
        // the events-only operations' values are kept by the graph's events, which decide the
        // builtin sets and relations but rf, co and fr (builtins_into())
        buffers_->use_events(p, b_.events_key);
        // a binding a step makes is set before any operation reads it (the statements' order),
        // so what the last graph left in these is never read
        space_->bound_rel.resize(p.code.size(), nullptr);
        space_->bound_set.resize(p.code.size(), nullptr);
        space_->chosen.resize(p.steps.size(), BitRel(0));
    }

    Outcome run() {
        Runner r(p_, *buffers_, n_, b_.value, *this);
        std::size_t nth = 0;
        for (const Step& s : p_.steps) {
            ++nth;
            switch (s.k) {
            case Step::K::Check: check(r, s); break;
            case Step::K::Orders:
            case Step::K::Choices: {
                std::optional<lkmm::NodeSet> none;  // an operand the compiler found empty
                std::optional<BitRel> empty;
                const lkmm::NodeSet& over = s.a >= 0 ? r.set(s.a) : none.emplace((n_ + 63) / 64, 0);
                const BitRel& rel = s.b >= 0 ? r.rel(s.b) : empty.emplace(n_);
                BitRel& chosen = space_->chosen[nth - 1];  // a step's own, bound_rel points into it
                chosen.reshape(n_);
                const bool ok = s.k == Step::K::Orders ? values::choose_order(over, rel, b_.graph_rf_co, *b_.layout.loc, chosen)
                                                       : values::choose_per_column(over, rel, b_.graph_rf_co, chosen);
                space_->bound_rel[s.seq] = &chosen;
                if (!ok) fail("with " + s.name, std::nullopt);
                break;
            }
            case Step::K::Rec: {
                r.rec(s.a);
                const Op& o = p_.ops[static_cast<std::size_t>(s.a)];
                for (std::size_t k = 0; k < o.slots.size(); ++k) {
                    const auto slot = static_cast<std::uint32_t>(o.slots[k]);
                    if (p_.slot_ty[slot] == Ty::Rel) space_->bound_rel[s.seq + k] = &r.slot_rel(slot);
                    else if (p_.slot_ty[slot] == Ty::Set) space_->bound_set[s.seq + k] = &r.slot_set(slot);
                }
                break;
            }
            }
            if (stopped_) break;
        }
        if (!stopped_) {
            // the model's final rf and co must be the graph's (cat_eval.hpp)
            const auto final_is = [&](std::uint32_t seq, Ty ty, const BitRel& graph, const char* name) {
                if (seq == 0 || ty == Ty::Set) return;
                const BitRel* v = ty == Ty::Rel ? top_rel(r, seq) : nullptr;
                if (v != nullptr ? !(*v == graph) : !graph.empty()) fail(std::string("the graph's ") + name, std::nullopt);
            };
            final_is(p_.final_rf, p_.final_rf_ty, b_.graph_rf, "rf");
            final_is(p_.final_co, p_.final_co_ty, b_.graph_co, "co");
        }
        // the nodes name the pairs of a violated axiom and of the flags; a consistency query
        // that holds reads none, and the builtins keep their storage for the next graph
        if (goal_ != Goal::FirstViolation || out_.violated) out_.nodes = b_.nodes;
        return std::move(out_);
    }

private:
    /// The value of top-level binding `seq` (nullptr: the empty value).
    const BitRel* top_rel(Runner& r, std::uint32_t seq) {
        if (p_.code[seq] >= 0) return &r.rel(p_.code[seq]);
        return rel(seq, Pos{});
    }
    const BitRel* rel(std::uint32_t seq, const Pos&) override {
        const auto& rels = b_.layout.every_rel;
        const std::size_t k = seq - 1 - p_.builtin_sets;
        if (seq > p_.builtin_sets && k < p_.builtin_rels && k < rels.size()) return rels[k];
        return space_->bound_rel[seq];
    }
    const lkmm::NodeSet* set(std::uint32_t seq, const Pos&) override {
        const auto& sets = b_.layout.every_set;
        if (seq >= 1 && seq <= p_.builtin_sets && seq - 1 < sets.size()) return sets[seq - 1];
        return space_->bound_set[seq];
    }
    void fail(const std::string& name, std::optional<BitRel> r) {
        if (!out_.violated) {
            out_.violated = name;
            out_.violated_relation = std::move(r);
        }
        if (goal_ == Goal::FirstViolation) stopped_ = true;
    }
    /// As the evaluator's check().
    void check(Runner& run, const Step& s) {
        if (s.flag && goal_ == Goal::FirstViolation) return;
        const Op* o = s.a >= 0 ? &p_.ops[static_cast<std::size_t>(s.a)] : nullptr;
        bool holds = false;
        std::optional<BitRel> r;
        if (o != nullptr && o->ty == Ty::Set) {  // `empty S` (the compiler plans no other test of a set)
            const lkmm::NodeSet& v = run.set(s.a);
            holds = std::all_of(v.begin(), v.end(), [](std::uint64_t w) { return w == 0; });
        } else {
            const BitRel none(o != nullptr ? 0 : n_);
            const BitRel& v = o != nullptr ? run.rel(s.a) : none;
            holds = s.test == Stmt::Test::Empty     ? v.empty()
                    : s.test == Stmt::Test::Acyclic ? v.acyclic()
                                                    : !v.reflexive_somewhere();
            // judge() reads the relation of an axiom that fails or a flag that fires: only
            // then is it copied
            if ((holds != s.negated) == s.flag) r = v;
        }
        if (judge(out_, {s.name, s.flag, s.negated, s.undefined}, holds, std::move(r)) && goal_ == Goal::FirstViolation)
            stopped_ = true;
    }

    const Program& p_;
    ThreadSpare<Builtins> builtins_;
    ThreadSpare<Buffers> buffers_;
    Builtins& b_;
    std::size_t n_ = 0;
    Goal goal_;
    bool stopped_ = false;
    /// The values the steps bind, by top-level number, kept on the thread from one graph to the next.
    struct Space {
        std::vector<const BitRel*> bound_rel;
        std::vector<const lkmm::NodeSet*> bound_set;
        std::vector<BitRel> chosen;  ///< per step (a `with`'s choice)
    };
    ThreadSpare<Space> space_;
    Outcome out_;
};

}  // namespace

Outcome run_plan(const Program& p, const ExecutionGraph& g, const Dialect& dialect, Goal goal) {
    return Plan(p, g, dialect, goal).run();
}

}  // namespace oc::cat
