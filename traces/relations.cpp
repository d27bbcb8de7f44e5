// SPDX-License-Identifier: MIT
#include "traces/relations.hpp"

#include <cstddef>

namespace oc {

namespace {

bool same_thread(EventId a, EventId b) { return a.thread == b.thread; }

Relation external(const Relation& r) {
    return r.filter([](const EventPair& p) { return !same_thread(p.first, p.second); });
}

bool is_sc_fence(const Event& e) { return e.is_fence() && e.order == MemoryOrder::SeqCst; }

Relation without_identity(const Relation& r) {
    return r.filter([](const EventPair& p) { return p.first != p.second; });
}

}  // namespace

std::vector<EventId> events_where(const ExecutionGraph& g, const std::function<bool(const Event&)>& pred) {
    std::vector<EventId> out;
    for (std::size_t t = 0; t < g.thread_count(); ++t)
        for (const Event& e : g.thread(t))
            if (pred(e)) out.push_back(e.id);
    return out;  // threads and indices ascend, so this is sorted
}

bool same_location(const ExecutionGraph& g, EventId a, EventId b) {
    const Event& ea = g.event(a);
    const Event& eb = g.event(b);
    return ea.location && eb.location && *ea.location == *eb.location;
}

Relation po(const ExecutionGraph& g) {
    std::vector<EventPair> p;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        const auto& events = g.thread(t);
        for (std::size_t i = 0; i < events.size(); ++i)
            for (std::size_t j = i + 1; j < events.size(); ++j) p.emplace_back(events[i].id, events[j].id);
    }
    for (const Event& init : g.thread(EventId::init_thread))
        for (std::size_t t = 1; t < g.thread_count(); ++t)
            for (const Event& e : g.thread(t)) p.emplace_back(init.id, e.id);
    return Relation(std::move(p));
}

Relation po_imm(const ExecutionGraph& g) {
    std::vector<EventPair> p;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        const auto& events = g.thread(t);
        for (std::size_t i = 0; i + 1 < events.size(); ++i) p.emplace_back(events[i].id, events[i + 1].id);
    }
    const auto& init = g.thread(EventId::init_thread);
    if (!init.empty())
        for (std::size_t t = 1; t < g.thread_count(); ++t)
            if (!g.thread(t).empty()) p.emplace_back(init.back().id, g.thread(t).front().id);
    return Relation(std::move(p));
}

Relation po_loc(const ExecutionGraph& g) {
    return po(g).filter([&](const EventPair& p) { return same_location(g, p.first, p.second); });
}

Relation rf(const ExecutionGraph& g) {
    std::vector<EventPair> p;
    for (EventId e : g.events())
        if (auto w = g.rf_pred(e)) p.emplace_back(*w, e);
    return Relation(std::move(p));
}

Relation rfe(const ExecutionGraph& g) { return external(rf(g)); }

Relation rfi(const ExecutionGraph& g) {
    return rf(g).filter([](const EventPair& p) { return same_thread(p.first, p.second); });
}

Relation co(const ExecutionGraph& g) {
    std::vector<EventPair> p;
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto& order = g.co(static_cast<LocationId>(l));
        for (std::size_t i = 0; i < order.size(); ++i)
            for (std::size_t j = i + 1; j < order.size(); ++j) p.emplace_back(order[i], order[j]);
    }
    return Relation(std::move(p));
}

Relation co_imm(const ExecutionGraph& g) {
    std::vector<EventPair> p;
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto& order = g.co(static_cast<LocationId>(l));
        for (std::size_t i = 0; i + 1 < order.size(); ++i) p.emplace_back(order[i], order[i + 1]);
    }
    return Relation(std::move(p));
}

Relation coe(const ExecutionGraph& g) { return external(co(g)); }

Relation fr(const ExecutionGraph& g) { return without_identity(rf(g).inverse().compose(co(g))); }

Relation fr_imm(const ExecutionGraph& g) {
    const Relation from_read = fr(g);
    return from_read.minus(from_read.compose(co(g)));
}

Relation fre(const ExecutionGraph& g) { return external(fr(g)); }

