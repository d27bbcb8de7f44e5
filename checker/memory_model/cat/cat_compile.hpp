// SPDX-License-Identifier: MIT
// A cat model compiled once, when it is loaded, to typed operations on bit relations and node
// sets (cat_eval.hpp evaluates it on each graph). The compiler follows the evaluator's walk of
// the statements (herd's prelude, the model with its includes, cos-opt.cat) and resolves every
// name where it is written: a top-level name becomes the number of the binding it means (the
// evaluator's top-level bindings are numbered in the same order), a function of the model is
// inlined where it is applied, a local `let` or `let rec` becomes a slot of the operation that
// binds it. What the compiled form covers, the first-order part of the language (sets and
// relations with | & \ ; * + ? ^-1 ~ [S], cartesian products, domain, range,
// different-values, fencerel-like functions, try, let, let rec), is nearly all of a memory
// model: every axiom and relation of linux-kernel.cat and rc11.cat. The rest (map, cross,
// tuples, set literals, `with`, functions passed as values) stays with the evaluator, which
// also reports every error: an expression the compiler finds ill-typed is left to it.
//
// Evaluated, each operation writes a buffer of its own, kept from one graph to the next on the
// thread (no allocation once the buffers have the graph's size), where the evaluator allocated
// a value for every intermediate result. `[S] ; r` and `r ; [S]` restrict r's rows or columns
// instead of composing with an identity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "traces/execution_graph.hpp"

