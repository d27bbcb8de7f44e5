// SPDX-License-Identifier: MIT
// The Relacy backend: a generic test suite that runs any VariantDef, an Engine over rl::atomic and
// rl::var whose values are tagged with the writing event, and an explorer (a tree-search
// scheduler with budgets). The only translation unit that includes Relacy.
#include "checker/relacy/explore.hpp"

// Every std header before relacy.hpp (relacy-notes.md §2.3).
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "checker/model/runtime.hpp"

#include <relacy/relacy.hpp>
#undef new
#undef delete

namespace oc {
namespace {

// ---- values stored in Relacy's atomics ------------------------------------------------------

/// A value plus the pack()ed id of the event that wrote it.
struct RlTagged {
    Value v = 0;
    std::uint64_t w = 0;
    RlTagged() = default;
    RlTagged(int zero) : v(zero) {}  // rl::var's constructor assigns 0
    RlTagged(Value value, std::uint64_t writer) : v(value), w(writer) {}
    // Relacy's CAS compares with ==: the value only, never the tag.
    friend bool operator==(RlTagged a, RlTagged b) { return a.v == b.v; }
    friend bool operator!=(RlTagged a, RlTagged b) { return a.v != b.v; }
    // Relacy computes fetch_OP as `old OP arg`: the argument carries the new write's tag.
    friend RlTagged operator+(RlTagged a, RlTagged b) { return {a.v + b.v, b.w}; }
    friend RlTagged operator-(RlTagged a, RlTagged b) { return {a.v - b.v, b.w}; }
    friend RlTagged operator&(RlTagged a, RlTagged b) { return {a.v & b.v, b.w}; }
    friend RlTagged operator|(RlTagged a, RlTagged b) { return {a.v | b.v, b.w}; }
    friend RlTagged operator^(RlTagged a, RlTagged b) { return {a.v ^ b.v, b.w}; }
    friend std::ostream& operator<<(std::ostream& s, RlTagged t) { return s << t.v; }
};

rl::memory_order to_rl(MemoryOrder o) {
    switch (o) {
    case MemoryOrder::NonAtomic:
    case MemoryOrder::Relaxed: return rl::mo_relaxed;
    case MemoryOrder::Acquire: return rl::mo_acquire;
    case MemoryOrder::Release: return rl::mo_release;
    case MemoryOrder::AcqRel: return rl::mo_acq_rel;
    case MemoryOrder::SeqCst: return rl::mo_seq_cst;
    }
    return rl::mo_seq_cst;
}

/// Gives access to Relacy's allocation switch: while it is non-zero, the replaced global
/// operator new/delete use malloc/free directly instead of Relacy's checked heap (whose every
/// free is a scheduling decision and whose blocks are leak-checked per execution).
struct AllocSwitch : rl::context {
    static int rl::context::*member() { return &AllocSwitch::disable_alloc_; }
};

/// A stream buffer that drops everything without allocating (Relacy's chatter goes here).
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == EOF ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// ---- per-exploration state (one exploration per process at a time) --------------------------

struct LocationSlot {
    alignas(rl::atomic<RlTagged>) unsigned char atomic[sizeof(rl::atomic<RlTagged>)];
    alignas(rl::var<RlTagged>) unsigned char plain[sizeof(rl::var<RlTagged>)];
    enum class Kind : unsigned char { None, Atomic, Plain } kind = Kind::None;
    rl::atomic<RlTagged>& as_atomic() { return *std::launder(reinterpret_cast<rl::atomic<RlTagged>*>(atomic)); }
    rl::var<RlTagged>& as_plain() { return *std::launder(reinterpret_cast<rl::var<RlTagged>*>(plain)); }
};

class RelacyEngine;

struct Exploration {
    const VariantDef* variant = nullptr;
    const ExploreOptions* options = nullptr;
    const ExecutionSink* sink = nullptr;
    RelacyEngine* engine = nullptr;
    Runtime* runtime = nullptr;
    std::array<LocationSlot, max_locations>* slots = nullptr;  // of the running suite
    std::uint64_t executions = 0;
    bool cut_short = false;
    std::chrono::steady_clock::time_point start;
    FinalState final_state;
    bool names_taken = false;
    std::vector<std::string> observable_names, metric_names;
};
Exploration g;

class RelacyEngine final : public Engine {
public:
    void create_atomic(LocationId loc, Tagged init) override {
        LocationSlot& s = slot(loc);
        ::new (static_cast<void*>(s.atomic)) rl::atomic<RlTagged>();
        s.kind = LocationSlot::Kind::Atomic;
        s.as_atomic().store(RlTagged{init.value, init.writer}, rl::mo_relaxed, $);
    }
    void create_plain(LocationId loc, Tagged init) override {
        LocationSlot& s = slot(loc);
        ::new (static_cast<void*>(s.plain)) rl::var<RlTagged>(RlTagged{init.value, init.writer});
        s.kind = LocationSlot::Kind::Plain;
    }
    Tagged load(LocationId loc, MemoryOrder order) override {
        const RlTagged t = atomic(loc).load(to_rl(order), $);
        return Tagged{t.v, t.w};
    }
    void store(LocationId loc, Tagged v, MemoryOrder order) override {
        atomic(loc).store(RlTagged{v.value, v.writer}, to_rl(order), $);
    }
    Tagged rmw(LocationId loc, RmwOp op, Tagged operand, MemoryOrder order) override {
        auto& a = atomic(loc);
        const RlTagged arg{operand.value, operand.writer};
        const rl::memory_order mo = to_rl(order);
        RlTagged old;
        switch (op) {
        case RmwOp::Exchange: old = a.exchange(arg, mo, $); break;
        case RmwOp::Add: old = a.fetch_add(arg, mo, $); break;
        case RmwOp::Sub: old = a.fetch_sub(arg, mo, $); break;
        case RmwOp::And: old = a.fetch_and(arg, mo, $); break;
        case RmwOp::Or: old = a.fetch_or(arg, mo, $); break;
        case RmwOp::Xor: old = a.fetch_xor(arg, mo, $); break;
        }
        return Tagged{old.v, old.w};
    }
    bool cas(LocationId loc, Tagged& expected, Tagged desired, MemoryOrder success, MemoryOrder failure) override {
        RlTagged e{expected.value, expected.writer};
        const bool ok = atomic(loc).compare_exchange_strong(e, RlTagged{desired.value, desired.writer},
                                                            to_rl(success), $, to_rl(failure), $);
        expected = Tagged{e.v, e.w};
        return ok;
    }
    void fence(MemoryOrder order) override { rl::atomic_thread_fence(to_rl(order), $); }
    Tagged plain_read(LocationId loc) override {
        const RlTagged t = plain(loc)($).load();
        return Tagged{t.v, t.w};
    }
    void plain_write(LocationId loc, Tagged v) override { plain(loc)($).store(RlTagged{v.value, v.writer}); }
    void yield() override { rl::yield(1, $); }
    [[noreturn]] void fail(const char* message) override {
        rl::ctx().fail_test(message, rl::test_result_user_assert_failed, $);
        std::abort();  // fail_test switches away from this fiber for good
    }
    unsigned current_thread() override { return rl::thread_index(); }
    void enter_host() override { rl::ctx().*AllocSwitch::member() += 1; }
    void leave_host() override { rl::ctx().*AllocSwitch::member() -= 1; }

private:
    LocationSlot& slot(LocationId loc) {
        if (loc >= max_locations) fail("the model declares more shared locations than the engine supports");
        return (*g.slots)[loc];
    }
    rl::atomic<RlTagged>& atomic(LocationId loc) { return slot(loc).as_atomic(); }
    rl::var<RlTagged>& plain(LocationId loc) { return slot(loc).as_plain(); }
};

/// Host-side bookkeeping bracket for code in this file.
struct Host {
    Host() { g.engine->enter_host(); }
    ~Host() { g.engine->leave_host(); }
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
    }

