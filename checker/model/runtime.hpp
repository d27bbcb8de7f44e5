// SPDX-License-Identifier: MIT
// The seam between models and an exploration engine: the Engine interface a backend implements,
// and the Runtime that primitives call (it records every event into the execution graph).
#pragma once

#include <array>
#include <compare>
#include <optional>
#include <atomic>
#include <cstdint>
#include <source_location>
#include <string>
#include <vector>

#include "checker/memory_model/lkmm_tags.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

/// Largest number of model threads (work-item workers included) a model may have. The graph
/// engine runs them all; Relacy's suite is instantiated for at most 6 (relacy_max_threads).
inline constexpr unsigned max_threads = 32;

/// A stored value together with the event that wrote it. Every write is tagged, so every read
/// knows exactly which write it read from, even when two writes store the same value.
struct Tagged {
    Value value = 0;
    std::uint64_t writer = 0;  ///< pack(EventId) of the writing event
};

constexpr std::uint64_t pack(EventId id) { return (std::uint64_t{id.thread} << 32) | id.index; }
constexpr EventId unpack(std::uint64_t bits) {
    return EventId{static_cast<std::uint16_t>(bits >> 32), static_cast<std::uint32_t>(bits & 0xffffffffu)};
}

enum class RmwOp : std::uint8_t { Exchange, Add, Sub, And, Or, Xor };

/// What a model-checking backend provides. Every call that touches shared memory may be a
/// scheduling point. Implementations: checker/relacy/ (Relacy's exhaustive scheduler).
class Engine {
public:
    virtual ~Engine() = default;
    virtual void create_atomic(LocationId loc, Tagged init) = 0;
    virtual void create_plain(LocationId loc, Tagged init) = 0;
    virtual Tagged load(LocationId loc, MemoryOrder order) = 0;
    virtual void store(LocationId loc, Tagged v, MemoryOrder order) = 0;
    /// Returns the old value; the new one is `old OP operand` (operand.writer tags the write).
    virtual Tagged rmw(LocationId loc, RmwOp op, Tagged operand, MemoryOrder order) = 0;
    /// Strong CAS on the value only. On failure `expected` receives the current value and tag.
    virtual bool cas(LocationId loc, Tagged& expected, Tagged desired, MemoryOrder success,
                     MemoryOrder failure) = 0;
    virtual void fence(MemoryOrder order) = 0;
    /// A fence-like event on a location (LKMM's SRCU events, which name their srcu_struct).
    virtual void located_fence(LocationId /*loc*/, MemoryOrder order) { fence(order); }
    /// Plain (non-atomic) accesses: the engine reports a data race when two are unordered by hb.
    virtual Tagged plain_read(LocationId loc) = 0;
    virtual void plain_write(LocationId loc, Tagged v) = 0;
    /// A spin-loop hint: lets other threads run and bounds the loop's exploration.
    virtual void yield() = 0;
    /// Ends the execution with an assertion failure. Does not return.
    [[noreturn]] virtual void fail(const char* message) = 0;
    /// Index of the running model thread.
    virtual unsigned current_thread() = 0;
    /// Brackets host-side bookkeeping (recording, folding) so that it allocates outside the
    /// engine's own checked heap.
    virtual void enter_host() = 0;
    virtual void leave_host() = 0;
    /// Called with every event the runtime records, after the engine call that made it (the
    /// graph engine keeps the event's labels and checks a replay against them). Its `lkmm`
    /// holds the extra LKMM tags only, as annotate_next() gives them.
    virtual void recorded(const Event&) {}
    /// True when a failed spin iteration (spin_yield()) blocks the thread for the execution
    /// instead of running again later (the graph engine): primitives then make each attempt an
    /// await that writes nothing when it fails.
    virtual bool blocks_failed_spins() const { return false; }
    /// True when the engine builds each execution's graph from its own record of the events
    /// (the graph engine): the runtime then records no graph of its own (Runtime::graph() keeps
    /// only the locations' names).
    virtual bool keeps_own_graph() const { return false; }
};

/// How one ordering site is weakened (barrier-necessity analysis). Within the events of the
/// site's primitive call (or of the one C++-level operation at that line):
enum class Weakening : std::uint8_t {
    Remove,          ///< fences dropped
    ToReleaseFence,  ///< fences become release fences (smp_mb -> smp_wmb)
    ToAcquireFence,  ///< fences become acquire fences (smp_mb -> smp_rmb)
    ToRelaxed,       ///< fences dropped and accesses relaxed (acquire/release -> ONCE; full RMW -> _relaxed)
};

