// SPDX-License-Identifier: MIT
// How the ordercheck commands (cli/cmd_*.cpp) stop: SIGINT and SIGTERM, the whole-command
// --timeout, and the line a stopped command writes on stderr (how far it got) with its exit code.
#pragma once

#include <cstddef>
#include <string>

#include "cli/command_options.hpp"

namespace oc::cli::commands {

/// The exit code of a command stopped by SIGINT or SIGTERM (128 + SIGINT, as a shell reports it).
inline constexpr int exit_interrupted = 130;

/// True once a command has said how far it got when it was stopped (cli::main says it otherwise).
extern bool stop_reported;

/// Installs on_stop_signal() (command_stop.cpp) for SIGINT and SIGTERM, unless whoever started the
/// process ignores them.
void install_stop_handlers();

/// A command the stop reached says on stderr how far it got ("after 3 of 7 weakenings"):
/// interrupted (exit 130), or its --timeout ran out (exit 3: what is not finished is incomplete).
int stopped(const std::string& how_far);
int stopped_after(std::size_t finished, std::size_t total, const std::string& what);

inline constexpr const char* command_timeout_help =
    "stop the whole command after S seconds (0: none); what is not finished is reported incomplete, exit 3";

/// Reads and range-checks a whole-command --timeout (seconds_option) and starts its clock.
void start_command_timeout(const po::variables_map& vm);

}  // namespace oc::cli::commands
