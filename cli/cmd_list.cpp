// SPDX-License-Identifier: MIT
// `ordercheck list`: the models, their variants and the expectation of each.
#include "cli/subcommands.hpp"

#include <iostream>

#include "cli/command_options.hpp"
#include "cli/format.hpp"

using namespace oc;

namespace oc::cli::commands {

int cmd_list(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("list options");
    opts.add_options()("markdown", "print a Markdown table")("help,h", "this help");
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: ordercheck list [--markdown]\n" << opts;
        return cli::exit_ok;
    }
    const bool md = vm.count("markdown") != 0;
    const auto& models = program.models;
    // Each variant's expectation under the model `check` judges it with by default (--model auto).
    if (md)
        std::cout << "| variant | threads | model | expected | RC11 | LKMM | what it shows |\n"
                     "|---|---|---|---|---|---|---|\n";
    for (const auto& m : models) {
        if (!md) std::cout << m.name << " (" << m.family << "): " << m.description << '\n';
        for (const auto& v : m.variants) {
            const ModelKind model = default_memory_model(v, EngineKind::Graph);
            const std::string expected = to_string(expectation_for(v.expect, EngineKind::Graph, model).engine_answer());
            const std::string rc11 = to_string(v.expect.memory_model);
            const std::string lkmm = v.expect.lkmm ? std::string(to_string(*v.expect.lkmm)) : rc11;
            if (md) {
                std::cout << "| `" << v.id() << "` | " << v.thread_count() << " | " << to_string(model) << " | "
                          << expected << " | " << rc11 << " | " << lkmm << " | " << v.expect.why << " |\n";
                continue;
            }
            std::cout << "  " << v.id() << "  expect " << expected << " (" << to_string(model);
            if (model == ModelKind::Lkmm && lkmm != rc11) std::cout << "; the C++11 mapping: " << rc11;
            if (model == ModelKind::Rc11 && lkmm != rc11) std::cout << "; LKMM: " << lkmm;
            if (v.expect.engine) std::cout << "; Relacy finds " << to_string(*v.expect.engine) << ": engine limitation";
            std::cout << ")\n";
        }
    }
    return cli::exit_ok;
}

}  // namespace oc::cli::commands
