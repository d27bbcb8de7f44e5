// SPDX-License-Identifier: MIT
// One search of the graph engine on several threads of this process, merged into one answer
// (ExploreOptions::threads). Used under LKMM, whose search runs in rounds that learn from
// one another (guess_rounds.cpp): shards in worker processes would each run every round whole,
// where threads share what each round learnt. Internal to checker/graph/.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <optional>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/explore/exploration.hpp"
#include "checker/graph/graph_state.hpp"

namespace oc {
class MemoryModel;
}

namespace oc::graph_detail {

struct Guesses;

/// A unit of a search on several threads: a graph, and the subtree the search explores from
/// it. Its key orders its executions as one thread's search finds them: a unit's own come
/// before those of the units it gave away, and of those, the one given last comes first (it was
/// higher on the stack, WorkPool::give()). Keys compare lexicographically, a prefix first.
using UnitKey = std::vector<std::uint32_t>;

/// What the threads of one search share (run_search()): the units waiting for a thread, and
/// which unit failed first. A thread that has run out of work waits here; a busy engine sees
/// that between two runs (hungry()) and gives away the graph at the bottom of its stack, which
/// its own search would visit last, with the whole subtree below it.
class WorkPool {
public:
    explicit WorkPool(Graph root);
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;
    /// Some thread waits for work, and no unit waits for a thread.
    bool hungry() const { return hungry_.load(std::memory_order_relaxed); }
    /// Gives `g` away as a unit of its own, the `given`-th that the unit `from` gives away
    /// (counted from 1).
    void give(Graph g, const UnitKey& from, std::uint32_t given);
    /// The next unit, once one waits and this thread is free for it; nullopt once every unit
    /// is done and none waits. A thread that took a unit calls done() when it has run it.
    std::optional<std::pair<UnitKey, Graph>> take();
    void done();
    /// Unit `key` failed: the units after it in the search's order stop (stopped()).
    void failed(const UnitKey& key);
    bool stopped(const UnitKey& key) const;

private:
    void update_hungry();  // under m_
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::pair<UnitKey, Graph>> waiting_units_;
    unsigned waiting_threads_ = 0, running_ = 0;
    std::atomic<bool> hungry_{false};
    std::atomic<bool> any_failed_{false};
    std::optional<UnitKey> first_failed_;
};

/// Runs the search of `variant` under `model` (with `guesses`, or none) on `ways` threads of
/// this process, each with its sink `sink_of(i)` (thread 0 is the calling one; ways 1: the
/// whole search there). The threads share the search's tree by units (WorkPool): one thread
/// starts from the root, and a thread that runs out of work takes a subtree a busy one gives
/// away. `delivery`, if given, is told which unit each thread runs (ShardDelivery::start_unit()),
/// and, when one failed, that the units after it are not the search's. The units after the
/// first one (in the search's order) that failed stop. The result is the whole search's: its
/// failure that of the first failing unit, `executions` the sum of the units' up to it (an
/// execution built with guesses may be counted in two units: the caller recounts what it hands
/// on, ShardDelivery), thin-air counted once over all. Rethrows the exception of the first unit
/// that threw, unless one before it failed.
class ShardDelivery;
ExploreResult run_search(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
                         const Guesses* guesses, unsigned ways, const std::function<ExecutionSink(unsigned)>& sink_of,
                         ShardDelivery* delivery = nullptr);

/// Hands the executions of a search on several threads on to one sink: unit after unit in the
/// search's order (UnitKey), each unit's in the order it found them, which is the order one
/// thread finds them in, and each execution once (one built with guesses,
/// FinalState::load_buffering, can be built in two units: the canonical hash keeps the first).
/// They are kept until finish(), up to `cap` events in all; past it, per `overflow`: dropped (a
/// round that will run again if needed), or handed on at once, under a lock, in the order they
/// come.
class ShardDelivery {
public:
    enum class Overflow { Drop, HandOn };
    /// `threads`: the search's; `prepare` (ExploreOptions::prepare), when set and there are
    /// several threads, runs in keep().
    ShardDelivery(const ExecutionSink& sink, unsigned threads, std::size_t cap, Overflow overflow,
                  const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare);
    ShardDelivery(const ShardDelivery&) = delete;
    ShardDelivery& operator=(const ShardDelivery&) = delete;
    /// Thread `i` runs unit `key` from now on (run_search()).
    void start_unit(unsigned i, const UnitKey& key);
    /// The units after `key` are not the search's (one before them failed): finish() drops them.
    void drop_after(const UnitKey& key);
    /// Thread `i`'s sink; called on thread i only, in the unit start_unit() last named.
    void keep(unsigned i, const ExecutionGraph& g, const FinalState& fs);
    /// Whether every execution was kept (nothing dropped).
    bool complete() const { return !dropped_.load(std::memory_order_relaxed); }
    /// Hands on what was kept (nothing if complete() is false and the overflow drops); returns
    /// how many executions were handed on in all, at once and now.
    std::uint64_t finish();

private:
    struct Kept {
        ExecutionGraph graph;
        FinalState final;
    };
    struct Unit {
        UnitKey key;
        std::vector<Kept> kept;
    };
    void hand_on(const ExecutionGraph& g, const FinalState& fs);  // under m_
    const ExecutionSink& sink_;
    const std::size_t cap_;
    const Overflow overflow_;
    const bool dedup_;  ///< more than one thread
    const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare_;
    std::atomic<std::size_t> events_{0};
    std::atomic<bool> dropped_{false}, past_cap_{false};
    std::deque<Unit> units_;         ///< under m_; an element stays where it is
    std::vector<Unit*> current_;     ///< per thread: the unit it runs
    std::optional<UnitKey> drop_after_;
    std::mutex m_;
    std::unordered_set<std::uint64_t> cyclic_;  ///< canonical hashes of the load-buffering ones handed on
    std::uint64_t handed_ = 0;
};

}  // namespace oc::graph_detail
