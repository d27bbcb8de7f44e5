// SPDX-License-Identifier: MIT
// The execution-graph engine's graph state: what reading from a write does to a node, and the
// graph as the memory model and the sink see it (an ExecutionGraph).
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

void GraphEngine::set_rf(Graph& g, Node& r, EventId w) {
    const Value v = g.at(w).ev.written_value;
    r.ev.reads_from = w;
    r.ev.read_value = v;
    r.guessed = false;
    if (!r.spec.present) return;
    // The write part is added later (by the replay, or right away by update()).
    r.ev.kind = EventKind::Read;
    r.ev.written_value = 0;
    if (r.spec.cas && v != r.spec.expected) {
        r.pending = false;
        r.ev.order = r.spec.failure;
    } else {
        r.pending = true;
        r.ev.order = r.spec.success;
    }
}

bool GraphEngine::consistent(const Graph& g) {
    to_execution_graph(g, scratch_, false);
    return model_.consistent(scratch_);
}

/// The LKMM tags the memory model sees on `n` (ev.lkmm holds the extra tags only). A lock
/// acquisition whose read was revisited and whose write part the replay will add (pending) is
/// neither what its kind says for now, a failed attempt (an LF, which lock.cat lets read only
/// from a lock), nor yet an LKR (whose rf lock.cat derives from its LKW): it is shown as a
/// marked read with no lock semantics, as the engine's failed spin_lock() attempt is
/// (cat_builtins.cpp). That orders less than the LKR it becomes, so no prefix of an execution is
/// refused; the complete graph is judged with the LKR and LKW.
static std::uint32_t model_tags(const Node& n) {
    const std::uint32_t tags = n.lkmm_tags();
    if (n.pending && (tags & (lkmm::LockFail | lkmm::LockRmw)) != 0) return lkmm::Once;
    return tags;
}

std::uint32_t Node::lkmm_tags() const {
    // lkmm_tags_of() compares the primitive's name with its table: done again only when
    // something it reads changed since (a primitive's name never changes where it lives)
    const std::uint32_t key = static_cast<std::uint32_t>(ev.kind) | static_cast<std::uint32_t>(ev.order) << 4 |
                              (ev.weakened_from ? 1u : 0u) << 8 | (ev.read_value != 0 ? 1u : 0u) << 9 | 1u << 10;
    if (tags_primitive != ev.primitive || tags_key != key) {
        tags_primitive = ev.primitive;
        tags_key = key;
        tags = lkmm_tags_of(ev);
    }
    return tags | ev.lkmm;
}

void GraphEngine::names_into(const Graph& g, ExecutionGraph& out) const {
    if (out.thread_count() != variant_.thread_count() + 1) out.set_thread_names(variant_.thread_names);
    const ExecutionGraph& names = rt_->graph();
    out.set_tag_namer(names.tag_namer());
    while (out.location_count() < g.co.size()) {
        const auto l = static_cast<LocationId>(out.location_count());
        out.add_location(l < names.location_count() ? names.location_name(l) : "loc" + std::to_string(l));
    }
}

void GraphEngine::thread_graph(const Graph& g, std::uint16_t gt, ExecutionGraph& out) const {
    names_into(g, out);
    out.clear_events();
    for (const Node& n : g.threads[gt]) {
        Event& e = out.append_in_place(n.ev);
        if (kernel_events_) e.lkmm = model_tags(n);
        e.reads_from.reset();
    }
    static const std::vector<EventId> none;
    for (std::size_t l = 0; l < out.location_count(); ++l) out.assign_co(static_cast<LocationId>(l), none);
}

void GraphEngine::to_execution_graph(const Graph& g, ExecutionGraph& out, bool with_steps) {
    names_into(g, out);
    out.clear_events();
    if (kernel_events_ || with_steps) {
        for (const auto& t : g.threads)
            for (const Node& n : t) {
                Event& e = out.append_in_place(n.ev);
                if (kernel_events_) e.lkmm = model_tags(n);
                if (n.guessed) e.reads_from.reset();  // a guess: the model sees no rf yet
            }
    } else {
        for (const auto& t : g.threads)
            for (const Node& n : t) out.append(n.ev);
    }
    for (std::size_t l = 0; l < g.co.size(); ++l) out.assign_co(static_cast<LocationId>(l), g.co[l]);
    if (with_steps) number_steps(g, out);
}

