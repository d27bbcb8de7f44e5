// SPDX-License-Identifier: MIT
// The C litmus parser (hand-written recursive descent) and the static analysis that prepares a
// test for the interpreter: location classes (plain or marked), escaping addresses, and the
// reads that head an address dependency. Throws LitmusError (file:line:column) for malformed
// input and for every construct outside the supported set ("unsupported: ...").
#pragma once

#include <string>
#include <string_view>

#include "litmus/ast.hpp"
#include "litmus/def_table.hpp"

namespace oc::litmus {

/// Parses and analyses one litmus test. `file` names it in error messages and traces. `macros`:
/// a configuration's linux-kernel.def, which says which kernel primitives exist and what each is
/// (def_table.hpp); nullptr: ordercheck's own table.
Program parse(std::string_view source, const std::string& file, const MacroTable* macros = nullptr);

/// Reads `path` and parses it; a file that cannot be read is a LitmusError at 0:0.
Program parse_file(const std::string& path, const MacroTable* macros = nullptr);

/// The primitive's name as the kernel spells it ("atomic_inc_return_acquire").
std::string_view primitive_name(Prim p, Order o);
/// True for primitives that read a value into the program (loads, value-returning RMWs...).
bool returns_value(Prim p);

/// Prints a condition proposition the way herd prints it: `1:r0=1 /\ 1:r1=0`.
std::string format_prop(const Program& p, std::int32_t prop);
/// Prints an operand: `1:r0`, `x`, `1`, or a location name for an address.
std::string format_operand(const Program& p, const Operand& o);
/// Prints a value: a location name when it is an address, else the number.
std::string format_value(const Program& p, Value v);

}  // namespace oc::litmus
