// SPDX-License-Identifier: MIT
// `ordercheck check`: explore the variants named (or all) and judge each verdict against its
// expectation; text, JSON or JUnit report.
#include "cli/subcommands.hpp"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/catalogue_select.hpp"
#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "cli/explain.hpp"
#include "cli/format.hpp"
#include "cli/parallel.hpp"
#include "checker/driver/necessity.hpp"
#include "litmus/ast.hpp"

using namespace oc;

namespace oc::cli::commands {

namespace {

/// The JSON or JUnit report of a run stopped by an interrupt, marked so: well-formed, with the
/// variants finished before it.
std::string mark_interrupted(const std::string& text, const std::string& format, std::size_t finished,
                             std::size_t total) {
    if (format == "json") {
        nlohmann::json doc = nlohmann::json::parse(text);
        doc["interrupted"] = true;
        doc["variants_finished"] = finished;
        doc["variants_selected"] = total;
        doc["exit_code"] = exit_interrupted;
        return doc.dump(2) + "\n";
    }
    if (format == "junit") {
        const std::string end = "    </properties>\n";
        std::string out = text;
        const auto at = out.find(end);
        if (at != std::string::npos)
            out.insert(at, "      <property name=\"interrupted\" value=\"true\"/>\n"
                           "      <property name=\"variants_finished\" value=\"" + std::to_string(finished) +
                               " of " + std::to_string(total) + "\"/>\n");
        return out;
    }
    return text + "interrupted after " + std::to_string(finished) + " of " + std::to_string(total) +
           " variants: only the finished ones are listed\n";
}

}  // namespace

int cmd_check(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("check options");
    std::string search = "full", format = "text", engine, model = "auto";
    opts.add_options()
        ("all", "check every variant of every model")
        ("engine", po::value(&engine), "graph | relacy | both (default: graph for the full search, relacy for "
                                       "--search bound|random)")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("search", po::value(&search)->default_value("full"), "full | bound | random")
        ("format", po::value(&format)->default_value("text"), "text | json | junit")
        ("witness-dir", po::value<std::string>(), "write the witness of every failing variant under DIR")
        ("max-executions", po::value<std::string>()->default_value("0"),
         "stop each search after N executions (0: no limit); a search cut short proves nothing")
        ("timeout", po::value<std::string>()->default_value("0"), "stop each search after S seconds (0: none)")
        ("context-bound", po::value<std::string>()->default_value("2"), "preemptions per execution (--search bound)")
        ("random-executions", po::value<std::string>()->default_value("100000"),
         "executions drawn by --search random")
        ("no-certify", "count executions without checking them against the memory model's axioms (RC11's certifier, LKMM's predicate)")
        ("no-capture", "record no execution graphs (no certification, witnesses or distinct counts; "
                       "for measuring the cost of capture)")
        ("no-por", "no partial-order reduction: run every interleaving of the full search")
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "litmus files: iterations a loop that is not an await may run (herd7's -unroll); a run that needs more is "
         "cut, and a search that cut any is bounded, never a proof (exit 3)")
        ("jobs,j", po::value<std::string>()->default_value("1"),
         "explore in N worker processes (variants and shards; at most 256); with fewer variants than N, a "
         "variant searched under LKMM or a cat model takes the spare workers as threads, unsplit into shards")
        ("shards", po::value<std::string>(), "split each variant's search into N shards and merge them (default: 1; "
                                          "with --jobs and fewer variants than jobs, 4 per job)")
        ("shard", po::value<std::string>(), "explore only shard I/N of each variant's search; combine the JSON "
                                            "reports of all N with `ordercheck merge`")
        ("execution-hashes", "list every distinct execution's canonical hash in the JSON report")
        ("progress", "progress on stderr even when it is not a terminal (runs longer than a second)")
        ("no-progress", "no progress on stderr")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "variant or model ids",
                                        "usage: ordercheck check [ID...|--all] [options]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const auto max_executions = static_cast<std::uint64_t>(integer_option(vm, "max-executions", 0, max_count, " (0: no limit)"));
    const double timeout = seconds_option(vm, "timeout");
    const auto context_bound = static_cast<unsigned>(integer_option(vm, "context-bound", 0, 1000));
    set_litmus_unroll(static_cast<unsigned>(integer_option(vm, "unroll", 1, litmus::max_unroll)));
    if (!preload_litmus_macros(model, vm)) return cli::exit_usage;
    const auto random_executions = static_cast<std::uint64_t>(integer_option(vm, "random-executions", 1, max_count));
    const auto jobs = static_cast<unsigned>(integer_option(vm, "jobs", 1, max_jobs, " (worker processes)"));
    const auto shards =
        vm.count("shards") ? static_cast<unsigned>(integer_option(vm, "shards", 1, max_shards)) : 0u;
    if (search != "full" && search != "bound" && search != "random")
        return usage_error("--search must be full, bound or random (got '" + search + "')");
    if (format != "text" && format != "json" && format != "junit")
        return usage_error("--format must be text, json or junit (got '" + format + "')");
    // --no-por and the bounded and random searches are Relacy's.
    if (engine.empty()) engine = search == "full" && vm.count("no-por") == 0 ? "graph" : "relacy";
    if (engine != "graph" && engine != "relacy" && engine != "both")
        return usage_error("--engine must be graph, relacy or both (got '" + engine + "')");
    const SearchKind search_kind = search == "bound" ? SearchKind::Bound : search == "random" ? SearchKind::Random
                                                                                               : SearchKind::Full;
    if (engine != "relacy" && !capabilities(EngineKind::Graph).runs(search_kind))
        return usage_error("--search " + search + " runs under Relacy only (give --engine relacy)");

