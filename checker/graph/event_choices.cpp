// SPDX-License-Identifier: MIT
// The execution-graph engine as the runtime's Engine: each operation of the model either replays
// its event in the graph (checked against it) or adds a new event and branches over its choices,
// a read over the writes it may read from, a write over its coherence placements (each with its
// backward revisits, revisits.cpp), an RMW over both. The first choice continues in place; the
// others are pushed as whole graphs.
#include "checker/graph/graph_engine_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdint>
#include <limits>
#include <map>
#include <new>
#include <stdexcept>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace oc::graph_detail {

void GraphEngine::init_write(LocationId loc, Tagged init, MemoryOrder order) {
    const EventId id = unpack(init.writer);
    if (g_.co.size() <= loc) g_.co.resize(loc + 1u);
    if (replaying(id)) {
        replayed(id, "an initial write", loc);
        return;
    }
    Node n;
    n.ev.id = id;
    n.ev.kind = EventKind::Write;
    n.ev.order = order;
    n.ev.location = loc;
    n.ev.written_value = init.value;
    n.stamp = 0;  // init writes precede everything and are never deleted
    g_.threads[0].push_back(n);
    g_.co[loc].assign(1, id);
}

Node& GraphEngine::replayed(EventId id, const char* what, LocationId loc) {
    Node& n = g_.at(id);
    if (n.ev.location != loc)
        throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() + " made " +
                                 what + " where the graph has another event (thread " +
                                 std::to_string(id.thread) + ", event " + std::to_string(id.index) + ")");
    return n;
}

Node& GraphEngine::guess(Graph& g, EventId id, LocationId loc, Value v) {
    Node& r = g.at(id);
    set_rf(g, r, g.co[loc].front());  // a placeholder: the model sees no rf for a guess
    r.ev.read_value = v;
    r.guessed = true;
    r.rmax = false;
    r.revisitable = false;
    return r;
}

std::vector<Value> GraphEngine::guessable_values(EventId id, LocationId loc) const {
    // Not the read of a primitive that retries on the value it reads (atomic_add_unless()): its
    // retry loop is control flow that no dependency records.
    std::vector<Value> guessable;
    if (guesses_ != nullptr && loc < guesses_->writes.size() && std::strcmp(g_.at(id).ev.primitive, "atomic_add_unless") != 0)
        for (const auto& [uv, prefix] : guesses_->writes[loc])
            if (const auto [u, v] = uv; u != id.thread && id.index < prefix[id.thread] &&
                std::find(guessable.begin(), guessable.end(), v) == guessable.end())
                guessable.push_back(v);
    return guessable;
}

