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
    std::vector<std::size_t> next(g.threads.size(), 0);
    std::size_t left = 0;
    for (std::size_t t = 1; t < g.threads.size(); ++t) left += g.threads[t].size();
    if (!g.threads.empty()) {
        next[0] = g.threads[0].size();
        for (std::size_t i = 0; i < g.threads[0].size(); ++i) out.set_step(EventId{0, static_cast<std::uint32_t>(i)}, 0);
    }
    std::uint32_t s = 0;
    while (left > 0) {
        std::size_t best = g.threads.size();
        std::uint32_t best_stamp = std::numeric_limits<std::uint32_t>::max();
        for (std::size_t t = 1; t < g.threads.size(); ++t) {
            if (next[t] >= g.threads[t].size()) continue;
            const Node& n = g.threads[t][next[t]];
            if (n.ev.reads_from && n.ev.reads_from->index >= next[n.ev.reads_from->thread]) continue;  // its write comes later
            if (n.stamp < best_stamp) {
                best_stamp = n.stamp;
                best = t;
            }
        }
        if (best == g.threads.size()) {  // an rf cycle (not under RC11): fall back to stamps
            for (std::size_t t = 1; t < g.threads.size(); ++t)
                if (next[t] < g.threads[t].size() && (best == g.threads.size() || g.threads[t][next[t]].stamp < best_stamp)) {
                    best = t;
                    best_stamp = g.threads[t][next[t]].stamp;
                }
        }
        out.set_step(EventId{static_cast<std::uint16_t>(best), static_cast<std::uint32_t>(next[best])}, ++s);
        ++next[best];
        --left;
    }
}

}  // namespace oc::graph_detail
