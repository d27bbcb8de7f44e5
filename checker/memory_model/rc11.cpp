// SPDX-License-Identifier: MIT
// RC11 over dense bit matrices. Events are numbered densely (init thread first, then each thread
// in program order); a relation is one row of 64-bit words per event. The definitions follow
// traces/relations.hpp one for one, so that the two can be read side by side; the certification
// in traces/ stays the independent reference every reported execution is checked against.
#include "checker/memory_model/memory_model.hpp"

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/rc11_relations.hpp"
#include "traces/relations.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

namespace oc {

using rc11::Base;
using rc11::Dense;

namespace {

using rc11::base_relations;
using rc11::rc11_race;

Dense number(const ExecutionGraph& g) {
    Dense d;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        d.thread_start.push_back(d.ev.size());
        for (const Event& e : g.thread(t)) d.ev.push_back(&e);
    }
    return d;
}

bool atomic_event(const Event& e) { return e.order != MemoryOrder::NonAtomic; }

}  // namespace

Base rc11::base_relations(const ExecutionGraph& g) {
    Dense d0 = number(g);
    const std::size_t n = d0.ev.size();
    Base b(n);
    b.d = std::move(d0);
    const Dense& d = b.d;
    BitRel &po = b.po, &rf = b.rf, &co = b.co, &fr = b.fr;
    std::vector<std::size_t>& src = b.src;
    // po: same thread, earlier index; init events before every other event.
    const std::size_t init_count = g.thread_count() > 0 ? g.thread(0).size() : 0;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        const std::size_t s = d.thread_start[t], len = g.thread(t).size();
        for (std::size_t i = 0; i < len; ++i)
            for (std::size_t j = i + 1; j < len; ++j) po.set(s + i, s + j);
    }
    for (std::size_t i = 0; i < init_count; ++i)
        for (std::size_t j = init_count; j < n; ++j) po.set(i, j);
    // rf, and rf's source per read
    for (std::size_t i = 0; i < n; ++i)
        if (d.ev[i]->reads_from) {
            src[i] = d.index(*d.ev[i]->reads_from);
            rf.set(src[i], i);
        }
    // co, and each write's co position
    std::vector<std::size_t> co_pos(n, 0);
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto& order = g.co(static_cast<LocationId>(l));
        for (std::size_t a = 0; a < order.size(); ++a) {
            co_pos[d.index(order[a])] = a;
            for (std::size_t b = a + 1; b < order.size(); ++b) co.set(d.index(order[a]), d.index(order[b]));
        }
    }
    // fr = rf^-1 ; co \ id
    for (std::size_t r = 0; r < n; ++r) {
        if (src[r] == n) continue;
        const std::uint64_t* row = co.row(src[r]);
        std::uint64_t* out = fr.row(r);
        for (std::size_t k = 0; k < (n + 63) / 64; ++k) out[k] |= row[k];
        if (fr.test(r, r)) fr.row(r)[r / 64] &= ~(std::uint64_t{1} << (r % 64));
    }
    return b;
}

