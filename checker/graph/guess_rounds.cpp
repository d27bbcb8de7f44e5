// SPDX-License-Identifier: MIT
// Load buffering under LKMM: a complete graph with guessed reads goes to the sink once for every
// consistent matching of its guesses with writes, and graph_explore() learns, in rounds of
// exploration, the values a read may guess, before the exploration proper.
#include "checker/graph/graph_engine_internal.hpp"
#include "checker/graph/in_process_shards.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_tags.hpp"

#include <algorithm>
#include <bit>
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

namespace oc {
namespace graph_detail {

/// Some thread may guess some value.
static bool any_guessable(const Guesses& g) {
    for (const auto& per_location : g.writes)
        for (const auto& [uv, prefix] : per_location)
            for (std::size_t t = 1; t < prefix.size(); ++t)
                if (t != uv.first && prefix[t] != 0) return true;
    return false;
}

/// Closes `g.writes` under the rf links that may be: when thread k's event b is porf-before a
/// write (b < prefix[k]) and k's event b may read a write of thread i at po index a, i's first
/// a + 1 events may be porf-before such a write too. The links are those seen (`links`), where k
/// is a third thread (the writer's own reads porf-before its write were seen with it), and those
/// no execution can show (`closing`): a read porf-before a write cannot read it (the rf would
/// close a cycle), yet in a load-buffering execution it does. Such a pair, seen in one
/// execution, counts as a link when the writing thread may leave its step of the cycle
/// unordered (where `closing` is filled). LB+branch-pointer (P0 writes y only after reading
/// P1's x = 1, which P1 writes after reading y) and LB+await+mb (P0 writes y after a loop that
/// waits for x = 1) have their cycle through one, and without it no execution would teach
/// their first read the value to guess.
static void close_under_links(Guesses& g) {
    for (auto& per_location : g.writes)
        for (auto& [uv, prefix] : per_location)
            for (bool changed = true; changed;) {
                changed = false;
                const auto link = [&](std::uint32_t i, std::uint32_t a, std::uint32_t k, std::uint32_t b) {
                    if (b < prefix[k] && prefix[i] < a + 1) {
                        prefix[i] = a + 1;
                        changed = true;
                    }
                };
                for (const auto& [i, a, k, b] : g.links)
                    if (k != uv.first) link(i, a, k, b);
                for (const auto& [i, a, k, b] : g.closing) link(i, a, k, b);
            }
}

/// Closes `g.writes` under the copies: a write of thread t to location l that copies a read of
/// location m may store every value some write of m stores (a store of a constant, a copy of
/// another). crypto-control-data stores the constant 1 to y only when it reads x = 1, which
/// P1 writes only as a copy of y = 1: the value only the cycle stores reaches x this way, and
/// its read of x guesses it. An over-approximation: a guess that no write of the completed
/// graph matches builds no execution (for_each_matching()).
static void close_under_copies(Guesses& g) {
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [key, prefix] : g.copies) {
            const auto [to, t, from] = key;
            if (from >= g.writes.size()) continue;
            if (to >= g.writes.size()) g.writes.resize(to + 1u);
            // a value only the program text shows (a store no execution ran, VariantDef::
            // text_writes, every read porf-before it) stays so when copied: the copy reads it
            // from that store, so what is porf-before the store is porf-before the copy
            std::vector<std::pair<Value, bool>> values;
            for (const auto& [uv, source] : g.writes[from])
                values.emplace_back(uv.second, !source.empty() && std::all_of(source.begin(), source.end(), [](std::uint32_t n) {
                                                   return n == std::numeric_limits<std::uint32_t>::max();
                                               }));
            for (const auto& [v, from_text] : values) {
                auto& mine = g.writes[to][{static_cast<std::uint16_t>(t), v}];
                if (mine.size() < prefix.size()) mine.resize(prefix.size(), 0);
                for (std::size_t u = 0; u < prefix.size(); ++u) {
                    const std::uint32_t reach = from_text ? std::numeric_limits<std::uint32_t>::max() : prefix[u];
                    if (mine[u] < reach) {
                        mine[u] = reach;
                        changed = true;
                    }
                }
            }
        }
    }
}

