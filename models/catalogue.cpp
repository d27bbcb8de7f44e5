// SPDX-License-Identifier: MIT
#include "models/catalogue.hpp"

namespace oc::models {

std::vector<ModelDef> catalogue() {
    return {
        sb(),
        mp(),
        lb(),
        iriw(),
        wrc(),
        two_plus_two_w(),
        r(),
        s(),
        corr(),
        isa2(),
        r_shrinker_bit(),
        vmpressure(),
        vmalloc_purge(),
        vmalloc_drain(),
        shrinker_bit(),
        memcg_flush(),
    };
}

}  // namespace oc::models
