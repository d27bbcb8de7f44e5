// SPDX-License-Identifier: MIT
// Printing the parsed form in herd's notation: outcomes and quantifiers, the condition's
// propositions, operands and values (declared in ast.hpp and parser.hpp).
#include <string>

#include "litmus/parser.hpp"

namespace oc::litmus {

std::string_view to_string(Outcome o) {
    switch (o) {
    case Outcome::Always: return "Always";
    case Outcome::Sometimes: return "Sometimes";
    case Outcome::Never: return "Never";
    case Outcome::Maybe: return "Maybe";
    case Outcome::Deadlock: return "DEADLOCK";
    case Outcome::AssertFailed: return "AssertFailed";
    case Outcome::DataRace: return "DataRace";
    }
    return "?";
}

std::string_view to_string(Quantifier q) {
    switch (q) {
    case Quantifier::Exists: return "exists";
    case Quantifier::NotExists: return "~exists";
    case Quantifier::Forall: return "forall";
    }
    return "?";
}

namespace {

std::string format_prop_rec(const Program& p, std::int32_t prop, int parent_prec) {
    if (prop < 0) return "";
    const Prop& x = p.props[static_cast<std::size_t>(prop)];
    switch (x.kind) {
    case PropKind::True: return "true";
    case PropKind::False: return "false";
    case PropKind::Eq: return format_operand(p, x.lhs) + "=" + format_operand(p, x.rhs);
    case PropKind::Ne: return format_operand(p, x.lhs) + "!=" + format_operand(p, x.rhs);
    case PropKind::Not: return "~" + format_prop_rec(p, x.a, 4);
    case PropKind::And:
    case PropKind::Or:
    case PropKind::Implies: {
        const int prec = x.kind == PropKind::And ? 3 : x.kind == PropKind::Or ? 2 : 1;
        const char* op = x.kind == PropKind::And ? " /\\ " : x.kind == PropKind::Or ? " \\/ " : " => ";
        std::string s = format_prop_rec(p, x.a, prec + (x.kind == PropKind::Implies ? 1 : 0)) + op +
                        format_prop_rec(p, x.b, prec + (x.kind == PropKind::Implies ? 0 : 1));
        return prec < parent_prec ? "(" + s + ")" : s;
    }
    }
    return "";
}

}  // namespace

std::string format_value(const Program& p, Value v) {
    if (const std::int64_t l = location_at(v, p.locations.size()); l >= 0) {
        const Location& loc = p.locations[static_cast<std::size_t>(l)];
        return loc.address_name.empty() ? loc.name : loc.address_name;
    }
    return std::to_string(v);
}

std::string format_operand(const Program& p, const Operand& o) {
    switch (o.kind) {
    case Operand::Kind::Const: return std::to_string(o.value);
    case Operand::Kind::Reg: return p.processes[o.proc].regs[o.reg].full_name;
    case Operand::Kind::Loc: return p.locations[o.loc].name;
    case Operand::Kind::Address: return format_value(p, o.value);
    }
    return "?";
}

std::string format_prop(const Program& p, std::int32_t prop) { return format_prop_rec(p, prop, 0); }

}  // namespace oc::litmus