/// Whether the read at po index `i` of `th` has a po-later write of its thread that LKMM does
/// not order after it (Guesses::free_after_relaxed: were the read relaxed; free_after_acquire:
/// were it an acquire). Ordered, when the read is marked: a marked write that depends on it
/// (address, data, control: the pruning guess_can_close_a_cycle() makes for every guess), a
/// marked write after an smp_mb() (strong-fence), a release write (po-rel), and for an acquire
/// read any marked write (acq-po), each where the model orders for it (`orders`,
/// MemoryModel::orders()). LKMM's hb relates marked accesses only, so nothing orders a
/// plain read before a write, nor a read before a plain write, in a load-buffering cycle
/// (LB+ctrls+plain-read: herd7's Sometimes). Marked: the event carries an LKMM tag; a model that
/// sets none is taken as plain throughout, which orders nothing and so only leaves more reads to
/// guess. A write to a location no marked access reaches (`only_plain`, per location) does not
/// count for a marked read: a cycle through it continues with a plain read, which guesses.
static std::uint8_t free_writes_after(const std::vector<Event>& th, std::size_t i, const std::vector<bool>& only_plain,
                                      std::uint8_t orders) {
    std::uint8_t free = 0;
    bool mb_between = false;
    const bool marked_read = th[i].lkmm != 0;
    for (std::size_t j = i + 1; j < th.size(); ++j) {
        const Event& w = th[j];
        if (w.is_fence() && (w.lkmm & lkmm::Mb) != 0) mb_between = true;
        if (!w.is_write() || w.at_quiescence) continue;
        const bool marked = w.lkmm != 0;
        if (marked_read && w.location && *w.location < only_plain.size() && only_plain[*w.location]) continue;
        if ((orders & ordering::dependency) != 0 && marked_read && marked && i < 64 &&
            ((w.addr_deps | w.data_deps | w.ctrl_deps) >> i & 1u) != 0)
            continue;
        if (marked_read && (((w.lkmm & lkmm::Release) != 0 && (orders & ordering::release) != 0) ||
                            (marked && mb_between && (orders & ordering::strong_fence) != 0)))
            continue;
        free |= Guesses::free_after_relaxed;
        if (!marked) free |= Guesses::free_after_acquire;
    }
    return free;
}

/// Whether write `a` of thread `th` may be the unordered step after its read `j` (j < a) of a
/// cycle whose link only the cycle shows: both marked, of different locations (po-loc is in
/// coherence), and not ordered as free_writes_after() says, an acquire read ordering every
/// marked write after it. Plain accesses and same-location steps are left out to keep the
/// rounds small: a cycle that needs such a link there is not built (docs/lkmm.md, "Limits").
static bool free_of(const std::vector<Event>& th, std::size_t j, std::size_t a, std::uint8_t orders) {
    const auto tags = [](const Event& e) { return lkmm_tags_of(e) | e.lkmm; };
    const auto has = [&](std::uint8_t reason) { return (orders & reason) != 0; };
    const std::uint32_t rt = tags(th[j]), wt = tags(th[a]);
    const Event& w = th[a];
    if (rt == 0 || wt == 0 || th[j].location == w.location) return false;
    if (has(ordering::dependency) && j < 64 && ((w.addr_deps | w.data_deps | w.ctrl_deps) >> j & 1u) != 0) return false;
    if (((wt & lkmm::Release) != 0 && has(ordering::release)) || ((rt & lkmm::Acquire) != 0 && has(ordering::acquire)) ||
        ((wt & lkmm::Unlock) != 0 && has(ordering::locks)) || ((rt & lkmm::LockRmw) != 0 && has(ordering::locks)))
        return false;
    for (std::size_t m = j + 1; m < a && has(ordering::strong_fence); ++m)
        if (th[m].is_fence() && (tags(th[m]) & (lkmm::Mb | lkmm::SyncRcu | lkmm::SyncSrcu)) != 0 &&
            (tags(th[m]) & lkmm::IfRmwSucceeds) == 0)
            return false;
    return true;
}

/// Per location of `g`: whether `names` (VariantDef::plain_only_locations) holds its name.
static std::vector<bool> only_plain_of(const ExecutionGraph& g, const std::vector<std::string>& names) {
    std::vector<bool> only(g.location_count(), false);
    for (std::size_t l = 0; l < g.location_count() && !names.empty(); ++l)
        only[l] = std::find(names.begin(), names.end(), g.location_name(static_cast<LocationId>(l))) != names.end();
    return only;
}

bool GraphEngine::plain_only(LocationId loc) const {
    if (variant_.plain_only_locations.empty()) return false;
    if (plain_only_.size() <= loc) plain_only_ = only_plain_of(rt_->graph(), variant_.plain_only_locations);
    return loc < plain_only_.size() && plain_only_[loc];
}

