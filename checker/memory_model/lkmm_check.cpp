// SPDX-License-Identifier: MIT
// LKMM's consistency check as the graph engine asks it, once per graph it builds: the same
// relations and axioms as lkmm.cpp (read that file beside linux-kernel.cat first), computed into
// buffers that live as long as the thread and are reused, and stopped at the first violated
// axiom. lkmm.cpp builds every relation as its own heap matrix, by generic compositions; here
// po, int, ext and fencerel are written directly from the thread layout, a composition with
// [S] is a row or column mask, and nothing is allocated once the buffers have grown to the
// largest graph seen. tests/memory_model/lkmm_check_test.cpp compares the two on every graph of
// an exploration.
#include "checker/memory_model/lkmm_check.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_check_ops.hpp"
#include "checker/memory_model/lkmm_tags.hpp"

namespace oc::lkmm {

namespace {

using namespace check_detail;

/// The nodes of g into k: each event once, an RMW twice (read part, then write part).
void number(const ExecutionGraph& g, Work& k) {
    k.event.clear();
    k.write_part.clear();
    k.first.clear();
    k.base.clear();
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        k.base.push_back(static_cast<std::uint32_t>(k.first.size()));
        for (const Event& e : g.thread(t)) {
            k.first.push_back(static_cast<std::uint32_t>(k.event.size()));
            k.event.push_back(e.id);
            k.write_part.push_back(false);
            if (e.kind == EventKind::Rmw) {
                k.event.push_back(e.id);
                k.write_part.push_back(true);
            }
        }
    }
}

std::size_t node_of(const Work& k, EventId id, bool write) {
    const std::size_t node = k.first[k.base[id.thread] + id.index];
    return write && node + 1 < k.event.size() && k.write_part[node + 1] && k.event[node + 1] == id ? node + 1 : node;
}

/// rcu-rscs (or srcu-rscs, matched per location) as match_nesting() in lkmm.cpp builds it.
template <class O>
Word* nesting(const ExecutionGraph& g, Work& k, const O& o, std::uint32_t lock, std::uint32_t unlock, bool per_loc) {
    Word* pairs = k.rel();
    for (std::size_t t = 1; t < g.thread_count(); ++t) {
        k.open.clear();
        for (const Event& e : g.thread(t)) {
            const std::int64_t where = per_loc && e.location ? static_cast<std::int64_t>(*e.location) : -1;
            if ((e.lkmm & lock) != 0) {
                k.open.emplace_back(where, node_of(k, e.id, false));
            } else if ((e.lkmm & unlock) != 0) {
                auto it = std::find_if(k.open.rbegin(), k.open.rend(), [&](const auto& p) { return p.first == where; });
                if (it == k.open.rend()) continue;
                o.set(pairs, it->second, node_of(k, e.id, false));
                k.open.erase(std::next(it).base());
            }
        }
    }
    return pairs;
}

using Ops0 = Ops<0>;
using Ops1 = Ops<1>;

/// The set of effective fences carrying `tag` (an empty set where the graph has none).
template <class O>
Word* fence_set_of(Work& k, std::uint32_t fence_tags, std::uint32_t tag) {
    Word* s = k.set();
    if ((fence_tags & tag) == 0) return s;
    for (std::size_t i = 0; i < k.n(); ++i)
        if (k.info[i].effective_fence && (k.info[i].tags & tag) != 0) O::put(s, i);
    return s;
}

/// strong-fence, nonrw-fence and fence from mb and the other fences.
template <class O>
void fences_from_mb(const O& o, EventsPart& p) {
    p.strong_fence = o.either(p.mb, p.gp);
    p.nonrw_fence = o.either(p.strong_fence, p.po_rel);
    o.unite(p.nonrw_fence, p.acq_po);
    p.fence = o.either(p.nonrw_fence, p.wmb);
    o.unite(p.fence, p.rmb);
}

/// The events-only part of g's check into k's buffers.
template <std::size_t Words>
void events_part(const ExecutionGraph& g, Work& k, EventsPart& p) {
    using Ops = Ops<Words>;
    const std::size_t n = k.event.size();
    Ops o(k);
    auto ev = [&](std::size_t i) -> const Event& { return g.event(k.event[i]); };

    // ---- sets (linux-kernel.bell, lock.cat), as relations() computes them ----
    Word *R = k.set(), *W = k.set(), *IW = k.set(), *Marked = k.set(), *acquire = k.set(),
         *release = k.set(), *noreturn = k.set(), *RMW = k.set(), *LKR = k.set(), *LKW = k.set(), *UL = k.set();
    k.info.assign(n, NodeInfo{});
    bool has_sync = false, has_rscs_event = false;
    std::uint32_t fence_tags = 0;  // the tags of the graph's effective fences, together
    for (std::size_t i = 0; i < n;) {  // thread extents
        std::size_t j = i;
        while (j < n && k.event[j].thread == k.event[i].thread) ++j;
        for (std::size_t x = i; x < j; ++x) k.info[x].end = static_cast<std::uint32_t>(j);
        i = j;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        NodeInfo& ni = k.info[i];
        ni.thread = e.id.thread;
        ni.tags = e.lkmm;
        ni.location = e.location ? static_cast<std::int64_t>(*e.location) : -1;
        const bool wpart = k.write_part[i];
        const std::uint32_t t = e.lkmm;
        if (e.id.thread == EventId::init_thread) {
            Ops::put(IW, i);
            Ops::put(W, i);
            Ops::put(Marked, i);
            continue;
        }
        const bool failed_rmw = e.kind == EventKind::Read && (t & ConditionalRmw) != 0;
        switch (e.kind) {
        case EventKind::Read:
            Ops::put(R, i);
            if (failed_rmw) Ops::put(RMW, i);
            break;
        case EventKind::Write: Ops::put(W, i); break;
        case EventKind::Rmw:
            Ops::put(wpart ? W : R, i);
            if ((t & LockRmw) == 0) Ops::put(RMW, i);  // as lkmm.cpp: a lock is no RMW instruction
            break;
        case EventKind::Fence: {
            bool effective = true;
            if ((t & IfRmwSucceeds) != 0) {
                const auto& thread = g.thread(e.id.thread);
                effective = e.id.index + 1 < thread.size() && thread[e.id.index + 1].kind == EventKind::Rmw;
            }
            ni.effective_fence = effective;
            if (effective) fence_tags |= t;
            break;
        }
        }
        const bool read_side = e.kind == EventKind::Read || (e.kind == EventKind::Rmw && !wpart);
        const bool write_side = e.kind == EventKind::Write || (e.kind == EventKind::Rmw && wpart);
        if (((t & Acquire) != 0 && read_side && !failed_rmw) || ((t & LockRmw) != 0 && read_side)) Ops::put(acquire, i);
        if (((t & Release) != 0 || (t & Unlock) != 0) && write_side) Ops::put(release, i);
        if ((t & Noreturn) != 0 && read_side) Ops::put(noreturn, i);
        if ((t & LockRmw) != 0) Ops::put(read_side ? LKR : LKW, i);
        if ((t & Unlock) != 0 && write_side) Ops::put(UL, i);
        if ((t & (SyncRcu | SyncSrcu)) != 0) has_sync = true;
        if ((t & (RcuLock | RcuUnlock | SrcuLock | SrcuUnlock)) != 0) has_rscs_event = true;
    }
    Word* M = o.set_or(R, W);
    bool has_plain = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (!Ops::has(M, i) || Ops::has(IW, i)) {
            Ops::put(Marked, i);
            continue;
        }
        constexpr std::uint32_t marking = Once | LockRmw | Unlock | LockFail | ReadLocked | ReadUnlocked | SrcuLock |
                                          SrcuUnlock | SyncSrcu | Acquire | Release;
        if (Ops::has(RMW, i) || Ops::has(acquire, i) || Ops::has(release, i) || (k.info[i].tags & marking) != 0)
            Ops::put(Marked, i);
        else
            has_plain = true;
    }
    auto fence_set = [&](std::uint32_t tag) { return fence_set_of<Ops>(k, fence_tags, tag); };

