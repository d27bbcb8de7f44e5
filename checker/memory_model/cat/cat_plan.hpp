// SPDX-License-Identifier: MIT
// A cat model compiled whole (Program::planned: every statement a compiled check, a compiled
// binding, a `let rec` of compiled values, or a `with` of the two kinds the kernel's and herd's
// models use) runs as its steps in order, over the compiled operations' buffers, with none of
// the evaluator's scopes and values. It gives the evaluator's Outcome, axiom for axiom and flag
// for flag (tests/memory_model/cat_test.cpp compares the two on every query of the corpus).
#pragma once

#include "checker/memory_model/cat/cat_compile.hpp"
#include "checker/memory_model/cat/cat_eval.hpp"

namespace oc::cat {

/// Runs planned program `p` on `g` (events shown as `dialect` says), to the goal's end
/// (Goal::FirstViolation or Goal::Everything).
Outcome run_plan(const Program& p, const ExecutionGraph& g, const Dialect& dialect, Goal goal);

}  // namespace oc::cat
