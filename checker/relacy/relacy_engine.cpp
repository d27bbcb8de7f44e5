// SPDX-License-Identifier: MIT
// The Relacy backend: a generic test suite that runs any VariantDef, an Engine over rl::atomic and
// rl::var whose values are tagged with the writing event, and an explorer (a tree-search
// scheduler with sleep-set partial-order reduction, prefix sharding, budgets and progress). The
// only translation unit that includes Relacy. Its text is split in files of their own: the adapter
// (relacy_adapter.hpp) and the scheduler (relacy_scheduler.hpp) are parts of this translation unit,
// not headers for others (Relacy's process-wide state and its replaced operator new make the
// engine one translation unit); the sleep sets, which need no Relacy, are in sleep_sets.hpp. This
// file holds the test suite Relacy runs and the driver.
#include "checker/relacy/relacy_engine.hpp"

// Every std header before relacy.hpp (docs/relacy.md, "Include order and macros").
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include "checker/model/runtime.hpp"
#include "checker/relacy/sleep_sets.hpp"

#include <relacy/relacy.hpp>
#undef new
#undef delete

#include "checker/relacy/relacy_adapter.hpp"
#include "checker/relacy/relacy_scheduler.hpp"

namespace oc {
namespace {

/// A stream buffer that drops everything without allocating (Relacy's chatter goes here).
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == EOF ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

constexpr std::size_t model_storage_size = 32 * 1024;

/// The generic test suite: Relacy constructs it anew for every execution.
template <rl::thread_id_t N>
struct Suite : rl::test_suite<Suite<N>, N> {
    std::array<LocationSlot, max_locations> slots;
    alignas(std::max_align_t) unsigned char storage[model_storage_size];
    ModelInstance* instance = nullptr;

    Suite() { g.slots = &slots; }

    void before() {
        g.runtime->begin_execution(g.variant->thread_names);
        instance = g.variant->construct(storage);
        g.runtime->set_phase(Phase::Threads);
        g.steps.active = g.reduction;
    }

    void thread(unsigned index) { instance->run_thread(index); }

    void after() {
        g.steps.active = false;
        Runtime& rt = *g.runtime;
        rt.run_quiescence_hooks();
        rt.set_phase(Phase::Final);
        Host host;
        if (!g.names_taken) {
            for (const auto& o : rt.observables()) g.observable_names.emplace_back(o.name);
            for (const auto& m : rt.metrics()) g.metric_names.emplace_back(m.name);
            g.names_taken = true;
        }
        if (g.enumerating) return;
        FinalState& fs = g.final_state;
        fs.bad_outcome = instance->bad_outcome();
        fs.filtered_out = instance->filtered_out();
        fs.observables.clear();
        for (const auto& o : rt.observables()) fs.observables.push_back(o.read(o.self));
        fs.metrics.clear();
        for (const auto& m : rt.metrics()) fs.metrics.push_back(*m.value);
        fs.spin_failures = rt.spin_failures();
        ++g.executions;
        (*g.sink)(rt.graph(), fs);
        if (g.options->search == SearchKind::Random) {  // Relacy's own scheduler: report from here
            g.iterations = g.executions;
            g.fraction = static_cast<double>(g.executions) / static_cast<double>(g.random_executions);
            maybe_report_progress();
        }
    }

