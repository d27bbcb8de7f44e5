// SPDX-License-Identifier: MIT
// Hand-building execution graphs in tests: litmus-style, one call per event, steps in call order.
// Events carry a C++11 order (RC11's tests) or LKMM tags and dependencies (LKMM's tests).
#pragma once

#include "checker/memory_model/lkmm_tags.hpp"
#include "traces/execution_graph.hpp"

#include <string>
#include <vector>

namespace oc::test {

/// Dependencies of an event, as masks over the po indexes of earlier reads of its thread.
struct Deps {
    std::uint64_t addr = 0, data = 0, ctrl = 0;
};
/// The dependency mask "on the read `e`".
inline std::uint64_t on(EventId e) { return std::uint64_t{1} << e.index; }

/// Builds a graph event by event. Model threads are numbered from 0 (P0 = graph thread 1).
class GraphBuilder {
public:
    explicit GraphBuilder(std::vector<std::string> threads) { graph_.set_thread_names(std::move(threads)); }

    /// Declares a location and appends its init write (non-atomic, value `init`).
    LocationId location(std::string name, Value init = 0) {
        const LocationId loc = graph_.add_location(std::move(name));
        Event e;
        e.id.thread = EventId::init_thread;
        e.kind = EventKind::Write;
        e.order = MemoryOrder::NonAtomic;
        e.location = loc;
        e.written_value = init;
        inits_.push_back(graph_.append(e));
        return loc;
    }
    /// The init write of `loc`.
    EventId init(LocationId loc) const { return inits_.at(loc); }

    EventId write(unsigned thread, LocationId loc, Value v, MemoryOrder o = MemoryOrder::Relaxed) {
        return append_write(make(thread, EventKind::Write, o), loc, v);
    }
    EventId read(unsigned thread, LocationId loc, Value v, EventId from, MemoryOrder o = MemoryOrder::Relaxed) {
        return append_read(make(thread, EventKind::Read, o), loc, v, from);
    }
    EventId rmw(unsigned thread, LocationId loc, Value old_value, Value new_value, EventId from,
                MemoryOrder o = MemoryOrder::Relaxed) {
        return append_rmw(make(thread, EventKind::Rmw, o), loc, old_value, new_value, from);
    }
    EventId fence(unsigned thread, MemoryOrder o) { return graph_.append(make(thread, EventKind::Fence, o)); }

    // LKMM events: `tags` are bits of lkmm::Tag (0: a plain access), `deps` the event's addr, data
    // and ctrl dependencies. Their C++11 order, which the LKMM predicate does not read, is relaxed
    // for a marked access, non-atomic for a plain one and seq_cst for a fence.
    EventId lkmm_write(unsigned thread, LocationId loc, Value v, std::uint32_t tags, Deps deps = {}) {
        return append_write(make_lkmm(thread, EventKind::Write, tags, deps), loc, v);
    }
    EventId lkmm_read(unsigned thread, LocationId loc, Value v, EventId from, std::uint32_t tags, Deps deps = {}) {
        return append_read(make_lkmm(thread, EventKind::Read, tags, deps), loc, v, from);
    }
    EventId lkmm_rmw(unsigned thread, LocationId loc, Value old_value, Value new_value, EventId from,
                     std::uint32_t tags, Deps deps = {}) {
        return append_rmw(make_lkmm(thread, EventKind::Rmw, tags, deps), loc, old_value, new_value, from);
    }
    EventId lkmm_fence(unsigned thread, std::uint32_t tags) {
        Event e = make_lkmm(thread, EventKind::Fence, tags, {});
        e.order = MemoryOrder::SeqCst;
        return graph_.append(e);
    }
    /// spin_lock(l): an RMW 0 -> 1 tagged LKR+LKW.
    EventId spin_lock(unsigned thread, LocationId l, EventId from) {
        return lkmm_rmw(thread, l, 0, 1, from, lkmm::LockRmw);
    }
    /// spin_unlock(l): a write of 0 tagged UL.
    EventId spin_unlock(unsigned thread, LocationId l) { return lkmm_write(thread, l, 0, lkmm::Unlock); }

