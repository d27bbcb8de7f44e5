// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_builtins.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "checker/memory_model/lkmm_tags.hpp"

namespace oc::cat {

namespace {

using lkmm::NodeSet;

bool in(const NodeSet& s, std::size_t i) { return (s[i / 64] >> (i % 64) & 1u) != 0; }
void add(NodeSet& s, std::size_t i) { s[i / 64] |= std::uint64_t{1} << (i % 64); }

/// herd's fence tags (linux-kernel.bell's Barriers) and the lkmm::Tag each names.
const std::vector<std::pair<std::string, std::uint32_t>>& fence_tags() {
    static const std::vector<std::pair<std::string, std::uint32_t>> t{
        {"wmb", lkmm::Wmb},
        {"rmb", lkmm::Rmb},
        {"mb", lkmm::Mb},
        {"barrier", lkmm::Barrier},
        {"rcu-lock", lkmm::RcuLock},
        {"rcu-unlock", lkmm::RcuUnlock},
        {"sync-rcu", lkmm::SyncRcu},
        {"before-atomic", lkmm::BeforeAtomic},
        {"after-atomic", lkmm::AfterAtomic},
        {"after-spinlock", lkmm::AfterSpinlock},
        {"after-unlock-lock", lkmm::AfterUnlockLock},
        {"after-srcu-read-unlock", lkmm::AfterSrcuReadUnlock},
    };
    return t;
}

/// The tags of accesses and SRCU events, by ordercheck's name.
constexpr const char* access_tags[] = {"once", "acquire", "release", "noreturn", "srcu-lock", "srcu-unlock", "sync-srcu"};

/// herd's C11 memory orders (c11.bell's memorder), which an access or fence carries by its C++
/// order; a non-atomic access none.
constexpr const char* c11_tags[] = {"rlx", "acq", "rel", "con", "acq_rel", "sc"};
const char* c11_tag(MemoryOrder o) {
    switch (o) {
    case MemoryOrder::Relaxed: return "rlx";
    case MemoryOrder::Acquire: return "acq";
    case MemoryOrder::Release: return "rel";
    case MemoryOrder::AcqRel: return "acq_rel";
    case MemoryOrder::SeqCst: return "sc";
    case MemoryOrder::NonAtomic: break;
    }
    return nullptr;
}

std::string capitalised(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

bool same_primitive(const Event& a, const Event& b) {
    return a.primitive != nullptr && b.primitive != nullptr && std::string_view(a.primitive) == b.primitive;
}

/// An event of an RMW instruction: an RMW, or the read of a conditional RMW that failed.
bool rmw_instruction_event(const Event& e) {
    return e.kind == EventKind::Rmw || (e.kind == EventKind::Read && (e.lkmm & lkmm::ConditionalRmw) != 0);
}

/// Is `e` (of `thread`, at `index`) a fence the runtime put around a fully ordered RMW of the same
/// primitive call (kernel_atomic.hpp: F_sc; RMW; F_sc)? Under lkmmv2 herd makes no such fences.
bool rmw_fence(const std::vector<Event>& thread, std::size_t index) {
    const Event& f = thread[index];
    if (f.kind != EventKind::Fence || (f.lkmm & lkmm::Mb) == 0) return false;
    const auto rmw_at = [&](std::size_t k) { return k < thread.size() && same_primitive(thread[k], f) && rmw_instruction_event(thread[k]); };
    return rmw_at(index + 1) || (index > 0 && rmw_at(index - 1));
}

}  // namespace

bool kernel_tag(const std::string& tag) {
    const std::string t = lower(tag);
    for (const char* a : access_tags)
        if (t == a) return true;
    for (const auto& [name, bit] : fence_tags())
        if (name == t) return true;
    return false;
}

bool known_tag(const std::string& tag) {
    const std::string t = lower(tag);
    for (const char* c : c11_tags)
        if (t == c) return true;
    return kernel_tag(t);
}

std::string tag_set_name(const std::string& tag) { return capitalised(tag); }

std::string canonical_tag(const std::string& tag) { return lower(tag); }

namespace {

/// Builds b's maps for `dialect` and finds where each set and relation is.
void lay_out(Builtins& b, const Dialect& dialect) {
    // the set of a tag: its name as the model declares it, capitalised (Once; ONCE in lkmmv2)
    const auto tag_set = [&](const std::string& name) {
        const auto it = dialect.spelling.find(name);
        return capitalised(it == dialect.spelling.end() ? name : it->second);
    };
    auto& S = b.sets;
    S.clear();
    b.rels.clear();
    for (const char* name : {"R", "W", "M", "F", "IW", "RMW", "LKR", "LKW", "UL", "LF", "RL", "RU", "FW", "_"}) S[name];
    for (const char* name : access_tags) S[tag_set(name)];
    for (const auto& [name, bit] : fence_tags()) S[tag_set(name)];
    const bool c11 = dialect.spelling.count("rlx") != 0;
    if (c11)
        for (const char* name : c11_tags) S[tag_set(name)];
    Builtins::Layout& L = b.layout;
    L = {};
    L.c11 = c11;
    L.all = &S["_"], L.IW = &S["IW"], L.W = &S["W"], L.R = &S["R"], L.M = &S["M"], L.F = &S["F"], L.FW = &S["FW"];
    L.RMW = &S["RMW"], L.LKR = &S["LKR"], L.LKW = &S["LKW"], L.UL = &S["UL"], L.LF = &S["LF"], L.RL = &S["RL"];
    L.RU = &S["RU"];
    L.Once = &S[tag_set("once")], L.Acquire = &S[tag_set("acquire")], L.Release = &S[tag_set("release")];
    L.Noreturn = &S[tag_set("noreturn")], L.Mb = &S[tag_set("mb")], L.SrcuLock = &S[tag_set("srcu-lock")];
    L.SrcuUnlock = &S[tag_set("srcu-unlock")], L.SyncSrcu = &S[tag_set("sync-srcu")];
    for (const auto& [name, bit] : fence_tags()) L.fence_sets.emplace_back(bit, &S[tag_set(name)]);
    if (c11)
        for (const MemoryOrder o : {MemoryOrder::Relaxed, MemoryOrder::Acquire, MemoryOrder::Release, MemoryOrder::AcqRel,
                                    MemoryOrder::SeqCst})
            L.c11_sets.at(static_cast<std::size_t>(o)) = &S[tag_set(c11_tag(o))];
    for (auto& [name, set] : S) L.every_set.push_back(&set);
    const auto rel = [&](const char* name) { return &b.rels.try_emplace(name, 0).first->second; };
    L.po = rel("po"), L.loc = rel("loc"), L.int_ = rel("int"), L.ext = rel("ext"), L.id = rel("id"), L.rf = rel("rf");
    L.co = rel("co"), L.fr = rel("fr"), L.rmw = rel("rmw"), L.addr = rel("addr"), L.data = rel("data");
    L.ctrl = rel("ctrl");
    for (auto& [name, r] : b.rels) L.every_rel.push_back(&r);
    for (const auto& [name, set] : S) L.syms.push_back(symbol(name));
    for (const auto& [name, r] : b.rels) L.syms.push_back(symbol(name));
}

}  // namespace

std::pair<std::vector<std::string>, std::vector<std::string>> builtin_names(const Dialect& dialect) {
    Builtins b;
    lay_out(b, dialect);
    std::pair<std::vector<std::string>, std::vector<std::string>> out;
    for (const auto& [name, s] : b.sets) out.first.push_back(name);
    for (const auto& [name, r] : b.rels) out.second.push_back(name);
    return out;
}

namespace {

/// The relations but rf, co and fr that builtins_into() builds, in Builtins::Kept's order.
std::array<BitRel*, 9> events_rels(const Builtins::Layout& L) {
    return {L.po, L.loc, L.int_, L.ext, L.id, L.rmw, L.addr, L.data, L.ctrl};
}

/// The entry of b.kept for events `key` (nullptr: none), with its hash.
Builtins::Kept* find_kept(Builtins& b, const std::vector<std::uint64_t>& key, std::uint64_t& hash) {
    hash = key.size();
    for (const std::uint64_t w : key) hash = (std::rotl(hash, 23) ^ w) * 0x9e3779b97f4a7c15ULL;
    ++b.uses;
    for (Builtins::Kept& k : b.kept)
        if (k.hash == hash && k.key == key) {
            k.used = b.uses;
            return &k;
        }
    return nullptr;
}

/// Copies what b's events decide into its entry for `key` (the least recently used one's place
/// once there are 64).
void keep(Builtins& b, const std::vector<std::uint64_t>& key, std::uint64_t hash) {
    constexpr std::size_t entries = 64;
    Builtins::Kept* k = nullptr;
    if (b.kept.size() < entries) k = &b.kept.emplace_back();
    else k = &*std::min_element(b.kept.begin(), b.kept.end(), [](const auto& x, const auto& y) { return x.used < y.used; });
    k->key = key;
    k->hash = hash;
    k->used = b.uses;
    k->nodes = b.nodes;
    k->sets.resize(b.layout.every_set.size());
    for (std::size_t i = 0; i < k->sets.size(); ++i) k->sets[i] = *b.layout.every_set[i];
    const auto rels = events_rels(b.layout);
    k->rels.resize(rels.size(), BitRel(0));
    for (std::size_t i = 0; i < rels.size(); ++i) k->rels[i] = *rels[i];
    k->lock_reads = b.scratch.lock_reads;
}

/// Copies an entry back into b.
void take(Builtins& b, const Builtins::Kept& k) {
    b.nodes = k.nodes;
    for (std::size_t i = 0; i < k.sets.size(); ++i) *b.layout.every_set[i] = k.sets[i];
    const auto rels = events_rels(b.layout);
    for (std::size_t i = 0; i < rels.size(); ++i) *rels[i] = k.rels[i];
    b.scratch.lock_reads = k.lock_reads;
}

/// Each of `rels` emptied over n nodes, its storage kept when it has that size already.
void empty_over(std::initializer_list<BitRel*> rels, std::size_t n) {
    for (BitRel* r : rels) {
        if (r->size() == n) r->clear();
        else r->reshape(n);
    }
}

/// The sets and the relations but rf, co and fr of g, over b.nodes, with each node's event in
/// b.scratch.events: what g's events alone decide.
void events_builtins(Builtins& b, const ExecutionGraph& g, const Dialect& dialect) {
    const Builtins::Layout& L = b.layout;
    const lkmm::Nodes& N = b.nodes;
    const std::size_t n = N.size();
    const std::size_t words = (n + 63) / 64;
    // emptied, their storage kept when the graph has as many nodes as the last one
    for (NodeSet* s : L.every_set) {
        if (s->size() == words) std::fill(s->begin(), s->end(), 0);
        else s->assign(words, 0);
    }
    empty_over({L.po, L.loc, L.int_, L.ext, L.id, L.rmw, L.addr, L.data, L.ctrl}, n);
    const std::vector<const Event*>& events = b.scratch.events;
    auto ev = [&](std::size_t i) -> const Event& { return *events[i]; };
    NodeSet &all = *L.all, &sIW = *L.IW, &sW = *L.W, &sR = *L.R, &sF = *L.F, &sRMW = *L.RMW, &sLKR = *L.LKR,
            &sLKW = *L.LKW, &sUL = *L.UL, &sLF = *L.LF, &sRL = *L.RL, &sRU = *L.RU;
    NodeSet &sOnce = *L.Once, &sAcquire = *L.Acquire, &sRelease = *L.Release, &sNoreturn = *L.Noreturn, &sMb = *L.Mb,
            &sSrcuLock = *L.SrcuLock, &sSrcuUnlock = *L.SrcuUnlock, &sSyncSrcu = *L.SyncSrcu;
    const auto& fence_sets = L.fence_sets;
    const auto& c11_sets = L.c11_sets;
    const bool c11 = L.c11;
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        const bool wpart = N.write_part[i];
        const std::uint32_t t = e.lkmm;
        add(all, i);
        if (e.id.thread == EventId::init_thread) {
            add(sIW, i);
            add(sW, i);
            continue;
        }
        // as lkmm.cpp: a failed conditional RMW is a read in RMW with no ordering of its own
        // (herd: once)
        const bool failed_rmw = e.kind == EventKind::Read && (t & lkmm::ConditionalRmw) != 0;
        const bool read_side = e.kind == EventKind::Read || (e.kind == EventKind::Rmw && !wpart);
        const bool write_side = e.kind == EventKind::Write || (e.kind == EventKind::Rmw && wpart);
        // herd's lock events are neither R nor W until lock.cat makes them so
        bool lock_event = false;
        // a failed spin_lock() attempt (a Read tagged LF, of spin_lock or mutex_lock) is the graph
        // engine's: it records the read, blocks the thread until the lock word changes, and points
        // the read at later writes (the unlock) while it searches. herd has no such event (its
        // spin_lock() never fails). Here it is a marked read (once) with nothing po-after it to
        // order; not LF, which may read only from a lock (lock.cat's rf-lf).
        const bool failed_lock = (t & lkmm::LockFail) != 0 && e.kind == EventKind::Read &&
                                 (std::string_view(e.primitive) == "spin_lock" || std::string_view(e.primitive) == "mutex_lock");
        if (failed_lock) {
            add(sOnce, i);
        } else if ((t & lkmm::LockRmw) != 0 && (read_side || write_side)) {
            add(read_side ? sLKR : sLKW, i);
            lock_event = true;
        }
        if ((t & lkmm::Unlock) != 0 && write_side) add(sUL, i), lock_event = true;
        if ((t & lkmm::LockFail) != 0 && read_side && !failed_lock) add(sLF, i), lock_event = true;
        if ((t & lkmm::ReadLocked) != 0 && read_side) add(sRL, i), lock_event = true;
        if ((t & lkmm::ReadUnlocked) != 0 && read_side) add(sRU, i), lock_event = true;
        switch (e.kind) {
        case EventKind::Read:
            if (!lock_event) add(sR, i);
            if (failed_rmw) add(sRMW, i);
            break;
        case EventKind::Write:
            if (!lock_event) add(sW, i);
            break;
        case EventKind::Rmw:
            if (!lock_event) add(wpart ? sW : sR, i);
            // herd's RMW holds the events of RMW instructions, not a lock's LKR and LKW (as lkmm.cpp)
            if ((t & lkmm::LockRmw) == 0) add(sRMW, i);
            break;
        case EventKind::Fence: {
            add(sF, i);
            const auto& thread = g.thread(e.id.thread);
            // lkmmv2: a fully ordered RMW's fences are not there (its events carry MB instead);
            // the fence stays an F with no tag, which no relation of the model can see
            if (dialect.lkmmv2 && rmw_fence(thread, e.id.index)) break;
            // a fence of a conditional RMW orders only when the RMW succeeds (lkmm.cpp)
            bool effective = true;
            if ((t & lkmm::IfRmwSucceeds) != 0)
                effective = e.id.index + 1 < thread.size() && thread[e.id.index + 1].kind == EventKind::Rmw;
            if (effective)
                for (const auto& [bit, set] : fence_sets)
                    if ((t & bit) != 0) add(*set, i);
            break;
        }
        }
        if (dialect.lkmmv2 && rmw_instruction_event(e) && !lock_event && !failed_lock) {
            // herd's lkmmv2 (CSem.ml): the instruction's tag on every event of the RMW, a failed
            // one's read included; the bell then strips what a tag does not give (FailedRMW,
            // ACQUIRE \ W...). A fully ordered RMW is the one the runtime put fences around.
            const auto& thread = g.thread(e.id.thread);
            const bool full = e.id.index > 0 && rmw_fence(thread, e.id.index - 1);
            if (full) add(sMb, i);
            else if ((t & lkmm::Noreturn) != 0) add(sNoreturn, i);
            else if ((t & (lkmm::Acquire | lkmm::Release)) != 0) {
                if ((t & lkmm::Acquire) != 0) add(sAcquire, i);
                if ((t & lkmm::Release) != 0) add(sRelease, i);
            } else {
                add(sOnce, i);
            }
        } else {
            if ((t & lkmm::Once) != 0 || failed_rmw) add(sOnce, i);
            if ((t & lkmm::Acquire) != 0 && read_side && !failed_rmw) add(sAcquire, i);
            if ((t & lkmm::Release) != 0 && write_side) add(sRelease, i);
            if ((t & lkmm::Noreturn) != 0 && read_side) add(sNoreturn, i);
        }
        if (c11 && !lock_event)
            if (NodeSet* set = c11_sets.at(static_cast<std::size_t>(e.order))) add(*set, i);
        if ((t & lkmm::SrcuLock) != 0) add(sSrcuLock, i);
        if ((t & lkmm::SrcuUnlock) != 0) add(sSrcuUnlock, i);
        if ((t & lkmm::SyncSrcu) != 0) add(sSyncSrcu, i);
    }
    for (std::size_t k = 0; k < words; ++k) (*L.M)[k] = sR[k] | sW[k];
    NodeSet& lock_reads = b.scratch.lock_reads;
    lock_reads.assign(words, 0);
    for (const NodeSet* l : {&sLKR, &sLF, &sRL, &sRU})
        for (std::size_t k = 0; k < words; ++k) lock_reads[k] |= (*l)[k];