std::optional<std::vector<std::uint64_t>> GraphEngine::model_links(std::uint16_t gt) const {
    const auto& th = g_.threads[gt];
    if (std::any_of(th.begin(), th.end(), [](const Node& n) { return n.pending; })) return std::nullopt;
    thread_graph(g_, gt, links_graph_);
    // the answer depends on the thread's events alone, which recur from run to run
    std::vector<std::uint64_t> key{gt};
    for (const Event& e : links_graph_.thread(gt))
        key.insert(key.end(), {static_cast<std::uint64_t>(e.kind) | static_cast<std::uint64_t>(e.order) << 8 |
                                   std::uint64_t{e.location ? *e.location + 1u : 0u} << 16 |
                                   std::uint64_t{e.at_quiescence} << 48 | std::uint64_t{e.data_copy} << 49 |
                                   std::uint64_t{e.rmw_data} << 50 |
                                   (e.weakened_from ? 1u + static_cast<std::uint64_t>(*e.weakened_from) : 0u) << 52,
                               static_cast<std::uint64_t>(e.read_value), static_cast<std::uint64_t>(e.written_value),
                               reinterpret_cast<std::uintptr_t>(e.primitive), e.op, e.lkmm, e.addr_deps, e.data_deps,
                               e.ctrl_deps});
    if (const auto it = links_memo_.find(key); it != links_memo_.end()) return it->second;
    std::optional<std::vector<std::uint64_t>> links = model_.ordered_links(links_graph_, gt);
    if (links_memo_.size() >= 1u << 16) links_memo_.clear();
    links_memo_.emplace(std::move(key), links);
    return links;
}

bool GraphEngine::guess_can_close_a_cycle(std::uint16_t gt) const {
    const bool lkmm = &model_ == &lkmm_model();
    const std::uint8_t orders = model_.orders();  // LKMM: every reason; a cat model: its probes
    const auto tags = [](const Node& n) { return n.lkmm_tags(); };
    const auto& th = g_.threads[gt];
    // a model given as data: the links its axioms order (asked once, when a guess needs it)
    std::optional<std::vector<std::uint64_t>> links;
    bool asked = lkmm;
    const auto linked = [&](std::size_t i, std::size_t j) {
        if (!asked) {
            asked = true;
            links = model_links(gt);
        }
        return links && i < links->size() && j < 64 && ((*links)[i] >> j & 1u) != 0;
    };
    for (std::size_t i = 0; i < th.size(); ++i) {
        if (!th[i].guessed) continue;
        const Event& r = th[i].ev;
        const std::uint32_t rt = tags(th[i]);
        const bool marked_read = rt != 0;
        // an acquire read part orders every marked access after it (acq-po); a failed
        // compare-exchange is a relaxed read whatever its order
        const bool failed_cas = r.kind == EventKind::Read && (rt & lkmm::ConditionalRmw) != 0;
        const auto has = [&](std::uint8_t reason) { return (orders & reason) != 0; };
        const bool acquired = ((rt & lkmm::LockRmw) != 0 && has(ordering::locks)) ||
                              ((rt & lkmm::Acquire) != 0 && !failed_cas && has(ordering::acquire));
        bool strong_fence = false, free_write = false;
        for (std::size_t j = i + 1; j < th.size() && !free_write && i < 64; ++j) {
            const Event& w = th[j].ev;
            if (w.is_fence()) {
                const std::uint32_t t = tags(th[j]);
                if ((t & (lkmm::Mb | lkmm::SyncRcu | lkmm::SyncSrcu)) != 0 && (t & lkmm::IfRmwSucceeds) == 0)
                    strong_fence = true;
                continue;
            }
            if (!w.is_write()) continue;
            const std::uint64_t deps = w.addr_deps | w.data_deps | w.ctrl_deps;
            // as free_writes_after(): a dependency orders a marked read before a marked write
            // only, and so do strong-fence, acq-po and po-rel, each where the model orders for
            // it (MemoryModel::orders()); a write no marked read can read is left to the plain
            // read that reads it
            const std::uint32_t wt = tags(th[j]);
            const bool release = ((wt & lkmm::Release) != 0 && has(ordering::release)) ||
                                 ((wt & lkmm::Unlock) != 0 && has(ordering::locks));
            const bool ordered =
                marked_read && ((wt != 0 && ((has(ordering::dependency) && (deps >> i & 1u) != 0) ||
                                             (strong_fence && has(ordering::strong_fence)) || acquired || release)) ||
                                (w.location && plain_only(*w.location)));
            free_write = !ordered && !linked(i, j);
        }
        if (!free_write && i < 64) return false;
        if (text_ordered(r.id) == true)
            throw std::logic_error("ordercheck: internal error: " + variant_.id() + ": the read at " + r.where.file + ":" +
                                   std::to_string(r.where.line) +
                                   " was found ordered before every later write of its thread, yet its guess "
                                   "survived the thread's end");
    }
    return true;
}