void GraphEngine::number_steps(const Graph& g, ExecutionGraph& out) const {
    // An order of the events in which po and rf point forward, the earliest-added first: the
    // interleaving diagram draws it. Init's events are step 0. A thread's events are numbered
    // in po order, so an event is numbered exactly when its index is below its thread's next.
    // A thread whose next event reads a write not numbered yet waits on the write's thread;
    // the others are ready, in a heap by the stamp of their next event.
    const std::size_t nt = g.threads.size();
    if (nt == 0) return;
    StepScratch& s = steps_;
    for (std::size_t i = 0; i < g.threads[0].size(); ++i) out.set_step(EventId{0, static_cast<std::uint32_t>(i)}, 0);
    // Stamps grow along po. Where every read was also added after the event it reads from
    // (no revisit turned an rf edge back), the earliest-added ready event is always the
    // earliest-added of all, and the order is the stamps' order: a counting sort.
    std::uint32_t lo = std::numeric_limits<std::uint32_t>::max(), hi = 0;
    std::size_t events = 0;
    bool by_stamp = true;
    for (std::size_t t = 1; t < nt && by_stamp; ++t)
        for (const Node& n : g.threads[t]) {
            lo = std::min(lo, n.stamp);
            hi = std::max(hi, n.stamp);
            ++events;
            if (n.ev.reads_from && n.ev.reads_from->thread != 0 && g.at(*n.ev.reads_from).stamp >= n.stamp) {
                by_stamp = false;
                break;
            }
        }
    if (events == 0) return;
    if (by_stamp && hi - lo < 4 * events + 64) {
        s.by_stamp.assign(hi - lo + 1, EventId{0, 0});
        for (std::size_t t = 1; t < nt; ++t)
            for (const Node& n : g.threads[t]) s.by_stamp[n.stamp - lo] = n.ev.id;
        std::uint32_t step = 0;
        for (const EventId id : s.by_stamp)
            if (id.thread != 0) out.set_step(id, ++step);
        return;
    }
    s.next.assign(nt, 0);
    s.waits_on.assign(nt, none);
    if (s.waiting.size() < nt) s.waiting.resize(nt);
    for (auto& w : s.waiting) w.clear();
    s.ready.clear();
    s.next[0] = static_cast<std::uint32_t>(g.threads[0].size());
    const auto later = [](const std::pair<std::uint32_t, std::uint16_t>& a, const std::pair<std::uint32_t, std::uint16_t>& b) {
        return a.first > b.first;
    };
    const auto settle = [&](std::uint16_t t) {  // t's next event: ready, or waiting on its write's thread
        s.waits_on[t] = none;
        if (s.next[t] >= g.threads[t].size()) return;
        const Node& n = g.threads[t][s.next[t]];
        if (n.ev.reads_from && n.ev.reads_from->index >= s.next[n.ev.reads_from->thread]) {
            s.waits_on[t] = n.ev.reads_from->thread;
            s.waiting[n.ev.reads_from->thread].push_back(t);
        } else {
            s.ready.emplace_back(n.stamp, t);
            std::push_heap(s.ready.begin(), s.ready.end(), later);
        }
    };
    std::size_t left = 0;
    for (std::size_t t = 1; t < nt; ++t) {
        left += g.threads[t].size();
        settle(static_cast<std::uint16_t>(t));
    }
    std::uint32_t step = 0;
    while (left > 0) {
        std::uint16_t t = 0;
        if (!s.ready.empty()) {
            std::pop_heap(s.ready.begin(), s.ready.end(), later);
            t = s.ready.back().second;
            s.ready.pop_back();
        } else {  // an rf cycle (not under RC11): the waiting thread whose next event came first
            std::uint32_t best_stamp = std::numeric_limits<std::uint32_t>::max();
            for (std::size_t u = 1; u < nt; ++u)
                if (s.next[u] < g.threads[u].size() && g.threads[u][s.next[u]].stamp < best_stamp) {
                    best_stamp = g.threads[u][s.next[u]].stamp;
                    t = static_cast<std::uint16_t>(u);
                }
        }
        out.set_step(EventId{t, s.next[t]}, ++step);
        ++s.next[t];
        --left;
        // the threads that waited on t's writes, and t itself, look again (an entry of a
        // thread that no longer waits on t is stale)
        std::vector<std::uint16_t>& woken = s.woken;
        woken.swap(s.waiting[t]);
        s.waiting[t].clear();
        for (const std::uint16_t u : woken)
            if (s.waits_on[u] == t) settle(u);
        woken.clear();
        settle(t);
    }
}

}  // namespace oc::graph_detail
