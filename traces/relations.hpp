// SPDX-License-Identifier: MIT
// Derived relations of an execution graph, each a free function opened by its cat definition.
// Reference: herd's rc11.cat (Lahav et al., "Repairing sequential consistency in C/C++11",
// PLDI 2017), with C++20 release sequences (P0982: no same-thread continuation).
// Conventions: graph thread 0 holds the init writes, which are po-before (hence hb-before)
// every other event; an RMW is one event, so cat's `rmw` is the identity [RMW].
#pragma once

#include "traces/execution_graph.hpp"
#include "traces/relation.hpp"

#include <functional>
#include <vector>

namespace oc {

/// The events satisfying `pred`, sorted.
std::vector<EventId> events_where(const ExecutionGraph& g, const std::function<bool(const Event&)>& pred);
/// True for events whose order is not NonAtomic (fences included).
inline bool is_atomic(const Event& e) { return e.order != MemoryOrder::NonAtomic; }
/// loc: both events access the same location (fences access none).
bool same_location(const ExecutionGraph& g, EventId a, EventId b);

/// po = same thread, earlier index | (IW * ~IW)   (init writes precede all other events)
Relation po(const ExecutionGraph& g);
/// po_imm = the transitive reduction of po: consecutive events of a thread, plus the last init
/// write to each thread's first event.
Relation po_imm(const ExecutionGraph& g);
/// po_loc = po & loc
Relation po_loc(const ExecutionGraph& g);

/// rf = {(w, r) | r.reads_from == w}
Relation rf(const ExecutionGraph& g);
/// rfe = rf & ext  (different threads; init writes are external to every thread)
Relation rfe(const ExecutionGraph& g);
/// rfi = rf & int
Relation rfi(const ExecutionGraph& g);

/// co = the per-location coherence lists, as a strict total order per location (transitive)
Relation co(const ExecutionGraph& g);
/// co_imm = immediate co successors (co \ co;co)
Relation co_imm(const ExecutionGraph& g);
/// coe = co & ext
Relation coe(const ExecutionGraph& g);

/// fr = (rf^-1 ; co) \ id   (the \ id keeps an RMW from being fr-before itself)
Relation fr(const ExecutionGraph& g);
/// fr_imm = fr \ (fr ; co): each read to the co-first write it is fr-before
Relation fr_imm(const ExecutionGraph& g);
/// fre = fr & ext
Relation fre(const ExecutionGraph& g);

/// rmw = [RMW]: RMWs are single events, so cat's rmw is this identity
Relation rmw(const ExecutionGraph& g);
/// The atomicity violations rmw & (fr ; co), as pairs (rmw event, write co-between its source and it)
Relation rmw_atomicity_violations(const ExecutionGraph& g);
/// True if no write intervenes in co between the write an RMW reads from and the RMW.
bool rmw_atomicity(const ExecutionGraph& g);

/// rs = [W & ~NA] ; (rf ; [RMW])*   (C++20 release sequence: RMW chains only)
Relation rs(const ExecutionGraph& g);
/// sw = [REL | ACQ_REL | SC] ; ([F] ; po)? ; rs ; rf ; [R & ~NA] ; (po ; [F])? ; [ACQ | ACQ_REL | SC]
Relation sw(const ExecutionGraph& g);
/// hb = (po | sw)+   (init writes hb-before all other events, through po)
Relation hb(const ExecutionGraph& g);
/// eco = (rf | co | fr)+
Relation eco(const ExecutionGraph& g);

/// scb = po | (po \ loc) ; hb ; (po \ loc) | (hb & loc) | co | fr
Relation scb(const ExecutionGraph& g, const Relation& hb);
/// psc_base = ([SC] | [F & SC] ; hb?) ; scb ; ([SC] | hb? ; [F & SC])
Relation psc_base(const ExecutionGraph& g, const Relation& hb);
/// psc_f = [F & SC] ; (hb | hb ; eco ; hb) ; [F & SC]
Relation psc_f(const ExecutionGraph& g, const Relation& hb, const Relation& eco);
/// psc = psc_base | psc_f   (RC11 requires it acyclic)
Relation psc(const ExecutionGraph& g, const Relation& hb, const Relation& eco);
/// psc computed from scratch (hb and eco derived here).
Relation psc(const ExecutionGraph& g);

}  // namespace oc