std::optional<bool> GraphEngine::text_ordered(EventId id) const {
    if (id.index >= 64) return std::nullopt;
    // by the reasons the model orders for: the built-in LKMM every one, a cat model those its
    // probes show (CatModel::orders()); a read the text does not show ordered by them guesses
    // (the model's own links judge it when its thread ends)
    const std::uint32_t line = g_.at(id).ev.where.line;
    for (const auto& o : variant_.ordered_reads)
        if (o.thread == id.thread && o.line == line) return o.ordered(model_.orders());
    return std::nullopt;
}

/// How the value `start` reads comes back to it, if it does, through rf and data dependencies:
/// the write it reads from has a data dependency on a read of its thread, which reads from a
/// write with a data dependency... on `start`. No write on such a cycle has a value of its own.
/// herd7 solves the candidate's values as equations: where a write on the cycle computes its
/// value (an operator, two reads) it cannot, and builds no execution (LB+plain-arith,
/// C-JO-OOTA-4); where every write copies, it gives the cycle a symbolic value (C-OOTA,
/// C-AS-OOTA-1). Only plain accesses can be on one (from a marked read to a marked write a data
/// dependency is in hb, and an rfe too).
enum class ValueCycle : std::uint8_t { None, Copies, Computed };
static ValueCycle value_cycle(const ExecutionGraph& g, EventId start) {
    // depth-first over (read, whether a computing write was passed on the way)
    std::vector<std::pair<EventId, bool>> stack{{start, false}};
    std::set<std::pair<EventId, bool>> seen;
    ValueCycle found = ValueCycle::None;
    while (!stack.empty()) {
        const auto [id, computed] = stack.back();
        stack.pop_back();
        const Event& r = g.event(id);
        if (!r.reads_from || r.reads_from->thread == EventId::init_thread || !g.contains(*r.reads_from)) continue;
        const Event& w = g.event(*r.reads_from);
        const bool through = computed || !w.data_copy;
        for (std::uint64_t deps = w.data_deps; deps != 0; deps &= deps - 1) {
            const EventId d{w.id.thread, static_cast<std::uint32_t>(std::countr_zero(deps))};
            if (d == start) {
                if (through) return ValueCycle::Computed;
                found = ValueCycle::Copies;
            } else if (g.contains(d) && g.event(d).is_read() && seen.insert({d, through}).second) {
                stack.push_back({d, through});
            }
        }
    }
    return found;
}

bool GraphEngine::for_each_matching(ExecutionGraph& base, const std::function<bool(const ExecutionGraph&)>& each) {
    to_execution_graph(g_, base, true);
    // the guessed reads, and for each the writes of its location and value
    std::vector<EventId> reads;
    std::vector<std::vector<EventId>> candidates;
    for (std::size_t t = 1; t < g_.threads.size(); ++t)
        for (const Node& n : g_.threads[t]) {
            if (!n.guessed) continue;
            reads.push_back(n.ev.id);
            candidates.emplace_back();
            for (std::size_t u = 1; u < base.thread_count(); ++u)
                for (const Event& w : base.thread(u))
                    if (w.is_write() && !w.at_quiescence && w.location == n.ev.location &&
                        w.written_value == n.ev.read_value && w.id != n.ev.id)
                        candidates.back().push_back(w.id);
        }
    if (reads.empty()) return each(base);
    for (const auto& c : candidates)
        if (c.empty()) return true;  // a guess no write supplies: no execution
    // every matching, one after another, set in `base` in place (and put back)
    std::vector<std::optional<EventId>> placeholder;
    for (const EventId r : reads) placeholder.push_back(base.event(r).reads_from);
    struct PutBack {
        ExecutionGraph& g;
        const std::vector<EventId>& reads;
        const std::vector<std::optional<EventId>>& was;
        ~PutBack() {
            for (std::size_t k = 0; k < reads.size(); ++k) g.set_reads_from(reads[k], was[k]);
        }
    } put_back{base, reads, placeholder};
    std::vector<std::size_t> pick(reads.size(), 0);
    for (;;) {
        for (std::size_t k = 0; k < reads.size(); ++k) base.set_reads_from(reads[k], candidates[k][pick[k]]);
        const ExecutionGraph& g = base;
        // A matching without a po | rf cycle is built by the exploration without guesses
        // (revisits) already, and goes to the sink from there.
        if (porf_cyclic(g) && model_.consistent(g) && model_.consistent_when_complete(g)) {
            ValueCycle cycle = ValueCycle::None;
            for (const EventId r : reads) cycle = std::max(cycle, value_cycle(g, r));
            if (cycle == ValueCycle::Computed) {
                thin_air_.insert(canonical_hash(g));
            } else {
                if (cycle == ValueCycle::Copies) thin_air_copies_.insert(canonical_hash(g));
                if (!each(g)) return false;
            }
        }
        // next combination
        std::size_t k = 0;
        while (k < pick.size() && ++pick[k] == candidates[k].size()) pick[k++] = 0;
        if (k == pick.size()) return true;
    }
}

