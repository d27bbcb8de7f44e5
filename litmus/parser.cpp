// SPDX-License-Identifier: MIT
#include "litmus/parser.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "litmus/lexer.hpp"
#include "litmus/parser_internal.hpp"
#include "litmus/primitive_table.hpp"

namespace oc::litmus {

namespace detail {
std::string pos_text(SourcePos p) { return std::to_string(p.line) + ":" + std::to_string(p.column); }
}  // namespace detail

namespace {

using namespace detail;

/// Words that may form a type in declarations and parameters.
constexpr std::string_view type_words[] = {
    "int", "long", "short", "char", "signed", "unsigned", "bool", "_Bool", "u8", "u16", "u32", "u64",
    "s8", "s16", "s32", "s64", "intptr_t", "uintptr_t", "size_t", "const", "volatile", "atomic_t",
    "atomic_long_t", "spinlock_t", "void",
};

bool is_type_word(std::string_view w) {
    return std::find(std::begin(type_words), std::end(type_words), w) != std::end(type_words);
}

struct TypeInfo {
    LocType type = LocType::Int;
    bool any = false;
    SourcePos pos;
};

class Parser {
public:
    Parser(std::string_view src, const std::string& file) : lex_(src, file) { prog_.file = file; }

    Program run() {
        header();
        metadata();
        advance();
        init_block();
        while (tok_.kind == Tok::Ident && is_process_name(tok_.text)) process();
        if (prog_.processes.empty())
            error(tok_.pos, "expected the first process 'P0(...) { ... }', found " + describe(tok_));
        apply_register_inits();
        condition();
        annotations();
        return std::move(prog_);
    }

private:
    // ---- tokens ----
    void advance() {
        if (has_peek_) {
            tok_ = peek_;
            has_peek_ = false;
        } else {
            tok_ = lex_.next(ocaml_);
        }
    }
    const Token& peek() {
        if (!has_peek_) {
            peek_ = lex_.next(ocaml_);
            has_peek_ = true;
        }
        return peek_;
    }
    [[noreturn]] void error(SourcePos pos, const std::string& msg) const { lex_.error(pos, msg); }
    [[noreturn]] void unexpected(const std::string& what) const {
        if (tok_.kind == Tok::Unsupported) unsupported_token();
        error(tok_.pos, "expected " + what + ", found " + describe(tok_));
    }
    [[noreturn]] void unsupported_token() const {
        const std::string_view t = tok_.text;
        std::string what;
        if (t == "++" || t == "--") what = "increment and decrement operators ('" + std::string(t) + "'); write r = r + 1";
        else if (t == "->" || t == ".") what = "structures ('" + std::string(t) + "')";
        else if (t == "#") what = "preprocessor directives ('#')";
        else if (t == "'") what = "character constants";
        else if (t.size() >= 2 && t.back() == '=') what = "compound assignment ('" + std::string(t) + "'); write r = r op v";
        else what = "the character " + describe(tok_);
        error(tok_.pos, "unsupported: " + what);
    }
    void expect(Tok kind, const std::string& what) {
        if (tok_.kind != kind) unexpected(what);
        advance();
    }
    bool is_word(std::string_view w) const { return tok_.kind == Tok::Ident && tok_.text == w; }
    static bool is_process_name(std::string_view t) {
        if (t.size() < 2 || t[0] != 'P') return false;
        return std::all_of(t.begin() + 1, t.end(), [](char c) { return c >= '0' && c <= '9'; });
    }

    // ---- header ----
    void header() {
        tok_ = lex_.next(true);
        if (tok_.kind == Tok::Ident && tok_.text != "C")
            error(tok_.pos, "unsupported: only C litmus tests are supported; this file starts with '" +
                                std::string(tok_.text) + "' where 'C' and the test name were expected");
        if (tok_.kind != Tok::Ident) unexpected("'C' and the test name on the first line");
        const Token name = lex_.raw_word();
        if (name.kind == Tok::End || name.pos.line != tok_.pos.line)
            error(name.pos, "expected the test name after 'C' on the same line");
        prog_.name = std::string(name.text);
    }