/// An ordering site: a primitive call (or C++-level operation) at a source line.
struct Site {
    std::string primitive;  ///< "" for a C++-level operation (fence(), a load/store with an order)
    std::string file;
    std::uint32_t line = 0;
    auto operator<=>(const Site&) const = default;
};

struct Mutation {
    Site site;
    Weakening weakening = Weakening::Remove;
};

/// Where in an execution the runtime is.
enum class Phase : std::uint8_t { Init, Threads, Quiescence, Final };

class Runtime;
namespace detail {
/// The runtime installed on this thread (RuntimeInstallation), or null.
extern constinit thread_local Runtime* installed_runtime;
[[noreturn]] void no_runtime();
}  // namespace detail
/// The runtime of the execution being explored on this thread (one at a time per thread).
/// Inline: every model operation asks for it.
inline Runtime& runtime() {
    if (detail::installed_runtime == nullptr) detail::no_runtime();
    return *detail::installed_runtime;
}

/// An observable: a named final-state value (register or location) outcome sets speak about.
struct ObservableSlot {
    const char* name;
    Value (*read)(const void* self);
    const void* self;
};

/// A per-execution counter a model bumps; reported as min/max over executions.
struct MetricSlot {
    const char* name;
    const Value* value;
};

/// Pending work run at quiescence, after every thread has finished (see kernel.hpp Work).
struct QuiescenceHook {
    void (*run)(void* self);
    void* self;
};

/// Records events as primitives execute and hands them to the engine. Owned by the backend.
class Runtime {
public:
    explicit Runtime(Engine& engine);

    Engine& engine() { return engine_; }
    Phase phase() const { return phase_; }

    // ---- lifecycle (backend) ----
    /// Starts a new execution: clears events, keeps capacity and location names.
    void begin_execution(const std::vector<std::string>& thread_names);
    void set_phase(Phase p) { phase_ = p; }
    /// For an engine that runs its threads one after another (the graph engine): the model
    /// thread running now, in phase Threads, so that no event asks Engine::current_thread().
    void set_running(unsigned model_thread) {
        running_ = EventId::of_model_thread(model_thread);
        running_known_ = true;
    }
    /// With capture off, no event is recorded (no graph, no witness): for measuring its cost.
    void set_capture(bool on) { capture_ = on; }
    /// Weakens one site in every execution of this exploration.
    void set_mutation(std::optional<Mutation> m) { mutation_ = std::move(m); }
    /// The graph recorded so far in this execution (its locations' names only, where the
    /// engine keeps its own graph: Engine::keeps_own_graph()).
    const ExecutionGraph& graph() const { return graph_; }
    const std::vector<ObservableSlot>& observables() const { return observables_; }
    const std::vector<MetricSlot>& metrics() const { return metrics_; }
    /// Runs every registered quiescence hook (in registration order) in phase Quiescence.
    void run_quiescence_hooks();
    /// The message of the last require() that failed in this execution, if any.
    const std::string& failure_message() const { return failure_message_; }
    /// Describes the accesses each thread was about to make (for engine-failure reports).
    std::string pending_accesses() const;
    /// spin_yield() calls in this execution (failed spin-loop iterations).
    unsigned spin_failures() const { return spin_failures_; }
    /// The id the running thread's next event will get.
    EventId next_event_id() { return next_id(); }

    // ---- used by primitives ----
    LocationId add_location(const char* name, bool atomic, Value init, std::source_location where);
    void add_observable(ObservableSlot slot);
    void add_metric(MetricSlot slot);
    void add_quiescence_hook(QuiescenceHook hook);

