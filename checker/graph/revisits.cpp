// SPDX-License-Identifier: MIT
// The execution-graph engine's revisits: in-place revisits of waiting threads' reads, and backward
// revisits of earlier reads by a new write, taken only when every event they delete was added
// maximally (docs/graph-engine.md, "Optimality"), which is what makes each graph come out once.
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

bool GraphEngine::in_place_revisits(EventId a, Graph& before) {
    const LocationId loc = *g_.at(a).ev.location;
    bool changed = false;
    for (EventId rid : blocked_reads_) {
        // a guessed read waits for no write in the graph: its value comes from a write to come
        if (!g_.has(rid) || rid == a || g_.at(rid).guessed) continue;
        if (!g_.at(rid).ev.is_read() || g_.at(rid).ev.location != loc || g_.at(rid).ev.reads_from == a) continue;
        // a waiting compare-and-swap whose backward revisit by a deletes events gets that
        // revisit instead (try_revisit()): the exploration after it rebuilds the kept events too
        if (g_.at(rid).spec.present && g_.at(rid).spec.cas && revisit_deletes(g_, a, rid)) continue;
        if (!changed) before = g_;
        const Node saved = g_.at(rid);
        set_rf(g_, g_.at(rid), a);
        g_.at(rid).rmax = true;
        // The read now takes a, the co-latest write, as a read added after a would: a later
        // backward revisit that deletes a may delete it too (try_revisit(): a read revisited by
        // a deleted write is not added maximally; this one is).
        g_.at(rid).took_in_place = g_.at(a).write_stamp();
        if (consistent(g_))
            changed = true;
        else
            g_.at(rid) = saved;
    }
    return changed;
}

/// What a backward revisit of a read added at stamp `sr` keeps of `g`, per thread: the events
/// added up to the read and the revisiting write's porf-prefix (`prefix`), both po-prefixes;
/// `cut[t]`: the last kept event keeps its read part only. False when that would cut a guessed
/// RMW apart (its write part is placed with its read part): no revisit.
static bool revisit_keeps(const Graph& g, std::uint32_t sr, const std::vector<std::uint32_t>& prefix,
                          std::vector<std::uint32_t>& keep, std::vector<bool>& cut) {
    const std::size_t nt = g.threads.size();
    keep.assign(nt, 0);
    cut.assign(nt, false);
    for (std::size_t t = 0; t < nt; ++t) {
        std::uint32_t k = 0;
        while (k < g.threads[t].size() && (t == 0 || g.threads[t][k].stamp <= sr)) ++k;
        keep[t] = std::max(k, prefix[t]);
        if (keep[t] > 0 && keep[t] > prefix[t]) {
            const Node& last = g.threads[t][keep[t] - 1];
            if (last.ev.kind == EventKind::Rmw && last.wstamp > sr) {
                if (last.guessed) return false;
                cut[t] = true;
            }
        }
    }
    return true;
}

/// Whether a revisit keeping `keep` (and `cut`) of g deletes an event or an RMW's write part.
static bool deletes(const Graph& g, const std::vector<std::uint32_t>& keep, const std::vector<bool>& cut) {
    for (std::size_t t = 1; t < g.threads.size(); ++t)
        if (keep[t] < g.threads[t].size() || cut[t]) return true;
    return false;
}

bool GraphEngine::revisit_deletes(const Graph& g, EventId a, EventId rid) const {
    std::vector<std::uint32_t> keep;
    std::vector<bool> cut;
    return revisit_keeps(g, g.at(rid).stamp, porf_prefix(g, a), keep, cut) && deletes(g, keep, cut);
}