namespace {

using rc11::base_relations;
using rc11::rc11_race;

/// sw = [REL] ; ([F] ; po)? ; rs ; rf ; [R & ~NA] ; (po ; [F])? ; [ACQ]
BitRel sw_of(const ExecutionGraph& g, const Base& b) {
    const Dense& d = b.d;
    const std::size_t n = d.ev.size();
    const BitRel& rf = b.rf;
    const std::vector<std::size_t>& src = b.src;
    BitRel sw(n);
    {
        // rs successors: closure of rf restricted to RMW targets, plus identity on atomic writes
        BitRel rf_rmw(n);
        for (std::size_t r = 0; r < n; ++r)
            if (src[r] != n && d.ev[r]->kind == EventKind::Rmw) rf_rmw.set(src[r], r);
        rf_rmw.close();
        BitRel rs = rf_rmw;
        for (std::size_t i = 0; i < n; ++i)
            if (d.ev[i]->is_write() && atomic_event(*d.ev[i])) rs.set(i, i);
        for (std::size_t i = 0; i < n; ++i)
            if (!(d.ev[i]->is_write() && atomic_event(*d.ev[i]))) std::fill_n(rs.row(i), (n + 63) / 64, 0);
        BitRel heads(n), tails(n);
        for (std::size_t t = 0; t < g.thread_count(); ++t) {
            const std::size_t s = d.thread_start[t], len = g.thread(t).size();
            for (std::size_t i = 0; i < len; ++i) {
                const Event& e = *d.ev[s + i];
                if (!atomic_event(e)) continue;
                if (e.is_write() && is_release(e.order)) heads.set(s + i, s + i);
                if (e.is_read() && is_acquire(e.order)) tails.set(s + i, s + i);
                for (std::size_t j = i + 1; j < len; ++j) {
                    const Event& later = *d.ev[s + j];
                    if (e.is_fence() && is_release(e.order) && later.is_write() && atomic_event(later))
                        heads.set(s + i, s + j);
                    if (e.is_read() && later.is_fence() && is_acquire(later.order)) tails.set(s + i, s + j);
                }
            }
        }
        sw = heads.compose(rs).compose(rf).compose(tails);
    }
    return sw;
}

bool rc11_consistent(const ExecutionGraph& g) {
    const Base b = base_relations(g);
    const Dense& d = b.d;
    const std::size_t n = d.ev.size();
    const BitRel &po = b.po, &rf = b.rf, &co = b.co, &fr = b.fr;
    const std::vector<std::size_t>& src = b.src;
    // coherence (rmw;eco irreflexive): an RMW reads from a write co-before it
    for (std::size_t u = 0; u < n; ++u) {
        if (d.ev[u]->kind != EventKind::Rmw || src[u] == n) continue;
        if (src[u] == u || co.test(u, src[u])) return false;
        // atomicity: no write co-between the source and the RMW
        bool between = false;
        fr.for_each(u, [&](std::size_t w) { between = between || co.test(w, u); });
        if (between) return false;
    }
    // no-thin-air: po | rf acyclic
    {
        BitRel porf = po;
        porf.unite(rf);
        if (!porf.acyclic()) return false;
    }
    const BitRel sw = sw_of(g, b);
    BitRel hb = po;
    hb.unite(sw);
    hb.close();
    if (hb.reflexive_somewhere()) return false;
    BitRel eco = rf;
    eco.unite(co);
    eco.unite(fr);
    eco.close();
    // hb ; eco irreflexive
    if (hb.meets_inverse(eco)) return false;
    // sc: psc acyclic
    std::vector<std::size_t> sc, scf;
    for (std::size_t i = 0; i < n; ++i) {
        if (d.ev[i]->order != MemoryOrder::SeqCst) continue;
        sc.push_back(i);
        if (d.ev[i]->is_fence()) scf.push_back(i);
    }
    if (sc.empty()) return true;
    // per-location masks: the events of each event's location (empty for fences)
    const std::size_t words = po.words();
    std::vector<std::uint64_t> loc_bits(g.location_count() * words, 0);
    for (std::size_t i = 0; i < n; ++i)
        if (d.ev[i]->location) loc_bits[*d.ev[i]->location * words + i / 64] |= std::uint64_t{1} << (i % 64);
    const std::vector<std::uint64_t> none(words, 0);
    auto same_loc_row = [&](std::size_t a) -> const std::uint64_t* {
        return d.ev[a]->location ? loc_bits.data() + *d.ev[a]->location * words : none.data();
    };
    BitRel po_nl(n);
    for (std::size_t a = 0; a < n; ++a) {
        const std::uint64_t* same = same_loc_row(a);
        for (std::size_t w = 0; w < words; ++w) po_nl.row(a)[w] = po.row(a)[w] & ~same[w];
    }
    BitRel scb = po;
    scb.unite(po_nl.compose(hb).compose(po_nl));
    for (std::size_t a = 0; a < n; ++a) {
        const std::uint64_t* same = same_loc_row(a);
        for (std::size_t w = 0; w < words; ++w) scb.row(a)[w] |= hb.row(a)[w] & same[w];
    }
    scb.unite(co);
    scb.unite(fr);
    BitRel left(n), right(n);  // ([SC] | [F&SC];hb?) and ([SC] | hb?;[F&SC])
    for (std::size_t i : sc) {
        left.set(i, i);
        right.set(i, i);
    }
    for (std::size_t f : scf) {
        hb.for_each(f, [&](std::size_t b) { left.set(f, b); });
        for (std::size_t b = 0; b < n; ++b)
            if (hb.test(b, f)) right.set(b, f);
    }
    BitRel psc = left.compose(scb).compose(right);
    if (!scf.empty()) {
        BitRel fence_id(n);
        for (std::size_t f : scf) fence_id.set(f, f);
        BitRel from_fence = fence_id.compose(hb);
        BitRel both = from_fence;
        both.unite(from_fence.compose(eco).compose(hb));
        psc.unite(both.compose(fence_id));
    }
    // restrict psc to SC events (it already is: left/right start and end at SC events)
    return psc.acyclic();
}

/// RC11's data race: two accesses of one location in different threads, at least one a write
/// and at least one non-atomic, unordered by hb.
}  // namespace

std::optional<std::pair<EventId, EventId>> rc11::rc11_race(const ExecutionGraph& g) {
    const Base b = base_relations(g);
    const std::size_t n = b.d.ev.size();
    BitRel hb = b.po;
    hb.unite(sw_of(g, b));
    hb.close();
    for (std::size_t i = 0; i < n; ++i) {
        const Event& x = *b.d.ev[i];
        if (x.id.thread == 0 || x.is_fence()) continue;
        for (std::size_t j = i + 1; j < n; ++j) {
            const Event& y = *b.d.ev[j];
            if (y.id.thread == 0 || y.is_fence() || y.id.thread == x.id.thread || x.location != y.location) continue;
            if (!x.is_write() && !y.is_write()) continue;
            if (atomic_event(x) && atomic_event(y)) continue;
            if (!hb.test(i, j) && !hb.test(j, i)) return std::make_pair(x.id, y.id);
        }
    }
    return std::nullopt;
}

namespace {

using rc11::base_relations;
using rc11::rc11_race;

class Rc11 final : public MemoryModel {
public:
    std::string_view name() const override { return "RC11"; }
    bool consistent(const ExecutionGraph& g) const override { return rc11_consistent(g); }
    /// A fence orders only what follows it in its thread (sw, psc, hb all leave it through po).
    bool inert_when_last(const Event& e) const override { return e.is_fence(); }
    /// RC11's relations (sb, rf, mo, rb = rf^-1 ; mo, and hb, eco, psc built from them and
    /// [E]-restrictions) leave an event only through sb, rf, mo or rb.
    bool inert_as_sink(const Event& e) const override { return e.kind == EventKind::Read || e.kind == EventKind::Write; }
    std::optional<AxiomViolation> check(const ExecutionGraph& g) const override { return check_rc11(g); }
    std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override { return rc11_race(g); }
};

}  // namespace

const MemoryModel& rc11_model() {
    static const Rc11 model;
    return model;
}

}  // namespace oc
