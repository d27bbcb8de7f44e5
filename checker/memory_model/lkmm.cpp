// SPDX-License-Identifier: MIT
// LKMM over bit matrices: linux-kernel.bell, lock.cat and linux-kernel.cat (linux-source 6.1),
// one relation per `let`, in the cat file's order and under its names. Read it beside
// tools/memory-model/linux-kernel.cat; docs/lkmm.md says what differs and why.
#include "checker/memory_model/lkmm.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>


namespace oc::lkmm {

namespace {

NodeSet empty_set(std::size_t n) { return NodeSet((n + 63) / 64, 0); }
bool in(const NodeSet& s, std::size_t i) { return (s[i / 64] >> (i % 64) & 1u) != 0; }
void add(NodeSet& s, std::size_t i) { s[i / 64] |= std::uint64_t{1} << (i % 64); }
NodeSet operator|(NodeSet a, const NodeSet& b) {
    for (std::size_t k = 0; k < a.size(); ++k) a[k] |= b[k];
    return a;
}
NodeSet minus(NodeSet a, const NodeSet& b) {
    for (std::size_t k = 0; k < a.size(); ++k) a[k] &= ~b[k];
    return a;
}
/// The complement of `a` within 0..n-1.
NodeSet complement(const NodeSet& a, std::size_t n) {
    NodeSet c = empty_set(n);
    for (std::size_t i = 0; i < n; ++i)
        if (!in(a, i)) add(c, i);
    return c;
}

BitRel operator|(BitRel a, const BitRel& b) {
    a.unite(b);
    return a;
}
BitRel operator&(BitRel a, const BitRel& b) {
    a.intersect(b);
    return a;
}
/// a ; b
BitRel seq(const BitRel& a, const BitRel& b) { return a.compose(b); }
/// r \ s
BitRel minus(BitRel r, const BitRel& s) {
    r.subtract(s);
    return r;
}
/// r? (r | id)
BitRel opt(BitRel r) {
    r.add_identity();
    return r;
}
/// r* (reflexive-transitive closure)
BitRel star(BitRel r) {
    r.close();
    r.add_identity();
    return r;
}
/// [dom] ; r ; [ran] (a null set: no restriction on that side)
BitRel restrict(const BitRel& r, const NodeSet* dom, const NodeSet* ran) {
    const std::size_t n = r.size();
    BitRel out(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (dom != nullptr && !in(*dom, i)) continue;
        std::uint64_t* dst = out.row(i);
        const std::uint64_t* src = r.row(i);
        for (std::size_t w = 0; w < r.words(); ++w) dst[w] = src[w] & (ran != nullptr ? (*ran)[w] : ~std::uint64_t{0});
    }
    return out;
}
BitRel dom(const BitRel& r, const NodeSet& s) { return restrict(r, &s, nullptr); }
BitRel ran(const BitRel& r, const NodeSet& s) { return restrict(r, nullptr, &s); }
BitRel both(const BitRel& r, const NodeSet& a, const NodeSet& b) { return restrict(r, &a, &b); }
/// [s] as a relation
BitRel id_on(const NodeSet& s, std::size_t n) {
    BitRel r(n);
    for (std::size_t i = 0; i < n; ++i)
        if (in(s, i)) r.set(i, i);
    return r;
}
/// a * b (every pair)
BitRel cross(const NodeSet& a, const NodeSet& b, std::size_t n) {
    BitRel r(n);
    for (std::size_t i = 0; i < n; ++i)
        if (in(a, i))
            for (std::size_t w = 0; w < b.size(); ++w) r.row(i)[w] = b[w];
    return r;
}
bool acyclic(const BitRel& r) { return r.acyclic(); }
bool irreflexive(const BitRel& r) { return !r.reflexive_somewhere(); }

}  // namespace

std::size_t Nodes::of(EventId id, bool write) const {
    const std::size_t node = first.at(id.thread).at(id.index);
    return write && write_part.size() > node + 1 && write_part[node + 1] && event[node + 1] == id ? node + 1 : node;
}

Relations::Relations(std::size_t n, Depth depth) : Relations(n, depth == Depth::Nesting ? 0 : n) {}

Relations::Relations(std::size_t n, std::size_t m)
    : po(m), po_loc(m), loc(m), int_(m), ext(m), rf(m), co(m), fr(m), rmw(m), addr(m), data(m), ctrl(m),
      rfe(m), rfi(m), coe(m), fre(m), acq_po(m), po_rel(m), po_unlock_lock_po(m), rmb(m), wmb(m), mb(m), gp(m),
      strong_fence(m), nonrw_fence(m), fence(m), ppo(m), cumul_fence(m), prop(m), hb(m), pb(m), rcu_rscs(n),
      srcu_rscs(n), rcu_link(m), rcu_order(m), rcu_fence(m), rb(m), xbstar(m), plain_incoh(m), data_race(m) {
    for (NodeSet* s : {&R, &W, &M, &F, &IW, &Marked, &Plain, &Acquire, &Release, &Noreturn, &RMW, &LKR, &LKW, &UL})
        *s = empty_set(n);
}

Nodes number_nodes(const ExecutionGraph& g) {
    Nodes nodes;
    number_nodes_into(g, nodes);
    return nodes;
}

void number_nodes_into(const ExecutionGraph& g, Nodes& nodes) {
    nodes.event.clear();
    nodes.write_part.clear();
    nodes.first.resize(g.thread_count());
    std::size_t events = 0;
    for (std::size_t t = 0; t < g.thread_count(); ++t) events += g.thread(t).size();
    nodes.event.reserve(2 * events);  // an RMW is two nodes
    nodes.write_part.reserve(2 * events);
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        nodes.first[t].clear();
        nodes.first[t].reserve(g.thread(t).size());
        for (const Event& e : g.thread(t)) {
            nodes.first[t].push_back(nodes.event.size());
            nodes.event.push_back(e.id);
            nodes.write_part.push_back(false);
            if (e.kind == EventKind::Rmw) {
                nodes.event.push_back(e.id);
                nodes.write_part.push_back(true);
            }
        }
    }
}