    // ---- base relations but rf and co ----
    Word *po = k.rel(), *int_ = k.rel(), *ext = k.rel(), *po_loc = k.rel(), *rmw = k.rel(), *addr = k.rel(),
         *data = k.rel(), *ctrl = k.rel();
    {
        const std::size_t w = o.w;
        for (std::size_t i = 0, begin = 0; i < n; ++i) {
            const NodeInfo& a = k.info[i];
            if (i > 0 && k.info[i - 1].end != a.end) begin = i;
            const bool init = a.thread == EventId::init_thread;
            Word *ri = o.row(int_, i), *re = o.row(ext, i);
            set_bit_span(re, 0, n);
            if (init) {
                Ops::put(ri, i);
                re[i / 64] &= ~(Word{1} << (i % 64));
                continue;
            }
            set_bit_span(ri, begin, a.end);
            for (std::size_t v = 0; v < w; ++v) re[v] &= ~ri[v];
            set_bit_span(o.row(po, i), i + 1, a.end);
            if (a.location >= 0 && Ops::has(M, i))
                for (std::size_t j = i + 1; j < a.end; ++j)
                    if (a.location == k.info[j].location && Ops::has(M, j)) o.set(po_loc, i, j);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (k.write_part[i]) continue;
        const Event& e = ev(i);
        if (e.kind == EventKind::Rmw) o.set(rmw, i, i + 1);
        if (e.is_fence() || e.id.thread == EventId::init_thread) continue;
        auto edges = [&](std::uint64_t mask, Word* rel, std::size_t to) {
            for (std::uint64_t bits = mask; bits != 0; bits &= bits - 1) {
                const auto idx = static_cast<std::uint32_t>(__builtin_ctzll(bits));
                const EventId src{e.id.thread, idx};
                if (idx < e.id.index && g.contains(src) && g.event(src).is_read()) o.set(rel, node_of(k, src, false), to);
            }
        };
        // an RMW's two nodes: addr and ctrl reach both, data the write part only
        const bool rmw_event = e.kind == EventKind::Rmw;
        edges(e.addr_deps, addr, i);
        edges(e.ctrl_deps, ctrl, i);
        if (!rmw_event) edges(e.data_deps, data, i);
        if (rmw_event) {
            edges(e.addr_deps, addr, i + 1);
            edges(e.ctrl_deps, ctrl, i + 1);
            edges(e.data_deps, data, i + 1);
            if (e.rmw_data) o.set(data, i, i + 1);  // the write part is computed from the read part
        }
    }

    // ---- linux-kernel.cat: fences ----
    Word* acq_po = o.restricted(po, acquire, M);
    Word* po_rel = o.restricted(po, M, release);
    Word* R4rmb = o.set_minus(R, noreturn);
    Word* rmb = o.fencerel(fence_set(Rmb));
    o.restrict(rmb, R4rmb, R4rmb);
    Word* wmb = o.fencerel(fence_set(Wmb));
    o.restrict(wmb, W, W);
    Word* mb = o.fencerel(fence_set(Mb));
    o.restrict(mb, M, M);
    Word* aul = nullptr;
    {
        Word* po_opt_M = o.opt(po);  // [M] ; po? ... and po? ; [M]
        // [M] ; fencerel(Before-atomic) ; [RMW] ; po? ; [M]
        Word* before = o.fencerel(fence_set(BeforeAtomic));
        if (!o.empty(before)) {
            o.restrict(before, M, RMW);
            o.unite(mb, o.seq(before, o.restricted(po_opt_M, nullptr, M)));
        }
        // [M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]
        Word* after = o.fencerel(fence_set(AfterAtomic));
        if (!o.empty(after)) {
            o.restrict(after, RMW, M);
            o.unite(mb, o.seq(o.restricted(po_opt_M, M, nullptr), after));
        }
        // [M] ; po? ; [LKW] ; fencerel(After-spinlock) ; [M]
        Word* spin = o.fencerel(fence_set(AfterSpinlock));
        if (!o.empty(spin)) {
            o.restrict(spin, LKW, M);
            o.unite(mb, o.seq(o.restricted(po_opt_M, M, nullptr), spin));
        }
        // [M] ; po ; [UL] ; (co | po) ; [LKW] ; fencerel(After-unlock-lock) ; [M]: co's part
        // is added by the check (below)
        Word* after_unlock_lock = o.fencerel(fence_set(AfterUnlockLock));
        if (!o.empty(after_unlock_lock)) {
            o.restrict(after_unlock_lock, LKW, M);
            aul = after_unlock_lock;
        }
        // the newest model: [M] ; po? ; [Srcu-unlock] ; fencerel(After-srcu-read-unlock) ; [M]
        Word* asru = o.fencerel(fence_set(AfterSrcuReadUnlock));
        if (!o.empty(asru)) {
            Word* unlocks = k.set();
            for (std::size_t i = 0; i < n; ++i)
                if ((k.info[i].tags & SrcuUnlock) != 0) Ops::put(unlocks, i);
            o.restrict(asru, unlocks, M);
            o.unite(mb, o.seq(o.restricted(po_opt_M, M, nullptr), asru));
        }
    }
    Word* sync = o.set_or(fence_set(SyncRcu), fence_set(SyncSrcu));
    // gp = po ; [Sync-rcu | Sync-srcu] ; po?
    Word* gp = o.seq(o.restricted(po, nullptr, sync), o.opt(po));
    Word* dep = o.either(addr, data);
    Word* rwdep = o.either(dep, ctrl);
    o.restrict(rwdep, nullptr, W);
    p = EventsPart{R, W, IW, Marked, acquire, release, noreturn, RMW, LKR, LKW, UL, M,
                   po, int_, ext, po_loc, rmw, addr, data, ctrl,
                   acq_po, po_rel, R4rmb, rmb, wmb, mb, gp, nullptr, nullptr, nullptr, dep, rwdep,
                   aul, has_sync, has_rscs_event, has_plain, fence_tags};
    fences_from_mb(o, p);
}

template <std::size_t Words>
bool check(const ExecutionGraph& g, Work& k, EventsCache* cache) {
    using Ops = Ops<Words>;
    const std::size_t n = k.event.size();
    Ops o(k);
    auto ev = [&](std::size_t i) -> const Event& { return g.event(k.event[i]); };

    EventsPart part;
    const EventsPart* kept = nullptr;
    if (cache != nullptr) {
        lkmm::events_key(g, cache->key);
        kept = cache->find(k);
    }
    if (kept != nullptr) {
        part = *kept;
    } else {
        events_part<Words>(g, k, part);
        if (cache != nullptr && k.mark().first == 0) cache->keep(k, part, k.mark().second);
    }
    Word *IW = part.IW, *Marked = part.Marked, *noreturn = part.noreturn, *LKR = part.LKR, *UL = part.UL, *M = part.M;
    Word *po = part.po, *int_ = part.int_, *ext = part.ext, *po_loc = part.po_loc, *rmw = part.rmw, *addr = part.addr;
    Word *po_rel = part.po_rel, *R4rmb = part.R4rmb, *wmb = part.wmb;
    const bool has_sync = part.has_sync, has_rscs_event = part.has_rscs_event, has_plain = part.has_plain;
    auto fence_set = [&](std::uint32_t tag) { return fence_set_of<Ops>(k, part.fence_tags, tag); };

    // ---- rf and co ----
    Word *rf = k.rel(), *co = k.rel();
    for (std::size_t i = 0; i < n; ++i) {
        if (k.write_part[i]) continue;
        const Event& e = ev(i);
        if (e.is_read() && e.reads_from && g.contains(*e.reads_from)) o.set(rf, node_of(k, *e.reads_from, true), i);
    }
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto& order = g.co(static_cast<LocationId>(l));
        for (std::size_t a = 0; a < order.size(); ++a)
            for (std::size_t b = a + 1; b < order.size(); ++b)
                o.set(co, node_of(k, order[a], true), node_of(k, order[b], true));
    }
    Word* fr = o.seq(o.inverse(rf), co);
    Word* rfe = o.both(rf, ext);
    Word* rfi = o.both(rf, int_);
    Word* fre = o.both(fr, ext);
    Word* coe = o.both(co, ext);

