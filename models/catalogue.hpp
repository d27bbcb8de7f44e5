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
ModelDef mp();
ModelDef lb();
ModelDef iriw();
ModelDef wrc();
ModelDef two_plus_two_w();
ModelDef r();
ModelDef s();
ModelDef corr();
ModelDef isa2();
ModelDef r_shrinker_bit();
ModelDef vmpressure();
ModelDef vmalloc_purge();
ModelDef vmalloc_drain();
ModelDef shrinker_bit();
ModelDef memcg_flush();

}  // namespace oc::models
