// SPDX-License-Identifier: MIT
// `ordercheck report`: a static HTML report of the models named (or all): tables, metrics,
// necessity, figures.
#include "cli/subcommands.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/catalogue_select.hpp"
#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "cli/format.hpp"
#include "cli/report_html.hpp"
#include "litmus/ast.hpp"

using namespace oc;

namespace oc::cli::commands {

int cmd_report(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("report options");
    std::string out, engine = "graph", model = "auto";
    opts.add_options()("out", po::value(&out), "directory to write index.html into")
        ("engine", po::value(&engine)->default_value("graph"), "graph (every consistent execution once) | relacy")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("no-necessity", "skip the barrier-necessity tables")
        ("force", "replace an existing index.html")
        ("timeout", po::value<std::string>()->default_value("0"),
         "stop the whole command after S seconds (0: none); the page then shows the variants finished and says "
         "it is partial, exit 3")
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "litmus files: iterations a loop that is not an await may run; a search that cut one is bounded (no verdict)")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "models",
                                        "usage: ordercheck report --out DIR [MODEL|FILE.litmus...] [--no-necessity] [--force] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    if (out.empty()) return usage_error("report needs --out DIR");
    set_litmus_unroll(static_cast<unsigned>(integer_option(vm, "unroll", 1, litmus::max_unroll)));
    if (!preload_litmus_macros(model, vm)) return cli::exit_usage;
    auto models = program.models;
    if (!parsed.positional.empty()) {
        const auto& wanted = parsed.positional;
        std::vector<ModelDef> chosen;
        for (const auto& w : wanted) {
            if (is_litmus_file(w)) {  // a litmus file is a model with one variant
                const VariantDef* v = litmus_variant(w);
                if (v == nullptr) return cli::exit_usage;
                chosen.push_back(ModelDef{v->model, "litmus", "litmus test " + w, {*v}});
                continue;
            }
            bool found = false;
            for (const auto& m : models)
                if (m.name == w) {
                    chosen.push_back(m);
                    found = true;
                }
            if (!found) {
                std::string error;
                cli::select_variants(models, {w}, error);
                std::cerr << "ordercheck: report takes model names; " << error;
                return cli::exit_usage;
            }
        }
        models = chosen;
    }
    const std::filesystem::path dir(out);
    const auto page = dir / "index.html";
    if (std::filesystem::exists(page) && !vm.count("force")) {
        std::cerr << "ordercheck: " << page.string() << " exists; pass --force to replace it\n";
        return cli::exit_usage;
    }
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind, vm);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    const auto sections = cli::build_sections(models, vm.count("no-necessity") == 0, *engine_kind,
                                              choice->per_variant ? std::nullopt : std::optional(choice->kind),
                                              choice->memory_model);
    // Stopped (an interrupt, the --timeout): the page shows the variants finished and says so.
    std::size_t finished = 0, total = 0;
    for (const auto& s : sections) finished += s.reports.size();
    for (const auto& m : models) total += m.variants.size();
    const bool partial = stop_cause() != StopCause::None && finished < total;
    std::string notice;
    if (partial)
        notice = std::string(stop_cause() == StopCause::Interrupt ? "Interrupted" : "The --timeout ran out") +
                 " after " + std::to_string(finished) + " of " + std::to_string(total) +
                 " variants: this page shows only those finished; the others were not explored (incomplete).";
    // Written under a temporary name and renamed: an index.html is never half written.
    std::filesystem::create_directories(dir);
    const auto part = dir / "index.html.part";
    std::ofstream f(part, std::ios::binary | std::ios::trunc);
    f << cli::render_html(sections, notice);
    f.close();
    std::error_code renamed;
    if (f) std::filesystem::rename(part, page, renamed);
    if (!f || renamed) {
        std::filesystem::remove(part, renamed);
        std::cerr << "ordercheck: cannot write " << page.string() << '\n';
        return cli::exit_usage;
    }
    std::cout << "wrote " << page.string() << (partial ? " (partial)" : "") << '\n' << std::flush;
    if (partial) return stopped_after(finished, total, "variants");
    std::vector<Report> all_reports;
    for (const auto& s : sections) all_reports.insert(all_reports.end(), s.reports.begin(), s.reports.end());
    return cli::exit_code(all_reports);
}

}  // namespace oc::cli::commands
