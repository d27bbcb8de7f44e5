// SPDX-License-Identifier: MIT
// The ordercheck commands over the models a program passes in (cli/commands.hpp); the
// ordercheck executable (main.cpp) passes the catalogue.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/catalogue_select.hpp"
#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/command_variants.hpp"
#include "cli/commands.hpp"
#include "cli/explain.hpp"
#include "cli/format.hpp"
#include "cli/parallel.hpp"
#include "cli/report_html.hpp"
#include "checker/driver/check.hpp"
#include "checker/driver/diff.hpp"
#include "checker/driver/necessity.hpp"
#include "checker/version.hpp"
#include "litmus/run.hpp"

using namespace oc;
using namespace oc::cli::commands;

namespace {

constexpr const char* usage_head =
    "usage: ordercheck <command> [options]\n"
    "\n"
    "commands:\n"
    "  list [--markdown]              models, variants and their expectations\n"
    "  check [ID...|--all] [options]  explore variants and judge each verdict against its expectation\n"
    "  explain ID --out DIR [options] draw the variant's witness: DOT, SVG, text trace, interleaving, JSON\n"
    "  necessity ID [--out DIR]       weaken each barrier of a proved variant in turn: which are needed?\n"
    "  diff A B [--allow-new-outcomes] compare the outcome sets, verdicts and metrics of two variants\n"
    "  report --out DIR [ID...]       a static HTML report: tables, metrics, necessity, figures\n"
    "  litmus FILE|DIR... [options]   run C litmus tests (herd7's LKMM dialect), judge their Result: lines\n"
    "  merge FILE... [--format F]     combine the JSON reports of shards (check --shard I/N) into one verdict\n"
    "\n"
    "An ID is a variant (SB/relaxed) or a model (SB: all its variants); explain also takes a .litmus file.\n";
constexpr const char* usage_tail =
    "Under `mpirun -n K ordercheck check ...` each rank explores one shard of every variant; rank 0 merges.\n"
    "\n"
    "exit codes (check):\n"
    "  0  every verdict matches its expectation and every search settled it\n"
    "  1  some verdict does not match, or an engine failure was not expected\n"
    "  2  usage or input error\n"
    "  3  some search was cut short or not exhaustive and settled nothing (no mismatch found)\n"
    "exit codes (merge): as check; 2 also for shards that do not come from one run\n"
    "exit codes (diff): 0 B reaches no outcome A cannot (or --allow-new-outcomes); 1 it does; 3 not exact\n"
    "exit codes (necessity): 0 every weakening decided; 3 some not decided\n"
    "exit codes (litmus): 0 every judged test matches its Result:; 1 some does not (or the engine failed);\n"
    "  2 usage error or a test that does not parse; 3 some search cut short, nothing else wrong\n"
    "every command: 130 interrupted (SIGINT, SIGTERM; what finished is kept; a second one quits at once);\n"
    "  3 when the whole-command --timeout of necessity, explain, diff or report runs out\n";

/// The program's usage note (Program::usage_note), set once by cli::main.
std::string& usage_note() {
    static std::string note;
    return note;
}

/// The general usage text: the commands, what an id is, the program's note, the exit codes.
std::string usage_text() { return usage_head + usage_note() + usage_tail; }

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
        ("no-certify", "count executions without checking them against the RC11 axioms")
        ("no-capture", "record no execution graphs (no certification, witnesses or distinct counts; "
                       "for measuring the cost of capture)")
        ("no-por", "no partial-order reduction: run every interleaving of the full search")
        ("jobs,j", po::value<std::string>()->default_value("1"),
         "explore in N worker processes (variants and shards; at most 256)")
        ("shards", po::value<std::string>(), "split each variant's search into N shards and merge them (default: 1; "
                                          "with --jobs and fewer variants than jobs, 4 per job)")
        ("shard", po::value<std::string>(), "explore only shard I/N of each variant's search; combine the JSON "
                                            "reports of all N with `ordercheck merge`")
        ("execution-hashes", "list every distinct execution's canonical hash in the JSON report")
        ("progress", "progress on stderr even when it is not a terminal (runs longer than a second)")
        ("no-progress", "no progress on stderr")
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "variant or model ids",
                                        "usage: ordercheck check [ID...|--all] [options]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const auto max_executions = static_cast<std::uint64_t>(integer_option(vm, "max-executions", 0, max_count, " (0: no limit)"));
    const double timeout = seconds_option(vm, "timeout");
    const auto context_bound = static_cast<unsigned>(integer_option(vm, "context-bound", 0, 1000));
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
    if (engine != "relacy" && search != "full")
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
    std::string model_name;
    {
        const auto choice = model_option(model, options.explore.engine);
        if (!choice) return cli::exit_usage;
        if (choice->kind == ModelKind::Lkmm && options.cross_check)
            return usage_error("--engine both cross-checks Relacy against RC11; it does not apply to --model lkmm");
        options.explore.model = choice->kind;
        model_name = to_string(choice->kind);
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
    settings.model_option = model;
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

int cmd_merge(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("merge options");
    std::string format = "text";
    opts.add_options()("format", po::value(&format)->default_value("text"), "text | json | junit")
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "shard reports (JSON)",
                                        "usage: ordercheck merge FILE... [TEST.litmus...] [--format text|json|junit]\n"
                                        "Combines the JSON reports of `check --shard I/N --format json` into one "
                                        "report per variant;\na variant is exhaustive only if all N shards are "
                                        "given and each completed. Shards of litmus tests\nneed the test files "
                                        "(unchanged since the run).\n");
    if (parsed.help) return cli::exit_ok;
    if (format != "text" && format != "json" && format != "junit")
        return usage_error("--format must be text, json or junit (got '" + format + "')");
    std::vector<std::string> files;
    auto models = program.models;
    models.insert(models.end(), program.by_id_only.begin(), program.by_id_only.end());
    std::map<std::string, const VariantDef*> by_id;
    for (const auto& m : models)
        for (const auto& v : m.variants) by_id[v.id()] = &v;
    for (const auto& arg : parsed.positional) {
        if (!arg.ends_with(".litmus")) {
            files.push_back(arg);
            continue;
        }
        if (!is_litmus_file(arg)) return usage_error("no such file: '" + arg + "'");
        const VariantDef* v = litmus_variant(arg);
        if (v == nullptr) return cli::exit_usage;
        by_id[v->id()] = v;
    }
    if (files.empty()) return usage_error("merge needs the JSON reports of the shards");
    const auto lookup = [&](const std::string& id) -> const VariantDef* {
        const auto it = by_id.find(id);
        return it == by_id.end() ? nullptr : it->second;
    };
    // Only shards of one run combine: every file must record the same run (run_difference()),
    // judged against this program's catalogue (the expectations come from it).
    std::vector<Report> shards;
    cli::RunSettings settings;
    const std::string catalogue = catalogue_identity(program);
    std::string first_file;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) return usage_error("cannot read '" + file + "'");
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        cli::RunSettings run;
        try {
            for (auto& r : cli::parse_json(text, lookup, &run)) shards.push_back(std::move(r));
        } catch (const std::exception& e) {
            std::cerr << "ordercheck: " << file << ": " << e.what() << '\n';
            return cli::exit_usage;
        }
        for (const auto& [id, hash] : run.litmus) {
            const auto it = litmus_hashes().find(id);
            if (it == litmus_hashes().end()) {
                std::cerr << "ordercheck: merge: " << file << " ran the litmus test " << id
                          << "; name its .litmus file too\n";
                return cli::exit_usage;
            }
            if (it->second != hash) {
                std::cerr << "ordercheck: merge: " << file << " ran " << id << " from another file than the one given ("
                          << "content hash " << hash << ", given " << it->second << ")\n";
                return cli::exit_usage;
            }
        }
        if (run.catalogue != catalogue) {
            std::cerr << "ordercheck: merge: " << file << " was judged against another catalogue ("
                      << (run.catalogue.empty() ? std::string("not recorded") : run.catalogue) << ") than this ordercheck's ("
                      << catalogue << "); merge with the ordercheck that ran the shards\n";
            return cli::exit_usage;
        }
        if (first_file.empty()) {
            settings = run;
            first_file = file;
        } else if (const auto d = cli::run_difference(settings, run)) {
            std::cerr << "ordercheck: merge: " << first_file << " and " << file << " are not shards of one run: "
                      << d->field << " differs (" << d->a << " in " << first_file << ", " << d->b << " in " << file
                      << ")\n";
            return cli::exit_usage;
        }
    }
    std::vector<Report> merged;
    try {
        merged = cli::merge_by_variant(shards);
    } catch (const std::invalid_argument& e) {
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    std::cout << (format == "json"    ? cli::format_json(merged, settings)
                  : format == "junit" ? cli::format_junit(merged, settings)
                                      : cli::format_text(merged, settings));
    return cli::exit_code(merged);
}


