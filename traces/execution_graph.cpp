// SPDX-License-Identifier: MIT
#include "traces/execution_graph.hpp"

#include <cstdio>

#include <algorithm>
#include <utility>
#include <stdexcept>

namespace oc {

std::string_view short_name(MemoryOrder order) {
    switch (order) {
    case MemoryOrder::NonAtomic: return "na";
    case MemoryOrder::Relaxed: return "rlx";
    case MemoryOrder::Acquire: return "acq";
    case MemoryOrder::Release: return "rel";
    case MemoryOrder::AcqRel: return "acqrel";
    case MemoryOrder::SeqCst: return "sc";
    }
    return "?";
}

std::string_view short_name(EventKind kind) {
    switch (kind) {
    case EventKind::Read: return "R";
    case EventKind::Write: return "W";
    case EventKind::Rmw: return "U";
    case EventKind::Fence: return "F";
    }
    return "?";
}

LocationId ExecutionGraph::add_location(std::string name) {
    location_names_.push_back(std::move(name));
    co_.emplace_back();
    return static_cast<LocationId>(location_names_.size() - 1);
}

void ExecutionGraph::set_thread_names(std::vector<std::string> names) {
    thread_names_.assign(1, "init");
    for (auto& n : names) thread_names_.push_back(std::move(n));
    threads_.resize(thread_names_.size());
}

Event& ExecutionGraph::append_in_place(const Event& e) {
    if (e.id.thread >= threads_.size()) throw std::out_of_range("ExecutionGraph::append: no such thread");
    auto& t = threads_[e.id.thread];
    const EventId id{e.id.thread, static_cast<std::uint32_t>(t.size())};
    if (e.is_write()) {
        if (!e.location || *e.location >= co_.size())
            throw std::out_of_range("ExecutionGraph::append: write without a declared location");
        co_[*e.location].push_back(id);
    }
    Event& stored = t.emplace_back(e);
    stored.id = id;
    return stored;
}

void ExecutionGraph::set_co(LocationId loc, std::vector<EventId> order) { co_.at(loc) = std::move(order); }

void ExecutionGraph::assign_co(LocationId loc, const std::vector<EventId>& order) {
    co_.at(loc).assign(order.begin(), order.end());
}

void ExecutionGraph::clear_events() {
    for (auto& t : threads_) t.clear();
    for (auto& c : co_) c.clear();
}

std::vector<EventId> ExecutionGraph::events() const {
    std::vector<EventId> out;
    out.reserve(size());
    for (const auto& t : threads_)
        for (const auto& e : t) out.push_back(e.id);
    return out;
}

std::size_t ExecutionGraph::size() const {
    std::size_t n = 0;
    for (const auto& t : threads_) n += t.size();
    return n;
}

std::vector<EventId> ExecutionGraph::in_execution_order() const {
    std::vector<EventId> out = events();
    std::stable_sort(out.begin(), out.end(), [this](EventId a, EventId b) {
        const Event& ea = event(a);
        const Event& eb = event(b);
        if (ea.step != eb.step) return ea.step < eb.step;
        return a < b;
    });
    return out;
}

namespace {
/// A hash of a sequence of 64-bit words, a word at a time: the state xor the word, through
/// splitmix64's finaliser. Each step is a bijection of the state for a given word, so two
/// sequences of one length that differ in a single word never hash the same; for other pairs
/// the finaliser's mixing makes a collision as unlikely as under any good 64-bit hash. (FNV-1a
/// a byte at a time took eight multiplications per word, a twentieth of a 16-process RCU
/// chain's search.)
class WordHash {
public:
    void add(std::uint64_t v) {
        std::uint64_t z = h_ ^ v;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        h_ = z ^ (z >> 31);
    }
    std::uint64_t value() const { return h_; }

private:
    std::uint64_t h_ = 0xcbf29ce484222325ull;
};
std::uint64_t word(EventId id) { return (std::uint64_t{id.thread} << 32) | id.index; }
}  // namespace

std::uint64_t canonical_hash(const ExecutionGraph& g) {
    WordHash h;
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        h.add(0xfeedull ^ t);
        for (const Event& e : g.thread(t)) {
            h.add(static_cast<std::uint64_t>(e.kind) | static_cast<std::uint64_t>(e.order) << 8 |
                  static_cast<std::uint64_t>(e.location ? *e.location + 1 : 0) << 16);
            h.add(static_cast<std::uint64_t>(e.read_value));
            h.add(static_cast<std::uint64_t>(e.written_value));
            h.add(e.reads_from ? word(*e.reads_from) : ~0ull);
        }
    }
    for (std::size_t loc = 0; loc < g.location_count(); ++loc) {
        h.add(0xc0ull ^ loc);
        for (EventId w : g.co(static_cast<LocationId>(loc))) h.add(word(w));
    }
    return h.value();
}

