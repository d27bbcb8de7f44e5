// SPDX-License-Identifier: MIT
// Interruption and the whole-command --timeout of the ordercheck commands (cli/command_stop.hpp).
#include "cli/command_stop.hpp"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <sstream>

#include "cli/format.hpp"

using namespace oc;

namespace oc::cli::commands {

// ---- interruption and the whole-command --timeout ---------------------------------------------

namespace {

volatile std::sig_atomic_t stop_signals = 0;

/// SIGINT, SIGTERM: the first asks every search to stop (request_stop(); the command reports
/// what it finished and exits 130); a second ends the process at once.
void on_stop_signal(int) {
    if (stop_signals != 0) ::_exit(exit_interrupted);
    stop_signals = 1;
    request_stop(StopCause::Interrupt);
}

/// The whole command's --timeout (necessity, explain, diff, report), for the messages.
double command_timeout = 0;

}  // namespace

bool stop_reported = false;

void install_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // writes to stdout resume; poll() in run_in_workers returns early
    for (const int sig : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0) continue;
        if (old.sa_handler == SIG_IGN) continue;  // ignored by whoever started us (a background job): it stays so
        ::sigaction(sig, &sa, nullptr);
    }
}

int stopped(const std::string& how_far) {
    stop_reported = true;
    if (stop_cause() == StopCause::Interrupt) {
        std::cerr << "ordercheck: interrupted " << how_far << '\n';
        return exit_interrupted;
    }
    std::ostringstream seconds;
    seconds << command_timeout;
    std::cerr << "ordercheck: --timeout " << seconds.str() << " s ran out " << how_far
              << "; what is not finished is incomplete (no verdict)\n";
    return cli::exit_incomplete;
}
int stopped_after(std::size_t finished, std::size_t total, const std::string& what) {
    return stopped("after " + std::to_string(finished) + " of " + std::to_string(total) + " " + what);
}

void start_command_timeout(const po::variables_map& vm) {
    command_timeout = seconds_option(vm, "timeout");
    set_stop_deadline(command_timeout);
}

}  // namespace oc::cli::commands
