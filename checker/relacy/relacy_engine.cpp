// SPDX-License-Identifier: MIT
// The Relacy backend: a generic test suite that runs any VariantDef, an Engine over rl::atomic and
// rl::var whose values are tagged with the writing event, and an explorer (a tree-search
// scheduler with sleep-set partial-order reduction, prefix sharding, budgets and progress). The
// only translation unit that includes Relacy.
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

// ---- what a step touches (partial-order reduction) -------------------------------------------
//
// A *step* is what one thread runs between two of Relacy's scheduling points: the operation it
// was parked on (an atomic access, an SC fence or a yield), then its local code up to its next
// scheduling point, including rl::var accesses and acquire/release fences, which are not
// scheduling points. Two steps of different threads are independent when running them in either
// order leaves Relacy in the same state: in Relacy, an atomic access reads and updates only its
// location's history and its own thread's clocks (docs/relacy.md), a plain access only its
// location's value and race-detection clocks, an acquire or release fence only its own thread's
// clocks, and an SC fence its thread's clocks and one hidden global that only SC fences touch.
// A yield reads and changes every thread's scheduling priority: it is dependent with everything,
// and so is any decision the reduction does not classify.

struct Footprint {
    std::uint64_t reads = 0;   ///< bit l: reads location l
    std::uint64_t writes = 0;  ///< bit l: writes location l (an RMW or a CAS counts as a write)
    bool sc_fence = false;
    bool everything = false;

    void add(const Footprint& o) {
        reads |= o.reads;
        writes |= o.writes;
        sc_fence = sc_fence || o.sc_fence;
        everything = everything || o.everything;
    }
};

bool independent(const Footprint& a, const Footprint& b) {
    if (a.everything || b.everything) return false;
    if (a.sc_fence && b.sc_fence) return false;
    return (a.writes & (b.reads | b.writes)) == 0 && (b.writes & a.reads) == 0;
}

/// Sleeping threads, each with the footprint of the step it would take.
struct SleepSet {
    std::uint32_t mask = 0;
    std::array<Footprint, relacy_max_threads> step{};

    bool contains(unsigned t) const { return (mask >> t & 1u) != 0; }
    void insert(unsigned t, const Footprint& f) {
        mask |= 1u << t;
        step[t] = f;
    }
    void merge(const SleepSet& o) {
        for (unsigned t = 0; t < relacy_max_threads; ++t)
            if (o.contains(t)) insert(t, o.step[t]);
    }
    /// Wakes every sleeper whose step does not commute with `executed`.
    void wake_dependent(const Footprint& executed) {
        for (unsigned t = 0; t < relacy_max_threads; ++t)
            if (contains(t) && !independent(step[t], executed)) mask &= ~(1u << t);
    }
};

/// Filled by the engine: the operation each thread is parked on, and the running step so far.
struct StepTracker {
    bool active = false;  ///< reduction on and model threads running (not before()/after())
    std::array<Footprint, relacy_max_threads> pending{};  ///< a thread that has not started: nothing
    Footprint step;

    void reset() {
        active = false;
        pending.fill(Footprint{});
        step = Footprint{};
    }
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

