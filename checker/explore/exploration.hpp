// SPDX-License-Identifier: MIT
// The engine-neutral exploration interface: what the driver, necessity, diff, report, litmus,
// --jobs, shards and MPI ask of an engine, and what they get back. Two engines implement it:
// checker/relacy/ (Relacy's exhaustive scheduler, interleavings) and checker/graph/ (execution
// graphs, each consistent one once, under a named memory model). checker/engines/engines.hpp
// hands a variant to one of them (explore()) and says what each can do (capabilities()).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/model/model.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

class MemoryModel;

/// Which engine explores a variant.
enum class EngineKind : std::uint8_t {
    Relacy,  ///< Relacy's scheduler: interleavings under C++11 (checker/relacy/)
    Graph,   ///< execution graphs, each consistent one exactly once (checker/graph/)
};
std::string_view to_string(EngineKind e);
/// "relacy" or "graph"; nullopt otherwise.
std::optional<EngineKind> parse_engine(std::string_view s);


/// Which memory model judges the executions.
enum class ModelKind : std::uint8_t {
    Rc11,  ///< C++11 as RC11 (with the kernel primitives mapped onto C++11; Relacy: C++11 itself)
    Lkmm,  ///< the Linux-kernel memory model (graph engine only)
    Sc,    ///< sequential consistency (graph engine only; explain's "is any reordering needed?")
};
std::string_view to_string(ModelKind m);
/// "rc11" or "lkmm"; nullopt otherwise.
std::optional<ModelKind> parse_model(std::string_view s);

/// Which of the engine's searches to run.
enum class SearchKind : std::uint8_t {
    Full,    ///< exhaustive DFS over every scheduling and stale-read decision
    Bound,   ///< the same DFS with at most `context_bound` preemptions per execution
    Random,  ///< `random_executions` random executions
};

/// Where a running search is, for progress displays.
struct ExploreProgress {
    std::uint64_t interleavings = 0;  ///< engine iterations run so far (redundant ones included)
    std::uint64_t executions = 0;     ///< completed executions handed to the sink so far
    double elapsed_seconds = 0;
    /// Estimated fraction of the search tree done (0..1, monotone), or a negative number when
    /// the search cannot estimate it (random search).
    double fraction = -1;
};
using ProgressSink = std::function<void(const ExploreProgress&)>;

struct FinalState;

struct ExploreOptions {
    EngineKind engine = EngineKind::Relacy;
    ModelKind model = ModelKind::Rc11;
    /// Graph engine: a memory model loaded at run time (a cat file, checker/memory_model/cat/)
    /// that judges instead of the built-in one `model` names; `model` then names the role it
    /// plays (Lkmm for a model with the kernel's event tags: the expectations, the flags and the
    /// race semantics are LKMM's). Not owned; it outlives the search.
    const MemoryModel* memory_model = nullptr;
    SearchKind search = SearchKind::Full;
    std::uint64_t max_executions = 0;      ///< 0: no limit (Full/Bound); cut short when reached
    double timeout_seconds = 0;            ///< 0: none; cut short when exceeded
    /// Graph engine: a run in which one thread (or the work run at quiescence) makes more events
    /// than this ends the search, cut short, with ExploreResult::cut_detail saying where: a loop
    /// the model does not bound would otherwise run (and grow the graph) forever. 0: no limit.
    std::uint32_t max_thread_events = 10000;
    unsigned context_bound = 2;            ///< preemptions per execution (Bound)
    std::uint64_t random_executions = 100000;  ///< executions drawn by Random
    bool capture = true;                   ///< record execution graphs (off only to measure its cost)
    /// Graph engine: a data race (as the memory model defines it) ends the exploration with
    /// EngineFailure::DataRace. Off: the execution counts and the race is a flag (herd's LKMM
    /// semantics for litmus tests; Report::flags).
    bool race_ends_execution = true;
    /// Graph engine: a run in which a thread waits forever (its spin iteration read the last
    /// writes, which no thread can change: a deadlock or livelock) ends the search with
    /// EngineFailure::Livelock. Off: the run is no execution, as herd7 counts none for it; it is
    /// counted in ExploreResult::livelocked and the search goes on (litmus tests).
    bool livelock_ends_search = true;
    /// Graph engine under LKMM: how many events of a load-buffering round's executions are kept,
    /// so that a round that turns out to be the search proper is not run again (guess_rounds.cpp).
    /// Past it, the search proper runs that round again. (Tests set it low to take that path.)
    std::size_t guess_round_kept_events = std::size_t{1} << 20;
    /// Graph engine under LKMM (or a kernel cat model): the reads VariantDef::ordered_reads says
    /// are ordered guess anyway, and a guess of one that survives its thread ends the search with
    /// an internal error (tests: the text's claim checked by the engine's own rule).
    bool guess_ordered_reads = false;
    /// Graph engine: while the model checks complete graphs against its whole model (LKMM with
    /// RCU events), a read's other rf choices are pushed unasked and a graph is asked only when
    /// the whole check of the graph its run completes to cannot answer for it
    /// (docs/graph-engine.md, "Deferred checks"). Off: every choice asked when it is pushed
    /// (tests compare the two).
    bool defer_checks = true;
    /// Graph engine under LKMM: load-buffering cycles are built by revisits where nothing kept
    /// depends on the revisited read (docs/graph-engine.md, "Load buffering by revisits"), and a
    /// read guesses only where that cannot build its cycles. Off: every cycle comes from guesses
    /// (the former search; tests compare the two).
    bool cycle_revisits = true;
    std::optional<Mutation> mutation;      ///< weaken one ordering site (barrier necessity)
    /// Sleep-set partial-order reduction (Full search only): skip interleavings that only reorder
    /// independent steps. It explores at least one interleaving of every execution the full
    /// search explores (docs/performance.md).
    bool reduction = true;
    /// Prefix sharding (Full and Bound search): explore only shard `shard_index` of
    /// `shard_count`. The shards of one variant together explore exactly the interleavings the
    /// unsharded search explores, each exactly once.
    unsigned shard_index = 0;
    unsigned shard_count = 1;
    /// Graph engine, a model with kernel events (LKMM), unsharded, no max_executions: run the
    /// search, its load-buffering rounds included, on this many threads of this process,
    /// which share its tree and merge into one answer (in_process_shards.hpp); `progress` is
    /// then not called. 1: on the calling thread.
    unsigned threads = 1;
    /// With `threads` > 1: called on a search thread for every execution it hands on (the sink
    /// itself runs on one thread, after the search). The sink's own work on an execution that
    /// depends on the execution alone (its canonical hash, the model's verdict and flags), done
    /// in parallel; the result reaches the sink as FinalState::prepared. Must be thread-safe.
    std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)> prepare;
    /// Called about every `progress_interval` seconds while the search runs (host code; it may
    /// allocate but must not throw).
    ProgressSink progress;
    double progress_interval = 0.5;
};

