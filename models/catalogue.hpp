// SPDX-License-Identifier: MIT
// The catalogue: every model of the project, listed explicitly (no static self-registration).
#pragma once

#include <vector>

#include "checker/model/model.hpp"

namespace oc::models {

/// Every model, in catalogue order.
std::vector<ModelDef> catalogue();

// One function per model file.
ModelDef sb();

}  // namespace oc::models