    Value load(LocationId loc, MemoryOrder order, std::source_location where);
    void store(LocationId loc, Value v, MemoryOrder order, std::source_location where);
    Value rmw(LocationId loc, RmwOp op, Value operand, MemoryOrder order, std::source_location where);
    bool cas(LocationId loc, Value& expected, Value desired, MemoryOrder success, MemoryOrder failure,
             std::source_location where);
    void fence(MemoryOrder order, std::source_location where);
    /// An LKMM SRCU event (srcu-lock, srcu-unlock, sync-srcu: by the running primitive's name) on
    /// the srcu_struct `loc`, carrying `value` (the index srcu_read_lock() returns or
    /// srcu_read_unlock() is given).
    void srcu_event(LocationId loc, Value value, std::source_location where);
    Value plain_read(LocationId loc, std::source_location where);
    void plain_write(LocationId loc, Value v, std::source_location where);
    void yield();
    /// Marks the start of a spin-loop iteration in the running thread.
    void spin_iteration() {
        if (phase_ == Phase::Threads) state().iteration_start = state().next_index, spun_ = true;
    }
    /// Some thread of this execution began a spin-loop iteration (an await).
    bool spun() const { return spun_; }
    /// A run cut short by a bound of the model's own (a litmus loop at `--unroll`): the engine
    /// adds it to `counter` when the run ends, unless the run turns out to be no execution
    /// (settle_cuts()). What an engine leaves unsettled counts: begin_execution() settles it.
    void defer_cut(std::atomic<std::uint64_t>& counter) {
        cut_counter_ = &counter;
        ++pending_cuts_;
    }
    bool cut_pending() const { return pending_cuts_ != 0; }
    /// Counts the run's cuts (`count`) or drops them (the run is no execution).
    void settle_cuts(bool count) {
        if (count && cut_counter_ != nullptr && pending_cuts_ != 0)
            cut_counter_->fetch_add(pending_cuts_, std::memory_order_relaxed);
        pending_cuts_ = 0;
    }
    /// Where the running (or last) spin iteration of graph thread `t` began.
    std::uint32_t iteration_start(std::uint16_t t) const { return threads_.at(t).iteration_start; }
    [[noreturn]] void fail(const char* message, std::source_location where);
    /// Reads a location's final value without recording an event (phase Final only).
    Value final_value(LocationId loc, bool atomic);

    // ---- the kernel memory model (LKMM) ----
    /// Under LKMM (set by the graph engine), primitives record the events LKMM defines where they
    /// differ from the C++11 mapping: RCU calls are rcu-lock, rcu-unlock and sync-rcu events, not
    /// an urcu simulation; smp_mb__before_atomic()/after_atomic() are fences where they are called.
    void set_lkmm(bool on) { lkmm_ = on; }
    bool lkmm() const { return lkmm_; }
    /// Adds `tags` to the next recorded event's LKMM tags (lkmm::IfRmwSucceeds on cmpxchg's
    /// leading fence).
    void add_lkmm_tags_to_next(std::uint32_t tags) { next_lkmm_ |= tags; }
    /// Fills in what the running thread's next event will carry besides its kind, order and
    /// values: its primitive and op, its dependencies, and the extra LKMM tags (in `e.lkmm`; the
    /// rest come from lkmm_tags_of()). For an engine that judges an event before it is recorded.
    void annotate_next(Event& e);
    /// The dependencies of the running thread's next accesses (LKMM addr, data, ctrl), as masks of
    /// po indexes of its reads; every access recorded until the next call carries them.
    /// `copy`: the written value is the one read of `data`'s value, unchanged (Event::data_copy).
    void set_dependencies(std::uint64_t addr, std::uint64_t data, std::uint64_t ctrl, bool copy = false) {
        ThreadState& s = state();
        s.addr_deps = addr;
        s.data_deps = data;
        s.ctrl_deps = ctrl;
        s.data_copy = copy;
    }
    /// The running thread's current dependencies (addr, data, ctrl), as set_dependencies() set them.
    std::array<std::uint64_t, 3> dependencies() {
        const ThreadState& s = state();
        return {s.addr_deps, s.data_deps, s.ctrl_deps};
    }
    /// Replay dependencies (the graph engine's load-buffering revisits, docs/graph-engine.md): a
    /// front end that knows every branch its thread takes calls track_replay() when the thread
    /// starts and tested() with the reads each branch condition came from. An event then
    /// depends, for whether it happens and what it accesses and writes, on the reads of its
    /// addr and data dependencies, on every read some branch before it tested, and inside a
    /// primitive call on every read of the call before it. Without track_replay() (a C++
    /// model) every event depends on every earlier read of its thread.
    void track_replay() {
        ThreadState& s = state();
        s.replay_known = true;
        s.tested = 0;
    }
    void tested(std::uint64_t reads) { state().tested |= reads; }
    /// The reads that graph thread t's branches have tested so far, as a mask of po indexes (all
    /// ones without track_replay(): unknown).
    std::uint64_t tested_reads(std::uint16_t t) const {
        const ThreadState& s = threads_.at(t);
        return s.replay_known ? s.tested : ~std::uint64_t{0};
    }
    /// The replay dependencies of the running thread's next event, as a mask of po indexes of
    /// its reads (all ones: unknown, or a read at po index 64 or later).
    std::uint64_t replay_dependencies();
    /// The po index of the running thread's most recent read (an RMW's read part counts), or
    /// nullopt before its first read.
    std::optional<std::uint32_t> last_read() { return state().last_read; }
    /// Which of the running thread's events from po index `from` on are reads (an RMW counts):
    /// bit i for the one at po index i below 64, and whether one is at po index 64 or later.
    std::pair<std::uint64_t, bool> reads_since(std::uint32_t from) {
        const ThreadState& s = state();
        const std::uint64_t mask = from >= 64 ? 0 : s.reads & ~((std::uint64_t{1} << from) - 1);
        return {mask, s.last_read && *s.last_read >= std::max<std::uint32_t>(from, 64)};
    }

