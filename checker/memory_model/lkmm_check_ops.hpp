// SPDX-License-Identifier: MIT
// The bit-matrix toolkit of lkmm_check.cpp: reused buffers (Work) and the relation operations
// over them (Ops), with the row width a compile-time constant where it is small. Internal to
// checker/memory_model/.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "traces/execution_graph.hpp"

namespace oc::lkmm::check_detail {

using Word = std::uint64_t;

/// Per node: what the relations need of its event.
struct NodeInfo {
    std::uint16_t thread = 0;  ///< graph thread (0: initial writes)
    std::uint32_t end = 0;     ///< one past the thread's last node
    std::int64_t location = -1;
    std::uint32_t tags = 0;    ///< the event's LKMM tags
    bool effective_fence = false;
};

/// The buffers of one check. Relations (n rows of w words) and sets (w words) come from blocks
/// that are kept from one check to the next and never move, so a check allocates nothing once
/// the blocks fit the largest graph seen.
class Work {
public:
    void begin(std::size_t n) {
        n_ = n;
        w_ = (n + 63) / 64;
        at_ = {0, 0};
    }
    std::size_t n() const { return n_; }
    std::size_t w() const { return w_; }
    /// A cleared relation.
    Word* rel() { return take(n_ * w_); }
    /// A cleared set.
    Word* set() { return take(w_); }
    /// Where the next buffer comes from: release(mark()) hands back what was taken since.
    std::pair<std::size_t, std::size_t> mark() const { return at_; }
    void release(std::pair<std::size_t, std::size_t> m) { at_ = m; }

    std::vector<NodeInfo> info;
    std::vector<EventId> event;        ///< per node
    std::vector<bool> write_part;      ///< per node
    std::vector<std::uint32_t> first;  ///< per event, flattened by thread: its first node
    std::vector<std::uint32_t> base;   ///< per graph thread: its first event in `first`
    std::vector<std::pair<std::int64_t, std::size_t>> open;  ///< nesting()'s stack
    std::vector<std::uint32_t> in, order;                    ///< close_acyclic()'s
    std::vector<std::uint32_t> rcu_nodes;  ///< the nodes rcu-order can relate, ascending
    std::vector<std::uint32_t> rcu_at;     ///< per node: its index in rcu_nodes, or their count
    Work* rcu = nullptr;                   ///< the buffers of the relations over rcu_nodes
    bool rcu_axiom = true;                 ///< check the rcu axiom (lkmm::consistent()'s `with_rcu`)

    /// The first block's start: the buffers of the events-only part of a check (Kept) are
    /// there, and are found again by their offsets from it.
    Word* front() {
        if (blocks_.empty()) blocks_.emplace_back(std::size_t{1} << 14, 0);
        return blocks_.front().data();
    }
    /// Refills the first `words` words of the first block with `src` (nullptr: they hold it
    /// already) and takes them: the buffers a check took there, in the same order, for the
    /// graph `src` was kept from.
    void take_kept(const Word* src, std::size_t words) {
        if (src != nullptr) std::memcpy(front(), src, words * sizeof(Word));  // they were taken there: the block is as large
        at_ = {0, words};
    }

private:
    Word* take(std::size_t words) {
        auto& [b, off] = at_;
        while (b < blocks_.size() && off + words > blocks_[b].size()) {
            ++b;
            off = 0;
        }
        if (b == blocks_.size()) blocks_.emplace_back(std::max<std::size_t>(words, 1u << 14), 0);
        Word* p = blocks_[b].data() + off;
        std::memset(p, 0, words * sizeof(Word));
        off += words;
        return p;
    }
    std::size_t n_ = 0, w_ = 0;
    std::pair<std::size_t, std::size_t> at_{0, 0};  ///< (block, offset) of the next buffer
    std::vector<std::vector<Word>> blocks_;
};

/// What a check computes from the graph's events alone, not from its rf, co or values: the
/// sets, the relations of the thread layout and the dependencies, the fences. A search asks
/// about many graphs with the same events (another rf or co), so these are kept per set of
/// events (EventsCache) and taken again, buffers and all, for the next such graph.
struct EventsPart {
    Word *R, *W, *IW, *Marked, *acquire, *release, *noreturn, *RMW, *LKR, *LKW, *UL, *M;
    Word *po, *int_, *ext, *po_loc, *rmw, *addr, *data, *ctrl;
    Word *acq_po, *po_rel, *R4rmb, *rmb, *wmb, *mb, *gp, *strong_fence, *nonrw_fence, *fence, *dep, *rwdep;
    Word* aul;  ///< fencerel(After-unlock-lock) restricted; its term of mb reads co (mb is without it)
    bool has_sync, has_rscs_event, has_plain;
    std::uint32_t fence_tags;  ///< the tags of the graph's effective fences, together
};

/// The events-only parts of the last graphs' sets of events, on the thread of a Work. Their
/// buffers are the first words of the Work's first block (which never moves), so a part's
/// pointers hold again once those words are refilled.
struct EventsCache {
    struct Entry {
        std::vector<Word> key, words;
        std::vector<NodeInfo> info;
        EventsPart part{};
        std::uint64_t hash = 0, used = 0;
    };
    static constexpr std::size_t entries = 64;
    std::vector<Entry> kept;
    /// The entry whose buffers fill the start of the Work's first block now (nullptr: none).
    Entry* resident = nullptr;
    std::vector<Word> key;
    std::uint64_t hash = 0, uses = 0;