/// Why every search of this process is to stop now. A search that sees it ends as at its own
/// timeout: cut short, settling nothing (never a verdict).
enum class StopCause : int {
    None = 0,
    Interrupt = 1,  ///< SIGINT or SIGTERM: the command line's handler (cli/command_stop.cpp)
    Deadline = 2,   ///< the whole command's --timeout ran out (set_stop_deadline())
};

namespace stop_detail {
inline std::atomic<int> cause{0};
/// steady_clock ticks since its epoch; 0: no deadline.
inline std::atomic<std::int64_t> deadline{0};
static_assert(std::atomic<int>::is_always_lock_free, "request_stop() runs in a signal handler");
}  // namespace stop_detail

/// Asks every search to stop. Async-signal-safe: a store to a lock-free atomic. An interrupt
/// overrides a deadline (the command then exits as interrupted).
inline void request_stop(StopCause cause) noexcept {
    stop_detail::cause.store(static_cast<int>(cause), std::memory_order_relaxed);
}

/// Every search stops `seconds` from now (0: no deadline): the whole command's --timeout.
inline void set_stop_deadline(double seconds) {
    using Clock = std::chrono::steady_clock;
    stop_detail::deadline.store(
        seconds > 0 ? (Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)))
                          .time_since_epoch()
                          .count()
                    : 0,
        std::memory_order_relaxed);
}

/// What stopped the searches, or None. The engines check it where they check their timeout (once
/// per execution); so does every loop of the commands over variants, tests and weakenings.
inline StopCause stop_cause() noexcept {
    const int c = stop_detail::cause.load(std::memory_order_relaxed);
    if (c != 0) return static_cast<StopCause>(c);
    const std::int64_t d = stop_detail::deadline.load(std::memory_order_relaxed);
    if (d != 0 && std::chrono::steady_clock::now().time_since_epoch().count() >= d) {
        int none = 0;
        stop_detail::cause.compare_exchange_strong(none, static_cast<int>(StopCause::Deadline));
        return static_cast<StopCause>(stop_detail::cause.load(std::memory_order_relaxed));
    }
    return StopCause::None;
}

