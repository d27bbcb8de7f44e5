// SPDX-License-Identifier: MIT
// The Relacy engine's adapter between the model runtime and Relacy: values stored in Relacy's
// atomics tagged with the writing event, the slots that hold each location's rl::atomic or
// rl::var, the per-exploration state, and the Engine that issues each model operation as the
// Relacy operation it stands for (publishing what each step touches for the reduction).
// Part of relacy_engine.cpp's translation unit: included by it after <relacy/relacy.hpp> and the
// headers it needs, never elsewhere. Relacy's process-wide state and its replaced operator new make
// the Relacy engine one translation unit (docs/relacy.md): this file only splits its text.
#pragma once

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

/// Host-side bookkeeping bracket for code in this translation unit.
struct Host {
    Host() { g.engine->enter_host(); }
    ~Host() { g.engine->leave_host(); }
};

}  // namespace
}  // namespace oc
