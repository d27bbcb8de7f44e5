// SPDX-License-Identifier: MIT
// C++11-level primitives a model is written with: atomics, plain shared variables (race-checked),
// fences, registers (observed final values), metrics and assertions. Kernel primitives
// (kernel.hpp) are built from these. Models never see the engine.
#pragma once

#include <functional>
#include <source_location>
#include <type_traits>

#include "checker/model/runtime.hpp"

namespace oc {

inline constexpr MemoryOrder relaxed = MemoryOrder::Relaxed;
inline constexpr MemoryOrder acquire = MemoryOrder::Acquire;
inline constexpr MemoryOrder release = MemoryOrder::Release;
inline constexpr MemoryOrder acq_rel = MemoryOrder::AcqRel;
inline constexpr MemoryOrder seq_cst = MemoryOrder::SeqCst;

/// Tag for shared locations whose final value belongs to the outcome (like herd's `x=1`).
struct Observed {};
inline constexpr Observed observed{};

/// An atomic shared location holding an integral (or bool/enum) value.
template <class T>
class Atomic {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "Atomic<T> holds integral values");

public:
    /// The location's id (LKMM's SRCU events name their srcu_struct by it).
    LocationId location() const { return loc_; }
    explicit Atomic(const char* name, T init = T{}, std::source_location where = std::source_location::current())
        : name_(name), loc_(runtime().add_location(name, true, static_cast<Value>(init), where)) {}
    Atomic(const char* name, T init, Observed, std::source_location where = std::source_location::current())
        : Atomic(name, init, where) {
        runtime().add_observable(ObservableSlot{name_, &Atomic::read_final, this});
    }
    Atomic(const Atomic&) = delete;
    Atomic& operator=(const Atomic&) = delete;

    T load(MemoryOrder mo, std::source_location where = std::source_location::current()) const {
        return static_cast<T>(runtime().load(loc_, mo, where));
    }
    void store(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        runtime().store(loc_, static_cast<Value>(v), mo, where);
    }
    T exchange(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::Exchange, static_cast<Value>(v), mo, where));
    }
    T fetch_add(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::Add, static_cast<Value>(v), mo, where));
    }
    T fetch_sub(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::Sub, static_cast<Value>(v), mo, where));
    }
    T fetch_and(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::And, static_cast<Value>(v), mo, where));
    }
    T fetch_or(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::Or, static_cast<Value>(v), mo, where));
    }
    T fetch_xor(T v, MemoryOrder mo, std::source_location where = std::source_location::current()) {
        return static_cast<T>(runtime().rmw(loc_, RmwOp::Xor, static_cast<Value>(v), mo, where));
    }
    /// Strong compare-and-exchange (never fails spuriously).
    bool compare_exchange(T& expected, T desired, MemoryOrder success, MemoryOrder failure,
                          std::source_location where = std::source_location::current()) {
        Value e = static_cast<Value>(expected);
        const bool ok = runtime().cas(loc_, e, static_cast<Value>(desired), success, failure, where);
        expected = static_cast<T>(e);
        return ok;
    }
    /// The value after every thread finished (only in bad_outcome() and final-state code).
    T final() const { return static_cast<T>(runtime().final_value(loc_, true)); }
    const char* name() const { return name_; }

private:
    static Value read_final(const void* self) {
        return static_cast<Value>(static_cast<const Atomic*>(self)->final());
    }
    const char* name_;
    LocationId loc_;
};

/// A plain (non-atomic) shared variable. Two accesses not ordered by happens-before, at least
/// one a write, are a data race, reported by the engine.
template <class T>
class Plain {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "Plain<T> holds integral values");

