// SPDX-License-Identifier: MIT
// The memory model as a named predicate over execution graphs, separate from the engine that
// explores them. The graph engine asks `consistent()` of every graph it builds, prefixes
// included, and cuts a branch as soon as its graph is inconsistent; `check()` names the axiom a
// graph violates. RC11 is the first model; the kernel's (LKMM) plugs in here without touching
// the engine.
#pragma once

#include <optional>
#include <stdexcept>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "checker/memory_model/rc11_certify.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

/// Thrown by a memory model for a program it cannot judge (not an inconsistent graph: every graph
/// of the program is outside what the model describes). The graph engine ends the search with it
/// as the variant's failure (EngineFailure::Other), and the other variants of a command go on.
class ModelRefusal : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The reasons a memory model may order a marked read before a later marked write of its thread
/// (MemoryModel::orders()), as LKMM has them: the write depends on the read (address, data,
/// control); a strong fence between them (smp_mb(), synchronize_rcu(), synchronize_srcu()); the
/// write is a release (po-rel); the read is an acquire (acq-po); the write is a spin_unlock()
/// or the read a spin_lock()'s (lock.cat's release and acquire).
namespace ordering {
constexpr std::uint8_t dependency = 1, strong_fence = 2, release = 4, acquire = 8, locks = 16, all = 31;
}