std::vector<std::uint32_t> GraphEngine::porf_prefix(const Graph& g, EventId a) const {
    std::vector<std::uint32_t> pre(g.threads.size(), 0);
    pre[0] = static_cast<std::uint32_t>(g.threads[0].size());
    std::vector<EventId> work{EventId{a.thread, a.index}};
    while (!work.empty()) {
        const EventId e = work.back();
        work.pop_back();
        const std::uint32_t want = e.index + 1;
        if (want <= pre[e.thread]) continue;
        const std::uint32_t from = pre[e.thread];
        pre[e.thread] = want;
        for (std::uint32_t i = from; i < want; ++i) {
            const Node& n = g.threads[e.thread][i];
            if (n.ev.reads_from && n.ev.reads_from->thread != 0) work.push_back(*n.ev.reads_from);
        }
    }
    return pre;
}

void GraphEngine::backward_revisits(const Graph& g, EventId a) {
    const Node& an = g.at(a);
    const LocationId loc = *an.ev.location;
    const auto prefix = porf_prefix(g, a);
    // An RMW that reads from the same write as another RMW conflicts with it; only reads added
    // up to the other RMW can resolve that (by revisiting it or deleting it). A guessed RMW read
    // reads from no write yet (its rf is a placeholder): it conflicts with none.
    std::uint32_t limit = std::numeric_limits<std::uint32_t>::max();
    if (an.ev.kind == EventKind::Rmw && !an.guessed)
        for (std::size_t t = 1; t < g.threads.size(); ++t)
            for (const Node& u : g.threads[t])
                if (u.ev.id != a && u.ev.kind == EventKind::Rmw && !u.guessed && u.ev.reads_from == an.ev.reads_from)
                    limit = std::min(limit, u.stamp);
    for (std::size_t t = 1; t < g.threads.size(); ++t)
        for (std::size_t i = prefix[t]; i < g.threads[t].size(); ++i) {
            const Node& r = g.threads[t][i];
            if (!r.ev.is_read() || r.ev.location != loc || r.ev.id == a || r.stamp > limit) continue;
            if (r.ev.at_quiescence || !r.revisitable) continue;
            const bool blocked = std::find(blocked_reads_.begin(), blocked_reads_.end(), r.ev.id) != blocked_reads_.end();
            // a waiting read is revisited in place (in_place_revisits()); a waiting compare-and-swap
            // (a lock attempt) backward too, when that deletes events (try_revisit())
            if (blocked && !(r.spec.present && r.spec.cas)) continue;
            try_revisit(g, a, r.ev.id, prefix, blocked);
        }
    if (cycle_revisits_) cycle_revisits(g, a, prefix, limit);
}

void GraphEngine::cycle_revisits(const Graph& g, EventId a, const std::vector<std::uint32_t>& prefix,
                                 std::uint32_t limit) {
    // A read r of a's location in a's porf-prefix: a po-later event of r's thread leads to a
    // through po and rf. a may still revisit r when no event of r's thread that the revisit
    // keeps (those up to prefix[t]) depends on r's value (Node::replay): each then happens as
    // before and writes what it wrote, and so does everything that reads from them, a
    // included. The graph has a po | rf cycle through r, which LKMM may allow. (Events of other
    // threads depend on r only through a write of r's thread that depends on it.) Only plain
    // reads, not an RMW's read part (also a failed one): its write part would move in co, or
    // come and go with the value read.
    const LocationId loc = *g.at(a).ev.location;
    for (std::size_t t = 1; t < g.threads.size(); ++t) {
        if (t == a.thread) continue;  // r po-before a, of its location: a coherence cycle
        const auto& th = g.threads[t];
        for (std::size_t i = 0; i < prefix[t] && i < 64; ++i) {
            const Node& r = th[i];
            if (r.ev.kind != EventKind::Read || r.spec.present || r.ev.location != loc || r.stamp > limit) continue;
            if (r.ev.at_quiescence || r.guessed || r.pending) continue;
            if (std::find(blocked_reads_.begin(), blocked_reads_.end(), r.ev.id) != blocked_reads_.end()) continue;
            bool independent = true;
            for (std::size_t j = i + 1; j < prefix[t] && independent; ++j) independent = (th[j].replay >> i & 1u) == 0;
            if (independent) try_revisit(g, a, r.ev.id, prefix, false, true);
        }
    }
}

