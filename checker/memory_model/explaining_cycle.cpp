// SPDX-License-Identifier: MIT
#include "checker/memory_model/explaining_cycle.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <map>
#include <set>
#include <string_view>

#include "checker/memory_model/lkmm_tags.hpp"
#include "traces/interleaving.hpp"  // executed_primitive
#include "traces/relations.hpp"
#include "traces/text_util.hpp"

namespace oc {

namespace {

/// The base relations the cycle is spelled in, over events: immediate po, rf, immediate co, and
/// fr to the co-first write a read misses. Every relation both models derive is contained in
/// the transitive closure of these, so every edge of an axiom's cycle has a path here.
struct BaseGraph {
    struct Edge {
        EventId to;
        std::string_view kind;  ///< "po", "rf", "co", "fr"
    };
    std::map<EventId, std::vector<Edge>> out;

    explicit BaseGraph(const ExecutionGraph& g) {
        for (std::size_t t = 1; t < g.thread_count(); ++t) {
            const auto& events = g.thread(t);
            for (std::size_t i = 0; i + 1 < events.size(); ++i) out[events[i].id].push_back({events[i + 1].id, "po"});
        }
        const Relation reads_from = rf(g), from_read = fr_imm(g);
        for (const auto& [w, r] : reads_from.pairs()) out[w].push_back({r, "rf"});
        for (const auto& [r, w] : from_read.pairs()) out[r].push_back({w, "fr"});
        for (std::size_t l = 0; l < g.location_count(); ++l) {
            const auto& co = g.co(static_cast<LocationId>(l));
            for (std::size_t i = 0; i + 1 < co.size(); ++i) out[co[i]].push_back({co[i + 1], "co"});
        }
        // Where two relations join the same events (an RMW reads from its co-predecessor: rf and
        // co), the path takes the first in the order po, rf, co, fr.
        const auto rank = [](std::string_view k) { return k == "po" ? 0 : k == "rf" ? 1 : k == "co" ? 2 : 3; };
        for (auto& [from, edges] : out)
            std::sort(edges.begin(), edges.end(), [&](const Edge& a, const Edge& b) {
                return std::pair(a.to, rank(a.kind)) < std::pair(b.to, rank(b.kind));
            });
    }

    const std::vector<Edge>& edges(EventId from) const {
        static const std::vector<Edge> none;
        const auto it = out.find(from);
        return it == out.end() ? none : it->second;
    }

