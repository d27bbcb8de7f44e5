// SPDX-License-Identifier: MIT
// The execution-graph engine's class, shared by the files that implement it: graph_engine.cpp
// (the exploration: the stack of graphs and one run of the model against a graph),
// event_choices.cpp (the runtime adapter: each model operation adds its event and branches over
// its rf and co choices), graph_state.cpp (rf updates, and the memory model's view of a graph),
// revisits.cpp (backward and in-place revisits, with the maximality checks that keep each graph
// once) and guess_rounds.cpp (load buffering under LKMM: guessed reads, and the rounds that learn
// what a read may guess). Internal to checker/graph/.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <array>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/graph/graph_engine.hpp"
#include "checker/graph/graph_state.hpp"
#include "checker/graph/in_process_shards.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/model/runtime.hpp"

namespace oc::graph_detail {

// ---- control flow out of model code ---------------------------------------------------------

struct Blocked {};     ///< the running thread failed a spin iteration: it waits in this graph
struct DeadBranch {};  ///< no consistent continuation: the graph being extended is abandoned
struct ModelFailed {}; ///< require() failed
/// The search is to stop inside a run: a budget, the timeout or a signal (budget_exhausted()),
/// or a run that does not end (ExploreOptions::max_thread_events; `detail` says where).
struct SearchStopped {
    std::string detail;
};

// ---- the engine -----------------------------------------------------------------------------

constexpr std::size_t model_storage_size = 64 * 1024;

/// What a read may guess under load buffering (learnt by exploring, see graph_explore()): the
/// values each thread writes to each location, and how far into each thread porf reaches back
/// from such a write. A guess is needed only for a value that a write porf-after the read
/// supplies: otherwise the exploration without guesses (revisits) builds the execution already.
/// So the read at po index i of thread t guesses the value v of thread u's writes of a location
/// only if, in some execution found so far, t's event i (or a po-later one) was porf-before
/// such a write, or reaches one through rf links seen in executions found so far (`links`).
/// Writes at quiescence are never guessed: a read of the threads never reads them (quiescence
/// comes after every thread), with or without load buffering.
struct Guesses {
    /// per location: (graph thread u, value v) -> per graph thread t, how many of t's first events
    /// (a po prefix) are porf-before a write of v by u (0: none; for t = u, the write's own prefix)
    std::vector<std::map<std::pair<std::uint16_t, Value>, std::vector<std::uint32_t>>> writes;
    /// rf links seen: (writing thread, its po index, reading thread, its po index), threads differ
    std::set<std::array<std::uint32_t, 4>> links;
    /// links that would close a cycle, as `links`: a write and a marked read porf-before it in
    /// some execution (guess_rounds.cpp, close_under_links())
    std::set<std::array<std::uint32_t, 4>> closing;
    /// [t][location]: whether some read of t of that location has a po-later write of t that
    /// does not depend on it (bit free_after_relaxed), and one that an acquire read would not
    /// order either (bit free_after_acquire: a plain write). Only such a read can be the one of a
    /// load-buffering cycle that must guess; the RMW reads guess only then (push_rmw_guesses()).
    std::vector<std::vector<std::uint8_t>> free_read;
    /// writes that copy a read's value unchanged: (written location, graph thread, location
    /// read) -> the write's porf prefix, as in `writes`. Such a write may store any value its
    /// read's location may hold (close_under_copies(), guess_rounds.cpp).
    std::map<std::array<std::uint32_t, 3>, std::vector<std::uint32_t>> copies;
    static constexpr std::uint8_t free_after_relaxed = 1, free_after_acquire = 2;
    bool operator==(const Guesses&) const = default;
};

/// What one shard of a load-buffering round learns from the executions it finds (graph_explore()).
struct Learner {
    const VariantDef& variant;
    std::size_t threads;  ///< graph threads: the model's and the initial one
    Guesses now;
    std::size_t locations = 0;  ///< the program's locations
    /// per event: per graph thread, how many of its first events are porf-before the event (the
    /// event's own thread: its po index + 1)
    std::vector<std::vector<std::vector<std::uint32_t>>> pre;
    /// The reasons for which the memory model orders a marked read before a later marked write
    /// of its thread (MemoryModel::orders(): the built-in LKMM every one, a cat model those its
    /// probes show): only those take a write out of what a read may leave unordered.
    std::uint8_t orders = ordering::all;
    std::vector<std::string> location_names;  ///< of the graphs learnt from, by location id
    void learn(const ExecutionGraph& g);
};

/// Whether g's po | rf has a cycle.
bool porf_cyclic(const ExecutionGraph& g);

/// `into` learns what `from` learnt: `into` is then what one learner of both shards' executions
/// learns (before close_under_copies() and close_under_links()).
void merge_into(Guesses& into, const Guesses& from);

class GraphEngine final : public Engine {
public:
    /// `guesses`: per location, the values a read may guess (load buffering); nullptr: none.
    GraphEngine(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                const MemoryModel& model, const Guesses* guesses = nullptr)
        : variant_(variant), options_(options), sink_(sink), model_(model), kernel_events_(model.kernel_events()),
          guesses_(guesses), cycle_revisits_(kernel_events_ && options.cycle_revisits) {}

