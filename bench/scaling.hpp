// SPDX-License-Identifier: MIT
// The scaling family: protocols whose search grows with threads, operations or passes, written
// with C++-level primitives only so that bench/bare_relacy.cpp can run the same operations on
// bare Relacy. For benchmarks and parallel runs; not part of `check --all`.
#pragma once

#include <vector>

#include "checker/model/model.hpp"

namespace oc::bench {

/// grid (T threads x K operations: thread i alternates a store to x_i and a load of x_{i+1}),
/// shrinker_passes (the shrinker-bit protocol: one adder, 1..3 reclaimers, K passes) and
/// iriw4 (IRIW with relaxed accesses).
std::vector<ModelDef> scaling_models();

}  // namespace oc::bench
