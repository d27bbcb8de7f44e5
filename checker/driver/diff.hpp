// SPDX-License-Identifier: MIT
// Outcome-set diff of two variants: what the patch (B) adds or removes against the base (A).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"

namespace oc {

struct MetricChange {
    std::string name;
    std::optional<MetricRange> a, b;  ///< unset where a variant does not report the metric
};

struct DiffReport {
    Report a, b;                          ///< explored with one witness per outcome
    std::vector<std::size_t> only_in_a;   ///< indices into a.outcomes: outcomes B cannot reach
    std::vector<std::size_t> only_in_b;   ///< indices into b.outcomes: outcomes A cannot reach
    std::vector<MetricChange> metrics;    ///< every metric of either variant, in name order
    /// When B is a declared mutant of A (VariantDef::derived): for outcomes only B reaches (by
    /// index into b.outcomes), a witness of A with B's barrier weakened, which keeps the barrier
    /// in the graph so that its explaining cycle goes through it.
    std::map<std::size_t, ExecutionGraph> weakened_witnesses;
    std::string weakened_note;  ///< "A with smp_mb() removed", when there are any

    bool equal_outcome_sets() const { return only_in_a.empty() && only_in_b.empty(); }
    bool verdict_changed() const { return a.finding != b.finding; }
    /// Both explorations were exhaustive, so the sets are exact.
    bool exact() const {
        return a.exploration == Exploration::Exhaustive && b.exploration == Exploration::Exhaustive;
    }
};

/// Explores both variants and compares their outcome sets exactly. Throws std::invalid_argument
/// when the two do not observe the same values (different observables cannot be compared). When
/// stop_cause() is set (an interrupt, the command's --timeout) it returns at once, comparing
/// nothing (B unexplored when the stop came during A).
DiffReport diff(const VariantDef& a, const VariantDef& b, const CheckOptions& options);

}  // namespace oc
