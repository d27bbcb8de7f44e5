// SPDX-License-Identifier: MIT
// The variants the ordercheck commands (cli/cmd_*.cpp) are given: ids of the program's models or
// litmus files, resolved to variants; the litmus files' and the catalogue's identities a report
// records; a variant id as a directory name.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checker/model/model.hpp"
#include "cli/commands.hpp"

namespace oc::cli::commands {

/// S with every character but a letter or a digit made '_': a directory name (witnesses, figures).
std::string slug(std::string s);

/// True when `id` names an existing file ending in .litmus (explain then draws the litmus test).
bool is_litmus_file(const std::string& id);

/// The content_hash() of each litmus file named on the command line, by its variant id: part of
/// what a report records of its run.
std::map<std::string, std::string>& litmus_hashes();

/// The catalogue_hash() of every model the program can check (the scaling family included).
std::string catalogue_identity(const cli::Program& program);

/// The variant of a litmus file: its expectation is its Result: line (none: explored, not
/// judged). A test whose Result: carries DATARACE is explored with plain accesses as relaxed
/// ones (herd's verdict after the race flag; `ordercheck litmus` judges the flag itself).
/// Prints the parse error and returns nullptr when the file does not parse.
const VariantDef* litmus_variant(const std::string& path);
/// The unroll bound of the litmus files resolved after this call (`--unroll N` of check,
/// necessity, diff, report): their loops that are not awaits run up to N iterations, and a run
/// cut there makes the report Bounded (never a proof). 0 (the default): no bound is counted, and
/// a cut stops the search with an error (explain).
void set_litmus_unroll(unsigned unroll);

/// Resolves ids that are catalogue ids or litmus files, in the order given. Prints the error
/// and returns false for an unknown id or a litmus file that does not parse.
bool resolve_ids(const std::vector<ModelDef>& models, const std::vector<std::string>& ids,
                 std::vector<const VariantDef*>& out);

/// Resolves exactly one variant id; prints the error and returns nullptr otherwise.
const VariantDef* one_variant(const std::vector<ModelDef>& models, const std::string& id);

}  // namespace oc::cli::commands
