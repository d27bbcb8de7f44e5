// SPDX-License-Identifier: MIT
// Text exporters: the per-thread trace (golden form) and the interleaving diagram.
#include "traces/export.hpp"
#include "traces/interleaving.hpp"
#include "traces/text_util.hpp"

#include <algorithm>
#include <vector>

namespace oc {

namespace {

struct TraceLine {
    std::string id, label, rf, note;
};

}  // namespace

std::string to_text_trace(const ExecutionGraph& g, Vocabulary vocabulary) {
    std::vector<TraceLine> lines;
    std::size_t id_width = 0, label_width = 0, rf_width = 0;
    for (EventId id : g.events()) {
        const Event& e = g.event(id);
        TraceLine line{to_string(g, id), event_label(g, e, vocabulary), "", source_note(e, 2, " ")};
        if (e.reads_from) line.rf = "rf " + to_string(g, *e.reads_from);
        if (e.at_quiescence) line.note += line.note.empty() ? "(quiescence)" : " (quiescence)";
        id_width = std::max(id_width, line.id.size());
        label_width = std::max(label_width, line.label.size());
        rf_width = std::max(rf_width, line.rf.size());
        lines.push_back(std::move(line));
    }
    std::string out;
    for (const TraceLine& l : lines) {
        out += pad_right(l.id, id_width) + "  " + pad_right(l.label, label_width);
        if (rf_width) out += "  " + pad_right(l.rf, rf_width);
        out += "  " + l.note + "\n";
    }
    for (std::size_t loc = 0; loc < g.location_count(); ++loc) {
        out += "co " + g.location_name(static_cast<LocationId>(loc)) + ":";
        for (EventId w : g.co(static_cast<LocationId>(loc))) out += " " + to_string(g, w);
        out += "\n";
    }
    return trim_line_ends(out);
}

std::string to_interleaving_text(const ExecutionGraph& g, Vocabulary vocabulary) {
    const std::vector<InterleavingRow> rows = interleaving_rows(g, vocabulary);
    const std::size_t columns = g.thread_count() > 0 ? g.thread_count() - 1 : 0;
    std::vector<std::size_t> width(columns);
    for (std::size_t c = 0; c < columns; ++c) width[c] = g.thread_name(c + 1).size();
    for (const InterleavingRow& r : rows) width[r.thread - 1] = std::max(width[r.thread - 1], r.cell.size());

    constexpr std::size_t gap = 3;
    auto render = [&](std::size_t column, const std::string& text) {
        std::string line;
        for (std::size_t c = 0; c < column; ++c) line += std::string(width[c] + gap, ' ');
        return line + text + "\n";
    };
    std::string out;
    if (const std::string init = init_summary(g); !init.empty()) out += init + "\n";
    std::string header;
    for (std::size_t c = 0; c < columns; ++c) header += pad_right(g.thread_name(c + 1), width[c] + gap);
    out += header + "\n";
    std::string rule;
    for (std::size_t c = 0; c < columns; ++c) rule += std::string(width[c], '-') + std::string(gap, ' ');
    out += rule + "\n";
    bool quiescent = false;
    for (const InterleavingRow& r : rows) {
        if (r.at_quiescence && !quiescent) out += "-- quiescence --\n";
        quiescent = quiescent || r.at_quiescence;
        out += render(r.thread - 1, r.cell);
    }
    return trim_line_ends(out);
}

}  // namespace oc