    // search configuration and accounting (see Explorer)
    bool reduction = false;
    unsigned shard_index = 0, shard_count = 1;
    bool enumerating = false;  ///< enumerating shard prefixes: executions are not counted
    StepTracker steps;
    std::uint64_t iterations = 0, redundant = 0, enumeration_iterations = 0;
    std::uint64_t prefixes = 0, shard_prefixes = 0;
    unsigned prefix_depth = 0;
    double fraction = 0;
    std::uint64_t random_executions = 1;  ///< executions the random search draws
    std::chrono::steady_clock::time_point last_progress;
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
        park_on(access(loc, false));
        const RlTagged t = atomic(loc).load(to_rl(order), $);
        return Tagged{t.v, t.w};
    }
    void store(LocationId loc, Tagged v, MemoryOrder order) override {
        park_on(access(loc, true));
        atomic(loc).store(RlTagged{v.value, v.writer}, to_rl(order), $);
    }
    Tagged rmw(LocationId loc, RmwOp op, Tagged operand, MemoryOrder order) override {
        park_on(access(loc, true));
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
        park_on(access(loc, true));
        RlTagged e{expected.value, expected.writer};
        const bool ok = atomic(loc).compare_exchange_strong(e, RlTagged{desired.value, desired.writer},
                                                            to_rl(success), $, to_rl(failure), $);
        expected = Tagged{e.v, e.w};
        return ok;
    }
    void fence(MemoryOrder order) override {
        if (order == MemoryOrder::Relaxed) return;  // a removed barrier's placeholder: orders nothing
        // Only the SC fence is a scheduling point (and touches shared state); the others change
        // their own thread's clocks within the running step.
        if (order == MemoryOrder::SeqCst) {
            Footprint f;
            f.sc_fence = true;
            park_on(f);
        }
        rl::atomic_thread_fence(to_rl(order), $);
    }
    Tagged plain_read(LocationId loc) override {
        touch(access(loc, false));
        const RlTagged t = plain(loc)($).load();
        return Tagged{t.v, t.w};
    }
    void plain_write(LocationId loc, Tagged v) override {
        touch(access(loc, true));
        plain(loc)($).store(RlTagged{v.value, v.writer});
    }
    void yield() override {
        Footprint f;
        f.everything = true;
        park_on(f);
        rl::yield(1, $);
    }
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

    static Footprint access(LocationId loc, bool write) {
        Footprint f;
        const std::uint64_t bit = std::uint64_t{1} << (loc % max_locations);
        (write ? f.writes : f.reads) = bit;
        return f;
    }
    /// Publishes the operation the running thread is about to park on (at the scheduling point
    /// inside the Relacy call that follows); it runs when the thread is next scheduled.
    static void park_on(const Footprint& f) {
        if (g.steps.active) g.steps.pending[rl::thread_index()] = f;
    }
    /// An access that runs within the current step (no scheduling point).
    static void touch(const Footprint& f) {
        if (g.steps.active) g.steps.step.add(f);
    }
};

/// Host-side bookkeeping bracket for code in this file.
struct Host {
    Host() { g.engine->enter_host(); }
    ~Host() { g.engine->leave_host(); }
};

/// Stops the search when a budget or the timeout is reached, or the command is stopped.
bool budget_exhausted() {
    const ExploreOptions& o = *g.options;
    if (o.max_executions != 0 && g.executions >= o.max_executions) return true;
    if (stop_cause() != StopCause::None) return true;  // interrupted, or the command's deadline
    if (o.timeout_seconds > 0) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - g.start;
        if (elapsed.count() >= o.timeout_seconds) return true;
    }
    return false;
}

/// Calls the progress sink when its interval has passed (from between two iterations).
void maybe_report_progress() {
    const ExploreOptions& o = *g.options;
    if (!o.progress || (g.iterations & 15u) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - g.last_progress).count() < o.progress_interval) return;
    g.last_progress = now;
    Host host;
    ExploreProgress p;
    p.interleavings = g.iterations;
    p.executions = g.executions;
    p.elapsed_seconds = std::chrono::duration<double>(now - g.start).count();
    p.fraction = g.fraction;
    o.progress(p);
}

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

[[noreturn]] void non_deterministic(std::size_t depth, unsigned count, int type, unsigned limit, int now_type) {
    std::fprintf(stderr,
                 "ordercheck: the model is not deterministic: decision %zu had %u choices of kind %d when it "
                 "was first explored and %u of kind %d on replay (static state, ::rand or addresses?)\n",
                 depth, count, type, limit, now_type);
    std::abort();
}

