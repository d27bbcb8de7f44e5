// SPDX-License-Identifier: MIT
// Sequential consistency as a memory model: acyclic po | rf | co | fr.
#include "checker/memory_model/memory_model.hpp"

#include "checker/memory_model/rc11_relations.hpp"
#include "traces/relations.hpp"

namespace oc {

namespace {

using rc11::Base;
using rc11::base_relations;
using rc11::rc11_race;

/// Sequential consistency (Lamport): some interleaving explains every read, exactly when
/// po | rf | co | fr is acyclic. Every SC execution is RC11-consistent (and LKMM-consistent), so
/// it can be explored and certified like any other; explain uses it to ask whether a bad outcome
/// needs any reordering at all.
class Sc final : public MemoryModel {
public:
    std::string_view name() const override { return "SC"; }
    bool consistent(const ExecutionGraph& g) const override {
        const Base b = base_relations(g);
        BitRel all = b.po;
        all.unite(b.rf);
        all.unite(b.co);
        all.unite(b.fr);
        return all.acyclic();
    }
    std::optional<AxiomViolation> check(const ExecutionGraph& g) const override {
        if (auto wf = check_well_formed(g)) return wf;
        if (auto cycle = po_imm(g).union_with(rf(g)).union_with(co(g)).union_with(fr(g)).find_cycle())
            return AxiomViolation{"sc", *cycle, "po|rf|co|fr is cyclic: no interleaving explains the reads"};
        return std::nullopt;
    }
    std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override { return rc11_race(g); }
};

}  // namespace

const MemoryModel& sc_model() {
    static const Sc model;
    return model;
}

}  // namespace oc
