// SPDX-License-Identifier: MIT
// Resolving the ids a user names on the command line.
#pragma once

#include <string>
#include <vector>

#include "checker/model/model.hpp"

namespace oc::cli {

/// The variants `ids` name ("MODEL/variant" or "MODEL" for all its variants), in catalogue order
/// and without duplicates; all variants when `ids` is empty. On an unknown id, sets `error` to a
/// message listing the ids that exist and returns nothing.
std::vector<const VariantDef*> select_variants(const std::vector<ModelDef>& models,
                                               const std::vector<std::string>& ids, std::string& error);

}  // namespace oc::cli