Tagged GraphEngine::read(LocationId loc, MemoryOrder order) {
    if (rt_->phase() == Phase::Final) return co_max(loc);
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {
        const Node& n = replayed(id, "a read", loc);
        if (n.guessed) return Tagged{n.ev.read_value, pack(*n.ev.reads_from)};
        return tagged(*n.ev.reads_from);
    }
    g_.threads[id.thread].push_back(new_node(id, EventKind::Read, order, loc));
    if (at_quiescence()) {  // after every thread: the final value
        set_rf(g_, g_.at(id), g_.co[loc].back());
        return tagged(*g_.at(id).ev.reads_from);
    }
    // Load buffering: the read may take a value a write not in the graph yet will write. Such a
    // graph is never revisited (it came from a guess) and never deleted by a revisit (rmax false:
    // the revisit builds the same graph from the branch without the guess).
    // Under LKMM (and a cat model whose probes show it) an acquire read orders every marked
    // access after it (acq-po, in hb), so a cycle through it needs a plain write after it that a
    // marked read may read; whether a read of its thread and location ever had one is learnt
    // with the values, as for the RMW reads (push_rmw_guesses()). Without one the guess is not
    // made: its runs are no execution, and a loop they cut at --unroll would count.
    const bool acquire = guesses_ != nullptr && (g_.at(id).lkmm_tags() & lkmm::Acquire) != 0 &&
                         (model_.orders() & ordering::acquire) != 0;
    const bool acquire_bound = acquire && id.thread < guesses_->free_read.size() &&
                               (loc >= guesses_->free_read[id.thread].size() ||
                                (guesses_->free_read[id.thread][loc] & Guesses::free_after_acquire) == 0);
    // Where the program's text decides (VariantDef::ordered_reads), a read it shows ordered
    // before every later write of its thread guesses nothing (its guesses would all end with the
    // thread), and one it does not, guesses: the executions found so far may not show the path
    // that leaves a write unordered (LB+mb-on-one-path+data).
    const std::optional<bool> text = guesses_ != nullptr ? text_ordered(id) : std::nullopt;
    // With cycle revisits, a read nothing depends on guesses nothing: a revisit builds its cycles.
    const bool no_guess = (text ? *text && !options_.guess_ordered_reads : acquire_bound) || undepended(id);
    for (const Value v : no_guess ? std::vector<Value>{} : guessable_values(id, loc)) {
        Graph h = g_;
        guess(h, id, loc, v);
        Event seen = h.at(id).ev;  // as the model sees it: no rf
        seen.reads_from.reset();
        if (model_.inert_when_last(seen))
            push(std::move(h));
        else if (consistent(h))
            push_checked(std::move(h));
    }
    // Forward choices: every write of the location, the co-latest first.
    const std::vector<EventId> writes = g_.co[loc];
    std::optional<EventId> chosen;
    for (std::size_t i = writes.size(); i-- > 0;) {
        Node& r = g_.at(id);
        set_rf(g_, r, writes[i]);
        r.rmax = i + 1 == writes.size();
        const bool inert = r.rmax && inert_as_sink(r);
        if (chosen && defer_checks_) {  // asked when it is popped, or answered by its completion
            push(Graph(g_));
            continue;
        }
        if (!inert && !consistent(g_)) continue;
        if (!chosen) {
            chosen = writes[i];
            continue;
        }
        if (inert)
            push(Graph(g_));
        else
            push_checked(Graph(g_));
    }
    if (!chosen) throw DeadBranch{};
    Node& r = g_.at(id);
    set_rf(g_, r, *chosen);
    r.rmax = *chosen == writes.back();
    return tagged(*chosen);
}

bool GraphEngine::inert_as_sink(const Node& n) const {
    if (model_.inert_as_sink(n.ev)) return true;
    if (!model_.inert_as_sink_without_locks(n.ev)) return false;
    // the tags the model may read as a lock event's (graph_state.cpp's model_tags() shows a
    // pending lock acquisition as neither: counting it too asks more, never less)
    constexpr std::uint32_t lock_tags = lkmm::LockRmw | lkmm::Unlock | lkmm::LockFail | lkmm::ReadLocked | lkmm::ReadUnlocked;
    for (const std::vector<Node>& thread : g_.threads)
        for (const Node& m : thread)
            if ((m.lkmm_tags() & lock_tags) != 0) return false;
    return true;
}

void GraphEngine::write(LocationId loc, Value v, MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {  // recorded() checks the replayed event
        replayed(id, "a write", loc);
        return;
    }
    Node n = new_node(id, EventKind::Write, order, loc);
    n.ev.written_value = v;
    n.wstamp = n.stamp;
    g_.threads[id.thread].push_back(n);
    if (at_quiescence()) {
        g_.co[loc].push_back(id);
        return;
    }
    // Co placements: after each write already in co, the co-latest first; each one also yields
    // its backward revisits.
    const std::size_t count = g_.co[loc].size();
    std::optional<std::size_t> chosen;
    for (std::size_t p = count; p >= 1; --p) {
        g_.co[loc].insert(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(p), id);
        g_.at(id).wmax = p == count;
        // co-latest, and read by no read yet: a sink, as far as the model's relations go
        const bool ok = (p == count && inert_as_sink(g_.at(id))) || consistent(g_);
        Graph before_ipr;
        const bool ipr = ok && in_place_revisits(id, before_ipr);
        backward_revisits(g_, id);
        if (ok) {
            if (ipr || chosen)
                push(Graph(g_));  // with a waiting thread revisited in place: it resumes there
            else
                chosen = p;
        }
        if (ipr) g_ = std::move(before_ipr);
        g_.co[loc].erase(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(p));
    }
    if (!chosen) throw DeadBranch{};
    g_.co[loc].insert(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(*chosen), id);
    g_.at(id).wmax = *chosen == count;
}