    // acyclic po-loc | com as coherence
    {
        Word* coherence = o.either(po_loc, rf);
        o.unite(coherence, co);
        o.unite(coherence, fr);
        if (!o.acyclic(coherence)) return false;
    }
    // empty rmw & (fre ; coe) as atomic
    {
        Word* a = o.seq(fre, coe);
        for (std::size_t x = 0; x < n * o.w; ++x) a[x] &= rmw[x];
        if (!o.empty(a)) return false;
    }

    // ---- linux-kernel.cat: the fences that read rf or co ----
    Word* po_unlock_lock_po;
    {
        Word* x = o.restricted(po, nullptr, UL);
        Word* po_rf = o.either(po, rf);
        o.restrict(po_rf, UL, LKR);
        po_unlock_lock_po = o.seq(o.seq(x, po_rf), po);
    }
    if (part.aul != nullptr) {
        // mb's [M] ; po ; [UL] ; (co | po) ; [LKW] ; fencerel(After-unlock-lock) ; [M]
        Word* co_po = o.either(co, po);
        o.restrict(co_po, UL, nullptr);
        part.mb = o.copy(part.mb);
        o.unite(part.mb, o.seq(o.seq(o.restricted(po, M, nullptr), co_po), part.aul));
        fences_from_mb(o, part);
    }
    Word *strong_fence = part.strong_fence, *nonrw_fence = part.nonrw_fence, *fence = part.fence;
    Word *dep = part.dep, *rwdep = part.rwdep;

