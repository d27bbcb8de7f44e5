// SPDX-License-Identifier: MIT
// The interpreter's Instance (interpreter_instance.hpp) running a process: statements and
// expressions, with the reads each value came from (Taint) and the conditions an access runs
// under, for LKMM's addr, data and ctrl dependencies (interpreter_instance.hpp says what herd7
// does and how this follows it).
#include <cstdint>

#include "litmus/interpreter_instance.hpp"

namespace oc::litmus::detail {

namespace {

Value wrap_add(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b)); }
Value wrap_sub(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)); }
Value wrap_mul(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b)); }

}  // namespace

// ---- statements -------------------------------------------------------------------------------

Instance::Flow Instance::exec(unsigned proc, std::int32_t stmt) {
    const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
    Taint t;
    switch (s.kind) {
    case StmtKind::Block:
        for (std::uint32_t i = 0; i < s.count; ++i)
            if (const Flow f = exec(proc, p_.block_items[s.first + i]); f != Flow::Normal) return f;
        return Flow::Normal;
    case StmtKind::Expr: eval(proc, s.expr, t); return Flow::Normal;
    case StmtKind::Assign:
        reg(proc, s.reg) = eval(proc, s.expr, t);
        assign_taint(proc, s.reg, t);
        return Flow::Normal;
    case StmtKind::Store: access(proc, static_cast<std::size_t>(s.access), t); return Flow::Normal;
    case StmtKind::If: {
        const bool taken = eval(proc, s.expr, t) != 0;
        if (s.may_return) {
            // A return under it: the rest of the function runs only if the condition did not
            // lead there, as if written in the other branch; its ctrl lasts to the function's end.
            ctrl_[proc] |= t.as_condition();
            branch_on(t);
            if (taken) return exec(proc, s.then_stmt);
            if (s.else_stmt >= 0) return exec(proc, s.else_stmt);
            return Flow::Normal;
        }
        // ctrl for the branch taken only: herd gives none to what follows the if (above).
        return under_condition(proc, t, [&] {
            if (taken) return exec(proc, s.then_stmt);
            if (s.else_stmt >= 0) return exec(proc, s.else_stmt);
            return Flow::Normal;
        });
    }
    case StmtKind::Loop: return loop(proc, s);
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
    case StmtKind::Return:
        if (s.expr >= 0) {
            reg(proc, s.reg) = eval(proc, s.expr, t);
            assign_taint(proc, s.reg, t);
        }
        return Flow::Return;
    case StmtKind::Inline: {
        // The code after the call depends on no condition inside the function (as after an if).
        const Taint outer = ctrl_[proc];
        const Flow f = exec(proc, s.then_stmt);
        ctrl_[proc] = outer;
        if (f != Flow::Return && s.returns_value) fail_at(s.pos, "a function that returns a value ended without 'return'");
        return Flow::Normal;
    }
    }
    return Flow::Normal;
}

/// A loop. herd7 unrolls `while (c) s` into `if (c) { s; if (c) { s; ... } }`: an iteration's
/// events are ctrl-dependent on the conditions of all the iterations up to it, and the events
/// after the loop on none. An await (Stmt::await) runs as the C++ models' spin loops do: each
/// iteration starts with spin_iteration(), and one that fails (its condition holds again) ends
/// with spin_yield(), where the graph engine blocks the thread; any other loop is cut when it
/// would start iteration unroll_ + 1 (herd7's -unroll: the condition is tested, then the cut).
Instance::Flow Instance::loop(unsigned proc, const Stmt& s) {
    const Taint outer = ctrl_[proc];
    // A loop with a return of its function under it keeps its conditions' ctrl after it (the
    // function's rest runs only if no iteration returned: Stmt::may_return).
    struct Restore {
        Taint& ctrl;
        Taint outer;
        bool keep;
        ~Restore() {
            if (!keep) ctrl = outer;
        }
    } restore{ctrl_[proc], outer, s.may_return};
    const auto holds = [&] {
        if (s.expr < 0) return true;
        if (s.prelude >= 0) exec(proc, s.prelude);  // the condition's calls (a Block of inlined bodies)
        Taint t;
        const bool c = eval(proc, s.expr, t) != 0;
        ctrl_[proc] |= t.as_condition();
        branch_on(t);
        return c;
    };
    for (unsigned done = 0;; ++done) {
        if (s.await) spin_iteration();
        if (!s.post_test && !holds()) break;
        if (!s.await && done == unroll_) cut(s);
        const Flow f = exec(proc, s.then_stmt);
        if (f == Flow::Return) return f;
        if (f == Flow::Break) break;
        if (s.post_test && !holds()) break;
        if (s.else_stmt >= 0) exec(proc, s.else_stmt);
        if (s.await) spin_yield();
    }
    return Flow::Normal;
}

/// Ends the execution at the unroll bound: under the graph engine the thread blocks (a failed
/// iteration with no read: never a livelock) and the run counts as cut once the engine has seen
/// it end, unless it is no execution (GraphEngine::cut_counts(): under LKMM, a run whose
/// load-buffering guess nothing can match); elsewhere, an error.
void Instance::cut(const Stmt& loop) {
    if (cuts_ != nullptr && runtime().engine().blocks_failed_spins()) {
        runtime().defer_cut(*cuts_);
        spin_iteration();
        spin_yield();
    }
    fail_at(loop.pos, cuts_ != nullptr ? "a loop needs more iterations than the unroll bound, and this engine cannot drop "
                                         "the execution (use the graph engine)"
                                       : "a loop needs more iterations than the unroll bound (ordercheck litmus --unroll N "
                                         "bounds loops and reports the run as bounded)");
}