void GraphEngine::place_write_part(EventId id) {
    Node& u = g_.at(id);
    const LocationId loc = *u.ev.location;
    u.ev.kind = EventKind::Rmw;
    u.ev.written_value = u.spec.cas ? u.spec.desired : apply(u.spec.op, u.ev.read_value, u.spec.operand);
    u.pending = false;
    u.wstamp = g_.next_stamp++;
    u.wmax = true;
    auto& co = g_.co[loc];
    const std::size_t p = g_.co_position(loc, *u.ev.reads_from);
    co.insert(co.begin() + static_cast<std::ptrdiff_t>(p + 1), id);
}

void GraphEngine::add_write_part(EventId id) {
    place_write_part(id);
    if (at_quiescence()) return;
    const bool ok = consistent(g_);
    Graph before_ipr;
    const bool ipr = ok && in_place_revisits(id, before_ipr);
    backward_revisits(g_, id);
    if (ipr) {  // a waiting thread resumes in the pushed graph; this run's version is superseded
        push(Graph(g_));
        throw DeadBranch{};
    }
    if (!ok) throw DeadBranch{};
}


void GraphEngine::push_rmw_guesses(EventId id, LocationId loc) {
    // Load buffering through an RMW's read part, as read() does for a plain read. The read part
    // of an RMW or of a failed compare-exchange may be the only read of a po | rf cycle that has
    // a po-later write not depending on it (LB+xchg_relaxed+data, LB+cmpxchg-fails+data), and
    // then no other read of the cycle can be guessed instead (guess_can_close_a_cycle() drops
    // their guesses). A compare-exchange that guesses another value than the expected one fails:
    // a read. One that guesses the expected value, or any other RMW, writes: its write part must
    // end up right after the write that supplies the guess, which is not in the graph yet, so it
    // is placed as a write is, after each write already in co (with that placement's revisits);
    // the atomicity axiom keeps only the matchings in which the supplying write lands right
    // before it.
    // Only a read with a po-later write of its thread that does not depend on it needs to
    // guess (guess_can_close_a_cycle()), and for an acquire read part (acquire, fully ordered,
    // spin_lock's LKR) a plain one, since acq-po orders every marked access after it; which RMW
    // reads have one is learnt with the values. A failed compare-exchange is judged as a relaxed
    // read whatever its order.
    const std::uint8_t free =
        guesses_ != nullptr && id.thread < guesses_->free_read.size() && loc < guesses_->free_read[id.thread].size()
            ? guesses_->free_read[id.thread][loc]
            : 0;
    // Only where the variant states its dependencies exactly (a litmus test; a C++ model that
    // says so): for a model that states none every read looks free, and the RMW guesses then cost
    // 40 times the search of the catalogue under LKMM. There the RMW reads do not guess, which
    // docs/lkmm.md ("Limits") and every such report state.
    // Where the program's text decides (VariantDef::ordered_reads), it does instead: what the
    // executions found so far show can miss the path on which a write follows unordered
    // (LB+xchg-mb-on-one-path+data: the fence runs in every execution without the cycle).
    if (!variant_.exact_dependencies) return;
    const std::optional<bool> text = text_ordered(id);
    if (text ? *text && !options_.guess_ordered_reads : (free & Guesses::free_after_relaxed) == 0) return;
    const std::vector<Value> guessable = guessable_values(id, loc);
    if (guessable.empty()) return;
    const Graph saved = g_;
    for (const Value v : guessable) {
        g_ = saved;
        Node& r = guess(g_, id, loc, v);
        if (r.spec.cas && v != r.spec.expected) {
            r.pending = false;
            r.ev.order = r.spec.failure;
            if (consistent(g_)) push_checked(Graph(g_));
            continue;
        }
        if (is_acquire(r.spec.success) && !text && (free & Guesses::free_after_acquire) == 0) continue;
        r.pending = false;
        r.ev.order = r.spec.success;
        r.ev.kind = EventKind::Rmw;
        r.ev.written_value = r.spec.cas ? r.spec.desired : apply(r.spec.op, v, r.spec.operand);
        r.wstamp = g_.next_stamp++;
        const Graph placed = g_;
        const std::size_t count = placed.co[loc].size();
        for (std::size_t p = count; p >= 1; --p) {
            g_ = placed;
            g_.co[loc].insert(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(p), id);
            g_.at(id).wmax = p == count;
            const bool ok = consistent(g_);
            Graph before_ipr;
            if (ok) in_place_revisits(id, before_ipr);
            backward_revisits(g_, id);
            if (ok) push(Graph(g_));
        }
    }
    g_ = saved;
}