void events_key(const ExecutionGraph& g, std::vector<std::uint64_t>& key) {
    key.clear();
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        const std::vector<Event>& th = g.thread(t);
        key.push_back(th.size());
        const std::size_t at = key.size();
        key.resize(at + 6 * th.size());
        std::uint64_t* out = key.data() + at;
        for (const Event& e : th) {
            *out++ = static_cast<std::uint64_t>(e.kind) | std::uint64_t{e.rmw_data} << 8 |
                     std::uint64_t{e.location.has_value()} << 9 | static_cast<std::uint64_t>(e.order) << 16 |
                     std::uint64_t{e.lkmm} << 32;
            *out++ = e.location ? static_cast<std::uint64_t>(*e.location) : 0;
            *out++ = reinterpret_cast<std::uintptr_t>(e.primitive);  // the same name where the same pointer
            *out++ = e.addr_deps;
            *out++ = e.data_deps;
            *out++ = e.ctrl_deps;
        }
    }
}

void dependencies(const std::vector<const Event*>& events, const Nodes& N, BitRel& addr, BitRel& data, BitRel& ctrl) {
    for (std::size_t i = 0; i < N.size(); ++i) {
        const Event& e = *events[i];
        if (e.is_fence() || e.id.thread == EventId::init_thread) continue;
        const std::uint64_t data_mask = e.kind != EventKind::Rmw || N.write_part[i] ? e.data_deps : 0;
        // an atomic operation's write part depends on its read part (Event::rmw_data)
        if (e.kind == EventKind::Rmw && N.write_part[i] && e.rmw_data) data.set(i - 1, i);
        if ((e.addr_deps | data_mask | e.ctrl_deps) == 0) continue;
        const std::vector<std::size_t>& first = N.first[e.id.thread];
        const auto edges = [&](std::uint64_t mask, BitRel& rel) {
            for (std::uint64_t bits = mask; bits != 0; bits &= bits - 1) {
                const auto idx = static_cast<std::size_t>(__builtin_ctzll(bits));
                if (idx < e.id.index && idx < first.size() && events[first[idx]]->is_read()) rel.set(first[idx], i);
            }
        };
        edges(e.addr_deps, addr);
        edges(data_mask, data);
        edges(e.ctrl_deps, ctrl);
    }
}