    void attach(Runtime& rt) { rt_ = &rt; }
    /// Runs unit `key` of a search shared by several threads (in_process_shards.hpp): the
    /// search starts from `start`, gives graphs away to `pool` when a thread waits for work,
    /// and stops when a unit before it failed.
    void share(WorkPool& pool, const UnitKey& key, Graph start) {
        pool_ = &pool;
        unit_ = key;
        start_graph_ = std::move(start);
    }
    ExploreResult run();
    /// After run(): the canonical hashes of the executions left out as out of thin air, and of
    /// those kept with a cycle of copies (ExploreResult::thin_air, thin_air_copies).
    const std::unordered_set<std::uint64_t>& thin_air_hashes() const { return thin_air_; }
    const std::unordered_set<std::uint64_t>& thin_air_copy_hashes() const { return thin_air_copies_; }

    // ---- Engine ----
    void create_atomic(LocationId loc, Tagged init) override { init_write(loc, init, MemoryOrder::Relaxed); }
    void create_plain(LocationId loc, Tagged init) override {
        has_plain_ = true;
        init_write(loc, init, MemoryOrder::NonAtomic);
    }
    Tagged load(LocationId loc, MemoryOrder order) override { return read(loc, order); }
    void store(LocationId loc, Tagged v, MemoryOrder order) override { write(loc, v.value, order); }
    Tagged rmw(LocationId loc, RmwOp op, Tagged operand, MemoryOrder order) override {
        RmwSpec spec;
        spec.present = true;
        spec.op = op;
        spec.operand = operand.value;
        spec.success = spec.failure = order;
        return update(loc, spec).first;
    }
    bool cas(LocationId loc, Tagged& expected, Tagged desired, MemoryOrder success, MemoryOrder failure) override {
        RmwSpec spec;
        spec.present = true;
        spec.cas = true;
        spec.expected = expected.value;
        spec.desired = desired.value;
        spec.success = success;
        spec.failure = failure;
        const auto [old, ok] = update(loc, spec);
        expected = old;
        return ok;
    }
    void fence(MemoryOrder order) override;
    void located_fence(LocationId loc, MemoryOrder order) override;
    Tagged plain_read(LocationId loc) override { return read(loc, MemoryOrder::NonAtomic); }
    void plain_write(LocationId loc, Tagged v) override { write(loc, v.value, MemoryOrder::NonAtomic); }
    void yield() override { throw Blocked{}; }
    [[noreturn]] void fail(const char*) override { throw ModelFailed{}; }
    unsigned current_thread() override {
        return rt_->phase() == Phase::Quiescence ? rt_->quiescence_model_thread() : current_;
    }
    void enter_host() override {}
    void leave_host() override {}
    void recorded(const Event& e) override;
    bool blocks_failed_spins() const override { return true; }
    bool keeps_own_graph() const override { return true; }

private:
    // building blocks
    void init_write(LocationId loc, Tagged init, MemoryOrder order);
    Tagged read(LocationId loc, MemoryOrder order);
    void write(LocationId loc, Value v, MemoryOrder order);
    std::pair<Tagged, bool> update(LocationId loc, const RmwSpec& spec);
    /// Load buffering: the read at `id` of g takes the guessed value v, which a write not in the
    /// graph yet will supply (matched when the execution completes). Such a read is never
    /// revisited (revisitable false) and never deleted by a revisit (rmax false).
    Node& guess(Graph& g, EventId id, LocationId loc, Value v);
    /// Load buffering: the values the new read at `id` may guess (none without guesses).
    std::vector<Value> guessable_values(EventId id, LocationId loc) const;
    /// Load buffering: pushes the graphs in which the new RMW read part at `id` guesses its
    /// value, each with its write part placed (when it writes) and that placement's revisits.
    void push_rmw_guesses(EventId id, LocationId loc);
    /// The replayed node at `id`, checked against what the model asks for now.
    Node& replayed(EventId id, const char* what, LocationId loc);
    bool replaying(EventId id) const { return g_.has(id); }
    bool at_quiescence() const { return rt_->phase() == Phase::Quiescence; }
    Tagged tagged(EventId w) const { return Tagged{g_.at(w).ev.written_value, pack(w)}; }
    Tagged co_max(LocationId loc) const { return tagged(g_.co[loc].back()); }
    Node new_node(EventId id, EventKind kind, MemoryOrder order, std::optional<LocationId> loc) {
        Node n;
        n.ev.id = id;
        n.ev.kind = kind;
        n.ev.order = order;
        n.ev.location = loc;
        n.stamp = g_.next_stamp++;
        if (options_.max_thread_events != 0 && id.index >= options_.max_thread_events) throw SearchStopped{run_too_long()};
        if ((n.stamp & 15u) == 0 && budget_exhausted()) throw SearchStopped{};  // a long run still stops
        // the primitive, dependencies and extra LKMM tags now: the memory model judges the
        // event before the runtime records it
        if (id.thread != EventId::init_thread) {
            rt_->annotate_next(n.ev);
            n.replay = rt_->replay_dependencies();
        }
        return n;
    }
    /// Sets node `r`'s rf to `w` (of graph `g`) and, for an RMW or CAS call, its kind: a CAS
    /// that reads the expected value (or any RMW) is pending its write part.
    static void set_rf(Graph& g, Node& r, EventId w);
    /// Adds the write part of the RMW at `id` (its read part is in the graph) right after its rf
    /// source in co, and pushes the backward revisits it causes. Throws DeadBranch when the
    /// graph is then inconsistent.
    void add_write_part(EventId id);
    /// Sets the write part of the RMW at `id` right after its rf source in co (no revisits).
    void place_write_part(EventId id);
    void push(Graph&& g) {
        g.checked = false;
        stack_.push_back(std::move(g));
    }
    /// Pushes a graph the memory model has just found consistent, as it is.
    void push_checked(Graph&& g) {
        g.checked = true;
        stack_.push_back(std::move(g));
    }
    /// In-place revisits (as GenMC's IPR): every read of a waiting thread's failed spin iteration
    /// on a's location reads a instead, in the graph as it is (the waiting thread made no event
    /// since, and no event depends on a waiting read, so nothing is deleted); the thread resumes
    /// when the graph is replayed. These reads get no backward revisit: the graph in which they
    /// read a is this one, and a second way to build it would visit it twice. The exception is a
    /// waiting compare-and-swap whose backward revisit by a deletes events (some lock orders need
    /// them deleted): it gets that revisit and is not revisited here. Keeps the graph
    /// before the change in `before`; returns true if some read now reads a.
    bool in_place_revisits(EventId a, Graph& before);
    std::vector<EventId> blocked_reads_;  ///< reads of the failed iterations of threads waiting in this run
    bool consistent(const Graph& g);
    /// MemoryModel::inert_as_sink() of node `n`, added as a sink to g_; or
    /// inert_as_sink_without_locks() when no event of g_ is a lock event.
    bool inert_as_sink(const Node& n) const;
    void to_execution_graph(const Graph& g, ExecutionGraph& out, bool with_steps);
    /// The steps of `out`, converted from `g` by to_execution_graph() (to_execution_graph()'s
    /// with_steps, done afterwards).
    void number_steps(const Graph& g, ExecutionGraph& out) const;
    /// number_steps()'s buffers, kept from one graph to the next.
    struct StepScratch {
        std::vector<std::uint32_t> next;                       ///< per graph thread: its next event
        std::vector<std::uint16_t> waits_on;                   ///< per graph thread: whose write it waits on
        std::vector<std::vector<std::uint16_t>> waiting;       ///< per graph thread: who waits on its writes
        std::vector<std::uint16_t> woken;
        std::vector<std::pair<std::uint32_t, std::uint16_t>> ready;  ///< a heap: (stamp, thread), earliest first
        std::vector<EventId> by_stamp;                         ///< the events by stamp (thread 0: none)
    };
    static constexpr std::uint16_t none = std::numeric_limits<std::uint16_t>::max();
    mutable StepScratch steps_;
    /// The thread names, tag namer and location names of g_'s runtime into `out` (once).
    void names_into(const Graph& g, ExecutionGraph& out) const;
    /// The events of graph thread `gt` alone, as the memory model sees them, with no rf and no
    /// co: what MemoryModel::ordered_links() reads.
    void thread_graph(const Graph& g, std::uint16_t gt, ExecutionGraph& out) const;
    /// MemoryModel::ordered_links() of graph thread `gt` of g_, kept by what the model sees of
    /// the thread's events; nullopt when the model says nothing, or while an RMW of the thread
    /// waits for its write part (its tags are not yet the ones it will have).
    std::optional<std::vector<std::uint64_t>> model_links(std::uint16_t gt) const;
    mutable ExecutionGraph links_graph_;  ///< thread_graph()'s, for model_links()
    mutable std::map<std::vector<std::uint64_t>, std::optional<std::vector<std::uint64_t>>> links_memo_;
    std::vector<std::uint32_t> porf_prefix(const Graph& g, EventId a) const;
    /// Whether the backward revisit of the read `rid` by the write `a` deletes events.
    bool revisit_deletes(const Graph& g, EventId a, EventId rid) const;
    void backward_revisits(const Graph& g, EventId a);
    /// `cycle`: r is in a's porf-prefix (cycle_revisits()), and is revisited whether or not it
    /// read the co-latest write when added.
    void try_revisit(const Graph& g, EventId a, EventId r, const std::vector<std::uint32_t>& prefix, bool blocked,
                     bool cycle = false);
    /// Load buffering by revisits: the reads of a's location in a's porf-prefix that a may still
    /// revisit, nothing kept depending on them (docs/graph-engine.md).
    void cycle_revisits(const Graph& g, EventId a, const std::vector<std::uint32_t>& prefix, std::uint32_t limit);
    /// Whether finished thread `gt`'s events recur, as they are now, in every graph the search
    /// builds from this run: what decides them (the reads its branches tested, those its
    /// addresses, values and primitive calls came from: Node::replay) is guessed reads only,
    /// which no revisit changes or deletes. Any other read may take another value in a later
    /// graph (revisited, or deleted and read again), and the thread then runs another path:
    /// guess_can_close_a_cycle(), which judges the thread's path as it is, may end a run only
    /// when this holds.
    bool path_fixed(std::uint16_t gt) const;
    /// With cycle revisits: the program text shows that nothing depends on read `id`
    /// (VariantDef::undepended_reads), so it needs no guess.
    bool undepended(EventId id) const;