std::pair<Tagged, bool> GraphEngine::update(LocationId loc, const RmwSpec& spec) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {
        Node& n = replayed(id, "an RMW", loc);
        if (!n.spec.present || n.spec.cas != spec.cas)
            throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() +
                                     " made an RMW where the graph has another kind of event");
        n.spec = spec;
        if (n.pending) add_write_part(id);
        const Node& m = g_.at(id);
        if (m.guessed) return {Tagged{m.ev.read_value, pack(*m.ev.reads_from)}, m.ev.kind == EventKind::Rmw};
        return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
    }
    Node n = new_node(id, EventKind::Read, spec.success, loc);
    n.spec = spec;
    n.ev.rmw_data = !spec.cas && spec.op != RmwOp::Exchange;  // as Runtime::rmw()
    g_.threads[id.thread].push_back(n);
    if (at_quiescence()) {
        set_rf(g_, g_.at(id), g_.co[loc].back());
        if (g_.at(id).pending) add_write_part(id);
        const Node& m = g_.at(id);
        return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
    }
    push_rmw_guesses(id, loc);
    // Forward choices over every write of the location; a successful RMW sits right after the
    // write it reads from, and every choice also yields the backward revisits of its write.
    const std::vector<EventId> writes = g_.co[loc];
    std::optional<EventId> chosen;
    const Graph before = g_;
    const EventId latest = g_.co[loc].back();
    for (std::size_t i = writes.size(); i-- > 0;) {
        g_ = before;
        Node& r = g_.at(id);
        set_rf(g_, r, writes[i]);
        r.rmax = writes[i] == latest;
        if (r.pending) {
            try {
                add_write_part(id);
            } catch (const DeadBranch&) {
                continue;
            }
        } else if (!consistent(g_)) {
            continue;
        }
        if (!chosen) {
            chosen = writes[i];
            continue;
        }
        push_checked(Graph(g_));  // add_write_part() or the line above found it consistent
    }
    if (!chosen) throw DeadBranch{};
    g_ = before;
    Node& r = g_.at(id);
    set_rf(g_, r, *chosen);
    r.rmax = *chosen == latest;
    // The chosen write part's revisits were pushed in the loop: place it without them.
    if (r.pending) place_write_part(id);
    const Node& m = g_.at(id);
    return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
}

void GraphEngine::fence(MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) return;  // recorded() checks the replayed event
    g_.threads[id.thread].push_back(new_node(id, EventKind::Fence, order, std::nullopt));
    if (!at_quiescence() && !model_.inert_when_last(g_.at(id).ev) && !consistent(g_)) throw DeadBranch{};
}

void GraphEngine::located_fence(LocationId loc, MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) return;
    g_.threads[id.thread].push_back(new_node(id, EventKind::Fence, order, loc));
    if (!at_quiescence() && !model_.inert_when_last(g_.at(id).ev) && !consistent(g_)) throw DeadBranch{};
}

void GraphEngine::recorded(const Event& e) {
    if (e.id.thread >= recorded_count_.size()) recorded_count_.resize(e.id.thread + 1u, 0);
    ++recorded_count_[e.id.thread];
    if (!g_.has(e.id)) throw std::logic_error("ordercheck: graph engine: the runtime recorded an event the engine did not add");
    Node& n = g_.at(e.id);
    if (n.ev.kind != e.kind || n.ev.location != e.location || n.ev.order != e.order ||
        (e.is_write() && n.ev.written_value != e.written_value))
        throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() +
                                 " recorded " + std::string(short_name(e.kind)) + " at " + e.where.file + ":" +
                                 std::to_string(e.where.line) + " where the graph has another event");
    n.ev.where = e.where;
    if (e.is_fence()) n.ev.written_value = e.written_value;  // an SRCU event's index
    n.ev.primitive = e.primitive;
    n.ev.weakened_from = e.weakened_from;
    n.ev.op = e.op;
    n.ev.at_quiescence = e.at_quiescence;
}

}  // namespace oc::graph_detail
