// SPDX-License-Identifier: MIT
// One search on threads of this process, shared by work stealing (in_process_shards.hpp).
#include "checker/graph/in_process_shards.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <limits>
#include <optional>
#include <thread>
#include <utility>

#include "checker/graph/graph_engine_internal.hpp"
#include "checker/memory_model/memory_model.hpp"

namespace oc::graph_detail {

WorkPool::WorkPool(Graph root) { waiting_units_.emplace_back(UnitKey{}, std::move(root)); }

void WorkPool::update_hungry() { hungry_.store(waiting_threads_ > waiting_units_.size(), std::memory_order_relaxed); }

void WorkPool::give(Graph g, const UnitKey& from, std::uint32_t given) {
    UnitKey key = from;
    // given later, visited earlier by one thread: a smaller key
    key.push_back(std::numeric_limits<std::uint32_t>::max() - given);
    const std::lock_guard<std::mutex> lock(m_);
    waiting_units_.emplace_back(std::move(key), std::move(g));
    update_hungry();
    cv_.notify_one();
}

std::optional<std::pair<UnitKey, Graph>> WorkPool::take() {
    std::unique_lock<std::mutex> lock(m_);
    ++waiting_threads_;
    update_hungry();
    cv_.wait(lock, [&] { return !waiting_units_.empty() || running_ == 0; });
    --waiting_threads_;
    if (waiting_units_.empty()) {  // every unit is done: so is the search
        update_hungry();
        cv_.notify_all();
        return std::nullopt;
    }
    auto unit = std::move(waiting_units_.back());
    waiting_units_.pop_back();
    ++running_;
    update_hungry();
    return unit;
}

void WorkPool::done() {
    const std::lock_guard<std::mutex> lock(m_);
    if (--running_ == 0) cv_.notify_all();
}

void WorkPool::failed(const UnitKey& key) {
    const std::lock_guard<std::mutex> lock(m_);
    if (!first_failed_ || key < *first_failed_) first_failed_ = key;
    any_failed_.store(true, std::memory_order_release);
}

bool WorkPool::stopped(const UnitKey& key) const {
    if (!any_failed_.load(std::memory_order_acquire)) return false;
    const std::lock_guard<std::mutex> lock(m_);
    return *first_failed_ < key;
}

namespace {

struct UnitRun {
    UnitKey key;
    ExploreResult result;
    std::unordered_set<std::uint64_t> thin_air, thin_air_copies;
    std::exception_ptr error;
};

void run_unit(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
              const Guesses* guesses, const ExecutionSink& sink, WorkPool* pool, Graph start, UnitRun& out) {
    GraphEngine engine(variant, options, sink, model, guesses);
    Runtime runtime(engine);
    runtime.set_capture(options.capture);
    runtime.set_mutation(options.mutation);
    runtime.set_lkmm(model.kernel_events());
    RuntimeInstallation installation(runtime);
    engine.attach(runtime);
    if (pool != nullptr) engine.share(*pool, out.key, std::move(start));
    out.result = engine.run();
    if (pool != nullptr) {  // merged over the units by run_search()
        out.thin_air = engine.thin_air_hashes();
        out.thin_air_copies = engine.thin_air_copy_hashes();
    }
}

}  // namespace

ExploreResult run_search(const VariantDef& variant, const ExploreOptions& options, const MemoryModel& model,
                         const Guesses* guesses, unsigned ways, const std::function<ExecutionSink(unsigned)>& sink_of,
                         ShardDelivery* delivery) {
    if (ways <= 1) {
        UnitRun run;
        if (delivery != nullptr) delivery->start_unit(0, run.key);
        const ExecutionSink sink = sink_of(0);
        run_unit(variant, options, model, guesses, sink, nullptr, Graph{}, run);
        return std::move(run.result);
    }
    const auto start = std::chrono::steady_clock::now();
    WorkPool pool{Graph{}};
    std::vector<ExecutionSink> sinks;
    for (unsigned i = 0; i < ways; ++i) sinks.push_back(sink_of(i));
    std::mutex runs_m;
    std::vector<UnitRun> runs;
    const auto body = [&](unsigned thread) {
        while (auto unit = pool.take()) {
            UnitRun run;
            run.key = std::move(unit->first);
            if (delivery != nullptr) delivery->start_unit(thread, run.key);
            ExploreOptions o = options;
            o.threads = 1;
            // no progress lines: the caller's callback reads what its sink builds, which the sink
            // may be building on another thread (ShardDelivery past its cap)
            o.progress = nullptr;
            // the timeout is the whole search's: a unit begun late gets what is left of it
            if (options.timeout_seconds > 0)
                o.timeout_seconds = std::max(
                    options.timeout_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    1e-9);
            try {
                run_unit(variant, o, model, guesses, sinks[thread], &pool, std::move(unit->second), run);
                if (run.result.failure) pool.failed(run.key);
            } catch (...) {
                run.error = std::current_exception();
                pool.failed(run.key);
            }
            pool.done();
            const std::lock_guard<std::mutex> lock(runs_m);
            runs.push_back(std::move(run));
        }
    };
    {
        std::vector<std::jthread> workers;
        for (unsigned i = 1; i < ways; ++i) workers.emplace_back(body, i);
        body(0);
    }  // joined

    // in the search's order; the units after the first that failed are not the search's
    std::sort(runs.begin(), runs.end(), [](const UnitRun& a, const UnitRun& b) { return a.key < b.key; });
    std::size_t last = runs.size() - 1;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (runs[i].error || runs[i].result.failure) {
            last = i;
            break;
        }
    if (runs[last].error) std::rethrow_exception(runs[last].error);
    const bool failed = runs[last].result.failure.has_value();
    if (failed && delivery != nullptr) delivery->drop_after(runs[last].key);
    ExploreResult r = runs[0].result;
    std::unordered_set<std::uint64_t> thin_air, copies;
    r.executions = 0;
    r.blocked = 0;
    r.livelocked = 0;
    r.livelock_detail.clear();
    r.cut_short = false;
    r.cut_detail.clear();
    r.failure.reset();
    r.failure_detail.clear();
    for (std::size_t i = 0; i <= last; ++i) {
        const ExploreResult& s = runs[i].result;
        r.executions += s.executions;
        r.blocked += s.blocked;
        r.livelocked += s.livelocked;
        if (r.livelock_detail.empty()) r.livelock_detail = s.livelock_detail;
        r.cut_short = r.cut_short || s.cut_short;
        if (r.cut_detail.empty()) r.cut_detail = s.cut_detail;
        thin_air.insert(runs[i].thin_air.begin(), runs[i].thin_air.end());
        copies.insert(runs[i].thin_air_copies.begin(), runs[i].thin_air_copies.end());
    }
    r.thin_air = thin_air.size();
    r.thin_air_copies = copies.size();
    if (failed) {
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
    r.prefixes = 0;
    r.shard_prefixes = 0;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

ShardDelivery::ShardDelivery(
    const ExecutionSink& sink, unsigned threads, std::size_t cap, Overflow overflow,
    const std::function<std::shared_ptr<const void>(const ExecutionGraph&, const FinalState&)>& prepare)
    : sink_(sink), cap_(cap), overflow_(overflow), dedup_(threads > 1), prepare_(prepare), current_(threads, nullptr) {}

void ShardDelivery::start_unit(unsigned i, const UnitKey& key) {
    const std::lock_guard<std::mutex> lock(m_);
    units_.push_back(Unit{key, {}});
    current_[i] = &units_.back();
}

void ShardDelivery::drop_after(const UnitKey& key) {
    const std::lock_guard<std::mutex> lock(m_);
    drop_after_ = key;
}

void ShardDelivery::hand_on(const ExecutionGraph& g, const FinalState& fs) {
    if (dedup_ && fs.load_buffering && !cyclic_.insert(canonical_hash(g)).second) return;
    ++handed_;
    sink_(g, fs);
}

void ShardDelivery::keep(unsigned i, const ExecutionGraph& g, const FinalState& fs) {
    std::vector<Kept>& kept = current_[i]->kept;
    if (dropped_.load(std::memory_order_relaxed)) {
        if (!kept.empty()) std::vector<Kept>().swap(kept);
        return;
    }
    if (!past_cap_.load(std::memory_order_relaxed)) {
        std::size_t n = 0;
        for (std::size_t t = 0; t < g.thread_count(); ++t) n += g.thread(t).size();
        if (events_.fetch_add(n, std::memory_order_relaxed) + n > cap_) past_cap_.store(true, std::memory_order_relaxed);
    }
    if (past_cap_.load(std::memory_order_relaxed) && overflow_ == Overflow::Drop) {
        dropped_.store(true, std::memory_order_relaxed);
        std::vector<Kept>().swap(kept);
        return;
    }
    FinalState f = fs;
    if (dedup_ && prepare_) f.prepared = prepare_(g, f);  // on this shard's thread
    if (past_cap_.load(std::memory_order_relaxed)) {
        const std::lock_guard<std::mutex> lock(m_);
        hand_on(g, f);
        return;
    }
    kept.push_back(Kept{g, std::move(f)});
}

std::uint64_t ShardDelivery::finish() {
    const std::lock_guard<std::mutex> lock(m_);
    if (!dropped_.load()) {
        std::vector<Unit*> order;
        for (Unit& u : units_)
            if (!drop_after_ || !(*drop_after_ < u.key)) order.push_back(&u);
        std::stable_sort(order.begin(), order.end(), [](const Unit* a, const Unit* b) { return a->key < b->key; });
        for (const Unit* u : order)
            for (const Kept& k : u->kept) hand_on(k.graph, k.final);
    }
    units_.clear();
    return handed_;
}

}  // namespace oc::graph_detail