/// Exhaustive depth-first search over Relacy's decision tree (as rl::full_search_scheduler),
/// with, optionally:
///  - a preemption bound (as rl::context_bound_scheduler);
///  - sleep-set partial-order reduction (Full search): at each scheduling decision, a thread
///    whose next step commutes with every step run since an equivalent interleaving began is
///    asleep and is not scheduled there (Godefroid's sleep sets, over the footprints above). A
///    run in which every runnable thread is asleep is redundant: it is finished along one path
///    (Relacy cannot abandon an execution) and counted as such;
///  - prefix sharding: the decisions before the k-th scheduling decision form a prefix; a first
///    pass enumerates the prefixes (with the same sleep sets), then the shard explores the
///    subtrees of its prefixes (every shard_count-th), starting from the sleep set the
///    unsharded search would have there. Together the shards run exactly the unsharded search;
///  - budgets, and a mixed-radix estimate of the fraction done for progress reports.
template <rl::thread_id_t N>
class Explorer : public rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N> {
public:
    using base_t = rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N>;
    using thread_info_t = typename base_t::thread_info_t;
    using shared_context_t = typename base_t::shared_context_t;
    using node_t = typename base_t::stree_node;

    Explorer(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {
        reduction_ = g.reduction;
        if (g.shard_count > 1) {
            mode_ = Mode::Enumerate;
            g.enumerating = true;
        }
    }

    // ---- the CRTP hooks context_impl and the bases call ----

    rl::thread_id_t iteration_begin_impl() {
        switches_remain_ = bounded() ? g.options->context_bound : 0;
        this->stree_depth_ = 0;
        sleep_ = SleepSet{};
        blocked_ = false;
        sched_decisions_ = 0;
        beyond_prefix_ = false;
        prefix_applied_ = false;
        chosen_node_ = npos;
        step_node_ = npos;
        g.steps.reset();
        // tree_search_scheduler::iteration_begin_impl would call its own rand_impl (unqualified
        // call in a base: docs/relacy.md, "A scheduler of one's own"), bypassing ours.
        const unsigned index = rand_impl(this->running_threads_count, rl::sched_type_sched);
        const rl::thread_id_t th = this->running_threads[index];
        begin_step(th);
        return th;
    }

    rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned yield) {
        end_step(yield != 0);
        chosen_node_ = npos;
        const rl::thread_id_t th = base_t::schedule_impl(reason, yield);
        begin_step(th);
        return th;
    }

    unsigned rand_impl(unsigned limit, rl::sched_type type) {
        const bool sched = type == rl::sched_type_sched;
        // A decision inside a step that is neither a thread choice nor a stale-read choice
        // (memory reuse, spurious failures, user choices): not classified, so not commuted.
        if (!sched && type != rl::sched_type_atomic_load) g.steps.step.everything = true;
        if (mode_ == Mode::Enumerate) {
            if (beyond_prefix_) return 0;  // below the prefix: any path, not recorded
            if (sched && sched_decisions_ == prefix_depth_) {
                beyond_prefix_ = true;
                deeper_ = true;
                boundary_sleep_ = sleep_;
                boundary_blocked_ = blocked_;
                return 0;
            }
        }
        const std::size_t d = this->stree_depth_;
        if (mode_ == Mode::Prefixes && d == frozen_ && !prefix_applied_) apply_prefix();
        this->stree_depth_ = d + 1;
        if (sched) ++sched_decisions_;
        return d < this->stree_.size() ? replay(d, limit, type) : fresh(d, limit, type);
    }

    bool iteration_end_impl() {
        end_step(false);
        if (mode_ == Mode::Prefixes && !prefix_applied_) apply_prefix();
        if (mode_ == Mode::Enumerate) return end_enumeration_iteration();
        ++g.iterations;
        if (blocked_) ++g.redundant;
        bool more = backtrack(frozen_);
        if (!more && mode_ == Mode::Prefixes) more = next_prefix();
        g.fraction = fraction_done();
        maybe_report_progress();
        if (more && budget_exhausted()) {
            g.cut_short = true;
            return true;
        }
        return !more;
    }

