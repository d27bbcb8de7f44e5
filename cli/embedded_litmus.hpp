// SPDX-License-Identifier: MIT
// Litmus files built into a program as models: the C twins of the seeds (models/c/MODEL/
// VARIANT.litmus, docs/writing-models.md), which scripts/embed-litmus.py embeds in the ordercheck
// executable at build time, so that `check --all`, `list` and the other commands see them
// wherever the executable is installed, with no data file to find.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "checker/model/model.hpp"

namespace oc::cli {

/// One litmus file: its path (relative to the source root: models/c/shrinker_bit/merged.litmus)
/// and its text.
struct EmbeddedLitmus {
    std::string_view path;
    std::string_view text;
};

/// One model `PREFIX + MODEL` per folder MODEL, in order of first appearance, with one variant
/// per file VARIANT.litmus in it (variant id `c:shrinker_bit/merged`), judged by the file's
/// `Result:` (and `ordercheck-mapping:`, `ordercheck-engine:`) annotations as `ordercheck check
/// FILE` judges it. A path that is not DIR/MODEL/VARIANT.litmus or a file that does not parse
/// throws litmus::LitmusError (file:line:column: error: ...).
std::vector<ModelDef> embedded_litmus_models(std::span<const EmbeddedLitmus> files, std::string_view prefix = "c:");

}  // namespace oc::cli