    /// herd's "info" between the name line and the initial state: a quoted doc string and
    /// `key=value` lines (diy7 writes Cycle=, Relax=, Safe=, Generator=, Prefetch=, Com=, Orig=),
    /// with comments in between. Kept in the Program; they mean nothing to the run.
    void metadata() {
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

    // ---- locations ----
    int find_location(std::string_view name) const {
        for (std::size_t i = 0; i < prog_.locations.size(); ++i)
            if (prog_.locations[i].name == name) return static_cast<int>(i);
        return -1;
    }
    int add_location(std::string_view name, SourcePos pos) {
        if (prog_.locations.size() >= max_test_locations)
            error(pos, "unsupported: more than " + std::to_string(max_test_locations) + " shared locations");
        Location l;
        l.name = std::string(name);
        l.declared = pos;
        prog_.locations.push_back(std::move(l));
        return static_cast<int>(prog_.locations.size() - 1);
    }
    int location_or_new(std::string_view name, SourcePos pos) {
        const int i = find_location(name);
        return i >= 0 ? i : add_location(name, pos);
    }
    /// Records that `loc` is used with type `t` (from a declaration or a parameter).
    void type_location(int loc, LocType t, SourcePos pos) {
        Location& l = prog_.locations[static_cast<std::size_t>(loc)];
        TypeInfo& ti = types_[static_cast<std::size_t>(loc)];
        // A spinlock_t or a srcu_struct is that in every declaration.
        const auto special = [](LocType x) { return x == LocType::Lock || x == LocType::Srcu; };
        const auto type_name = [](LocType x) { return x == LocType::Lock ? std::string("a spinlock_t") : std::string("a struct srcu_struct"); };
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
            error(pos, "location '" + l.name + "' is " + (special(ti.type) ? type_name(ti.type) : "not " + type_name(t)) + " at " +
                           pos_text(ti.pos) + " but " + (special(t) ? type_name(t) : "not " + type_name(ti.type)) + " here");
        if (!ti.any || t == LocType::Atomic) {
            if (!ti.any) ti.pos = pos;
            ti.type = t;
            ti.any = true;
            l.type = t;
        }
    }

    /// Type words before a declarator; returns the location type they name (Int if none).
    LocType type_words_here(bool& any) {
        LocType t = LocType::Int;
        any = false;
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
                error(tok_.pos, "unsupported: struct types" +
                                    (tag.kind == Tok::Ident ? " ('struct " + std::string(tag.text) + "'; the only one known is struct srcu_struct)"
                                                            : std::string()));
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

    // ---- init block ----
    struct RegInit {
        unsigned proc;
        std::string reg;
        Value value;
        SourcePos pos;
    };
    /// `N:reg = value` (or, typed, `int *N:reg;`, which only names the register): herd's
    /// register initialisation. The register need not be declared in the process.
    void register_init(bool typed) {
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

    void init_block() {
        if (tok_.kind != Tok::LBrace) unexpected("'{' to open the initial state");
        advance();
        types_.assign(max_test_locations, TypeInfo{});
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
    Value init_value(bool& is_address) {
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

    void init_item() {
        // N:reg = value
        if (tok_.kind == Tok::Int) {
            register_init(false);
            end_init_item();
            return;
        }
        bool typed = false;
        const SourcePos type_pos = tok_.pos;
        const LocType t = type_words_here(typed);
        for (;;) {
            unsigned stars = 0;
            while (tok_.kind == Tok::Star) {
                ++stars;
                advance();
            }
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
            if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays");
            int loc = find_location(name);
            if (loc >= 0 && declared_.size() > static_cast<std::size_t>(loc) && declared_[static_cast<std::size_t>(loc)])
                error(pos, "location '" + name + "' is initialised twice (first at " +
                               pos_text(prog_.locations[static_cast<std::size_t>(loc)].declared) + ")");
            if (loc < 0) loc = add_location(name, pos);
            Location& l = prog_.locations[static_cast<std::size_t>(loc)];
            l.declared = pos;
            if (declared_.size() <= static_cast<std::size_t>(loc)) declared_.resize(static_cast<std::size_t>(loc) + 1, false);
            declared_[static_cast<std::size_t>(loc)] = true;
            if (typed) type_location(loc, stars > 0 ? LocType::Int : t, type_pos);
            if (tok_.kind == Tok::Assign) {
                const SourcePos vpos = tok_.pos;
                advance();
                if (typed && t == LocType::Lock && stars == 0) error(vpos, "unsupported: an initial value for a spinlock_t");
                if (typed && t == LocType::Srcu && stars == 0) error(vpos, "unsupported: an initial value for a struct srcu_struct");
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
    void end_init_item() {
        if (tok_.kind == Tok::RBrace) return;
        expect(Tok::Semi, "';' after the initialisation");
    }

    void apply_register_inits() {
        for (const RegInit& ri : reg_inits_) {
            if (ri.proc >= prog_.processes.size())
                error(ri.pos, "register initialisation for P" + std::to_string(ri.proc) + ", which does not exist");
            Process& p = prog_.processes[ri.proc];
            auto it = std::find_if(p.regs.begin(), p.regs.end(), [&](const Register& r) { return r.name == ri.reg; });
            if (it == p.regs.end()) {
                // herd allows a register the process never declares nor uses (it is then 0:r1's
                // initial and final value).
                if (p.regs.size() >= max_registers)
                    error(ri.pos, "unsupported: more than " + std::to_string(max_registers) + " registers and parameters in one process");
                Register r;
                r.name = ri.reg;
                r.full_name = std::to_string(ri.proc) + ":" + ri.reg;
                r.declared = ri.pos;
                r.implicit = true;
                p.regs.push_back(std::move(r));
                it = p.regs.end() - 1;
            }
            if (it->is_param) error(ri.pos, "unsupported: initialising parameter " + ri.reg + " (it points to location " + ri.reg + ")");
            it->init = ri.value;
        }
    }

    // ---- processes ----
    Process& proc() { return prog_.processes.back(); }

    int find_reg(std::string_view name) const {
        const auto& regs = prog_.processes.back().regs;
        for (std::size_t i = 0; i < regs.size(); ++i)
            if (regs[i].name == name) return static_cast<int>(i);
        return -1;
    }
    std::uint16_t add_reg(std::string_view name, SourcePos pos) {
        if (find_reg(name) >= 0)
            error(pos, "'" + std::string(name) + "' is declared twice in " + proc().name + " (first at " +
                           pos_text(proc().regs[static_cast<std::size_t>(find_reg(name))].declared) + ")");
        if (proc().regs.size() >= max_registers)
            error(pos, "unsupported: more than " + std::to_string(max_registers) + " registers and parameters in one process");
        Register r;
        r.name = std::string(name);
        r.full_name = std::to_string(prog_.processes.size() - 1) + ":" + r.name;
        r.declared = pos;
        proc().regs.push_back(std::move(r));
        return static_cast<std::uint16_t>(proc().regs.size() - 1);
    }

    void process() {
        const unsigned index = static_cast<unsigned>(prog_.processes.size());
        const std::string want = "P" + std::to_string(index);
        if (tok_.text != want) error(tok_.pos, "expected process " + want + " (processes are numbered from P0 in order), found " + describe(tok_));
        if (index >= max_processes)
            error(tok_.pos, "unsupported: more than " + std::to_string(max_processes) + " processes (the graph engine runs up to 16 threads)");
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

    void parameter() {
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
        const int loc = location_or_new(tok_.text, tok_.pos);
        type_location(loc, stars > 1 ? LocType::Int : t, pos);
        const std::uint16_t r = add_reg(tok_.text, tok_.pos);
        Register& reg = proc().regs[r];
        reg.is_param = true;
        reg.loc = static_cast<std::uint16_t>(loc);
        reg.init = address_of(static_cast<std::size_t>(loc));
        advance();
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays");
    }

    // ---- statements ----
    std::int32_t add_stmt(Stmt s) {
        prog_.stmts.push_back(s);
        return static_cast<std::int32_t>(prog_.stmts.size() - 1);
    }
    /// Adds an expression node. The tree's depth is bounded (not only the parser's recursion:
    /// `1+1+...` is parsed by a loop), because the interpreter evaluates it recursively on the
    /// engine's small fibre stacks.
    std::int32_t add_expr(Expr e) {
        unsigned depth = 0;
        const auto child = [&](std::int32_t c) {
            if (c >= 0) depth = std::max(depth, expr_depth_[static_cast<std::size_t>(c)]);
        };
        if (e.kind == ExprKind::Deref || e.kind == ExprKind::Call) {
            const Access& a = prog_.accesses[static_cast<std::size_t>(e.a)];
            child(a.addr);
            child(a.vals[0]);
            child(a.vals[1]);
        } else {
            child(e.a);
            child(e.b);
            child(e.c);
        }
        if (depth + 1 > max_nesting)
            error(e.pos, "unsupported: expression nested deeper than " + std::to_string(max_nesting) + " levels");
        expr_depth_.push_back(depth + 1);
        prog_.exprs.push_back(e);
        return static_cast<std::int32_t>(prog_.exprs.size() - 1);
    }

    /// Statements up to the closing '}' (left as the current token); returns a Block.
    std::int32_t block_body(unsigned depth) {
        if (depth > max_nesting) error(tok_.pos, "unsupported: blocks nested deeper than " + std::to_string(max_nesting) + " levels");
        Stmt block;
        block.kind = StmtKind::Block;
        block.pos = tok_.pos;
        std::vector<std::int32_t> items;
        while (tok_.kind != Tok::RBrace) {
            if (tok_.kind == Tok::End) unexpected("'}' to close the body of " + proc().name);
            statement(depth, items);
        }
        block.first = static_cast<std::uint32_t>(prog_.block_items.size());
        block.count = static_cast<std::uint32_t>(items.size());
        prog_.block_items.insert(prog_.block_items.end(), items.begin(), items.end());
        return add_stmt(block);
    }

    /// One statement; appends what it produces (a declaration may produce several).
    void statement(unsigned depth, std::vector<std::int32_t>& out) {
        if (depth > max_nesting) error(tok_.pos, "unsupported: statements nested deeper than " + std::to_string(max_nesting) + " levels");
        stmt_accesses_ = 0;
        switch (tok_.kind) {
        case Tok::Semi: advance(); return;
        case Tok::LBrace: {
            advance();
            const std::int32_t b = block_body(depth + 1);
            advance();
            out.push_back(b);
            return;
        }
        case Tok::Ident: break;
        case Tok::Star: out.push_back(plain_store()); return;
        case Tok::LParen:
            if (peek().kind == Tok::Ident && peek().text == "void") {
                // `(void)expr;`, as herd7 7.56 and later read it: the expression for its effect,
                // its value discarded (`(void)atomic_add_unless(v, 1, 0);`)
                Stmt s;
                s.kind = StmtKind::Expr;
                s.pos = tok_.pos;
                advance();
                advance();
                expect(Tok::RParen, "')' to close '(void'");
                s.expr = tok_.kind == Tok::Ident && peek().kind == Tok::LParen ? call(/*allow_void=*/true, 0) : expression(0);
                expect(Tok::Semi, "';' after the expression");
                out.push_back(add_stmt(s));
                return;
            }
            unexpected("a statement");
        default: unexpected("a statement");
        }
        const std::string_view w = tok_.text;
        if (w == "if") {
            out.push_back(if_statement(depth));
            return;
        }
        if (w == "while" || w == "for" || w == "do" || w == "goto" || w == "switch" || w == "return" ||
            w == "break" || w == "continue" || w == "case" || w == "default")
            error(tok_.pos, "unsupported: '" + std::string(w) + "' statements (a litmus process is straight-line code with if/else)");
        if (w == "else") error(tok_.pos, "'else' without a matching 'if'");
        if (w == "struct" || w == "union" || w == "enum" || w == "typedef")
            error(tok_.pos, "unsupported: " + std::string(w) + " declarations");
        if (is_type_word(w)) {
            declaration(out);
            return;
        }
        if (peek().kind == Tok::LParen) {
            // A primitive called for its effect: void primitives are allowed only here.
            const SourcePos pos = tok_.pos;
            Stmt s;
            s.kind = StmtKind::Expr;
            s.pos = pos;
            s.expr = call(/*allow_void=*/true, 0);
            expect(Tok::Semi, "';' after the call");
            out.push_back(add_stmt(s));
            return;
        }
        if (peek().kind == Tok::Assign) {
            int r = find_reg(w);
            if (r < 0) r = implicit_reg(w, tok_.pos);  // herd: an assignment declares the register
            const SourcePos pos = tok_.pos;
            advance();
            advance();
            Stmt s;
            s.kind = StmtKind::Assign;
            s.pos = pos;
            s.reg = static_cast<std::uint16_t>(r);
            s.expr = expression(0);
            proc().regs[static_cast<std::size_t>(r)].assigned = true;
            expect(Tok::Semi, "';' after the assignment");
            out.push_back(add_stmt(s));
            return;
        }
        if (peek().kind == Tok::Unsupported) {
            advance();
            unsupported_token();
        }
        error(tok_.pos, "expected a statement (an assignment, a primitive call, a declaration or if), found " + describe(tok_));
    }

    /// A register used without a declaration, as herd allows: the target of an assignment, or
    /// a register the initial state sets (`0:r1 = z`).
    int implicit_reg(std::string_view w, SourcePos pos) {
        if (w == "NULL" || w == "true" || w == "false") error(pos, unknown_identifier(w));
        const std::uint16_t r = add_reg(w, pos);
        proc().regs[r].implicit = true;
        return r;
    }
    bool initialised_in_state(std::string_view w) const {
        const unsigned me = static_cast<unsigned>(prog_.processes.size() - 1);
        return std::any_of(reg_inits_.begin(), reg_inits_.end(), [&](const RegInit& ri) { return ri.proc == me && ri.reg == w; });
    }

    std::string unknown_identifier(std::string_view w) const {
        return "unknown identifier '" + std::string(w) + "': not a parameter or a register declared in " + prog_.processes.back().name;
    }

    std::int32_t plain_store() {
        const SourcePos pos = tok_.pos;
        const std::size_t first_operand = prog_.accesses.size();
        advance();
        const std::int32_t addr = unary(1);
        if (tok_.kind != Tok::Assign) unexpected("'=' after '*...' (a plain store *x = v;)");
        advance();
        const std::int32_t value = expression(0);
        expect(Tok::Semi, "';' after the store");
        Access a;
        a.plain = true;
        a.plain_write = true;
        a.name = "plain write";
        a.pos = pos;
        a.addr = addr;
        a.vals[0] = value;
        Stmt s;
        s.kind = StmtKind::Store;
        s.pos = pos;
        s.access = add_access(std::move(a), first_operand);
        s.expr = value;
        return add_stmt(s);
    }

    std::int32_t if_statement(unsigned depth) {
        Stmt s;
        s.kind = StmtKind::If;
        s.pos = tok_.pos;
        advance();
        expect(Tok::LParen, "'(' after 'if'");
        s.expr = expression(0);
        expect(Tok::RParen, "')' to close the condition of 'if'");
        s.then_stmt = branch(depth);
        if (is_word("else")) {
            advance();
            s.else_stmt = branch(depth);
        }
        return add_stmt(s);
    }
    /// The statement of an if/else branch, as a Block.
    std::int32_t branch(unsigned depth) {
        if (tok_.kind == Tok::LBrace) {
            advance();
            const std::int32_t b = block_body(depth + 1);
            advance();
            return b;
        }
        std::vector<std::int32_t> items;
        Stmt block;
        block.kind = StmtKind::Block;
        block.pos = tok_.pos;
        if (is_type_word(tok_.kind == Tok::Ident ? tok_.text : std::string_view{}))
            error(tok_.pos, "expected a statement after 'if'/'else', found a declaration; use braces");
        statement(depth + 1, items);
        block.first = static_cast<std::uint32_t>(prog_.block_items.size());
        block.count = static_cast<std::uint32_t>(items.size());
        prog_.block_items.insert(prog_.block_items.end(), items.begin(), items.end());
        return add_stmt(block);
    }

    void declaration(std::vector<std::int32_t>& out) {
        const SourcePos tpos = tok_.pos;
        bool typed = false;
        const LocType t = type_words_here(typed);
        for (;;) {
            unsigned stars = 0;
            while (tok_.kind == Tok::Star) {
                ++stars;
                advance();
            }
            if (t != LocType::Int && stars == 0)
                error(tpos, std::string("unsupported: a local ") +
                                (t == LocType::Lock ? "spinlock_t" : t == LocType::Srcu ? "struct srcu_struct" : "atomic_t") +
                                " (shared locations are parameters)");
            if (tok_.kind != Tok::Ident || is_type_word(tok_.text)) unexpected("a register name in the declaration");
            const std::uint16_t r = add_reg(tok_.text, tok_.pos);
            const SourcePos pos = tok_.pos;
            advance();
            if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays");
            if (tok_.kind == Tok::Assign) {
                advance();
                stmt_accesses_ = 0;
                Stmt s;
                s.kind = StmtKind::Assign;
                s.pos = pos;
                s.reg = r;
                s.expr = expression(0);
                proc().regs[r].assigned = true;
                out.push_back(add_stmt(s));
            }
            if (tok_.kind == Tok::Comma) {
                advance();
                continue;
            }
            break;
        }
        expect(Tok::Semi, "';' after the declaration");
    }

    // ---- expressions ----
    /// Adds access `a`, whose operands were parsed from access number `first_operand` on: the
    /// accesses among its operands run before it (`*z2 = *z1;`, `WRITE_ONCE(*y, READ_ONCE(*x))`:
    /// the read, then the write), but two accesses of one statement that are not nested in each
    /// other (`READ_ONCE(*x) + READ_ONCE(*y)`) have no order C gives them.
    std::int32_t add_access(Access a, std::size_t first_operand) {
        stmt_accesses_ -= static_cast<unsigned>(prog_.accesses.size() - first_operand);
        if (++stmt_accesses_ > 1)
            error(a.pos, "unsupported: two shared-memory accesses in one statement that are not nested in each other "
                         "(C leaves their order unspecified); split it into two statements");
        if (accesses_in_process_ >= max_accesses)
            error(a.pos, "unsupported: more than " + std::to_string(max_accesses) + " shared-memory accesses in one process");
        a.process = static_cast<std::uint16_t>(prog_.processes.size() - 1);
        a.site = static_cast<std::uint16_t>(accesses_in_process_++);
        prog_.accesses.push_back(std::move(a));
        return static_cast<std::int32_t>(prog_.accesses.size() - 1);
    }

    /// Bounds the parser's own recursion (parentheses and unary operators make no tree depth).
    void check_depth(unsigned depth) const {
        if (depth > max_parse_depth) error(tok_.pos, "unsupported: parentheses or unary operators nested too deeply");
    }

    std::int32_t expression(unsigned depth) {
        check_depth(depth);
        const std::int32_t cond = binary(0, depth);
        if (tok_.kind != Tok::Question) return cond;
        Expr e;
        e.kind = ExprKind::Ternary;
        e.pos = tok_.pos;
        advance();
        e.a = cond;
        e.b = expression(depth + 1);
        expect(Tok::Colon, "':' in the conditional expression");
        e.c = expression(depth + 1);
        return add_expr(e);
    }

    struct BinInfo {
        Tok tok;
        BinOp op;
        int prec;
    };
    static const BinInfo* bin_info(Tok t) {
        static constexpr BinInfo table[] = {
            {Tok::PipePipe, BinOp::LogOr, 1}, {Tok::AmpAmp, BinOp::LogAnd, 2}, {Tok::Pipe, BinOp::BitOr, 3},
            {Tok::Caret, BinOp::BitXor, 4},   {Tok::Amp, BinOp::BitAnd, 5},    {Tok::EqEq, BinOp::Eq, 6},
            {Tok::Ne, BinOp::Ne, 6},          {Tok::Lt, BinOp::Lt, 7},         {Tok::Le, BinOp::Le, 7},
            {Tok::Gt, BinOp::Gt, 7},          {Tok::Ge, BinOp::Ge, 7},         {Tok::Shl, BinOp::Shl, 8},
            {Tok::Shr, BinOp::Shr, 8},        {Tok::Plus, BinOp::Add, 9},      {Tok::Minus, BinOp::Sub, 9},
            {Tok::Star, BinOp::Mul, 10},      {Tok::Slash, BinOp::Div, 10},    {Tok::Percent, BinOp::Mod, 10},
        };
        for (const auto& b : table)
            if (b.tok == t) return &b;
        return nullptr;
    }

    /// Precedence climbing over the binary operators with precedence above `min_prec`.
    std::int32_t binary(int min_prec, unsigned depth) {
        check_depth(depth);
        std::int32_t lhs = unary(depth + 1);
        for (;;) {
            const BinInfo* b = bin_info(tok_.kind);
            if (b == nullptr || b->prec <= min_prec) {
                if (tok_.kind == Tok::Unsupported) unsupported_token();
                if (tok_.kind == Tok::And || tok_.kind == Tok::Or)
                    error(tok_.pos, "expected a C operator ('&&', '||'...), found " + describe(tok_) + ", which belongs in the final condition");
                return lhs;
            }
            Expr e;
            e.kind = ExprKind::Binary;
            e.pos = tok_.pos;
            e.op = static_cast<std::uint8_t>(b->op);
            advance();
            e.a = lhs;
            e.b = binary(b->prec, depth + 1);
            lhs = add_expr(e);
        }
    }

    std::int32_t unary(unsigned depth) {
        check_depth(depth);
        Expr e;
        e.pos = tok_.pos;
        switch (tok_.kind) {
        case Tok::Minus:
        case Tok::Bang:
        case Tok::Tilde:
            e.kind = ExprKind::Unary;
            e.op = static_cast<std::uint8_t>(tok_.kind == Tok::Minus ? UnOp::Neg : tok_.kind == Tok::Bang ? UnOp::Not : UnOp::BitNot);
            advance();
            e.a = unary(depth + 1);
            return add_expr(e);
        case Tok::Plus:
            advance();
            return unary(depth + 1);
        case Tok::Star: {
            const std::size_t first_operand = prog_.accesses.size();
            advance();
            const std::int32_t addr = unary(depth + 1);
            Access a;
            a.plain = true;
            a.name = "plain read";
            a.pos = e.pos;
            a.addr = addr;
            e.kind = ExprKind::Deref;
            e.a = add_access(std::move(a), first_operand);
            return add_expr(e);
        }
        case Tok::Amp: error(tok_.pos, "unsupported: '&' (address-of) in process code; parameters already point to their locations");
        default: return postfix(depth + 1);
        }
    }

    std::int32_t postfix(unsigned depth) {
        const std::int32_t e = primary(depth);
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays");
        if (tok_.kind == Tok::Unsupported) unsupported_token();
        if (tok_.kind == Tok::LParen) error(tok_.pos, "unsupported: calls through an expression");
        return e;
    }

    std::int32_t primary(unsigned depth) {
        check_depth(depth);
        Expr e;
        e.pos = tok_.pos;
        switch (tok_.kind) {
        case Tok::Int:
            e.kind = ExprKind::Const;
            e.value = tok_.value;
            advance();
            return add_expr(e);
        case Tok::LParen: {
            advance();
            if (tok_.kind == Tok::Ident && (is_type_word(tok_.text) || tok_.text == "struct")) {
                // A cast, `(intptr_t *)r1`: herd ignores casts (its values are untyped), and so
                // does ordercheck; it binds as a unary operator.
                bool any = false;
                type_words_here(any);
                while (tok_.kind == Tok::Star) advance();
                expect(Tok::RParen, "')' to close the cast");
                return unary(depth + 1);
            }
            const std::int32_t inner = expression(depth + 1);
            expect(Tok::RParen, "')'");
            return inner;
        }
        case Tok::Ident: {
            const std::string_view w = tok_.text;
            if (peek().kind == Tok::LParen) return call(/*allow_void=*/false, depth);
            if (w == "NULL" || w == "false") {
                e.kind = ExprKind::Const;
                e.value = 0;
                advance();
                return add_expr(e);
            }
            if (w == "true") {
                e.kind = ExprKind::Const;
                e.value = 1;
                advance();
                return add_expr(e);
            }
            int r = find_reg(w);
            if (r < 0 && initialised_in_state(w)) r = implicit_reg(w, tok_.pos);
            if (r < 0) error(tok_.pos, unknown_identifier(w));
            e.kind = ExprKind::Reg;
            e.reg = static_cast<std::uint16_t>(r);
            advance();
            return add_expr(e);
        }
        case Tok::Unsupported: unsupported_token();
        default: unexpected("an expression");
        }
    }

    /// `name(args)`: a kernel primitive. Returns a Call expression.
    std::int32_t call(bool allow_void, unsigned depth) {
        const Token name_tok = tok_;
        const std::string_view name = tok_.text;
        Order order = Order::Full;
        const PrimSpec* spec = find_prim(name, order);
        if (spec == nullptr) {
            for (const NotInLkmm& k : not_in_lkmm)
                if (k.name == name)
                    error(tok_.pos, "unsupported: the primitive '" + std::string(name) +
                                        "' is not in LKMM's linux-kernel.def (herd7 rejects it too)" +
                                        (k.instead.empty() ? "" : "; " + std::string(k.instead)) +
                                        " (docs/litmus.md lists the supported ones)");
            error(tok_.pos, "unsupported: unknown primitive '" + std::string(name) + "' (docs/litmus.md lists the supported ones)");
        }
        if (!allow_void && !returns_value(spec->prim))
            error(tok_.pos, std::string(name) + "() returns no value; call it as a statement");
        advance();  // name
        advance();  // (
        const std::size_t first_operand = prog_.accesses.size();
        Access a;
        a.prim = spec->prim;
        a.order = order;
        a.name = std::string(name);
        a.pos = name_tok.pos;
        unsigned vals = 0;
        for (unsigned i = 0; i < spec->nargs; ++i) {
            if (i > 0) {
                if (tok_.kind == Tok::RParen)
                    error(tok_.pos, std::string(name) + "() takes " + std::to_string(spec->nargs) + " arguments, found " + std::to_string(i));
                expect(Tok::Comma, "',' between the arguments of " + std::string(name) + "()");
            }
            switch (spec->args[i]) {
            case ArgKind::Lvalue:
                if (tok_.kind != Tok::Star)
                    unexpected("'*' and a location as the first argument of " + std::string(name) + "(), as in " +
                               std::string(name) + "(*x" + (spec->nargs > 1 ? ", ..." : "") + ")");
                advance();
                a.addr = unary(depth + 1);
                break;
            case ArgKind::Pointer: a.addr = expression(depth + 1); break;
            case ArgKind::Value: a.vals[vals++] = expression(depth + 1); break;
            }
        }
        if (tok_.kind == Tok::Comma)
            error(tok_.pos, std::string(name) + "() takes " + std::to_string(spec->nargs) + " argument" + (spec->nargs == 1 ? "" : "s") + ", found more");
        expect(Tok::RParen, "')' to close " + std::string(name) + "(");
        if (spec->prim == Prim::RcuReadLock || spec->prim == Prim::RcuReadUnlock || spec->prim == Prim::SynchronizeRcu)
            prog_.uses_rcu = true;
        if (spec->prim == Prim::SrcuReadLock || spec->prim == Prim::SrcuReadUnlock || spec->prim == Prim::SynchronizeSrcu)
            prog_.uses_srcu = true;
        Expr e;
        e.kind = ExprKind::Call;
        e.pos = name_tok.pos;
        e.a = add_access(std::move(a), first_operand);
        return add_expr(e);
    }

    // ---- condition ----
    void condition() {
        for (;;) {
            if (is_word("locations")) {
                advance();
                expect(Tok::LBracket, "'[' after 'locations'");
                while (tok_.kind != Tok::RBracket) {
                    if (tok_.kind == Tok::Semi) {
                        advance();
                        continue;
                    }
                    prog_.locations_clause.push_back(lhs_operand());
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
        if (tok_.kind == Tok::Tilde) {
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

    void collect_observed(std::int32_t prop, std::vector<Operand>& out, unsigned depth) const {
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
    std::int32_t add_prop(Prop p) {
        unsigned depth = 0;
        for (std::int32_t c : {p.a, p.b})
            if (c >= 0) depth = std::max(depth, prop_depth_[static_cast<std::size_t>(c)]);
        if (depth + 1 > max_condition_nesting)
            error(p.pos, "unsupported: condition nested deeper than " + std::to_string(max_condition_nesting) + " levels");
        prop_depth_.push_back(depth + 1);
        prog_.props.push_back(p);
        return static_cast<std::int32_t>(prog_.props.size() - 1);
    }
    void check_prop_depth(unsigned depth) const {
        if (depth > max_parse_depth) error(tok_.pos, "unsupported: the condition's parentheses are nested too deeply");
    }
    std::int32_t prop_implies(unsigned depth) {
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
    std::int32_t prop_or(unsigned depth) {
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
    std::int32_t prop_and(unsigned depth) {
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
    std::int32_t prop_unary(unsigned depth) {
        check_prop_depth(depth);
        Prop p;
        p.pos = tok_.pos;
        if (tok_.kind == Tok::Tilde) {
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
            error(tok_.pos, "expected a condition; write '/\\' for and, '\\/' for or, '~' for not (found " + describe(tok_) + ")");
        p.lhs = lhs_operand();
        if (tok_.kind == Tok::Assign || tok_.kind == Tok::EqEq) p.kind = PropKind::Eq;
        else if (tok_.kind == Tok::Ne) p.kind = PropKind::Ne;
        else unexpected("'=' in the condition (as in 0:r0=1 or x=1)");
        advance();
        p.rhs = rhs_operand();
        return add_prop(p);
    }
    /// `N:reg` or a location name.
    Operand lhs_operand() {
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
        const int loc = find_location(tok_.text);
        if (loc < 0) error(tok_.pos, "unknown location '" + std::string(tok_.text) + "' in the condition");
        o.kind = Operand::Kind::Loc;
        o.loc = static_cast<std::uint16_t>(loc);
        advance();
        return o;
    }
    /// A number, a location's address, NULL, or `N:reg`.
    Operand rhs_operand() {
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

    // ---- annotations ----
    void annotations() {
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
    void annotation_line(std::string_view l, std::uint32_t line, std::uint32_t col0) {
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
            else
                error(pos, "expected Always, Sometimes, Never, Maybe or DEADLOCK after '" + std::string(t.tag) +
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

    Lexer lex_;
    Program prog_;
    Token tok_, peek_;
    bool has_peek_ = false;
    bool ocaml_ = true;
    unsigned stmt_accesses_ = 0;
    unsigned accesses_in_process_ = 0;
    std::vector<TypeInfo> types_;
    std::vector<bool> declared_;
    std::vector<RegInit> reg_inits_;
    std::vector<unsigned> expr_depth_, prop_depth_;
};

}  // namespace

Program parse(std::string_view source, const std::string& file) {
    Program prog = Parser(source, file).run();
    detail::analyse(prog);
    return prog;
}

Program parse_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LitmusError(path, SourcePos{0, 0}, "cannot read the file");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

}  // namespace oc::litmus