    /// Source spot and primitive for the next event appended.
    GraphBuilder& at(const char* file, std::uint32_t line, const char* primitive = "", std::uint32_t op = 0) {
        next_where_ = SourceSpot{file, line};
        next_primitive_ = primitive;
        next_op_ = op;
        return *this;
    }

    ExecutionGraph& graph() { return graph_; }
    const ExecutionGraph& graph() const { return graph_; }

private:
    Event make(unsigned thread, EventKind kind, MemoryOrder order) {
        Event e;
        e.id.thread = EventId::of_model_thread(thread);
        e.kind = kind;
        e.order = order;
        e.step = ++step_;
        e.where = next_where_;
        e.primitive = next_primitive_;
        e.op = next_op_;
        next_where_ = {};
        next_primitive_ = "";
        next_op_ = 0;
        return e;
    }
    Event make_lkmm(unsigned thread, EventKind kind, std::uint32_t tags, Deps deps) {
        Event e = make(thread, kind, tags == 0 ? MemoryOrder::NonAtomic : MemoryOrder::Relaxed);
        e.lkmm = tags;
        e.addr_deps = deps.addr;
        e.data_deps = deps.data;
        e.ctrl_deps = deps.ctrl;
        return e;
    }
    EventId append_write(Event e, LocationId loc, Value v) {
        e.location = loc;
        e.written_value = v;
        return graph_.append(e);
    }
    EventId append_read(Event e, LocationId loc, Value v, EventId from) {
        e.location = loc;
        e.read_value = v;
        e.reads_from = from;
        return graph_.append(e);
    }
    EventId append_rmw(Event e, LocationId loc, Value old_value, Value new_value, EventId from) {
        e.location = loc;
        e.read_value = old_value;
        e.written_value = new_value;
        e.reads_from = from;
        return graph_.append(e);
    }

    ExecutionGraph graph_;
    std::vector<EventId> inits_;
    std::uint32_t step_ = 0;
    SourceSpot next_where_;
    const char* next_primitive_ = "";
    std::uint32_t next_op_ = 0;
};

/// SB with relaxed accesses, the witness of the weak outcome: both reads from init.
/// P0: WRITE_ONCE(x, 1); r0 = READ_ONCE(y)  ||  P1: WRITE_ONCE(y, 1); r1 = READ_ONCE(x)
inline ExecutionGraph sb_relaxed_witness() {
    GraphBuilder b({"P0", "P1"});
    const LocationId x = b.location("x");
    const LocationId y = b.location("y");
    b.at("../models/litmus/sb.cpp", 31, "WRITE_ONCE", 1).write(0, x, 1);
    b.at("../models/litmus/sb.cpp", 36, "WRITE_ONCE", 1).write(1, y, 1);
    b.at("../models/litmus/sb.cpp", 32, "READ_ONCE", 2).read(0, y, 0, b.init(y));
    b.at("../models/litmus/sb.cpp", 37, "READ_ONCE", 2).read(1, x, 0, b.init(x));
    return b.graph();
}

/// An IRIW graph and its readers' fences.
struct IriwGraph {
    ExecutionGraph graph;
    EventId f1, f2;  ///< the seq_cst fences of P1 and P2
};

/// IRIW with a seq_cst fence between each reader's relaxed loads, the readers seeing the two
/// writes in opposite orders (RC11 forbids it: psc orders the fences both ways).
/// P0: x = 1  ||  P1: x == 1; F_sc; y == 0  ||  P2: y == 1; F_sc; x == 0  ||  P3: y = 1
inline IriwGraph iriw_sc_fences_weak_outcome() {
    GraphBuilder b({"P0", "P1", "P2", "P3"});
    const auto x = b.location("x");
    const auto y = b.location("y");
    const auto wx = b.write(0, x, 1);
    const auto wy = b.write(3, y, 1);
    b.read(1, x, 1, wx);
    const auto f1 = b.fence(1, MemoryOrder::SeqCst);
    b.read(1, y, 0, b.init(y));
    b.read(2, y, 1, wy);
    const auto f2 = b.fence(2, MemoryOrder::SeqCst);
    b.read(2, x, 0, b.init(x));
    return {b.graph(), f1, f2};
}

}  // namespace oc::test
