// SPDX-License-Identifier: MIT
// ordercheck: model-check the memory-ordering protocols of Linux kernel mm code. The commands
// live in cli/commands.cpp (cli::main) and cli/cmd_*.cpp; this passes them the catalogue.
#include <utility>

#include "cli/commands.hpp"
#include "models/catalogue.hpp"

int main(int argc, char** argv) {
    oc::cli::Program program;
    program.models = oc::models::catalogue();
    return oc::cli::main(argc, argv, std::move(program));
}
