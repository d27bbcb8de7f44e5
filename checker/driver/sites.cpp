// SPDX-License-Identifier: MIT
#include "checker/driver/sites.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace oc {

namespace {

/// Primitives whose ordering is not a barrier choice of the protocol: locks, work-queue
/// internals, static-key updates, initial values.
bool infrastructure(std::string_view primitive) {
    static constexpr std::array<std::string_view, 14> names{
        "init",           "spin_lock",        "spin_trylock",     "spin_unlock",
        "mutex_lock",     "mutex_trylock",    "mutex_unlock",     "schedule_work",
        "process_one_work", "worker_dequeue", "static_branch_inc", "static_branch_dec",
        "test_and_set_bit_lock", "clear_bit_unlock"};
    return std::find(names.begin(), names.end(), primitive) != names.end();
}

std::string basename(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void collect_sites(const ExecutionGraph& g, std::map<Site, SiteKinds>& sites) {
    for (std::size_t t = 1; t < g.thread_count(); ++t)
        for (const Event& e : g.thread(t)) {
            if (e.at_quiescence || infrastructure(e.primitive)) continue;
            const bool fence = e.is_fence();
            const bool acq = e.is_read() && is_acquire(e.order) && e.order != MemoryOrder::NonAtomic;
            const bool rel = e.is_write() && is_release(e.order) && e.order != MemoryOrder::NonAtomic;
            const Site site{e.primitive, e.where.file, e.where.line};
            auto it = sites.find(site);
            if (it == sites.end()) {
                // A site is an ordering site if it carries a fence or an ordered access; plain
                // relaxed events still mark an RMW inside a fenced primitive.
                if (!fence && !acq && !rel && !(e.kind == EventKind::Rmw && *e.primitive != '\0')) continue;
                it = sites.emplace(site, SiteKinds{}).first;
            }
            SiteKinds& k = it->second;
            if (fence) {
                k.sc_fence |= e.order == MemoryOrder::SeqCst;
                k.acquire_fence |= e.order == MemoryOrder::Acquire || e.order == MemoryOrder::AcqRel;
                k.release_fence |= e.order == MemoryOrder::Release || e.order == MemoryOrder::AcqRel;
            }
            k.acquire_access |= acq;
            k.release_access |= rel;
            k.rmw |= e.kind == EventKind::Rmw;
        }
    // Drop sites that turned out to carry no ordering (a relaxed RMW with no fence around it).
    for (auto it = sites.begin(); it != sites.end();) {
        const SiteKinds& k = it->second;
        const bool ordering = k.sc_fence || k.acquire_fence || k.release_fence || k.acquire_access || k.release_access;
        it = ordering ? std::next(it) : sites.erase(it);
    }
}

std::vector<Weakening> weakenings_for(const SiteKinds& k) {
    const bool fences = k.sc_fence || k.acquire_fence || k.release_fence;
    if (fences && k.rmw) return {Weakening::ToRelaxed};  // a fully ordered RMW -> its relaxed form
    if (k.sc_fence) return {Weakening::Remove, Weakening::ToReleaseFence, Weakening::ToAcquireFence};
    if (fences) return {Weakening::Remove};
    return {Weakening::ToRelaxed};
}

std::string site_label(const Site& site) {
    const std::string where = basename(site.file) + ":" + std::to_string(site.line);
    return (site.primitive.empty() ? std::string("operation") : site.primitive + "()") + " at " + where;
}

std::string weakening_label(const Site& site, Weakening w, Vocabulary vocabulary) {
    const bool cpp11 = vocabulary == Vocabulary::Cpp11;
    if (cpp11 && !site.primitive.empty() && w == Weakening::ToReleaseFence) return "-> smp_wmb() (release fence)";
    if (cpp11 && !site.primitive.empty() && w == Weakening::ToAcquireFence) return "-> smp_rmb() (acquire fence)";
    return weakening_label(site, w);
}

std::string weakening_label(const Site& site, Weakening w) {
    switch (w) {
    case Weakening::Remove: return "removed";
    case Weakening::ToReleaseFence: return site.primitive.empty() ? "-> release fence" : "-> smp_wmb()";
    case Weakening::ToAcquireFence: return site.primitive.empty() ? "-> acquire fence" : "-> smp_rmb()";
    case Weakening::ToRelaxed:
        if (site.primitive == "smp_load_acquire") return "-> READ_ONCE()";
        if (site.primitive == "smp_store_release") return "-> WRITE_ONCE()";
        if (site.primitive.empty()) return "-> relaxed";
        return "-> " + site.primitive + "_relaxed() (unordered)";
    }
    return "?";
}

}  // namespace oc