class MemoryModel {
public:
    virtual ~MemoryModel() = default;
    /// The model's name as reports print it ("RC11").
    virtual std::string_view name() const = 0;
    /// What a report says judged: the name, or for a model read from files, those files
    /// (`cat: /path/linux-kernel.cat ("Linux-kernel memory consistency model")`).
    virtual std::string description() const { return std::string(name()); }
    /// True when `g` (complete or a prefix) satisfies every axiom of the model, but those
    /// consistent_when_complete() asks.
    virtual bool consistent(const ExecutionGraph& g) const = 0;
    /// The axioms consistent() leaves out, asked of a complete graph (the graph engine asks both
    /// before it hands an execution on). An axiom belongs here when a graph on the engine's way
    /// to an execution can violate it though the execution does not: the engine adds each read
    /// with the co-latest write and lets a later write revisit it, and a graph that breaks such
    /// an axiom would be cut with the revisits it leads to. LKMM's rcu axiom is one
    /// (lkmm_model.cpp). True unless the model says otherwise.
    virtual bool consistent_when_complete(const ExecutionGraph& /*g*/) const { return true; }
    /// Whether consistent_when_complete() may answer false (else the engine does not ask it).
    virtual bool asks_when_complete() const { return false; }
    /// Whether consistent_when_complete(g), answering true, found every axiom of the model to
    /// hold on `g` (FinalState::model_checked: certification need not ask them again).
    virtual bool whole_when_complete(const ExecutionGraph& /*g*/) const { return false; }
    /// True when `e`, a fence or a read that reads from no write yet (a load-buffering guess),
    /// added as the last event of its thread to a consistent graph, leaves it consistent: no
    /// relation of the model leads out of it until an event follows it in its thread, so it
    /// closes no cycle. The graph engine then does not ask consistent(). False (always ask)
    /// unless the model says otherwise.
    virtual bool inert_when_last(const Event& /*e*/) const { return false; }
    /// True when `e`, a read or a write (no RMW) added as the last event of its thread to a
    /// consistent graph, leaves it consistent whenever no rf, co or fr edge leads out of it: a
    /// read of the co-latest write of its location, or a write placed co-latest that no read
    /// reads. Every relation of the model then reaches it without leaving it, so it closes no
    /// cycle. The graph engine then does not ask consistent() about that choice. False (always
    /// ask) unless the model says otherwise.
    virtual bool inert_as_sink(const Event& /*e*/) const { return false; }
    /// The same for a graph that holds no lock event (no event tagged lkmm::LockRmw, Unlock,
    /// LockFail, ReadLocked or ReadUnlocked, e included): a model whose sinks are inert only
    /// there (a cat model with lock.cat) says so here; the engine asks it only of such graphs,
    /// after inert_as_sink() said no. False unless the model says otherwise.
    virtual bool inert_as_sink_without_locks(const Event& /*e*/) const { return false; }
    /// For load-buffering guesses under a model given as data (docs/cat.md, "Load buffering
    /// under a cat model"): `thread_graph` holds the events of graph thread `t` only, with no rf
    /// and no co; bit j of row i (i, j < 64) is set when the model orders the read at po index i
    /// before the write at j in every execution that holds these events, as the engine's guesses
    /// need it: a po | rf cycle whose every read-to-write link is so ordered breaks an axiom.
    /// nullopt when the model says nothing (the built-in models: the engine has their rules).
    virtual std::optional<std::vector<std::uint64_t>> ordered_links(const ExecutionGraph& /*thread_graph*/,
                                                                     std::size_t /*t*/) const {
        return std::nullopt;
    }
    /// For the load-buffering rules that decide before the model is asked, from the program
    /// text or from a thread's events (docs/lkmm.md, "Load buffering"; docs/cat.md, "Load
    /// buffering under a cat model"): the reasons (`ordering::` bits) for which the model orders
    /// a marked read before a later marked write of its thread, to another location, whatever
    /// else the thread does. The built-in LKMM orders for every reason (the engine has its
    /// rules); a cat model for those its probes show; none unless the model says so.
    virtual std::uint8_t orders() const { return 0; }
    /// The first violated axiom, nullopt when consistent (slower; for messages and tests).
    virtual std::optional<AxiomViolation> check(const ExecutionGraph& g) const = 0;
    /// A data race of the consistent graph `g` as the model defines it, nullopt if none.
    virtual std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const = 0;
    /// True when consistent(), inert_when_last(), inert_as_sink(), check(), race() and flags()
    /// may run on several threads at once (a graph-engine search shared by threads). False unless
    /// the model says so.
    virtual bool concurrent() const { return false; }
    /// True when the model judges the kernel's own events (LKMM): the runtime then records RCU
    /// and the before/after-atomic fences as LKMM defines them (Runtime::set_lkmm).
    virtual bool kernel_events() const { return false; }
    /// The flags the model raises on the consistent, complete graph `g` (herd's `flag`
    /// statements: LKMM's "data-race", "unbalanced-rcu-locking"...): warnings, not axioms.
    virtual std::vector<std::string> flags(const ExecutionGraph&) const { return {}; }
    /// check(g) and, with `with_flags`, flags(g): what certifying a complete execution asks.
    /// A model that computes both in one pass says so here (a cat model evaluates itself once).
    virtual std::pair<std::optional<AxiomViolation>, std::vector<std::string>> check_and_flags(const ExecutionGraph& g,
                                                                                                bool with_flags) const {
        std::optional<AxiomViolation> v = check(g);
        return {std::move(v), with_flags ? flags(g) : std::vector<std::string>{}};
    }
    /// The relations relation() draws, by the names the model's own files give them (LKMM's
    /// "ppo", "hb", "pb", "rb"...; a cat model's `let`s); none unless the model says otherwise.
    virtual std::vector<std::string> relation_names() const { return {}; }
    /// The pairs of events of the relation called `name` over the consistent graph `g` (an RMW's
    /// read and write parts one event, so pairs within it are left out); nullopt when the model
    /// defines no such relation. For figures (`explain --show ppo,pb`).
    virtual std::optional<std::vector<std::pair<EventId, EventId>>> relation(const ExecutionGraph& /*g*/,
                                                                            std::string_view /*name*/) const {
        return std::nullopt;
    }
};

/// RC11 (Lahav et al., PLDI 2017; herd's rc11.cat with C++20 release sequences), the axioms
/// checker/memory_model/rc11_certify.hpp certifies, computed over bit-matrix relations: coherence, atomicity,
/// no-thin-air (po | rf acyclic) and sc (psc acyclic).
const MemoryModel& rc11_model();

/// The Linux-kernel memory model (checker/memory_model/lkmm.hpp).
const MemoryModel& lkmm_model();

/// Sequential consistency: acyclic po | rf | co | fr (a subset of both RC11 and LKMM). Not a
/// model to judge variants by; `explain` asks it whether a bad outcome needs reordering at all.
const MemoryModel& sc_model();

/// The memory model called `name` ("rc11", "lkmm", "sc", case-insensitive), or a registered one
/// whose description() is `name`; nullptr if there is none.
const MemoryModel* find_memory_model(std::string_view name);

/// Makes `model` (one loaded at run time, which outlives every report) findable by its
/// description(), as reports name it.
void register_memory_model(const MemoryModel& model);

}  // namespace oc
