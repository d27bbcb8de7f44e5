// SPDX-License-Identifier: MIT
// A memory model written in herd's cat language, as a MemoryModel the graph engine explores
// with: a bell file (herd's -bell: the events' vocabulary, linux-kernel.bell) and a cat file
// (linux-kernel.cat), parsed once, evaluated on every graph (cat_eval.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"
#include "checker/memory_model/memory_model.hpp"

namespace oc::cat {

struct Outcome;  // cat_eval.hpp

class CatModel final : public MemoryModel {
public:
    /// The model of `cat_path`, with the bell file `bell_path` ("" for none) evaluated before it.
    /// Throws CatError for a file that cannot be read or parsed, that declares tags the graph's
    /// events do not carry, or that fails to evaluate on an empty graph (a name that is not
    /// defined, an ill-typed expression): errors a search would otherwise meet midway.
    /// `variants`: a configuration's (cat_config.hpp), which select the `if VARIANT` branches and
    /// whether the events follow herd's lkmmv2 (Dialect).
    /// `compiled`: run its compiled form (cat_compile.hpp); false evaluates every expression (the
    /// reference the compiled form is tested against).
    static std::unique_ptr<CatModel> load(const std::string& cat_path, const std::string& bell_path = "",
                                          const Variants& variants = {}, bool compiled = true);
    /// The model of `bell` then `cat`, already parsed.
    CatModel(Model bell, Model cat, const Variants& variants = {}, bool compiled = true);
    /// How many of its top-level value bindings and checks (herd's prelude and cos-opt.cat's
    /// included) are compiled, and how many are evaluated (0, 0 when not compiled).
    std::pair<std::size_t, std::size_t> compiled_share() const;
    /// Whether it runs as a plan, every statement compiled (cat_plan.hpp), with no evaluator.
    bool planned() const;

    /// The cat file's title ("Linux-kernel memory consistency model").
    std::string_view name() const override { return title_; }
    /// `cat: CAT ("TITLE")`, with `, bell: BELL` when there is one (for a model load() read).
    std::string description() const override;
    const std::string& cat_path() const { return cat_path_; }
    const std::string& bell_path() const { return bell_path_; }
    /// Every axiom (acyclic, irreflexive, empty that is not a flag) holds, and every `with`
    /// finds the graph among its candidates.
    bool consistent(const ExecutionGraph& g) const override;
    /// On a graph with RCU or SRCU events consistent() asks the model without the axioms that
    /// depend on rcu-rscs or srcu-rscs (linux-kernel.cat's rcu axiom, and plain-coherence
    /// through rb), and this asks the whole model: a section that a reader's two reads around a
    /// grace period see on both sides breaks the rcu axiom on the engine's way to executions
    /// that keep it (memory_model.hpp). A model that names neither is asked whole each time.
    bool consistent_when_complete(const ExecutionGraph& g) const override;
    bool asks_when_complete() const override { return prefix_ != nullptr; }
    /// Decided from the model's text (cat_inert.hpp), once per kind of event: a fence, or a
    /// read that reads from no write yet, added last to its thread, leaves a consistent graph
    /// consistent (linux-kernel.cat: every fence but an RCU/SRCU unlock, every such read).
    bool inert_when_last(const Event& e) const override;
    /// The same for a read of the co-latest write, or a write placed co-latest that no read
    /// reads, added last to its thread (linux-kernel.cat: none, since lock.cat's co leaves a
    /// lock's write and its co0 names the final writes; rc11.cat: every such read and write).
    bool inert_as_sink(const Event& e) const override;
    bool inert_as_sink_without_locks(const Event& e) const override;
    /// The first failing axiom, named by its `as` name (else its expression's text).
    std::optional<AxiomViolation> check(const ExecutionGraph& g) const override;
    /// The first pair of the flag named "data-race" (linux-kernel.cat's) or of an undefined_unless
    /// check that fails (rc11.cat's Dr), nullopt if none fires.
    std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override;
    /// The flags that fire, by their `as` names, in the model's order.
    std::vector<std::string> flags(const ExecutionGraph& g) const override;
    /// Both from one evaluation of the whole model (the first failing axiom is the one check()
    /// names: the statements run in the same order).
    std::pair<std::optional<AxiomViolation>, std::vector<std::string>> check_and_flags(const ExecutionGraph& g,
                                                                                        bool with_flags) const override;
    /// True when the model declares the kernel's event tags (a bell file's enums: LKMM).
    bool kernel_events() const override { return kernel_; }
    /// Each evaluation builds its own environment from the immutable parsed files.
    bool concurrent() const override { return true; }
    /// The names the model's `let`s bind to values and herd's built-in relations.
    std::vector<std::string> relation_names() const override;
    /// From the model's own axioms (cat_guess.hpp): the links X orders on the thread's events,
    /// X the last acyclic axiom that holds rf between threads, when there is one and an acyclic
    /// axiom over po-loc and rf; nullopt otherwise.
    std::optional<std::vector<std::uint64_t>> ordered_links(const ExecutionGraph& thread_graph,
                                                            std::size_t t) const override;
    /// The axiom ordered_links() reads the links from ("" when it reads none).
    const std::string& guess_axiom() const { return derived().guess_axiom; }
    /// The reasons (`ordering::` bits) for which the model's context-monotone copy links a
    /// marked read to a later marked write on every probe thread of the reason (a dependency by
    /// address, data and control; smp_mb(), synchronize_rcu() and synchronize_srcu() between; a
    /// release write; an acquire read or RMW; a spin_lock() and a spin_unlock()), decided once,
    /// when first asked; none for a model that is not of the kernel's events.
    std::uint8_t orders() const override { return derived().orders; }
    /// The value of `name` at the end of the model, when it is a relation.
    std::optional<std::vector<std::pair<EventId, EventId>>> relation(const ExecutionGraph& g,
                                                                    std::string_view name) const override;

private:
    std::string title_;
    std::string cat_path_, bell_path_;  ///< as load() was given them ("" for a parsed model)
    Model model_;  ///< the bell's statements, then the cat's
    bool kernel_ = false;
    bool compiled_ = true;
    std::shared_ptr<const Model> prefix_;  ///< without the axioms over rcu-rscs, srcu-rscs (or null)
    /// What load buffering asks of the model (ordered_links(), orders()): derived from it when
    /// first asked, since a search whose text settles every read never asks (about half of the
    /// cost of loading linux-kernel.cat).
    struct Derived {
        std::shared_ptr<const Model> guess;  ///< cat_guess.hpp's derived model, compiled
        std::string guess_axiom;
        std::shared_ptr<const Model> probe;  ///< its context-monotone copy, for the probes
        std::uint8_t orders = 0;
    };
    mutable Derived derived_;
    mutable std::once_flag derived_once_;
    const Derived& derived() const;
    std::uint8_t probe_orders(const Model& probe) const;
    /// The AxiomViolation of an evaluation's first failing axiom, if any.
    std::optional<AxiomViolation> violation(const Outcome& o) const;
    /// inert_when_last() and inert_as_sink(), by what the built-in sets see of the event.
    bool inert(const Event& e, bool sink, bool lock_free = false) const;
    mutable std::shared_mutex inert_mutex_;
    mutable std::map<std::array<std::uintptr_t, 6>, bool> inert_;
    /// The links of `derived` (Derived::guess or ::probe) on graph thread `t` of `thread_graph`.
    std::vector<std::uint64_t> links_of(const Model& derived, const ExecutionGraph& thread_graph, std::size_t t) const;
};

}  // namespace oc::cat