    EventsCache() { kept.reserve(entries); }  // entries never move: `resident` and the parts handed out point at them
    /// The part kept for `key`, its buffers refilled and taken from k (nullptr: none kept).
    /// The graph just asked about, whose part is in place, is tried first, with no hash.
    const EventsPart* find(Work& k) {
        ++uses;
        if (resident != nullptr && resident->key == key) {
            resident->used = uses;
            k.take_kept(nullptr, resident->words.size());  // its buffers are still there, and k.info its
            return &resident->part;
        }
        hash = key.size();
        for (const Word w : key) hash = (std::rotl(hash, 23) ^ w) * 0x9e3779b97f4a7c15ULL;
        for (Entry& e : kept)
            if (e.hash == hash && e.key == key) {
                e.used = uses;
                k.take_kept(e.words.data(), e.words.size());
                k.info = e.info;
                resident = &e;
                return &e.part;
            }
        resident = nullptr;  // the check computes the part anew, over what is there
        return nullptr;
    }
    /// Keeps `part`, computed for `key` (after a find() that found none: `hash` is its) into
    /// the first `words` words of k's first block.
    void keep(Work& k, const EventsPart& part, std::size_t words) {
        Entry* slot = nullptr;
        if (kept.size() < entries) {
            slot = &kept.emplace_back();
        } else {
            slot = &*std::min_element(kept.begin(), kept.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
        }
        slot->key = key;
        slot->hash = hash;
        slot->used = uses;
        slot->words.assign(k.front(), k.front() + words);
        slot->info = k.info;
        slot->part = part;
        resident = slot;
    }
};

/// Words per row: W when W > 0 (a constant the loops unroll on), else the Work's.
template <std::size_t W>
struct Width {
    static constexpr std::size_t w = W;
    explicit Width(std::size_t) {}
};
template <>
struct Width<0> {
    std::size_t w;
    explicit Width(std::size_t words) : w(words) {}
};

/// The operations, over one Work's n and w.
template <std::size_t W>
struct Ops : Width<W> {
    using Width<W>::w;
    Work& k;
    std::size_t n;
    explicit Ops(Work& work) : Width<W>(work.w()), k(work), n(work.n()) {}

    Word* row(Word* r, std::size_t i) const { return r + i * w; }
    const Word* row(const Word* r, std::size_t i) const { return r + i * w; }
    static bool has(const Word* s, std::size_t i) { return (s[i / 64] >> (i % 64) & 1u) != 0; }
    static void put(Word* s, std::size_t i) { s[i / 64] |= Word{1} << (i % 64); }
    bool test(const Word* r, std::size_t i, std::size_t j) const { return has(row(r, i), j); }
    void set(Word* r, std::size_t i, std::size_t j) const { put(row(r, i), j); }

