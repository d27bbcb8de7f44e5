// SPDX-License-Identifier: MIT
#include "models/catalogue.hpp"

namespace oc::models {

std::vector<ModelDef> catalogue() {
    return {
        sb(),
    };
}

}  // namespace oc::models
