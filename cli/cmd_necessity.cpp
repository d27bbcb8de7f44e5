// SPDX-License-Identifier: MIT
// `ordercheck necessity`: weaken each barrier of one variant in turn and say which are needed.
#include "cli/subcommands.hpp"

#include <filesystem>
#include <iostream>

#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "litmus/ast.hpp"
#include "cli/explain.hpp"
#include "cli/format.hpp"
#include "checker/driver/necessity.hpp"
#include "checker/version.hpp"

using namespace oc;

namespace oc::cli::commands {

int cmd_necessity(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("necessity options");
    std::string out, engine = "graph", model = "auto";
    opts.add_options()("out", po::value(&out), "write the witness of every needed barrier under DIR")
        ("engine", po::value(&engine)->default_value("graph"), "graph (every consistent execution once) | relacy")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "litmus files: iterations a loop that is not an await may run; a search that cut one is bounded (no verdict)")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "variant id",
                                        "usage: ordercheck necessity ID [--out DIR] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 1) return usage_error("necessity needs exactly one variant id");
    set_litmus_unroll(static_cast<unsigned>(integer_option(parsed.vm, "unroll", 1, litmus::max_unroll)));
    if (!preload_litmus_macros(model, parsed.vm)) return cli::exit_usage;
    const auto& models = program.models;
    const VariantDef* v = one_variant(models, ids[0]);
    if (v == nullptr) return cli::exit_usage;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind, parsed.vm);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    const auto model_kind = one_model(*choice, *engine_kind, {v});
    CheckOptions options;
    options.explore.engine = *engine_kind;
    apply_model(options.explore, *choice, model_kind);
    NecessityReport n;
    try {
        n = necessity(*v, options);
    } catch (const std::invalid_argument& e) {
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    if (n.stopped && n.rows.empty() && n.not_finished.empty())
        return stopped("before " + v->id() + " as written was explored: no weakening tried");
    std::cout << "ordercheck " << version << ": necessity of " << v->id() << " ("
              << (*engine_kind == EngineKind::Graph
                      ? "graph engine under " + model_name(options.explore) + ", every consistent execution once"
                      : std::string("relacy full search"))
              << (choice->memory_model            ? ", every execution checked against the cat model's axioms)\n"
                  : model_kind == ModelKind::Lkmm ? ", every execution checked against LKMM's axioms)\n"
                                                 : ", every execution certified against RC11)\n");
    std::cout << "as written: " << to_string(*n.base.finding) << " in " << n.base.executions << " executions ("
              << to_string(n.base.exploration) << ")\n\n";
    bool undecided = false;
    int index = 0;
    for (const auto& row : n.rows) {
        ++index;
        std::cout << "  " << cli::site_line(row) << '\n';
        if (!row.lkmm_caveat.empty()) std::cout << "      LKMM caveat: " << row.lkmm_caveat << '\n';
        if (row.result == Necessity::NotDecided) undecided = true;
        if (row.result == Necessity::Needed && row.report.witness) {
            std::string why;
            if (const auto c = cli::cycle_of(row.report, &why); c && !c->steps.empty())
                std::cout << "      breaks: " << cycle_heading(*c) << "\n        " << cycle_line(*row.report.witness, *c)
                          << '\n';
            else if (!why.empty())
                std::cout << "      no explaining cycle: " << why << '\n';
        }
        if (row.result == Necessity::Needed && !out.empty() && row.report.witness) {
            cli::ExplainOptions eo;
            eo.force = true;
            const auto dir = std::filesystem::path(out) / (std::to_string(index) + "-" + slug(site_label(row.site)) +
                                                           "-" + slug(weakening_label(row.site, row.weakening)));
            try {
                cli::explain(row.report, eo, dir);
                std::cout << "      witness: " << (dir / "witness.svg").string() << '\n';
            } catch (const std::exception& e) {
                std::cerr << "ordercheck: " << e.what() << '\n';
                return cli::exit_usage;
            }
        }
    }
    const char* why_not = stop_cause() == StopCause::Interrupt ? "interrupted" : "the --timeout ran out";
    for (const auto& [site, weakening] : n.not_finished)
        std::cout << "  " << site_label(site) << " " << weakening_label(site, weakening) << ": not decided (not run to the end: "
                  << why_not << ")\n";
    if (n.rows.empty() && n.not_finished.empty()) std::cout << "  no ordering site: nothing to weaken\n";
    std::cout << "\nlocks, work-queue internals and static-key updates are not weakened\n" << std::flush;
    if (n.stopped) return stopped_after(n.rows.size(), n.rows.size() + n.not_finished.size(), "weakenings");
    return undecided ? cli::exit_incomplete : cli::exit_ok;
}

}  // namespace oc::cli::commands