ExecutionGraph with_events_edited(const ExecutionGraph& g, const std::function<void(Event&)>& edit) {
    ExecutionGraph out;
    for (std::size_t l = 0; l < g.location_count(); ++l) out.add_location(g.location_name(static_cast<LocationId>(l)));
    std::vector<std::string> names;
    for (std::size_t t = 1; t < g.thread_count(); ++t) names.push_back(g.thread_name(t));
    out.set_thread_names(std::move(names));
    out.set_tag_namer(g.tag_namer());
    for (std::size_t t = 0; t < g.thread_count(); ++t)
        for (Event e : g.thread(t)) {
            edit(e);
            out.append(e);
        }
    for (std::size_t l = 0; l < g.location_count(); ++l)
        out.set_co(static_cast<LocationId>(l), g.co(static_cast<LocationId>(l)));
    return out;
}

std::string ExecutionGraph::tag_names(std::uint32_t tags) const {
    if (tags == 0) return "";
    if (tag_namer_ != nullptr) return tag_namer_(tags);
    char hex[2 + 8 + 1];
    std::snprintf(hex, sizeof hex, "%x", tags);
    return std::string("tags:0x") + hex;
}

std::string to_string(const ExecutionGraph& g, EventId id) {
    return g.thread_name(id.thread) + "." + std::to_string(id.index);
}

namespace {

/// The LKMM tag a C++11 order stands for (a C++-level event under LKMM, or the order the
/// program as written gives a weakened event that names no primitive).
std::string_view lkmm_word(const Event& e, MemoryOrder o) {
    if (e.is_fence()) {
        switch (o) {
        case MemoryOrder::Acquire: return "rmb";
        case MemoryOrder::Release: return "wmb";
        case MemoryOrder::AcqRel:
        case MemoryOrder::SeqCst: return "mb";
        case MemoryOrder::NonAtomic:
        case MemoryOrder::Relaxed: return "no fence";
        }
    }
    switch (o) {
    case MemoryOrder::NonAtomic: return "plain";
    case MemoryOrder::Relaxed: return "once";
    case MemoryOrder::Acquire: return "acquire";
    case MemoryOrder::Release: return "release";
    case MemoryOrder::AcqRel:
    case MemoryOrder::SeqCst: return "mb";
    }
    return "?";
}

}  // namespace

std::string lkmm_written_name(const ExecutionGraph& g, const Event& e) {
    if (e.primitive && *e.primitive) return e.primitive;
    return e.weakened_from ? std::string(lkmm_word(e, *e.weakened_from)) : g.tag_names(e.lkmm);
}

std::string event_label(const ExecutionGraph& g, const Event& e, Vocabulary vocabulary) {
    std::string s(short_name(e.kind));
    if (vocabulary == Vocabulary::Cpp11) {
        s += '.';
        s += short_name(e.order);
        if (e.weakened_from) {
            s += is_removed_fence(e) ? "(removed: " : "(weakened from ";
            s += short_name(*e.weakened_from);
            s += ')';
        }
    } else if (e.lkmm != 0) {
        s += '[' + g.tag_names(e.lkmm) + ']';
    }
    // Under LKMM the weakening follows the location and values (`R[once] x=1 (weakened from ...)`).
    std::string weakened;
    if (vocabulary == Vocabulary::Lkmm && e.weakened_from)
        weakened = (is_removed_fence(e) ? " (removed: " : " (weakened from ") + lkmm_written_name(g, e) + ")";
    if (!e.location) return s + weakened;
    s += ' ';
    s += g.location_name(*e.location);
    switch (e.kind) {
    case EventKind::Read: s += '=' + std::to_string(e.read_value); break;
    case EventKind::Write: s += '=' + std::to_string(e.written_value); break;
    case EventKind::Rmw:
        s += ' ' + std::to_string(e.read_value) + "->" + std::to_string(e.written_value);
        break;
    case EventKind::Fence: break;
    }
    return s + weakened;
}

}  // namespace oc