void GraphEngine::try_revisit(const Graph& g, EventId a, EventId rid, const std::vector<std::uint32_t>& prefix,
                              bool blocked, bool cycle) {
    const Node& r = g.at(rid);
    const Node& an = g.at(a);
    const std::uint32_t sr = r.stamp;
    const std::size_t nt = g.threads.size();
    std::vector<std::uint32_t> keep;
    std::vector<bool> cut;
    if (!revisit_keeps(g, sr, prefix, keep, cut)) return;
    // A waiting read is revisited in place by the new write (in_place_revisits()); backward, only
    // when the revisit deletes events, which the in-place revisit keeps.
    if (blocked && !deletes(g, keep, cut)) return;
    auto kept_write = [&](EventId w) {
        return w.index < keep[w.thread] && !(cut[w.thread] && w.index + 1 == keep[w.thread]);
    };
    const LocationId loc = *an.ev.location;
    // The revisiting write's co-successor, if any, must stay.
    if (an.ev.kind == EventKind::Write) {
        const auto& co = g.co[loc];
        const std::size_t p = g.co_position(loc, a);
        if (p + 1 < co.size() && !kept_write(co[p + 1])) return;
    }
    // Every deleted part, and r itself, must have been added maximally.
    auto successor_kept = [&](EventId w, EventId self) {
        const LocationId l = *g.at(w).ev.location;
        const auto& co = g.co[l];
        for (std::size_t j = g.co_position(l, w) + 1; j < co.size(); ++j)
            if (co[j] != a && co[j] != self && kept_write(co[j])) return true;
        return false;
    };
    // A read revisited by a deleted write was not added maximally: the graph before that revisit
    // builds the same revisited graph. A waiting read that took a deleted write in place is
    // deleted here anyway: the graph in which it still waited need not have seen this revisit
    // (await+chain-after-write: the writer runs before the revisiting write's thread can).
    // Where it did, the revisited graph comes out twice; the execution goes to the sink once,
    // by its canonical hash (run(): an execution that runs an await).
    auto read_part_ok = [&](const Node& e) {
        if (!e.rmax) return false;
        const EventId w = *e.ev.reads_from;
        if (successor_kept(w, e.ev.id)) return false;
        if (!kept_write(w) && g.at(w).write_stamp() > e.stamp && g.at(w).write_stamp() != e.took_in_place) return false;
        return true;
    };
    auto write_part_ok = [&](const Node& e) { return e.wmax && !successor_kept(e.ev.id, e.ev.id); };
    for (std::size_t t = 1; t < nt; ++t) {
        for (std::size_t i = keep[t]; i < g.threads[t].size(); ++i) {
            const Node& e = g.threads[t][i];
            if (e.ev.is_read() && !read_part_ok(e)) return;
            if (e.ev.is_write() && !write_part_ok(e)) return;
        }
        if (cut[t] && !write_part_ok(g.threads[t][keep[t] - 1])) return;
    }
    // A read that did not take the co-latest write when added is revisited, acyclically, only
    // in the graph where it did: that graph builds the same revisited graph. A cycle revisit
    // cannot count on it: there the read may read a write some kept event depends on
    // (LB+ctrl+po: P1's read of P0's ctrl-dependent write cannot be revisited by P1's own
    // write's reader, and the cycle comes from P1's read of the initial y, revisited by P0's
    // write once P0 reads x = 1). Duplicates this lets through are removed by their canonical
    // hash where the execution is handed on (run(), complete()).
    if (!cycle && !read_part_ok(r)) return;

    // The revisited graph: restrict, then r reads from a.
    Graph h;
    h.next_stamp = g.next_stamp;
    h.cycle_revisited = g.cycle_revisited || cycle;
    h.threads.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        h.threads[t].assign(g.threads[t].begin(), g.threads[t].begin() + keep[t]);
        if (cut[t]) {
            Node& last = h.threads[t].back();
            last.ev.kind = EventKind::Read;
            last.ev.written_value = 0;
            last.pending = true;
        }
    }
    for (std::size_t t = 1; t < nt; ++t)
        for (std::uint32_t i = 0; i < prefix[t] && i < h.threads[t].size(); ++i) h.threads[t][i].revisitable = false;
    h.co.resize(g.co.size());
    for (std::size_t l = 0; l < g.co.size(); ++l)
        for (EventId w : g.co[l])
            if (kept_write(w)) h.co[l].push_back(w);
    set_rf(h, h.at(rid), a);
    h.at(rid).rmax = h.co[loc].back() == a;
    // A kept read whose write was deleted (it had been revisited by it) is the last event of its
    // thread: it reads the co-latest write instead.
    for (std::size_t t = 1; t < nt; ++t)
        for (Node& e : h.threads[t])
            if (e.ev.reads_from && !kept_write(*e.ev.reads_from) && e.ev.id != rid) {
                const LocationId l = *e.ev.location;
                set_rf(h, e, h.co[l].back());
                e.rmax = true;
            }
    push(std::move(h));
}

