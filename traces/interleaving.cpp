// SPDX-License-Identifier: MIT
#include "traces/interleaving.hpp"

#include <algorithm>
#include <string_view>

namespace oc {

namespace {

bool same_call(const Event& a, const Event& b) {
    const std::string_view pa = a.primitive ? a.primitive : "";
    const std::string_view pb = b.primitive ? b.primitive : "";
    return a.id.thread == b.id.thread && !pa.empty() && pa == pb && a.op == b.op;
}

std::string join_values(const std::vector<Value>& values) {
    std::string out;
    for (Value v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
    return out;
}

std::string call_cell(const ExecutionGraph& g, const std::vector<const Event*>& call) {
    std::vector<std::string> locations;
    std::vector<Value> read;
    std::vector<Value> written;
    for (const Event* e : call) {
        if (e->location) {
            const std::string& name = g.location_name(*e->location);
            if (std::find(locations.begin(), locations.end(), name) == locations.end()) locations.push_back(name);
        }
        if (e->is_read()) read.push_back(e->read_value);
        if (e->is_write()) written.push_back(e->written_value);
    }
    std::string primitive = call.front()->primitive;
    for (const Event* e : call)
        if (e->weakened_from) {
            primitive = executed_primitive(primitive, *e);
            break;
        }
    std::string cell = primitive + "(";
    for (std::size_t i = 0; i < locations.size(); ++i) cell += (i ? ", " : "") + locations[i];
    cell += ")";
    if (!read.empty()) cell += " = " + join_values(read);
    else if (!written.empty()) cell += " := " + join_values(written);
    return cell;
}

}  // namespace

std::string executed_primitive(std::string_view written, const Event& weakened) {
    if (weakened.is_fence() && !is_removed_fence(weakened)) {
        if (weakened.order == MemoryOrder::Release) return "smp_wmb";
        if (weakened.order == MemoryOrder::Acquire) return "smp_rmb";
    }
    if (written == "smp_load_acquire") return "READ_ONCE";
    if (written == "smp_store_release") return "WRITE_ONCE";
    if (written.ends_with("_relaxed")) return std::string(written);
    return std::string(written) + "_relaxed";
}

std::vector<InterleavingRow> interleaving_rows(const ExecutionGraph& g, Vocabulary vocabulary) {
    std::vector<std::vector<const Event*>> calls;
    for (EventId id : g.in_execution_order()) {
        if (id.thread == EventId::init_thread) continue;
        const Event& e = g.event(id);
        if (!calls.empty() && same_call(*calls.back().back(), e)) calls.back().push_back(&e);
        else calls.push_back({&e});
    }
    std::vector<InterleavingRow> rows;
    for (const auto& call : calls) {
        // A fence the weakening removed is not executed: a call of nothing else is not drawn.
        std::vector<const Event*> executed;
        for (const Event* e : call)
            if (!is_removed_fence(*e)) executed.push_back(e);
        if (executed.empty()) continue;
        InterleavingRow row;
        row.thread = call.front()->id.thread;
        const bool lone = !call.front()->primitive || !*call.front()->primitive;
        row.cell = lone ? event_label(g, *executed.front(), vocabulary) : call_cell(g, call);
        for (const Event* e : executed) {
            row.events.push_back(e->id);
            row.at_quiescence = row.at_quiescence || e->at_quiescence;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string init_summary(const ExecutionGraph& g) {
    std::string out;
    for (const Event& e : g.thread(EventId::init_thread)) {
        if (!e.is_write() || !e.location) continue;
        out += (out.empty() ? "init: " : " ") + g.location_name(*e.location) + "=" + std::to_string(e.written_value);
    }
    return out;
}

}  // namespace oc