namespace {

/// fencerel(S) = po ; [S] ; po
BitRel fencerel(const BitRel& po, const NodeSet& s) {
    const std::size_t n = po.size();
    if (s == empty_set(n)) return BitRel(n);  // no such fence: most of the fence kinds, in most tests
    return seq(seq(po, id_on(s, n)), po);
}

/// Matches nested lock/unlock events per thread (and per location, for SRCU) as the bell's
/// recursive `matched` does: innermost pairs first, which is a stack per thread. Returns the
/// lock -> unlock pairs; `unbalanced` is set when some lock or unlock stays unmatched.
BitRel match_nesting(const ExecutionGraph& g, const Nodes& nodes, std::uint32_t lock_tag, std::uint32_t unlock_tag,
                     bool per_location, bool& unbalanced) {
    const std::size_t n = nodes.size();
    BitRel pairs(n);
    for (std::size_t t = 1; t < g.thread_count(); ++t) {
        std::vector<std::pair<std::optional<LocationId>, std::size_t>> open;
        for (const Event& e : g.thread(t)) {
            const std::optional<LocationId> where = per_location ? e.location : std::nullopt;
            if ((e.lkmm & lock_tag) != 0) {
                open.emplace_back(where, nodes.of(e.id));
            } else if ((e.lkmm & unlock_tag) != 0) {
                auto it = std::find_if(open.rbegin(), open.rend(), [&](const auto& o) { return o.first == where; });
                if (it == open.rend()) {
                    unbalanced = true;
                    continue;
                }
                // with SRCU, locks of other srcu_structs may be open in between: herd matches
                // per location (`& loc`), so they stay open
                pairs.set(it->second, nodes.of(e.id));
                open.erase(std::next(it).base());
            }
        }
        if (!open.empty()) unbalanced = true;
    }
    return pairs;
}

}  // namespace

