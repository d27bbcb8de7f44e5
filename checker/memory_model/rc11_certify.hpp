// SPDX-License-Identifier: MIT
// Certifies an execution graph against RC11 (herd's rc11.cat, with C++20 release sequences):
// every execution the engine reports must pass before it counts.
#pragma once

#include "traces/execution_graph.hpp"

#include <optional>
#include <string>
#include <vector>

namespace oc {

/// Why a graph is not an RC11-consistent execution.
struct AxiomViolation {
    /// The axiom, named as in rc11.cat: "well-formed", "coherence", "atomicity", "no-thin-air", "sc".
    std::string axiom;
    /// The offending cycle e0 -> e1 -> ... -> ek -> e0 as [e0, ..., ek], rotated to start at its
    /// smallest event. For "well-formed" the events involved, in no cyclic sense.
    std::vector<EventId> cycle;
    /// One sentence for humans.
    std::string explanation;
    friend bool operator==(const AxiomViolation&, const AxiomViolation&) = default;
};

/// The first violated well-formedness rule: every read has an rf source that is a write of its
/// location with the value read; each location's co list holds exactly its writes, once each.
std::optional<AxiomViolation> check_well_formed(const ExecutionGraph& g);

/// The first violated RC11 axiom, checked in this order: well-formed; coherence (irreflexive
/// hb;eco?, and irreflexive rmw;eco: an RMW reads from a write co-before it); atomicity (empty
/// rmw & fr;co); no-thin-air (acyclic po|rf); sc (acyclic psc). nullopt if consistent.
std::optional<AxiomViolation> check_rc11(const ExecutionGraph& g);

/// The name of the relation taking `from` to `to`: the base relations that hold ("rf", "co",
/// "fr", "po", "sw", comma-joined as in "rf,sw"), else a derived one with a shortest base path
/// ("psc (fr;po)"), else "?".
std::string relation_name(const ExecutionGraph& g, EventId from, EventId to);

/// Multi-line rendering of a violation: the axiom and explanation, then the cycle's events with
/// their labels and the relation between consecutive events.
std::string describe(const ExecutionGraph& g, const AxiomViolation& violation);

}  // namespace oc
