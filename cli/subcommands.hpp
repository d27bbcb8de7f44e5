// SPDX-License-Identifier: MIT
// The ordercheck commands, one in each cli/cmd_*.cpp file, that cli::main (cli/commands.cpp)
// dispatches to: each takes the arguments after its name and returns the process exit code.
#pragma once

#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace oc::cli::commands {

/// `ordercheck list`: the models, their variants and their expectations (cli/cmd_list.cpp).
int cmd_list(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck check`: explore variants and judge each verdict against its expectation
/// (cli/cmd_check.cpp).
int cmd_check(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck merge`: combine the JSON reports of shards into one verdict (cli/cmd_merge.cpp).
int cmd_merge(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck litmus`: run C litmus tests and judge their Result: lines (cli/cmd_litmus.cpp).
int cmd_litmus(const std::vector<std::string>& args);
/// `ordercheck explain`: draw a variant's witness (cli/cmd_explain.cpp).
int cmd_explain(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck necessity`: weaken each barrier of a variant in turn (cli/cmd_necessity.cpp).
int cmd_necessity(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck diff`: compare the outcome sets, verdicts and metrics of two variants
/// (cli/cmd_diff.cpp).
int cmd_diff(const std::vector<std::string>& args, const cli::Program& program);
/// `ordercheck report`: a static HTML report (cli/cmd_report.cpp).
int cmd_report(const std::vector<std::string>& args, const cli::Program& program);

}  // namespace oc::cli::commands
