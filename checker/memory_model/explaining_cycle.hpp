// SPDX-License-Identifier: MIT
// The explaining cycle of a witness: why the bad outcome needs the barrier to be gone.
//
// A witness of a weakened program (necessity, a `--mutation`) keeps its weakened events with the
// order the program as written gives them (Event::weakened_from). Put that order back and the
// same execution graph is inconsistent: the memory model's violated axiom comes with a cycle of
// its relation (RC11's psc or hb;eco, LKMM's pb, hb, rb...). That cycle, spelled out as po, rf,
// co and fr steps through the restored barrier, is what the barrier breaks.
//
// A witness with nothing weakened (a mutant written without the barrier, a diff's new outcome)
// gets the cycle every non-SC execution has: po | rf | co | fr is cyclic exactly when no
// interleaving explains the execution, and some ordering on the cycle's po steps must forbid it.
// A sequentially consistent witness has no such cycle: no barrier can forbid that outcome.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/memory_model/memory_model.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

/// One step of the cycle: `from` -> `to` in a base relation as the model spells it ("po", "rf",
/// "co", "fr" under RC11; "po", "rfe", "rfi", "coe", "coi", "fre", "fri" under LKMM).
struct CycleStep {
    EventId from, to;
    std::string relation;
    bool barrier = false;  ///< a po step into or out of a restored barrier: the ordering it supplies
    friend bool operator==(const CycleStep&, const CycleStep&) = default;
};

struct ExplainingCycle {
    enum class Kind : std::uint8_t {
        Restored,  ///< the witness with its barrier restored violates `axiom` along the cycle
        NotSc,     ///< nothing was weakened: the cycle of po | com that makes the witness non-SC
        Sc,        ///< nothing was weakened and the witness is sequentially consistent: no cycle
    };
    Kind kind = Kind::Sc;
    std::string model;     ///< "RC11", "LKMM"
    std::string axiom;     ///< as the model names it: "sc", "coherence", "propagation"...; "" for Sc
    std::string relation;  ///< the relation the axiom constrains: "psc", "hb;eco", "pb", "po|com"...
    std::vector<CycleStep> steps;      ///< the cycle, step i ending where step i+1 starts
    std::vector<EventId> barriers;     ///< the restored events on the cycle
    std::vector<EventId> restored;     ///< every restored event (on the cycle or not)
    /// What the restored barrier contributes, in the model's terms ("strong-fence (mb)", "psc
    /// (an SC fence)", "sw (release)"...); empty when nothing was restored.
    std::string barrier_relation;
    /// The events of the cycle in order (each step's `from`).
    std::vector<EventId> events() const;
    friend bool operator==(const ExplainingCycle&, const ExplainingCycle&) = default;
};

/// `g` with every weakened event given back the order the program as written gives it (and, for
/// LKMM, the tags that order means).
ExecutionGraph restore_weakened(const ExecutionGraph& g);

/// The explaining cycle of the consistent witness `g` under `model` (see the file comment);
/// nullopt only for a Restored search that the memory model does not answer with a cycle (an
/// axiom with no cycle, such as LKMM's atomic), where `why` says what the model answered.
std::optional<ExplainingCycle> explaining_cycle(const ExecutionGraph& g, const MemoryModel& model,
                                                std::string* why = nullptr);

/// "R nr_items=0", "smp_mb__after_atomic", "set_bit(map) 0->1": an event as the cycle line names it
/// (a fence of no primitive by its order, `F.sc`, or its LKMM tags, `F[mb]`, as `vocabulary` says).
std::string cycle_event_name(const ExecutionGraph& g, const Event& e, Vocabulary vocabulary);

/// The words the cycle's model speaks: LKMM's tags under LKMM, C++11 orders otherwise.
inline Vocabulary vocabulary_of(const ExplainingCycle& c) {
    return c.model == "LKMM" ? Vocabulary::Lkmm : Vocabulary::Cpp11;
}

/// The cycle on one line: `W nr_items=1 ->po smp_mb__before_atomic ->po set_bit(map) 0->1 ->rfe ...`,
/// ending with the first event again; the restored barriers in brackets.
std::string cycle_line(const ExecutionGraph& g, const ExplainingCycle& c);

/// The axiom as a heading: "LKMM propagation (pb acyclic)", "not sequentially consistent
/// (po|com cyclic)".
std::string cycle_heading(const ExplainingCycle& c);

/// One paragraph of prose: which thread read which stale value, and which ordering forbids it.
std::string cycle_prose(const ExecutionGraph& g, const ExplainingCycle& c);

}  // namespace oc
