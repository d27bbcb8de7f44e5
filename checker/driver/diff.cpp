// SPDX-License-Identifier: MIT
#include "checker/driver/diff.hpp"

#include "checker/driver/necessity.hpp"

#include <map>
#include <set>
#include <stdexcept>

namespace oc {

DiffReport diff(const VariantDef& a, const VariantDef& b, const CheckOptions& options) {
    CheckOptions o = options;
    o.keep_outcome_witnesses = true;
    DiffReport d;
    d.a = check(a, o);
    if (stop_cause() != StopCause::None) return d;  // interrupted, or the command's deadline: no comparison
    d.b = check(b, o);
    if (stop_cause() != StopCause::None) return d;
    if (d.a.observable_names != d.b.observable_names)
        throw std::invalid_argument(a.id() + " and " + b.id() +
                                    " observe different values; only variants of one model can be compared");
    std::set<std::vector<Value>> in_a, in_b;
    for (const auto& r : d.a.outcomes) in_a.insert(r.values);
    for (const auto& r : d.b.outcomes) in_b.insert(r.values);
    for (std::size_t i = 0; i < d.a.outcomes.size(); ++i)
        if (!in_b.count(d.a.outcomes[i].values)) d.only_in_a.push_back(i);
    for (std::size_t i = 0; i < d.b.outcomes.size(); ++i)
        if (!in_a.count(d.b.outcomes[i].values)) d.only_in_b.push_back(i);
    std::map<std::string, MetricChange> metrics;
    for (const auto& m : d.a.metrics) {
        metrics[m.name].name = m.name;
        metrics[m.name].a = m;
    }
    for (const auto& m : d.b.metrics) {
        metrics[m.name].name = m.name;
        metrics[m.name].b = m;
    }
    for (auto& [name, change] : metrics) d.metrics.push_back(change);
    if (b.derived && b.model == a.model && b.derived.base == a.name && !d.only_in_b.empty()) {
        const Report weakened = check_as_weakened_base(b, a, o);
        std::map<std::vector<Value>, std::size_t> by_values;
        for (std::size_t i = 0; i < weakened.outcomes.size() && i < weakened.outcome_witnesses.size(); ++i)
            by_values[weakened.outcomes[i].values] = i;
        for (std::size_t i : d.only_in_b)
            if (const auto it = by_values.find(d.b.outcomes[i].values); it != by_values.end())
                d.weakened_witnesses.emplace(i, weakened.outcome_witnesses[it->second]);
        if (!d.weakened_witnesses.empty())
            d.weakened_note = derivation_label(b);
    }
    return d;
}

}  // namespace oc
