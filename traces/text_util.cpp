// SPDX-License-Identifier: MIT
#include "traces/text_util.hpp"

namespace oc {

std::string escape_dot(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        default: out += c;
        }
    }
    return out;
}

std::string escape_xml(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string_view path_tail(std::string_view path, std::size_t components) {
    std::size_t start = path.size();
    for (std::size_t seen = 0; seen < components; ++seen) {
        const std::size_t slash = start == 0 ? std::string_view::npos : path.rfind('/', start - 1);
        if (slash == std::string_view::npos) return path;
        start = slash;
    }
    return path.substr(start + 1);
}

std::string source_spot(const Event& e) {
    if (e.where.line == 0) return "";
    return std::string(path_tail(e.where.file, 1)) + ":" + std::to_string(e.where.line);
}

std::string source_note(const Event& e, std::size_t components, std::string_view separator) {
    std::string spot;
    if (e.where.file && *e.where.file)
        spot = std::string(path_tail(e.where.file, components)) + ":" + std::to_string(e.where.line);
    std::string primitive = e.primitive ? e.primitive : "";
    if (primitive.empty() && spot.empty()) return "";
    if (primitive.empty() || spot.empty()) return "[" + primitive + spot + "]";
    return "[" + primitive + std::string(separator) + spot + "]";
}

std::string pad_right(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string trim_line_ends(const std::string& text) {
    std::string out;
    std::size_t pending_spaces = 0;
    for (char c : text) {
        if (c == ' ') {
            ++pending_spaces;
            continue;
        }
        if (c != '\n') out.append(pending_spaces, ' ');
        pending_spaces = 0;
        out += c;
    }
    return out;
}

}  // namespace oc