    /// Groups the events of one kernel-primitive call; nested calls keep the outermost name/spot.
    void begin_primitive(const char* name, std::source_location where);
    void end_primitive();

    /// Per-thread state for smp_mb__before_atomic()/smp_mb__after_atomic(), which order only
    /// together with an adjacent void RMW. Every recorded event clears both flags.
    struct Adjacency {
        bool before_armed = false;         ///< smp_mb__before_atomic() waits for the next op
        std::source_location before_where;
        bool after_void_rmw = false;       ///< the last op of this thread was a void RMW
    };
    Adjacency& adjacency() { return adjacency_.at(graph_thread()); }

private:
    std::atomic<std::uint64_t>* cut_counter_ = nullptr;
    std::uint64_t pending_cuts_ = 0;
    struct ThreadState {
        const char* primitive = "";
        SourceSpot where;
        unsigned depth = 0;
        std::uint32_t op = 0;
        std::uint32_t next_index = 0;  ///< po index of the thread's next event
        std::uint32_t iteration_start = 0;  ///< po index of the running spin iteration's first event
        // the access the thread is about to make (valid while `pending`)
        bool pending = false;
        LocationId pending_loc = 0;
        bool pending_write = false;
        SourceSpot pending_where;
        std::uint64_t addr_deps = 0, data_deps = 0, ctrl_deps = 0;  ///< see set_dependencies()
        bool data_copy = false;
        std::optional<std::uint32_t> last_read;  ///< see last_read()
        std::uint64_t reads = 0;                 ///< see reads_since()
        bool replay_known = false;     ///< see track_replay()
        std::uint64_t tested = 0;      ///< the reads branches tested so far (track_replay())
        std::uint32_t primitive_start = 0;  ///< po index of the running primitive call's first event
    };

    std::uint16_t graph_thread() {
        if (phase_ == Phase::Threads && running_known_) return running_;
        return asked_graph_thread();
    }
    std::uint16_t asked_graph_thread();
    ThreadState& state() { return threads_.at(graph_thread()); }
    Event make_event(EventKind kind, MemoryOrder order, std::source_location where);
    EventId next_id();
    void record(Event e);
    void set_pending(LocationId loc, bool write, std::source_location where);

    Engine& engine_;
    /// The mutation applying to the operation at `where` in the running thread, if any.
    const Mutation* mutation_at(std::source_location where);

    Phase phase_ = Phase::Init;
    bool spun_ = false;  ///< spun()
    bool capture_ = true;
    std::optional<Mutation> mutation_;
    ExecutionGraph graph_;
    std::uint32_t step_ = 0;
    std::size_t next_location_ = 0;
    std::vector<bool> atomic_location_;
    std::array<ThreadState, max_threads + 1> threads_{};  // [0] init, [t+1] model thread t
    std::uint16_t running_ = 0;  ///< see set_running()
    bool running_known_ = false;
    std::array<Adjacency, max_threads + 1> adjacency_{};
    std::uint16_t quiescence_thread_ = 0;
    std::vector<ObservableSlot> observables_;
    std::vector<MetricSlot> metrics_;
    std::vector<QuiescenceHook> hooks_;
    std::string failure_message_;
    unsigned spin_failures_ = 0;
    bool lkmm_ = false;
    std::uint32_t next_lkmm_ = 0;

public:
    /// The graph thread that quiescence work is attributed to (set by Work before running it).
    void set_quiescence_thread(unsigned model_thread) {
        quiescence_thread_ = EventId::of_model_thread(model_thread);
    }
    /// The model thread running, or the one quiescence work is attributed to (the same under
    /// every engine; Engine::current_thread() is the engine's own view).
    unsigned current_model_thread() {
        return phase_ == Phase::Quiescence ? quiescence_model_thread() : engine_.current_thread();
    }
    /// The model thread quiescence work is attributed to.
    unsigned quiescence_model_thread() const { return quiescence_thread_ == 0 ? 0u : quiescence_thread_ - 1u; }
};

/// Installs `rt` as the current runtime for its lifetime (backend use).
class RuntimeInstallation {
public:
    explicit RuntimeInstallation(Runtime& rt);
    ~RuntimeInstallation();
    RuntimeInstallation(const RuntimeInstallation&) = delete;
    RuntimeInstallation& operator=(const RuntimeInstallation&) = delete;
};

}  // namespace oc
