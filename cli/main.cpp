// SPDX-License-Identifier: MIT
// ordercheck: model-check the memory-ordering protocols of Linux kernel mm code. The commands
// live in cli/commands.cpp (cli::main) and cli/cmd_*.cpp; this passes them the catalogue and,
// after it, the C twins of the seeds (models/c/, embedded at build time: cli/embedded_litmus.hpp),
// parsed only for the commands that see the models.
#include <utility>

#include "cli/commands.hpp"
#include "cli/embedded_litmus.hpp"
#include "models/catalogue.hpp"

/// models/c/*/*.litmus, written into c_twins.cpp by scripts/embed-litmus.py.
std::span<const oc::cli::EmbeddedLitmus> ordercheck_c_twins();

int main(int argc, char** argv) {
    oc::cli::Program program;
    program.models = oc::models::catalogue();
    program.late_models = [] { return oc::cli::embedded_litmus_models(ordercheck_c_twins()); };
    return oc::cli::main(argc, argv, std::move(program));
}