/// Evaluates expression `e`, adding to `taint` the reads its value came from.
Value Instance::eval(unsigned proc, std::int32_t e, Taint& taint) {
    const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
    switch (x.kind) {
    case ExprKind::Const: return x.value;
    case ExprKind::Reg:
        taint |= reg_taint(proc, x.reg);
        return reg(proc, x.reg).value();
    case ExprKind::Unary: {
        const Value a = eval(proc, x.a, taint);
        taint.copy = false;  // computed
        switch (static_cast<UnOp>(x.op)) {
        case UnOp::Neg: return wrap_sub(0, a);
        case UnOp::Not: return a == 0 ? 1 : 0;
        case UnOp::BitNot: return ~a;
        }
        return 0;
    }
    case ExprKind::Binary: {
        const Value v = binary(proc, x, taint);
        taint.copy = false;  // computed
        return v;
    }
    case ExprKind::Ternary: {
        Taint cond;
        const bool c = eval(proc, x.a, cond) != 0;
        taint |= cond;
        const Value v = under_condition(proc, cond, [&] { return eval(proc, c ? x.b : x.c, taint); });
        taint.copy = false;  // chosen by a condition
        return v;
    }
    case ExprKind::Deref:
    case ExprKind::Call: return access(proc, static_cast<std::size_t>(x.a), taint);
    }
    return 0;
}

Value Instance::binary(unsigned proc, const Expr& x, Taint& taint) {
    const auto op = static_cast<BinOp>(x.op);
    if (op == BinOp::LogAnd || op == BinOp::LogOr) {
        // The right operand runs only if the left one says so: a branch.
        Taint cond;
        const bool a = eval(proc, x.a, cond) != 0;
        taint |= cond;
        if (a == (op == BinOp::LogOr)) return a ? 1 : 0;
        return under_condition(proc, cond, [&] { return eval(proc, x.b, taint) != 0 ? 1 : 0; });
    }
    if (op == BinOp::Index || op == BinOp::Field) return element(proc, x, taint);
    const Value a = eval(proc, x.a, taint);
    const Value b = eval(proc, x.b, taint);
    switch (op) {
    case BinOp::Mul: return wrap_mul(a, b);
    case BinOp::Div:
        if (b == 0) fail_at(x.pos, "division by zero");
        return b == -1 ? wrap_sub(0, a) : a / b;
    case BinOp::Mod:
        if (b == 0) fail_at(x.pos, "division by zero");
        return b == -1 ? 0 : a % b;
    case BinOp::Add: return wrap_add(a, b);
    case BinOp::Sub: return wrap_sub(a, b);
    case BinOp::Shl:
        if (b < 0 || b > 63) fail_at(x.pos, "shift count out of range");
        return static_cast<Value>(static_cast<std::uint64_t>(a) << b);
    case BinOp::Shr:
        if (b < 0 || b > 63) fail_at(x.pos, "shift count out of range");
        return a >> b;
    case BinOp::Lt: return a < b;
    case BinOp::Le: return a <= b;
    case BinOp::Gt: return a > b;
    case BinOp::Ge: return a >= b;
    case BinOp::Eq: return a == b;
    case BinOp::Ne: return a != b;
    case BinOp::BitAnd: return a & b;
    case BinOp::BitXor: return a ^ b;
    case BinOp::BitOr: return a | b;
    case BinOp::LogAnd:
    case BinOp::LogOr:
    case BinOp::Index:
    case BinOp::Field: break;
    }
    return 0;
}

/// `a[i]`, `a + i` on an array (BinOp::Index) and `p->f` (BinOp::Field): the address of an
/// element or a field, checked: an index out of its array, or `->` on a value that is no struct
/// of the type (NULL included), fails the execution rather than reach another location. A
/// location that is no array's element is an array of one.
Value Instance::element(unsigned proc, const Expr& x, Taint& taint) {
    const Value base = eval(proc, x.a, taint);
    const Value off = eval(proc, x.b, taint);
    const std::int64_t bl = location_at(base, p_.locations.size());
    if (static_cast<BinOp>(x.op) == BinOp::Field) {
        if (bl < 0 || p_.locations[static_cast<std::size_t>(bl)].struct_type != x.c)
            fail_at(x.pos, base == 0 ? "'->' on a NULL pointer" : "'->' on a value that is not the address of a struct of its type");
        return address_of(static_cast<std::size_t>(bl + off));
    }
    if (bl < 0) fail_at(x.pos, base == 0 ? "an index of a NULL pointer" : "an index of a value that is not the address of a location");
    const Location& l = p_.locations[static_cast<std::size_t>(bl)];
    std::int64_t first = bl, count = 1, stride = 1;
    if (l.array >= 0) {
        const ArrayInfo& a = p_.arrays[static_cast<std::size_t>(l.array)];
        first = a.first;
        count = a.count;
        stride = a.stride;
    }
    if (x.reg > 0 && l.array != x.reg - 1) fail_at(x.pos, "an index of a pointer that does not point into its array");
    if ((bl - first) % stride != 0 || stride != x.c) fail_at(x.pos, "an index of a pointer that does not point to an element of its type");
    if (off <= -count || off >= count) fail_at(x.pos, "array index out of bounds");  // (no overflow below)
    const std::int64_t j = (bl - first) / stride + off;
    if (j < 0 || j >= count) fail_at(x.pos, "array index out of bounds");
    return address_of(static_cast<std::size_t>(first + j * stride));
}

void Instance::fail_at(SourcePos pos, const char* message) {
    const SpotImpl spot{p_.file.c_str(), "litmus", pos.line, pos.column};
    runtime().fail(message, source_location_of(spot));
}

}  // namespace oc::litmus::detail
