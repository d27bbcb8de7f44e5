// SPDX-License-Identifier: MIT
// The execution graph of one explored execution: events per thread (po is position), rf on each
// read, co per location. Primary facts only; derived relations live in relations.hpp.
#pragma once

#include <compare>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oc {

using Value = std::int64_t;
using LocationId = std::uint16_t;

/// C++11 memory orders, plus NonAtomic for plain (racy-checked) accesses.
enum class MemoryOrder : std::uint8_t { NonAtomic, Relaxed, Acquire, Release, AcqRel, SeqCst };

/// Short suffix used in labels: "na", "rlx", "acq", "rel", "acqrel", "sc".
std::string_view short_name(MemoryOrder order);

/// True for acquire, acq_rel and seq_cst.
constexpr bool is_acquire(MemoryOrder o) {
    return o == MemoryOrder::Acquire || o == MemoryOrder::AcqRel || o == MemoryOrder::SeqCst;
}
/// True for release, acq_rel and seq_cst.
constexpr bool is_release(MemoryOrder o) {
    return o == MemoryOrder::Release || o == MemoryOrder::AcqRel || o == MemoryOrder::SeqCst;
}

/// A position in the graph, GenMC-style: (thread, index in program order).
/// Graph thread 0 holds the initialisation writes; graph thread k >= 1 is model thread k-1.
struct EventId {
    std::uint16_t thread = 0;
    std::uint32_t index = 0;
    auto operator<=>(const EventId&) const = default;
    static constexpr std::uint16_t init_thread = 0;
    /// The graph thread of model thread t.
    static constexpr std::uint16_t of_model_thread(unsigned t) { return static_cast<std::uint16_t>(t + 1); }
};

/// The closed set of event kinds. An RMW is one event that both reads and writes.
/// A CAS that fails is a Read (it writes nothing). Lock/unlock are not separate kinds: a
/// spin_lock is the RMW/write events on its lock word, grouped by `primitive`.
enum class EventKind : std::uint8_t { Read, Write, Rmw, Fence };

std::string_view short_name(EventKind kind);  // "R", "W", "U", "F"

/// Where an event came from in the model source.
struct SourceSpot {
    const char* file = "";
    std::uint32_t line = 0;
    auto operator<=>(const SourceSpot&) const = default;
};

struct Event {
    EventId id;
    EventKind kind = EventKind::Write;
    MemoryOrder order = MemoryOrder::Relaxed;
    std::optional<LocationId> location;      ///< unset for fences
    Value read_value = 0;                    ///< value read (Read, Rmw)
    Value written_value = 0;                 ///< value written (Write, Rmw)
    std::optional<EventId> reads_from;       ///< set iff kind is Read or Rmw
    std::uint32_t step = 0;                  ///< position in the interleaving the engine ran (init: 0)
    SourceSpot where;
    /// The kernel primitive this event belongs to ("set_bit", "spin_lock", "READ_ONCE") and the
    /// number of that primitive call within its thread; events of one call share `op`.
    const char* primitive = "";
    std::uint32_t op = 0;
    /// True for events run at quiescence (pending work drained after every thread finished).
    bool at_quiescence = false;
    /// Set when a mutation (barrier necessity) weakened this event: the order the program as
    /// written gives it. A removed fence stays in the graph as a relaxed fence (which orders
    /// nothing), so that the explaining cycle can put the barrier back.
    std::optional<MemoryOrder> weakened_from;
    /// The memory model's annotations beyond the C++11 order: LKMM's tags as linux-kernel.bell
    /// and lock.cat name them (bits of lkmm::Tag, checker/memory_model/lkmm_tags.hpp, which also
    /// maps each kernel primitive to its tags); 0 for an unannotated plain access. The LKMM
    /// predicate reads only these; RC11 and Relacy read only the C++11 order. The graph's
    /// tag_names() spells them.
    std::uint32_t lkmm = 0;
    /// Dependencies (LKMM's addr, data, ctrl): bit i set when this event depends on the read at
    /// po index i of its own thread. Only the litmus front end computes them; a C++ model states
    /// none (docs/lkmm.md).
    std::uint64_t addr_deps = 0, data_deps = 0, ctrl_deps = 0;
    /// The value written is the value of the one read of data_deps, unchanged (a copy, with no
    /// operator on the way): herd7 gives a cycle of copies a symbolic value (docs/lkmm.md).
    bool data_copy = false;
    /// An RMW whose write part's value is computed from the value its read part read (an atomic
    /// add, sub, and, or, xor, inc, dec, in every ordering and with or without a return value):
    /// herd7 gives it a data dependency from its read to its write inside the RMW (LKMM's `data`
    /// and so `rwdep` and `dep ; rfi`). An exchange or a compare-exchange writes a value that does
    /// not depend on what it read and has none (docs/lkmm.md).
    bool rmw_data = false;

    bool is_read() const { return kind == EventKind::Read || kind == EventKind::Rmw; }
    bool is_write() const { return kind == EventKind::Write || kind == EventKind::Rmw; }
    bool is_fence() const { return kind == EventKind::Fence; }
    friend bool operator==(const Event&, const Event&) = default;
};

/// One execution. A value type: built once by the recorder, then read through the const API.
class ExecutionGraph {
public:
    ExecutionGraph() = default;

