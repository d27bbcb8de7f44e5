// SPDX-License-Identifier: MIT
// The ordercheck command line over the models a program passes in (cli/commands.hpp): cli::main,
// the general usage text and the dispatch to the commands, each in its cli/cmd_*.cpp file. The
// ordercheck executable (main.cpp) passes the catalogue.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_options.hpp"
#include "cli/command_stop.hpp"
#include "cli/commands.hpp"
#include "cli/format.hpp"
#include "cli/subcommands.hpp"
#include "checker/version.hpp"

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
    if (program.late_models && !current_command().empty() && command != "litmus") {
        try {
            for (ModelDef& m : program.late_models()) program.models.push_back(std::move(m));
        } catch (const std::exception& e) {
            std::cerr << e.what() << '\n';
            return cli::exit_usage;
        }
    }
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
    return oc::cli::main(argc, argv, Program{std::move(models), {}, {}, {}});
}