    BitRel &po = *L.po, &loc = *L.loc, &int_ = *L.int_, &ext = *L.ext, &id = *L.id, &rmw = *L.rmw, &addr = *L.addr,
           &data = *L.data, &ctrl = *L.ctrl;
    {
        // Row by row: the nodes are numbered thread by thread (lkmm::number_nodes()), so a
        // thread's are one span. int: the node's thread, itself included (as lkmm.cpp: int holds
        // (e, e); an initial write shares a thread with none); ext: the rest; po: the thread's
        // later nodes; loc: the nodes of the node's location (SRCU events carry their
        // srcu_struct as location, as lkmm.cpp's same_loc).
        const std::size_t w = (n + 63) / 64;
        std::vector<NodeSet>& at_location = b.scratch.at_location;
        at_location.resize(g.location_count());
        for (NodeSet& l : at_location) l.assign(words, 0);
        for (std::size_t i = 0; i < n; ++i)
            if (const auto l = ev(i).location; l && *l < at_location.size()) add(at_location[*l], i);
        for (std::size_t begin = 0; begin < n;) {
            const std::uint16_t t = ev(begin).id.thread;
            std::size_t end = begin;
            while (end < n && ev(end).id.thread == t) ++end;
            for (std::size_t i = begin; i < end; ++i) {
                id.set(i, i);
                const bool init = t == EventId::init_thread;
                std::uint64_t *ri = int_.row(i), *re = ext.row(i);
                if (init) ri[i / 64] |= std::uint64_t{1} << (i % 64);
                else set_bit_span(ri, begin, end);
                set_bit_span(re, 0, n);
                for (std::size_t v = 0; v < w; ++v) re[v] &= ~ri[v];
                if (!init) set_bit_span(po.row(i), i + 1, end);
                if (const auto l = ev(i).location; l && *l < at_location.size())
                    for (std::size_t v = 0; v < w; ++v) loc.row(i)[v] = at_location[*l][v];
            }
            begin = end;
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!N.write_part[i] && ev(i).kind == EventKind::Rmw && !in(sLKR, i)) rmw.set(i, i + 1);
    lkmm::dependencies(events, N, addr, data, ctrl);
}

}  // namespace

void builtins_into(Builtins& b, const ExecutionGraph& g, const Dialect& dialect, std::uint64_t stamp) {
    if (stamp == 0 || b.stamp != stamp) {
        lay_out(b, dialect);
        b.events_key.clear();
        b.kept.clear();
    }
    b.stamp = stamp;
    const Builtins::Layout& L = b.layout;
    // what the sets and the relations but rf, co and fr are made of: when the last graph had
    // the same (and the same dialect, `stamp`), they are as it left them
    std::vector<std::uint64_t>& key = b.scratch.key;
    lkmm::events_key(g, key);
    bool same_events = stamp != 0 && key == b.events_key;
    std::uint64_t hash = 0;
    if (!same_events && stamp != 0)
        if (const Builtins::Kept* k = find_kept(b, key, hash)) {
            take(b, *k);
            std::swap(key, b.events_key);
            same_events = true;
        }
    if (!same_events) lkmm::number_nodes_into(g, b.nodes);
    const lkmm::Nodes& N = b.nodes;
    const std::size_t n = N.size();
    // the node's event, found once (g.event() checks its indices)
    std::vector<const Event*>& events = b.scratch.events;
    events.resize(n);
    for (std::size_t i = 0; i < n; ++i) events[i] = &g.event(N.event[i]);
    auto ev = [&](std::size_t i) -> const Event& { return *events[i]; };
    if (!same_events) {
        std::swap(key, b.events_key);
        events_builtins(b, g, dialect);
        if (stamp != 0) keep(b, b.events_key, hash);
    }
    empty_over({L.rf, L.co, &b.graph_rf_co}, n);
    // N.of(id, true) for an event of the graph: an RMW's write part is the node after its read part
    auto write_node = [&](EventId id) {
        const std::size_t node = N.first.at(id.thread).at(id.index);
        return node + (node + 1 < n && N.write_part[node + 1] && N.event[node + 1] == id ? 1 : 0);
    };
    // herd's value of an event: what a read reads, what a write (or a fence-like SRCU event) carries
    b.value.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        const bool read_side = e.kind == EventKind::Read || (e.kind == EventKind::Rmw && !N.write_part[i]);
        b.value[i] = e.id.thread != EventId::init_thread && read_side && e.kind != EventKind::Fence ? e.read_value : e.written_value;
    }
    BitRel &rf = *L.rf, &co = *L.co;
    const NodeSet& lock_reads = b.scratch.lock_reads;
    for (std::size_t i = 0; i < n; ++i) {
        const Event& e = ev(i);
        if (N.write_part[i]) continue;
        if (e.is_read() && e.reads_from && g.contains(*e.reads_from)) {
            const std::size_t src = write_node(*e.reads_from);
            b.graph_rf_co.set(src, i);
            if (!in(lock_reads, i)) rf.set(src, i);
        }
    }
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        std::vector<std::size_t>& nodes = b.scratch.co_nodes;
        nodes.clear();
        for (const EventId& w : g.co(static_cast<LocationId>(l))) nodes.push_back(write_node(w));
        for (std::size_t x = 0; x < nodes.size(); ++x)
            for (std::size_t y = x + 1; y < nodes.size(); ++y) co.set(nodes[x], nodes[y]);
    }
    b.graph_rf = b.graph_rf_co;
    b.graph_co = co;
    b.graph_rf_co.unite(co);
    b.scratch.rf_inverse.reshape(n);
    L.fr->reshape(n);
    rf.inverse_into(b.scratch.rf_inverse);
    b.scratch.rf_inverse.compose_into(co, *L.fr);
}

}  // namespace oc::cat
