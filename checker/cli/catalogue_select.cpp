// SPDX-License-Identifier: MIT
#include "checker/cli/catalogue_select.hpp"

#include <set>

namespace oc::cli {

std::vector<const VariantDef*> select_variants(const std::vector<ModelDef>& models,
                                               const std::vector<std::string>& ids, std::string& error) {
    std::set<std::string> wanted(ids.begin(), ids.end());
    std::set<std::string> matched;
    std::vector<const VariantDef*> out;
    for (const auto& m : models)
        for (const auto& v : m.variants) {
            const bool by_model = wanted.count(m.name) != 0;
            const bool by_id = wanted.count(v.id()) != 0;
            if (ids.empty() || by_model || by_id) out.push_back(&v);
            if (by_model) matched.insert(m.name);
            if (by_id) matched.insert(v.id());
        }
    std::string unknown;
    for (const auto& id : ids)
        if (matched.count(id) == 0) unknown += (unknown.empty() ? "" : ", ") + ("'" + id + "'");
    if (!unknown.empty()) {
        error = "unknown model or variant id: " + unknown + "\nknown ids:\n";
        for (const auto& m : models) {
            error += "  " + m.name + "\n";
            for (const auto& v : m.variants) error += "    " + v.id() + "\n";
        }
        return {};
    }
    return out;
}

}  // namespace oc::cli
