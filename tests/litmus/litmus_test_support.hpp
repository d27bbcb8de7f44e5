// SPDX-License-Identifier: MIT
// What the litmus unit tests share: a source's parse error, and a source run under the defaults.
#pragma once

#include <string>

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

}  // namespace oc::litmus::test
