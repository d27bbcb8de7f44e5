// SPDX-License-Identifier: MIT
// ordercheck: model-check the memory-ordering protocols of Linux kernel mm code. The commands
// live in checker/cli/commands.cpp; this passes them the catalogue and the scaling family.
#include <utility>

#include "bench/scaling.hpp"
#include "checker/cli/commands.hpp"
#include "models/catalogue.hpp"

int main(int argc, char** argv) {
    oc::cli::Program program;
    program.models = oc::models::catalogue();
    program.by_id_only = oc::bench::scaling_models();  // by id only: `check --all` leaves them out
    program.usage_note =
        "check also takes the scaling family (grid, shrinker_passes, iriw4: docs/performance.md), which --all leaves "
        "out.\n";
    return oc::cli::main(argc, argv, std::move(program));
}
