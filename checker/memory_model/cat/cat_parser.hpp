// SPDX-License-Identifier: MIT
// The parser of herd's cat language (cat_ast.hpp): a bell or cat file into statements, its
// includes resolved next to the including file. herd's own library files that the kernel's
// model includes (cross.cat, cos-opt.cat) are not read: the evaluator provides what they define
// (cat_eval.cpp says how).
#pragma once

#include <optional>
#include <set>
#include <string>

#include "checker/memory_model/cat/cat_ast.hpp"

namespace oc::cat {

/// The variants a configuration selects (herd's -variant, a .cfg's `variant` line: "lkmmv2").
using Variants = std::set<std::string>;

/// Parses `source`, read from `file` (includes are looked for in `file`'s directory), with the
/// `if VARIANT` conditionals resolved by `variants`. Throws CatError "FILE:LINE:COL: error:
/// expected ..., found ..." on malformed input.
Model parse(const std::string& source, const std::string& file, const Variants& variants = {});

/// The text of the model file at `path`; nullopt when it is not a regular file that can be read
/// (missing, unreadable, a folder: reading a folder gives no text, which would pass as a model
/// with no axioms).
std::optional<std::string> read_model_file(const std::string& path);

/// Reads and parses the file at `path`. Throws CatError when it cannot be read.
Model load(const std::string& path, const Variants& variants = {});

/// True for herd's library files the evaluator provides itself.
bool intrinsic_include(const std::string& name);

}  // namespace oc::cat