    // ---- preserved program order ----
    Word* overwrite = o.either(co, fr);
    Word* ppo = o.both(overwrite, int_);  // to-w: (overwrite & int) | rwdep | (addr ; [Plain] ; wmb)
    o.unite(ppo, rwdep);
    o.unite(ppo, addr);  // to-r: addr | (dep ; [Marked] ; rfi)
    o.unite(ppo, o.seq(o.restricted(dep, nullptr, Marked), rfi));
    o.unite(ppo, fence);
    o.unite(ppo, o.both(po_unlock_lock_po, int_));
    Word* Plain = o.set_minus(M, Marked);
    if (has_plain) o.unite(ppo, o.seq(o.restricted(addr, nullptr, Plain), wmb));  // to-w's addr ; [Plain] ; wmb

    // ---- propagation ----
    // A-cumul(x) = (rfe ; [Marked])? ; x
    Word* cumul_fence;
    {
        Word* rfe_m = o.restricted(rfe, nullptr, Marked);
        o.add_identity(rfe_m);
        cumul_fence = o.seq(rfe_m, o.either(strong_fence, po_rel));
        o.unite(cumul_fence, wmb);
        o.unite(cumul_fence, po_unlock_lock_po);
        o.restrict(cumul_fence, Marked, Marked);
    }
    // prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ; [Marked] ; rfe? ; [Marked]
    Word* prop;
    {
        Word* ow_ext = o.both(overwrite, ext);
        o.add_identity(ow_ext);
        Word* tail = o.opt(rfe);
        o.restrict(tail, Marked, Marked);
        prop = o.seq(o.seq(ow_ext, o.star(cumul_fence)), tail);
        o.restrict(prop, Marked, Marked);
    }
    // hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
    Word* hb = o.both(prop, int_);
    for (std::size_t i = 0; i < n; ++i) o.row(hb, i)[i / 64] &= ~(Word{1} << (i % 64));
    o.unite(hb, ppo);
    o.unite(hb, rfe);
    o.restrict(hb, Marked, Marked);
    Word* hb_star = o.copy(hb);
    if (!o.close_acyclic(hb_star)) return false;  // acyclic hb as happens-before
    o.add_identity(hb_star);
    // pb = prop ; strong-fence ; hb* ; [Marked]
    Word* pb = o.seq(o.seq(prop, strong_fence), hb_star);
    o.restrict(pb, nullptr, Marked);
    if (!o.acyclic(pb)) return false;  // acyclic pb as propagation
    Word* pb_star = nullptr;           // pb*, closed by the RCU section, which alone reads it

