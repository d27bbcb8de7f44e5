// SPDX-License-Identifier: MIT
#include "checker/driver/necessity.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

namespace oc {

std::string_view to_string(Necessity n) {
    switch (n) {
    case Necessity::Needed: return "needed";
    case Necessity::NotNeeded: return "not needed";
    case Necessity::NotDecided: return "not decided";
    }
    return "?";
}

std::string result_label(const NecessityRow& row) {
    const bool lkmm = judged_as_lkmm(row.report);
    const bool weaker = row.weakening != Weakening::Remove;
    switch (row.result) {
    case Necessity::Needed: return weaker ? "needed: the weaker form breaks it" : "needed";
    case Necessity::NotNeeded:
        if (weaker) return lkmm ? "the weaker form suffices under LKMM" : "the weaker form suffices under the C++11 mapping";
        return lkmm ? "not needed" : "not needed under the C++11 mapping";
    case Necessity::NotDecided: return "not decided";
    }
    return "?";
}

NecessityReport necessity(const VariantDef& variant, const CheckOptions& options) {
    NecessityReport out;
    CheckOptions base_options = options;
    base_options.collect_sites = true;
    out.base = check(variant, base_options);
    if (out.base.exploration == Exploration::CutShort && stop_cause() != StopCause::None) {
        out.stopped = true;
        return out;
    }
    if (out.base.finding != Finding{Verdict::Never} || out.base.exploration != Exploration::Exhaustive)
        throw std::invalid_argument(variant.id() + " is not proved (verdict " +
                                    (out.base.finding ? to_string(*out.base.finding) : std::string("none")) + ", " +
                                    std::string(to_string(out.base.exploration)) +
                                    " exploration): necessity weakens the barriers of a variant whose bad "
                                    "outcome is Never in an exhaustive search");
    for (const auto& [site, kinds] : out.base.sites)
        for (Weakening w : weakenings_for(kinds)) {
            if (stop_cause() != StopCause::None) {
                out.stopped = true;
                out.not_finished.emplace_back(site, w);
                continue;
            }
            NecessityRow row;
            row.site = site;
            row.weakening = w;
            CheckOptions o = options;
            o.explore.mutation = Mutation{site, w};
            row.report = check(variant, o);
            const auto& f = row.report.finding;
            const bool witnessed = f && (std::holds_alternative<EngineFailure>(*f) || *f != Finding{Verdict::Never});
            if (witnessed)
                row.result = Necessity::Needed;
            else if (f && row.report.exploration == Exploration::Exhaustive)
                row.result = Necessity::NotNeeded;
            else
                row.result = Necessity::NotDecided;
            if (row.result == Necessity::NotDecided && row.report.exploration == Exploration::CutShort &&
                stop_cause() != StopCause::None) {
                out.stopped = true;  // the stop cut it short (a witness found before would still count)
                out.not_finished.emplace_back(site, w);
                continue;
            }
            // Under LKMM the answer is the kernel's own: no mapping caveat applies.
            if (row.result == Necessity::NotNeeded && options.explore.model != ModelKind::Lkmm) {
                if (w == Weakening::ToAcquireFence)
                    row.lkmm_caveat = "smp_rmb() maps to an acquire fence, stronger than LKMM (it also orders "
                                      "R->W and reads of void RMWs): confirm under LKMM before relying on it";
                else if (w == Weakening::ToReleaseFence)
                    row.lkmm_caveat = "smp_wmb() maps to a release fence, stronger than LKMM (it also orders "
                                      "R->W and is cumulative): confirm under LKMM before relying on it";
                else if (variant.expect.lkmm)
                    row.lkmm_caveat = "the variant itself is a mapping blind spot (LKMM: " +
                                      std::string(to_string(*variant.expect.lkmm)) + ")";
            }
            out.rows.push_back(std::move(row));
        }
    return out;
}

namespace {

/// A derivation's barrier: "smp_mb" (the primitive's one ordering site) or "smp_mb@42" (its site
/// at line 42 of the model's source).
struct SiteName {
    std::string primitive;
    std::uint32_t line = 0;  ///< 0: not given
};

SiteName parse_site_name(const VariantDef& variant) {
    const std::string text = variant.derived.primitive;
    const auto at = text.find('@');
    if (at == std::string::npos) return {text, 0};
    const std::string line = text.substr(at + 1);
    const bool digits = !line.empty() && line.size() <= 9 &&
                        std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (at == 0 || !digits || std::stoul(line) == 0)
        throw std::invalid_argument(variant.id() + ": weakens(\"" + variant.derived.base + "\", \"" + text +
                                    "\"): expected a primitive, or a primitive and its line as \"smp_mb@42\"");
    return {text.substr(0, at), static_cast<std::uint32_t>(std::stoul(line))};
}

}  // namespace

std::string derivation_label(const VariantDef& variant) {
    const Derivation& d = variant.derived;
    SiteName name{d.primitive, 0};
    try {
        name = parse_site_name(variant);
    } catch (const std::invalid_argument&) {
        // named as written; check_as_weakened_base() reports the error
    }
    return variant.model + "/" + d.base + " with " + name.primitive + "()" +
           (name.line ? " at line " + std::to_string(name.line) : std::string()) + " " +
           weakening_label(Site{name.primitive, "", 0}, d.weakening);
}

const VariantDef& derivation_base(const VariantDef& variant, const std::vector<ModelDef>& models) {
    if (!variant.derived) throw std::invalid_argument(variant.id() + " declares no base variant it weakens");
    for (const auto& m : models)
        if (m.name == variant.model)
            for (const auto& v : m.variants)
                if (v.name == variant.derived.base) return v;
    throw std::invalid_argument(variant.id() + ": its base variant " + variant.model + "/" + variant.derived.base +
                                " does not exist");
}

Site derivation_site(const VariantDef& variant, const VariantDef& base, const std::map<Site, SiteKinds>& sites) {
    const SiteName name = parse_site_name(variant);
    std::vector<Site> candidates;
    for (const auto& [site, kinds] : sites)
        if (site.primitive == name.primitive) candidates.push_back(site);
    std::string listed;
    for (const Site& s : candidates)
        listed += (listed.empty() ? "" : ", ") + name.primitive + "@" + std::to_string(s.line) + " (" + site_label(s) + ")";
    const std::string written = "weakens(\"" + std::string(variant.derived.base) + "\", \"" + variant.derived.primitive + "\")";
    if (candidates.empty())
        throw std::invalid_argument(variant.id() + ": " + written + ": " + base.id() + " has no ordering site of " +
                                    name.primitive + "()");
    if (name.line != 0) {
        for (const Site& s : candidates)
            if (s.line == name.line) return s;
        throw std::invalid_argument(variant.id() + ": " + written + ": " + base.id() + " has no " + name.primitive +
                                    "() at line " + std::to_string(name.line) + "; its ordering sites of " +
                                    name.primitive + "(): " + listed);
    }
    if (candidates.size() > 1)
        throw std::invalid_argument(variant.id() + ": " + written + ": " + base.id() + " has " +
                                    std::to_string(candidates.size()) + " ordering sites of " + name.primitive +
                                    "(); name one by its line: " + listed);
    return candidates.front();
}

namespace {
/// The ordering sites `base` reaches: an exploration that collects them and keeps nothing else.
Report sites_of(const VariantDef& base, const CheckOptions& options) {
    CheckOptions site_options = options;
    site_options.collect_sites = true;
    site_options.keep_first_execution = false;
    return check(base, site_options);
}
}  // namespace

std::optional<Site> declared_site(const VariantDef& variant, const std::vector<ModelDef>& models,
                                  const ExploreOptions& budget) {
    const VariantDef& base = derivation_base(variant, models);
    CheckOptions options;
    options.explore.engine = EngineKind::Graph;  // the sites are the program's, whichever engine checks it
    options.explore.model = default_memory_model(base, EngineKind::Graph);
    options.explore.max_executions = budget.max_executions;
    options.explore.timeout_seconds = budget.timeout_seconds;
    const Report sites = sites_of(base, options);
    if (sites.exploration != Exploration::Exhaustive) return std::nullopt;  // sites may be missing: no verdict
    return derivation_site(variant, base, sites.sites);
}

Report check_as_weakened_base(const VariantDef& variant, const std::vector<ModelDef>& models,
                              const CheckOptions& options) {
    return check_as_weakened_base(variant, derivation_base(variant, models), options);
}

Report check_as_weakened_base(const VariantDef& variant, const VariantDef& base, const CheckOptions& options) {
    if (!variant.derived || base.model != variant.model || base.name != variant.derived.base)
        throw std::invalid_argument(variant.id() + " is not a declared mutant of " + base.id());
    const Site found = derivation_site(variant, base, sites_of(base, options).sites);
    CheckOptions o = options;
    o.explore.mutation = Mutation{found, variant.derived.weakening};
    Report r = check(base, o);
    r.id = variant.id();
    return r;
}

}  // namespace oc
