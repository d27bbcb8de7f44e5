// SPDX-License-Identifier: MIT
// The JSON exporter: the whole graph, for tools and for archiving witnesses.
#include "traces/export.hpp"

#include <nlohmann/json.hpp>

namespace oc {

namespace {

nlohmann::json id_json(const ExecutionGraph& g, EventId id) {
    return {{"thread", id.thread}, {"index", id.index}, {"name", to_string(g, id)}};
}

nlohmann::json event_json(const ExecutionGraph& g, const Event& e, Vocabulary vocabulary) {
    nlohmann::json j;
    j["id"] = id_json(g, e.id);
    j["kind"] = std::string(short_name(e.kind));
    if (vocabulary == Vocabulary::Cpp11) {
        j["order"] = std::string(short_name(e.order));
        if (e.weakened_from) j["weakened_from"] = std::string(short_name(*e.weakened_from));
    } else {
        j["tags"] = g.tag_names(e.lkmm);
        if (e.weakened_from) j["weakened_from"] = lkmm_written_name(g, e);
    }
    j["location"] = e.location ? nlohmann::json(g.location_name(*e.location)) : nlohmann::json(nullptr);
    j["read_value"] = e.read_value;
    j["written_value"] = e.written_value;
    j["reads_from"] = e.reads_from ? id_json(g, *e.reads_from) : nlohmann::json(nullptr);
    j["step"] = e.step;
    j["file"] = e.where.file ? e.where.file : "";
    j["line"] = e.where.line;
    j["primitive"] = e.primitive ? e.primitive : "";
    j["op"] = e.op;
    j["at_quiescence"] = e.at_quiescence;
    j["label"] = event_label(g, e, vocabulary);
    return j;
}

}  // namespace

std::string to_json(const ExecutionGraph& g, Vocabulary vocabulary) {
    nlohmann::json locations = nlohmann::json::array();
    nlohmann::json co = nlohmann::json::array();
    for (std::size_t l = 0; l < g.location_count(); ++l) {
        const auto loc = static_cast<LocationId>(l);
        locations.push_back({{"id", l}, {"name", g.location_name(loc)}});
        nlohmann::json order = nlohmann::json::array();
        for (EventId w : g.co(loc)) order.push_back(to_string(g, w));
        co.push_back({{"location", g.location_name(loc)}, {"order", order}});
    }
    nlohmann::json threads = nlohmann::json::array();
    nlohmann::json events = nlohmann::json::array();
    nlohmann::json rf = nlohmann::json::array();
    for (std::size_t t = 0; t < g.thread_count(); ++t) {
        threads.push_back({{"id", t}, {"name", g.thread_name(t)}});
        for (const Event& e : g.thread(t)) {
            events.push_back(event_json(g, e, vocabulary));
            if (e.reads_from) rf.push_back(nlohmann::json::array({to_string(g, *e.reads_from), to_string(g, e.id)}));
        }
    }
    const nlohmann::json doc = {
        {"locations", locations}, {"threads", threads}, {"events", events}, {"rf", rf}, {"co", co}};
    return doc.dump(2) + "\n";
}

}  // namespace oc
