// SPDX-License-Identifier: MIT
// Structs and arrays in C litmus tests (docs/litmus.md, "Structs and arrays"), in code: element and
// field designators (`a[i]`, `p->f`, `s.f`, `&...`, `a + i` on an array, globals by name) and the
// bit operations on arrays of longs (`test_bit(70, bits)`), whose addresses are BinOp::Index and
// BinOp::Field expressions checked when they run (interpreter_eval.cpp); and what such an address
// may designate, for the analysis. The declarations and types are in parse_types.cpp.
#include <string>

#include "litmus/parser_internal.hpp"

namespace oc::litmus::detail {

namespace {

bool has_access(const Program& p, std::int32_t e) {
    if (e < 0) return false;
    const Expr& x = p.exprs[static_cast<std::size_t>(e)];
    switch (x.kind) {
    case ExprKind::Deref:
    case ExprKind::Call: return true;
    case ExprKind::Const:
    case ExprKind::Reg: return false;
    default: return has_access(p, x.a) || has_access(p, x.b) || has_access(p, x.c);
    }
}

}  // namespace

// ---- designators in code ----------------------------------------------------------------------

/// A name that is no register here but an array, a struct or a location of the initial state:
/// kernel code names its globals.
bool Parser::at_global_name() {
    if (tok_.kind != Tok::Ident || peek().kind == Tok::LParen) return false;
    const std::string_view w = tok_.text;
    if (w == "NULL" || w == "true" || w == "false" || (w == "VAL" && val_reg_ >= 0)) return false;
    if (find_reg(w) >= 0 || initialised_in_state(w)) return false;
    if (find_aggregate(w) >= 0) return true;
    const int l = find_location(w);
    return l >= 0 && static_cast<std::size_t>(l) < declared_.size() && declared_[static_cast<std::size_t>(l)];
}

std::int32_t Parser::const_expr(Value v, SourcePos pos) {
    Expr e;
    e.kind = ExprKind::Const;
    e.pos = pos;
    e.value = v;
    return add_expr(e);
}

Parser::Object Parser::name_object() {
    Object o;
    o.pos = tok_.pos;
    if (const int ag = find_aggregate(tok_.text); ag >= 0) {
        const Aggregate& a = aggregates_[static_cast<std::size_t>(ag)];
        o.addr = const_expr(address_of(a.first), o.pos);
        o.type = CType{a.strct, 0, -1, 0};
        o.whole = a.array;
        const std::uint16_t n = a.array >= 0 ? prog_.arrays[static_cast<std::size_t>(a.array)].count : std::uint16_t{1};
        set_expr_type(o.addr, CType{a.strct, 1, a.array, n});
    } else {
        const int loc = find_location(tok_.text);
        o.addr = const_expr(address_of(static_cast<std::size_t>(loc)), o.pos);
        o.type = loc_types_[static_cast<std::size_t>(loc)];
        set_expr_type(o.addr, CType{o.type.strct, static_cast<std::uint8_t>(o.type.stars + 1), -1, 1});
    }
    advance();
    return o;
}

/// The address of element `index` of what `base` points to (BinOp::Index). A constant index is
/// checked here when the array is known; every index is checked when it runs.
std::int32_t Parser::index_expr(std::int32_t base, std::int32_t index, CType bt, SourcePos pos, const std::string& what) {
    Expr ix = prog_.exprs[static_cast<std::size_t>(index)];
    if (ix.kind == ExprKind::Unary && static_cast<UnOp>(ix.op) == UnOp::Neg &&
        prog_.exprs[static_cast<std::size_t>(ix.a)].kind == ExprKind::Const) {  // a[-1]
        ix.kind = ExprKind::Const;
        ix.value = -prog_.exprs[static_cast<std::size_t>(ix.a)].value;
    }
    const std::string arr = bt.array >= 0 ? "array '" + prog_.arrays[static_cast<std::size_t>(bt.array)].name + "'" : "'" + what + "'";
    if (ix.kind == ExprKind::Const && bt.count > 0 && ix.value >= bt.count) {
        const std::size_t total = bt.array >= 0 ? prog_.arrays[static_cast<std::size_t>(bt.array)].count : 1;
        error(ix.pos, "index " + std::to_string(ix.value) + " is out of bounds of " + arr + " (" +
                          (bt.array < 0 ? std::string("not an array: 1 element") : bt.count == total ? std::to_string(total) + " elements" : std::to_string(bt.count) + " elements from that pointer on") + ")");
    }
    Expr e;
    e.kind = ExprKind::Binary;
    e.op = static_cast<std::uint8_t>(BinOp::Index);
    e.pos = pos;
    e.a = base;
    e.b = index;
    e.c = bt.stars == 1 && bt.strct >= 0 ? static_cast<std::int32_t>(prog_.structs[static_cast<std::size_t>(bt.strct)].fields.size()) : 1;
    e.reg = static_cast<std::uint16_t>(bt.array + 1);
    const std::int32_t r = add_expr(e);
    CType t = bt;
    t.count = ix.kind == ExprKind::Const && bt.count > 0 && ix.value >= 0 ? static_cast<std::uint16_t>(bt.count - ix.value) : std::uint16_t{0};
    set_expr_type(r, t);
    return r;
}

/// `[i]`, `.f` and `->f` after an object (`obj`) or a value (`value` >= 0); on return, `value`
/// is the result if it is a value, else the object returned is.
Parser::Object Parser::designators(Object obj, std::int32_t& value, unsigned depth) {
    for (;;) {
        const SourcePos pos = tok_.pos;
        if (tok_.kind == Tok::LBracket) {
            std::int32_t base = -1;
            std::string what;
            if (value < 0 && obj.whole >= 0) {
                base = obj.addr;
                what = prog_.arrays[static_cast<std::size_t>(obj.whole)].name;
            } else {
                if (value < 0) value = object_value(obj);
                base = value;
                const Expr& b = prog_.exprs[static_cast<std::size_t>(base)];
                what = b.kind == ExprKind::Reg ? proc().regs[b.reg].name : "the value";
            }
            const CType bt = type_of(base);
            if (bt.stars == 0)
                error(pos, "index of '" + what + "', which is not an array nor a pointer (" + type_name(bt) + ")");
            advance();
            const std::int32_t idx = expression(depth + 1);
            expect(Tok::RBracket, "']' to close the index");
            if (bt.array >= 0 && bt.count == prog_.arrays[static_cast<std::size_t>(bt.array)].count) {
                // at the array's start (its name, or its parameter as declared): no negative index
                const Expr& ix = prog_.exprs[static_cast<std::size_t>(idx)];
                const bool neg = ix.kind == ExprKind::Unary && static_cast<UnOp>(ix.op) == UnOp::Neg &&
                                 prog_.exprs[static_cast<std::size_t>(ix.a)].kind == ExprKind::Const &&
                                 prog_.exprs[static_cast<std::size_t>(ix.a)].value > 0;
                if (neg || (ix.kind == ExprKind::Const && ix.value < 0))
                    error(ix.pos, "index " + std::to_string(neg ? -prog_.exprs[static_cast<std::size_t>(ix.a)].value : ix.value) +
                                      " is out of bounds of array '" + prog_.arrays[static_cast<std::size_t>(bt.array)].name + "' (" +
                                      std::to_string(bt.count) + " elements)");
            }
            const std::size_t first = obj.first_access;
            obj = Object{};
            obj.pos = pos;
            obj.addr = index_expr(base, idx, bt, pos, what);
            obj.type = deref(bt);
            obj.first_access = first;
            value = -1;
            continue;
        }
        if (tok_.kind == Tok::Dot || tok_.kind == Tok::Arrow) {
            const bool arrow = tok_.kind == Tok::Arrow;
            std::int32_t base = -1;
            std::int16_t s = -1;
            if (arrow) {
                if (value < 0) value = object_value(obj);
                const CType t = type_of(value);
                if (t.stars != 1 || t.strct < 0)
                    error(pos, "'->' on a value that is not a pointer to a struct (" + type_name(t) + ")" +
                                   (t.stars == 0 && t.strct >= 0 ? "; use '.' on a struct" : ""));
                base = value;
                s = t.strct;
            } else {
                const CType vt = value >= 0 ? type_of(value) : CType{};
                if (value >= 0 || obj.whole >= 0 || obj.type.stars != 0 || obj.type.strct < 0)
                    error(pos, std::string("'.' on something that is not a struct") +
                                   ((value >= 0 ? vt : obj.type).stars == 1 && (value >= 0 ? vt : obj.type).strct >= 0 ? "; use '->' on a pointer" : ""));
                base = obj.addr;
                s = obj.type.strct;
            }
            advance();
            if (tok_.kind != Tok::Ident) unexpected("a field name");
            const StructType& st = prog_.structs[static_cast<std::size_t>(s)];
            std::size_t f = st.fields.size();
            for (std::size_t k = 0; k < st.fields.size(); ++k)
                if (st.fields[k].name == tok_.text) f = k;
            if (f == st.fields.size()) error(tok_.pos, "struct " + st.name + " has no field '" + std::string(tok_.text) + "'");
            Expr e;
            e.kind = ExprKind::Binary;
            e.op = static_cast<std::uint8_t>(BinOp::Field);
            e.pos = pos;
            e.a = base;
            e.b = const_expr(static_cast<Value>(f), pos);
            e.c = s;
            e.reg = static_cast<std::uint16_t>(f);
            const StructType::Field fd = st.fields[f];
            const std::int32_t addr = add_expr(e);
            set_expr_type(addr, CType{fd.points_to, static_cast<std::uint8_t>(fd.stars + 1), -1, 1});
            const std::size_t first = obj.first_access;
            obj = Object{};
            obj.pos = pos;
            obj.addr = addr;
            obj.type = CType{fd.points_to, fd.stars, -1, 0};
            obj.first_access = first;
            value = -1;
            advance();
            continue;
        }
        return obj;
    }
}

/// An object as a value: an array decays to the pointer to its first element; a scalar is read
/// (a plain read, as `*p`).
std::int32_t Parser::object_value(const Object& obj) {
    if (obj.whole >= 0) return obj.addr;
    if (obj.type.stars == 0 && obj.type.strct >= 0)
        error(obj.pos, "a struct is not a value: name one of its fields, or take its address with '&'");
    Access a;
    a.plain = true;
    a.name = "plain read";
    a.pos = obj.pos;
    a.addr = obj.addr;
    Expr e;
    e.kind = ExprKind::Deref;
    e.pos = obj.pos;
    e.a = add_access(std::move(a), obj.first_access);
    return add_expr(e);
}

/// A primary with its designators: `a[r0]`, `p->next`, `n1.val` read plainly; `a` (an array)
/// as a pointer to its first element.
std::int32_t Parser::postfix(unsigned depth) {
    const std::size_t first = prog_.accesses.size();
    Object obj;
    std::int32_t value = -1;
    if (at_global_name()) obj = name_object();
    else value = primary(depth);
    obj.first_access = first;
    obj = designators(obj, value, depth);
    if (tok_.kind == Tok::Unsupported) unsupported_token();
    if (tok_.kind == Tok::LParen) error(tok_.pos, "unsupported: calls through an expression");
    return value >= 0 ? value : object_value(obj);
}

/// A name of the initial state or a primary expression, then its designators (`[i]`, `->f`,
/// `.f`); `value` >= 0 when it denotes a value, not a location.
Parser::Object Parser::designated_object(unsigned depth, std::int32_t& value) {
    Object obj;
    const std::size_t first = prog_.accesses.size();
    if (at_global_name()) obj = name_object();
    else value = primary(depth);
    obj.first_access = first;
    return designators(obj, value, depth);
}

/// The location argument of READ_ONCE() and the like written as C names it: `a[i]`, `p->f`,
/// `n1.f`, `x` (a location of the initial state). `expected`: the message when it is none.
std::int32_t Parser::lvalue_address(unsigned depth, const std::string& expected) {
    const SourcePos pos = tok_.pos;
    const bool designated = (tok_.kind == Tok::Ident &&
                             (peek().kind == Tok::LBracket || peek().kind == Tok::Arrow || peek().kind == Tok::Dot)) ||
                            tok_.kind == Tok::LParen;  // `(p + 1)->next`
    if (!at_global_name() && !designated) unexpected(expected);
    std::int32_t value = -1;
    const Object obj = designated_object(depth, value);
    if (value >= 0) error(pos, "expected " + expected + ", found an expression that is no location");
    if (obj.whole >= 0)
        error(pos, "'" + prog_.arrays[static_cast<std::size_t>(obj.whole)].name + "' is an array: name an element (" +
                       prog_.arrays[static_cast<std::size_t>(obj.whole)].name + "[i])");
    if (obj.type.stars == 0 && obj.type.strct >= 0) error(pos, "a struct is no location: name one of its fields");
    return obj.addr;
}

/// `&a[i]`, `&p->f`, `&n1.f`, `&n1`, `&x`: an address.
std::int32_t Parser::address_of_expr(unsigned depth) {
    const SourcePos amp = tok_.pos;
    advance();
    const bool designated = tok_.kind == Tok::Ident &&
                            (peek().kind == Tok::LBracket || peek().kind == Tok::Arrow || peek().kind == Tok::Dot);
    if (!at_global_name() && !designated)
        error(amp, "unsupported: '&' (address-of) in process code; parameters already point to their locations");
    std::int32_t value = -1;
    const Object obj = designated_object(depth, value);
    if (value >= 0) error(amp, "'&' needs a location: &a[i], &p->f, &s.f or &x");
    return obj.addr;
}

/// `p + i`, `p - i` on a pointer into an array: element arithmetic (BinOp::Index). On any
/// other pointer, herd's `y + r`: a computed location.
std::int32_t Parser::pointer_arith(Expr e) {
    const CType t = type_of(e.a);
    if (t.stars == 0 || t.array < 0) return add_expr(e);
    std::int32_t idx = e.b;
    if (static_cast<BinOp>(e.op) == BinOp::Sub) {
        if (type_of(e.b).stars > 0) return add_expr(e);  // a difference of pointers
        Expr n;
        n.kind = ExprKind::Unary;
        n.op = static_cast<std::uint8_t>(UnOp::Neg);
        n.pos = e.pos;
        n.a = e.b;
        idx = add_expr(n);
    }
    return index_expr(e.a, idx, t, e.pos, prog_.arrays[static_cast<std::size_t>(t.array)].name);
}

/// A statement of structs and arrays: the declaration of a register `struct node *p;`, or a plain
/// store to an element or a field. False if the statement is none.
bool Parser::struct_statement(std::vector<std::int32_t>& out) {
    if (tok_.kind != Tok::Ident) return false;
    if (tok_.text == "struct" && peek().kind == Tok::Ident && find_struct(peek().text) >= 0) {
        declaration(out);
        return true;
    }
    if (peek().kind != Tok::LBracket && peek().kind != Tok::Arrow && peek().kind != Tok::Dot) return false;
    out.push_back(designator_store());
    return true;
}

/// `a[i] = v;`, `p->f = v;`, `n1.f = v;`: a plain store.
std::int32_t Parser::designator_store() {
    const SourcePos pos = tok_.pos;
    const std::size_t first_operand = prog_.accesses.size();
    const std::int32_t addr = lvalue_address(1, "a location");
    if (tok_.kind != Tok::Assign) unexpected("'=' after the location (a plain store, a[i] = v;)");
    return store_value(pos, first_operand, addr);
}

/// An access's address must point to a scalar: `*p`, `READ_ONCE(*p)`, `smp_load_acquire(p)` with
/// `p` a pointer to a struct name no location (its first field is not the struct).
void Parser::check_scalar_target(std::int32_t addr, SourcePos pos) {
    const CType t = deref(type_of(addr));
    if (t.stars == 0 && t.strct >= 0)
        error(pos, "an access to a whole struct " + prog_.structs[static_cast<std::size_t>(t.strct)].name + ": name one of its fields (p->f)");
}

// ---- bit operations ---------------------------------------------------------------------------

/// The word of bit `nr` of the bitmap `addr` points to (BITS_PER_LONG 64: word nr / 64, bit
/// nr % 64). Sets `addr` to the word's address and returns the bit's expression.
std::int32_t Parser::bit_word(std::int32_t& addr, std::int32_t nr, SourcePos pos) {
    const Expr n = prog_.exprs[static_cast<std::size_t>(nr)];
    const CType t = type_of(addr);
    if (n.kind == ExprKind::Const) {
        if (n.value < 0) error(n.pos, "a negative bit number");
        if (n.value >= 64 && t.array < 0 && t.count == 1)
            error(n.pos, "bit " + std::to_string(n.value) + " is beyond the long the bitmap points to, which is no array element "
                                                           "(declare the bitmap as an array: long bits[N])");
        if (n.value >= 64) {
            const std::string what = t.array >= 0 ? prog_.arrays[static_cast<std::size_t>(t.array)].name : "the bitmap";
            addr = index_expr(addr, const_expr(n.value / 64, n.pos), t.stars > 0 ? t : CType{-1, 1, -1, 0}, pos, what);
        }
        return const_expr(n.value % 64, n.pos);
    }
    if (t.array < 0) return nr;  // one long: bits 0 to 62 (checked when it runs)
    if (has_access(prog_, nr)) error(n.pos, "unsupported: a bit number that reads memory; read it into a register first");
    Expr w;
    w.kind = ExprKind::Binary;
    w.op = static_cast<std::uint8_t>(BinOp::Shr);
    w.pos = n.pos;
    w.a = nr;
    w.b = const_expr(6, n.pos);
    addr = index_expr(addr, add_expr(w), t, pos, prog_.arrays[static_cast<std::size_t>(t.array)].name);
    Expr b;
    b.kind = ExprKind::Binary;
    b.op = static_cast<std::uint8_t>(BinOp::BitAnd);
    b.pos = n.pos;
    b.a = nr;
    b.b = const_expr(63, n.pos);
    return add_expr(b);
}

/// set_bit(), clear_bit(), test_and_set_bit(), test_and_clear_bit() on bit `nr` of a bitmap.
void Parser::bit_operands(Access& a) {
    switch (a.prim) {
    case Prim::SetBit: case Prim::ClearBit: case Prim::TestAndSetBit: case Prim::TestAndClearBit: break;
    default: return;
    }
    a.vals[0] = bit_word(a.addr, a.vals[0], a.pos);
}

/// `test_bit(nr, addr)`: LKMM's (and the kernel's generic) `READ_ONCE(addr[BIT_WORD(nr)]) >>
/// (nr % 64) & 1`, an unordered read.
std::int32_t Parser::test_bit_call(unsigned depth) {
    const Token name_tok = tok_;
    advance();
    advance();
    const std::size_t first_operand = prog_.accesses.size();
    const std::int32_t nr = expression(depth + 1);
    expect(Tok::Comma, "',' between the arguments of test_bit()");
    Access a;
    a.prim = Prim::ReadOnce;
    a.name = "test_bit";
    a.pos = name_tok.pos;
    a.addr = expression(depth + 1);
    if (tok_.kind == Tok::Comma) error(tok_.pos, "test_bit() takes 2 arguments, found more");
    expect(Tok::RParen, "')' to close test_bit(");
    if (has_access(prog_, nr)) error(name_tok.pos, "unsupported: a bit number that reads memory; read it into a register first");
    const std::int32_t bit = bit_word(a.addr, nr, a.pos);
    Expr call;
    call.kind = ExprKind::Call;
    call.pos = name_tok.pos;
    call.a = add_access(std::move(a), first_operand);
    Expr sh;
    sh.kind = ExprKind::Binary;
    sh.op = static_cast<std::uint8_t>(BinOp::Shr);
    sh.pos = name_tok.pos;
    sh.a = add_expr(call);
    sh.b = bit;
    Expr one;
    one.kind = ExprKind::Binary;
    one.op = static_cast<std::uint8_t>(BinOp::BitAnd);
    one.pos = name_tok.pos;
    one.a = add_expr(sh);
    one.b = const_expr(1, name_tok.pos);
    return add_expr(one);
}

// ---- what an address may designate (the analysis) ---------------------------------------------

/// The location `addr` designates when it is fixed: a global's address, an unassigned
/// parameter, or a constant index or a field off one of these (checked as the run checks it);
/// else -1.
std::int64_t static_location(const Program& p, unsigned proc, std::int32_t addr) {
    const Expr& e = p.exprs[static_cast<std::size_t>(addr)];
    const std::size_t nl = p.locations.size();
    if (e.kind == ExprKind::Const) return location_at(e.value, nl);
    if (e.kind == ExprKind::Reg) {
        const Register& r = p.processes[proc].regs[e.reg];
        return r.is_param && !r.assigned ? std::int64_t{r.loc} : -1;
    }
    if (e.kind != ExprKind::Binary) return -1;
    const auto op = static_cast<BinOp>(e.op);
    if (op != BinOp::Index && op != BinOp::Field) return -1;
    const Expr& off = p.exprs[static_cast<std::size_t>(e.b)];
    if (off.kind != ExprKind::Const) return -1;
    const std::int64_t bl = static_location(p, proc, e.a);
    if (bl < 0) return -1;
    const Location& l = p.locations[static_cast<std::size_t>(bl)];
    if (op == BinOp::Field) return l.struct_type == e.c ? bl + off.value : -1;
    if (l.array < 0) return off.value == 0 && e.c == 1 && e.reg == 0 ? bl : -1;
    const ArrayInfo& a = p.arrays[static_cast<std::size_t>(l.array)];
    if ((e.reg > 0 && l.array != e.reg - 1) || a.stride != e.c || (bl - a.first) % a.stride != 0) return -1;
    const std::int64_t j = (bl - a.first) / a.stride + off.value;
    return j >= 0 && j < a.count ? a.first + j * a.stride : -1;
}

bool may_designate(const Program& p, std::int32_t addr, std::size_t loc) {
    const Expr& e = p.exprs[static_cast<std::size_t>(addr)];
    const Location& l = p.locations[loc];
    if (e.kind == ExprKind::Const) return location_at(e.value, p.locations.size()) == static_cast<std::int64_t>(loc);
    if (e.kind == ExprKind::Binary && static_cast<BinOp>(e.op) == BinOp::Field) {
        const auto off = static_cast<std::size_t>(e.reg);
        return loc >= off && p.locations[loc - off].struct_type == e.c;
    }
    if (e.kind == ExprKind::Binary && static_cast<BinOp>(e.op) == BinOp::Index) {
        const auto at_element = [&](const ArrayInfo& a) {
            return loc >= a.first && loc < a.first + std::size_t{a.count} * a.stride && (loc - a.first) % a.stride == 0;
        };
        if (e.reg > 0) return at_element(p.arrays[e.reg - 1u]);
        return (l.array >= 0 && at_element(p.arrays[static_cast<std::size_t>(l.array)])) || l.escapes;
    }
    return l.escapes;
}

}  // namespace oc::litmus::detail
