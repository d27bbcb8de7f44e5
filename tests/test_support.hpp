// SPDX-License-Identifier: MIT
// What the unit tests share beyond graph building (tests/traces/graph_builder.hpp): finding a
// variant of the catalogue by its id, listing the litmus corpus.
#pragma once

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::test {

/// The variant "MODEL/variant" among `models`; throws (the test case fails, naming the id) when
/// there is none.
inline const VariantDef& find_variant(const std::vector<ModelDef>& models, std::string_view id) {
    for (const auto& m : models)
        for (const auto& v : m.variants)
            if (v.id() == id) return v;
    throw std::invalid_argument("no variant " + std::string(id));
}

/// The catalogue variant "MODEL/variant", from a catalogue built once.
inline const VariantDef& catalogue_variant(std::string_view id) {
    static const std::vector<ModelDef> all = models::catalogue();
    return find_variant(all, id);
}

/// The files of the litmus corpus (litmus/tests/*.litmus), sorted.
inline std::vector<std::string> litmus_corpus() {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(OC_SOURCE_ROOT "/litmus/tests"))
        if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace oc::test
