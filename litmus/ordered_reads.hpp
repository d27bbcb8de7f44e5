// SPDX-License-Identifier: MIT
// Load buffering: the reads after which LKMM orders every write of their process, from the
// program text (litmus/ordered_reads.cpp; VariantDef::ordered_reads).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "checker/model/model.hpp"
#include "litmus/ast.hpp"

namespace oc::litmus {

/// A source line of a process (its graph thread: process index + 1) whose reads (loads and the
/// read parts of value-returning and void RMWs; not locks) the walk followed, with the reasons
/// (MemoryModel::orders()) under which each of them has every later write of its process
/// ordered after it on every path (VariantDef::OrderedRead::ordered()).
using OrderedRead = VariantDef::OrderedRead;

/// The lines of `p` whose reads the walk followed, each said ordered or not. A process with a
/// jump (break, continue, return) or an access that runs on one path of an expression lists
/// none; only dependencies and fences every path has count. `plain_is_plain`: the run keeps
/// plain accesses plain (RunMode::RaceCheck), so a plain write to a location only plain
/// accesses reach keeps no marked read's guess alive (VariantDef::plain_only_locations).
std::vector<OrderedRead> ordered_reads(const Program& p, bool plain_is_plain);

/// The (graph thread, line) pairs of `p` whose every read event is a load assigned to a
/// register that no expression of its process reads (VariantDef::undepended_reads): nothing
/// of the thread depends on such a read's value, on any path. Only a process whose one read
/// site it is, with no loop: a later read may have to change with it.
std::vector<std::pair<unsigned, std::uint32_t>> undepended_reads(const Program& p);

/// The (graph thread, line) pairs of `p`'s accesses that may read (VariantDef::read_lines).
std::vector<std::pair<unsigned, std::uint32_t>> read_lines(const Program& p);

}  // namespace oc::litmus
