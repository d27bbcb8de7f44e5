// SPDX-License-Identifier: MIT
// ordercheck-bench: the ordercheck commands over the catalogue and the scaling family (grid,
// shrinker_passes, iriw4: bench/scaling.cpp), for the benchmarks and the tests of --jobs and
// shards, which need explorations larger than the catalogue's. Not installed: the product's
// ordercheck carries the catalogue only.
#include <utility>

#include "bench/scaling.hpp"
#include "cli/commands.hpp"
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
