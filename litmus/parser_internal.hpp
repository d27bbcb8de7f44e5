// SPDX-License-Identifier: MIT
// What the parser's files (parser.cpp) and the analysis (analysis.cpp) share. Internal to
// litmus/.
#pragma once

#include <string>

#include "litmus/ast.hpp"

namespace oc::litmus::detail {

/// "line:column", for messages that point at a second place.
std::string pos_text(SourcePos p);

/// The analysis after parsing (analysis.cpp): fills the analysis fields of `p` (Location::plain,
/// escapes, sections; Access::target, dep_head, section, srcu_lock; Program::computes_addresses)
/// and throws LitmusError for what the engine cannot check.
void analyse(Program& p);

}  // namespace oc::litmus::detail