    ~Suite() {
        if (instance != nullptr) {
            Host host;
            instance->~ModelInstance();
        }
        for (auto& s : slots) {
            if (s.kind == LocationSlot::Kind::Atomic) s.as_atomic().~atomic();
            if (s.kind == LocationSlot::Kind::Plain) s.as_plain().~var();
        }
    }
};

EngineFailure to_failure(rl::test_result_e r) {
    switch (r) {
    case rl::test_result_data_race: return EngineFailure::DataRace;
    case rl::test_result_deadlock: return EngineFailure::Deadlock;
    case rl::test_result_livelock: return EngineFailure::Livelock;
    case rl::test_result_user_assert_failed:
    case rl::test_result_user_invariant_failed: return EngineFailure::AssertFailed;
    case rl::test_result_unitialized_access: return EngineFailure::UninitialisedAccess;
    default: return EngineFailure::Other;
    }
}

template <rl::thread_id_t N>
rl::test_result_e run_with(rl::test_params& params, std::ostream& state, SearchKind search) {
    if (search == SearchKind::Random) return rl::run_test<Suite<N>, rl::random_scheduler<N>>(params, state, false);
    return rl::run_test<Suite<N>, Explorer<N>>(params, state, false);
}

rl::test_result_e run_threads(unsigned n, rl::test_params& params, std::ostream& state, SearchKind search) {
    switch (n) {
    case 2: return run_with<2>(params, state, search);
    case 3: return run_with<3>(params, state, search);
    case 4: return run_with<4>(params, state, search);
    case 5: return run_with<5>(params, state, search);
    case 6: return run_with<6>(params, state, search);
    default: break;
    }
    throw std::runtime_error("ordercheck: a model needs 2 to " + std::to_string(relacy_max_threads) + " threads");
}

ExploreResult explore_once(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                           bool& enumeration_failed) {
    RelacyEngine engine;
    Runtime runtime(engine);
    runtime.set_capture(options.capture);
    runtime.set_mutation(options.mutation);
    RuntimeInstallation installation(runtime);
    g = Exploration{};
    g.variant = &variant;
    g.options = &options;
    g.sink = &sink;
    g.engine = &engine;
    g.runtime = &runtime;
    g.start = std::chrono::steady_clock::now();
    g.last_progress = g.start;
    g.reduction = options.reduction && options.search == SearchKind::Full;
    g.shard_index = options.shard_index;
    g.shard_count = options.shard_count;

    NullBuffer null_buffer;
    std::ostream null_stream(&null_buffer);
    rl::test_params params;
    params.search_type = options.search == SearchKind::Random ? rl::sched_random
                         : options.search == SearchKind::Bound ? rl::sched_bound
                                                              : rl::sched_full;
    params.iteration_count = options.search == SearchKind::Random
                                 ? (options.max_executions != 0 ? std::min(options.max_executions, options.random_executions)
                                                                : options.random_executions)
                                 : 0;
    params.context_bound = options.context_bound;
    params.output_stream = &null_stream;
    params.progress_stream = &null_stream;
    params.collect_history = false;
    params.test_name = variant.id();

    g.random_executions = std::max<std::uint64_t>(1, params.iteration_count);
    rl::ostringstream state;
    const rl::test_result_e r = run_threads(variant.thread_count(), params, state, options.search);

    ExploreResult result;
    result.engine = EngineKind::Relacy;
    result.executions = g.executions;
    result.cut_short = g.cut_short;
    enumeration_failed = r != rl::test_result_success && g.enumerating;
    if (r != rl::test_result_success) {
        result.failure = to_failure(r);
        std::string detail = rl::test_result_str(r);
        if (!runtime.failure_message().empty()) detail += ": " + runtime.failure_message();
        const std::string pending = runtime.pending_accesses();
        if (!pending.empty() && r == rl::test_result_data_race) detail += " (" + pending + ")";
        result.failure_detail = detail;
        result.failure_graph = runtime.graph();
        result.replay = std::string(state.str().c_str());
    }
    result.completed = !result.failure && !result.cut_short;
    result.observable_names = g.observable_names;
    result.metric_names = g.metric_names;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - g.start).count();
    // Every iteration but a failing one ends in after(); the random scheduler keeps no count.
    const std::uint64_t completed = options.search == SearchKind::Random ? g.executions : g.iterations;
    result.interleavings = completed + (result.failure && !enumeration_failed ? 1 : 0);
    result.redundant = g.redundant;
    result.reduction = g.reduction;
    result.fraction = result.completed ? 1.0 : g.fraction;
    result.shard_index = options.shard_index;
    result.shard_count = options.shard_count;
    result.prefix_depth = g.prefix_depth;
    result.prefixes = g.prefixes;
    result.shard_prefixes = g.shard_prefixes;
    result.enumeration_iterations = g.enumeration_iterations;
    g = Exploration{};
    return result;
}

}  // namespace

ExploreResult relacy_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    static_assert(relacy_max_threads == 6, "run_threads() instantiates the suite for 2..6 threads");
    static_assert(relacy_max_threads <= 32 && max_locations <= 64, "sleep sets and footprints are bit masks");
    if (variant.instance_size > model_storage_size || variant.instance_align > alignof(std::max_align_t))
        throw std::runtime_error("ordercheck: model " + variant.id() + " is too large for the engine (" +
                                 std::to_string(variant.instance_size) + " bytes)");
    if (variant.thread_count() < 2 || variant.thread_count() > relacy_max_threads)
        throw std::runtime_error("ordercheck: model " + variant.id() + " has " + std::to_string(variant.thread_count()) +
                                 " threads; Relacy runs 2 to " + std::to_string(relacy_max_threads) +
                                 " (the graph engine runs up to " + std::to_string(max_threads) + ")");
    if (options.shard_count == 0 || options.shard_index >= options.shard_count)
        throw std::invalid_argument("ordercheck: shard " + std::to_string(options.shard_index) + "/" +
                                    std::to_string(options.shard_count) + " does not exist");
    if (options.shard_count > 1 && options.search == SearchKind::Random)
        throw std::invalid_argument("ordercheck: only the full and the bounded search can be sharded");

    bool enumeration_failed = false;
    ExploreResult result = explore_once(variant, options, sink, enumeration_failed);
    if (enumeration_failed) {
        // Some prefix's path fails: the prefixes are unknown. Shard 0 takes the whole tree, the
        // others nothing, which keeps the union of the shards exactly the unsharded search.
        const double enumeration_seconds = result.seconds;
        if (options.shard_index == 0) {
            ExploreOptions whole = options;
            whole.shard_index = 0;
            whole.shard_count = 1;
            result = explore_once(variant, whole, sink, enumeration_failed);
        } else {
            result = ExploreResult{};
            result.completed = true;
            result.fraction = 1;
        }
        result.seconds += enumeration_seconds;
        result.shard_index = options.shard_index;
        result.shard_count = options.shard_count;
        result.whole_tree_in_shard_zero = true;
        result.whole_tree_why = "the prefix enumeration met an engine failure";
    }
    return result;
}

}  // namespace oc
