// SPDX-License-Identifier: MIT
// ordercheck: model-check the memory-ordering protocols of Linux kernel mm code. The commands
// live in cli/commands.cpp (cli::main) and cli/cmd_*.cpp; this passes them the catalogue and,
// after it, the C twins of the seeds (models/c/, embedded at build time: cli/embedded_litmus.hpp).
#include <iostream>
#include <utility>

#include "cli/commands.hpp"
#include "cli/embedded_litmus.hpp"
#include "litmus/ast.hpp"
#include "models/catalogue.hpp"

/// models/c/*/*.litmus, written into c_twins.cpp by scripts/embed-litmus.py.
std::span<const oc::cli::EmbeddedLitmus> ordercheck_c_twins();

int main(int argc, char** argv) {
    oc::cli::Program program;
    program.models = oc::models::catalogue();
    try {
        for (auto& m : oc::cli::embedded_litmus_models(ordercheck_c_twins())) program.models.push_back(std::move(m));
    } catch (const oc::litmus::LitmusError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    return oc::cli::main(argc, argv, std::move(program));
}
