// SPDX-License-Identifier: MIT
// LKMM as the MemoryModel the engines and reports use: the graph engine's consistency check of
// every graph it builds (lkmm_check.cpp, in reused buffers), and for the rest (certifying a
// complete execution, flags, races, relations for figures) the reference relations of lkmm.cpp.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_check.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/memory_model/rc11_certify.hpp"

namespace oc {

namespace {

class Lkmm final : public MemoryModel {
    /// The relations of linux-kernel.cat (and lock.cat's, herd's built-ins) that relations()
    /// computes, by the cat file's names.
    static const std::vector<std::pair<std::string_view, BitRel lkmm::Relations::*>>& named() {
        using R = lkmm::Relations;
        static const std::vector<std::pair<std::string_view, BitRel R::*>> table = {
            {"po", &R::po}, {"po-loc", &R::po_loc}, {"rf", &R::rf}, {"co", &R::co}, {"fr", &R::fr},
            {"rmw", &R::rmw}, {"addr", &R::addr}, {"data", &R::data}, {"ctrl", &R::ctrl}, {"rfe", &R::rfe},
            {"rfi", &R::rfi}, {"coe", &R::coe}, {"fre", &R::fre}, {"acq-po", &R::acq_po}, {"po-rel", &R::po_rel},
            {"po-unlock-lock-po", &R::po_unlock_lock_po}, {"rmb", &R::rmb}, {"wmb", &R::wmb}, {"mb", &R::mb},
            {"gp", &R::gp}, {"strong-fence", &R::strong_fence}, {"nonrw-fence", &R::nonrw_fence},
            {"fence", &R::fence}, {"ppo", &R::ppo}, {"cumul-fence", &R::cumul_fence}, {"prop", &R::prop},
            {"hb", &R::hb}, {"pb", &R::pb}, {"rcu-rscs", &R::rcu_rscs}, {"srcu-rscs", &R::srcu_rscs},
            {"rcu-link", &R::rcu_link}, {"rcu-order", &R::rcu_order}, {"rcu-fence", &R::rcu_fence}, {"rb", &R::rb},
            {"xbstar", &R::xbstar}, {"data-race", &R::data_race},
        };
        return table;
    }

public:
    std::string_view name() const override { return "LKMM"; }
    bool kernel_events() const override { return true; }
    std::uint8_t orders() const override { return ordering::all; }  // rwdep, strong-fence, po-rel, acq-po in ppo
    bool concurrent() const override { return true; }  // per-thread scratch (lkmm_check.cpp)
    /// The rcu axiom is asked of complete graphs only. A read-side critical section that a
    /// reader's two reads around synchronize_rcu() see on both sides breaks it as soon as the
    /// section's unlock is added, though a later write may still revisit the second read and
    /// mend it. The engine adds that read with the co-latest write first, so cutting such a
    /// graph lost executions (RCU+reader-cmpxchg+gp-rereads: herd7 Sometimes 1 22, ordercheck said
    /// Never 0 21).
    bool consistent(const ExecutionGraph& g) const override { return lkmm::consistent(g, false); }
    bool consistent_when_complete(const ExecutionGraph& g) const override {
        return !lkmm::has_rcu_events(g) || lkmm::consistent(g, true);
    }
    bool asks_when_complete() const override { return true; }
    /// With RCU events, consistent_when_complete() runs the whole check, the one check_and_flags()
    /// certifies by.
    bool whole_when_complete(const ExecutionGraph& g) const override { return lkmm::has_rcu_events(g); }
    /// Every relation that consistent() computes leaves a fence through po (fencerel, gp). Only
    /// rcu-rscs^-1 and srcu-rscs^-1 lead from an unlock back to its lock, and they feed rb alone,
    /// which the rcu axiom reads: consistent() leaves that axiom to complete graphs, so an
    /// rcu_read_unlock() or srcu_read_unlock() added last is inert too. A read with no rf has no
    /// fr either, and its dependencies and ppo lead to later events only.
    bool inert_when_last(const Event& e) const override {
        if (e.is_fence()) return true;
        return e.kind == EventKind::Read && !e.reads_from;
    }
    /// Every relation of linux-kernel.cat leaves an access through po (fencerel, acq-po, ppo,
    /// gp, rcu-link), rf, co or fr (com, prop, rfe), or through rmw; only the lock, unlock,
    /// spin_is_locked, SRCU and RMW-family tags bring more (lock.cat's pairings, srcu-rscs,
    /// the before/after-atomic fences' [RMW]), so those are always asked about.
    bool inert_as_sink(const Event& e) const override {
        if (e.kind != EventKind::Read && e.kind != EventKind::Write) return false;
        return ((lkmm_tags_of(e) | e.lkmm) & ~(lkmm::Once | lkmm::Acquire | lkmm::Release)) == 0;
    }
    std::optional<AxiomViolation> check(const ExecutionGraph& g) const override {
        if (auto wf = check_well_formed(g)) return wf;
        return violation(lkmm::relations(g, lkmm::Depth::Axioms));
    }
    /// Certifying a complete execution: every axiom by lkmm_check.cpp (the relations of
    /// relations() in reused buffers), and the reference relations only to explain a violation
    /// and as deep as the flags that can fire need (flags()).
    std::pair<std::optional<AxiomViolation>, std::vector<std::string>> check_and_flags(const ExecutionGraph& g,
                                                                                        bool with_flags) const override {
        std::optional<AxiomViolation> v = check_well_formed(g);
        if (!v && !lkmm::consistent(g, true)) {
            v = violation(lkmm::relations(g, lkmm::Depth::Axioms));
            if (!v) {  // the two computations of one predicate disagree: a rejection that says so
                v.emplace();
                v->axiom = "check-disagreement";
                v->explanation = "LKMM's check (lkmm_check.cpp) rejects the execution, but its relations (lkmm.cpp) "
                                 "violate no axiom: a fault in ordercheck";
            }
        }
        return {std::move(v), with_flags ? flags(g) : std::vector<std::string>{}};
    }
    /// LKMM's data-race flag. herd still judges such an execution (`Flag data-race`): the
    /// litmus runner turns ExploreOptions::race_ends_execution off and reads flags() instead.
    std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override {
        const lkmm::Relations r = lkmm::relations(g, lkmm::Depth::Flags);
        if (!r.has_plain) return std::nullopt;
        for (std::size_t i = 0; i < r.nodes.size(); ++i) {
            std::optional<std::size_t> other;
            r.data_race.for_each(i, [&](std::size_t j) {
                if (!other) other = j;
            });
            if (other) return std::make_pair(r.nodes.event[i], r.nodes.event[*other]);
        }
        return std::nullopt;
    }
    std::vector<std::string> relation_names() const override {
        std::vector<std::string> out;
        for (const auto& [name, field] : named()) out.emplace_back(name);
        return out;
    }
    std::optional<std::vector<std::pair<EventId, EventId>>> relation(const ExecutionGraph& g,
                                                                    std::string_view name) const override {
        for (const auto& [n, field] : named())
            if (n == name) {
                const lkmm::Relations r = lkmm::relations(g, lkmm::Depth::Flags);
                return lkmm::event_pairs(r.nodes, r.*field);
            }
        return std::nullopt;
    }
    std::vector<std::string> flags(const ExecutionGraph& g) const override {
        // Without plain accesses only the nesting flags can fire, and they need no ordering;
        // without SRCU events either, the RCU nesting is a count per thread.
        if (bool unbalanced = false; lkmm::rcu_nesting_only(g, unbalanced)) {
            std::vector<std::string> out;
            if (unbalanced) out.emplace_back("unbalanced-rcu-locking");
            if (lkmm::unmatched_unlock(g)) out.emplace_back("unmatched-unlock");
            return out;
        }
        lkmm::Relations r = lkmm::relations(g, lkmm::Depth::Nesting);
        if (r.has_plain) r = lkmm::relations(g, lkmm::Depth::Flags);
        return flags_of(g, r);
    }

private:
    /// The first axiom `r` violates, with the cycle that shows it; nullopt when none.
    static std::optional<AxiomViolation> violation(const lkmm::Relations& r) {
        const auto axiom = lkmm::violated_axiom(r);
        if (!axiom) return std::nullopt;
        AxiomViolation v;
        v.axiom = *axiom;
        const BitRel* rel = nullptr;
        BitRel coherence = r.po_loc;
        for (const BitRel* x : {&r.rf, &r.co, &r.fr}) coherence.unite(*x);
        if (*axiom == "coherence") rel = &coherence;
        else if (*axiom == "happens-before") rel = &r.hb;
        else if (*axiom == "propagation") rel = &r.pb;
        else if (*axiom == "rcu") rel = &r.rb;
        if (rel != nullptr) v.cycle = cycle_events(r.nodes, *rel);
        v.explanation = "the execution violates LKMM's " + v.axiom + " axiom (linux-kernel.cat)";
        return v;
    }
    /// The flags of `g` from its relations `r`, computed to Depth::Flags when `g` has plain
    /// accesses (else to Depth::Nesting at least).
    static std::vector<std::string> flags_of(const ExecutionGraph& g, const lkmm::Relations& r) {
        std::vector<std::string> out;
        if (r.has_plain && !r.data_race.empty()) out.emplace_back("data-race");
        // flag ~empty mixed-accesses as mixed-accesses (linux-kernel.cat)
        if (r.has_plain && !r.mixed_accesses.empty())
            out.emplace_back("mixed-accesses");
        if (r.unbalanced_rcu) out.emplace_back("unbalanced-rcu-locking");
        if (r.unbalanced_srcu) out.emplace_back("unbalanced-srcu-locking");
        // lock.cat: flag ~empty UL \ range(critical) as unmatched-unlock
        if (lkmm::unmatched_unlock(g)) out.emplace_back("unmatched-unlock");
        // flag ~empty different-values(srcu-rscs) as srcu-bad-nesting; an event's value: what a
        // read reads (lkmmv2's srcu-lock), what an SRCU event carries or a write writes
        const auto value = [&](std::size_t i) {
            const Event& e = g.event(r.nodes.event[i]);
            return e.kind == EventKind::Read ? e.read_value : e.written_value;
        };
        for (std::size_t i = 0; i < r.nodes.size(); ++i) {
            bool bad = false;
            r.srcu_rscs.for_each(i, [&](std::size_t j) { bad = bad || value(i) != value(j); });
            if (bad) {
                out.emplace_back("srcu-bad-nesting");
                break;
            }
        }
        return out;
    }
};

}  // namespace

const MemoryModel& lkmm_model() {
    static const Lkmm model;
    return model;
}

}  // namespace oc
