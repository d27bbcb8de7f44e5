// SPDX-License-Identifier: MIT
// The C litmus parser after the processes (members of Parser, parser_internal.hpp): the
// `locations [...]` and `filter` clauses, the final condition (exists, ~exists or forall over
// /\, \/, ~ and =>) and the operands a state shows; then the annotations in comments (Result:,
// ordercheck-mapping:, ordercheck-engine:).
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "litmus/parser_internal.hpp"

namespace oc::litmus::detail {

// ---- condition --------------------------------------------------------------------------------

void Parser::condition() {
    for (;;) {
        if (is_word("locations")) {
            advance();
            expect(Tok::LBracket, "'[' after 'locations'");
            while (tok_.kind != Tok::RBracket) {
                if (tok_.kind == Tok::Semi) {
                    advance();
                    continue;
                }
                prog_.locations_clause.push_back(lhs_operand(true));
                if (tok_.kind != Tok::RBracket) expect(Tok::Semi, "';' or ']' in the locations list");
            }
            advance();
            continue;
        }
        if (is_word("filter")) {
            advance();
            prog_.filter = prop_implies(0);
            continue;
        }
        break;
    }
    if (tok_.kind == Tok::End) {
        // herd7 takes a test without a final condition as `forall (true)` (paulmckrcu/litmus
        // manual/locked/self-deadlock): every execution satisfies it
        Prop t;
        t.kind = PropKind::True;
        t.pos = tok_.pos;
        prog_.quantifier = Quantifier::Forall;
        prog_.condition = add_prop(t);
        prog_.observed = prog_.locations_clause;
        return;
    }
    if (tok_.kind == Tok::Tilde || is_word("not")) {  // herd's lexer reads `not` as `~`
        advance();
        if (!is_word("exists")) unexpected("'exists' after '~'");
        prog_.quantifier = Quantifier::NotExists;
    } else if (is_word("exists")) {
        prog_.quantifier = Quantifier::Exists;
    } else if (is_word("forall")) {
        prog_.quantifier = Quantifier::Forall;
    } else if (tok_.kind == Tok::Ident && (tok_.text == "cases" || tok_.text == "with" || tok_.text == "scopes" || tok_.text == "final"))
        error(tok_.pos, "unsupported: '" + std::string(tok_.text) + "' clauses");
    else
        unexpected("the final condition (exists, ~exists or forall), 'locations [...]' or 'filter'");
    advance();
    prog_.condition = prop_implies(0);
    if (tok_.kind == Tok::Semi) advance();  // herd accepts one ';' after the condition
    if (tok_.kind != Tok::End) unexpected("end of file after the final condition");
    // What a state shows: the locations clause, then every register and location the
    // condition mentions, each once.
    std::vector<Operand> observed = prog_.locations_clause;
    collect_observed(prog_.condition, observed, 0);
    prog_.observed = std::move(observed);
}

void Parser::collect_observed(std::int32_t prop, std::vector<Operand>& out, unsigned depth) const {
    if (prop < 0 || depth > max_condition_nesting) return;
    const Prop& p = prog_.props[static_cast<std::size_t>(prop)];
    for (const Operand* o : {&p.lhs, &p.rhs}) {
        if ((p.kind != PropKind::Eq && p.kind != PropKind::Ne) ||
            (o->kind != Operand::Kind::Reg && o->kind != Operand::Kind::Loc))
            continue;
        if (std::find(out.begin(), out.end(), *o) == out.end()) out.push_back(*o);
    }
    collect_observed(p.a, out, depth + 1);
    collect_observed(p.b, out, depth + 1);
}

/// Adds a condition node; as for expressions, the tree's depth is bounded.
std::int32_t Parser::add_prop(Prop p) {
    unsigned depth = 0;
    for (std::int32_t c : {p.a, p.b})
        if (c >= 0) depth = std::max(depth, prop_depth_[static_cast<std::size_t>(c)]);
    if (depth + 1 > max_condition_nesting)
        error(p.pos, "unsupported: condition nested deeper than " + std::to_string(max_condition_nesting) + " levels");
    prop_depth_.push_back(depth + 1);
    prog_.props.push_back(p);
    return static_cast<std::int32_t>(prog_.props.size() - 1);
}

void Parser::check_prop_depth(unsigned depth) const {
    if (depth > max_parse_depth) error(tok_.pos, "unsupported: the condition's parentheses are nested too deeply");
}

std::int32_t Parser::prop_implies(unsigned depth) {
    check_prop_depth(depth);
    const std::int32_t lhs = prop_or(depth + 1);
    if (tok_.kind != Tok::Implies) return lhs;
    Prop p;
    p.kind = PropKind::Implies;
    p.pos = tok_.pos;
    advance();
    p.a = lhs;
    p.b = prop_implies(depth + 1);
    return add_prop(p);
}

std::int32_t Parser::prop_or(unsigned depth) {
    std::int32_t lhs = prop_and(depth + 1);
    while (tok_.kind == Tok::Or) {
        Prop p;
        p.kind = PropKind::Or;
        p.pos = tok_.pos;
        advance();
        p.a = lhs;
        p.b = prop_and(depth + 1);
        lhs = add_prop(p);
    }
    return lhs;
}

std::int32_t Parser::prop_and(unsigned depth) {
    std::int32_t lhs = prop_unary(depth + 1);
    while (tok_.kind == Tok::And) {
        Prop p;
        p.kind = PropKind::And;
        p.pos = tok_.pos;
        advance();
        p.a = lhs;
        p.b = prop_unary(depth + 1);
        lhs = add_prop(p);
    }
    return lhs;
}

std::int32_t Parser::prop_unary(unsigned depth) {
    check_prop_depth(depth);
    Prop p;
    p.pos = tok_.pos;
    if (tok_.kind == Tok::Tilde || is_word("not")) {
        advance();
        p.kind = PropKind::Not;
        p.a = prop_unary(depth + 1);
        return add_prop(p);
    }
    if (tok_.kind == Tok::LParen) {
        advance();
        const std::int32_t inner = prop_implies(depth + 1);
        expect(Tok::RParen, "')' in the condition");
        return inner;
    }
    if (is_word("true") || is_word("false")) {
        p.kind = is_word("true") ? PropKind::True : PropKind::False;
        advance();
        return add_prop(p);
    }
    if (tok_.kind == Tok::AmpAmp || tok_.kind == Tok::PipePipe || tok_.kind == Tok::Bang)
        error(tok_.pos, "expected a condition; write '/\\' for and, '\\/' for or, '~' or 'not' for not (found " + describe(tok_) + ")");
    p.lhs = lhs_operand();
    if (tok_.kind == Tok::Assign || tok_.kind == Tok::EqEq) p.kind = PropKind::Eq;
    else if (tok_.kind == Tok::Ne) p.kind = PropKind::Ne;
    else unexpected("'=' in the condition (as in 0:r0=1 or x=1)");
    advance();
    p.rhs = rhs_operand();
    return add_prop(p);
}

/// `N:reg` or a location name. In `locations [...]` (what a state shows, nothing it judges), a
/// register the process does not declare is shown as herd7 shows it: an implicit register that
/// keeps its initial value, 0 (paulmckrcu/litmus C-srcu-nest-6 lists 0:r1). In a condition or
/// a filter it is an error: a misspelt register there would silently read 0.
Operand Parser::lhs_operand(bool in_locations) {
    Operand o;
    o.pos = tok_.pos;
    if (tok_.kind == Tok::Int) {
        const Value n = tok_.value;
        advance();
        expect(Tok::Colon, "':' after the process number (as in 0:r0)");
        if (tok_.kind != Tok::Ident) unexpected("a register name after '" + std::to_string(n) + ":'");
        if (n < 0 || static_cast<std::size_t>(n) >= prog_.processes.size())
            error(o.pos, "P" + std::to_string(n) + " does not exist (the test has " +
                             std::to_string(prog_.processes.size()) + " processes)");
        const Process& p = prog_.processes[static_cast<std::size_t>(n)];
        auto it = std::find_if(p.regs.begin(), p.regs.end(), [&](const Register& r) { return r.name == tok_.text; });
        if (it == p.regs.end() && in_locations) it = undeclared_reg(static_cast<std::size_t>(n), tok_.text, tok_.pos);
        if (it == p.regs.end())
            error(tok_.pos, "unknown register " + std::to_string(n) + ":" + std::string(tok_.text) + ": P" +
                                std::to_string(n) + " declares no register '" + std::string(tok_.text) + "'");
        o.kind = Operand::Kind::Reg;
        o.proc = static_cast<std::uint16_t>(n);
        o.reg = static_cast<std::uint16_t>(it - p.regs.begin());
        advance();
        return o;
    }
    if (tok_.kind == Tok::Star) advance();  // herd also accepts *x for the location x
    if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: '[x]' location syntax; write x");
    if (tok_.kind != Tok::Ident) unexpected("a register (0:r0) or a location name");
    if (const int l = condition_location(false); l >= 0) {  // `a[1]`, `n1.val` (parse_types.cpp)
        o.kind = Operand::Kind::Loc;
        o.loc = static_cast<std::uint16_t>(l);
        return o;
    }
    const int loc = find_location(tok_.text);
    if (loc < 0) error(tok_.pos, "unknown location '" + std::string(tok_.text) + "' in the condition");
    o.kind = Operand::Kind::Loc;
    o.loc = static_cast<std::uint16_t>(loc);
    advance();
    return o;
}

/// A number, a location's address, NULL, or `N:reg`.
Operand Parser::rhs_operand() {
    Operand o;
    o.pos = tok_.pos;
    if (tok_.kind == Tok::Minus) {
        advance();
        if (tok_.kind != Tok::Int) unexpected("a number after '-'");
        o.kind = Operand::Kind::Const;
        o.value = -tok_.value;
        advance();
        return o;
    }
    if (tok_.kind == Tok::Int) {
        if (peek().kind == Tok::Colon) return lhs_operand();
        o.kind = Operand::Kind::Const;
        o.value = tok_.value;
        advance();
        return o;
    }
    if (tok_.kind == Tok::Amp) advance();
    if (tok_.kind == Tok::Ident) {
        if (tok_.text == "NULL") {
            o.kind = Operand::Kind::Const;
            advance();
            return o;
        }
        if (const int l = condition_location(true); l >= 0) {  // `n2`, `&a[1]`, `&n1.next`
            o.kind = Operand::Kind::Address;
            o.loc = static_cast<std::uint16_t>(l);
            o.value = address_of(static_cast<std::size_t>(l));
            return o;
        }
        const int loc = find_location(tok_.text);
        if (loc < 0) error(tok_.pos, "unknown location '" + std::string(tok_.text) + "' in the condition");
        o.kind = Operand::Kind::Address;
        o.loc = static_cast<std::uint16_t>(loc);
        o.value = address_of(static_cast<std::size_t>(loc));
        advance();
        return o;
    }
    unexpected("a value in the condition (a number, a location or N:reg)");
}

// ---- annotations ------------------------------------------------------------------------------

void Parser::annotations() {
    for (const Comment& c : lex_.comments()) {
        std::size_t start = 0;
        std::uint32_t line = c.pos.line;
        while (start <= c.text.size()) {
            std::size_t end = c.text.find('\n', start);
            if (end == std::string_view::npos) end = c.text.size();
            annotation_line(c.text.substr(start, end - start), line, line == c.pos.line ? c.pos.column + 2 : 1);
            start = end + 1;
            ++line;
        }
    }
}

void Parser::annotation_line(std::string_view l, std::uint32_t line, std::uint32_t col0) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t' || l[i] == '*' || l[i] == '(' || l[i] == '/')) ++i;
    const std::string_view rest = l.substr(i);
    struct Tag {
        std::string_view tag;
        std::optional<Expected>* slot;
    };
    const Tag tags[] = {{"Result:", &prog_.result},
                        {"ordercheck-mapping:", &prog_.mapping},
                        {"ordercheck-engine:", &prog_.engine}};
    for (const Tag& t : tags) {
        if (rest.substr(0, t.tag.size()) != t.tag || t.slot->has_value()) continue;
        const SourcePos pos{line, col0 + static_cast<std::uint32_t>(i)};
        // A one-line comment "(* Result: Never *)" ends with its delimiter.
        std::string body(rest.substr(t.tag.size()));
        while (!body.empty() && (body.back() == ' ' || body.back() == '\t' || body.back() == '\r')) body.pop_back();
        for (const char* end : {"*)", "*/"})
            if (body.size() >= 2 && body.compare(body.size() - 2, 2, end) == 0) body.erase(body.size() - 2);
        std::istringstream words{body};
        std::string word;
        words >> word;
        Expected e;
        e.pos = pos;
        if (word == "Always") e.outcome = Outcome::Always;
        else if (word == "Sometimes") e.outcome = Outcome::Sometimes;
        else if (word == "Never") e.outcome = Outcome::Never;
        else if (word == "Maybe") e.outcome = Outcome::Maybe;
        else if (word == "DEADLOCK") e.outcome = Outcome::Deadlock;
        else if (word == "AssertFailed") e.outcome = Outcome::AssertFailed;
        else if (word == "DataRace") e.outcome = Outcome::DataRace;
        else
            error(pos, "expected Always, Sometimes, Never, Maybe, DEADLOCK, AssertFailed or DataRace after '" + std::string(t.tag) +
                           "', found '" + word + "'");
        std::string note;
        std::getline(words, note);
        std::size_t b = note.find_first_not_of(" \t");
        note = b == std::string::npos ? "" : note.substr(b);
        if (note.substr(0, 8) == "DATARACE") {
            e.datarace = true;
            note = note.substr(8);
            b = note.find_first_not_of(" \t");
            note = b == std::string::npos ? "" : note.substr(b);
        }
        while (!note.empty() && (note.back() == ' ' || note.back() == '\t')) note.pop_back();
        e.note = note;
        *t.slot = e;
    }
}

}  // namespace oc::litmus::detail