/// Explores V, draws its witness (or, with --any, its first execution) under OUT and lists what
/// was written.
int explain_variant(const VariantDef& v, const cli::ExplainOptions& eo, const std::string& out, EngineKind engine,
                    ModelKind model, const std::vector<ModelDef>& models = {}) {
    CheckOptions options;
    options.explore.engine = engine;
    options.explore.model = model;
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
                   ModelKind model) {
    std::shared_ptr<const litmus::Compiled> test;
    try {
        test = litmus::load(path);
    } catch (const litmus::LitmusError& e) {
        std::cerr << e.what() << '\n';
        return cli::exit_usage;
    }
    return explain_variant(litmus::make_variant(test, litmus::RunMode::RaceCheck), eo, out, engine, model);
}

int cmd_litmus(const std::vector<std::string>& args) {
    po::options_description opts("litmus options");
    std::string engine = "graph", model = "auto";
    opts.add_options()
        ("engine", po::value(&engine)->default_value("graph"),
         "graph (every consistent execution once; herd's counts) | relacy (interleavings)")
        ("model", po::value(&model)->default_value("auto"),
         "auto (lkmm under the graph engine, rc11 under relacy) | lkmm (the kernel's memory model, as herd7 with "
         "linux-kernel.cat) | rc11 (the C++11 mapping: ordercheck-mapping: annotations apply)")
        ("max-executions", po::value<std::string>()->default_value("0"),
         "stop each search after N executions (0: no limit); a search cut short proves nothing")
        ("timeout", po::value<std::string>()->default_value("0"), "stop each search after S seconds (0: none)")
        ("no-certify", "count executions without checking them against the RC11 axioms")
        ("no-por", "explore without partial-order reduction (--engine relacy)")
        ("quiet,q", "print only the judgement line of each test and the summary")
        ("time", "print how long parsing and the exhaustive run took, per test")
        ("repeat", po::value<std::string>()->default_value("0"),
         "benchmark: parse and run each test N more times and print the median, min and max")
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "litmus files or directories",
                                        "usage: ordercheck litmus FILE|DIR... [options]\n"
                                        "Runs each C litmus test (a directory: its *.litmus files) and judges it against its\n"
                                        "Result: line as the kernel's judgelitmus.sh does (docs/litmus.md).\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const auto max_executions = static_cast<std::uint64_t>(integer_option(vm, "max-executions", 0, max_count, " (0: no limit)"));
    const double timeout = seconds_option(vm, "timeout");
    const auto repeat = static_cast<unsigned>(integer_option(vm, "repeat", 0, 1000));
    const std::vector<std::string>& inputs = parsed.positional;
    if (inputs.empty()) return usage_error("litmus needs at least one file or directory");
    std::vector<std::string> files;
    for (const auto& in : inputs) {
        namespace fs = std::filesystem;
        if (fs::is_directory(in)) {
            std::vector<std::string> found;
            for (const auto& e : fs::directory_iterator(in))
                if (e.is_regular_file() && e.path().extension() == ".litmus") found.push_back(e.path().string());
            std::sort(found.begin(), found.end());
            if (found.empty()) return usage_error("no .litmus files in directory '" + in + "'");
            files.insert(files.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(in)) {
            files.push_back(in);
        } else {
            return usage_error("no such file or directory: '" + in + "'");
        }
    }
    litmus::LitmusOptions lo;
    lo.max_executions = max_executions;
    lo.timeout_seconds = timeout;
    lo.certify = vm.count("no-certify") == 0;
    lo.reduction = vm.count("no-por") == 0;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    lo.engine = *engine_kind;
    const auto choice = model_option(model, lo.engine);
    if (!choice) return cli::exit_usage;
    lo.model = choice->per_variant ? ModelKind::Lkmm : choice->kind;  // litmus tests: kernel primitives
    const bool quiet = vm.count("quiet") != 0, show_time = vm.count("time") != 0;

    std::map<litmus::Judgement, unsigned> counts;
    unsigned parse_errors = 0;
    // Each test's lines are flushed as it finishes, so that an interrupt (or a second Ctrl-C,
    // which ends the process at once) loses none of them when stdout is a file or a pipe.
    std::size_t finished = 0;
    for (const auto& file : files) {
        if (stop_cause() != StopCause::None) break;
        const auto t0 = std::chrono::steady_clock::now();
        std::shared_ptr<const litmus::Compiled> test;
        try {
            test = litmus::load(file);
        } catch (const litmus::LitmusError& e) {
            std::cerr << e.what() << '\n';
            std::cout << "Judgement " << file << " ERROR: does not parse\n" << std::flush;
            ++parse_errors;
            ++finished;
            continue;
        }
        const double parse_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        litmus::LitmusResult r = litmus::run(test, lo);
        r.parse_seconds = parse_s;
        if (stop_cause() != StopCause::None &&
            (r.report.exploration == Exploration::CutShort ||
             (r.outcome_report && r.outcome_report->exploration == Exploration::CutShort)))
            break;  // the interrupt cut this test short: not a result
        if (quiet) std::cout << "Judgement " << test->program.name << ' ' << to_string(r.judgement) << ": " << r.judgement_text << '\n';
        else std::cout << litmus::format_herd(r);
        if (show_time)
            std::cout << "Timing " << test->program.name << ": parse " << parse_s * 1e3 << " ms, run " << r.run_seconds * 1e3
                      << " ms (" << (r.outcome_report ? r.outcome_report->executions : r.report.executions)
                      << " executions)\n";
        if (repeat > 0) {
            std::vector<double> total, parse, explore;
            for (unsigned i = 0; i < repeat && stop_cause() == StopCause::None; ++i) {
                const auto a = std::chrono::steady_clock::now();
                auto t = litmus::load(file);
                const auto b = std::chrono::steady_clock::now();
                (void)litmus::run(t, lo);
                const auto c = std::chrono::steady_clock::now();
                parse.push_back(std::chrono::duration<double, std::milli>(b - a).count());
                explore.push_back(std::chrono::duration<double, std::milli>(c - b).count());
                total.push_back(std::chrono::duration<double, std::milli>(c - a).count());
            }
            const auto median = [](std::vector<double> v) {
                std::sort(v.begin(), v.end());
                return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
            };
            if (!total.empty())  // (empty: interrupted before the first run)
                std::cout << "Benchmark " << test->program.name << ": parse+run median " << median(total) << " ms (min "
                          << *std::min_element(total.begin(), total.end()) << ", max "
                          << *std::max_element(total.begin(), total.end()) << ") over " << total.size() << " runs; parse median "
                          << median(parse) << " ms, run median " << median(explore) << " ms\n";
        }
        if (!quiet) std::cout << '\n';
        std::cout << std::flush;
        ++counts[r.judgement];
        ++finished;
    }
    const unsigned ok = counts[litmus::Judgement::Match], failed = counts[litmus::Judgement::Mismatch] + counts[litmus::Judgement::Error];
    std::cout << "litmus: " << ok << " passed, " << failed << " failed (" << counts[litmus::Judgement::Incomplete]
              << " incomplete, " << counts[litmus::Judgement::Unjudged] << " unjudged, " << parse_errors
              << " not parsed; "
              << (finished < files.size() ? std::to_string(finished) + " of " + std::to_string(files.size()) +
                                                " files: interrupted"
                                          : std::to_string(files.size()) + " files")
              << ")\n"
              << std::flush;
    if (finished < files.size()) return stopped_after(finished, files.size(), "litmus tests");
    if (failed > 0) return cli::exit_mismatch;
    if (parse_errors > 0) return cli::exit_usage;
    if (counts[litmus::Judgement::Incomplete] > 0) return cli::exit_incomplete;
    return cli::exit_ok;
}

int cmd_explain(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("explain options");
    std::string out, show = "focus", engine = "graph", model = "auto";
    opts.add_options()
        ("out", po::value(&out), "directory to write into (created; must be empty unless --force)")
        ("engine", po::value(&engine)->default_value("graph"), "graph (an execution) | relacy (an interleaving)")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("show", po::value(&show)->default_value("focus"),
         "focus (the explaining cycle, the rest folded away) | all (every event: po,rf,co,fr) | a relation "
         "list for the full figure: po,rf,co,fr,sw,hb,eco")
        ("any", "when there is no witness, draw the first execution explored instead")
        ("force", "write into a directory that already holds files (replacing witness.*, interleaving.* and cycle.*)")
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "variant id",
                                        "usage: ordercheck explain ID --out DIR [--show focus|all|po,rf,co,fr,sw,hb] [--any] [--force] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 1) return usage_error("explain needs exactly one variant id");
    if (out.empty()) return usage_error("explain needs --out DIR");
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
    const auto choice = model_option(model, *engine_kind);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    if (is_litmus_file(ids[0]))
        return explain_litmus(ids[0], eo, out, *engine_kind, choice->per_variant ? ModelKind::Lkmm : choice->kind);

    const auto& models = program.models;
    const VariantDef* v = one_variant(models, ids[0]);
    return v == nullptr ? cli::exit_usage
                        : explain_variant(*v, eo, out, *engine_kind, one_model(*choice, *engine_kind, {v}), models);
}

int cmd_necessity(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("necessity options");
    std::string out, engine = "graph", model = "auto";
    opts.add_options()("out", po::value(&out), "write the witness of every needed barrier under DIR")
        ("engine", po::value(&engine)->default_value("graph"), "graph (every consistent execution once) | relacy")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "variant id",
                                        "usage: ordercheck necessity ID [--out DIR] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 1) return usage_error("necessity needs exactly one variant id");
    const auto& models = program.models;
    const VariantDef* v = one_variant(models, ids[0]);
    if (v == nullptr) return cli::exit_usage;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    const auto model_kind = one_model(*choice, *engine_kind, {v});
    CheckOptions options;
    options.explore.engine = *engine_kind;
    options.explore.model = model_kind;
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
                      ? "graph engine under " + std::string(to_string(model_kind)) + ", every consistent execution once"
                      : std::string("relacy full search"))
              << (model_kind == ModelKind::Lkmm ? ", every execution checked against LKMM's axioms)\n"
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

int cmd_diff(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("diff options");
    std::string engine = "graph", model = "auto";
    std::string out;
    opts.add_options()("allow-new-outcomes", "exit 0 even when B reaches outcomes A cannot (an intended change)")
        ("out", po::value(&out), "draw each outcome only B reaches (focused figure, explaining cycle) under DIR")
        ("engine", po::value(&engine)->default_value("graph"), "graph (every consistent execution once) | relacy")
        ("model", po::value(&model)->default_value("auto"), model_help)
        ("timeout", po::value<std::string>()->default_value("0"), command_timeout_help)
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "variant ids",
                                        "usage: ordercheck diff A B [--allow-new-outcomes] [--out DIR] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const std::vector<std::string>& ids = parsed.positional;
    if (ids.size() != 2) return usage_error("diff needs two variant ids: A (the base) and B (the change)");
    const auto& models = program.models;
    const VariantDef* a = one_variant(models, ids[0]);
    const VariantDef* b = a ? one_variant(models, ids[1]) : nullptr;
    if (a == nullptr || b == nullptr) return cli::exit_usage;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    const auto choice = model_option(model, *engine_kind);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    CheckOptions options;
    options.explore.engine = *engine_kind;
    options.explore.model = one_model(*choice, *engine_kind, {a, b});
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
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "models",
                                        "usage: ordercheck report --out DIR [MODEL|FILE.litmus...] [--no-necessity] [--force] [--timeout S]\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    if (out.empty()) return usage_error("report needs --out DIR");
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
    const auto choice = model_option(model, *engine_kind);
    if (!choice) return cli::exit_usage;
    start_command_timeout(parsed.vm);
    const auto sections = cli::build_sections(models, vm.count("no-necessity") == 0, *engine_kind,
                                              choice->per_variant ? std::nullopt : std::optional(choice->kind));
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

int run_command(const std::string& command, std::vector<std::string>& args, const cli::Program& program);

}  // namespace

int oc::cli::main(int argc, char** argv, Program program) {
    usage_note() = std::move(program.usage_note);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage_error("no command given");
    const std::string command = args.front();
    args.erase(args.begin());
    for (const char* known : {"list", "check", "explain", "litmus", "merge", "necessity", "diff", "report"})
        if (command == known) current_command() = command;
    install_stop_handlers();
    const int code = run_command(command, args, program);
    if (stop_cause() == StopCause::Interrupt && !stop_reported) {
        // a command with nothing to count (list, merge), or interrupted as it finished
        std::cerr << "ordercheck: interrupted\n";
        return exit_interrupted;
    }
    return code;
}

namespace {

int run_command(const std::string& command, std::vector<std::string>& args, const cli::Program& program) {
    try {
        if (command == "list") return cmd_list(args, program);
        if (command == "check") return cmd_check(args, program);
        if (command == "explain") return cmd_explain(args, program);
        if (command == "litmus") return cmd_litmus(args);
        if (command == "merge") return cmd_merge(args, program);
        if (command == "necessity") return cmd_necessity(args, program);
        if (command == "diff") return cmd_diff(args, program);
        if (command == "report") return cmd_report(args, program);
        if (command == "--version" || command == "version") {
            std::cout << "ordercheck " << version << '\n';
            return cli::exit_ok;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage_text();
            return cli::exit_ok;
        }
        return usage_error("unknown command '" + command + "'");
    } catch (const po::error& e) {
        return usage_error(e.what());
    } catch (const UsageError& e) {
        return usage_error(e.what());
    } catch (const std::exception& e) {
        std::cerr << "ordercheck: error: " << e.what() << '\n';
        return cli::exit_usage;
    }
}

}  // namespace

int oc::cli::main(int argc, char** argv, std::vector<ModelDef> models) {
    return oc::cli::main(argc, argv, Program{std::move(models), {}, {}});
}