    Word* copy(const Word* a) const {
        Word* r = k.rel();
        std::memcpy(r, a, n * w * sizeof(Word));
        return r;
    }
    void unite(Word* a, const Word* b) const {
        for (std::size_t x = 0; x < n * w; ++x) a[x] |= b[x];
    }
    Word* either(const Word* a, const Word* b) const {
        Word* r = copy(a);
        unite(r, b);
        return r;
    }
    Word* both(const Word* a, const Word* b) const {
        Word* r = copy(a);
        for (std::size_t x = 0; x < n * w; ++x) r[x] &= b[x];
        return r;
    }
    bool empty(const Word* a) const {
        for (std::size_t x = 0; x < n * w; ++x)
            if (a[x] != 0) return false;
        return true;
    }
    void add_identity(Word* a) const {
        for (std::size_t i = 0; i < n; ++i) set(a, i, i);
    }
    Word* opt(const Word* a) const {
        Word* r = copy(a);
        add_identity(r);
        return r;
    }
    /// Calls f(j) for every j of the row `bits` (w words); each word is read once, when its turn
    /// comes (f may add to the row: close_acyclic() does, harmlessly).
    template <class F>
    void each(const Word* bits, F&& f) const {
        for (std::size_t v = 0; v < w; ++v)
            for (Word b = bits[v]; b != 0; b &= b - 1) f(v * 64 + static_cast<std::size_t>(__builtin_ctzll(b)));
    }
    /// a ; b
    Word* seq(const Word* a, const Word* b) const {
        Word* r = k.rel();
        for (std::size_t i = 0; i < n; ++i) {
            Word* dst = row(r, i);
            each(row(a, i), [&](std::size_t j) {
                const Word* o = row(b, j);
                for (std::size_t x = 0; x < w; ++x) dst[x] |= o[x];
            });
        }
        return r;
    }
    /// Transitive closure in place; false (and `a` left partly closed) when `a` has a cycle.
    /// Nodes are closed in reverse topological order (Kahn's algorithm), each row the union of
    /// its successors' closed rows: linear in the edges, where Warshall is quadratic in the
    /// nodes; the relations checked here are acyclic in every consistent graph.
    bool close_acyclic(Word* a) const {
        if (!topological_order(a)) return false;
        const std::vector<std::uint32_t>& order = k.order;
        // successors first: their rows are closed when a row takes them in
        for (std::size_t q = n; q-- > 0;) {
            Word* ri = row(a, order[q]);
            each(ri, [&](std::size_t j) {
                const Word* rj = row(a, j);
                for (std::size_t x = 0; x < w; ++x) ri[x] |= rj[x];
            });
        }
        return true;
    }
    /// Whether `a` is acyclic, with k.order a topological order of its nodes when it is
    /// (Kahn's algorithm; `a` is left as it is).
    bool topological_order(const Word* a) const {
        std::vector<std::uint32_t>& in = k.in;
        std::vector<std::uint32_t>& order = k.order;
        in.assign(n, 0);
        order.clear();
        for (std::size_t i = 0; i < n; ++i) each(row(a, i), [&](std::size_t j) { ++in[j]; });
        for (std::size_t i = 0; i < n; ++i)
            if (in[i] == 0) order.push_back(static_cast<std::uint32_t>(i));
        for (std::size_t q = 0; q < order.size(); ++q)
            each(row(a, order[q]), [&](std::size_t j) {
                if (--in[j] == 0) order.push_back(static_cast<std::uint32_t>(j));
            });
        return order.size() == n;
    }
    /// Transitive closure in place (Warshall where there is a cycle).
    void close(Word* a) const {
        Word* saved = copy(a);
        if (close_acyclic(a)) return;
        std::memcpy(a, saved, n * w * sizeof(Word));
        for (std::size_t m = 0; m < n; ++m) {
            const Word* km = row(a, m);
            for (std::size_t i = 0; i < n; ++i)
                if (test(a, i, m)) {
                    Word* ri = row(a, i);
                    for (std::size_t x = 0; x < w; ++x) ri[x] |= km[x];
                }
        }
    }
    Word* star(const Word* a) const {
        Word* r = copy(a);
        close(r);
        add_identity(r);
        return r;
    }
    bool reflexive(const Word* a) const {
        for (std::size_t i = 0; i < n; ++i)
            if (test(a, i, i)) return true;
        return false;
    }
    bool acyclic(const Word* a) const { return topological_order(a); }
    /// [dom] ; a ; [ran], in place (a null set: that side unrestricted)
    void restrict(Word* a, const Word* dom, const Word* ran) const {
        if (dom != nullptr && full(dom)) dom = nullptr;  // [S] over every node restricts nothing
        if (ran != nullptr && full(ran)) ran = nullptr;
        if (dom == nullptr && ran == nullptr) return;
        for (std::size_t i = 0; i < n; ++i) {
            Word* r = row(a, i);
            if (dom != nullptr && !has(dom, i)) {
                std::memset(r, 0, w * sizeof(Word));
                continue;
            }
            if (ran != nullptr)
                for (std::size_t x = 0; x < w; ++x) r[x] &= ran[x];
        }
    }
    Word* restricted(const Word* a, const Word* dom, const Word* ran) const {
        Word* r = copy(a);
        restrict(r, dom, ran);
        return r;
    }
    Word* inverse(const Word* a) const {
        Word* r = k.rel();
        for (std::size_t i = 0; i < n; ++i) each(row(a, i), [&](std::size_t j) { set(r, j, i); });
        return r;
    }
    Word* set_or(const Word* a, const Word* b) const {
        Word* s = k.set();
        for (std::size_t x = 0; x < w; ++x) s[x] = a[x] | b[x];
        return s;
    }
    Word* set_minus(const Word* a, const Word* b) const {
        Word* s = k.set();
        for (std::size_t x = 0; x < w; ++x) s[x] = a[x] & ~b[x];
        return s;
    }
    /// Whether the set holds every node 0..n-1.
    bool full(const Word* a) const {
        if (w == 0) return true;
        for (std::size_t x = 0; x + 1 < w; ++x)
            if (a[x] != ~Word{0}) return false;
        const std::size_t rest = n - (w - 1) * 64;  // nodes in the last word, 1..64
        const Word last = rest == 64 ? ~Word{0} : (Word{1} << rest) - 1;
        return (a[w - 1] & last) == last;
    }
    bool set_empty(const Word* a) const {
        for (std::size_t x = 0; x < w; ++x)
            if (a[x] != 0) return false;
        return true;
    }
    /// fencerel(S) = po ; [S] ; po: from a node to every node of its thread after the first
    /// S node that follows it.
    Word* fencerel(const Word* s) const {
        Word* r = k.rel();
        if (set_empty(s)) return r;  // no such fence: most fence kinds, in most graphs
        std::size_t next = n;        // the first S node after the current one, in its thread
        for (std::size_t i = n; i-- > 0;) {
            const std::size_t end = k.info[i].end;
            if (i + 1 == end) next = n;
            if (next < end) set_bit_span(row(r, i), next + 1, end);
            if (has(s, i)) next = i;
        }
        return r;
    }
    /// out = v ; a, for a set v (w words): the union of a's rows of v's nodes
    void image(const Word* v, const Word* a, Word* out) const {
        std::memset(out, 0, w * sizeof(Word));
        each(v, [&](std::size_t j) {
            const Word* o = row(a, j);
            for (std::size_t x = 0; x < w; ++x) out[x] |= o[x];
        });
    }
    /// [s] as a relation
    Word* id_on(const Word* s) const {
        Word* r = k.rel();
        for (std::size_t i = 0; i < n; ++i)
            if (has(s, i)) set(r, i, i);
        return r;
    }
};

}  // namespace oc::lkmm::check_detail