Relations relations(const ExecutionGraph& g, Depth depth) {
    Nodes nodes = number_nodes(g);
    const std::size_t n = nodes.size();
    Relations r(n, depth);
    r.nodes = std::move(nodes);
    const Nodes& N = r.nodes;
    std::vector<const Event*> events(n);
    for (std::size_t i = 0; i < n; ++i) events[i] = &g.event(N.event[i]);
    auto ev = [&](std::size_t i) -> const Event& { return *events[i]; };

    // ---- sets: linux-kernel.bell, lock.cat ----
    NodeSet effective_fences = empty_set(n);  // fences whose tags apply (see IfRmwSucceeds)
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        const bool wpart = N.write_part[i];
        const std::uint32_t t = e.lkmm;
        if (e.id.thread == EventId::init_thread) {
            add(r.IW, i);
            add(r.W, i);
            continue;
        }
        // A conditional RMW that failed is a read here; herd7 makes it an atomic access, which
        // linux-kernel.bell's RMW set holds (before-atomic and after-atomic order through it),
        // with no ordering of its own (once; lkmmv2: FailedRMW, Acquire = ACQUIRE \ FailedRMW)
        const bool failed_rmw = e.kind == EventKind::Read && (t & ConditionalRmw) != 0;
        switch (e.kind) {
        case EventKind::Read:
            add(r.R, i);
            if (failed_rmw) add(r.RMW, i);
            break;
        case EventKind::Write: add(r.W, i); break;
        case EventKind::Rmw:
            add(wpart ? r.W : r.R, i);
            // herd's RMW is the events of RMW instructions (linux-kernel.bell's `instructions
            // RMW`): a spin_lock()'s LKR and LKW are not among them, so smp_mb__before_atomic()
            // and smp_mb__after_atomic() order nothing through a lock (LB+lock+mb__after_atomic)
            if ((t & LockRmw) == 0) add(r.RMW, i);
            break;
        case EventKind::Fence: {
            add(r.F, i);
            bool effective = true;
            if ((t & IfRmwSucceeds) != 0) {
                const auto& thread = g.thread(e.id.thread);
                effective = e.id.index + 1 < thread.size() && thread[e.id.index + 1].kind == EventKind::Rmw;
            }
            if (effective) add(effective_fences, i);
            break;
        }
        }
        const bool read_side = e.kind == EventKind::Read || (e.kind == EventKind::Rmw && !wpart);
        const bool write_side = e.kind == EventKind::Write || (e.kind == EventKind::Rmw && wpart);
        if ((t & Acquire) != 0 && read_side && !failed_rmw) add(r.Acquire, i);
        if ((t & Release) != 0 && write_side) add(r.Release, i);
        if ((t & Noreturn) != 0 && read_side) add(r.Noreturn, i);
        if ((t & LockRmw) != 0) add(read_side ? r.LKR : r.LKW, i);
        if ((t & Unlock) != 0 && write_side) add(r.UL, i);
    }
    r.M = r.R | r.W;
    // lock.cat: LKR has Acquire ordering, UL Release ordering
    r.Acquire = r.Acquire | r.LKR;
    r.Release = r.Release | r.UL;
    // Marked = (~M) | IW | Once | Release | Acquire | domain(rmw) | range(rmw) | LKR | LKW | UL | LF | RL | RU
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        constexpr std::uint32_t marking = Once | LockRmw | Unlock | LockFail | ReadLocked | ReadUnlocked | SrcuLock |
                                          SrcuUnlock | SyncSrcu;
        if (!in(r.M, i) || in(r.IW, i) || in(r.RMW, i) || in(r.Acquire, i) || in(r.Release, i) ||
            (e.lkmm & marking) != 0 || (e.lkmm & (Acquire | Release)) != 0)
            add(r.Marked, i);
    }
    r.Plain = minus(r.M, r.Marked);
    r.has_plain = r.Plain != empty_set(n);
    // the RCU and SRCU read-side sections, matched by nesting (and whether some is unbalanced)
    const auto nest = [&] {
        bool unbalanced = false;
        r.rcu_rscs = match_nesting(g, N, RcuLock, RcuUnlock, false, unbalanced);
        r.unbalanced_rcu = unbalanced;
        unbalanced = false;
        r.srcu_rscs = match_nesting(g, N, SrcuLock, SrcuUnlock, true, unbalanced);
        r.unbalanced_srcu = unbalanced;
    };
    if (depth == Depth::Nesting) {
        nest();
        return r;
    }
    auto fence_set = [&](std::uint32_t tag) {
        NodeSet s = empty_set(n);
        for (std::size_t i = 0; i < n; ++i)
            if (in(effective_fences, i) && (ev(i).lkmm & tag) != 0) add(s, i);
        return s;
    };

    // ---- base relations ----
    // the accesses of each location (loc), and every event that names it (an SRCU event its
    // srcu_struct: same_loc in the RCU section)
    std::vector<NodeSet> accesses_of(g.location_count(), empty_set(n)), named_by(g.location_count(), empty_set(n));
    for (std::size_t i = 0; i < n; ++i)
        if (const auto& l = ev(i).location) {
            add(named_by[*l], i);
            if (in(r.M, i)) add(accesses_of[*l], i);
        }
    // Nodes are numbered thread by thread, in po order within a thread; the initial writes are
    // in no thread, so external to every node.
    for (std::size_t lo = 0, hi = 0; lo < n; lo = hi) {
        const std::uint32_t t = ev(lo).id.thread;
        for (hi = lo + 1; hi < n && ev(hi).id.thread == t; ++hi) {}
        const bool init = t == EventId::init_thread;
        for (std::size_t i = lo; i < hi; ++i) {
            if (!init) {
                set_bit_span(r.int_.row(i), lo, hi);
                set_bit_span(r.po.row(i), i + 1, hi);
            }
            set_bit_span(r.ext.row(i), 0, n);
            if (!init) {
                for (std::size_t j = lo; j < hi; ++j) r.ext.reset(i, j);
            } else {
                r.ext.reset(i, i);
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (in(r.M, i)) {
            const NodeSet& same = accesses_of[*ev(i).location];
            std::copy(same.begin(), same.end(), r.loc.row(i));
        }
    // int holds (e, e), as herd's same-process relation does: `xbstar & int` in vis keeps
    // xbstar's identity (explanation.txt: "Z and Y are the same event")
    r.int_.add_identity();
    r.po_loc = r.po & r.loc;
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        if (N.write_part[i]) continue;
        if (e.kind == EventKind::Rmw) r.rmw.set(i, i + 1);
        if (e.is_read() && e.reads_from && g.contains(*e.reads_from)) r.rf.set(N.of(*e.reads_from, true), i);
    }
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto& order = g.co(static_cast<LocationId>(l));
        for (std::size_t a = 0; a < order.size(); ++a)
            for (std::size_t b = a + 1; b < order.size(); ++b) r.co.set(N.of(order[a], true), N.of(order[b], true));
    }
    r.fr = seq(r.rf.inverse(), r.co);
    // dependencies: from the read (an RMW's read part) to the dependent access; data goes to
    // the write (part)
    dependencies(events, N, r.addr, r.data, r.ctrl);
    r.rfe = r.rf & r.ext;
    r.rfi = r.rf & r.int_;
    r.coe = r.co & r.ext;
    r.fre = r.fr & r.ext;

    // ---- linux-kernel.cat: basic relations ----
    r.acq_po = both(r.po, r.Acquire, r.M);
    r.po_rel = both(r.po, r.M, r.Release);
    // po-unlock-lock-po = po ; [UL] ; (po|rf) ; [LKR] ; po
    r.po_unlock_lock_po = seq(seq(seq(seq(r.po, id_on(r.UL, n)), r.po | r.rf), id_on(r.LKR, n)), r.po);
    // fences
    const NodeSet R4rmb = minus(r.R, r.Noreturn);
    r.rmb = both(fencerel(r.po, fence_set(Rmb)), R4rmb, R4rmb);
    r.wmb = both(fencerel(r.po, fence_set(Wmb)), r.W, r.W);
    {
        const BitRel idM = id_on(r.M, n), idRMW = id_on(r.RMW, n);
        BitRel mb = both(fencerel(r.po, fence_set(Mb)), r.M, r.M);
        // [M] ; fencerel(Before-atomic) ; [RMW] ; po? ; [M]
        mb.unite(seq(seq(seq(idM, fencerel(r.po, fence_set(BeforeAtomic))), idRMW), ran(opt(r.po), r.M)));
        // [M] ; po? ; [RMW] ; fencerel(After-atomic) ; [M]
        mb.unite(seq(seq(dom(opt(r.po), r.M), idRMW), ran(fencerel(r.po, fence_set(AfterAtomic)), r.M)));
        // [M] ; po? ; [LKW] ; fencerel(After-spinlock) ; [M]
        mb.unite(seq(seq(dom(opt(r.po), r.M), id_on(r.LKW, n)), ran(fencerel(r.po, fence_set(AfterSpinlock)), r.M)));
        // [M] ; po ; [UL] ; (co | po) ; [LKW] ; fencerel(After-unlock-lock) ; [M]
        mb.unite(seq(seq(seq(seq(dom(r.po, r.M), id_on(r.UL, n)), r.co | r.po), id_on(r.LKW, n)),
                     ran(fencerel(r.po, fence_set(AfterUnlockLock)), r.M)));
        // the newest model: [M] ; po? ; [Srcu-unlock] ; fencerel(After-srcu-read-unlock) ; [M]
        NodeSet srcu_unlock = empty_set(n);
        for (std::size_t i = 0; i < n; ++i)
            if ((ev(i).lkmm & SrcuUnlock) != 0) add(srcu_unlock, i);
        mb.unite(seq(seq(dom(opt(r.po), r.M), id_on(srcu_unlock, n)),
                     ran(fencerel(r.po, fence_set(AfterSrcuReadUnlock)), r.M)));
        r.mb = std::move(mb);
    }
    {
        // gp = po ; [Sync-rcu | Sync-srcu] ; po?
        const NodeSet sync = fence_set(SyncRcu) | fence_set(SyncSrcu);
        r.gp = seq(seq(r.po, id_on(sync, n)), opt(r.po));
    }
    r.strong_fence = r.mb | r.gp;
    r.nonrw_fence = r.strong_fence | r.po_rel | r.acq_po;
    r.fence = r.nonrw_fence | r.wmb | r.rmb;

    // ---- preserved program order ----
    const BitRel dep = r.addr | r.data;
    const BitRel rwdep = ran(dep | r.ctrl, r.W);
    const BitRel overwrite = r.co | r.fr;
    // to-w = rwdep | (overwrite & int) | (addr ; [Plain] ; wmb)
    const BitRel to_w = rwdep | (overwrite & r.int_) | seq(ran(r.addr, r.Plain), r.wmb);
    // to-r = addr | (dep ; [Marked] ; rfi)
    const BitRel to_r = r.addr | seq(ran(dep, r.Marked), r.rfi);
    r.ppo = to_r | to_w | r.fence | (r.po_unlock_lock_po & r.int_);

    // ---- propagation ----
    // A-cumul(x) = (rfe ; [Marked])? ; x
    auto a_cumul = [&](const BitRel& x) { return seq(opt(ran(r.rfe, r.Marked)), x); };
    r.cumul_fence = both(a_cumul(r.strong_fence | r.po_rel) | r.wmb | r.po_unlock_lock_po, r.Marked, r.Marked);
    // prop = [Marked] ; (overwrite & ext)? ; cumul-fence* ; [Marked] ; rfe? ; [Marked]
    r.prop = both(seq(seq(opt(overwrite & r.ext), star(r.cumul_fence)), both(opt(r.rfe), r.Marked, r.Marked)), r.Marked,
                  r.Marked);
    // hb = [Marked] ; (ppo | rfe | ((prop \ id) & int)) ; [Marked]
    {
        BitRel prop_int = r.prop & r.int_;
        for (std::size_t i = 0; i < n; ++i) prop_int.reset(i, i);
        r.hb = both(r.ppo | r.rfe | prop_int, r.Marked, r.Marked);
    }
    const BitRel hb_star = star(r.hb);
    // pb = prop ; strong-fence ; hb* ; [Marked]
    r.pb = ran(seq(seq(r.prop, r.strong_fence), hb_star), r.Marked);
    const BitRel pb_star = star(r.pb);

    // ---- RCU ----
    nest();
    const NodeSet sync_rcu = fence_set(SyncRcu);
    NodeSet sync_srcu = empty_set(n);
    for (std::size_t i = 0; i < n; ++i)
        if ((ev(i).lkmm & SyncSrcu) != 0) add(sync_srcu, i);
    r.has_rcu = !r.rcu_rscs.empty() || !r.srcu_rscs.empty() || sync_rcu != empty_set(n) || sync_srcu != empty_set(n);
    if (r.has_rcu) {
        const BitRel rcu_gp = id_on(sync_rcu, n), srcu_gp = id_on(sync_srcu, n);
        const BitRel rcu_rscsi = r.rcu_rscs.inverse(), srcu_rscsi = r.srcu_rscs.inverse();
        BitRel same_loc(n);  // loc over the SRCU events (they carry their srcu_struct as location)
        for (std::size_t i = 0; i < n; ++i)
            if (const auto& l = ev(i).location) std::copy(named_by[*l].begin(), named_by[*l].end(), same_loc.row(i));
        // rcu-link = po? ; hb* ; pb* ; prop ; po
        r.rcu_link = seq(seq(seq(seq(opt(r.po), hb_star), pb_star), r.prop), r.po);
        const BitRel& link = r.rcu_link;
        // rcu-order: the least fixed point of the recursive definition; its terms without
        // rcu-order in them are the same in every step
        BitRel fixed = rcu_gp | srcu_gp;
        fixed.unite(seq(seq(rcu_gp, link), rcu_rscsi));
        fixed.unite(seq(seq(srcu_gp, link), srcu_rscsi) & same_loc);
        fixed.unite(seq(seq(rcu_rscsi, link), rcu_gp));
        fixed.unite(seq(seq(srcu_rscsi, link), srcu_gp) & same_loc);
        BitRel order = rcu_gp | srcu_gp;
        for (;;) {
            BitRel next = fixed;
            const BitRel inner = seq(seq(link, order), link);
            next.unite(seq(seq(rcu_gp, inner), rcu_rscsi));
            next.unite(seq(seq(srcu_gp, inner), srcu_rscsi) & same_loc);
            next.unite(seq(seq(rcu_rscsi, inner), rcu_gp));
            next.unite(seq(seq(srcu_rscsi, inner), srcu_gp) & same_loc);
            next.unite(seq(seq(order, link), order));
            next.unite(order);
            if (next == order) break;
            order = std::move(next);
        }
        r.rcu_order = std::move(order);
        // rcu-fence = po ; rcu-order ; po?
        r.rcu_fence = seq(seq(r.po, r.rcu_order), opt(r.po));
        // rb = prop ; rcu-fence ; hb* ; pb* ; [Marked]
        r.rb = ran(seq(seq(seq(r.prop, r.rcu_fence), hb_star), pb_star), r.Marked);
    }

    // ---- plain accesses and data races ----
    if (r.has_plain) {
        // after the RCU section: fence and strong-fence include rcu-fence; nonrw-fence does not
        const BitRel fence2 = r.fence | r.rcu_fence;
        const BitRel strong2 = r.strong_fence | r.rcu_fence;
        r.xbstar = star(r.hb | r.pb | r.rb);
        const BitRel& xb = r.xbstar;
        const NodeSet not_noreturn = complement(r.Noreturn, n);
        const BitRel rmb_like = both(fencerel(r.po, fence_set(Rmb)), R4rmb, not_noreturn);
        const BitRel rmb_like_post = both(fencerel(r.po, fence_set(Rmb)), not_noreturn, R4rmb);
        // vis = cumul-fence* ; rfe? ; [Marked] ; ((strong-fence ; [Marked] ; xbstar) | (xbstar & int))
        const BitRel vis = seq(seq(star(r.cumul_fence), ran(opt(r.rfe), r.Marked)),
                               seq(ran(strong2, r.Marked), xb) | (xb & r.int_));
        const BitRel w_pre_bounded = dom(opt(r.addr | fence2), r.Marked);
        const BitRel r_pre_bounded = dom(opt(r.addr | r.nonrw_fence | rmb_like), r.Marked);
        const BitRel w_post_bounded = ran(opt(fence2), r.Marked);
        const BitRel r_post_bounded = ran(opt(r.nonrw_fence | rmb_like_post), r.Marked);
        const BitRel ww_vis = fence2 | seq(seq(strong2, xb), w_pre_bounded) | seq(seq(w_post_bounded, vis), w_pre_bounded);
        const BitRel wr_vis = fence2 | seq(seq(strong2, xb), r_pre_bounded) | seq(seq(w_post_bounded, vis), r_pre_bounded);
        const BitRel rw_xbstar = fence2 | seq(seq(r_post_bounded, xb), w_pre_bounded);
        // pre-race = ext & ((Plain * M) | ((M \ IW) * Plain))
        const BitRel pre_race = r.ext & (cross(r.Plain, r.M, n) | cross(minus(r.M, r.IW), r.Plain, n));
        const BitRel wr_incoh = pre_race & r.rf & rw_xbstar.inverse();
        const BitRel rw_incoh = pre_race & r.fr & wr_vis.inverse();
        const BitRel ww_incoh = pre_race & r.co & ww_vis.inverse();
        r.plain_incoh = wr_incoh | rw_incoh | ww_incoh;
        if (depth == Depth::Flags) {
            const BitRel ww_nonrace =
                ww_vis & (cross(r.Marked, r.W, n) | rw_xbstar) & (cross(r.W, r.Marked, n) | wr_vis);
            const BitRel ww_race = minus(pre_race & r.co, ww_nonrace);
            const BitRel wr_race = minus(minus(pre_race & seq(opt(r.co), r.rf), wr_vis), rw_xbstar.inverse());
            const BitRel rw_race = minus(pre_race & r.fr, rw_xbstar);
            r.data_race = ww_race | wr_race | rw_race;
            // barrier = fencerel(Barrier | Rmb | Wmb | Mb | Sync-rcu | Sync-srcu | Before-atomic |
            //   After-atomic | Acquire | Release | Rcu-lock | Rcu-unlock | Srcu-lock | Srcu-unlock)
            //   | (po ; [Release]) | ([Acquire] ; po)
            NodeSet stops = fence_set(Barrier | Rmb | Wmb | Mb | SyncRcu | SyncSrcu | BeforeAtomic | AfterAtomic | RcuLock |
                                      RcuUnlock | SrcuLock | SrcuUnlock) |
                            r.Acquire | r.Release;
            const BitRel barrier = fencerel(r.po, stops) | ran(r.po, r.Release) | dom(r.po, r.Acquire);
            // mixed-accesses = ([Plain & W] ; (po-loc \ barrier) ; [Marked]) |
            //                  ([Marked] ; (po-loc \ barrier) ; [Plain & W])
            NodeSet plain_w = r.Plain;
            for (std::size_t k = 0; k < plain_w.size(); ++k) plain_w[k] &= r.W[k];
            const BitRel near = minus(r.po_loc, barrier);
            r.mixed_accesses = both(near, plain_w, r.Marked) | both(near, r.Marked, plain_w);
        }
    }
    return r;
}