/// The final state of one completed execution.
struct FinalState {
    bool bad_outcome = false;
    bool filtered_out = false;  ///< ModelInstance::filtered_out(): counts in no verdict
    std::vector<Value> observables;  ///< in the order of ExploreResult::observable_names
    std::vector<Value> metrics;      ///< in the order of ExploreResult::metric_names
    /// spin_yield() calls in this execution: failed iterations of spin loops. The graph engine
    /// never runs one (a failed iteration blocks the thread); Relacy does.
    unsigned spin_failures = 0;
    /// Graph engine under LKMM: built by matching load-buffering guesses, so its po | rf has a
    /// cycle (the search's first round, without guesses, finds every execution without one).
    bool load_buffering = false;
    /// Graph engine: the memory model found every one of its axioms to hold on this very graph
    /// before handing it on (MemoryModel::whole_when_complete()), so certifying it by the same
    /// model's axioms would ask them again (check(), checker/driver).
    bool model_checked = false;
    /// What ExploreOptions::prepare made of this execution on the search's thread; null when it
    /// was not called.
    std::shared_ptr<const void> prepared;
};

/// Receives every completed execution. Called inside the exploration, between two executions'
/// steps; it may allocate (the backend brackets it as host code) but must not throw.
using ExecutionSink = std::function<void(const ExecutionGraph&, const FinalState&)>;

/// One search of the graph engine's load-buffering rounds (graph_explore() under LKMM or a
/// kernel cat model): its wall time and the executions it built.
struct SearchRound {
    double seconds = 0;
    std::uint64_t executions = 0;
    bool guesses = false;  ///< its reads guessed values (false: the round without guesses)
    bool proper = false;   ///< the exploration proper, run after the rounds settled
};

struct ExploreResult {
    EngineKind engine = EngineKind::Relacy;
    ModelKind model = ModelKind::Rc11;
    std::uint64_t executions = 0;    ///< executions run to the end (the failing one excluded)
    /// Graph engine: executions in which some thread stayed blocked at an await (a failed spin
    /// iteration) while the awaited value could still change in another branch. Not complete
    /// executions: not handed to the sink, counted apart.
    std::uint64_t blocked = 0;
    /// Graph engine with ExploreOptions::livelock_ends_search off: runs in which a thread waited
    /// forever (no executions), and what the first one said.
    std::uint64_t livelocked = 0;
    std::string livelock_detail;
    /// Graph engine under LKMM: complete executions left out because a guessed read's value
    /// comes back to it through rf and data dependencies and some write on the way computes it
    /// (a value out of thin air; herd7 builds none either), counted once each.
    std::uint64_t thin_air = 0;
    /// ... and executions kept whose cycle only copies the value: counted (in `executions`) with
    /// the value the writes have, where herd7 gives the cycle a symbolic value, which may satisfy
    /// a condition this one does not.
    std::uint64_t thin_air_copies = 0;
    bool completed = false;          ///< the search ran to its natural end
    bool cut_short = false;          ///< a budget or the timeout stopped it
    /// Why the search was cut short when no budget, timeout or signal did (a run that did not
    /// end, load-buffering rounds that did not settle); empty otherwise.
    std::string cut_detail;
    std::optional<EngineFailure> failure;
    std::string failure_detail;      ///< what the engine said, and where
    ExecutionGraph failure_graph;    ///< the execution that failed, up to the failing step
    std::vector<std::string> observable_names;
    std::vector<std::string> metric_names;
    std::string replay;              ///< engine decision string of the failing execution
    double seconds = 0;
    /// Graph engine under LKMM or a kernel cat model: the rounds it ran, in order (the first
    /// without guesses, then with the values learnt, then the exploration proper if the last
    /// round could not stand for it); their times make up `seconds`. Empty for other searches.
    std::vector<SearchRound> rounds;

    // ---- accounting ----
    /// Engine iterations run (each one interleaving): completed, redundant and failing ones.
    std::uint64_t interleavings = 0;
    /// Of them, those the reduction knew to be redundant when it ran them (every runnable thread
    /// was asleep: an equivalent interleaving is explored elsewhere).
    std::uint64_t redundant = 0;
    bool reduction = false;          ///< the sleep-set reduction was active
    double fraction = 0;             ///< estimated fraction of the (shard's) tree done at the end

    // ---- sharding (shard_count > 1) ----
    unsigned shard_index = 0;
    unsigned shard_count = 1;
    unsigned prefix_depth = 0;       ///< scheduling decisions fixed by a prefix
    std::uint64_t prefixes = 0;      ///< prefixes of the whole tree
    std::uint64_t shard_prefixes = 0;  ///< ... this shard explored
    std::uint64_t enumeration_iterations = 0;  ///< iterations spent enumerating the prefixes
    /// The prefix enumeration met an engine failure: shard 0 explores the whole tree, the others
    /// nothing (their union is still exactly the unsharded search).
    bool whole_tree_in_shard_zero = false;
    std::string whole_tree_why;  ///< why shard 0 explored the whole tree (when it did)
};

/// Largest number of shared locations one model may declare.
inline constexpr unsigned max_locations = 64;

}  // namespace oc
