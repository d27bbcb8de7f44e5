// SPDX-License-Identifier: MIT
// `ordercheck litmus`: run C litmus tests (herd7's LKMM dialect) and judge each against its Result:
// line.
#include "cli/subcommands.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/format.hpp"
#include "cli/litmus_pool.hpp"
#include "cli/parallel.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "litmus/run.hpp"

using namespace oc;

namespace oc::cli::commands {

namespace {
constexpr unsigned shards_per_job = 4;
}  // namespace

int cmd_litmus(const std::vector<std::string>& args) {
    po::options_description opts("litmus options");
    std::string engine = "graph", model = "auto";
    opts.add_options()
        ("engine", po::value(&engine)->default_value("graph"),
         "graph (every consistent execution once; herd's counts) | relacy (interleavings)")
        ("model", po::value(&model)->default_value("auto"),
         "auto (lkmm under the graph engine, rc11 under relacy) | lkmm (the kernel's memory model, as herd7 with "
         "linux-kernel.cat; with ORDERCHECK_LKMM_DIR set, read from that tools/memory-model folder as --lkmm-dir does) | "
         "rc11 (the C++11 mapping: ordercheck-mapping: annotations apply)")
        ("max-executions", po::value<std::string>()->default_value("0"),
         "stop each search after N executions (0: no limit); a search cut short proves nothing")
        ("timeout", po::value<std::string>()->default_value("0"), "stop each search after S seconds (0: none)")
        ("unroll", po::value<std::string>()->default_value(std::to_string(litmus::default_unroll)),
         "iterations a loop that is not an await may run (herd7's -unroll); an execution that needs more is cut "
         "and the test's verdict is `bounded`, exit 3 (awaits need no bound: docs/litmus.md)")
        ("no-certify", "count executions without checking them against the memory model's axioms (RC11's certifier, LKMM's predicate)")
        ("no-por", "explore without partial-order reduction (--engine relacy)")
        ("guesses-only", "under LKMM, build every load-buffering cycle from guessed values, none by revisits: the "
                         "search before cycle revisits, to compare with (the same executions; docs/graph-engine.md)")
        ("jobs,j", po::value<std::string>()->default_value("1"),
         "N workers (at most 256): several tests run N at a time in worker processes, printed in order; one "
         "test's search is split into shards merged into one answer (graph engine): in N processes under RC11 or "
         "SC, on N threads under LKMM or a cat model, whose load-buffering rounds share what they learn; not with "
         "Relacy (docs/performance.md)")
        ("quiet,q", "print only the judgement line of each test and the summary")
        ("time", "print how long parsing and the exhaustive run took, per test (under LKMM, each load-buffering round too)")
        ("repeat", po::value<std::string>()->default_value("0"),
         "benchmark: parse and run each test N more times and print the median, min and max")
        ("help,h", "this help");
    add_cat_options(opts);
    const Parsed parsed = parse_command(args, opts, "litmus files or directories",
                                        "usage: ordercheck litmus FILE|DIR... [options]\n"
                                        "Runs each C litmus test (a directory: its *.litmus files) and judges it against its\n"
                                        "Result: line as the kernel's judgelitmus.sh does (docs/litmus.md).\n");
    if (parsed.help) return cli::exit_ok;
    const po::variables_map& vm = parsed.vm;
    const auto max_executions = static_cast<std::uint64_t>(integer_option(vm, "max-executions", 0, max_count, " (0: no limit)"));
    const double timeout = seconds_option(vm, "timeout");
    const auto repeat = static_cast<unsigned>(integer_option(vm, "repeat", 0, 1000));
    const auto unroll = static_cast<unsigned>(integer_option(vm, "unroll", 1, litmus::max_unroll));
    const auto jobs = static_cast<unsigned>(integer_option(vm, "jobs", 1, max_jobs, " (worker processes)"));
    if (jobs > 1 && repeat > 0) return usage_error("--repeat measures one process at a time: give it without --jobs");
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
    lo.unroll = unroll;
    lo.certify = vm.count("no-certify") == 0;
    lo.reduction = vm.count("no-por") == 0;
    lo.cycle_revisits = vm.count("guesses-only") == 0;
    const auto engine_kind = parse_engine(engine);
    if (!engine_kind) return usage_error("--engine must be graph or relacy (got '" + engine + "')");
    lo.engine = *engine_kind;
    const auto choice = model_option(model, lo.engine, vm);
    if (!choice) return cli::exit_usage;
    lo.model = choice->per_variant ? ModelKind::Lkmm : choice->kind;  // litmus tests: kernel primitives
    lo.memory_model = choice->memory_model;
    if (!lo.cycle_revisits && (lo.engine != EngineKind::Graph || lo.model != ModelKind::Lkmm))
        return usage_error("--guesses-only is how the graph engine builds load buffering under LKMM or a kernel cat "
                           "model: it does not go with --engine relacy or --model rc11");
    const bool quiet = vm.count("quiet") != 0, show_time = vm.count("time") != 0;
    if (jobs > 1 && files.size() == 1) {
        // One test: its search in `jobs` worker processes, `shards_per_job` shards each (the shards' sizes
        // vary: more of them than workers keeps every worker busy), merged as `check --jobs` does.
        // The graph engine's search only. Under a model with kernel events (LKMM) the search runs
        // in load-buffering rounds that learn from one another: there it is split over `jobs`
        // threads of this process instead (ExploreOptions::threads), which merge what each round
        // learnt. Relacy's shards may share executions, so their merged per-outcome counts would
        // be upper bounds, not herd's counts: Relacy stays on one thread (docs/performance.md,
        // "Litmus tests in several processes").
        lo.runner = [jobs](const VariantDef& v, const CheckOptions& co) -> std::optional<Report> {
            if (co.explore.engine != EngineKind::Graph) return check(v, co);
            if (searched_in_rounds(v, co)) {
                CheckOptions threaded = co;
                threaded.explore.threads = jobs;
                return check(v, threaded);
            }
            RunPlan plan;
            plan.jobs = jobs;
            plan.shards = shards_per_job * jobs;
            plan.progress = ProgressMode::Off;
            RunOutcome out = run_checks({&v}, co, plan, nullptr);
            if (out.reports.empty()) return std::nullopt;  // interrupted
            return std::move(out.reports.front());
        };
    }

    // One test: what it prints, and how it ended.
    const auto run_one = [&](std::size_t index) {
        const std::string& file = files[index];
        TestRun out;
        std::ostringstream o;
        const auto t0 = std::chrono::steady_clock::now();
        std::shared_ptr<const litmus::Compiled> test;
        try {
            test = litmus::load(file, choice->macros);
        } catch (const litmus::LitmusError& e) {
            out.kind = TestRun::Kind::ParseError;
            out.err = std::string(e.what()) + '\n';
            out.out = "Judgement " + file + " ERROR: does not parse\n";
            return out;
        }
        const double parse_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        litmus::LitmusResult r = litmus::run(test, lo);
        r.parse_seconds = parse_s;
        if (stop_cause() != StopCause::None &&
            (r.report.exploration == Exploration::CutShort ||
             (r.outcome_report && r.outcome_report->exploration == Exploration::CutShort))) {
            out.kind = TestRun::Kind::Interrupted;  // the interrupt cut this test short: not a result
            return out;
        }
        if (quiet) o << "Judgement " << test->program.name << ' ' << to_string(r.judgement) << ": " << r.judgement_text << '\n';
        else o << litmus::format_herd(r);
        if (show_time) {
            const Report& timed = r.outcome_report ? *r.outcome_report : r.report;
            o << "Timing " << test->program.name << ": parse " << parse_s * 1e3 << " ms, run " << r.run_seconds * 1e3
              << " ms (" << timed.executions << " executions)";
            // LKMM's load-buffering search: what each of its rounds took (docs/lkmm.md)
            for (std::size_t i = 0; i < timed.rounds.size(); ++i) {
                const SearchRound& s = timed.rounds[i];
                o << (i == 0 ? "; " : ", ")
                  << (s.proper ? std::string("exploration proper") : "round " + std::to_string(i + 1)) << ' '
                  << s.seconds * 1e3 << " ms (" << s.executions << " executions"
                  << (s.guesses ? "" : ", no guesses") << ')';
            }
            o << '\n';
        }
        if (repeat > 0) {
            std::vector<double> total, parse, explore;
            for (unsigned i = 0; i < repeat && stop_cause() == StopCause::None; ++i) {
                const auto a = std::chrono::steady_clock::now();
                auto t = litmus::load(file, choice->macros);
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
                o << "Benchmark " << test->program.name << ": parse+run median " << median(total) << " ms (min "
                  << *std::min_element(total.begin(), total.end()) << ", max " << *std::max_element(total.begin(), total.end())
                  << ") over " << total.size() << " runs; parse median " << median(parse) << " ms, run median "
                  << median(explore) << " ms\n";
        }
        if (!quiet) o << '\n';
        out.judgement = static_cast<int>(r.judgement);
        out.unsettled = r.cut_short || r.unroll_cuts > 0;
        out.out = o.str();
        return out;
    };

    std::map<litmus::Judgement, unsigned> counts;
    unsigned parse_errors = 0;
    unsigned unsettled = 0;  // searches cut short or bounded, judged or not
    // Each test's lines are flushed as it finishes, so that an interrupt (or a second Ctrl-C,
    // which ends the process at once) loses none of them when stdout is a file or a pipe.
    std::size_t emitted = 0;  // the file of the next result
    const auto emit = [&](const TestRun& t) {
        if (t.kind == TestRun::Kind::Interrupted) return false;
        if (t.kind == TestRun::Kind::WorkerFailed)
            std::cout << "Judgement " << files.at(emitted) << " ERROR: " << t.err << (t.err.ends_with('\n') ? "" : "\n");
        else
            std::cerr << t.err << std::flush;
        std::cout << t.out << std::flush;
        ++emitted;
        unsettled += t.unsettled;
        if (t.kind == TestRun::Kind::ParseError) ++parse_errors;
        else ++counts[t.kind == TestRun::Kind::Judged ? static_cast<litmus::Judgement>(t.judgement) : litmus::Judgement::Error];
        return true;
    };
    std::size_t finished = 0;
    if (jobs > 1 && files.size() > 1) {
        finished = run_pool(files.size(), jobs, run_one, emit);
    } else {
        for (std::size_t i = 0; i < files.size() && stop_cause() == StopCause::None; ++i) {
            if (!emit(run_one(i))) break;
            ++finished;
        }
    }
    const unsigned ok = counts[litmus::Judgement::Match], failed = counts[litmus::Judgement::Mismatch] + counts[litmus::Judgement::Error];
    std::cout << "litmus: " << ok << " passed, " << failed << " failed (" << counts[litmus::Judgement::Incomplete]
              << " incomplete, " << counts[litmus::Judgement::Bounded] << " bounded, " << counts[litmus::Judgement::Unjudged]
              << " unjudged, " << parse_errors
              << " not parsed; "
              << (finished < files.size() ? std::to_string(finished) + " of " + std::to_string(files.size()) +
                                                " files: interrupted"
                                          : std::to_string(files.size()) + " files")
              << ")\n"
              << std::flush;
    if (finished < files.size()) return stopped_after(finished, files.size(), "litmus tests");
    if (failed > 0) return cli::exit_mismatch;
    if (parse_errors > 0) return cli::exit_usage;
    // an unjudged test's search cut short settles nothing either (herd-like output: no Observation line)
    if (counts[litmus::Judgement::Incomplete] > 0 || counts[litmus::Judgement::Bounded] > 0 || unsettled > 0)
        return cli::exit_incomplete;
    return cli::exit_ok;
}

}  // namespace oc::cli::commands
