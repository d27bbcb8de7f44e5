// SPDX-License-Identifier: MIT
// Helper functions in litmus files (members of Parser, parser_internal.hpp; docs/litmus.md,
// "Functions"): `static int f(int *x, int v) { ... }` defined before the processes that call it,
// inlined at each call. The body is kept as tokens and parsed again at every call in a scope of
// its own: its parameters and locals become fresh registers of the calling process (a pointer
// or value argument that is a register the body never assigns is that register itself), the
// arguments are assigned to the others before the body, and the result goes to a register of
// its own. The inlined code is then the code written inline: the interpreter's dependency
// tracking follows values through these registers as through any other, and `return` ends the
// inlined body (StmtKind::Return, StmtKind::Inline). Here too: statement(), which puts the
// argument bindings and inlined bodies a statement's calls need before it, and `return`.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "litmus/parser.hpp"
#include "litmus/parser_internal.hpp"
#include "litmus/primitive_table.hpp"

namespace oc::litmus::detail {

namespace {

constexpr std::string_view c_keywords[] = {
    "if", "else", "while", "for", "do", "break", "continue", "return", "goto", "switch", "case", "default",
    "static", "inline", "struct", "union", "enum", "typedef", "sizeof", "NULL", "true", "false", "VAL",
};

bool is_function_qualifier(std::string_view w) {
    return w == "static" || w == "inline" || w == "__always_inline" || w == "noinline" || w == "__maybe_unused";
}

}  // namespace

/// One statement; appends what it produces (a declaration may produce several), after what the
/// function calls in its expressions need before it (argument bindings, inlined bodies).
void Parser::statement(unsigned depth, std::vector<std::int32_t>& out) {
    std::vector<std::int32_t> outer;
    outer.swap(pending_);
    const unsigned outer_depth = stmt_depth_;
    stmt_depth_ = depth;
    std::vector<std::int32_t> mine;
    statement_here(depth, mine);
    out.insert(out.end(), pending_.begin(), pending_.end());
    out.insert(out.end(), mine.begin(), mine.end());
    pending_.swap(outer);
    stmt_depth_ = outer_depth;
}

/// A loop's condition and a for's step are evaluated at every iteration: what the function
/// calls in them need (pending_ from `pending_before` on) becomes a Block that the loop runs
/// before each test of its condition (Stmt::prelude), or before the step, instead of once
/// before the loop. Returns that Block ending with `last` (-1: none), `last` alone when the
/// expression called nothing, or -1 when both are empty.
std::int32_t Parser::pending_block(std::size_t pending_before, std::int32_t last) {
    if (pending_.size() == pending_before) return last;
    std::vector<std::int32_t> items(pending_.begin() + static_cast<std::ptrdiff_t>(pending_before), pending_.end());
    pending_.resize(pending_before);
    if (last >= 0) items.push_back(last);
    Stmt block;
    block.kind = StmtKind::Block;
    block.pos = prog_.stmts[static_cast<std::size_t>(items.front())].pos;
    block.first = static_cast<std::uint32_t>(prog_.block_items.size());
    block.count = static_cast<std::uint32_t>(items.size());
    prog_.block_items.insert(prog_.block_items.end(), items.begin(), items.end());
    return add_stmt(block);
}

/// The condition of smp_cond_load_*() is evaluated at every iteration: a function call in it
/// (whose body would run once, before the loop) is rejected.
void Parser::no_call_in(std::size_t pending_before, const char* where) const {
    if (pending_.size() == pending_before) return;
    const Stmt& s = prog_.stmts[static_cast<std::size_t>(pending_[pending_before])];
    error(s.pos, std::string("unsupported: a call to a helper function in ") + where +
                     " (it runs at every iteration of the wait); write the wait as a loop whose condition calls it");
}

/// `return;` or `return e;` in a helper function: ends the inlined body, `e` going to the call's
/// result register.
void Parser::return_statement(std::vector<std::int32_t>& out) {
    if (frames_.empty())
        error(tok_.pos, "unsupported: 'return' in a process (a process ends at its closing brace; 'return' belongs in a helper function)");
    const Frame& fr = frames_.back();
    Stmt s;
    s.kind = StmtKind::Return;
    s.pos = tok_.pos;
    advance();
    if (tok_.kind == Tok::Semi) {
        if (fr.f->value) error(s.pos, "'return' without a value in function " + fr.f->name + "(), which returns one");
    } else {
        if (!fr.f->value) error(s.pos, "'return' with a value in void function " + fr.f->name + "()");
        s.expr = expression(0);
        s.reg = static_cast<std::uint16_t>(fr.ret_reg);
    }
    expect(Tok::Semi, "';' after 'return'");
    ++returns_;
    out.push_back(add_stmt(s));
}

bool Parser::at_function_definition() const {
    return tok_.kind == Tok::Ident && (is_function_qualifier(tok_.text) || is_type_word(tok_.text));
}

Parser::Function* Parser::find_function(std::string_view name) const {
    for (const auto& f : functions_)
        if (f->name == name) return f.get();
    return nullptr;
}

/// Errors when the test has no room for one more register (max_registers, all processes
/// together: each inlined call adds its parameters, locals and result).
void Parser::check_register_room(SourcePos pos) const {
    std::size_t used = 0;
    for (const Process& p : prog_.processes) used += p.regs.size();
    if (used >= max_registers)
        error(pos, "unsupported: more than " + std::to_string(max_registers) +
                       " registers in the test (all processes together: parameters, locals, and the parameters, locals and "
                       "result of each inlined call)");
}

/// A register of the current process, not reachable by name from the process's code.
std::uint16_t Parser::new_reg(std::string name, SourcePos pos) {
    check_register_room(pos);
    Register r;
    r.name = std::move(name);
    r.full_name = std::to_string(prog_.processes.size() - 1) + ":" + r.name;
    r.declared = pos;
    proc().regs.push_back(std::move(r));
    return static_cast<std::uint16_t>(proc().regs.size() - 1);
}

/// `[static] [inline] type [*] name(params) { body }` or a prototype ending in ';'. The body is
/// checked once here, in a process of its own that is then dropped, so that an error in it is
/// reported even if nothing calls it, and a recursion is found.
void Parser::function_definition() {
    while (tok_.kind == Tok::Ident && is_function_qualifier(tok_.text)) advance();
    bool typed = false;
    const bool void_word = is_word("void");
    type_words_here(typed);
    if (!typed) unexpected("a return type (void, int, bool, unsigned long...) for the function");
    unsigned stars = 0;
    while (tok_.kind == Tok::Star) {
        ++stars;
        advance();
    }
    if (tok_.kind != Tok::Ident) unexpected("the function's name");
    const Token name_tok = tok_;
    const std::string name(tok_.text);
    Order order = Order::Full;
    if (find_prim(name, order) != nullptr || is_cond_load(name) || (macros_ != nullptr && macros_->find(name) != nullptr) ||
        std::any_of(std::begin(not_in_lkmm), std::end(not_in_lkmm), [&](const NotInLkmm& k) { return k.name == name; }))
        error(name_tok.pos, "function '" + name + "' is named like a kernel primitive; rename it");
    if (is_process_name(name)) error(name_tok.pos, "function '" + name + "' is named like a process; rename it");
    if (is_type_word(name) || std::find(std::begin(c_keywords), std::end(c_keywords), name) != std::end(c_keywords))
        unexpected("the function's name");
    advance();
    if (tok_.kind != Tok::LParen) unexpected("'(' and the parameters of function " + name + "()");
    advance();
    auto fn = std::make_unique<Function>();
    fn->name = name;
    fn->pos = name_tok.pos;
    fn->value = !(void_word && stars == 0);
    if (is_word("void") && peek().kind == Tok::RParen) advance();
    while (tok_.kind != Tok::RParen) {
        if (!fn->params.empty()) expect(Tok::Comma, "',' or ')' in the parameter list of " + name + "()");
        bool ptyped = false;
        type_words_here(ptyped);
        if (!ptyped) unexpected("a parameter type such as 'int *x' or 'int v'");
        Function::Param p;
        while (tok_.kind == Tok::Star) {
            p.pointer = true;
            advance();
        }
        if (tok_.kind != Tok::Ident || is_type_word(tok_.text)) unexpected("a parameter name");
        p.name = std::string(tok_.text);
        p.pos = tok_.pos;
        for (const Function::Param& q : fn->params)
            if (q.name == p.name) error(p.pos, "parameter '" + p.name + "' is declared twice in function " + name + "()");
        advance();
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays");
        fn->params.push_back(std::move(p));
    }
    advance();  // ')'
    Function* prev = find_function(name);
    const auto same_signature = [&](const Function& a) {
        if (a.value != fn->value || a.params.size() != fn->params.size()) return false;
        for (std::size_t i = 0; i < a.params.size(); ++i)
            if (a.params[i].pointer != fn->params[i].pointer) return false;
        return true;
    };
    if (prev != nullptr && !same_signature(*prev))
        error(name_tok.pos, "function " + name + "() is declared differently at " + pos_text(prev->pos));
    if (tok_.kind == Tok::Semi) {  // a prototype
        if (prev == nullptr) functions_.push_back(std::move(fn));
        advance();
        return;
    }
    if (prev != nullptr && prev->defined) error(name_tok.pos, "function " + name + "() is defined twice (first at " + pos_text(prev->pos) + ")");
    if (tok_.kind != Tok::LBrace) unexpected("'{' to open the body of function " + name + "() (or ';' for a prototype)");
    if (has_peek_) unexpected("'{'");
    // The body, lexed as code ("(*" starts "(*x)"), up to its matching '}'.
    ocaml_ = false;
    unsigned braces = 0;
    for (;;) {
        if (tok_.kind == Tok::End) unexpected("'}' to close the body of function " + name + "()");
        fn->body.push_back(tok_);
        if (tok_.kind == Tok::LBrace) ++braces;
        if (tok_.kind == Tok::RBrace && --braces == 0) break;
        advance();
    }
    Token end;
    end.kind = Tok::End;
    end.pos = tok_.pos;
    fn->body.push_back(end);
    Function* f = prev;
    if (f == nullptr) {
        functions_.push_back(std::move(fn));
        f = functions_.back().get();
    } else {
        prev->params = fn->params;  // the definition's names
        prev->body = std::move(fn->body);
        prev->pos = fn->pos;
    }
    // Check the body once, in a throwaway process; its parameters are registers of their own.
    const std::size_t stmts = prog_.stmts.size(), exprs = prog_.exprs.size(), items = prog_.block_items.size(),
                      accesses = prog_.accesses.size(), depths = expr_depth_.size();
    const bool rcu = prog_.uses_rcu, srcu = prog_.uses_srcu;
    const unsigned accesses_before = accesses_in_process_;
    Process p;
    p.name = "function " + name + "()";
    p.pos = f->pos;
    prog_.processes.push_back(std::move(p));
    accesses_in_process_ = 0;
    dry_ = true;
    f->defining = true;
    std::vector<std::int32_t> params;
    for (const Function::Param& q : f->params) params.push_back(new_reg(q.name, q.pos));
    const std::int32_t ret = f->value ? new_reg("return", f->pos) : -1;
    expand_body(*f, params, ret, f->pos);
    f->param_assigned.clear();
    for (const std::int32_t r : params) f->param_assigned.push_back(proc().regs[static_cast<std::size_t>(r)].assigned);
    f->defining = false;
    f->defined = true;
    dry_ = false;
    prog_.processes.pop_back();
    accesses_in_process_ = accesses_before;
    prog_.stmts.resize(stmts);
    prog_.exprs.resize(exprs);
    prog_.block_items.resize(items);
    prog_.accesses.resize(accesses);
    expr_depth_.resize(depths);
    prog_.uses_rcu = rcu;
    prog_.uses_srcu = srcu;
    // tok_ is the closing '}', lexed in C mode; the next token is lexed in top-level mode.
    ocaml_ = true;
    advance();
}

/// A call `f(args)` in an expression or as a statement: binds the arguments, inlines the body
/// (both go before the statement being parsed: pending_) and returns the result's register.
std::int32_t Parser::inline_call(Function& f, bool allow_void, unsigned depth) {
    const Token name_tok = tok_;
    if (f.defining)
        error(name_tok.pos, "recursive call to " + f.name + "() (helper functions are inlined at each call; recursion, direct or "
                                                             "through other functions, is unsupported)");
    if (!f.defined && !dry_)
        error(name_tok.pos, "call to function " + f.name + "(), declared at " + pos_text(f.pos) + " but not defined before this call");
    if (!allow_void && !f.value) error(name_tok.pos, f.name + "() returns no value (it is void); call it as a statement");
    if (cond_operand_ > 0)
        error(name_tok.pos, "unsupported: a call to " + f.name + "() in an operand of '&&', '||' or '?:', which C evaluates only "
                                                               "under a condition; assign its result to a register first");
    advance();  // name
    advance();  // (
    const unsigned outer_accesses = stmt_accesses_;
    const std::size_t first_access = prog_.accesses.size();
    std::vector<std::int32_t> alias, exprs;
    while (tok_.kind != Tok::RParen) {
        if (!alias.empty()) {
            if (tok_.kind != Tok::Comma) unexpected("',' or ')' after an argument of " + f.name + "()");
            advance();
        }
        const std::size_t i = alias.size();
        if (i >= f.params.size())
            error(tok_.pos, f.name + "() takes " + std::to_string(f.params.size()) + " argument" + (f.params.size() == 1 ? "" : "s") +
                                ", found more");
        // A register the body never assigns is passed as itself (a pointer parameter then keeps
        // its fixed location, which the analysis needs).
        std::int32_t a = -1;
        if (tok_.kind == Tok::Ident && (peek().kind == Tok::Comma || peek().kind == Tok::RParen) &&
            (i >= f.param_assigned.size() || !f.param_assigned[i]) && !(tok_.text == "VAL" && val_reg_ >= 0))
            a = find_reg(tok_.text);
        if (a >= 0) {
            advance();
            alias.push_back(a);
            exprs.push_back(-1);
        } else {
            alias.push_back(-1);
            exprs.push_back(expression(depth + 1));
        }
    }
    if (alias.size() != f.params.size())
        error(name_tok.pos, f.name + "() takes " + std::to_string(f.params.size()) + " argument" + (f.params.size() == 1 ? "" : "s") +
                                ", found " + std::to_string(alias.size()));
    advance();  // ')'
    const unsigned id = ++inline_id_;
    std::vector<std::int32_t> params;
    for (std::size_t i = 0; i < f.params.size(); ++i) {
        if (alias[i] >= 0) {
            params.push_back(alias[i]);
            continue;
        }
        const std::uint16_t r = new_reg(f.name + "." + f.params[i].name + "#" + std::to_string(id), f.params[i].pos);
        proc().regs[r].assigned = true;
        Stmt s;
        s.kind = StmtKind::Assign;
        s.pos = name_tok.pos;
        s.reg = r;
        s.expr = exprs[i];
        pending_.push_back(add_stmt(s));
        params.push_back(r);
    }
    const std::int32_t ret = f.value ? new_reg(f.name + ".return#" + std::to_string(id), name_tok.pos) : -1;
    if (ret >= 0) proc().regs[static_cast<std::size_t>(ret)].assigned = true;
    if (f.defined) {
        const bool from_process = frames_.empty();
        try {
            pending_.push_back(expand_body(f, params, ret, name_tok.pos));
        } catch (const LitmusError& e) {
            // Its body parsed when the function was defined: what fails now depends on the
            // call (its process's limits), which the message names.
            if (dry_ || !from_process) throw;
            throw LitmusError(e.file(), e.pos(), e.message() + " (in " + f.name + "() called at " + pos_text(name_tok.pos) + ")");
        }
    }
    // The call is one access of its statement, made of its arguments' and its body's.
    const std::size_t made = prog_.accesses.size() - first_access;
    if (outer_accesses > 0 && made > 0)
        error(name_tok.pos, "unsupported: a call to " + f.name + "(), which accesses shared memory, and another shared-memory access "
                                                               "in one statement, not nested in each other (C leaves their order "
                                                               "unspecified); split it into two statements");
    stmt_accesses_ = outer_accesses + static_cast<unsigned>(made);
    Expr e;
    e.pos = name_tok.pos;
    if (ret >= 0) {
        e.kind = ExprKind::Reg;
        e.reg = static_cast<std::uint16_t>(ret);
    }
    return add_expr(e);
}

/// Parses the body of `f` from its tokens, with its parameters in registers `param_regs` and
/// its result going to `ret_reg`: an Inline statement. Saves and restores the caller's parse state.
std::int32_t Parser::expand_body(const Function& f, const std::vector<std::int32_t>& param_regs, std::int32_t ret_reg, SourcePos call) {
    if (frames_.size() >= max_nesting) error(call, "unsupported: helper function calls nested deeper than " + std::to_string(max_nesting) + " levels");
    Frame fr;
    fr.f = &f;
    fr.ret_reg = ret_reg;
    fr.id = inline_id_;
    for (std::size_t i = 0; i < f.params.size(); ++i)
        fr.names.emplace_back(f.params[i].name, static_cast<std::uint16_t>(param_regs[i]));
    const Token tok = tok_, peeked = peek_;
    const bool has_peek = has_peek_;
    const unsigned accesses = stmt_accesses_, loop_base = loop_base_, returns = returns_, cond_operand = cond_operand_,
                   depth = stmt_depth_;
    const int val_reg = val_reg_;
    frames_.push_back(std::move(fr));
    replay_.push_back(Replay{&f.body, 0});
    has_peek_ = false;
    loop_base_ = loop_depth_;
    returns_ = 0;
    cond_operand_ = 0;
    val_reg_ = -1;
    advance();  // '{'
    advance();
    const std::int32_t body = block_body(depth + 1);
    replay_.pop_back();
    frames_.pop_back();
    tok_ = tok;
    peek_ = peeked;
    has_peek_ = has_peek;
    stmt_accesses_ = accesses;
    loop_base_ = loop_base;
    returns_ = returns;
    cond_operand_ = cond_operand;
    stmt_depth_ = depth;
    val_reg_ = val_reg;
    Stmt s;
    s.kind = StmtKind::Inline;
    s.pos = call;
    s.then_stmt = body;
    s.returns_value = f.value;
    return add_stmt(s);
}

/// `&r` as the old value of try_cmpxchg(): the register `r`, which the primitive writes when it
/// fails. Returns a Reg expression reading it; `out` gets the register.
std::int32_t Parser::register_ref(std::string_view prim, std::int32_t& out) {
    const std::string usage = std::string(prim) + "() takes the address of a register as its old value, as in " +
                              std::string(prim) + "(v, &old, new)";
    if (tok_.kind != Tok::Amp) unexpected("'&' and a register: " + usage);
    advance();
    if (tok_.kind != Tok::Ident) unexpected("a register after '&': " + usage);
    Expr e;
    e.pos = tok_.pos;
    int r = find_reg(tok_.text);
    if (r < 0 && initialised_in_state(tok_.text)) r = implicit_reg(tok_.text, tok_.pos);
    if (r < 0) error(tok_.pos, unknown_identifier(tok_.text));
    Register& reg = proc().regs[static_cast<std::size_t>(r)];
    if (reg.is_param)
        error(tok_.pos, "'" + reg.name + "' is a parameter (a shared location's address): " + usage);
    reg.assigned = true;
    e.kind = ExprKind::Reg;
    e.reg = static_cast<std::uint16_t>(r);
    out = r;
    advance();
    return add_expr(e);
}

}  // namespace oc::litmus::detail
