// SPDX-License-Identifier: MIT
// The Relacy engine's partial-order reduction, without Relacy: what a step touches (its footprint),
// when two steps commute, sleep sets, and the running step's footprint as the engine fills it.
// Included by relacy_engine.cpp before <relacy/relacy.hpp> (every std header comes first).
#pragma once

#include <array>
#include <cstdint>

#include "checker/relacy/relacy_engine.hpp"

namespace oc {
namespace {

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

}  // namespace
}  // namespace oc