    /// A shortest nonempty path from `from` to `to` (BFS; ties broken by event order, so the
    /// answer is deterministic). Empty when there is none.
    std::vector<CycleStep> path(EventId from, EventId to) const {
        std::map<EventId, std::pair<EventId, std::string_view>> parent;
        std::deque<EventId> queue;
        for (const Edge& e : edges(from)) {
            if (parent.contains(e.to)) continue;
            parent[e.to] = {from, e.kind};
            queue.push_back(e.to);
        }
        while (!queue.empty() && !parent.contains(to)) {
            const EventId at = queue.front();
            queue.pop_front();
            for (const Edge& e : edges(at)) {
                if (parent.contains(e.to)) continue;
                parent[e.to] = {at, e.kind};
                queue.push_back(e.to);
            }
        }
        std::vector<CycleStep> steps;
        if (!parent.contains(to)) return steps;
        EventId at = to;
        do {
            const auto& [prev, kind] = parent.at(at);
            steps.push_back(CycleStep{prev, at, std::string(kind)});
            at = prev;
        } while (at != from);
        std::reverse(steps.begin(), steps.end());
        return steps;
    }
};

/// A shortest cycle of the base graph, nullopt when it is acyclic (an SC execution).
std::optional<std::vector<CycleStep>> shortest_base_cycle(const ExecutionGraph& g, const BaseGraph& base) {
    std::optional<std::vector<CycleStep>> best;
    for (EventId id : g.events()) {
        if (id.thread == EventId::init_thread) continue;  // no edge enters an initial write
        auto steps = base.path(id, id);
        if (!steps.empty() && (!best || steps.size() < best->size())) best = std::move(steps);
    }
    return best;
}

bool is_restored(const std::vector<EventId>& restored, EventId id) {
    return std::binary_search(restored.begin(), restored.end(), id);
}

/// Splits a closed walk that visits an event twice into simple cycles and keeps one: the first
/// through a restored event, else the longest (the closest to the model's own cycle).
std::vector<CycleStep> simple_cycle(std::vector<CycleStep> walk, const std::vector<EventId>& restored) {
    for (bool again = true; again;) {
        again = false;
        for (std::size_t i = 0; i < walk.size() && !again; ++i)
            for (std::size_t j = i + 1; j < walk.size() && !again; ++j) {
                if (walk[i].from != walk[j].from) continue;
                std::vector<CycleStep> inner(walk.begin() + static_cast<std::ptrdiff_t>(i),
                                             walk.begin() + static_cast<std::ptrdiff_t>(j));
                std::vector<CycleStep> outer(walk.begin(), walk.begin() + static_cast<std::ptrdiff_t>(i));
                outer.insert(outer.end(), walk.begin() + static_cast<std::ptrdiff_t>(j), walk.end());
                const auto through = [&](const std::vector<CycleStep>& c) {
                    return std::any_of(c.begin(), c.end(), [&](const CycleStep& s) { return is_restored(restored, s.from); });
                };
                const bool in = through(inner), out = through(outer);
                walk = in != out ? (in ? inner : outer) : (inner.size() >= outer.size() ? inner : outer);
                again = true;
            }
    }
    return walk;
}

/// Folds runs of po steps into one step, keeping the events a reader needs on the way: restored
/// barriers and fences that order something.
std::vector<CycleStep> fold_po(const ExecutionGraph& g, const std::vector<CycleStep>& walk,
                               const std::vector<EventId>& restored) {
    const auto keep = [&](EventId id) {
        const Event& e = g.event(id);
        return is_restored(restored, id) || (e.is_fence() && e.order != MemoryOrder::Relaxed);
    };
    std::vector<CycleStep> out;
    for (const CycleStep& s : walk) {
        if (!out.empty() && s.relation == "po" && out.back().relation == "po" && !keep(s.from)) {
            out.back().to = s.to;
            continue;
        }
        out.push_back(s);
    }
    // the walk is closed: the last run may continue into the first
    if (out.size() > 2 && out.back().relation == "po" && out.front().relation == "po" && !keep(out.front().from)) {
        out.front().from = out.back().from;
        out.pop_back();
    }
    return out;
}

/// Starts the cycle at its smallest event.
void rotate_to_smallest(std::vector<CycleStep>& steps) {
    if (steps.empty()) return;
    const auto first = std::min_element(steps.begin(), steps.end(),
                                        [](const CycleStep& a, const CycleStep& b) { return a.from < b.from; });
    std::rotate(steps.begin(), first, steps.end());
}

/// LKMM speaks of external and internal communication: rfe, coe, fre (initial writes are
/// external to every event).
void name_for_lkmm(std::vector<CycleStep>& steps) {
    for (CycleStep& s : steps) {
        if (s.relation == "po") continue;
        s.relation += s.from.thread == s.to.thread ? "i" : "e";
    }
}

std::string describe_barrier(const ExecutionGraph& restored, EventId id, bool lkmm_model, std::string_view axiom,
                             const std::vector<CycleStep>& walk) {
    const Event& e = restored.event(id);
    if (lkmm_model) {
        using namespace lkmm;
        constexpr std::uint32_t strong = Mb | BeforeAtomic | AfterAtomic | AfterSpinlock | AfterUnlockLock | AfterSrcuReadUnlock;
        if (e.is_fence()) {
            if (e.lkmm & strong) return "strong-fence (mb)";
            if (e.lkmm & SyncRcu) return "strong-fence (gp)";
            if (e.lkmm & Wmb) return "wmb";
            if (e.lkmm & Rmb) return "rmb";
            return "fence (" + names(e.lkmm) + ")";
        }
        if ((e.lkmm & Acquire) && (e.lkmm & Release)) return "acq-po and po-rel";
        if (e.lkmm & Acquire) return "acq-po";
        if (e.lkmm & Release) return "po-rel";
        return names(e.lkmm);
    }
    if (e.is_fence()) {
        if (e.order == MemoryOrder::SeqCst) {
            if (axiom == "sc") return "psc (an SC fence)";
            // Outside psc an SC fence orders as an acquire fence after a read, else as a release fence.
            const auto in = std::find_if(walk.begin(), walk.end(), [&](const CycleStep& s) { return s.to == id; });
            return in != walk.end() && restored.event(in->from).is_read() ? "sw (the SC fence as an acquire fence)"
                                                                          : "sw (the SC fence as a release fence)";
        }
        if (e.order == MemoryOrder::Acquire) return "sw (an acquire fence)";
        if (e.order == MemoryOrder::Release) return "sw (a release fence)";
        return "sw (an acq_rel fence)";
    }
    if (e.order == MemoryOrder::SeqCst && axiom == "sc") return "psc (a seq_cst access)";
    if (is_acquire(e.order) && is_release(e.order)) return "sw (acquire and release)";
    return is_acquire(e.order) ? "sw (an acquire read)" : "sw (a release write)";
}

std::string relation_of_axiom(std::string_view model, std::string_view axiom) {
    if (model == "LKMM") {
        if (axiom == "coherence") return "po-loc|com acyclic";
        if (axiom == "atomic") return "rmw & (fre;coe) empty";
        if (axiom == "happens-before") return "hb acyclic";
        if (axiom == "propagation") return "pb acyclic";
        if (axiom == "rcu") return "rb irreflexive";
        if (axiom == "plain-coherence") return "plain-incoh empty";
    } else {
        if (axiom == "coherence") return "hb;eco? irreflexive";
        if (axiom == "atomicity") return "rmw & (fr;co) empty";
        if (axiom == "no-thin-air") return "po|rf acyclic";
        if (axiom == "sc") return "psc acyclic";
    }
    return "";
}

/// "P1's READ_ONCE(nr_items) (shrinker_bit.cpp:152)".
std::string call_of(const ExecutionGraph& g, const Event& e, Vocabulary v) {
    std::string what;
    if (e.id.thread == EventId::init_thread) return "the initial write of " + g.location_name(*e.location);
    if (*e.primitive != '\0') {
        what = e.primitive;
        what += e.location ? "(" + g.location_name(*e.location) + ")" : "()";
    } else {
        what = cycle_event_name(g, e, v);
    }
    std::string out = g.thread_name(e.id.thread) + "'s " + what;
    if (const std::string w = source_spot(e); !w.empty()) out += " (" + w + ")";
    return out;
}

}  // namespace

std::vector<EventId> ExplainingCycle::events() const {
    std::vector<EventId> out;
    for (const CycleStep& s : steps) out.push_back(s.from);
    return out;
}

ExecutionGraph restore_weakened(const ExecutionGraph& g) {
    return with_events_edited(g, [](Event& e) {
        if (!e.weakened_from) return;
        e.order = *std::exchange(e.weakened_from, std::nullopt);
        // The tags of the order as written; a cmpxchg's leading fence keeps its condition.
        e.lkmm = lkmm_tags_of(e) | (e.lkmm & lkmm::IfRmwSucceeds);
    });
}

std::optional<ExplainingCycle> explaining_cycle(const ExecutionGraph& g, const MemoryModel& model, std::string* why) {
    ExplainingCycle c;
    c.model = std::string(model.name());
    const bool lkmm_model = model.kernel_events();
    for (EventId id : g.events())
        if (g.event(id).weakened_from) c.restored.push_back(id);
    const BaseGraph base(g);  // the base relations do not depend on the orders restored
    std::vector<CycleStep> walk;
    if (!c.restored.empty()) {
        const ExecutionGraph restored = restore_weakened(g);
        const auto violation = model.check(restored);
        if (!violation) {
            if (why) *why = "the execution stays consistent under " + c.model + " with the barrier restored";
            return std::nullopt;
        }
        if (violation->cycle.empty() || violation->axiom == "well-formed") {
            if (why) *why = "with the barrier restored " + c.model + "'s " + violation->axiom + " axiom fails, with no cycle to show";
            return std::nullopt;
        }
        const auto& cycle = violation->cycle;
        for (std::size_t i = 0; i < cycle.size(); ++i) {
            auto part = base.path(cycle[i], cycle[(i + 1) % cycle.size()]);
            if (part.empty()) {
                if (why) *why = "the " + violation->axiom + " cycle has an edge with no po/rf/co/fr path";
                return std::nullopt;
            }
            walk.insert(walk.end(), part.begin(), part.end());
        }
        c.kind = ExplainingCycle::Kind::Restored;
        c.axiom = violation->axiom;
        c.relation = relation_of_axiom(c.model, c.axiom);
        walk = simple_cycle(std::move(walk), c.restored);
        walk = fold_po(restored, walk, c.restored);
        for (const CycleStep& s : walk)
            if (is_restored(c.restored, s.from)) c.barriers.push_back(s.from);
        c.barrier_relation = describe_barrier(restored, c.barriers.empty() ? c.restored.front() : c.barriers.front(),
                                              lkmm_model, c.axiom, walk);
    } else {
        auto cycle = shortest_base_cycle(g, base);
        if (!cycle) {
            c.kind = ExplainingCycle::Kind::Sc;
            return c;
        }
        c.kind = ExplainingCycle::Kind::NotSc;
        c.axiom = "sequential consistency";
        c.relation = "po|rf|co|fr acyclic";
        walk = fold_po(g, *cycle, c.restored);
    }
    rotate_to_smallest(walk);
    if (lkmm_model) name_for_lkmm(walk);
    for (CycleStep& s : walk) s.barrier = s.relation == "po" && (is_restored(c.barriers, s.from) || is_restored(c.barriers, s.to));
    c.steps = std::move(walk);
    std::sort(c.barriers.begin(), c.barriers.end());
    return c;
}

std::string cycle_event_name(const ExecutionGraph& g, const Event& e, Vocabulary vocabulary) {
    if (e.is_fence()) {
        if (*e.primitive != '\0') return e.primitive;
        if (vocabulary == Vocabulary::Lkmm) return event_label(g, e, vocabulary);
        return "F." + std::string(short_name(e.weakened_from.value_or(e.order)));
    }
    const std::string loc = e.location ? g.location_name(*e.location) : "?";
    switch (e.kind) {
    case EventKind::Read: return "R " + loc + "=" + std::to_string(e.read_value);
    case EventKind::Write: return "W " + loc + "=" + std::to_string(e.written_value);
    case EventKind::Rmw: {
        const std::string values = std::to_string(e.read_value) + "->" + std::to_string(e.written_value);
        if (*e.primitive != '\0') return std::string(e.primitive) + "(" + loc + ") " + values;
        return "U " + loc + " " + values;
    }
    case EventKind::Fence: break;
    }
    return "?";
}

std::string cycle_line(const ExecutionGraph& g, const ExplainingCycle& c) {
    const Vocabulary v = vocabulary_of(c);
    if (c.steps.empty()) return "";
    // the barriers in brackets
    const auto name = [&](EventId id) {
        const std::string n = cycle_event_name(g, g.event(id), v);
        return std::binary_search(c.barriers.begin(), c.barriers.end(), id) ? "[" + n + "]" : n;
    };
    std::string out = name(c.steps.front().from);
    for (const CycleStep& s : c.steps) out += " ->" + s.relation + " " + name(s.to);
    return out;
}

std::string cycle_heading(const ExplainingCycle& c) {
    switch (c.kind) {
    case ExplainingCycle::Kind::Restored: return c.model + " " + c.axiom + " (" + c.relation + ")";
    case ExplainingCycle::Kind::NotSc: return "not sequentially consistent (po|rf|co|fr is cyclic)";
    case ExplainingCycle::Kind::Sc: return "sequentially consistent (no cycle)";
    }
    return "";
}

std::string cycle_prose(const ExecutionGraph& g, const ExplainingCycle& c) {
    const Vocabulary v = vocabulary_of(c);
    if (c.kind == ExplainingCycle::Kind::Sc)
        return "This outcome is sequentially consistent: some interleaving of the threads, with every access "
               "in program order, produces it. No barrier can forbid it; the protocol's logic allows it.";
    std::string out;
    // Who saw what: the reads that miss a write (fr), else those that read from another thread.
    std::vector<std::string> seen;
    for (const CycleStep& s : c.steps) {
        if (s.relation.rfind("fr", 0) != 0 || s.from.thread == s.to.thread) continue;  // fri: po order, nothing missed
        const Event& r = g.event(s.from);
        const Event& w = g.event(s.to);
        const Event& src = g.event(*r.reads_from);
        const std::string loc = g.location_name(*r.location);
        std::string from = src.id.thread == EventId::init_thread ? "the initial value"
                           : src.id.thread == r.id.thread    ? "its own earlier write"
                                                             : g.thread_name(src.id.thread) + "'s write";
        seen.push_back(call_of(g, r, v) + " read " + loc + " = " + std::to_string(r.read_value) + " (" + from +
                       "), missing " + call_of(g, w, v) + " of " + std::to_string(w.written_value));
    }
    if (seen.empty())
        for (const CycleStep& s : c.steps) {
            if (s.relation.rfind("rf", 0) != 0 || s.from.thread == s.to.thread) continue;
            const Event& r = g.event(s.to);
            seen.push_back(call_of(g, r, v) + " read " + g.location_name(*r.location) + " = " +
                           std::to_string(r.read_value) + " from " + call_of(g, g.event(s.from), v));
        }
    for (std::size_t i = 0; i < seen.size(); ++i) {
        out += i == 0 ? "" : i + 1 == seen.size() ? ", and " : ", ";
        out += seen[i];
    }
    if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
    if (!out.empty()) out += ". ";
    if (c.kind == ExplainingCycle::Kind::Restored) {
        std::vector<std::string> barriers;
        for (EventId b : c.barriers.empty() ? c.restored : c.barriers) {
            const Event& e = g.event(b);
            std::string name = call_of(g, e, v);
            if (e.is_fence() && e.order == MemoryOrder::Relaxed)
                name += ", removed here";
            else if (e.is_fence() && *e.primitive != '\0' && e.order != MemoryOrder::SeqCst)
                name += e.order == MemoryOrder::Acquire ? ", smp_rmb() here" : ", smp_wmb() here";
            else if (v == Vocabulary::Lkmm && *e.primitive != '\0')  // the kernel's name for what runs
                name += ", " + executed_primitive(e.primitive, e) + "() here";
            else if (v == Vocabulary::Lkmm)
                name += ", " + lkmm::names(e.lkmm) + " here instead of " + lkmm_written_name(g, e);
            else
                name += std::string(", ") + std::string(short_name(e.order)) + " here instead of " +
                        std::string(short_name(*e.weakened_from));
            barriers.push_back(name);
        }
        std::string list;
        for (std::size_t i = 0; i < barriers.size(); ++i) list += (i ? "; " : "") + barriers[i];
        out += "Restore " + list + ", and the same execution violates " + c.model + "'s " + c.axiom + " axiom (" +
               c.relation + "): the cycle above closes through the " + c.barrier_relation + " it supplies";
        // what the barrier kept in order: the events around it on the cycle
        for (std::size_t i = 0; i < c.steps.size(); ++i) {
            const CycleStep& s = c.steps[i];
            if (!s.barrier || is_restored(c.barriers, s.from)) continue;
            // s goes into a barrier; the step after it comes out
            const CycleStep& next = c.steps[(i + 1) % c.steps.size()];
            if (next.barrier && next.from == s.to && next.to != s.from) {
                out += ", ordering " + cycle_event_name(g, g.event(s.from), v) + " before " +
                       cycle_event_name(g, g.event(next.to), v) + " in " + g.thread_name(s.from.thread);
            }
        }
        if (c.barriers.empty()) out += " (the cycle does not pass through the restored event itself)";
        out += ". Without that ordering the cycle stays open, and the execution is allowed.";
        return out;
    }
    // NotSc: name the po steps the cycle needs out of order
    // one entry per run of po steps (a run passes the fences already there)
    std::vector<std::string> po_steps;
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
        if (c.steps[i].relation != "po" || (i > 0 && c.steps[i - 1].relation == "po")) continue;
        std::size_t j = i;
        std::string across;
        while (j + 1 < c.steps.size() && c.steps[j + 1].relation == "po") {
            across += (across.empty() ? "" : ", ") + cycle_event_name(g, g.event(c.steps[j].to), v);
            ++j;
        }
        po_steps.push_back(g.thread_name(c.steps[i].from.thread) + ": " + cycle_event_name(g, g.event(c.steps[i].from), v) +
                           " before " + cycle_event_name(g, g.event(c.steps[j].to), v) +
                           (across.empty() ? "" : ", across " + across));
    }
    std::string list;
    for (std::size_t i = 0; i < po_steps.size(); ++i) list += (i ? "; " : "") + po_steps[i];
    out += "No interleaving produces this: the cycle above is a cycle of po|rf|co|fr, so the execution needs "
           "some of its po steps (" + list + ") to take effect out of order. An ordering the memory model (" +
           c.model + ") honours on enough of those steps forbids it.";
    return out;
}

}  // namespace oc