    // ---- RCU: rcu-fence and rb, left null when the graph has no grace period or section ----
    Word *rcu_fence = nullptr, *rb = nullptr;
    const auto rcu = [&]() -> bool {  // irreflexive rb as rcu
        if (!has_sync && !has_rscs_event) return true;
        Word* rcu_rscs = nesting(g, k, o, RcuLock, RcuUnlock, false);
        Word* srcu_rscs = nesting(g, k, o, SrcuLock, SrcuUnlock, true);
        Word* sync_rcu = fence_set(SyncRcu);
        Word* sync_srcu = k.set();
        for (std::size_t i = 0; i < n; ++i)
            if ((k.info[i].tags & SyncSrcu) != 0) Ops::put(sync_srcu, i);
        if (o.empty(rcu_rscs) && o.empty(srcu_rscs) && o.set_empty(sync_rcu) && o.set_empty(sync_srcu)) return true;
        pb_star = o.copy(pb);
        o.close_acyclic(pb_star);  // acyclic: asked above
        o.add_identity(pb_star);
        // rcu-order relates grace periods and the ends of critical sections only: each of its
        // terms begins and ends with rcu-gp, srcu-gp or an rscsi, and rcu-link enters it only
        // between such nodes. So it is computed over those nodes alone (k.rcu_nodes, a few
        // dozen where the graph has a hundred), and rcu-link only on their rows, each row the
        // image of the node through po? ; hb* ; pb* ; prop ; po.
        std::vector<std::uint32_t>& S = k.rcu_nodes;
        S.clear();
        {
            Word* ends = o.set_or(sync_rcu, sync_srcu);
            for (const Word* pairs : {rcu_rscs, srcu_rscs})
                for (std::size_t i = 0; i < n; ++i)
                    o.each(o.row(pairs, i), [&](std::size_t j) {
                        Ops::put(ends, i);
                        Ops::put(ends, j);
                    });
            o.each(ends, [&](std::size_t i) { S.push_back(static_cast<std::uint32_t>(i)); });
        }
        std::vector<std::uint32_t>& at = k.rcu_at;  // per node: its index in S, or S.size()
        at.assign(n, static_cast<std::uint32_t>(S.size()));
        for (std::size_t a = 0; a < S.size(); ++a) at[S[a]] = static_cast<std::uint32_t>(a);
        Work& s = *k.rcu;
        s.begin(S.size());
        bool rb_reflexive = false;
        const auto small = [&](auto&& so) -> Word* {  // rcu-order over S, with so the Ops of s
            using SO = std::decay_t<decltype(so)>;
            const std::size_t K = S.size();
            Word *rcu_gp = s.rel(), *srcu_gp = s.rel(), *rcu_rscsi = s.rel(), *srcu_rscsi = s.rel(),
                 *same_loc = s.rel(), *link = s.rel();
            Word *gp_rcu = s.set(), *gp_srcu = s.set();
            for (std::size_t a = 0; a < K; ++a) {
                const std::size_t i = S[a];
                if (Ops::has(sync_rcu, i)) {
                    so.set(rcu_gp, a, a);
                    SO::put(gp_rcu, a);
                }
                if (Ops::has(sync_srcu, i)) {
                    so.set(srcu_gp, a, a);
                    SO::put(gp_srcu, a);
                }
                o.each(o.row(rcu_rscs, i), [&](std::size_t j) { so.set(rcu_rscsi, at[j], a); });
                o.each(o.row(srcu_rscs, i), [&](std::size_t j) { so.set(srcu_rscsi, at[j], a); });
                // loc over the SRCU events (they carry their srcu_struct as location)
                for (std::size_t b = 0; b < K; ++b)
                    if (k.info[i].location >= 0 && k.info[i].location == k.info[S[b]].location) so.set(same_loc, a, b);
                // rcu-link = po? ; hb* ; pb* ; prop ; po, the row of i
                const auto m = k.mark();
                Word *v = k.set(), *x = k.set();
                std::memcpy(v, o.row(po, i), o.w * sizeof(Word));
                Ops::put(v, i);
                o.image(v, hb_star, x);
                o.image(x, pb_star, v);
                o.image(v, prop, x);
                o.image(x, po, v);
                o.each(v, [&](std::size_t j) {
                    if (at[j] < K) so.set(link, a, at[j]);
                });
                k.release(m);
            }
            // rcu-order: the least fixed point, iterated as relations() does
            auto srcu_part = [&](Word* x) {
                for (std::size_t v = 0; v < K * so.w; ++v) x[v] &= same_loc[v];
                return x;
            };
            // [S] ; x is x's rows of S, x ; [S] its columns; terms with no sync or no section are empty
            const bool rcu_terms = !so.set_empty(gp_rcu) && !so.empty(rcu_rscsi);
            const bool srcu_terms = !so.set_empty(gp_srcu) && !so.empty(srcu_rscsi);
            auto gp_x_rscsi = [&](const Word* x, const Word* gp_set, const Word* rscsi) {
                return so.seq(so.restricted(x, gp_set, nullptr), rscsi);
            };
            auto rscsi_x_gp = [&](const Word* x, const Word* gp_set, const Word* rscsi) {
                Word* r = so.seq(rscsi, x);
                so.restrict(r, nullptr, gp_set);
                return r;
            };
            // dst |= the four terms (rcu-gp ; x ; rcu-rscsi), (rcu-rscsi ; x ; rcu-gp) and their SRCU twins
            auto unite_gp_terms = [&](Word* dst, const Word* x) {
                if (rcu_terms) {
                    so.unite(dst, gp_x_rscsi(x, gp_rcu, rcu_rscsi));
                    so.unite(dst, rscsi_x_gp(x, gp_rcu, rcu_rscsi));
                }
                if (srcu_terms) {
                    so.unite(dst, srcu_part(gp_x_rscsi(x, gp_srcu, srcu_rscsi)));
                    so.unite(dst, srcu_part(rscsi_x_gp(x, gp_srcu, srcu_rscsi)));
                }
            };
            // the terms without rcu-order: rcu-gp | srcu-gp and the four with x = rcu-link
            Word* fixed = so.either(rcu_gp, srcu_gp);
            unite_gp_terms(fixed, link);
            Word* order = so.either(rcu_gp, srcu_gp);
            Word* next = s.rel();
            for (const auto round = s.mark();; s.release(round)) {  // a round's temporaries go back
                std::memcpy(next, fixed, K * so.w * sizeof(Word));
                Word* order_link = so.seq(order, link);
                unite_gp_terms(next, so.seq(link, order_link));  // x = rcu-link ; rcu-order ; rcu-link
                so.unite(next, so.seq(order_link, order));       // rcu-order ; rcu-link ; rcu-order
                so.unite(next, order);
                if (std::memcmp(next, order, K * so.w * sizeof(Word)) == 0) break;
                std::swap(next, order);
            }
            // rb = prop ; po ; rcu-order ; po? ; hb* ; pb* ; [Marked] is reflexive exactly when
            // some s1 rcu-order s2 has s2 rcu-link s1 (prop starts at a Marked node), that is
            // when rcu-order ; rcu-link is: enough unless a plain access needs rb itself
            rb_reflexive = so.reflexive(so.seq(order, link));
            return order;
        };
        Word* order = S.size() <= 64 ? small(Ops1(s)) : small(Ops0(s));
        if (!has_plain) return !rb_reflexive;
        Word* order_full = k.rel();
        const std::size_t sw = (S.size() + 63) / 64;
        for (std::size_t a = 0; a < S.size(); ++a)
            for (std::size_t b = 0; b < S.size(); ++b)
                if (Ops::has(order + a * sw, b)) o.set(order_full, S[a], S[b]);
        // rcu-fence = po ; rcu-order ; po?
        rcu_fence = o.seq(o.seq(po, order_full), o.opt(po));
        // rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
        rb = o.seq(o.seq(o.seq(prop, rcu_fence), hb_star), pb_star);
        o.restrict(rb, nullptr, Marked);
        return !o.reflexive(rb);
    };
    if (k.rcu_axiom && !rcu()) return false;
    if (!has_plain) return true;

