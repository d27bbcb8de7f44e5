// SPDX-License-Identifier: MIT
// Load buffering: the reads after which LKMM orders every write of their process, from the
// program text (litmus/ordered_reads.cpp; VariantDef::ordered_reads).
#pragma once
#include <cstdint>
#include <vector>

#include "litmus/ast.hpp"

namespace oc::litmus {

/// A source line of a process (its graph thread: process index + 1) whose reads each have, on
/// every path, every write of the process po-after them ordered after them under the built-in
/// LKMM, and no assertion after them.
struct OrderedRead {
    unsigned thread = 0;
    std::uint32_t line = 0;
};

/// The lines of `p` whose reads are so ordered. Conservative: a process with a loop, a jump
/// (break, continue, return) or an access that runs on one path of an expression lists none,
/// and only dependencies every path has count.
std::vector<OrderedRead> ordered_reads(const Program& p);

}  // namespace oc::litmus
