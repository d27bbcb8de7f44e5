// SPDX-License-Identifier: MIT
// Load buffering: the reads after which LKMM orders every write of their process, from the
// program text (litmus/ordered_reads.cpp; VariantDef::ordered_reads).
#pragma once
#include <cstdint>
#include <vector>

#include "litmus/ast.hpp"

namespace oc::litmus {

/// A source line of a process (its graph thread: process index + 1) whose reads (loads and the
/// read parts of value-returning and void RMWs; not locks) the walk followed. `ordered`: each
/// has, on every path, every write of the process po-after it ordered after it under the
/// built-in LKMM, and no assertion after it.
struct OrderedRead {
    unsigned thread = 0;
    std::uint32_t line = 0;
    bool ordered = false;
    /// The same by dependencies alone (a cat model's rule: its fences may order less).
    bool ordered_by_dependencies = false;
};

/// The lines of `p` whose reads the walk followed, each said ordered or not. Conservative: a process with a loop, a jump (break, continue,
/// return) or an access that runs on one path of an expression lists none, and only
/// dependencies every path has count. `plain_is_plain`: the run keeps plain accesses plain
/// (RunMode::RaceCheck), so a plain write to a location only plain accesses reach keeps no
/// marked read's guess alive (VariantDef::plain_only_locations).
std::vector<OrderedRead> ordered_reads(const Program& p, bool plain_is_plain);

}  // namespace oc::litmus
