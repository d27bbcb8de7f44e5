// SPDX-License-Identifier: MIT
// `ordercheck litmus --jobs N` on several tests: up to N tests at once, each in a worker process
// (a fork of this one), their output printed in the order of the files.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace oc::cli {

/// What running one test printed, and how it ended.
struct TestRun {
    enum class Kind : unsigned char {
        Judged,       ///< `judgement` holds the test's litmus::Judgement
        ParseError,   ///< the file does not parse
        Interrupted,  ///< a stop cut the test short: not a result
        WorkerFailed  ///< the worker process died or sent nothing usable (`err` says how)
    };
    Kind kind = Kind::Judged;
    int judgement = 0;
    /// Its search was cut short or bounded (set whatever the judgement: an unjudged test's too).
    bool unsettled = false;
    std::string out, err;  ///< what goes to stdout and to stderr
};

/// Runs `run(i)` for every i < count in up to `jobs` worker processes at once and hands each
/// result to `emit` in the order of i, as soon as it and every one before it are in. Stops
/// starting tests once stop_cause() is set or `emit` returns false; the running workers are then
/// ended (SIGTERM) and waited for. Returns how many results `emit` was given.
std::size_t run_pool(std::size_t count, unsigned jobs, const std::function<TestRun(std::size_t)>& run,
                     const std::function<bool(const TestRun&)>& emit);

}  // namespace oc::cli
