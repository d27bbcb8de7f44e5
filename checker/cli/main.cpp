// SPDX-License-Identifier: MIT
// ordercheck: model-check the memory-ordering protocols of Linux kernel mm code.
#include <boost/program_options.hpp>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "checker/cli/catalogue_select.hpp"
#include "checker/cli/explain.hpp"
#include "checker/cli/format.hpp"
#include "checker/driver/check.hpp"
#include "checker/version.hpp"
#include "models/catalogue.hpp"

namespace po = boost::program_options;
using namespace oc;

namespace {

constexpr const char* usage_text =
    "usage: ordercheck <command> [options]\n"
    "\n"
    "commands:\n"
    "  list [--markdown]              models, variants and their expectations\n"
    "  check [ID...|--all] [options]  explore variants and judge each verdict against its expectation\n"
    "  explain ID --out DIR [options] draw the variant's witness: DOT, SVG, text trace, interleaving, JSON\n"
    "\n"
    "An ID is a variant (SB/relaxed) or a model (SB: all its variants).\n"
    "\n"
    "exit codes (check):\n"
    "  0  every verdict matches its expectation and every search settled it\n"
    "  1  some verdict does not match, or an engine failure was not expected\n"
    "  2  usage or input error\n"
    "  3  some search was cut short or not exhaustive and settled nothing (no mismatch found)\n";

int usage_error(const std::string& message) {
    std::cerr << "ordercheck: " << message << "\n\n" << usage_text;
    return cli::exit_usage;
}

int cmd_list(const std::vector<std::string>& args) {
    po::options_description opts("list options");
    opts.add_options()("markdown", "print a Markdown table")("help,h", "this help");
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: ordercheck list [--markdown]\n" << opts;
        return cli::exit_ok;
    }
    const bool md = vm.count("markdown") != 0;
    const auto models = models::catalogue();
    if (md) std::cout << "| variant | threads | expected | RC11 | LKMM | what it shows |\n|---|---|---|---|---|---|\n";
    for (const auto& m : models) {
        if (!md) std::cout << m.name << " (" << m.family << "): " << m.description << '\n';
        for (const auto& v : m.variants) {
            const std::string expected = to_string(v.expect.engine_answer());
            const std::string lkmm = v.expect.lkmm ? std::string(to_string(*v.expect.lkmm)) : "";
            if (md)
                std::cout << "| `" << v.id() << "` | " << v.thread_count() << " | " << expected << " | "
                          << to_string(v.expect.memory_model) << " | " << lkmm << " | " << v.expect.why << " |\n";
            else
                std::cout << "  " << v.id() << "  expect " << expected
                          << (v.expect.engine ? "  (engine limitation; RC11: " + to_string(v.expect.memory_model) + ")" : "")
                          << (v.expect.lkmm ? "  (LKMM: " + lkmm + ")" : "") << '\n';
        }
    }
    return cli::exit_ok;
}

int cmd_check(const std::vector<std::string>& args) {
    po::options_description opts("check options");
    std::string search = "full", format = "text";
    std::uint64_t max_executions = 0, random_executions = 100000;
    double timeout = 0;
    unsigned context_bound = 2;
    opts.add_options()
        ("all", "check every variant of every model")
        ("search", po::value(&search)->default_value("full"), "full | bound | random")
        ("format", po::value(&format)->default_value("text"), "text | json")
        ("max-executions", po::value(&max_executions)->default_value(0),
         "stop each search after N executions (0: no limit); a search cut short proves nothing")
        ("timeout", po::value(&timeout)->default_value(0), "stop each search after S seconds (0: none)")
        ("context-bound", po::value(&context_bound)->default_value(2), "preemptions per execution (--search bound)")
        ("random-executions", po::value(&random_executions)->default_value(100000),
         "executions drawn by --search random")
        ("help,h", "this help");
    po::options_description hidden;
    hidden.add_options()("id", po::value<std::vector<std::string>>(), "variant or model ids");
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description pos;
    pos.add("id", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
        std::cout << "usage: ordercheck check [ID...|--all] [options]\n" << opts;
        return cli::exit_ok;
    }
    if (search != "full" && search != "bound" && search != "random")
        return usage_error("--search must be full, bound or random (got '" + search + "')");
    if (format != "text" && format != "json") return usage_error("--format must be text or json (got '" + format + "')");
    if (timeout < 0) return usage_error("--timeout must not be negative");

    const auto models = models::catalogue();
    std::vector<std::string> ids;
    if (vm.count("id")) ids = vm["id"].as<std::vector<std::string>>();
    if (ids.empty() && !vm.count("all")) return usage_error("check needs variant ids or --all");
    if (!ids.empty() && vm.count("all")) return usage_error("give either ids or --all, not both");
    std::string error;
    const auto selected = cli::select_variants(models, ids, error);
    if (!error.empty()) {
        std::cerr << "ordercheck: " << error;
        return cli::exit_usage;
    }

    CheckOptions options;
    options.explore.search = search == "full" ? SearchKind::Full : search == "bound" ? SearchKind::Bound : SearchKind::Random;
    options.explore.max_executions = max_executions;
    options.explore.timeout_seconds = timeout;
    options.explore.context_bound = context_bound;
    options.explore.random_executions = random_executions;

    std::vector<Report> reports;
    for (const VariantDef* v : selected) reports.push_back(check(*v, options));

    const cli::RunSettings settings{search, max_executions, timeout, context_bound, random_executions};
    std::cout << (format == "json" ? cli::format_json(reports, settings) : cli::format_text(reports, settings));
    return cli::exit_code(reports);
}