    // one run of the model against g_
    enum class RunEnd { Complete, Blocked, Dead, Failed };
    RunEnd run_once(FinalState& fs, std::string& detail, std::optional<EngineFailure>& failure);
    bool budget_exhausted() const;
    /// What SearchStopped says of a run in which a thread made max_thread_events events.
    std::string run_too_long() const;

    const VariantDef& variant_;
    const ExploreOptions& options_;
    const ExecutionSink& sink_;
    const MemoryModel& model_;
    const bool kernel_events_;  ///< the model reads LKMM tags (computed when a graph is converted)
    const Guesses* guesses_;  ///< load buffering: values a read may guess
    /// Load buffering by revisits (ExploreOptions::cycle_revisits, under LKMM only).
    bool cycle_revisits_ = false;
    /// With guesses, one execution can be built both with and without a guess, and with cycle
    /// revisits one with a cycle in more than one way: the canonical hashes of the executions
    /// with a cycle handed to the sink, so that each goes once.
    std::unordered_set<std::uint64_t> delivered_;
    std::unordered_set<std::uint64_t> thin_air_;  ///< canonical hashes of the executions value_cycle() left out
    std::unordered_set<std::uint64_t> thin_air_copies_;  ///< ... and of those with a cycle of copies, kept
    /// Hands the complete graph g_ to the sink: with guessed reads, once for every way of matching
    /// each guess with a write of its value that leaves the execution consistent.
    void complete(const FinalState& fs);
    /// A guessed read is needed only on a po | rf cycle, and a cycle that is consistent under
    /// LKMM leaves some read of it with a po-later write of its thread that is not ordered after
    /// it (were every read-to-write link from a marked read to a marked write, and a dependency,
    /// the cycle would be in hb). Such reads are the only ones the exploration needs to guess:
    /// when thread `gt` has finished, a guessed read of it without one leads nowhere new. A plain
    /// read orders nothing; a write to a location only plain accesses reach orders nothing but is
    /// left to the plain read of the cycle that reads it (docs/lkmm.md, "Load buffering").
    /// Under LKMM a marked write is also ordered after a marked read by a strong fence between
    /// them (smp_mb(), synchronize_rcu(), synchronize_srcu()), by acq-po (an acquire read) and
    /// by po-rel (a release write or unlock): all in ppo, and [Marked] ; ppo ; [Marked] in hb.
    /// A cat model may order otherwise: there the reasons its probes show count
    /// (MemoryModel::orders()), and the links its own axioms order on the thread's events
    /// (MemoryModel::ordered_links(), docs/cat.md).
    bool guess_can_close_a_cycle(std::uint16_t gt) const;
    /// What VariantDef::ordered_reads says of read `id` (at po index below 64, where
    /// dependencies are recorded; by the reasons the model orders for): true, its guesses
    /// could close no cycle; false, they may; nullopt, the text does not say (the rounds'
    /// learnt rules decide).
    std::optional<bool> text_ordered(EventId id) const;
    /// Whether no marked access reaches `loc` (VariantDef::plain_only_locations).
    bool plain_only(LocationId loc) const;
    mutable std::vector<bool> plain_only_;  ///< per location, filled on first use
    /// Calls `each` on every consistent execution that matches each guessed read of g_ with a
    /// write of its location and value (`base`: g_ as the memory model sees it), until `each`
    /// returns false; returns false then.
    bool for_each_matching(ExecutionGraph& base, const std::function<bool(const ExecutionGraph&)>& each);
    /// Some matching of the guesses of g_ is consistent.
    bool guesses_matched() {
        return !for_each_matching(matching_, [](const ExecutionGraph&) { return false; });
    }
    ExecutionGraph matching_;  ///< g_ before quiescence, for guesses_matched()
    /// Whether the loop cuts of the run that ended as `end` count (Runtime::settle_cuts()).
    bool cut_counts(RunEnd end, bool failure_matched);
    /// Whether graph thread `u`, which has not finished, may still write what guessed read `r`
    /// took, po-after its events so far, without a coherence cycle.
    bool may_supply_later(const Node& r, std::uint16_t u) const;
    /// Whether a write still to come (of a thread that did not finish) may make a thread that
    /// finished run another way: it may revisit one of the thread's reads, or a read added
    /// before some of the thread's events, which deletes them and runs the thread again from
    /// there. The thread may then write what its other paths write (unexplored here), and
    /// change what its writes so far forbid.
    bool finished_may_run_again() const;
    std::vector<bool> finished_;  ///< per model thread: it ran to its end in this run
    bool has_guesses(const Graph& g) const {
        for (std::size_t t = 1; t < g.threads.size(); ++t)
            for (const Node& n : g.threads[t])
                if (n.guessed) return true;
        return false;
    }
    Runtime* rt_ = nullptr;

