// SPDX-License-Identifier: MIT
// The interleaving (swimlane) diagram as hand-written SVG: a column per thread, a row per event
// or primitive call in execution order, red arrows for rf between threads.
#include "traces/export.hpp"
#include "traces/interleaving.hpp"
#include "traces/text_util.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace oc {

namespace {

// Integer pixel geometry keeps the output byte-stable. 7px approximates a 12px monospace glyph.
constexpr int char_width = 7;
constexpr int cell_padding = 12;
constexpr int margin = 10;
constexpr int header_height = 24;
constexpr int row_height = 20;
constexpr int summary_height = 22;

std::string num(int v) { return std::to_string(v); }

std::string text_element(int x, int y, const std::string& text, std::string_view extra = "") {
    std::string out = "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"";
    if (!extra.empty()) out += " " + std::string(extra);
    return out + ">" + escape_xml(text) + "</text>\n";
}

std::string line_element(int x1, int y1, int x2, int y2, std::string_view attrs) {
    return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " +
           std::string(attrs) + "/>\n";
}

}  // namespace

std::string to_interleaving_svg(const ExecutionGraph& g, Vocabulary vocabulary) {
    const std::vector<InterleavingRow> rows = interleaving_rows(g, vocabulary);
    const std::size_t columns = g.thread_count() > 0 ? g.thread_count() - 1 : 0;
    std::vector<int> left(columns + 1, margin);
    for (std::size_t c = 0; c < columns; ++c) {
        std::size_t chars = g.thread_name(c + 1).size();
        for (const InterleavingRow& r : rows)
            if (r.thread == c + 1) chars = std::max(chars, r.cell.size());
        left[c + 1] = left[c] + static_cast<int>(chars) * char_width + 2 * cell_padding;
    }
    const std::string summary = init_summary(g);
    const int top = margin + (summary.empty() ? 0 : summary_height);
    const int rows_top = top + header_height;
    const bool has_quiescence =
        std::any_of(rows.begin(), rows.end(), [](const InterleavingRow& r) { return r.at_quiescence; });
    const int body_height = static_cast<int>(rows.size() + (has_quiescence ? 1 : 0)) * row_height;
    const int width = std::max(left[columns], margin + static_cast<int>(summary.size()) * char_width) + margin;
    const int height = rows_top + body_height + margin;

    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
                      num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                      "\" font-family=\"monospace\" font-size=\"12\">\n";
    out += "<defs><marker id=\"rf-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" "
           "markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"red\"/></marker></defs>\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    if (!summary.empty()) out += text_element(margin, margin + 14, summary);

    for (std::size_t c = 0; c < columns; ++c) {
        const int x = left[c];
        const int w = left[c + 1] - left[c];
        out += "<rect x=\"" + num(x) + "\" y=\"" + num(top) + "\" width=\"" + num(w) + "\" height=\"" +
               num(header_height) + "\" fill=\"#e8e8f0\" stroke=\"#888888\"/>\n";
        out += text_element(x + cell_padding, top + 16, g.thread_name(c + 1), "font-weight=\"bold\"");
    }
    for (std::size_t c = 0; c <= columns; ++c)  // lane borders
        out += line_element(left[c], rows_top, left[c], rows_top + body_height, "stroke=\"#dddddd\"");

    struct Placement {
        std::size_t column;
        int y;            // row centre
        int text_left;    // where the cell text starts and ends
        int text_right;
    };
    std::map<EventId, Placement> placed;
    int y = rows_top;
    bool quiescent = false;
    for (const InterleavingRow& r : rows) {
        if (r.at_quiescence && !quiescent) {
            out += line_element(margin, y + row_height / 2, left[columns], y + row_height / 2,
                                "stroke=\"#888888\" stroke-dasharray=\"4 3\"");
            out += text_element(margin, y + row_height / 2 - 2, "quiescence", "font-size=\"10\" fill=\"#666666\"");
            y += row_height;
        }
        quiescent = quiescent || r.at_quiescence;
        const std::size_t c = r.thread - 1;
        out += text_element(left[c] + cell_padding, y + 14, r.cell);
        const int text_left = left[c] + cell_padding;
        const int text_right = text_left + static_cast<int>(r.cell.size()) * char_width;
        for (EventId e : r.events) placed[e] = {c, y + row_height / 2, text_left, text_right};
        y += row_height;
    }

    for (const InterleavingRow& r : rows) {
        for (EventId e : r.events) {
            const auto src = g.rf_pred(e);
            if (!src || !placed.contains(*src)) continue;  // init writes are in the summary line
            const Placement& from = placed.at(*src);
            const Placement& to = placed.at(e);
            if (from.column == to.column) continue;
            // From the end of the writer's text to the start of the reader's, or mirrored.
            const bool rightwards = from.column < to.column;
            const int x1 = rightwards ? from.text_right + 4 : from.text_left - 4;
            const int x2 = rightwards ? to.text_left - 4 : to.text_right + 4;
            out += line_element(x1, from.y, x2, to.y,
                                "stroke=\"red\" stroke-opacity=\"0.7\" marker-end=\"url(#rf-arrow)\"");
        }
    }
    return out + "</svg>\n";
}

}  // namespace oc