    // ---- building (used by the recorder and by tests that hand-build graphs) ----
    /// Declares a location; returns its id. Names appear in traces and figures.
    LocationId add_location(std::string name);
    /// Declares the model threads (graph threads 1..n); graph thread 0 is "init".
    void set_thread_names(std::vector<std::string> names);
    /// Appends `e` to the po of e.id.thread; sets e.id.index. Writes are appended to co of
    /// their location (the engine's modification order is execution order). Returns the id.
    EventId append(const Event& e) { return append_in_place(e).id; }
    /// The same, returning the event as stored, for its caller to adjust in place (the graph
    /// engine's hot path: one copy of each event per consistency query, not three).
    Event& append_in_place(const Event& e);
    /// Overrides the coherence order of one location (hand-built graphs, tests).
    void set_co(LocationId loc, std::vector<EventId> order);
    /// The same, copying into the order's existing storage (the graph engine's hot path).
    void assign_co(LocationId loc, const std::vector<EventId>& order);
    /// Sets the write read `read` takes its value from (the graph engine's matching of guessed
    /// reads, edited in place and put back).
    void set_reads_from(EventId read, std::optional<EventId> write) { threads_.at(read.thread).at(read.index).reads_from = write; }
    /// Sets an event's step (the graph engine numbers a converted graph's steps afterwards).
    void set_step(EventId id, std::uint32_t step) { threads_.at(id.thread).at(id.index).step = step; }
    /// Drops every event; keeps locations' and threads' names and capacity.
    void clear_events();
    /// How Event::lkmm is spelled ("once+noreturn"): the memory model that defines the bits sets
    /// it (the model runtime sets lkmm::names). Copies of the graph keep it.
    using TagNamer = std::string (*)(std::uint32_t tags);
    void set_tag_namer(TagNamer namer) { tag_namer_ = namer; }
    TagNamer tag_namer() const { return tag_namer_; }

    // ---- queries ----
    std::size_t thread_count() const { return threads_.size(); }      ///< including init
    const std::vector<Event>& thread(std::size_t t) const { return threads_.at(t); }
    const Event& event(EventId id) const { return threads_.at(id.thread).at(id.index); }
    bool contains(EventId id) const {
        return id.thread < threads_.size() && id.index < threads_[id.thread].size();
    }
    std::size_t location_count() const { return location_names_.size(); }
    const std::string& location_name(LocationId loc) const { return location_names_.at(loc); }
    /// "init" for graph thread 0, else the model's thread name.
    const std::string& thread_name(std::size_t t) const { return thread_names_.at(t); }
    /// The coherence (modification) order of a location, init write first.
    const std::vector<EventId>& co(LocationId loc) const { return co_.at(loc); }
    /// All events, sorted by EventId.
    std::vector<EventId> events() const;
    /// The write a read took its value from (rf^-1).
    std::optional<EventId> rf_pred(EventId read) const { return event(read).reads_from; }
    /// Total number of events, init included.
    std::size_t size() const;
    /// Events in the order the engine executed them (by step; init first).
    std::vector<EventId> in_execution_order() const;
    /// The names of the tag bits `tags` as the graph's tag namer spells them; "" for none, and
    /// "tags:0x..." in a graph that was given no namer.
    std::string tag_names(std::uint32_t tags) const;

    friend bool operator==(const ExecutionGraph&, const ExecutionGraph&) = default;

private:
    std::vector<std::string> location_names_;
    std::vector<std::string> thread_names_{"init"};
    std::vector<std::vector<Event>> threads_{1};
    std::vector<std::vector<EventId>> co_;
    TagNamer tag_namer_ = nullptr;
};

/// A copy of `g` in which `edit` has changed every event (its id excepted), the coherence order
/// kept: the same execution with other orders, tags or rf sources.
ExecutionGraph with_events_edited(const ExecutionGraph& g, const std::function<void(Event&)>& edit);

/// A hash of what makes an execution: every event's position, kind, order, location, values and
/// rf source, and each location's coherence order. Interleavings that differ only in the order
/// of independent steps hash the same (the step numbers are left out).
std::uint64_t canonical_hash(const ExecutionGraph& g);

/// "init.0", "P0.3": thread name, dot, index.
std::string to_string(const ExecutionGraph& g, EventId id);

/// The words a label names an event's ordering with, by the memory model a report was judged
/// under: the C++11 memory order (RC11, and Relacy's C++11 search) or the LKMM tags as
/// linux-kernel.bell spells them. The exporters are told which; they never guess.
enum class Vocabulary : std::uint8_t { Cpp11, Lkmm };

/// One-line label of an event. Cpp11: `W.rel flag=1` / `R.acq flag=1` / `U.sc x 0->1` / `F.sc`.
/// Lkmm: `W[release] flag=1` / `R[once] flag=1` / `U[once+noreturn] map 0->1` / `F[mb]`, a plain
/// access `W x=1`. A weakened event says what the program as written has: `F.rlx(removed: sc)`,
/// `F (removed: smp_mb)`, `R[once] flag=1 (weakened from smp_load_acquire)`.
std::string event_label(const ExecutionGraph& g, const Event& e, Vocabulary vocabulary);

/// The kernel primitive (or, with none, the LKMM tag) the program as written has at a weakened
/// event: "smp_mb", "smp_load_acquire", "mb", "acquire". For an event that is not weakened, its
/// primitive, or its tags' names.
std::string lkmm_written_name(const ExecutionGraph& g, const Event& e);

/// A fence that a weakening removed: kept in the graph (relaxed, weakened_from set) so that the
/// explaining cycle can put it back, but the program run does not have it.
constexpr bool is_removed_fence(const Event& e) {
    return e.kind == EventKind::Fence && e.weakened_from && e.order == MemoryOrder::Relaxed;
}

}  // namespace oc
