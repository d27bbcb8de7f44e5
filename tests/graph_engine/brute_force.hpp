// SPDX-License-Identifier: MIT
// A brute-force reference enumerator of the RC11-consistent executions of a small loop-free model,
// independent of every exploration engine: it runs the model's threads one after another on the
// calling thread, tries every rf assignment (solving the values by fixpoint iteration) and every
// coherence order, and keeps the graphs oc::check_rc11 accepts. For tests that compare an engine
// against it; slow by design (exponential), meant for programs of a dozen events or so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "checker/model/model.hpp"

namespace oc {
class MemoryModel;
}

namespace oc::testing {

/// The final state of one consistent execution (co-last write of each location).
struct BruteForceOutcome {
    bool bad_outcome = false;
    std::vector<Value> observables;  ///< in the order of BruteForceResult::observable_names
    friend bool operator==(const BruteForceOutcome&, const BruteForceOutcome&) = default;
};

struct BruteForceResult {
    /// canonical_hash of every RC11-consistent complete execution.
    std::set<std::uint64_t> hashes;
    /// Graphs handed to check_rc11: (rf assignment whose values reached a fixpoint) x (co order).
    std::size_t candidates = 0;
    /// False when the model is outside what the enumerator handles (why_unsupported says why):
    /// events that depend on the values read, spin_yield(), a failed require(), a search too big.
    /// Then hashes and outcomes are empty.
    bool supported = true;
    std::string why_unsupported;
    /// False when some read answering another value (0, 1, 2, or a value the program writes)
    /// makes other events than the initial values do: `hashes` then holds the executions of the
    /// initial values' events only, a subset of the model's (a store only a load-buffering
    /// cycle runs is in none of them).
    bool every_shape = true;
    /// The final state of each execution in `hashes`, by hash.
    std::map<std::uint64_t, BruteForceOutcome> outcomes;
    std::vector<std::string> observable_names;
};

/// Largest number of candidate graphs brute_force() will enumerate before giving up (unsupported).
inline constexpr std::size_t brute_force_max_candidates = 2'000'000;
/// Largest number of events one run of the model may make (more: unsupported, a loop).
inline constexpr std::size_t brute_force_max_events = 10'000;

/// Every RC11-consistent execution of `variant` (with `model`: every execution `model` accepts,
/// po | rf cycles included, as LKMM's load buffering needs, but not an execution with a value out of
/// thin air, which the engine leaves out by design: a read whose value comes back to it through rf
/// and data dependencies, docs/lkmm.md). Installs its own Runtime: call it outside any other
/// exploration. Plain accesses are treated like relaxed ones (no data-race detection).
BruteForceResult brute_force(const VariantDef& variant, const MemoryModel* model = nullptr);

}  // namespace oc::testing
