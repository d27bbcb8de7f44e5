// SPDX-License-Identifier: MIT
// The whole `ordercheck` command line over any list of models: the ordercheck executable passes
// the catalogue, a program of your own passes your models (docs/writing-models.md, "Your own
// models, out of tree").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checker/model/model.hpp"

namespace oc::cli {

/// The models a program offers on its command line.
struct Program {
    /// Every model: `list`, `check --all`, `explain`, `necessity`, `diff`, `report` and `merge`
    /// see these, in this order.
    std::vector<ModelDef> models;
    /// Models `check` and `merge` also accept by id, but that `check --all`, `list` and the other
    /// commands leave out (the ordercheck executable: the scaling family, bench/scaling.hpp).
    std::vector<ModelDef> by_id_only;
    /// Extra lines for the general usage text, after the line on ids (each ends in '\n').
    std::string usage_note;
    /// Models appended to `models` only for the commands that see them (not `litmus`,
    /// `--version`, `--help`): the ordercheck executable's C twins, parsed from their embedded
    /// text, which would otherwise cost every run of `litmus` the time of parsing them all. An
    /// exception it throws (a litmus file that does not parse) ends the command: its message,
    /// exit 2.
    std::function<std::vector<ModelDef>()> late_models;
};

/// Runs the command line `argv` (`list`, `check`, `explain`, `necessity`, `diff`, `report`,
/// `litmus`, `merge`, `--version`, `--help`) over `program` and returns the process exit code;
/// the commands, options, output and exit codes are those of `ordercheck` (README.md).
int main(int argc, char** argv, Program program);

/// The same over `models` alone.
int main(int argc, char** argv, std::vector<ModelDef> models);

}  // namespace oc::cli

/// Defines `int main(int argc, char** argv)` running the ordercheck command line over the models
/// that `models_function()` returns (a `std::vector<oc::ModelDef>`, or anything convertible to
/// it). Use it once, in one source file of the program.
#define ORDERCHECK_MAIN(models_function)                                                   \
    int main(int argc, char** argv) {                                                      \
        return ::oc::cli::main(argc, argv, std::vector<::oc::ModelDef>(models_function())); \
    }