void GraphEngine::complete(const FinalState& fs) {
    // with guessed reads, every matching handed on has a po | rf cycle (for_each_matching())
    FinalState state = fs;
    state.load_buffering = has_guesses(g_);
    for_each_matching(out_, [&](const ExecutionGraph& g) {
        if (delivered_.insert(canonical_hash(g)).second) {
            ++executions_;
            sink_(g, state);
        }
        return true;
    });
}

void Learner::learn(const ExecutionGraph& g) {
    if (now.writes.size() < g.location_count()) now.writes.resize(g.location_count());
    locations = std::max(locations, g.location_count());
    const std::size_t n = g.thread_count();
    pre.resize(n);
    for (std::size_t t = 0; t < n; ++t) pre[t].assign(g.thread(t).size(), std::vector<std::uint32_t>(n, 0));
    for (bool changed = true; changed;) {  // a fixpoint: rf may point forward in this order
        changed = false;
        for (std::size_t t = 1; t < n; ++t)
            for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
                const Event& e = g.thread(t)[i];
                std::vector<std::uint32_t>& m = pre[t][i];
                const auto join = [&](const std::vector<std::uint32_t>& o) {
                    for (std::size_t u = 0; u < n; ++u)
                        if (o[u] > m[u]) {
                            m[u] = o[u];
                            changed = true;
                        }
                };
                if (i > 0) join(pre[t][i - 1]);
                if (m[t] < i + 1) {
                    m[t] = static_cast<std::uint32_t>(i + 1);
                    changed = true;
                }
                if (e.is_read() && e.reads_from && e.reads_from->thread != 0)
                    join(pre[e.reads_from->thread][e.reads_from->index]);
            }
    }
    const std::vector<bool> only_plain = only_plain_of(g, variant.plain_only_locations);
    if (location_names.size() < g.location_count())
        for (std::size_t l = location_names.size(); l < g.location_count(); ++l)
            location_names.push_back(g.location_name(static_cast<LocationId>(l)));
    for (std::size_t t = 1; t < n; ++t)
        for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
            const Event& r = g.thread(t)[i];
            if (!r.is_read() || !r.location || r.at_quiescence) continue;
            auto& per_location = now.free_read[t];
            if (per_location.size() <= *r.location) per_location.resize(*r.location + 1u, 0);
            per_location[*r.location] |= free_writes_after(g.thread(t), i, only_plain, orders);
        }
    for (std::size_t t = 1; t < n; ++t)
        for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
            const Event& e = g.thread(t)[i];
            const auto learn_value = [&](Value v) {
                auto& prefix = now.writes[*e.location][{static_cast<std::uint16_t>(t), v}];
                prefix.resize(threads, 0);
                for (std::size_t u = 1; u < n; ++u) prefix[u] = std::max(prefix[u], pre[t][i][u]);
            };
            // a failed compare-exchange: the write it would have made had it read the expected
            // value (VariantDef::cas_writes), which only a load-buffering cycle may give it
            if (!variant.cas_writes.empty() && e.kind == EventKind::Read && e.location && !e.at_quiescence &&
                std::strstr(e.primitive, "cmpxchg") != nullptr)
                for (const auto& site : variant.cas_writes)
                    if (site.thread == t && site.line == e.where.line)
                        for (const Value v : site.values) learn_value(v);
            if (e.is_write() && e.location && !e.at_quiescence) {
                learn_value(e.written_value);
                // a store that copies no read may store the site's other constants in
                // an execution whose branches only a load-buffering cycle takes
                // (crypto-control-data); a guess no write matches builds no execution
                if (e.kind == EventKind::Write && e.data_deps == 0)
                    for (const auto& site : variant.stored_constants)
                        if (site.thread == t && site.line == e.where.line)
                            for (const Value v : site.values) learn_value(v);
                // a copy may store whatever its read's location holds
                const std::size_t j = static_cast<std::size_t>(std::countr_zero(e.data_deps));
                if (e.kind == EventKind::Write && e.data_copy && std::popcount(e.data_deps) == 1 &&
                    j < g.thread(t).size() && g.thread(t)[j].location) {
                    auto& prefix = now.copies[{static_cast<std::uint32_t>(*e.location), static_cast<std::uint32_t>(t),
                                               static_cast<std::uint32_t>(*g.thread(t)[j].location)}];
                    prefix.resize(threads, 0);
                    for (std::size_t u = 1; u < n; ++u) prefix[u] = std::max(prefix[u], pre[t][i][u]);
                }
            }
            if (e.is_read() && e.reads_from && e.reads_from->thread != 0 && e.reads_from->thread != t)
                now.links.insert({static_cast<std::uint32_t>(e.reads_from->thread),
                                  static_cast<std::uint32_t>(e.reads_from->index), static_cast<std::uint32_t>(t),
                                  static_cast<std::uint32_t>(i)});
            // A write and a marked read of another thread porf-before it, of one location:
            // a link that would close a cycle, learnt when the writing thread may leave its
            // step of the cycle unordered: the read is porf-before a read of t that the
            // write is free_of(), so among k's first reach[k] events.
            if (!e.is_write() || !e.location || e.at_quiescence) continue;
            std::vector<std::uint32_t> reach(n, 0);
            for (std::size_t j = 0; j < i; ++j)
                if (g.thread(t)[j].is_read() && free_of(g.thread(t), j, i, orders))
                    for (std::size_t k = 1; k < n; ++k) reach[k] = std::max(reach[k], pre[t][j][k]);
            for (std::size_t k = 1; k < n; ++k)
                for (std::size_t b = 0; k != t && b < reach[k]; ++b) {
                    const Event& r = g.thread(k)[b];
                    if (r.is_read() && r.location == e.location && !r.at_quiescence && (lkmm_tags_of(r) | r.lkmm) != 0)
                        now.closing.insert({static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(i),
                                            static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(b)});
                }
        }
}