    bool can_switch(thread_info_t&) { return !bounded() || switches_remain_ != 0; }
    void on_switch(thread_info_t& t) {
        if (bounded() && t.state_ == rl::thread_state_running && switches_remain_ != 0) --switches_remain_;
    }
    double iteration_count_approx() { return 1.0; }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    enum class Mode : std::uint8_t { Search, Enumerate, Prefixes };

    /// What the search keeps per decision, parallel to stree_.
    struct NodeMeta {
        bool tracked = false;  ///< a thread choice under the reduction (not a frozen prefix node)
        std::array<rl::thread_id_t, relacy_max_threads> run{};  ///< choice index -> thread
        SleepSet sleep;        ///< asleep on entry
        SleepSet explored;     ///< children done, with the union of their first steps' footprints
        Footprint child;       ///< union of the current child's first-step footprints so far
    };
    struct Prefix {
        typename rl::vector<node_t>::type nodes;
        SleepSet sleep;        ///< the sleep set where the prefix ends
        bool blocked = false;  ///< every runnable thread was asleep within the prefix
    };

    static bool bounded() { return g.options->search == SearchKind::Bound; }

    void begin_step(rl::thread_id_t th) {
        // A thread run because it was the only runnable one (no decision): if it sleeps, every
        // runnable thread sleeps, and the run is redundant from here on.
        if (reduction_ && !blocked_ && chosen_node_ == npos && sleep_.contains(th)) blocked_ = true;
        step_node_ = chosen_node_;
        g.steps.step = g.steps.pending[th];
    }

    void end_step(bool yielded) {
        Footprint& s = g.steps.step;
        if (yielded) s.everything = true;
        if (reduction_ && !blocked_) {
            if (step_node_ != npos) meta_[step_node_].child.add(s);
            sleep_.wake_dependent(s);
        }
        s = Footprint{};
        step_node_ = npos;
    }

    int first_awake(const NodeMeta& m, unsigned from, unsigned count) const {
        for (unsigned j = from; j < count; ++j)
            if (!m.sleep.contains(m.run[j])) return static_cast<int>(j);
        return -1;
    }

    unsigned replay(std::size_t d, unsigned limit, rl::sched_type type) {
        const node_t& n = this->stree_[d];
        if (n.count_ != limit || n.type_ != type) non_deterministic(d, n.count_, n.type_, limit, type);
        const NodeMeta& m = meta_[d];
        if (m.tracked && !blocked_) {
            sleep_ = m.sleep;
            sleep_.merge(m.explored);
            chosen_node_ = d;
        }
        return n.index_;
    }

    unsigned fresh(std::size_t d, unsigned limit, rl::sched_type type) {
        NodeMeta m;
        unsigned index = blocked_ ? limit - 1 : 0;  // blocked: an exhausted node, never revisited
        if (type == rl::sched_type_sched && reduction_ && !blocked_) {
            m.tracked = true;
            for (unsigned j = 0; j < limit && j < relacy_max_threads; ++j) m.run[j] = this->running_threads[j];
            m.sleep = sleep_;
            const int first = first_awake(m, 0, limit);
            if (first < 0) {
                blocked_ = true;
                m.tracked = false;
                index = limit - 1;
            } else {
                index = static_cast<unsigned>(first);
                chosen_node_ = d;
            }
        }
        node_t n = {limit, index, type, 0};
        this->stree_.push_back(n);
        meta_.push_back(m);
        return index;
    }

    /// Moves to the next unexplored leaf above depth `floor`; false when there is none.
    bool backtrack(std::size_t floor) {
        for (std::size_t i = this->stree_.size(); i > floor; --i) {
            node_t& n = this->stree_[i - 1];
            NodeMeta& m = meta_[i - 1];
            int next = -1;
            if (m.tracked) {
                next = first_awake(m, n.index_ + 1, n.count_);
                if (next >= 0) {
                    m.explored.insert(m.run[n.index_], m.child);
                    m.child = Footprint{};
                }
            } else if (n.index_ + 1 < n.count_) {
                next = static_cast<int>(n.index_ + 1);
            }
            if (next >= 0) {
                n.index_ = static_cast<unsigned>(next);
                this->stree_.resize(i);
                meta_.resize(i);
                return true;
            }
        }
        return false;
    }

