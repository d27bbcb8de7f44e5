// SPDX-License-Identifier: MIT
// Small string helpers shared by the exporters and the CLI's reports (escaping, paths, padding).
#pragma once

#include "traces/execution_graph.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace oc {

/// Escapes `\`, `"` and newlines for a DOT double-quoted string.
std::string escape_dot(std::string_view text);

/// Escapes `&`, `<`, `>` and `"` for XML text and attributes.
std::string escape_xml(std::string_view text);

/// The last `components` components of a path: ("a/b/c.cpp", 1) -> "c.cpp", 2 -> "b/c.cpp".
std::string_view path_tail(std::string_view path, std::size_t components);

/// "[primitive file:line]"-style source note of an event, using `components` path components and
/// `separator` between primitive and spot; empty if the event has neither.
std::string source_note(const Event& e, std::size_t components, std::string_view separator);

/// "shrinker_bit.cpp:151": the event's file (last path component) and line; empty without a line.
std::string source_spot(const Event& e);

/// `text` padded with spaces to `width` characters.
std::string pad_right(std::string text, std::size_t width);

/// `text` without trailing spaces on any line.
std::string trim_line_ends(const std::string& text);

}  // namespace oc