bool GraphEngine::path_fixed(std::uint16_t gt) const {
    const auto& th = g_.threads[gt];
    std::uint64_t decided_by = rt_->tested_reads(gt);
    for (const Node& n : th) decided_by |= n.replay;
    // A model given as data may order by the values read too (MemoryModel::ordered_links()):
    // there every read must be guessed. An RMW's read part decides whether it writes (a
    // compare-exchange), and the RMW is one event: it counts as deciding.
    const bool built_in = &model_ == &lkmm_model();
    for (std::size_t i = 0; i < th.size(); ++i) {
        if (!th[i].ev.is_read() || th[i].guessed) continue;
        if (!built_in || i >= 64 || th[i].spec.present || (decided_by >> i & 1u) != 0) return false;
    }
    return true;
}

bool GraphEngine::undepended(EventId id) const {
    if (!cycle_revisits_ || guesses_ == nullptr || id.index >= 64) return false;
    const std::uint32_t line = g_.at(id).ev.where.line;
    for (const auto& [thread, l] : variant_.undepended_reads)
        if (thread == id.thread && l == line) return true;
    return false;
}

bool porf_cyclic(const ExecutionGraph& g) {
    // Kahn's algorithm over the threads' events, po and rf edges (initial writes have none in).
    std::vector<std::size_t> base(g.thread_count() + 1, 0);
    for (std::size_t t = 0; t < g.thread_count(); ++t) base[t + 1] = base[t] + g.thread(t).size();
    std::vector<std::uint32_t> in(base.back(), 0);
    std::vector<std::vector<std::size_t>> out(base.back());
    for (std::size_t t = 1; t < g.thread_count(); ++t)
        for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
            const std::size_t n = base[t] + i;
            if (i + 1 < g.thread(t).size()) {
                out[n].push_back(n + 1);
                ++in[n + 1];
            }
            const Event& e = g.thread(t)[i];
            if (e.is_read() && e.reads_from && e.reads_from->thread != 0) {
                out[base[e.reads_from->thread] + e.reads_from->index].push_back(n);
                ++in[n];
            }
        }
    std::vector<std::size_t> ready;
    for (std::size_t n = 0; n < in.size(); ++n)
        if (in[n] == 0) ready.push_back(n);
    std::size_t seen = 0;
    while (!ready.empty()) {
        const std::size_t n = ready.back();
        ready.pop_back();
        ++seen;
        for (const std::size_t m : out[n])
            if (--in[m] == 0) ready.push_back(m);
    }
    return seen != in.size();
}

}  // namespace oc::graph_detail
