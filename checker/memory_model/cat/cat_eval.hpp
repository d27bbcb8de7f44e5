// SPDX-License-Identifier: MIT
// The evaluator of a parsed cat model (cat_parser.hpp) over one execution graph: every `let` in
// order, over bit matrices (BitRel) of the graph's nodes (lkmm::Nodes: an RMW is two nodes),
// from the built-in sets and relations of cat_builtins.hpp.
//
// What herd enumerates and ordercheck's graph engine chooses: `with x from S` binds x to the
// candidate of S that the graph is, that is the graph's rf | co restricted to the edges S's
// candidates may hold; when no candidate is that, the graph is no execution of the model (the
// check "with x" fails). herd's library files are not read: stdlib.cat's definitions are a
// prelude of the evaluator's own (po-loc, rfe, rfi, co0, fencerel, singlestep, emptyset), cross.cat's
// `cross` and stdlib's `map` are built-in functions, and cos-opt.cat (which generates co) is
// replaced by `with co from` the total orders of each location's writes that extend co0,
// followed by the relations cos-opt.cat defines (coi, coe, fr, fri, fre). At the end, the
// model's rf and co must be the graph's own (the check "the graph's rf" / "the graph's co"):
// lock.cat computes a lock read's rf from co, and the graph must have read what the model says.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "traces/execution_graph.hpp"

namespace oc::cat {

/// How much to evaluate: up to the first failing axiom (consistency of every prefix the engine
/// builds), the whole model (flags of a complete graph), or the whole model and every binding
/// whether a check needs it or not (a model just loaded: its errors now, not midway through a
/// search). A top-level `let` is evaluated when a check or a flag first needs it.
enum class Goal { FirstViolation, Everything, Validate };

struct Outcome {
    lkmm::Nodes nodes;
    /// The first axiom (acyclic/irreflexive/empty that is not a flag, or a `with`) that fails.
    std::optional<std::string> violated;
    /// Its relation when it is a relation (for the cycle of an acyclic check).
    std::optional<BitRel> violated_relation;
    /// The flags that fire, in the model's order, each once.
    std::vector<std::string> flags;
    /// Those of them that are `undefined_unless` checks (herd: undefined behaviour).
    std::vector<std::string> undefined;
    /// Per flag that fires and whose expression is a relation: its first pair (node numbers).
    std::vector<std::pair<std::string, std::pair<std::size_t, std::size_t>>> flag_pairs;
    /// Per name evaluate() was asked for: its value at the end of the model when it is a
    /// relation (the empty value: the empty relation), else nullopt (a set, a function, unbound).
    std::vector<std::pair<std::string, std::optional<BitRel>>> wanted;
};

/// What a check statement is (Stmt's fields of a check).
struct CheckKind {
    const std::string& name;
    bool flag, negated, undefined;
};
/// The verdict of a check whose test gave `holds` (before its negation) on the relation `r`
/// (nullopt: a set), into `out`: a flag that fires is recorded once by its name (among the
/// undefined ones too for an undefined_unless check) with the first pair of `r`; an axiom that
/// fails becomes the violated one unless one failed before. Returns true when an axiom failed.
bool judge(Outcome& out, const CheckKind& c, bool holds, std::optional<BitRel> r);

/// Evaluates `model` over `g`. Throws CatError for a model that is ill-typed or names what is
/// not defined (at the position of the offending expression).
Outcome evaluate(const Model& model, const ExecutionGraph& g, Goal goal, const std::vector<std::string>& want = {});

/// Compiles `model` for its dialect (Model::program): the evaluations that follow run its
/// compiled operations. Call it again after the dialect changes.
void prepare(Model& model);

/// The names the model's `let`s bind to values (not functions), its includes' too, in order.
std::vector<std::string> let_names(const Model& model);

/// Checks, without a graph, that the model's enum declarations name only tags that the graph's
/// events carry (cat_builtins.hpp); throws CatError otherwise. True when the model declares any.
bool check_enums(Model& model);

}  // namespace oc::cat
