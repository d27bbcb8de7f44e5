// SPDX-License-Identifier: MIT
// The memory models by name.
#include "checker/memory_model/memory_model.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace oc {

namespace {
std::vector<const MemoryModel*>& registered() {
    static std::vector<const MemoryModel*> models;
    return models;
}
}  // namespace

void register_memory_model(const MemoryModel& model) { registered().push_back(&model); }

const MemoryModel* find_memory_model(std::string_view name) {
    for (const MemoryModel* m : registered())
        if (m->description() == name) return m;
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "rc11") return &rc11_model();
    if (lower == "lkmm") return &lkmm_model();
    if (lower == "sc") return &sc_model();
    return nullptr;
}

}  // namespace oc
