// SPDX-License-Identifier: MIT
// Resolving the ids a user names on the command line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "checker/model/model.hpp"

namespace oc::cli {

/// The variants `ids` name ("MODEL/variant" or "MODEL" for all its variants), in catalogue order
/// and without duplicates; all variants when `ids` is empty. On an unknown id, sets `error` to a
/// message listing the ids that exist and returns nothing.
std::vector<const VariantDef*> select_variants(const std::vector<ModelDef>& models,
                                               const std::vector<std::string>& ids, std::string& error);

/// A stable hash (FNV-1a, 64 bits, 16 hex digits) of BYTES: a litmus file's identity in a report.
std::string content_hash(std::string_view bytes);

/// The identity of a catalogue, recorded in every JSON report so that `merge` combines only
/// shards judged against the same models: a hash of each model's name and family and each
/// variant's id, threads, dependency flag and expectations (every answer it carries).
std::string catalogue_hash(const std::vector<ModelDef>& models);

}  // namespace oc::cli