bool rcu_nesting_only(const ExecutionGraph& g, bool& unbalanced_rcu) {
    bool unbalanced = false;
    for (std::size_t t = 1; t < g.thread_count(); ++t) {
        std::size_t open = 0;
        for (const Event& e : g.thread(t)) {
            if ((e.lkmm & (SrcuLock | SrcuUnlock)) != 0) return false;
            if (!e.is_fence() && (e.lkmm & (Once | Acquire | Release)) == 0) return false;  // maybe plain
            if ((e.lkmm & RcuLock) != 0) {
                ++open;
            } else if ((e.lkmm & RcuUnlock) != 0) {
                if (open == 0) unbalanced = true;
                else --open;
            }
        }
        if (open != 0) unbalanced = true;
    }
    unbalanced_rcu = unbalanced;
    return true;
}

std::optional<EventId> unmatched_unlock(const ExecutionGraph& g) {
    // asked of every graph a cat model judges: no allocation, and a thread without an unlock
    // costs one pass
    for (std::size_t t = 1; t < g.thread_count(); ++t) {
        const auto& th = g.thread(t);
        for (std::size_t i = 0; i < th.size(); ++i) {
            if ((th[i].lkmm & Unlock) == 0 || !th[i].is_write()) continue;
            // the last lock event of its location before it must be an acquisition
            bool matched = false;
            for (std::size_t j = i; j-- > 0;) {
                const Event& p = th[j];
                if (p.location != th[i].location) continue;
                if ((p.lkmm & LockRmw) != 0 && p.kind == EventKind::Rmw) matched = true;
                else if (!((p.lkmm & Unlock) != 0 && p.is_write())) continue;
                break;
            }
            if (!matched) return th[i].id;
        }
    }
    return std::nullopt;
}

