// SPDX-License-Identifier: MIT
// `ordercheck diff`: compare the outcome sets, verdicts and metrics of two variants, and draw the
// outcomes only the second reaches.
#include "cli/subcommands.hpp"

#include <filesystem>
#include <iostream>

#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "litmus/ast.hpp"
#include "cli/explain.hpp"
#include "cli/format.hpp"
#include "checker/driver/diff.hpp"

using namespace oc;

namespace oc::cli::commands {

int cmd_diff(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("diff options");
    std::string engine = "graph", model = "auto";
    std::string out;
    opts.add_options()("allow-new-outcomes", "exit 0 even when B reaches outcomes A cannot (an intended change)")
        ("out", po::value(&out), "draw each outcome only B reaches (focused figure, explaining cycle) under DIR")
        ("engine", po::value(&engine)->default_value("graph"), "graph (every consistent execution once) | relacy")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "litmus files: iterations a loop that is not an await may run; a search that cut one is bounded (no verdict)")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "variant ids",
                                        "usage: ordercheck diff A B [--allow-new-outcomes] [--out DIR] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 2) return usage_error("diff needs two variant ids: A (the base) and B (the change)");
    set_litmus_unroll(static_cast<unsigned>(integer_option(parsed.vm, "unroll", 1, litmus::max_unroll)));
    if (!preload_litmus_macros(model, parsed.vm)) return cli::exit_usage;
    const auto& models = program.models;
    const VariantDef* a = one_variant(models, ids[0]);
    const VariantDef* b = a ? one_variant(models, ids[1]) : nullptr;
    if (a == nullptr || b == nullptr) return cli::exit_usage;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind, parsed.vm);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    CheckOptions options;
    options.explore.engine = *engine_kind;
    apply_model(options.explore, *choice, one_model(*choice, *engine_kind, {a, b}));
    DiffReport d;
    const auto not_compared = [&] {
        // a search cut short compares nothing: no outcome set, verdict or "only B reaches" is printed
        std::size_t explored = 0;
        for (const Report* r : {&d.a, &d.b}) explored += !r->id.empty() && r->exploration != Exploration::CutShort;
        return stopped_after(explored, 2, "variants explored: the outcome sets were not compared");
    };
    try {
        d = diff(*a, *b, options);
    } catch (const std::invalid_argument& e) {
        if (stop_cause() != StopCause::None) return not_compared();
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    if (stop_cause() != StopCause::None) return not_compared();
    std::cout << cli::format_diff(d);
    // --out: one directory per outcome only B reaches, drawn as explain draws a witness (the
    // weakened base's execution when B is a declared mutant of A)
    int drawn = 0;
    for (std::size_t i : d.only_in_b) {
        if (out.empty() || i >= d.b.outcome_witnesses.size()) continue;
        Report r = d.b;
        const auto weakened = d.weakened_witnesses.find(i);
        r.witness = weakened != d.weakened_witnesses.end() ? weakened->second : d.b.outcome_witnesses[i];
        std::string values;
        for (std::size_t k = 0; k < r.observable_names.size() && k < d.b.outcomes[i].values.size(); ++k)
            values += (k ? " " : "") + r.observable_names[k] + "=" + std::to_string(d.b.outcomes[i].values[k]);
        cli::ExplainOptions eo;
        eo.force = true;
        eo.what = "an execution with the outcome " + values + ", which only B reaches";
        eo.note = weakened != d.weakened_witnesses.end() ? ", in " + d.weakened_note + " (the program B writes)" : "";
        const auto dir = std::filesystem::path(out) / (std::to_string(++drawn) + "-" + slug(values));
        try {
            cli::explain(r, eo, dir);
            std::cout << "  drew " << values << ": " << (dir / "witness.svg").string() << '\n';
        } catch (const std::exception& e) {
            std::cerr << "ordercheck: " << e.what() << '\n';
            return cli::exit_usage;
        }
    }
    if (!d.exact()) return cli::exit_incomplete;
    if (!d.only_in_b.empty() && !vm.count("allow-new-outcomes")) return cli::exit_mismatch;
    return cli::exit_ok;
}

}  // namespace oc::cli::commands