    // ---- plain accesses: plain-coherence (the data-race flag is relations()'s alone) ----
    // after the RCU section: fence and strong-fence include rcu-fence; nonrw-fence does not
    Word* fence2 = fence;
    Word* strong2 = strong_fence;
    if (rcu_fence != nullptr) {
        fence2 = o.either(fence, rcu_fence);
        strong2 = o.either(strong_fence, rcu_fence);
    }
    // xbstar = (hb | pb | rb)*
    Word* xb = o.either(hb, pb);
    if (rb != nullptr) o.unite(xb, rb);
    o.close(xb);
    o.add_identity(xb);
    // [R4rmb] ; fencerel(Rmb) ; [~Noreturn], and its mirror for r-post-bounded
    Word* not_noreturn = k.set();
    for (std::size_t i = 0; i < n; ++i)
        if (!Ops::has(noreturn, i)) Ops::put(not_noreturn, i);
    Word* rmb_all = o.fencerel(fence_set(Rmb));
    Word* rmb_like = o.restricted(rmb_all, R4rmb, not_noreturn);
    Word* rmb_like_post = o.restricted(rmb_all, not_noreturn, R4rmb);
    // vis = cumul-fence* ; rfe? ; [Marked] ; ((strong-fence ; [Marked] ; xbstar) | (xbstar & int))
    Word* vis;
    {
        Word* rfe_opt = o.opt(rfe);
        o.restrict(rfe_opt, nullptr, Marked);
        Word* tail = o.seq(o.restricted(strong2, nullptr, Marked), xb);
        o.unite(tail, o.both(xb, int_));
        vis = o.seq(o.seq(o.star(cumul_fence), rfe_opt), tail);
    }
    // w-pre-bounded = [Marked] ; (addr | fence)?   r-pre-bounded = [Marked] ; (addr | nonrw-fence | rmb-like)?
    Word* w_pre = o.either(addr, fence2);
    o.add_identity(w_pre);
    o.restrict(w_pre, Marked, nullptr);
    Word* r_pre = o.either(addr, nonrw_fence);
    o.unite(r_pre, rmb_like);
    o.add_identity(r_pre);
    o.restrict(r_pre, Marked, nullptr);
    // w-post-bounded = fence? ; [Marked]   r-post-bounded = (nonrw-fence | rmb-like)? ; [Marked]
    Word* w_post = o.opt(fence2);
    o.restrict(w_post, nullptr, Marked);
    Word* r_post = o.either(nonrw_fence, rmb_like_post);
    o.add_identity(r_post);
    o.restrict(r_post, nullptr, Marked);
    // ww-vis, wr-vis = fence | (strong-fence ; xbstar ; X-pre-bounded) | (w-post-bounded ; vis ; X-pre-bounded)
    Word* strong_xb = o.seq(strong2, xb);
    Word* post_vis = o.seq(w_post, vis);
    auto vis_with = [&](const Word* pre) {
        Word* r = o.either(o.seq(strong_xb, pre), o.seq(post_vis, pre));
        o.unite(r, fence2);
        return r;
    };
    Word* ww_vis = vis_with(w_pre);
    Word* wr_vis = vis_with(r_pre);
    // rw-xbstar = fence | (r-post-bounded ; xbstar ; w-pre-bounded)
    Word* rw_xbstar = o.seq(o.seq(r_post, xb), w_pre);
    o.unite(rw_xbstar, fence2);
    // pre-race = ext & ((Plain * M) | ((M \ IW) * Plain)); plain-coherence:
    // empty (pre-race & rf & rw-xbstar^-1) | (pre-race & fr & wr-vis^-1) | (pre-race & co & ww-vis^-1)
    Word* M_not_IW = o.set_minus(M, IW);
    for (std::size_t i = 0; i < n; ++i) {
        const bool plain_i = Ops::has(Plain, i);
        if (!plain_i && !Ops::has(M_not_IW, i)) continue;
        const Word* ext_i = o.row(ext, i);
        const auto pre_race = [&](std::size_t j) {
            return Ops::has(ext_i, j) && (plain_i ? Ops::has(M, j) : Ops::has(Plain, j));
        };
        bool incoherent = false;
        o.each(o.row(rf, i), [&](std::size_t j) { incoherent |= pre_race(j) && o.test(rw_xbstar, j, i); });
        o.each(o.row(fr, i), [&](std::size_t j) { incoherent |= pre_race(j) && o.test(wr_vis, j, i); });
        o.each(o.row(co, i), [&](std::size_t j) { incoherent |= pre_race(j) && o.test(ww_vis, j, i); });
        if (incoherent) return false;
    }
    return true;
}

}  // namespace