std::optional<std::string> violated_axiom(const Relations& r) {
    // acyclic po-loc | com as coherence
    {
        BitRel coherence = r.po_loc;
        for (const BitRel* x : {&r.rf, &r.co, &r.fr}) coherence.unite(*x);
        if (!acyclic(coherence)) return "coherence";
    }
    // empty rmw & (fre ; coe) as atomic
    if (!(r.rmw & seq(r.fre, r.coe)).empty()) return "atomic";
    if (!acyclic(r.hb)) return "happens-before";
    if (!acyclic(r.pb)) return "propagation";
    if (r.has_rcu && !irreflexive(r.rb)) return "rcu";
    if (r.has_plain && !r.plain_incoh.empty()) return "plain-coherence";
    return std::nullopt;
}

namespace {

/// A cycle of `rel` (acyclicity violated) or a reflexive pair, as nodes; empty when none.
std::vector<std::size_t> find_cycle(const BitRel& rel) {
    const std::size_t n = rel.size();
    for (std::size_t start = 0; start < n; ++start) {
        // BFS from start's successors back to start
        std::vector<std::size_t> parent(n, n);
        std::vector<std::size_t> queue;
        rel.for_each(start, [&](std::size_t j) {
            if (parent[j] == n) {
                parent[j] = start;
                queue.push_back(j);
            }
        });
        for (std::size_t q = 0; q < queue.size() && parent[start] == n; ++q)
            rel.for_each(queue[q], [&](std::size_t j) {
                if (parent[j] == n) {
                    parent[j] = queue[q];
                    queue.push_back(j);
                }
            });
        if (parent[start] == n) continue;
        std::vector<std::size_t> cycle{start};
        for (std::size_t v = parent[start]; v != start; v = parent[v]) cycle.push_back(v);
        std::reverse(cycle.begin() + 1, cycle.end());
        return cycle;
    }
    return {};
}

}  // namespace

std::vector<std::pair<EventId, EventId>> event_pairs(const Nodes& nodes, const BitRel& rel) {
    std::set<std::pair<EventId, EventId>> pairs;
    for (std::size_t i = 0; i < nodes.size() && i < rel.size(); ++i)
        rel.for_each(i, [&](std::size_t j) {
            if (nodes.event[i] != nodes.event[j]) pairs.emplace(nodes.event[i], nodes.event[j]);
        });
    return {pairs.begin(), pairs.end()};
}

std::vector<EventId> cycle_events(const Nodes& nodes, const BitRel& rel) {
    std::vector<EventId> cycle;
    for (std::size_t node : find_cycle(rel)) {
        const EventId id = nodes.event[node];
        if (cycle.empty() || cycle.back() != id) cycle.push_back(id);
    }
    if (cycle.size() > 1 && cycle.front() == cycle.back()) cycle.pop_back();
    return cycle;
}

}  // namespace oc::lkmm
