// SPDX-License-Identifier: MIT
// What herd gives a cat model before its first line, computed from one execution graph: the
// event sets (R, W, M, F, IW, the tag sets of linux-kernel.bell's enums, lock.cat's LKR, LKW,
// UL, LF, RL, RU) and the base relations (po, rf, co, rmw, addr, data, ctrl, loc, int, ext, id).
// They follow checker/memory_model/lkmm.cpp's relations() node for node (an RMW is two nodes,
// lkmm::Nodes), except that, as in herd, the lock events are not yet R or W and their rf and
// rmw edges are not yet there: lock.cat adds them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/memory_model/bitrel.hpp"
#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "traces/execution_graph.hpp"

namespace oc::cat {

struct Builtins {
    explicit Builtins(std::size_t n = 0) : graph_rf_co(n), graph_rf(n), graph_co(n) {}
    Builtins(const Builtins&) = delete;  // `layout` points into the maps
    Builtins& operator=(const Builtins&) = delete;
    Builtins(Builtins&&) = delete;
    Builtins& operator=(Builtins&&) = delete;
    lkmm::Nodes nodes;
    std::map<std::string, lkmm::NodeSet> sets;
    std::map<std::string, BitRel> rels;
    /// The graph's own rf | co over every node, lock events included: what `with x from ...`
    /// picks its candidate by (the graph engine made the choice herd enumerates).
    BitRel graph_rf_co;
    /// The graph's rf and co: a model's final rf and co must be these (cat_eval.hpp).
    BitRel graph_rf, graph_co;
    /// Per node: the value it writes (different-values()).
    std::vector<Value> value;
    /// Where each set and relation builtins_into() fills is in the maps, found by name once
    /// for the dialect of `stamp` (0: for no later call).
    struct Layout {
        lkmm::NodeSet *all, *IW, *W, *R, *M, *F, *FW, *RMW, *LKR, *LKW, *UL, *LF, *RL, *RU;
        lkmm::NodeSet *Once, *Acquire, *Release, *Noreturn, *Mb, *SrcuLock, *SrcuUnlock, *SyncSrcu;
        std::vector<std::pair<std::uint32_t, lkmm::NodeSet*>> fence_sets;
        std::array<lkmm::NodeSet*, 6> c11_sets{};  ///< by MemoryOrder (herd's C11 tags), when the dialect has them
        std::vector<lkmm::NodeSet*> every_set;  ///< in the maps' order (the top-level numbers')
        std::vector<BitRel*> every_rel;
        std::vector<std::uint32_t> syms;  ///< symbol() of every set's name, then every relation's
        BitRel *po, *loc, *int_, *ext, *id, *rf, *co, *fr, *rmw, *addr, *data, *ctrl;
        bool c11 = false;  ///< the dialect has herd's C11 tags
    };
    /// builtins_into()'s working storage, kept from one graph to the next.
    struct Scratch {
        std::vector<const Event*> events;       ///< per node
        std::vector<lkmm::NodeSet> at_location;  ///< per location: its nodes
        lkmm::NodeSet lock_reads;
        std::vector<std::size_t> co_nodes;
        BitRel rf_inverse{0};
        std::vector<std::uint64_t> key;  ///< the graph's events (builtins_into() compares it with events_key)
    };
    Scratch scratch;
    Layout layout{};
    std::uint64_t stamp = 0;
    /// What the events of the graph the sets and the relations but rf, co and fr were made
    /// for are made of (every field builtins_into() reads of them): a graph with the same
    /// events and the same `stamp` finds those as they are.
    std::vector<std::uint64_t> events_key;
    /// The nodes, sets and relations but rf, co and fr of the last few sets of events (of
    /// `stamp`), copied back for a graph with one of them.
    struct Kept {
        std::vector<std::uint64_t> key;
        std::uint64_t hash = 0, used = 0;
        lkmm::Nodes nodes;
        std::vector<lkmm::NodeSet> sets;  ///< as layout.every_set
        std::vector<BitRel> rels;         ///< po, loc, int, ext, id, rmw, addr, data, ctrl
        lkmm::NodeSet lock_reads;
    };
    std::vector<Kept> kept;
    std::uint64_t uses = 0;
};

/// The built-in sets and relations of `g` into `b`, its events shown as `dialect` says. A
/// nonzero `stamp` names the dialect: a later call with the same stamp reuses the maps (their
/// entries and their storage) instead of building them anew.
void builtins_into(Builtins& b, const ExecutionGraph& g, const Dialect& dialect, std::uint64_t stamp);
/// The names of the built-in sets and relations of `dialect`, in the maps' order.
std::pair<std::vector<std::string>, std::vector<std::string>> builtin_names(const Dialect& dialect);

/// The herd tag name of each LKMM tag the graph's events carry ('once, 'rcu-lock...; in any
/// case: 'ONCE in the newest model): the tags a bell file's enum may declare; the set of a tag
/// is its name capitalised (Once, Rcu-lock; ONCE).
bool known_tag(const std::string& tag);
/// A tag of the kernel's model (known_tag() also knows herd's C11 memory orders 'rlx...'sc).
bool kernel_tag(const std::string& tag);
/// The set of events carrying a tag, as herd names it: the tag capitalised ('once: Once).
std::string tag_set_name(const std::string& tag);
/// ordercheck's name of a known tag ("ONCE": "once").
std::string canonical_tag(const std::string& tag);

}  // namespace oc::cat