    void thread(unsigned index) { instance->run_thread(index); }

    void after() {
        Runtime& rt = *g.runtime;
        rt.run_quiescence_hooks();
        rt.set_phase(Phase::Final);
        Host host;
        FinalState& fs = g.final_state;
        fs.bad_outcome = instance->bad_outcome();
        fs.observables.clear();
        for (const auto& o : rt.observables()) fs.observables.push_back(o.read(o.self));
        fs.metrics.clear();
        for (const auto& m : rt.metrics()) fs.metrics.push_back(*m.value);
        if (!g.names_taken) {
            for (const auto& o : rt.observables()) g.observable_names.emplace_back(o.name);
            for (const auto& m : rt.metrics()) g.metric_names.emplace_back(m.name);
            g.names_taken = true;
        }
        ++g.executions;
        (*g.sink)(rt.graph(), fs);
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

/// Stops the search when a budget or the timeout is reached.
bool budget_exhausted() {
    const ExploreOptions& o = *g.options;
    if (o.max_executions != 0 && g.executions >= o.max_executions) return true;
    if (o.timeout_seconds > 0) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - g.start;
        if (elapsed.count() >= o.timeout_seconds) return true;
    }
    return false;
}

/// Exhaustive depth-first search over Relacy's decision tree (as rl::full_search_scheduler),
/// with an optional preemption bound (as rl::context_bound_scheduler) and budgets.
template <rl::thread_id_t N>
class Explorer
    : public rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N> {
public:
    using base_t = rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N>;
    using thread_info_t = typename base_t::thread_info_t;
    using shared_context_t = typename base_t::shared_context_t;

    Explorer(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {}

    rl::thread_id_t iteration_begin_impl() {
        switches_remain_ = bounded() ? g.options->context_bound : 0;
        return base_t::iteration_begin_impl();
    }
    bool can_switch(thread_info_t&) { return !bounded() || switches_remain_ != 0; }
    void on_switch(thread_info_t& t) {
        if (bounded() && t.state_ == rl::thread_state_running && switches_remain_ != 0) --switches_remain_;
    }
    double iteration_count_approx() { return 1.0; }

    bool iteration_end_impl() {
        if (budget_exhausted()) {
            // Stopped before the tree was exhausted, unless this was its last leaf.
            g.cut_short = !base_t::iteration_end_impl();
            return true;
        }
        return base_t::iteration_end_impl();
    }

private:
    static bool bounded() { return g.options->search == SearchKind::Bound; }
    unsigned switches_remain_ = 0;
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
    throw std::runtime_error("ordercheck: a model needs 2 to " + std::to_string(max_threads) + " threads");
}

}  // namespace

ExploreResult explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    static_assert(max_threads == 6, "run_threads() instantiates the suite for 2..6 threads");
    if (variant.instance_size > model_storage_size || variant.instance_align > alignof(std::max_align_t))
        throw std::runtime_error("ordercheck: model " + variant.id() + " is too large for the engine (" +
                                 std::to_string(variant.instance_size) + " bytes)");
    if (variant.thread_count() < 2 || variant.thread_count() > max_threads)
        throw std::runtime_error("ordercheck: model " + variant.id() + " has an unsupported thread count");

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

    rl::ostringstream state;
    const rl::test_result_e r = run_threads(variant.thread_count(), params, state, options.search);

    ExploreResult result;
    result.executions = g.executions;
    result.cut_short = g.cut_short;
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
    g = Exploration{};
    return result;
}

}  // namespace oc
