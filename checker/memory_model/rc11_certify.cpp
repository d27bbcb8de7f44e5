// SPDX-License-Identifier: MIT
#include "checker/memory_model/rc11_certify.hpp"
#include "checker/memory_model/lkmm_tags.hpp"

#include "traces/relations.hpp"

#include <algorithm>
#include <cstddef>

namespace oc {

namespace {

AxiomViolation ill_formed(std::vector<EventId> events, std::string why) {
    return AxiomViolation{"well-formed", std::move(events), std::move(why)};
}

std::optional<AxiomViolation> check_event(const ExecutionGraph& g, const Event& e) {
    // names are made only for a report: this runs on every certified execution
    const auto name = [&] { return to_string(g, e.id); };
    if (e.is_fence()) {
        // (an LKMM SRCU event names its srcu_struct by a location)
        constexpr std::uint32_t srcu = lkmm::SrcuLock | lkmm::SrcuUnlock | lkmm::SyncSrcu;
        if ((e.location && (e.lkmm & srcu) == 0) || e.reads_from)
            return ill_formed({e.id}, "fence " + name() + " has a location or an rf source");
        return std::nullopt;
    }
    if (!e.location || *e.location >= g.location_count())
        return ill_formed({e.id}, "access " + name() + " has no declared location");
    if (!e.is_read()) {
        if (e.reads_from) return ill_formed({e.id}, "write " + name() + " has an rf source");
        return std::nullopt;
    }
    if (!e.reads_from) return ill_formed({e.id}, "read " + name() + " reads from no write");
    const EventId w = *e.reads_from;
    if (!g.contains(w)) return ill_formed({e.id}, "read " + name() + " reads from a missing event");
    const Event& src = g.event(w);
    const auto src_name = [&] { return to_string(g, w); };
    if (!src.is_write()) return ill_formed({e.id, w}, "read " + name() + " reads from " + src_name() + ", not a write");
    if (src.location != e.location)
        return ill_formed({e.id, w}, "read " + name() + " reads from " + src_name() + ", a write of another location");
    if (src.written_value != e.read_value)
        return ill_formed({e.id, w}, "read " + name() + " reads " + std::to_string(e.read_value) + " but its rf source " +
                                         src_name() + " wrote " + std::to_string(src.written_value));
    return std::nullopt;
}

/// `writes`: the location's writes, in thread and index order.
std::optional<AxiomViolation> check_co_list(const ExecutionGraph& g, LocationId loc, const std::vector<EventId>& writes) {
    const std::string& where = g.location_name(loc);
    std::vector<EventId> listed = g.co(loc);
    for (EventId w : listed) {
        if (!g.contains(w)) return ill_formed({}, "co " + where + " lists a missing event");
        const Event& e = g.event(w);
        if (!e.is_write() || e.location != loc)
            return ill_formed({w}, "co " + where + " lists " + to_string(g, w) + ", not a write of " + where);
    }
    std::sort(listed.begin(), listed.end());
    if (auto dup = std::adjacent_find(listed.begin(), listed.end()); dup != listed.end())
        return ill_formed({*dup}, "co " + where + " lists " + to_string(g, *dup) + " twice");
    std::vector<EventId> missing;
    std::set_difference(writes.begin(), writes.end(), listed.begin(), listed.end(), std::back_inserter(missing));
    if (!missing.empty())
        return ill_formed({missing.front()}, "co " + where + " misses the write " + to_string(g, missing.front()));
    return std::nullopt;
}

/// The relations every axiom needs, computed once per check.
struct Rc11Relations {
    explicit Rc11Relations(const ExecutionGraph& g)
        : po(oc::po(g)), rf(oc::rf(g)), co(oc::co(g)), fr(oc::fr(g)), sw(oc::sw(g)),
          hb(po.union_with(sw).transitive_closure()), eco_base(rf.union_with(co).union_with(fr)),
          eco(eco_base.transitive_closure()) {}
    Relation po, rf, co, fr, sw, hb, eco_base, eco;
};

/// path [a..b] followed by path [b..a], as one cycle without repeating the joints.
std::vector<EventId> join_paths(const std::vector<EventId>& there, const std::vector<EventId>& back) {
    std::vector<EventId> cycle(there.begin(), there.end() - 1);
    cycle.insert(cycle.end(), back.begin(), back.end() - 1);
    return canonical_cycle(std::move(cycle));
}

std::optional<AxiomViolation> check_coherence(const ExecutionGraph& g, const Rc11Relations& r) {
    const Relation hb_base = r.po.union_with(r.sw);
    for (const auto& [a, b] : r.hb.pairs()) {
        if (a == b) {
            const auto path = hb_base.find_path(a, a).value();
            return AxiomViolation{"coherence", canonical_cycle({path.begin(), path.end() - 1}),
                                  "hb is cyclic through " + to_string(g, a)};
        }
    }
    for (const auto& [a, b] : r.hb.pairs()) {
        if (!r.eco.contains(b, a)) continue;
        const auto cycle = join_paths(hb_base.find_path(a, b).value(), r.eco_base.find_path(b, a).value());
        return AxiomViolation{"coherence", cycle,
                              to_string(g, a) + " happens before " + to_string(g, b) +
                                  ", which precedes it in eco (hb;eco? is reflexive)"};
    }
    // rmw;eco irreflexive, for single-event RMWs: an RMW must read from a write co-before it.
    for (const auto& [w, u] : r.rf.pairs()) {
        if (g.event(u).kind != EventKind::Rmw || (w != u && !r.co.contains(u, w))) continue;
        return AxiomViolation{"coherence", canonical_cycle(w == u ? std::vector{u} : std::vector{u, w}),
                              "RMW " + to_string(g, u) + " reads from " + to_string(g, w) +
                                  ", which is not co-before it (rmw;eco is reflexive)"};
    }
    return std::nullopt;
}

std::optional<AxiomViolation> check_atomicity(const ExecutionGraph& g, const Rc11Relations& r) {
    const Relation bad = r.fr.intersect_with(r.co.inverse()).restrict_domain([&](EventId e) {
        return g.event(e).kind == EventKind::Rmw;
    });
    if (bad.empty()) return std::nullopt;
    const auto [u, w] = bad.pairs().front();
    return AxiomViolation{"atomicity", canonical_cycle({u, w}),
                          "RMW " + to_string(g, u) + " reads from " + to_string(g, *g.rf_pred(u)) + " but " +
                              to_string(g, w) + " comes between them in co"};
}

/// relation_name over precomputed relations.
std::string name_between(const Rc11Relations& r, const Relation& psc_rel, EventId from, EventId to) {
    const std::pair<const char*, const Relation*> base[] = {
        {"rf", &r.rf}, {"co", &r.co}, {"fr", &r.fr}, {"po", &r.po}, {"sw", &r.sw}};
    std::string direct;
    for (const auto& [name, rel] : base)
        if (rel->contains(from, to)) direct += (direct.empty() ? "" : ",") + std::string(name);
    if (!direct.empty()) return direct;
    std::string derived;
    if (r.hb.contains(from, to)) derived = "hb";
    else if (r.eco.contains(from, to)) derived = "eco";
    else if (psc_rel.contains(from, to)) derived = "psc";
    else return "?";
    Relation all;
    for (const auto& entry : base) all = all.union_with(*entry.second);
    const auto path = all.find_path(from, to);
    if (!path) return derived;
    std::string steps;
    for (std::size_t i = 0; i + 1 < path->size(); ++i) {
        for (const auto& [name, rel] : base) {
            if (!rel->contains((*path)[i], (*path)[i + 1])) continue;
            steps += (steps.empty() ? "" : ";") + std::string(name);
            break;
        }
    }
    return derived + " (" + steps + ")";
}

}  // namespace

std::optional<AxiomViolation> check_well_formed(const ExecutionGraph& g) {
    // each location's writes, found in one pass (the events in thread and index order)
    std::vector<std::vector<EventId>> writes(g.location_count());
    for (std::size_t t = 0; t < g.thread_count(); ++t)
        for (const Event& e : g.thread(t)) {
            if (auto v = check_event(g, e)) return v;
            if (e.is_write()) writes[*e.location].push_back(e.id);  // check_event(): a declared location
        }
    for (std::size_t l = 0; l < g.location_count(); ++l)
        if (auto v = check_co_list(g, static_cast<LocationId>(l), writes[l])) return v;
    return std::nullopt;
}

std::optional<AxiomViolation> check_rc11(const ExecutionGraph& g) {
    if (auto v = check_well_formed(g)) return v;
    const Rc11Relations r(g);
    if (auto v = check_coherence(g, r)) return v;
    if (auto v = check_atomicity(g, r)) return v;
    if (auto cycle = po_imm(g).union_with(r.rf).find_cycle())
        return AxiomViolation{"no-thin-air", *cycle, "po|rf is cyclic: a read takes its value from its own future"};
    if (auto cycle = psc(g, r.hb, r.eco).find_cycle())
        return AxiomViolation{"sc", *cycle, "psc is cyclic: no single order of the seq_cst events explains the reads"};
    return std::nullopt;
}

std::string relation_name(const ExecutionGraph& g, EventId from, EventId to) {
    const Rc11Relations r(g);
    return name_between(r, psc(g, r.hb, r.eco), from, to);
}

std::string describe(const ExecutionGraph& g, const AxiomViolation& violation) {
    std::string out = violation.axiom + ": " + violation.explanation + "\n";
    auto line = [&](EventId e) { return "  " + to_string(g, e) + "  " + event_label(g, g.event(e), Vocabulary::Cpp11) + "\n"; };
    const auto& c = violation.cycle;
    if (violation.axiom == "well-formed") {
        for (EventId e : c) out += line(e);
        return out;
    }
    const Rc11Relations r(g);
    const Relation psc_rel = psc(g, r.hb, r.eco);
    for (std::size_t i = 0; i < c.size(); ++i) {
        out += line(c[i]);
        out += "    -" + name_between(r, psc_rel, c[i], c[(i + 1) % c.size()]) + "->\n";
    }
    if (!c.empty()) out += line(c.front());
    return out;
}

}  // namespace oc
