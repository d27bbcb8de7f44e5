// SPDX-License-Identifier: MIT
// `ordercheck explain`: explore one variant (or a litmus file) and draw its witness.
#include "cli/subcommands.hpp"

#include <iostream>
#include <memory>

#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "cli/explain.hpp"
#include "cli/format.hpp"
#include "litmus/run.hpp"

using namespace oc;

namespace oc::cli::commands {

namespace {

/// Explores V, draws its witness (or, with --any, its first execution) under OUT and lists what
/// was written.
int explain_variant(const VariantDef& v, const cli::ExplainOptions& eo, const std::string& out, EngineKind engine,
                    ModelKind model, const MemoryModel* memory_model, const std::vector<ModelDef>& models = {}) {
    // A relation the model does not define: said before the search, where the model is known.
    const MemoryModel* judge = memory_model != nullptr    ? memory_model
                               : model == ModelKind::Lkmm ? &lkmm_model()
                               : model == ModelKind::Rc11 ? &rc11_model()
                                                          : nullptr;
    if (judge != nullptr)
        if (const auto why = cli::unknown_relation(*judge, eo.show)) {
            std::cerr << "ordercheck: --show: " << *why << "; or focus, all\n";
            return cli::exit_usage;
        }
    CheckOptions options;
    options.explore.engine = engine;
    options.explore.model = model;
    options.explore.memory_model = memory_model;
    options.keep_first_execution = eo.any;
    const auto not_drawn = [&] { return stopped("before " + v.id() + " was explained: nothing drawn"); };
    Report report = check(v, options);
    if (stop_cause() != StopCause::None) return not_drawn();
    cli::ExplainOptions o = eo;
    try {
        report = cli::explaining_report(v, std::move(report), models, options, o.note);
    } catch (const std::invalid_argument& e) {
        if (stop_cause() != StopCause::None) return not_drawn();  // the search it needed was cut short
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    if (stop_cause() != StopCause::None) return not_drawn();
    cli::ExplainResult result;
    try {
        result = cli::explain(report, o, out);
    } catch (const std::exception& e) {
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    for (const auto& m : result.messages) std::cout << m << '\n';
    for (const auto& p : result.written) std::cout << "  wrote " << p.string() << '\n';
    return cli::exit_ok;
}

int explain_litmus(const std::string& path, const cli::ExplainOptions& eo, const std::string& out, EngineKind engine,
                   ModelKind model, const MemoryModel* memory_model) {
    const VariantDef* v = litmus_variant(path);  // its loop bound: --unroll
    if (v == nullptr) return cli::exit_usage;
    return explain_variant(*v, eo, out, engine, model, memory_model);
}

}  // namespace

int cmd_explain(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("explain options");
    std::string out, show = "focus", engine = "graph", model = "auto";
    opts.add_options()
        ("out", po::value(&out), "directory to write into (created; must be empty unless --force)")
        ("engine", po::value(&engine)->default_value("graph"), "graph (an execution) | relacy (an interleaving)")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("show", po::value(&show)->default_value("focus"),
         "focus (the explaining cycle, the rest folded away) | all (every event: po,rf,co,fr) | a relation "
         "list for the full figure: po,rf,co,fr,sw,hb,eco and any relation the memory model defines (LKMM: "
         "ppo,hb,pb,rb,prop,...; a cat model: its lets); hb is the model's own where it has one")
        ("any", "when there is no witness, draw the first execution explored instead")
        ("force", "write into a directory that already holds files (replacing witness.*, interleaving.* and cycle.*)")
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "litmus files: iterations a loop that is not an await may run; a search that cut one is bounded (a witness it finds is real; no witness proves nothing)")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "variant id",
                                        "usage: ordercheck explain ID --out DIR [--show focus|all|po,rf,co,fr,sw,hb,eco,ppo,pb,...] [--any] [--force] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 1) return usage_error("explain needs exactly one variant id");
    if (out.empty()) return usage_error("explain needs --out DIR");
    set_litmus_unroll(static_cast<unsigned>(integer_option(vm, "unroll", 1, litmus::max_unroll)));
    if (!preload_litmus_macros(model, vm)) return cli::exit_usage;
    cli::ExplainOptions eo;
    try {
        eo.full = show != "focus";
        if (eo.full && show != "all") eo.show = RelationSet::parse(show);
    } catch (const std::invalid_argument& e) {
        return usage_error(std::string("--show: ") + e.what() + "; or focus, all");
    }
    eo.any = vm.count("any") != 0;
    eo.force = vm.count("force") != 0;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind, vm);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    if (is_litmus_file(ids[0]))
        return explain_litmus(ids[0], eo, out, *engine_kind, choice->per_variant ? ModelKind::Lkmm : choice->kind,
                              choice->memory_model);

    const auto& models = program.models;
    const VariantDef* v = one_variant(models, ids[0]);
    return v == nullptr ? cli::exit_usage
                        : explain_variant(*v, eo, out, *engine_kind, one_model(*choice, *engine_kind, {v}),
                                          choice->memory_model, models);
}

}  // namespace oc::cli::commands