    auto models = program.models;
    if (!vm.count("all"))
        models.insert(models.end(), program.by_id_only.begin(), program.by_id_only.end());
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.empty() && !vm.count("all")) return usage_error("check needs variant ids or --all");
    if (!ids.empty() && vm.count("all")) return usage_error("give either ids or --all, not both");
    std::vector<const VariantDef*> selected;
    if (vm.count("all")) {
        std::string error;
        selected = cli::select_variants(models, ids, error);
    } else if (!resolve_ids(models, ids, selected)) {
        return cli::exit_usage;
    }

    CheckOptions options;
    options.explore.search = search == "full" ? SearchKind::Full : search == "bound" ? SearchKind::Bound : SearchKind::Random;
    options.explore.engine = engine == "relacy" ? EngineKind::Relacy : EngineKind::Graph;
    options.cross_check = engine == "both";
    std::string model_name, model_option_name = model;
    {
        const auto choice = model_option(model, options.explore.engine, vm);
        if (!choice) return cli::exit_usage;
        if (choice->memory_model && options.cross_check)
            return usage_error("--engine both cross-checks Relacy against RC11; it does not apply to a cat model");
        if (choice->kind == ModelKind::Lkmm && options.cross_check)
            return usage_error("--engine both cross-checks Relacy against RC11; it does not apply to --model lkmm");
        apply_model(options.explore, *choice, choice->kind);
        model_name = oc::model_name(options.explore);
        model_option_name = choice->option;
        if (choice->per_variant && !options.cross_check) {
            // one model for the whole run when every variant has the same; else one per variant
            std::set<ModelKind> kinds;
            for (const VariantDef* v : selected) kinds.insert(default_memory_model(*v, EngineKind::Graph));
            if (kinds.size() == 1) {
                options.explore.model = *kinds.begin();
                model_name = to_string(*kinds.begin());
            } else {
                options.model_per_variant = true;
                model_name = "auto";
            }
        }
    }
    options.explore.max_executions = max_executions;
    options.explore.timeout_seconds = timeout;
    options.explore.context_bound = context_bound;
    options.explore.random_executions = random_executions;
    options.explore.capture = vm.count("no-capture") == 0;
    options.certify = vm.count("no-certify") == 0;
    options.explore.reduction = vm.count("no-por") == 0;
    options.keep_execution_hashes = vm.count("execution-hashes") != 0 || vm.count("shard") != 0;
    // A declared mutant must name one ordering site of its base (explain, diff and report weaken
    // it there): a declaration they would reject is rejected here too, before the run.
    for (const VariantDef* v : selected) {
        if (!v->derived) continue;
        try {
            (void)declared_site(*v, models, options.explore);
        } catch (const std::invalid_argument& e) {
            std::cerr << "ordercheck: " << e.what() << '\n';
            return cli::exit_usage;
        }
    }

    cli::RunPlan plan;
    plan.jobs = jobs;
    if (vm.count("shard")) {
        plan.only_shard = cli::parse_shard(vm["shard"].as<std::string>());
        if (!plan.only_shard) return usage_error("--shard takes I/N with 0 <= I < N (got '" + vm["shard"].as<std::string>() + "')");
        if (vm.count("shards")) return usage_error("give either --shard I/N or --shards N, not both");
    }
    if (vm.count("shards")) {
        plan.shards = shards;
    } else if (plan.jobs > 1 && selected.size() < plan.jobs && !plan.only_shard) {
        plan.shards = 4 * plan.jobs;  // few variants: split them so that every worker has work
    }
    if ((plan.only_shard || plan.shards > 1) && search == "random") {
        if (vm.count("shard") || vm.count("shards")) return usage_error("only --search full or bound can be sharded");
        plan.shards = 1;
    }
    plan.progress = vm.count("no-progress") ? cli::ProgressMode::Off
                    : vm.count("progress")  ? cli::ProgressMode::On
                                            : cli::ProgressMode::Auto;
    cli::ReportHook write_witness;
    if (vm.count("witness-dir")) {
        const std::filesystem::path base = vm["witness-dir"].as<std::string>();
        write_witness = [base](Report& r) {
            if (r.status != Status::Fail || !r.witness) return;
            cli::ExplainOptions eo;
            eo.force = true;
            auto dir = base / slug(r.id);
            if (r.shard.count > 1 && r.shard.merged.empty()) dir /= "shard-" + std::to_string(r.shard.index);
            cli::explain(r, eo, dir);
            r.witness_path = (dir / "witness.svg").string();
        };
    }
    cli::RunSettings settings{search,          max_executions,          timeout,
                              context_bound,   random_executions,       options.explore.capture,
                              options.certify};
    settings.reduction = options.explore.reduction;
    settings.engine = engine;
    settings.model = model_name;
    settings.model_option = model_option_name;
    settings.catalogue = catalogue_identity(program);
    for (const VariantDef* v : selected)
        if (const auto it = litmus_hashes().find(v->id()); it != litmus_hashes().end()) settings.litmus[v->id()] = it->second;
    plan.settings = settings;
    const cli::RunOutcome run = cli::run_checks(selected, options, plan, write_witness);
    if (!run.print) {  // an MPI rank other than 0: rank 0 reports
        stop_reported = true;
        return stop_cause() == StopCause::Interrupt ? exit_interrupted : cli::exit_ok;
    }
    const std::vector<Report>& reports = run.reports;
    settings.jobs = run.processes;
    std::string text = format == "json"    ? cli::format_json(reports, settings)
                       : format == "junit" ? cli::format_junit(reports, settings)
                                           : cli::format_text(reports, settings);
    if (run.stopped) text = mark_interrupted(text, format, run.finished, run.total);
    std::cout << text << std::flush;
    if (run.stopped) return stopped_after(run.finished, run.total, "variants");
    return cli::exit_code(reports);
}

}  // namespace oc::cli::commands
