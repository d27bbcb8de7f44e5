// SPDX-License-Identifier: MIT
// Which cat model to load: herd's -conf files (the kernel's tools/memory-model/linux-kernel.cfg)
// and the bell file that goes with a cat file. docs/cat.md says how a command selects one.
#pragma once

#include <string>

#include "checker/memory_model/cat/cat_ast.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"

namespace oc::cat {

/// What a herd configuration file says about the model, its paths made relative to the
/// current directory (the file names them relative to its own folder).
struct CatConfig {
    std::string model;   ///< `model FILE`: the cat file
    std::string bell;    ///< `bell FILE`: "" when the file names none
    std::string macros;  ///< `macros FILE` (herd's .def): the litmus primitives' table (litmus/def_table.hpp)
    /// `variant a,b`: the variants selected; ordercheck honours lkmmv1 and lkmmv2 (herd's
    /// LKMMVersion, which changes the events an RMW makes: docs/cat.md).
    Variants variants;
};

/// Reads the herd configuration file at `path`: its `model`, `bell`, `macros` and `variant`
/// lines; the keys that only change herd's figures and output (graph, squished, showevents...)
/// are ignored. Throws CatError "FILE:LINE:COL: error: ..." for a file that cannot be read, a
/// key that would change herd's verdict but that ordercheck does not honour (a variant other
/// than lkmmv1/lkmmv2, `through`, `skipchecks`...), a file it names that is not there, or no `model` line.
CatConfig read_config(const std::string& path);

/// The bell file herd would use with `cat_path` when nothing names one: the `.bell` file of the
/// same name next to it (linux-kernel.cat: linux-kernel.bell), "" when there is none.
std::string bell_next_to(const std::string& cat_path);

}  // namespace oc::cat