namespace {
thread_local Work work, rcu_work;  // consistent()'s buffers, on each thread
thread_local EventsCache events_cache;
}  // namespace

bool kept_events_intact() {
    const EventsCache::Entry* e = events_cache.resident;
    return e == nullptr || std::equal(e->words.begin(), e->words.end(), work.front());
}

bool consistent(const ExecutionGraph& g, bool with_rcu) {
    Work& k = work;
    EventsCache& cache = events_cache;
    Work& rcu = rcu_work;
    k.rcu = &rcu;
    k.rcu_axiom = with_rcu;
    number(g, k);
    k.begin(k.event.size());
    // one or two words a row (up to 128 nodes: nearly every test) with the width a constant
    switch (k.w()) {
    case 1: return check<1>(g, k, &cache);
    case 2: return check<2>(g, k, &cache);
    default: return check<0>(g, k, &cache);
    }
}

bool has_rcu_events(const ExecutionGraph& g) {
    constexpr std::uint32_t rcu = RcuLock | RcuUnlock | SyncRcu | SrcuLock | SrcuUnlock | SyncSrcu;
    for (std::size_t t = 1; t < g.thread_count(); ++t)
        for (const Event& e : g.thread(t))
            if ((e.lkmm & rcu) != 0) return true;  // a model's graph carries every tag in Event::lkmm
    return false;
}

}  // namespace oc::lkmm
