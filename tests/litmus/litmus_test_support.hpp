// SPDX-License-Identifier: MIT
// What the litmus unit tests share: a source's parse error, and a source run under the defaults.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "litmus/parser.hpp"
#include "litmus/run.hpp"

namespace oc::litmus::test {

/// The error message `source` produces (file name t.litmus), or "" if it parses.
inline std::string error_of(const std::string& source) {
    try {
        parse(source, "t.litmus");
    } catch (const LitmusError& e) {
        return e.what();
    }
    return "";
}

/// `source` (file name t.litmus) run with the default options.
inline LitmusResult run_source(const std::string& source) {
    return run(compile(parse(source, "t.litmus")), LitmusOptions{});
}

/// A compiled test checked under the graph engine and LKMM, its first execution kept: `test`
/// owns what the report's events point into (primitive names, source files).
struct FirstExecution {
    std::shared_ptr<const Compiled> test;
    Report report;
};
inline FirstExecution first_execution_under_lkmm(std::shared_ptr<const Compiled> test) {
    FirstExecution f{std::move(test), {}};
    CheckOptions o;
    o.keep_first_execution = true;
    o.explore.engine = EngineKind::Graph;
    o.explore.model = ModelKind::Lkmm;
    f.report = check(make_variant(f.test, RunMode::RaceCheck), o);
    return f;
}

}  // namespace oc::litmus::test
