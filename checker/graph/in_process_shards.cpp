// SPDX-License-Identifier: MIT
// One search as shards on threads of this process (in_process_shards.hpp).
#include "checker/graph/in_process_shards.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <optional>
#include <thread>

#include "checker/graph/graph_engine_internal.hpp"
#include "checker/memory_model/memory_model.hpp"

namespace oc::graph_detail {

namespace {

/// Shards per thread. The shards of one search differ widely in size; four per thread, each
/// thread taking the next when done, kept two threads busy on a 12-process RCU ring (2.5 s
/// against 4.0 s on one; one shard per thread: 2.75 s; sixteen: 2.9 s, the frontier each
/// shard explores first costing more).
constexpr unsigned shards_per_thread = 4;

struct ShardRun {
    ExploreResult result;
    std::unordered_set<std::uint64_t> thin_air, thin_air_copies;
    std::exception_ptr error;
};

void run_shard(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
               const Guesses* guesses, const ExecutionSink& sink, ShardRun& out) {
    GraphEngine engine(variant, options, sink, model, guesses);
    Runtime runtime(engine);
    runtime.set_capture(options.capture);
    runtime.set_mutation(options.mutation);
    runtime.set_lkmm(model.kernel_events());
    RuntimeInstallation installation(runtime);
    engine.attach(runtime);
    out.result = engine.run();
    if (options.shard_count > 1) {  // merged over the shards by run_search()
        out.thin_air = engine.thin_air_hashes();
        out.thin_air_copies = engine.thin_air_copy_hashes();
    }
}

}  // namespace

unsigned shard_count(unsigned ways) { return ways <= 1 ? 1 : ways * shards_per_thread; }

ExploreResult run_search(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
                         const Guesses* guesses, unsigned ways, const std::function<ExecutionSink(unsigned)>& sink_of) {
    if (ways <= 1) {
        ShardRun run;
        const ExecutionSink sink = sink_of(0);
        run_shard(variant, options, model, guesses, sink, run);
        return std::move(run.result);
    }
    const auto start = std::chrono::steady_clock::now();
    // More shards than threads, each thread taking the next shard when it is done: the shards'
    // sizes vary widely (on a 12-process RCU ring, 1.5 s and 2.0 s for two).
    const unsigned shards = shard_count(ways);
    constexpr unsigned none = std::numeric_limits<unsigned>::max();
    std::atomic<unsigned> failed{none}, next{0};
    const auto fail = [&](unsigned i) {  // failed = min(failed, i)
        unsigned f = failed.load();
        while (i < f && !failed.compare_exchange_weak(f, i)) {
        }
    };
    std::vector<ExploreOptions> opts(shards, options);
    std::vector<ExecutionSink> sinks;
    for (unsigned i = 0; i < shards; ++i) {
        opts[i].shard_index = i;
        opts[i].shard_count = shards;
        opts[i].threads = 1;
        opts[i].failed_shard = &failed;
        // no progress lines: the caller's callback reads what its sink builds, which the sink may
        // be building on another thread (ShardDelivery past its cap)
        opts[i].progress = nullptr;
        sinks.push_back(sink_of(i));
    }
    std::vector<ShardRun> runs(shards);
    const auto body = [&] {
        for (unsigned i = next++; i < shards && i <= failed.load(); i = next++) {
            // the timeout is the whole search's: a shard begun late gets what is left of it
            if (options.timeout_seconds > 0)
                opts[i].timeout_seconds = std::max(
                    options.timeout_seconds -
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    1e-9);
            try {
                run_shard(variant, opts[i], model, guesses, sinks[i], runs[i]);
                if (runs[i].result.failure) fail(i);
            } catch (...) {
                runs[i].error = std::current_exception();
                fail(i);
            }
        }
    };
    {
        std::vector<std::jthread> workers;
        for (unsigned i = 1; i < ways; ++i) workers.emplace_back(body);
        body();
    }  // joined

    const unsigned last = failed.load() == none ? shards - 1 : failed.load();  // shards past it stopped
    if (runs[last].error) std::rethrow_exception(runs[last].error);
    ExploreResult r = runs[0].result;
    std::unordered_set<std::uint64_t> thin_air, copies;
    r.executions = 0;
    r.blocked = 0;
    r.livelocked = 0;
    r.livelock_detail.clear();
    r.cut_short = false;
    r.cut_detail.clear();
    r.shard_prefixes = 0;
    for (unsigned i = 0; i <= last; ++i) {
        const ExploreResult& s = runs[i].result;
        r.executions += s.executions;
        r.blocked += s.blocked;
        r.livelocked += s.livelocked;
        if (r.livelock_detail.empty()) r.livelock_detail = s.livelock_detail;
        r.cut_short = r.cut_short || s.cut_short;
        if (r.cut_detail.empty()) r.cut_detail = s.cut_detail;
        r.shard_prefixes += s.shard_prefixes;
        thin_air.insert(runs[i].thin_air.begin(), runs[i].thin_air.end());
        copies.insert(runs[i].thin_air_copies.begin(), runs[i].thin_air_copies.end());
    }
    r.thin_air = thin_air.size();
    r.thin_air_copies = copies.size();
    if (failed.load() != none) {
        ExploreResult& f = runs[last].result;
        r.failure = f.failure;
        r.failure_detail = std::move(f.failure_detail);
        r.failure_graph = std::move(f.failure_graph);
        r.replay = std::move(f.replay);
    }
    r.completed = !r.failure && !r.cut_short;
    r.interleavings = r.executions + (r.failure ? 1 : 0);
    r.fraction = r.completed ? 1.0 : 0.0;
    r.shard_index = options.shard_index;
    r.shard_count = options.shard_count;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

ShardDelivery::ShardDelivery(
    const ExecutionSink& sink, unsigned shards, std::size_t cap, Overflow overflow,
    const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare)
    : sink_(sink), cap_(cap), overflow_(overflow), dedup_(shards > 1), prepare_(prepare), kept_(shards) {}

void ShardDelivery::hand_on(const ExecutionGraph& g, const FinalState& fs) {
    if (dedup_ && fs.load_buffering && !cyclic_.insert(canonical_hash(g)).second) return;
    ++handed_;
    sink_(g, fs);
}

void ShardDelivery::keep(unsigned i, const ExecutionGraph& g, const FinalState& fs) {
    if (dropped_.load(std::memory_order_relaxed)) {
        if (!kept_[i].empty()) std::vector<Kept>().swap(kept_[i]);
        return;
    }
    if (!past_cap_.load(std::memory_order_relaxed)) {
        std::size_t n = 0;
        for (std::size_t t = 0; t < g.thread_count(); ++t) n += g.thread(t).size();
        if (events_.fetch_add(n, std::memory_order_relaxed) + n > cap_) past_cap_.store(true, std::memory_order_relaxed);
    }
    if (past_cap_.load(std::memory_order_relaxed) && overflow_ == Overflow::Drop) {
        dropped_.store(true, std::memory_order_relaxed);
        std::vector<Kept>().swap(kept_[i]);
        return;
    }
    FinalState f = fs;
    if (dedup_ && prepare_) f.prepared = prepare_(g, f);  // on this shard's thread
    if (past_cap_.load(std::memory_order_relaxed)) {
        const std::lock_guard<std::mutex> lock(m_);
        hand_on(g, f);
        return;
    }
    kept_[i].push_back(Kept{g, std::move(f)});
}

std::uint64_t ShardDelivery::finish() {
    const std::lock_guard<std::mutex> lock(m_);
    if (!dropped_.load())
        for (auto& shard : kept_)
            for (const Kept& k : shard) hand_on(k.graph, k.final);
    for (auto& shard : kept_) std::vector<Kept>().swap(shard);
    return handed_;
}

}  // namespace oc::graph_detail