public:
    explicit Plain(const char* name, T init = T{}, std::source_location where = std::source_location::current())
        : name_(name), loc_(runtime().add_location(name, false, static_cast<Value>(init), where)) {}
    Plain(const char* name, T init, Observed, std::source_location where = std::source_location::current())
        : Plain(name, init, where) {
        runtime().add_observable(ObservableSlot{name_, &Plain::read_final, this});
    }
    Plain(const Plain&) = delete;
    Plain& operator=(const Plain&) = delete;

    T read(std::source_location where = std::source_location::current()) const {
        return static_cast<T>(runtime().plain_read(loc_, where));
    }
    void write(T v, std::source_location where = std::source_location::current()) {
        runtime().plain_write(loc_, static_cast<Value>(v), where);
    }
    T final() const { return static_cast<T>(runtime().final_value(loc_, false)); }
    const char* name() const { return name_; }

private:
    static Value read_final(const void* self) {
        return static_cast<Value>(static_cast<const Plain*>(self)->final());
    }
    const char* name_;
    LocationId loc_;
};

/// A thread-local register whose final value is part of the outcome (LKMM's `0:r0`).
class Reg {
public:
    explicit Reg(const char* name, Value init = 0) : name_(name), value_(init) {
        runtime().add_observable(ObservableSlot{name_, &Reg::read, this});
    }
    /// A register no final state shows (a litmus test's pointer parameter, which holds a fixed
    /// address and which herd never lists).
    struct Unobserved {};
    Reg(const char* name, Value init, Unobserved) : name_(name), value_(init) {}
    Reg(const Reg&) = delete;
    Reg& operator=(Value v) {
        value_ = v;
        return *this;
    }
    Reg& operator=(const Reg& other) {
        value_ = other.value_;
        return *this;
    }
    operator Value() const { return value_; }
    Value value() const { return value_; }
    const char* name() const { return name_; }

private:
    static Value read(const void* self) { return static_cast<const Reg*>(self)->value_; }
    const char* name_;
    Value value_;
};

/// A final-state observable computed from other final values (herd's `thr > N`), e.g.
/// `Derived over{"thr>N", [this] { return thr.final() > N; }};`. Read when the outcome is taken.
class Derived {
public:
    Derived(const char* name, std::function<Value()> fn) : fn_(std::move(fn)) {
        runtime().add_observable(ObservableSlot{name, &Derived::read, this});
    }
    Derived(const Derived&) = delete;
    Derived& operator=(const Derived&) = delete;

private:
    static Value read(const void* self) { return static_cast<const Derived*>(self)->fn_(); }
    std::function<Value()> fn_;
};

/// Code that runs at quiescence, after every thread has finished and before the final state is
/// read, as a continuation of model thread `thread` (its events are marked as quiescent). Hooks
/// run in declaration order, kernel::Work's pending executions among them. Use it for work the
/// kernel guarantees will eventually happen (a loop that goes on, a pending callback).
class AtQuiescence {
public:
    AtQuiescence(unsigned thread, std::function<void()> fn) : thread_(thread), fn_(std::move(fn)) {
        runtime().add_quiescence_hook(QuiescenceHook{&AtQuiescence::run, this});
    }
    AtQuiescence(const AtQuiescence&) = delete;
    AtQuiescence& operator=(const AtQuiescence&) = delete;

private:
    static void run(void* self) {
        auto* q = static_cast<AtQuiescence*>(self);
        runtime().set_quiescence_thread(q->thread_);
        q->fn_();
    }
    unsigned thread_;
    std::function<void()> fn_;
};

/// A per-execution count (works queued, RMWs issued...). Not shared memory: bumping it is
/// bookkeeping, invisible to the engine. Reported as min/max over all executions.
class Metric {
public:
    explicit Metric(const char* name) : name_(name) { runtime().add_metric(MetricSlot{name_, &value_}); }
    Metric(const Metric&) = delete;
    Metric& operator=(const Metric&) = delete;
    Metric& operator+=(Value v) {
        value_ += v;
        return *this;
    }
    Metric& operator++() {
        ++value_;
        return *this;
    }
    Value value() const { return value_; }

private:
    const char* name_;
    Value value_ = 0;
};