Relation rmw(const ExecutionGraph& g) {
    return Relation::identity(events_where(g, [](const Event& e) { return e.kind == EventKind::Rmw; }));
}

Relation rmw_atomicity_violations(const ExecutionGraph& g) {
    // (u, u) in rmw & (fr ; co) exactly when some w has u fr w and w co u: report those (u, w).
    return fr(g)
        .intersect_with(co(g).inverse())
        .restrict_domain([&](EventId e) { return g.event(e).kind == EventKind::Rmw; });
}

bool rmw_atomicity(const ExecutionGraph& g) { return rmw_atomicity_violations(g).empty(); }

Relation rs(const ExecutionGraph& g) {
    const Relation atomic_writes =
        Relation::identity(events_where(g, [](const Event& e) { return e.is_write() && is_atomic(e); }));
    const Relation rf_rmw = rf(g).restrict_range([&](EventId e) { return g.event(e).kind == EventKind::Rmw; });
    return atomic_writes.compose_maybe(rf_rmw.transitive_closure());
}

Relation sw(const ExecutionGraph& g) {
    // Release heads: [REL] ; ([F] ; po)? ; [W & ~NA], as pairs (release event, write).
    // Acquire tails: [R & ~NA] ; (po ; [F])? ; [ACQ], as pairs (read, acquire event).
    std::vector<EventPair> heads;
    std::vector<EventPair> tails;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        const auto& events = g.thread(t);
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (!is_atomic(e)) continue;
            if (e.is_write() && is_release(e.order)) heads.emplace_back(e.id, e.id);
            if (e.is_read() && is_acquire(e.order)) tails.emplace_back(e.id, e.id);
            for (std::size_t j = i + 1; j < events.size(); ++j) {
                const Event& later = events[j];
                if (e.is_fence() && is_release(e.order) && later.is_write() && is_atomic(later))
                    heads.emplace_back(e.id, later.id);
                if (e.is_read() && later.is_fence() && is_acquire(later.order)) tails.emplace_back(e.id, later.id);
            }
        }
    }
    return Relation(std::move(heads)).compose(rs(g)).compose(rf(g)).compose(Relation(std::move(tails)));
}

Relation hb(const ExecutionGraph& g) { return po(g).union_with(sw(g)).transitive_closure(); }

Relation eco(const ExecutionGraph& g) { return rf(g).union_with(co(g)).union_with(fr(g)).transitive_closure(); }

Relation scb(const ExecutionGraph& g, const Relation& hb) {
    const Relation program_order = po(g);
    auto loc = [&](const EventPair& p) { return same_location(g, p.first, p.second); };
    const Relation po_other_loc = program_order.filter([&](const EventPair& p) { return !loc(p); });
    return program_order.union_with(po_other_loc.compose(hb).compose(po_other_loc))
        .union_with(hb.filter(loc))
        .union_with(co(g))
        .union_with(fr(g));
}

Relation psc_base(const ExecutionGraph& g, const Relation& hb) {
    const auto sc = events_where(g, [](const Event& e) { return e.order == MemoryOrder::SeqCst; });
    if (sc.empty()) return {};
    const Relation sc_id = Relation::identity(sc);
    const Relation fence_sc_id = Relation::identity(events_where(g, is_sc_fence));
    const Relation left = sc_id.union_with(fence_sc_id.compose(hb));
    const Relation right = sc_id.union_with(hb.compose(fence_sc_id));
    return left.compose(scb(g, hb)).compose(right);
}

Relation psc_f(const ExecutionGraph& g, const Relation& hb, const Relation& eco) {
    const Relation fence_sc_id = Relation::identity(events_where(g, is_sc_fence));
    if (fence_sc_id.empty()) return {};
    const Relation from_fence = fence_sc_id.compose(hb);
    return from_fence.union_with(from_fence.compose(eco).compose(hb)).compose(fence_sc_id);
}

Relation psc(const ExecutionGraph& g, const Relation& hb, const Relation& eco) {
    return psc_base(g, hb).union_with(psc_f(g, hb, eco));
}

Relation psc(const ExecutionGraph& g) { return psc(g, hb(g), eco(g)); }

}  // namespace oc