/// `into` learns what `from` learnt: what either learnt, as one learner of both threads' executions.
void merge_into(Guesses& into, const Guesses& from) {
    const auto max_into = [](std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
        if (a.size() < b.size()) a.resize(b.size(), 0);
        for (std::size_t i = 0; i < b.size(); ++i) a[i] = std::max(a[i], b[i]);
    };
    if (into.writes.size() < from.writes.size()) into.writes.resize(from.writes.size());
    for (std::size_t l = 0; l < from.writes.size(); ++l)
        for (const auto& [uv, prefix] : from.writes[l]) max_into(into.writes[l][uv], prefix);
    into.links.insert(from.links.begin(), from.links.end());
    into.closing.insert(from.closing.begin(), from.closing.end());
    if (into.free_read.size() < from.free_read.size()) into.free_read.resize(from.free_read.size());
    for (std::size_t t = 0; t < from.free_read.size(); ++t) {
        auto& mine = into.free_read[t];
        if (mine.size() < from.free_read[t].size()) mine.resize(from.free_read[t].size(), 0);
        for (std::size_t l = 0; l < from.free_read[t].size(); ++l) mine[l] |= from.free_read[t][l];
    }
    for (const auto& [key, prefix] : from.copies) max_into(into.copies[key], prefix);
}

}  // namespace graph_detail

