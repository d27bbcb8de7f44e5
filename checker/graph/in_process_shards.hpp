// SPDX-License-Identifier: MIT
// One search of the graph engine as several shards on threads of this process, merged into one
// answer (ExploreOptions::threads). Used under LKMM, whose search runs in rounds that learn from
// one another (guess_rounds.cpp): shards in worker processes would each run every round whole,
// where threads share what each round learnt. Internal to checker/graph/.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/explore/exploration.hpp"

namespace oc {
class MemoryModel;
}

namespace oc::graph_detail {

struct Guesses;

/// How many shards run_search() makes of a search on `ways` threads.
unsigned shard_count(unsigned ways);

/// Runs the search of `variant` under `model` (with `guesses`, or none) as `ways` shards of one
/// tree, shard i on its own thread with the sink `sink_of(i)` (shard 0 on the calling thread;
/// ways 1: the whole search there, unsharded). The shards after the lowest one that failed stop.
/// The result is the whole search's: its failure that of the lowest failing shard, `executions`
/// the sum of the shards' (an execution built with guesses may be counted in two shards: the
/// caller recounts what it hands on, ShardDelivery), thin-air counted once over all shards.
/// Rethrows the exception of the lowest shard that threw, unless a lower one failed first.
ExploreResult run_search(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
                         const Guesses* guesses, unsigned ways, const std::function<ExecutionSink(unsigned)>& sink_of);

/// Hands the executions of in-process shards on to one sink: shard after shard, each shard's in
/// the order it found them, and each execution once (one built with guesses,
/// FinalState::load_buffering, can be built in two shards: the canonical hash keeps the
/// first). They are kept until finish(), up to `cap` events in all; past it, per `overflow`:
/// dropped (a round that will run again if needed), or handed on at once, under a lock, in
/// the order they come.
class ShardDelivery {
public:
    enum class Overflow { Drop, HandOn };
    /// `prepare` (ExploreOptions::prepare), when set and there are several shards, runs in keep().
    ShardDelivery(const ExecutionSink& sink, unsigned shards, std::size_t cap, Overflow overflow,
                  const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare);
    ShardDelivery(const ShardDelivery&) = delete;
    ShardDelivery& operator=(const ShardDelivery&) = delete;
    /// Shard `i`'s sink; called on shard i's thread only.
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
    void hand_on(const ExecutionGraph& g, const FinalState& fs);  // under m_
    const ExecutionSink& sink_;
    const std::size_t cap_;
    const Overflow overflow_;
    const bool dedup_;  ///< more than one shard
    const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare_;
    std::atomic<std::size_t> events_{0};
    std::atomic<bool> dropped_{false}, past_cap_{false};
    std::vector<std::vector<Kept>> kept_;
    std::mutex m_;
    std::unordered_set<std::uint64_t> cyclic_;  ///< canonical hashes of the load-buffering ones handed on
    std::uint64_t handed_ = 0;
};

}  // namespace oc::graph_detail
