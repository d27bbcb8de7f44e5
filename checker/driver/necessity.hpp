// SPDX-License-Identifier: MIT
// Barrier necessity: weaken each ordering site of a proved variant in turn and re-explore.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "checker/driver/sites.hpp"

namespace oc {

enum class Necessity : std::uint8_t {
    Needed,     ///< the bad outcome becomes reachable (or the program breaks: an engine failure)
    NotNeeded,  ///< still unreachable in an exhaustive search, under the memory model explored
    NotDecided, ///< the search did not settle it
};
std::string_view to_string(Necessity n);

struct NecessityRow {
    Site site;
    Weakening weakening = Weakening::Remove;
    Necessity result = Necessity::NotDecided;
    Report report;            ///< of the weakened program (witness included when needed)
    std::string lkmm_caveat;  ///< set where the C++11 mapping is stronger than LKMM for this answer
};

/// What a row answers, in the words of the memory model its search ran under (the CLI and the
/// report say the same): "needed", "needed: the weaker form breaks it", "not needed" (LKMM) or
/// "not needed under the C++11 mapping" (RC11, Relacy), "the weaker form suffices under LKMM",
/// "not decided".
std::string result_label(const NecessityRow& row);

struct NecessityReport {
    Report base;                    ///< the variant as written
    std::vector<NecessityRow> rows; ///< one per (site, weakening), in site order
    /// stop_cause() ended it early (an interrupt, the command's --timeout): `rows` holds the
    /// weakenings run to the end (or witnessed needed before the stop), `not_finished` the others.
    /// With the base itself cut short, both are empty.
    bool stopped = false;
    std::vector<std::pair<Site, Weakening>> not_finished;
};

/// Explores `variant` (which must be Never in an exhaustive search), then each weakening of each
/// ordering site. Throws std::invalid_argument when the base variant is not a proof (unless the
/// stop cut its search short: then `stopped` is set and nothing else).
NecessityReport necessity(const VariantDef& variant, const CheckOptions& options);

/// "shrinker_bit/merged with smp_mb__after_atomic() removed": a declared mutant as its base weakened.
std::string derivation_label(const VariantDef& variant);

/// The variant `variant.derived.base` of the same model (looked up in `models`).
const VariantDef& derivation_base(const VariantDef& variant, const std::vector<ModelDef>& models);

/// The ordering site of `base` (whose exploration saw `sites`) that the declared mutant
/// `variant` weakens: its primitive's one site, or with "primitive@LINE" the site at that line.
/// Throws std::invalid_argument, listing the candidate sites with their lines, when there is
/// none or (without a line) more than one.
Site derivation_site(const VariantDef& variant, const VariantDef& base, const std::map<Site, SiteKinds>& sites);

/// The ordering site a declared mutant weakens, found in its base's exploration (graph engine,
/// the base's default memory model, within `budget`'s max_executions and timeout):
/// check_as_weakened_base()'s lookup alone, so that `check` rejects a declaration that explain,
/// diff and report would reject. nullopt when that exploration was cut short (a site may be
/// missing: nothing is decided). Throws std::invalid_argument as derivation_base() and
/// derivation_site() do.
std::optional<Site> declared_site(const VariantDef& variant, const std::vector<ModelDef>& models,
                                  const ExploreOptions& budget);

/// A declared mutant (VariantDef::derived) explored as its base with the barrier weakened, as
/// necessity weakens it: the same program as the mutant, with the weakened barrier kept in the
/// graph (Event::weakened_from) so that its witness has an explaining cycle. The report's id is
/// the mutant's. Throws std::invalid_argument when the variant declares no derivation, or its
/// base or its barrier is not found (or the primitive names more than one ordering site).
Report check_as_weakened_base(const VariantDef& variant, const std::vector<ModelDef>& models,
                              const CheckOptions& options);
/// The same with the base variant given (it must be the one `variant.derived` names).
Report check_as_weakened_base(const VariantDef& variant, const VariantDef& base, const CheckOptions& options);

}  // namespace oc