using graph_detail::GraphEngine;
using graph_detail::Guesses;
using graph_detail::model_storage_size;

ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                            const MemoryModel& model) {
    if (options.search != SearchKind::Full)
        throw std::invalid_argument("ordercheck: the graph engine runs the full search only (use --engine relacy for "
                                    "a bounded or random search)");
    if (options.shard_count == 0 || options.shard_index >= options.shard_count)
        throw std::invalid_argument("ordercheck: shard " + std::to_string(options.shard_index) + "/" +
                                    std::to_string(options.shard_count) + " does not exist");
    if (variant.instance_size > model_storage_size || variant.instance_align > alignof(std::max_align_t))
        throw std::runtime_error("ordercheck: model " + variant.id() + " is too large for the engine (" +
                                 std::to_string(variant.instance_size) + " bytes)");
    if (variant.thread_count() < 1 || variant.thread_count() > max_threads)
        throw std::runtime_error("ordercheck: model " + variant.id() + " has " + std::to_string(variant.thread_count()) +
                                 " threads; the graph engine runs 1 to " + std::to_string(max_threads));
    if (!model.kernel_events())
        return graph_detail::run_search(variant, options, model, nullptr, 1, [&](unsigned) { return sink; });

    // Shards in several processes: the rounds learn from the whole search, and one execution
    // built with guesses can be built in two shards, which those shards cannot tell apart: shard
    // 0 searches it all, the others nothing.
    if (options.shard_count > 1) {
        ExploreOptions whole = options;
        whole.shard_index = 0;
        whole.shard_count = 1;
        whole.threads = 1;
        ExploreResult result;
        if (options.shard_index == 0) {
            result = graph_explore(variant, whole, sink, model);
        } else {
            result.engine = EngineKind::Graph;
            result.model = options.model;
            result.completed = true;
            result.fraction = 1;
        }
        result.shard_index = options.shard_index;
        result.shard_count = options.shard_count;
        result.whole_tree_in_shard_zero = true;
        result.whole_tree_why = "LKMM: the load-buffering rounds learn from the whole search, and one execution built "
                                "with guesses can be built in two shards";
        return result;
    }
    // On several threads (ExploreOptions::threads): every round, and the exploration proper, is
    // shared by `ways` threads; what the threads of a round learn is merged before the next.
    const unsigned ways = options.threads > 1 && options.max_executions == 0 && model.concurrent() ? options.threads : 1;
    using graph_detail::ShardDelivery;

    // Load buffering: a read may guess any value some write of its location writes in some
    // execution. Those values are found by exploring (always with the graphs captured): first
    // without guesses, then with the values found so far, until no new value appears. Then the
    // exploration proper, with that set. A value that only justifies itself (out of thin air) is
    // never guessed: with its dependencies stated exactly LKMM forbids it (the dependency orders
    // the read before the write), and for a model that states none, the model's own control flow
    // on the values it reads is such a dependency in the code it stands for.
    // The first round, without guesses, finds every execution without a po | rf cycle: they go
    // to the sink as it finds them. A later round, and the exploration proper, finds those
    // again (with guesses, a matching without a cycle is dropped: for_each_matching()), and
    // hands on only the executions with a cycle. A round that turns out to be the exploration
    // proper (the values settled) is not run again: its executions with a cycle, kept while
    // their events number at most options.guess_round_kept_events (some 70 bytes each: 1M
    // events, the default, about 70 MB), go to the sink. The rounds' time counts in the result
    // and in the timeout. (When the first round's executions were kept instead of handed on,
    // a test with more of them than that ran its search twice: paulmckrcu/litmus
    // auto/C-RR-G+RR-G+RR-G+RR-G+RR-G+RR-G+RR-G+RR-G, 65,535 executions, 8.7 s, against 6.1 s.)
    ExploreOptions dry_options = options;
    dry_options.capture = true;
    double dry_seconds = 0;
    auto remaining = [&](ExploreOptions o) {  // what is left of the timeout
        if (options.timeout_seconds > 0) o.timeout_seconds = std::max(options.timeout_seconds - dry_seconds, 1e-9);
        return o;
    };
    // what the sink gets: the graph, unless the caller asked for none
    const ExecutionSink handed = [&](const ExecutionGraph& g, const FinalState& fs) {
        if (options.capture)
            sink(g, fs);
        else
            sink(ExecutionGraph{}, fs);
    };
    const std::size_t threads = variant.thread_count() + 1;
    Guesses found;
    found.free_read.assign(threads, {});
    bool settled = false;
    std::uint64_t acyclic = 0;  // executions handed on by the first round
    // The first round's executions with a cycle (built by cycle revisits, ExploreOptions::
    // cycle_revisits), by canonical hash: a later round's guesses may build them again.
    std::vector<std::vector<std::uint64_t>> first_cyclic(ways);
    std::unordered_set<std::uint64_t> built_first;
    const auto first_built = [&](const ExecutionGraph& g) { return !built_first.empty() && built_first.count(canonical_hash(g)) != 0; };
    // With cycle revisits, where the text shows that no read guesses, the first round is the
    // whole search, and what it would learn is never asked. A read ordered under no reason is
    // ordered under every one (OrderedRead::ordered()), so the model's reasons, which a cat
    // model works out when first asked, are asked only when that does not settle it.
    const bool text_settles = options.cycle_revisits && !options.guess_ordered_reads &&
                              (variant.text_guesses_nothing(0) || variant.text_guesses_nothing(model.orders()));
    std::vector<SearchRound> rounds;
    for (int round = 0; round < 4 && !settled; ++round) {
        std::vector<graph_detail::Learner> learners(
            ways, graph_detail::Learner{variant, threads, found, 0, {}, text_settles ? std::uint8_t{0} : model.orders(), {}});
        // the first round hands its executions on; a later one keeps those with a cycle
        ShardDelivery delivery(handed, ways, options.guess_round_kept_events,
                               round == 0 ? ShardDelivery::Overflow::HandOn : ShardDelivery::Overflow::Drop,
                               options.prepare);
        ExploreResult dry = graph_detail::run_search(
            variant, remaining(dry_options), model, round == 0 ? nullptr : &found, ways, [&](unsigned i) -> ExecutionSink {
                return [&, i](const ExecutionGraph& g, const FinalState& fs) {
                    if (!text_settles) learners[i].learn(g);
                    if (round == 0 && fs.load_buffering) first_cyclic[i].push_back(canonical_hash(g));
                    if (round == 0 && ways == 1)
                        handed(g, fs);
                    else if (round == 0 || (fs.load_buffering && !first_built(g)))
                        delivery.keep(i, g, fs);
                };
            }, &delivery);
        dry_seconds += dry.seconds;
        rounds.push_back(SearchRound{dry.seconds, dry.executions, round > 0, false});
        dry.rounds = rounds;
        if (round == 0) {
            acyclic = ways == 1 ? dry.executions : delivery.finish();
            for (const auto& hashes : first_cyclic) built_first.insert(hashes.begin(), hashes.end());
            first_cyclic.clear();
            // A failure, the timeout or the budget: the search proper would meet it at the same
            // place, having learnt nothing to guess yet.
            if (!dry.completed) {
                dry.executions = acyclic;
                dry.interleavings = dry.executions + (dry.failure ? 1 : 0);
                return dry;
            }
        } else if (!dry.completed) {
            break;  // the exploration proper meets the same failure or budget
        }
        Guesses now = std::move(learners[0].now);
        std::size_t locations = learners[0].locations;  // the program's locations
        std::vector<std::string> names = learners[0].location_names;
        for (unsigned i = 1; i < ways; ++i) {
            merge_into(now, learners[i].now);
            locations = std::max(locations, learners[i].locations);
            if (learners[i].location_names.size() > names.size()) names = learners[i].location_names;
        }
        // the program text's stores of values no execution wrote: a store only a load-buffering
        // cycle runs (VariantDef::text_writes), which any read of another thread may be
        // porf-before
        for (const VariantDef::TextWrite& w : variant.text_writes)
            for (std::size_t l = 0; l < names.size() && l < now.writes.size() && w.thread < threads; ++l)
                if (names[l] == w.location) {
                    auto& prefix = now.writes[l][{static_cast<std::uint16_t>(w.thread), w.value}];
                    if (prefix.empty()) prefix.assign(threads, std::numeric_limits<std::uint32_t>::max());
                }
        learners.clear();
        close_under_copies(now);
        close_under_links(now);
        // A po | rf cycle on one location is a coherence cycle (po-loc and rf are in LKMM's
        // coherence axiom): a program with one location has no load buffering, and nothing to
        // guess (atomic-counter+forall: 4 s with RMW guesses, 0.02 s).
        if (locations <= 1)
            for (auto& per_location : now.writes)
                for (auto& [uv, prefix] : per_location) std::fill(prefix.begin(), prefix.end(), 0u);
        // after the first round: settled if no thread may guess anything (it ran as it would
        // with guesses), or the text settles it; after a later one: if it learnt nothing new
        settled = round == 0 ? text_settles || !any_guessable(now) : now == found;
        found = std::move(now);
        if (settled && (round == 0 || delivery.complete())) {
            dry.executions = acyclic + (round == 0 ? 0 : delivery.finish());
            dry.interleavings = dry.executions;
            dry.seconds = dry_seconds;
            return dry;
        }
    }
    // The exploration proper: its executions with a cycle.
    ExploreOptions proper = remaining(options);
    proper.capture = true;
    ShardDelivery delivery(handed, ways, options.guess_round_kept_events, ShardDelivery::Overflow::HandOn,
                           options.prepare);
    std::uint64_t cyclic = 0;  // handed on by the exploration proper on this thread
    ExploreResult result =
        graph_detail::run_search(variant, proper, model, &found, ways, [&](unsigned i) -> ExecutionSink {
            return [&, i](const ExecutionGraph& g, const FinalState& fs) {
                if (!fs.load_buffering || first_built(g)) return;  // handed on by the first round
                if (ways == 1) {
                    ++cyclic;
                    handed(g, fs);
                } else {
                    delivery.keep(i, g, fs);
                }
            };
        }, &delivery);
    rounds.push_back(SearchRound{result.seconds, result.executions, true, true});
    result.rounds = std::move(rounds);
    result.executions = acyclic + (ways > 1 ? delivery.finish() : cyclic);
    result.interleavings = result.executions + (result.failure ? 1 : 0);
    result.seconds += dry_seconds;
    if (!settled && result.completed) {
        // the values read by guesses did not settle in 4 rounds: the search may miss executions
        result.completed = false;
        result.cut_short = true;
        result.cut_detail = "the values load-buffering guesses read did not settle in 4 rounds: executions may be "
                            "missing (docs/lkmm.md)";
    }
    return result;
}

}  // namespace oc