/// A C++11 fence (atomic_thread_fence).
inline void fence(MemoryOrder mo, std::source_location where = std::source_location::current()) {
    runtime().fence(mo, where);
}

/// Spin-loop hint: a spin loop calls it after each failed iteration. Every spin loop must be an
/// *await*: an iteration that fails has no effect the next one or another thread depends on
/// (docs/writing-models.md). Relacy runs the next iteration later; the graph engine blocks the
/// thread in that execution and finds the execution in which the iteration succeeds elsewhere.
inline void spin_yield() { runtime().yield(); }
/// Marks the start of one iteration of a spin loop (before its first read), so that the graph
/// engine knows which reads a waiting thread waits on (liveness: it waits forever when each of
/// them read the last write of its location).
inline void spin_iteration() { runtime().spin_iteration(); }

/// A model assertion: a violation ends the execution as an AssertFailed engine failure.
inline void require(bool condition, const char* message,
                    std::source_location where = std::source_location::current()) {
    if (!condition) runtime().fail(message, where);
}

/// LKMM dependencies of a C++ model (docs/writing-models.md, "Dependencies"): a model whose
/// struct says `static constexpr bool states_dependencies = true;` states every address, value
/// and branch that depends on a read with DependsOn. Under LKMM the graph engine explores load
/// buffering for every model, with the dependencies stated (none if the model states none). A
/// dependency the model leaves out errs towards alarms (LKMM orders less, so more outcomes are
/// allowed); one it states that the code does not have errs towards proofs.
enum class Dependency : std::uint8_t { Addr, Data, Ctrl };  ///< in the order of Runtime::dependencies()

/// A set of the running thread's reads, to depend on.
struct Reads {
    std::uint64_t mask = 0;  ///< bit i: the thread's read at po index i
    Reads operator|(Reads o) const { return Reads{mask | o.mask}; }
};

/// The running thread's most recent read (an RMW's read part counts): call it right after the
/// read whose value the later access depends on. Ends the execution with a model error before the
/// thread's first read, or for a read at po index 64 or later (dependencies are 64-bit masks).
inline Reads last_read(std::source_location where = std::source_location::current()) {
    const auto index = runtime().last_read();
    if (!index) runtime().fail("last_read(): the thread has not read anything yet", where);
    if (*index >= 64)
        runtime().fail("last_read(): a read at po index 64 or later (LKMM dependencies are 64-bit masks)", where);
    return Reads{std::uint64_t{1} << *index};
}

/// While alive, every access of the running thread depends on `reads` in the way `kind` says (on
/// top of any enclosing DependsOn): Ctrl around the accesses of a branch taken on a read value,
/// Data around a write of a value computed from reads, Addr around an access through a pointer
/// or index computed from reads.
class DependsOn {
public:
    DependsOn(Dependency kind, Reads reads) : saved_(runtime().dependencies()) {
        auto deps = saved_;
        deps[static_cast<std::size_t>(kind)] |= reads.mask;
        runtime().set_dependencies(deps[0], deps[1], deps[2]);
    }
    ~DependsOn() { runtime().set_dependencies(saved_[0], saved_[1], saved_[2]); }
    DependsOn(const DependsOn&) = delete;
    DependsOn& operator=(const DependsOn&) = delete;

private:
    std::array<std::uint64_t, 3> saved_;
};

/// Groups the events of one kernel-primitive call (RAII), so traces show `set_bit(map)` as
/// one operation even where it maps to several C++11 events.
class PrimitiveScope {
public:
    PrimitiveScope(const char* name, std::source_location where) { runtime().begin_primitive(name, where); }
    ~PrimitiveScope() { runtime().end_primitive(); }
    PrimitiveScope(const PrimitiveScope&) = delete;
    PrimitiveScope& operator=(const PrimitiveScope&) = delete;
};

}  // namespace oc