    /// Mixed-radix position of the next leaf: a monotone estimate of the fraction done.
    double fraction_done() const {
        double f = 0, w = 1;
        for (std::size_t i = frozen_; i < this->stree_.size(); ++i) {
            w /= this->stree_[i].count_;
            f += this->stree_[i].index_ * w;
        }
        if (mode_ != Mode::Prefixes) return f;
        if (mine_.empty()) return 1;
        return (static_cast<double>(next_mine_ - 1) + f) / static_cast<double>(mine_.size());
    }

    // ---- sharding ----

    bool end_enumeration_iteration() {
        ++g.enumeration_iterations;
        Prefix p;
        p.nodes.assign(this->stree_.begin(), this->stree_.end());
        p.sleep = beyond_prefix_ ? boundary_sleep_ : SleepSet{};
        p.blocked = beyond_prefix_ ? boundary_blocked_ : blocked_;
        prefixes_.push_back(p);
        if (backtrack(0)) return false;
        // Enough prefixes for a fair split? Otherwise enumerate one decision deeper.
        const std::size_t wanted = 16u * g.shard_count;
        if (prefixes_.size() < wanted && deeper_ && prefix_depth_ < max_prefix_depth) {
            ++prefix_depth_;
            deeper_ = false;
            prefixes_.clear();
            this->stree_.clear();
            meta_.clear();
            return false;
        }
        g.enumerating = false;
        g.prefixes = prefixes_.size();
        g.prefix_depth = prefix_depth_;
        for (std::size_t i = g.shard_index; i < prefixes_.size(); i += g.shard_count) mine_.push_back(i);
        g.shard_prefixes = mine_.size();
        mode_ = Mode::Prefixes;
        return !next_prefix();
    }

    bool next_prefix() {
        if (next_mine_ == mine_.size()) return false;
        const Prefix& p = prefixes_[mine_[next_mine_++]];
        this->stree_.assign(p.nodes.begin(), p.nodes.end());
        meta_.assign(p.nodes.size(), NodeMeta{});
        frozen_ = p.nodes.size();
        current_ = &p;
        return true;
    }

    /// At the end of the frozen prefix: continue as the unsharded search would.
    void apply_prefix() {
        prefix_applied_ = true;
        sleep_ = current_->sleep;
        blocked_ = blocked_ || current_->blocked;
    }

    bool reduction_ = false;
    Mode mode_ = Mode::Search;
    unsigned switches_remain_ = 0;
    std::vector<NodeMeta, rl::raw_allocator<NodeMeta>> meta_;
    SleepSet sleep_;                   ///< asleep now
    bool blocked_ = false;             ///< every runnable thread was asleep: a redundant run
    std::size_t chosen_node_ = npos;   ///< the tracked decision that chose the next step's thread
    std::size_t step_node_ = npos;     ///< the tracked decision that started the running step
    unsigned sched_decisions_ = 0;     ///< thread choices recorded in this iteration

    // sharding
    static constexpr unsigned max_prefix_depth = 64;
    unsigned prefix_depth_ = 1;        ///< thread choices per prefix
    bool deeper_ = false;              ///< some path of this pass went past the prefix depth
    bool beyond_prefix_ = false;
    SleepSet boundary_sleep_;
    bool boundary_blocked_ = false;
    std::vector<Prefix, rl::raw_allocator<Prefix>> prefixes_;
    std::vector<std::size_t, rl::raw_allocator<std::size_t>> mine_;
    std::size_t next_mine_ = 0;
    std::size_t frozen_ = 0;           ///< stree_ nodes fixed by the current prefix
    const Prefix* current_ = nullptr;
    bool prefix_applied_ = false;
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
    }
    return result;
}

}  // namespace oc