    Graph g_;                       ///< the graph of the running replay
    std::vector<Graph> stack_;      ///< graphs still to visit
    WorkPool* pool_ = nullptr;      ///< share(): the search's threads' pool
    UnitKey unit_;                  ///< share(): the unit this engine runs
    Graph start_graph_;             ///< the graph the search starts from
    std::uint32_t given_ = 0;       ///< graphs given to pool_
    /// Deferred checks (graph_engine.cpp, run()): set while the model's check of the last
    /// complete graph was its whole model. A read's other rf choices are then pushed unasked,
    /// and a graph popped unasked is run first: the whole check of the graph it completes to
    /// answers for it, and only where that cannot, it is asked after the run.
    bool defer_checks_ = false;
    unsigned current_ = 0;          ///< running model thread
    std::vector<std::uint32_t> recorded_count_;  ///< events recorded per graph thread in this run
    ExecutionGraph scratch_;        ///< the memory model's view of a graph (names set once)
    ExecutionGraph out_;            ///< what the sink receives
    bool names_ready_ = false;
    bool has_plain_ = false;        ///< the model has Plain locations: check each execution for races
    std::chrono::steady_clock::time_point start_;
    std::uint64_t executions_ = 0, blocked_ = 0, runs_ = 0;
    std::uint64_t livelocked_ = 0;     ///< runs in which a thread waits forever (livelock_ends_search off)
    std::string livelock_detail_;      ///< ... the first one's
    std::vector<std::string> observable_names_, metric_names_;
};

}  // namespace oc::graph_detail
