// SPDX-License-Identifier: MIT
// The C litmus parser's entry points (parse(), parse_file()) and the test's outer structure: the
// header line and herd's info lines, the initial state (locations, their types, register
// initialisations), the processes and their parameters. Process bodies are parsed in
// parse_code.cpp, the final condition and the annotations in parse_condition.cpp; the analysis
// that follows is in analysis.cpp.
#include "litmus/parser.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "litmus/parser_internal.hpp"

namespace oc::litmus {

namespace detail {

std::string pos_text(SourcePos p) { return std::to_string(p.line) + ":" + std::to_string(p.column); }

namespace {

/// Words that may form a type in declarations and parameters.
constexpr std::string_view type_words[] = {
    "int", "long", "short", "char", "signed", "unsigned", "bool", "_Bool", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "intptr_t", "uintptr_t", "size_t", "const", "volatile", "atomic_t",
    "atomic_long_t", "spinlock_t", "void",
};

}  // namespace

bool is_type_word(std::string_view w) {
    return std::find(std::begin(type_words), std::end(type_words), w) != std::end(type_words);
}

Program Parser::run() {
    header();
    metadata();
    advance();
    init_block();
    for (;;) {
        if (tok_.kind == Tok::Ident && is_process_name(tok_.text)) process();
        else if (at_function_definition()) function_definition();
        else break;
    }
    if (prog_.processes.empty())
        error(tok_.pos, "expected the first process 'P0(...) { ... }', found " + describe(tok_));
    apply_register_inits();
    condition();
    annotations();
    return std::move(prog_);
}

// ---- header -----------------------------------------------------------------------------------

void Parser::header() {
    tok_ = lex_.next(true);
    if (tok_.kind == Tok::Ident && tok_.text != "C")
        error(tok_.pos, "unsupported: only C litmus tests are supported; this file starts with '" +
                            std::string(tok_.text) + "' where 'C' and the test name were expected");
    if (tok_.kind != Tok::Ident) unexpected("'C' and the test name on the first line");
    const Token name = lex_.raw_word();
    if (name.kind == Tok::End || name.pos.line != tok_.pos.line)
        error(name.pos, "expected the test name after 'C' on the same line");
    prog_.name = std::string(name.text);
    // herd drops a ".litmus" the name ends with (paulmckrcu/litmus writes `C C-CO+o-o.litmus`)
    constexpr std::string_view suffix = ".litmus";
    if (prog_.name.size() > suffix.size() && prog_.name.ends_with(suffix)) prog_.name.resize(prog_.name.size() - suffix.size());
}

/// herd's "info" between the name line and the initial state: a quoted doc string and
/// `key=value` lines (diy7 writes Cycle=, Relax=, Safe=, Generator=, Prefetch=, Com=, Orig=),
/// with comments in between. Kept in the Program; they mean nothing to the run.
void Parser::metadata() {
    MetaItem m;
    while (lex_.metadata(m)) {
        if (m.doc) {
            if (!prog_.doc.empty()) prog_.doc += '\n';
            prog_.doc += std::string(m.value);
        } else {
            prog_.metadata.push_back(Metadata{std::string(m.key), std::string(m.value), m.pos});
        }
    }
}

// ---- locations --------------------------------------------------------------------------------

int Parser::find_location(std::string_view name) const {
    for (std::size_t i = 0; i < prog_.locations.size(); ++i)
        if (prog_.locations[i].name == name) return static_cast<int>(i);
    return -1;
}

int Parser::add_location(std::string_view name, SourcePos pos) {
    if (prog_.locations.size() >= max_test_locations)
        error(pos, "unsupported: more than " + std::to_string(max_test_locations) + " shared locations");
    Location l;
    l.name = std::string(name);
    l.declared = pos;
    prog_.locations.push_back(std::move(l));
    return static_cast<int>(prog_.locations.size() - 1);
}

int Parser::location_or_new(std::string_view name, SourcePos pos) {
    const int i = find_location(name);
    return i >= 0 ? i : add_location(name, pos);
}

/// Records that `loc` is used with type `t` (from a declaration or a parameter).
void Parser::type_location(int loc, LocType t, SourcePos pos) {
    Location& l = prog_.locations[static_cast<std::size_t>(loc)];
    TypeInfo& ti = types_[static_cast<std::size_t>(loc)];
    // A spinlock_t or a srcu_struct is that in every declaration.
    const auto special = [](LocType x) {
        return x == LocType::Lock || x == LocType::Srcu || x == LocType::Mutex || x == LocType::StaticKey;
    };
    const auto type_name = [](LocType x) {
        return std::string(x == LocType::Lock        ? "a spinlock_t"
                           : x == LocType::Mutex     ? "a struct mutex"
                           : x == LocType::StaticKey ? "a static key"
                           : x == LocType::Srcu      ? "a struct srcu_struct"
                           : x == LocType::Atomic    ? "an atomic_t"
                                                     : "an int");
    };
    if (t == LocType::StaticKey && key_true_) l.init = 1;  // DEFINE_STATIC_KEY_TRUE: enabled
    // herd7 takes spin_lock() on any location: a spinlock_t may be declared `int *` elsewhere
    // (the analysis then requires that only the spinlock operations use it)
    const auto lock_and_int = [](LocType a, LocType b) {
        return (a == LocType::Lock && b == LocType::Int) || (a == LocType::Int && b == LocType::Lock);
    };
    if (ti.any && lock_and_int(ti.type, t)) {
        ti.type = l.type = LocType::Lock;
        return;
    }
    if (ti.any && (special(ti.type) || special(t)) && ti.type != t)
        error(pos, "location '" + l.name + "' is " + type_name(ti.type) + " at " + pos_text(ti.pos) + " but " + type_name(t) +
                       " here");
    if (!ti.any || t == LocType::Atomic) {
        if (!ti.any) ti.pos = pos;
        ti.type = t;
        ti.any = true;
        l.type = t;
    }
}

/// The `*`s of a declarator: how many.
unsigned Parser::stars_here() {
    unsigned stars = 0;
    while (tok_.kind == Tok::Star) {
        ++stars;
        advance();
    }
    return stars;
}

/// Type words before a declarator; returns the location type they name (Int if none).
LocType Parser::type_words_here(bool& any) {
    LocType t = LocType::Int;
    any = false;
    last_struct_ = -1;
    key_true_ = false;
    while (tok_.kind == Tok::Ident) {
        if (tok_.text == "struct") {
            // The one structure LKMM knows: struct srcu_struct, an opaque SRCU domain.
            const Token& tag = peek();
            if (tag.kind == Tok::Ident && tag.text == "srcu_struct") {
                advance();
                advance();
                t = LocType::Srcu;
                any = true;
                continue;
            }
            // Kernel idioms (docs/litmus.md): struct mutex, and a static key's
            // DEFINE_STATIC_KEY_FALSE()/_TRUE() type (the _true one starts enabled, count 1).
            if (tag.kind == Tok::Ident && (tag.text == "mutex" || tag.text == "static_key_false" ||
                                           tag.text == "static_key_true" || tag.text == "static_key")) {
                t = tag.text == "mutex" ? LocType::Mutex : LocType::StaticKey;
                key_true_ = tag.text == "static_key_true";
                advance();
                advance();
                any = true;
                continue;
            }
            // A struct the initial state defines (parse_types.cpp).
            if (const int s = tag.kind == Tok::Ident ? find_struct(tag.text) : -1; s >= 0) {
                advance();
                advance();
                last_struct_ = static_cast<std::int16_t>(s);
                any = true;
                continue;
            }
            error(tok_.pos, tag.kind == Tok::Ident ? "unknown struct '" + std::string(tag.text) + "' (define it in the initial state: struct " +
                                                         std::string(tag.text) + " { int f; ... };)"
                                                   : std::string("expected a struct name after 'struct'"));
        }
        if (tok_.text == "union" || tok_.text == "enum")
            error(tok_.pos, "unsupported: " + std::string(tok_.text) + " types");
        if (!is_type_word(tok_.text)) break;
        if (tok_.text == "spinlock_t") t = LocType::Lock;
        else if (tok_.text == "atomic_t" || tok_.text == "atomic_long_t") t = LocType::Atomic;
        any = true;
        advance();
    }
    return t;
}

// ---- init block -------------------------------------------------------------------------------

/// `N:reg = value` (or, typed, `int *N:reg;`, which only names the register): herd's
/// register initialisation. The register need not be declared in the process.
void Parser::register_init(bool typed) {
    const SourcePos pos = tok_.pos;
    const Value proc = tok_.value;
    advance();
    expect(Tok::Colon, "':' in a register initialisation such as 0:r0=1");
    if (tok_.kind != Tok::Ident) unexpected("a register name after '" + std::to_string(proc) + ":'");
    const std::string reg(tok_.text);
    advance();
    Value v = 0;
    if (!typed || tok_.kind == Tok::Assign) {
        expect(Tok::Assign, "'=' and the register's initial value");
        bool addr = false;
        v = init_value(addr);
    }
    reg_inits_.push_back(RegInit{static_cast<unsigned>(std::min<Value>(proc, 1000)), reg, v, pos});
}

void Parser::init_block() {
    if (tok_.kind != Tok::LBrace) unexpected("'{' to open the initial state");
    advance();
    types_.assign(max_test_locations, TypeInfo{});
    loc_types_.assign(max_test_locations, CType{});
    while (tok_.kind != Tok::RBrace) {
        if (tok_.kind == Tok::Semi) {
            advance();
            continue;
        }
        if (tok_.kind == Tok::End) unexpected("'}' to close the initial state");
        init_item();
    }
    advance();
}

/// The value of an initialiser: a number, a location's address, ATOMIC_INIT(n), NULL.
Value Parser::init_value(bool& is_address) {
    is_address = false;
    if (tok_.kind == Tok::Minus) {
        advance();
        if (tok_.kind != Tok::Int) unexpected("a number after '-'");
        const Value v = -tok_.value;
        advance();
        return v;
    }
    if (tok_.kind == Tok::Int) {
        const Value v = tok_.value;
        advance();
        return v;
    }
    if (tok_.kind == Tok::Amp) advance();
    if (tok_.kind == Tok::Ident) {
        // an array or a struct, or one of their elements or fields (`&a[1]`, `n1`)
        if (const int l = condition_location(true); l >= 0) {
            is_address = true;
            return address_of(static_cast<std::size_t>(l));
        }
        if (tok_.text == "NULL") {
            advance();
            return 0;
        }
        if (tok_.text == "ATOMIC_INIT") {
            advance();
            expect(Tok::LParen, "'(' after ATOMIC_INIT");
            bool addr = false;
            const Value v = init_value(addr);
            if (addr) error(tok_.pos, "expected a number in ATOMIC_INIT()");
            expect(Tok::RParen, "')' to close ATOMIC_INIT(");
            return v;
        }
        const int loc = location_or_new(tok_.text, tok_.pos);
        prog_.locations[static_cast<std::size_t>(loc)].escapes = true;
        is_address = true;
        advance();
        return address_of(static_cast<std::size_t>(loc));
    }
    unexpected("an initial value (a number, a location or ATOMIC_INIT(n))");
}

void Parser::init_item() {
    // N:reg = value
    if (tok_.kind == Tok::Int) {
        register_init(false);
        end_init_item();
        return;
    }
    if (at_struct_definition()) {
        struct_definition();
        end_init_item();
        return;
    }
    bool typed = false;
    const SourcePos type_pos = tok_.pos;
    const LocType t = type_words_here(typed);
    for (;;) {
        const unsigned stars = stars_here();
        if (typed && tok_.kind == Tok::Int) {  // int *1:r1 = x;
            register_init(true);
            if (tok_.kind == Tok::Comma) {
                advance();
                continue;
            }
            break;
        }
        if (tok_.kind != Tok::Ident) unexpected(typed ? "a location name in the declaration" : "a location name, a type, or N:reg in the initial state");
        if (is_type_word(tok_.text)) unexpected("a location name");
        const std::string name(tok_.text);
        const SourcePos pos = tok_.pos;
        advance();
        if (typed && aggregate_declaration(t, stars, name, pos, type_pos)) {
            if (tok_.kind == Tok::Comma) {
                advance();
                continue;
            }
            break;
        }
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "expected a type before array '" + name + "' (int " + name + "[N])");
        int loc = find_location(name);
        if (loc >= 0 && declared_.size() > static_cast<std::size_t>(loc) && declared_[static_cast<std::size_t>(loc)])
            error(pos, "location '" + name + "' is initialised twice (first at " +
                           pos_text(prog_.locations[static_cast<std::size_t>(loc)].declared) + ")");
        if (loc < 0) loc = add_location(name, pos);
        Location& l = prog_.locations[static_cast<std::size_t>(loc)];
        l.declared = pos;
        if (declared_.size() <= static_cast<std::size_t>(loc)) declared_.resize(static_cast<std::size_t>(loc) + 1, false);
        declared_[static_cast<std::size_t>(loc)] = true;
        if (typed) {
            type_location(loc, stars > 0 ? LocType::Int : t, type_pos);
            pointer_location(loc, stars);
        }
        if (tok_.kind == Tok::Assign) {
            const SourcePos vpos = tok_.pos;
            advance();
            if (typed && t == LocType::Lock && stars == 0) error(vpos, "unsupported: an initial value for a spinlock_t");
            if (typed && t == LocType::Srcu && stars == 0) error(vpos, "unsupported: an initial value for a struct srcu_struct");
            if (typed && (t == LocType::Mutex || t == LocType::StaticKey) && stars == 0)
                error(vpos, std::string("unsupported: an initial value for ") +
                                (t == LocType::Mutex ? "a struct mutex (it starts unlocked)"
                                                     : "a static key (struct static_key_true starts enabled)"));
            bool addr = false;
            const Value v = init_value(addr);
            prog_.locations[static_cast<std::size_t>(loc)].init = v;
        }
        if (tok_.kind == Tok::Comma && typed) {
            advance();
            continue;
        }
        break;
    }
    end_init_item();
}

void Parser::end_init_item() {
    if (tok_.kind == Tok::RBrace) return;
    expect(Tok::Semi, "';' after the initialisation");
}

void Parser::apply_register_inits() {
    for (const RegInit& ri : reg_inits_) {
        if (ri.proc >= prog_.processes.size())
            error(ri.pos, "register initialisation for P" + std::to_string(ri.proc) + ", which does not exist");
        Process& p = prog_.processes[ri.proc];
        auto it = std::find_if(p.regs.begin(), p.regs.end(), [&](const Register& r) { return r.name == ri.reg; });
        // herd allows a register the process never declares nor uses (it is then 0:r1's
        // initial and final value)
        if (it == p.regs.end()) it = undeclared_reg(ri.proc, ri.reg, ri.pos);
        if (it->is_param) error(ri.pos, "unsupported: initialising parameter " + ri.reg + " (it points to location " + ri.reg + ")");
        it->init = ri.value;
    }
}

// ---- processes --------------------------------------------------------------------------------

Process& Parser::proc() { return prog_.processes.back(); }

int Parser::find_reg(std::string_view name) const {
    if (!frames_.empty()) {
        // in a function: its parameters and locals only
        for (const auto& [n, r] : frames_.back().names)
            if (n == name) return r;
        return -1;
    }
    const auto& regs = prog_.processes.back().regs;
    for (std::size_t i = 0; i < regs.size(); ++i)
        if (regs[i].name == name) return static_cast<int>(i);
    return -1;
}

std::uint16_t Parser::add_reg(std::string_view name, SourcePos pos) {
    if (!frames_.empty()) {
        Frame& fr = frames_.back();
        if (const int prev = find_reg(name); prev >= 0)
            error(pos, "'" + std::string(name) + "' is declared twice in function " + fr.f->name + "() (first at " +
                           pos_text(proc().regs[static_cast<std::size_t>(prev)].declared) + ")");
        // A register of the calling process with a name no test can write (the condition
        // cannot name a function's local).
        const std::uint16_t r = new_reg(fr.f->name + "." + std::string(name) + "#" + std::to_string(fr.id), pos);
        fr.names.emplace_back(std::string(name), r);
        return r;
    }
    if (find_reg(name) >= 0)
        error(pos, "'" + std::string(name) + "' is declared twice in " + proc().name + " (first at " +
                       pos_text(proc().regs[static_cast<std::size_t>(find_reg(name))].declared) + ")");
    check_register_room(pos);
    Register r;
    r.name = std::string(name);
    r.full_name = std::to_string(prog_.processes.size() - 1) + ":" + r.name;
    r.declared = pos;
    proc().regs.push_back(std::move(r));
    return static_cast<std::uint16_t>(proc().regs.size() - 1);
}

/// A register used without a declaration, as herd allows: the target of an assignment, or
/// a register the initial state sets (`0:r1 = z`). Not in a helper function (C).
int Parser::implicit_reg(std::string_view w, SourcePos pos) {
    if (w == "NULL" || w == "true" || w == "false" || !frames_.empty()) error(pos, unknown_identifier(w));
    const std::uint16_t r = add_reg(w, pos);
    proc().regs[r].implicit = true;
    return r;
}

/// Adds to process `proc` a register it never declares (implicit, initially 0): one the
/// initial state sets, or one `locations [...]` lists.
std::vector<Register>::iterator Parser::undeclared_reg(std::size_t proc, std::string_view name, SourcePos pos) {
    check_register_room(pos);
    Register r;
    r.name = std::string(name);
    r.full_name = std::to_string(proc) + ":" + r.name;
    r.declared = pos;
    r.implicit = true;
    auto& regs = prog_.processes[proc].regs;
    regs.push_back(std::move(r));
    return regs.end() - 1;
}

bool Parser::initialised_in_state(std::string_view w) const {
    if (!frames_.empty()) return false;
    const unsigned me = static_cast<unsigned>(prog_.processes.size() - 1);
    return std::any_of(reg_inits_.begin(), reg_inits_.end(), [&](const RegInit& ri) { return ri.proc == me && ri.reg == w; });
}

std::string Parser::unknown_identifier(std::string_view w) const {
    if (!frames_.empty())
        return "unknown identifier '" + std::string(w) + "': not a parameter or a local declared in function " + frames_.back().f->name + "()";
    return "unknown identifier '" + std::string(w) + "': not a parameter or a register declared in " + prog_.processes.back().name;
}

void Parser::process() {
    const unsigned index = static_cast<unsigned>(prog_.processes.size());
    const std::string want = "P" + std::to_string(index);
    if (tok_.text != want) error(tok_.pos, "expected process " + want + " (processes are numbered from P0 in order), found " + describe(tok_));
    if (index >= max_processes)
        error(tok_.pos, "unsupported: more than " + std::to_string(max_processes) + " processes (the graph engine runs up to " + std::to_string(max_processes) + " threads)");
    Process p;
    p.name = want;
    p.pos = tok_.pos;
    prog_.processes.push_back(std::move(p));
    accesses_in_process_ = 0;
    advance();
    expect(Tok::LParen, "'(' and the parameters of " + want);
    if (is_word("void") && peek().kind == Tok::RParen) advance();
    if (tok_.kind != Tok::RParen) {
        for (;;) {
            parameter();
            if (tok_.kind == Tok::Comma) {
                advance();
                continue;
            }
            break;
        }
    }
    if (tok_.kind != Tok::RParen) unexpected("',' or ')' in the parameter list");
    advance();
    if (tok_.kind != Tok::LBrace) unexpected("'{' to open the body of " + want);
    ocaml_ = false;  // inside code, "(*" is the start of "(*x)"
    advance();
    proc().body = block_body(0);
    // tok_ is the closing '}', lexed in C mode; the next token is lexed in top-level mode.
    ocaml_ = true;
    advance();
}

void Parser::parameter() {
    const SourcePos pos = tok_.pos;
    bool typed = false;
    const LocType t = type_words_here(typed);
    if (!typed) unexpected("a parameter type such as 'int *x'");
    unsigned stars = 0;
    while (tok_.kind == Tok::Star) {
        ++stars;
        advance();
    }
    if (tok_.kind != Tok::Ident) unexpected("a parameter name");
    if (stars == 0) error(tok_.pos, "expected '*' before parameter '" + std::string(tok_.text) + "': parameters point to shared locations (int *" + std::string(tok_.text) + ")");
    // an array's or a struct's parameter points to its first element or field
    const int ag = find_aggregate(tok_.text);
    const int loc = ag >= 0 ? aggregates_[static_cast<std::size_t>(ag)].first : location_or_new(tok_.text, tok_.pos);
    if (ag < 0) type_location(loc, stars > 1 ? LocType::Int : t, pos);
    const std::uint16_t r = add_reg(tok_.text, tok_.pos);
    Register& reg = proc().regs[r];
    reg.is_param = true;
    reg.loc = static_cast<std::uint16_t>(loc);
    reg.init = address_of(static_cast<std::size_t>(loc));
    parameter_type(r, ag, loc, stars, pos);
    advance();
    if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: array parameters (write a pointer, int *" + proc().regs[r].name + ")");
}

}  // namespace detail

Program parse(std::string_view source, const std::string& file, const MacroTable* macros) {
    Program prog = detail::Parser(source, file, macros).run();
    detail::analyse(prog);
    return prog;
}

Program parse_file(const std::string& path, const MacroTable* macros) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LitmusError(path, SourcePos{0, 0}, "cannot read the file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path, macros);
}

}  // namespace oc::litmus
