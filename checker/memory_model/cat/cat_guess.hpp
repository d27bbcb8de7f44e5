// SPDX-License-Identifier: MIT
// What a cat model says about load buffering: which of a thread's reads it orders before which of
// the thread's later writes in every execution that holds those events, decided from the model's
// own axioms (docs/cat.md, "Load buffering under a cat model").
//
// The graph engine lets a read guess a value that a write still to come will supply, and drops
// the guess when its thread ends with every later write of the thread ordered after the read
// (docs/lkmm.md, "Load buffering"). That is sound for a model with an axiom `acyclic X` where X
// holds every rf edge between two threads (possibly restricted to sets: [A] ; rfe ; [B]) and
// every ordered read-to-write link, and an axiom that forbids reading from a po-later write
// (acyclic over po-loc and rf): a po | rf cycle whose every link is ordered is then a cycle of X.
// The links are those of X itself, evaluated on a graph of the thread's events alone, without
// rf and co, through a copy of the model in which whatever could be larger there than in a
// complete execution is replaced by the empty relation; what is left is a lower bound of X.
#pragma once

#include <optional>
#include <string>

#include "checker/memory_model/cat/cat_ast.hpp"

namespace oc::cat {

/// The name the derived model binds the ordered links to: `[B] ; X ; [A]`.
inline constexpr const char* guess_order_name = "ordercheck: ordered links";

struct GuessOrder {
    /// The model's statements up to the chosen axiom, each `with` bound to the empty relation,
    /// every check dropped, every value that might not be a lower bound replaced by 0, and
    /// `guess_order_name` bound last. Its dialect is the model's; its program is not made here.
    Model derived;
    /// The chosen axiom's `as` name (linux-kernel.cat: happens-before) and the one that
    /// forbids reading from a po-later write (coherence).
    std::string axiom, coherence;
};

/// The derived model of `model`, or nullopt when no axiom qualifies (then the engine keeps its
/// rule of dependencies alone). Its value on a thread's graph is a lower bound of X over every
/// execution that holds that thread's events. `context_monotone`: over every execution whose
/// thread holds these events and any others besides (docs/cat.md, "Rules decided before a
/// thread ends"): what a probe thread of a few events links, every thread that holds them does.
std::optional<GuessOrder> guess_order(const Model& model, bool context_monotone = false);

}  // namespace oc::cat
