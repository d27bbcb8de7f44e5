// SPDX-License-Identifier: MIT
// The C litmus parser on process bodies (members of Parser, parser_internal.hpp): statements
// (assignments, plain stores, if/else, loops, break and continue, blocks; declarations are in
// parse_types.cpp) and expressions (C operators by
// precedence climbing, plain reads, casts, and primitive calls checked against the primitive
// table), with the bounds that keep the interpreter's recursion shallow.
#include <algorithm>
#include <string>
#include <vector>

#include "litmus/parser.hpp"
#include "litmus/parser_internal.hpp"
#include "litmus/primitive_table.hpp"

namespace oc::litmus::detail {

// ---- statements -------------------------------------------------------------------------------

std::int32_t Parser::add_stmt(Stmt s) {
    prog_.stmts.push_back(s);
    return static_cast<std::int32_t>(prog_.stmts.size() - 1);
}

/// Adds an expression node. The tree's depth is bounded (not only the parser's recursion:
/// `1+1+...` is parsed by a loop), because the interpreter evaluates it recursively on the
/// engine's small fibre stacks.
std::int32_t Parser::add_expr(Expr e) {
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
std::int32_t Parser::block_body(unsigned depth) {
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

/// One statement (statement() in parse_function.cpp puts before it what its calls need).
void Parser::statement_here(unsigned depth, std::vector<std::int32_t>& out) {
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
    if (w == "while" || w == "for" || w == "do") {
        out.push_back(loop_statement(depth));
        return;
    }
    if (w == "break" || w == "continue") {
        Stmt s;
        s.kind = w == "break" ? StmtKind::Break : StmtKind::Continue;
        s.pos = tok_.pos;
        if (loop_depth_ == loop_base_) error(tok_.pos, "'" + std::string(w) + "' outside a loop" + (frames_.empty() ? "" : " of function " + frames_.back().f->name + "()"));
        advance();
        expect(Tok::Semi, "';' after '" + std::string(w) + "'");
        out.push_back(add_stmt(s));
        return;
    }
    if (w == "return") {
        return_statement(out);
        return;
    }
    if (w == "goto" || w == "switch" || w == "case" || w == "default")
        error(tok_.pos, "unsupported: '" + std::string(w) + "' statements (a litmus process is code with if/else and loops)");
    if (w == "else") error(tok_.pos, "'else' without a matching 'if'");
    if (struct_statement(out)) return;  // `struct node *p;`, `a[i] = v;`, `p->f = v;`
    if (w == "struct" || w == "union" || w == "enum" || w == "typedef")
        error(tok_.pos, "unsupported: " + std::string(w) + " declarations");
    if (is_type_word(w)) {
        declaration(out);
        return;
    }
    if (is_cond_load(w) && peek().kind == Tok::LParen) {
        // `smp_cond_load_acquire(x, VAL == 1);`: its value is discarded, in a register named VAL
        int r = find_reg("VAL");
        if (r < 0) r = add_reg("VAL", tok_.pos);
        out.push_back(cond_load(static_cast<std::uint16_t>(r)));
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
        if (tok_.kind == Tok::Ident && is_cond_load(tok_.text) && peek().kind == Tok::LParen) {
            out.push_back(cond_load(static_cast<std::uint16_t>(r)));
            return;
        }
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
    error(tok_.pos, "expected a statement (an assignment, a primitive call, a declaration, if or a loop), found " + describe(tok_));
}

std::int32_t Parser::plain_store() {
    const SourcePos pos = tok_.pos;
    const std::size_t first_operand = prog_.accesses.size();
    advance();
    const std::int32_t addr = unary(1);
    check_scalar_target(addr, pos);
    if (tok_.kind != Tok::Assign) unexpected("'=' after '*...' (a plain store *x = v;)");
    return store_value(pos, first_operand, addr);
}

/// The rest of a plain store to `addr` from its '=': the value, ';', the access and statement.
std::int32_t Parser::store_value(SourcePos pos, std::size_t first_operand, std::int32_t addr) {
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

std::int32_t Parser::if_statement(unsigned depth) {
    Stmt s;
    s.kind = StmtKind::If;
    s.pos = tok_.pos;
    advance();
    expect(Tok::LParen, "'(' after 'if'");
    s.expr = expression(0);
    expect(Tok::RParen, "')' to close the condition of 'if'");
    const unsigned returns_before = returns_;
    s.then_stmt = branch(depth);
    if (is_word("else")) {
        advance();
        s.else_stmt = branch(depth);
    }
    s.may_return = returns_ != returns_before;
    return add_stmt(s);
}

/// `while (c) s`, `do s while (c);` or `for (init; c; step) s`: a Loop (a for: a Block of its
/// init statements and the Loop).
std::int32_t Parser::loop_statement(unsigned depth) {
    const std::string_view w = tok_.text;
    const std::string kw(w);
    Stmt s;
    s.kind = StmtKind::Loop;
    s.pos = tok_.pos;
    advance();
    const unsigned returns_before = returns_;
    const std::size_t pending_before = pending_.size();
    if (kw == "do") {
        s.post_test = true;
        s.then_stmt = loop_body(depth, "do");
        s.may_return = returns_ != returns_before;
        if (!is_word("while")) unexpected("'while' after the body of 'do'");
        advance();
        expect(Tok::LParen, "'(' after 'while'");
        stmt_accesses_ = 0;
        s.expr = loop_condition();
        s.prelude = pending_block(pending_before, -1);
        expect(Tok::RParen, "')' to close the condition of 'do ... while'");
        expect(Tok::Semi, "';' after 'do ... while (...)'");
        return add_stmt(s);
    }
    expect(Tok::LParen, "'(' after '" + kw + "'");
    if (kw == "while") {
        if (tok_.kind == Tok::RParen) unexpected("a condition in 'while ()'");
        s.expr = loop_condition();
        s.prelude = pending_block(pending_before, -1);
        expect(Tok::RParen, "')' to close the condition of 'while'");
        s.then_stmt = loop_body(depth, "while");
        s.may_return = returns_ != returns_before;
        return add_stmt(s);
    }
    // for (init; cond; step): init is a statement (an assignment, a declaration, or nothing),
    // which consumes its ';'.
    std::vector<std::int32_t> items;
    if (tok_.kind == Tok::Semi) {
        advance();
    } else {
        if (tok_.kind != Tok::Ident || peek().kind == Tok::LParen || is_word("if") || is_word("while") || is_word("for") ||
            is_word("do") || is_word("break") || is_word("continue"))
            unexpected("an assignment or a declaration as the init of 'for'");
        statement(depth + 1, items);
    }
    stmt_accesses_ = 0;
    if (tok_.kind != Tok::Semi) s.expr = loop_condition();
    s.prelude = pending_block(pending_before, -1);
    expect(Tok::Semi, "';' after the condition of 'for'");
    if (tok_.kind != Tok::RParen) {
        ++loop_depth_;  // the step runs in the loop (a loop in a function it calls is nested)
        const std::int32_t step = for_step();
        --loop_depth_;
        s.else_stmt = pending_block(pending_before, step);
    }
    expect(Tok::RParen, "')' to close 'for (...)'");
    s.then_stmt = loop_body(depth, "for");
    s.may_return = returns_ != returns_before;
    items.push_back(add_stmt(s));
    Stmt block;
    block.kind = StmtKind::Block;
    block.pos = s.pos;
    block.first = static_cast<std::uint32_t>(prog_.block_items.size());
    block.count = static_cast<std::uint32_t>(items.size());
    prog_.block_items.insert(prog_.block_items.end(), items.begin(), items.end());
    return add_stmt(block);
}

/// The step of a for: an assignment to a register or a primitive call, without ';'.
std::int32_t Parser::for_step() {
    stmt_accesses_ = 0;
    Stmt s;
    s.pos = tok_.pos;
    if (tok_.kind == Tok::Ident && peek().kind == Tok::LParen && !is_type_word(tok_.text)) {
        s.kind = StmtKind::Expr;
        s.expr = call(/*allow_void=*/true, 0);
        return add_stmt(s);
    }
    if (tok_.kind == Tok::Ident && peek().kind == Tok::Assign) {
        const std::string_view w = tok_.text;
        int r = find_reg(w);
        if (r < 0) r = implicit_reg(w, tok_.pos);
        advance();
        advance();
        s.kind = StmtKind::Assign;
        s.reg = static_cast<std::uint16_t>(r);
        s.expr = expression(0);
        proc().regs[static_cast<std::size_t>(r)].assigned = true;
        return add_stmt(s);
    }
    if (tok_.kind == Tok::Ident && peek().kind == Tok::Unsupported) advance();  // `r0++`
    if (tok_.kind == Tok::Unsupported) unsupported_token();
    unexpected("an assignment (r = r + 1) or a call as the step of 'for'");
}

bool Parser::is_cond_load(std::string_view w) { return w == "smp_cond_load_acquire" || w == "smp_cond_load_relaxed"; }

/// `smp_cond_load_acquire(x, COND)` (or `_relaxed`), its value assigned to register `r`: the
/// kernel's wait for *x to satisfy COND, in which VAL names the value read (asm-generic/barrier.h:
/// READ_ONCE() until COND holds, then smp_acquire__after_ctrl_dep(), "ACQUIRE semantics"). Not in
/// linux-kernel.def (herd7 rejects it). It becomes `do r = smp_load_acquire(x); while (!(COND));`
/// with VAL read as r (READ_ONCE() for _relaxed): an await.
std::int32_t Parser::cond_load(std::uint16_t r) {
    const Token name_tok = tok_;
    const std::string name(tok_.text);
    advance();  // name
    advance();  // (
    stmt_accesses_ = 0;
    const std::size_t first_operand = prog_.accesses.size();
    Access a;
    a.prim = name == "smp_cond_load_acquire" ? Prim::LoadAcquire : Prim::ReadOnce;
    a.name = name;
    a.pos = name_tok.pos;
    if (tok_.kind == Tok::Star)
        unexpected("a pointer as the first argument of " + name + "(), as in " + name + "(x, VAL != 0)");
    a.addr = expression(1);
    expect(Tok::Comma, "',' and a condition on VAL after the pointer of " + name + "()");
    Expr load;
    load.kind = ExprKind::Call;
    load.pos = name_tok.pos;
    load.a = add_access(std::move(a), first_operand);
    const std::int32_t load_expr = add_expr(load);
    const std::size_t accesses_before = prog_.accesses.size();
    val_reg_ = r;
    stmt_accesses_ = 0;
    const std::size_t pending_before = pending_.size();
    const std::int32_t cond = expression(1);
    no_call_in(pending_before, ("the condition of " + name + "()").c_str());
    val_reg_ = -1;
    if (prog_.accesses.size() != accesses_before)
        error(prog_.accesses[accesses_before].pos, "unsupported: a shared-memory access in the condition of " + name +
                                                       "() (it may use VAL and registers)");
    expect(Tok::RParen, "')' to close " + name + "(");
    expect(Tok::Semi, "';' after " + name + "(...)");
    proc().regs[r].assigned = true;
    Stmt assign;
    assign.kind = StmtKind::Assign;
    assign.pos = name_tok.pos;
    assign.reg = r;
    assign.expr = load_expr;
    const std::int32_t assign_stmt = add_stmt(assign);
    Stmt body;
    body.kind = StmtKind::Block;
    body.pos = name_tok.pos;
    body.first = static_cast<std::uint32_t>(prog_.block_items.size());
    body.count = 1;
    prog_.block_items.push_back(assign_stmt);
    Expr negated;
    negated.kind = ExprKind::Unary;
    negated.pos = name_tok.pos;
    negated.op = static_cast<std::uint8_t>(UnOp::Not);
    negated.a = cond;
    Stmt loop;
    loop.kind = StmtKind::Loop;
    loop.pos = name_tok.pos;
    loop.post_test = true;
    loop.then_stmt = add_stmt(body);
    loop.expr = add_expr(negated);
    return add_stmt(loop);
}

/// The condition of a loop: run at each iteration, so a loop in a helper function it calls is
/// nested in this one.
std::int32_t Parser::loop_condition() {
    ++loop_depth_;
    const std::int32_t e = expression(0);
    --loop_depth_;
    return e;
}

/// The body of a loop, as a Block; `break` and `continue` are allowed in it.
std::int32_t Parser::loop_body(unsigned depth, const char* keyword) {
    if (is_type_word(tok_.kind == Tok::Ident ? tok_.text : std::string_view{}))
        error(tok_.pos, std::string("expected a statement as the body of '") + keyword + "', found a declaration; use braces");
    if (loop_depth_ >= max_loop_nesting)
        error(tok_.pos, "unsupported: loops nested deeper than " + std::to_string(max_loop_nesting) + " levels");
    ++loop_depth_;
    const std::int32_t b = branch(depth);
    --loop_depth_;
    return b;
}

/// The statement of an if/else branch, as a Block.
std::int32_t Parser::branch(unsigned depth) {
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

// ---- expressions ------------------------------------------------------------------------------

/// Adds access `a`, whose operands were parsed from access number `first_operand` on: the
/// accesses among its operands run before it (`*z2 = *z1;`, `WRITE_ONCE(*y, READ_ONCE(*x))`:
/// the read, then the write), but two accesses of one statement that are not nested in each
/// other (`READ_ONCE(*x) + READ_ONCE(*y)`) have no order C gives them.
std::int32_t Parser::add_access(Access a, std::size_t first_operand) {
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
void Parser::check_depth(unsigned depth) const {
    if (depth > max_parse_depth) error(tok_.pos, "unsupported: parentheses or unary operators nested too deeply");
}

std::int32_t Parser::expression(unsigned depth) {
    check_depth(depth);
    const std::int32_t cond = binary(0, depth);
    if (tok_.kind != Tok::Question) return cond;
    Expr e;
    e.kind = ExprKind::Ternary;
    e.pos = tok_.pos;
    advance();
    e.a = cond;
    ++cond_operand_;
    e.b = expression(depth + 1);
    expect(Tok::Colon, "':' in the conditional expression");
    e.c = expression(depth + 1);
    --cond_operand_;
    return add_expr(e);
}

const Parser::BinInfo* Parser::bin_info(Tok t) {
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
std::int32_t Parser::binary(int min_prec, unsigned depth) {
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
        const bool conditional = b->op == BinOp::LogAnd || b->op == BinOp::LogOr;
        cond_operand_ += conditional ? 1 : 0;
        e.b = binary(b->prec, depth + 1);
        cond_operand_ -= conditional ? 1 : 0;
        lhs = b->op == BinOp::Add || b->op == BinOp::Sub ? pointer_arith(e) : add_expr(e);
    }
}

std::int32_t Parser::unary(unsigned depth) {
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
        check_scalar_target(addr, e.pos);
        Access a;
        a.plain = true;
        a.name = "plain read";
        a.pos = e.pos;
        a.addr = addr;
        e.kind = ExprKind::Deref;
        e.a = add_access(std::move(a), first_operand);
        return add_expr(e);
    }
    case Tok::Amp: return address_of_expr(depth + 1);
    default: return postfix(depth + 1);
    }
}

std::int32_t Parser::primary(unsigned depth) {
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
        int r = w == "VAL" && val_reg_ >= 0 ? val_reg_ : find_reg(w);
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

/// `name(args)`: a helper function (inlined) or a kernel primitive. Returns a Call expression,
/// or for a function the register its result is in (a constant for a void function).
std::int32_t Parser::call(bool allow_void, unsigned depth) {
    const Token name_tok = tok_;
    const std::string_view name = tok_.text;
    if (Function* f = find_function(name)) return inline_call(*f, allow_void, depth);
    if (name == "test_bit") return test_bit_call(depth);
    Order order = Order::Full;
    const PrimSpec* spec = nullptr;
    bool srcu_access = false;
    if (macros_ != nullptr && (is_lkmm_primitive(name) || macros_->find(name) != nullptr)) {
        // the configuration's macro table says what the primitive is (def_table.hpp)
        std::string why;
        const auto use = macros_->resolve(name, why);
        if (!use) error(tok_.pos, "unsupported: " + why);
        spec = find_prim(use->primitive, order);
        srcu_access = use->srcu_access;
    } else {
        spec = find_prim(name, order);
    }
    if (spec == nullptr && is_cond_load(name))
        error(tok_.pos, std::string(name) + "() is supported as a statement: r = " + std::string(name) +
                            "(x, cond on VAL); or " + std::string(name) + "(x, cond on VAL);");
    if (spec == nullptr) {
        for (const NotInLkmm& k : not_in_lkmm)
            if (k.name == name)
                error(tok_.pos, "unsupported: the primitive '" + std::string(name) +
                                    "' is not in LKMM's linux-kernel.def (herd7 rejects it too)" +
                                    (k.instead.empty() ? "" : "; " + std::string(k.instead)) +
                                    " (docs/litmus.md lists the supported ones)");
        error(tok_.pos, "call to undefined function '" + std::string(name) +
                            "': not a kernel primitive (docs/litmus.md lists them) nor a helper function defined before this call");
    }
    if (!allow_void && !returns_value(spec->prim))
        error(tok_.pos, std::string(name) + "() returns no value; call it as a statement");
    advance();  // name
    advance();  // (
    const std::size_t first_operand = prog_.accesses.size();
    Access a;
    a.prim = spec->prim;
    a.order = order;
    a.srcu_access = srcu_access;
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
            if (tok_.kind != Tok::Star) {  // `READ_ONCE(a[i])`, `WRITE_ONCE(p->next, v)`, `READ_ONCE(x)` for a global x
                a.addr = lvalue_address(depth + 1, "'*' and a location as the first argument of " + std::string(name) + "(), as in " +
                                                       std::string(name) + "(*x" + (spec->nargs > 1 ? ", ..." : "") + ")");
                break;
            }
            advance();
            a.addr = unary(depth + 1);
            check_scalar_target(a.addr, name_tok.pos);
            break;
        case ArgKind::Pointer: a.addr = expression(depth + 1); check_scalar_target(a.addr, name_tok.pos); break;
        case ArgKind::Value: a.vals[vals++] = expression(depth + 1); break;
        case ArgKind::RegRef: a.vals[vals++] = register_ref(name, a.out_reg); break;
        }
    }
    if (tok_.kind == Tok::Comma)
        error(tok_.pos, std::string(name) + "() takes " + std::to_string(spec->nargs) + " argument" + (spec->nargs == 1 ? "" : "s") + ", found more");
    expect(Tok::RParen, "')' to close " + std::string(name) + "(");
    bit_operands(a);
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

}  // namespace oc::litmus::detail