int cmd_explain(const std::vector<std::string>& args) {
    po::options_description opts("explain options");
    std::string out, show = "po,rf,co,fr";
    opts.add_options()
        ("out", po::value(&out), "directory to write into (created; must be empty unless --force)")
        ("show", po::value(&show)->default_value("po,rf,co,fr"), "relations to draw: po,rf,co,fr,sw,hb,eco")
        ("any", "when there is no witness, draw the first execution explored instead")
        ("force", "write into a directory that already holds files (replacing witness.* and interleaving.*)")
        ("help,h", "this help");
    po::options_description hidden;
    hidden.add_options()("id", po::value<std::vector<std::string>>(), "variant id");
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description pos;
    pos.add("id", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
        std::cout << "usage: ordercheck explain ID --out DIR [--show po,rf,co,fr,sw,hb] [--any] [--force]\n" << opts;
        return cli::exit_ok;
    }
    std::vector<std::string> ids;
    if (vm.count("id")) ids = vm["id"].as<std::vector<std::string>>();
    if (ids.size() != 1) return usage_error("explain needs exactly one variant id");
    if (out.empty()) return usage_error("explain needs --out DIR");
    cli::ExplainOptions eo;
    try {
        eo.show = RelationSet::parse(show);
    } catch (const std::invalid_argument& e) {
        return usage_error(std::string("--show: ") + e.what());
    }
    eo.any = vm.count("any") != 0;
    eo.force = vm.count("force") != 0;

    const auto models = models::catalogue();
    std::string error;
    const auto selected = cli::select_variants(models, ids, error);
    if (!error.empty()) {
        std::cerr << "ordercheck: " << error;
        return cli::exit_usage;
    }
    if (selected.size() != 1) return usage_error("explain draws one variant; '" + ids[0] + "' names a model");
    CheckOptions options;
    options.keep_first_execution = eo.any;
    const Report report = check(*selected.front(), options);
    cli::ExplainResult result;
    try {
        result = cli::explain(report, eo, out);
    } catch (const std::exception& e) {
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    for (const auto& m : result.messages) std::cout << m << '\n';
    for (const auto& p : result.written) std::cout << "  wrote " << p.string() << '\n';
    return cli::exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage_error("no command given");
    const std::string command = args.front();
    args.erase(args.begin());
    try {
        if (command == "list") return cmd_list(args);
        if (command == "check") return cmd_check(args);
        if (command == "explain") return cmd_explain(args);
        if (command == "--version" || command == "version") {
            std::cout << "ordercheck " << version << '\n';
            return cli::exit_ok;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            std::cout << usage_text;
            return cli::exit_ok;
        }
        return usage_error("unknown command '" + command + "'");
    } catch (const po::error& e) {
        return usage_error(e.what());
    } catch (const std::exception& e) {
        std::cerr << "ordercheck: error: " << e.what() << '\n';
        return cli::exit_usage;
    }
}
