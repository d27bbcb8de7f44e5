// SPDX-License-Identifier: MIT
// libFuzzer target: the litmus parser and its analysis on arbitrary bytes. Every input must
// either parse or be rejected with a LitmusError; any other exception, a crash, a sanitizer
// report or a hang is a bug. Built and run by scripts/fuzz-litmus.sh.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "litmus/parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const oc::litmus::Program p = oc::litmus::parse(text, "fuzz.litmus");
        // The printers run on whatever was accepted.
        (void)oc::litmus::format_prop(p, p.condition);
        if (p.filter >= 0) (void)oc::litmus::format_prop(p, p.filter);
        for (const auto& o : p.observed) (void)oc::litmus::format_operand(p, o);
    } catch (const oc::litmus::LitmusError& e) {
        if (e.pos().line == 0) __builtin_trap();  // every parse error has a position
    }
    return 0;
}