namespace oc::cat {

/// herd's stdlib.cat as the evaluator defines it, and cos-opt.cat's replacement (cat_eval.hpp).
const Model& prelude();
const Model& cos_opt();

/// The static type of a compiled expression: `0` is Empty until the context makes it a set or
/// a relation (as the evaluator's empty value).
enum class Ty : std::uint8_t { Empty, Set, Rel };

struct Op {
    enum class K : std::uint8_t {
        Top,          ///< the value of top-level binding `ref` (the evaluator supplies it)
        Local,        ///< local slot `ref`
        Zero,         ///< the empty set or relation
        Union, Inter, Diff,
        Seq,          ///< a ; b
        DomRestrict,  ///< [a] ; b (a: a set)
        RanRestrict,  ///< a ; [b] (b: a set)
        Cart,         ///< a * b
        Star, Plus, Opt, Inverse,
        Complement,   ///< ~a (of a set: within the builtin `_`, binding `ref`)
        Identity,     ///< [a]
        Domain, Range,
        DiffValues,   ///< different-values(a)
        Let,          ///< slots[k] = binds[k] in order, then a
        Rec,          ///< slots[k] start empty; binds[k] in order until none changes; then a (-1: none)
    };
    K k;
    Ty ty;
    /// Computed once per graph (Buffers::done): it writes its own buffer, and its value cannot
    /// change while one graph is evaluated (it reads no `let rec` slot, whose value changes
    /// from one round of the fixed point to the next, directly or through a `let` slot). Next
    /// to the kind, in the cache line every run of the operation reads.
    bool once = false;
    int a = -1, b = -1;
    std::uint32_t ref = 0;
    std::vector<int> slots, binds;
    Pos pos;  ///< Rec: of its first binding (the error when no fixed point is reached)
};

/// One statement of a model compiled whole (Program::planned), in the order the evaluator
/// walks them; what a step reads is compiled, so that no scope of the evaluator is needed.
struct Step {
    enum class K : std::uint8_t {
        Check,    ///< a check statement: `a` its operation (-1: the empty value)
        Orders,   ///< `with x from total-orders(S, r)`: a = S's operation, b = r's (-1: empty)
        Choices,  ///< `with x from cross(map (fun e -> map (fun p -> p ++ 0) (R(e))) S)`:
                  ///< a = S's operation, b = R with {e} read as S (one column per e of S)
        Rec,      ///< a top-level `let rec` of values: a = its Rec operation
    };
    K k = K::Check;
    int a = -1, b = -1;
    std::uint32_t seq = 0;  ///< the top-level binding it makes (Rec: its first)
    Stmt::Test test = Stmt::Test::Acyclic;  ///< Check, as the statement's
    bool flag = false, negated = false, undefined = false;
    std::string name;  ///< Check: the `as` name; Orders, Choices: the bound name
};

/// What evaluating an operation reads of it, for every operation in one array of 16-byte entries
/// (Op, with its slots and position, is eight times that). Filled by finish().
struct HotOp {
    Op::K k;
    Ty ty;
    bool once;
    /// Its value depends on the graph's events alone: on the builtin sets and the builtin
    /// relations but rf, co and fr, not on what the graph's reads take or its writes write. An
    /// Op::once one is kept with the events it was computed for (Buffers::by_events).
    bool events_only;
    int a, b;
    std::uint32_t ref;
};

struct Program {
    std::uint64_t id = 0;  ///< unique among the programs of the process (Buffers knows whose it holds)
    std::vector<Op> ops;
    std::vector<HotOp> hot;  ///< per operation, as ops (finish())
    /// Per top-level number: 1 where the binding's value depends on the graph's events alone
    /// (the builtin sets, the builtin relations but rf, co and fr), as HotOp::events_only.
    std::vector<std::uint8_t> events_only_top;
    std::vector<Ty> slot_ty;  ///< per local slot
    /// Per top-level binding, by its number (the evaluator's seq, from 1): what made it (the
    /// Binding or `with` Stmt; the builtins and natives: nullptr), so that the evaluator checks
    /// its own numbering against the compiler's, and its compiled operation (-1: evaluated).
    std::vector<const void*> origin;
    std::vector<int> code;
    /// A top-level `let rec` of values, by the number of its first binding: its Rec operation,
    /// whose slots are the bindings' values in order.
    std::unordered_map<std::uint32_t, int> rec;
    /// Per check statement, in the order the walk meets them: its expression's operation (-1: evaluated).
    std::vector<int> checks;
    std::size_t compiled = 0, evaluated = 0;  ///< top-level value bindings and checks of each kind
    /// Every statement is compiled: a step (`steps`) or a binding of compiled values. Such a
    /// model is run by run_plan() (cat_plan.hpp), with no evaluator.
    bool planned = false;
    std::vector<Step> steps;
    std::size_t builtin_sets = 0, builtin_rels = 0;  ///< top-level numbers 1.. are theirs, sets first
    /// The top-level bindings of rf and co at the end of the model (0: none), which must be the
    /// graph's own (cat_eval.hpp), and their types.
    std::uint32_t final_rf = 0, final_co = 0;
    Ty final_rf_ty = Ty::Empty, final_co_ty = Ty::Empty;
};

/// Compiles `model` (its statements after herd's prelude), whose builtins are `builtin_sets`
/// and `builtin_rels` (their names in the evaluator's order), followed by the evaluator's natives.
std::shared_ptr<const Program> compile(const Model& model, const std::vector<std::string>& builtin_sets,
                                       const std::vector<std::string>& builtin_rels,
                                       const std::vector<std::string>& natives);

/// Marks the operations of `p` computed once per graph (Op::once; finish() calls it).
void mark_once(Program& p);

/// Readies a compiled program to run (compile() calls it): marks the operations computed once
/// per graph, makes every operand, binding, check and step that names a compiled top-level
/// binding (an Op::K::Top with an operation in `code`) name that operation instead, which is
/// what the Top operation evaluates to, and fills `hot`.
void finish(Program& p);

/// What a compiled operation reads that the evaluator holds.
class TopValues {
public:
    virtual ~TopValues() = default;
    /// The value of top-level binding `seq` (forced), a relation or a set as the compiler typed
    /// it; nullptr for the evaluator's empty value; a type error otherwise (at `pos`).
    virtual const BitRel* rel(std::uint32_t seq, const Pos& pos) = 0;
    virtual const lkmm::NodeSet* set(std::uint32_t seq, const Pos& pos) = 0;
};

/// The values of a program's HotOp::events_only operations computed on graphs with the same
/// events (the same builtin sets and relations but rf, co and fr: `key`).
struct EventsEntry {
    std::vector<std::uint64_t> key;
    std::uint64_t hash = 0;
    std::uint64_t used = 0;           ///< when last used (Buffers::uses), for eviction
    std::vector<std::uint8_t> done;   ///< per operation: 0 not computed, 1 in `rels`/`sets`, 2 empty (Buffers::zero)
    std::vector<BitRel> rels;
    std::vector<lkmm::NodeSet> sets;
};

/// The buffers of a program's operations and slots, kept on a thread from one graph to the next.
struct Buffers {
    std::uint64_t program = 0;  ///< the id of the program they are shaped for
    std::vector<BitRel> rels;               ///< per operation, and per slot after them
    std::vector<lkmm::NodeSet> sets;        ///< likewise
    std::vector<const BitRel*> slot_rel;    ///< per slot: where its value is
    std::vector<const lkmm::NodeSet*> slot_set;
    /// Per operation: the graph (`graph`) whose value its buffer holds (Op::once ones).
    std::vector<std::uint64_t> done;
    /// Per operation: its value for graph `done` is `zero` rather than its buffer.
    std::vector<std::uint8_t> done_zero;
    /// The empty relation over the graph's nodes: the value of every operation that an empty
    /// operand decides, shared rather than written into the operation's buffer, so that its
    /// readers see it empty by its address instead of by a scan. Nothing writes into it.
    BitRel zero{0};
    std::uint64_t graph = 0;  ///< the graph being evaluated: start_graph() counts them
    /// The last few sets of events' values (a search asks about many graphs with the same
    /// events and another rf or co), and the one of the graph being evaluated (nullptr: none
    /// is used, and events-only operations are computed for the graph as the others).
    std::vector<EventsEntry> by_events;
    EventsEntry* events = nullptr;
    std::uint64_t uses = 0;
    /// Shapes the buffers for program p (a no-op when they are p's already).
    void shape(const Program& p);
    /// A new graph: every value computed before is stale, and no entry of `by_events` is used.
    void start_graph(const Program& p) {
        shape(p);
        ++graph;
        events = nullptr;
    }
    /// Uses the entry of `by_events` for events `key` (made, in place of the least recently
    /// used one, if there is none): the graph being evaluated has those events.
    void use_events(const Program& p, const std::vector<std::uint64_t>& key);
};

/// Runs a program's operations on one graph of n nodes.
class Runner {
public:
    Runner(const Program& p, Buffers& buf, std::size_t n, const std::vector<Value>& values, TopValues& top);
    /// Operation op's value (an Op::once one computed once per graph).
    const BitRel& rel(int op) {
        const auto k = static_cast<std::size_t>(op);
        const HotOp& h = p_.hot[k];
        if (!h.once) return compute_rel(op);
        if (h.events_only && buf_.events != nullptr) return events_rel(op);
        if (buf_.done[k] == buf_.graph) return buf_.done_zero[k] != 0 ? buf_.zero : buf_.rels[k];
        const BitRel& r = compute_rel(op);
        if (&r == &buf_.rels[k] || &r == &buf_.zero) {
            buf_.done[k] = buf_.graph;
            buf_.done_zero[k] = &r == &buf_.zero ? 1 : 0;
        }
        return r;
    }
    /// Whether `r`, a value rel() returned, is empty (the shared empty value by its address).
    bool empty(const BitRel& r) const { return &r == &buf_.zero || r.empty(); }
    const lkmm::NodeSet& set(int op) {
        const auto k = static_cast<std::size_t>(op);
        const HotOp& h = p_.hot[k];
        if (!h.once) return compute_set(op);
        if (h.events_only && buf_.events != nullptr) return events_set(op);
        if (buf_.done[k] == buf_.graph) return buf_.sets[k];
        const lkmm::NodeSet& s = compute_set(op);
        if (&s == &buf_.sets[k]) buf_.done[k] = buf_.graph;
        return s;
    }
    /// Runs a Rec operation; slot_rel()/slot_set() then hold its bindings' values.
    void rec(int op);
    const BitRel& slot_rel(std::uint32_t slot) const { return *buf_.slot_rel[slot]; }
    const lkmm::NodeSet& slot_set(std::uint32_t slot) const { return *buf_.slot_set[slot]; }

private:
    /// Operation (or slot) `op`'s buffer, of the graph's size, its pairs unspecified: every
    /// operation writes all of its buffer (or clears it first), so a new size is not zeroed.
    BitRel& rbuf(int op) {
        BitRel& b = buf_.rels[static_cast<std::size_t>(op)];
        if (b.size() != n_) b.reshape_for_overwrite(n_);
        return b;
    }
    /// The value of an operation that an empty operand decides: the shared empty relation.
    const BitRel& cleared(int) const { return buf_.zero; }
    lkmm::NodeSet& sbuf(int op) {
        lkmm::NodeSet& s = buf_.sets[static_cast<std::size_t>(op)];
        const std::size_t words = (n_ + 63) / 64;
        if (s.size() != words) s.assign(words, 0);
        return s;
    }
    void bind(const Op& o);
    const BitRel& events_rel(int op);
    const lkmm::NodeSet& events_set(int op);
    const Pos& pos(int op) const { return p_.ops[static_cast<std::size_t>(op)].pos; }
    const BitRel& compute_rel(int op);
    const lkmm::NodeSet& compute_set(int op);
    const Program& p_;
    Buffers& buf_;
    std::size_t n_;
    const std::vector<Value>& values_;
    TopValues& top_;
};

}  // namespace oc::cat
