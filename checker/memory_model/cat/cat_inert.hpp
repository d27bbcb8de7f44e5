// SPDX-License-Identifier: MIT
// Which events a cat model lets the graph engine add without asking it (MemoryModel's
// inert_when_last() and inert_as_sink()), decided from the model's own text (docs/cat.md,
// "Events the engine adds without asking").
//
// The engine adds one event at a time to a graph the model found consistent. An event e added
// last to its thread, with no rf, co or fr edge leading out of it (a fence; a read that reads
// from no write yet; a read of the co-latest write; a write placed co-latest that no read
// reads), leaves the graph consistent when no relation of the model leads out of e and none
// changes between the events that were there before. Whether that holds is decided by an
// abstract evaluation of the model for one such event: each set is known by whether e is in it
// (no, yes, maybe) and whether its other members may change; each relation by whether it may
// hold a pair that leaves e, one that enters e, the pair (e, e), and whether its pairs between
// the other events may change. The base relations are known from where e is (po only enters
// it, rf enters a read of the co-latest write...), the sets from e's tags (a probe graph of e
// alone, through the built-in sets), and every operator, function and least fixpoint of the
// model is followed. Whatever the walk cannot follow is "anything" (it then says no: the
// engine asks), never a guess.
#pragma once

#include "checker/memory_model/cat/cat_ast.hpp"
#include "traces/execution_graph.hpp"

namespace oc::cat {

/// Where the engine adds the event: last in its thread, with no rf (a fence, or a read that
/// reads from no write yet); or as a sink, last in its thread (a read of the co-latest write
/// of its location, or a write placed co-latest that no read reads).
enum class Place { Last, Sink };

/// Which graphs the answer is for: any, or those with no lock event (none of lock.cat's LKR,
/// LKW, UL, LF, RL, RU holds an event of the graph, e included), where lock.cat's additions
/// to rf, co, W and co0 are empty.
enum class Lock { Any, Free };

/// True when adding the event `e` of `probes` where `place` says, to any graph the model
/// finds consistent (of the kind `lock` says), leaves it consistent, for every axiom, `with`
/// and final rf/co check of `model`. `probes`: graphs in each of which `e` (the same EventId)
/// is the last event of its thread, as the built-in sets see it in each context it may have (a
/// fence after the RMW of its call has no tag under lkmmv2); a set holds e "yes" only when
/// every probe says so.
bool inert_event(const Model& model, const std::vector<ExecutionGraph>& probes, EventId e, Place place,
                 Lock lock = Lock::Any);

}  // namespace oc::cat
