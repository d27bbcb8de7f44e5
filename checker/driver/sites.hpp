// SPDX-License-Identifier: MIT
// Ordering sites: the fences and acquire/release accesses of a program, grouped by primitive call
// site, which an exploration collects (check) and barrier necessity weakens one at a time, with
// the weakenings worth trying at each and their names.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checker/model/model.hpp"
#include "traces/execution_graph.hpp"

namespace oc {

/// What an exploration saw at one ordering site (see collect_sites()).
struct SiteKinds {
    bool sc_fence = false, acquire_fence = false, release_fence = false;
    bool acquire_access = false, release_access = false, rmw = false;
};

/// Every ordering site in `g`: fences and acquire/release accesses, grouped by primitive call site.
/// Locks, work-queue internals and initialisation are not ordering sites.
void collect_sites(const ExecutionGraph& g, std::map<Site, SiteKinds>& sites);

/// The weakenings worth trying at a site: smp_mb-like fences -> removed / release / acquire;
/// acquire or release fences -> removed; fully ordered RMWs -> relaxed form; acquire/release
/// accesses -> relaxed.
std::vector<Weakening> weakenings_for(const SiteKinds& kinds);

/// "smp_mb__after_atomic() at shrinker_bit.cpp:57", "fence at sb.cpp:30".
std::string site_label(const Site& site);
/// "removed", "-> smp_wmb()", "-> atomic_xchg_relaxed() (unordered)": the weakening in the
/// kernel's names (and, for a site of no primitive, as C++11 names it).
std::string weakening_label(const Site& site, Weakening w);
/// The same in the words of `vocabulary`: under Cpp11 a weakened kernel fence also says what it
/// maps to ("-> smp_wmb() (release fence)").
std::string weakening_label(const Site& site, Weakening w, Vocabulary vocabulary);

}  // namespace oc
