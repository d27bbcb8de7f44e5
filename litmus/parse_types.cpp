// SPDX-License-Identifier: MIT
// Structs and arrays in C litmus tests (docs/litmus.md, "Structs and arrays"): struct
// definitions and array and struct variables in the initial state, each element and field a
// location of its own; the static types that say what a pointer points to; element and field
// designators in code (`a[i]`, `p->f`, `s.f`, `&...`, `a + i` on an array), in initial values and
// in the final condition; and the bit operations on arrays of longs (`test_bit(70, bits)`).
// Addresses computed here are BinOp::Index and BinOp::Field expressions, checked when they run
// (interpreter_eval.cpp).
#include <string>

#include "litmus/parser_internal.hpp"

namespace oc::litmus::detail {

namespace {

/// Struct types per test: each instance's fields are locations, so a handful is plenty.
constexpr std::size_t max_structs = 16;
constexpr std::size_t max_fields = 16;

Parser::CType deref(Parser::CType t) {
    if (t.stars == 0) return {};
    --t.stars;
    t.array = -1;
    t.count = 0;
    return t;
}

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

int Parser::find_struct(std::string_view name) const {
    for (std::size_t i = 0; i < prog_.structs.size(); ++i)
        if (prog_.structs[i].name == name) return static_cast<int>(i);
    return -1;
}

int Parser::find_aggregate(std::string_view name) const {
    for (std::size_t i = 0; i < aggregates_.size(); ++i)
        if (aggregates_[i].name == name) return static_cast<int>(i);
    return -1;
}

// ---- the initial state ------------------------------------------------------------------------

/// `struct T {` with T not yet defined (nor srcu_struct): a definition, or an unknown struct.
bool Parser::at_struct_definition() {
    if (!is_word("struct")) return false;
    const Token& tag = peek();
    return tag.kind == Tok::Ident && tag.text != "srcu_struct" && find_struct(tag.text) < 0;
}

/// `struct T { int a; long b; struct T *next; atomic_t c; };` in the initial state.
void Parser::struct_definition() {
    const SourcePos pos = tok_.pos;
    advance();
    const std::string name(tok_.text);
    const SourcePos npos = tok_.pos;
    advance();
    if (tok_.kind != Tok::LBrace)
        error(npos, "unknown struct '" + name + "' (define it in the initial state before its use: struct " + name + " { int f; ... };)");
    if (prog_.structs.size() >= max_structs) error(pos, "unsupported: more than " + std::to_string(max_structs) + " struct types");
    prog_.structs.push_back(StructType{name, pos, {}});
    const auto id = static_cast<std::int16_t>(prog_.structs.size() - 1);
    advance();
    while (tok_.kind != Tok::RBrace) {
        if (tok_.kind == Tok::End) unexpected("'}' to close struct " + name);
        const SourcePos tpos = tok_.pos;
        bool any = false;
        const LocType t = type_words_here(any);
        const std::int16_t tag = last_struct_;
        if (!any) unexpected("a field type (int, long, atomic_t, struct T *...) in struct " + name);
        for (;;) {
            unsigned stars = 0;
            while (tok_.kind == Tok::Star) {
                ++stars;
                advance();
            }
            if (tok_.kind != Tok::Ident || is_type_word(tok_.text)) unexpected("a field name in struct " + name);
            std::vector<StructType::Field>& fields = prog_.structs[static_cast<std::size_t>(id)].fields;
            for (const auto& f : fields)
                if (f.name == tok_.text) error(tok_.pos, "field '" + f.name + "' is declared twice in struct " + name);
            if (stars == 0 && tag >= 0) error(tpos, "unsupported: a field that is itself a struct (use a pointer, struct T *f)");
            if (stars == 0 && (t == LocType::Lock || t == LocType::Srcu))
                error(tpos, "unsupported: a spinlock_t or struct srcu_struct field");
            if (fields.size() >= max_fields) error(tok_.pos, "unsupported: more than " + std::to_string(max_fields) + " fields in a struct");
            fields.push_back(StructType::Field{std::string(tok_.text), stars > 0 ? tag : std::int16_t{-1},
                                               static_cast<std::uint8_t>(stars), stars > 0 ? LocType::Int : t});
            advance();
            if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: an array field (fields are scalars and pointers)");
            if (tok_.kind != Tok::Comma) break;
            advance();
        }
        expect(Tok::Semi, "';' after the field");
    }
    if (prog_.structs[static_cast<std::size_t>(id)].fields.empty()) error(pos, "struct " + name + " has no fields");
    advance();
}

/// After the declarator's name: `[N]` makes an array, a struct type without '*' a struct
/// variable; each element or field becomes a location (`a[0]`, `n1.val`, `ns[1].next`). Returns
/// false for a plain location.
bool Parser::aggregate_declaration(LocType t, unsigned stars, const std::string& name, SourcePos pos, SourcePos type_pos) {
    const std::int16_t strct = stars == 0 ? last_struct_ : std::int16_t{-1};
    const bool is_array = tok_.kind == Tok::LBracket;
    if (!is_array && strct < 0) return false;
    if (find_aggregate(name) >= 0) error(pos, "'" + name + "' is declared twice");
    if (const int l = find_location(name); l >= 0)
        error(pos, "'" + name + "' is used at " + pos_text(prog_.locations[static_cast<std::size_t>(l)].declared) +
                       " before its declaration as " + (is_array ? "an array" : "a struct") + " (declare it first)");
    if (is_array && stars == 0 && (t == LocType::Lock || t == LocType::Srcu))
        error(type_pos, "unsupported: an array of spinlock_t or struct srcu_struct");
    std::size_t count = 1;
    if (is_array) {
        advance();
        if (tok_.kind != Tok::Int) unexpected("the size of array '" + name + "' (a number)");
        if (tok_.value <= 0 || tok_.value > static_cast<Value>(max_test_locations))
            error(tok_.pos, "the size of array '" + name + "' must be 1 to " + std::to_string(max_test_locations));
        count = static_cast<std::size_t>(tok_.value);
        advance();
        expect(Tok::RBracket, "']' after the size of array '" + name + "'");
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: arrays of arrays");
    }
    const std::size_t stride = strct >= 0 ? prog_.structs[static_cast<std::size_t>(strct)].fields.size() : 1;
    const std::size_t need = count * stride;
    if (prog_.locations.size() + need > max_test_locations)
        error(pos, "unsupported: '" + name + "' needs " + std::to_string(need) + " locations (one per element and field), and a test has at most " +
                       std::to_string(max_test_locations) + " (" + std::to_string(prog_.locations.size()) + " used before it)");
    Aggregate ag;
    ag.name = name;
    ag.first = static_cast<std::uint16_t>(prog_.locations.size());
    ag.strct = strct;
    if (is_array) {
        prog_.arrays.push_back(ArrayInfo{name, ag.first, static_cast<std::uint16_t>(count), static_cast<std::uint16_t>(stride)});
        ag.array = static_cast<std::int16_t>(prog_.arrays.size() - 1);
    }
    aggregates_.push_back(ag);
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t f = 0; f < stride; ++f) {
            std::string element = is_array ? name + "[" + std::to_string(i) + "]" : name;
            const StructType::Field* field = strct >= 0 ? &prog_.structs[static_cast<std::size_t>(strct)].fields[f] : nullptr;
            const int loc = add_location(field != nullptr ? element + "." + field->name : element, pos);
            Location& l = prog_.locations[static_cast<std::size_t>(loc)];
            l.escapes = true;  // reached by computed addresses
            l.array = ag.array;
            if (f == 0 && strct >= 0) l.struct_type = strct;
            if (f == 0 && (i == 0 || strct >= 0)) l.address_name = i == 0 ? name : element;
            if (declared_.size() <= static_cast<std::size_t>(loc)) declared_.resize(static_cast<std::size_t>(loc) + 1, false);
            declared_[static_cast<std::size_t>(loc)] = true;
            if (field != nullptr) {
                type_location(loc, field->type, type_pos);
                loc_types_[static_cast<std::size_t>(loc)] = CType{field->points_to, field->stars, -1, 0};
            } else {
                type_location(loc, stars > 0 ? LocType::Int : t, type_pos);
                loc_types_[static_cast<std::size_t>(loc)] = CType{-1, static_cast<std::uint8_t>(stars), -1, 0};
            }
        }
    if (tok_.kind == Tok::Assign) {
        advance();
        aggregate_initialiser(aggregates_.back(), count);
    }
    return true;
}

/// `= {1, 2}` for an array, `= {1, &n2}` or `= {.val = 1, .next = &n2}` for a struct,
/// `= {{1, &n2}, {2, NULL}}` for an array of structs. What is left out starts at 0.
void Parser::aggregate_initialiser(const Aggregate& ag, std::size_t count) {
    if (ag.array < 0) {
        field_initialisers(static_cast<std::size_t>(ag.strct), ag.first, true);
        return;
    }
    const std::size_t stride = prog_.arrays[static_cast<std::size_t>(ag.array)].stride;
    expect(Tok::LBrace, "'{' to open the initialiser of array '" + ag.name + "'");
    std::size_t i = 0;
    while (tok_.kind != Tok::RBrace) {
        if (i >= count)
            error(tok_.pos, "too many initialisers for array '" + ag.name + "' (" + std::to_string(count) + " elements)");
        const std::size_t first = ag.first + i * stride;
        if (ag.strct >= 0) {
            field_initialisers(static_cast<std::size_t>(ag.strct), first, true);
        } else {
            bool addr = false;
            prog_.locations[first].init = init_value(addr);
        }
        ++i;
        if (tok_.kind == Tok::Comma) {
            advance();
            continue;
        }
        if (tok_.kind != Tok::RBrace) unexpected("',' or '}' in the initialiser of array '" + ag.name + "'");
    }
    advance();
}

void Parser::field_initialisers(std::size_t strct, std::size_t first, bool) {
    const std::string sname = prog_.structs[strct].name;
    const std::size_t nf = prog_.structs[strct].fields.size();
    expect(Tok::LBrace, "'{' to open the initialiser of a struct " + sname);
    std::size_t next = 0;
    while (tok_.kind != Tok::RBrace) {
        std::size_t f = next;
        if (tok_.kind == Tok::Dot) {
            advance();
            if (tok_.kind != Tok::Ident) unexpected("a field name after '.'");
            f = nf;
            for (std::size_t k = 0; k < nf; ++k)
                if (prog_.structs[strct].fields[k].name == tok_.text) f = k;
            if (f == nf) error(tok_.pos, "struct " + sname + " has no field '" + std::string(tok_.text) + "'");
            advance();
            expect(Tok::Assign, "'=' after the field name");
        }
        if (f >= nf) error(tok_.pos, "too many initialisers for struct " + sname + " (" + std::to_string(nf) + " fields)");
        bool addr = false;
        prog_.locations[first + f].init = init_value(addr);
        next = f + 1;
        if (tok_.kind == Tok::Comma) {
            advance();
            continue;
        }
        if (tok_.kind != Tok::RBrace) unexpected("',' or '}' in the initialiser of a struct " + sname);
    }
    advance();
}

/// A plain location declared with a pointer type (`struct node *top`, `int *p`): what it points to.
void Parser::pointer_location(int loc, unsigned stars) {
    loc_types_[static_cast<std::size_t>(loc)] = CType{stars > 0 ? last_struct_ : std::int16_t{-1}, static_cast<std::uint8_t>(stars), -1, 0};
}

/// An array or a struct variable named as a value: a pointer to its first element or field;
/// or, for `a[1]`, `n1.next`, `ns[0].val`, that location. In the initial state (`&a[1]`,
/// `n1`) and the condition (`a[1]=2`; `0:r1=n2`): the location, or -1 if the name is no array
/// nor struct. `address`: a whole array or struct may be named (its first location).
int Parser::condition_location(bool address) {
    const SourcePos pos = tok_.pos;
    std::string name(tok_.text);
    const int agi = find_aggregate(name);
    if (agi < 0) {
        const Token& next = peek();
        if (next.kind == Tok::LBracket || next.kind == Tok::Dot)
            error(next.pos, "'" + name + "' is not an array nor a struct" + (find_location(name) >= 0 ? "" : " of the initial state"));
        return -1;
    }
    advance();
    const Aggregate ag = aggregates_[static_cast<std::size_t>(agi)];
    std::size_t loc = ag.first;
    bool at_array = ag.array >= 0;
    std::int16_t strct = at_array ? std::int16_t{-1} : ag.strct;
    for (;;) {
        if (tok_.kind == Tok::LBracket) {
            if (!at_array) error(tok_.pos, "'" + name + "' is not an array");
            advance();
            if (tok_.kind != Tok::Int) unexpected("a constant index");
            const ArrayInfo& a = prog_.arrays[static_cast<std::size_t>(ag.array)];
            if (tok_.value < 0 || tok_.value >= a.count)
                error(tok_.pos, "index " + std::to_string(tok_.value) + " is out of bounds of array '" + a.name + "' (" +
                                    std::to_string(a.count) + " elements)");
            loc = a.first + static_cast<std::size_t>(tok_.value) * a.stride;
            name += "[" + std::to_string(tok_.value) + "]";
            advance();
            expect(Tok::RBracket, "']' after the index");
            at_array = false;
            strct = ag.strct;
            continue;
        }
        if (tok_.kind == Tok::Dot) {
            if (at_array || strct < 0) error(tok_.pos, "'" + name + "' is not a struct");
            advance();
            if (tok_.kind != Tok::Ident) unexpected("a field name after '.'");
            const StructType& st = prog_.structs[static_cast<std::size_t>(strct)];
            std::size_t f = st.fields.size();
            for (std::size_t k = 0; k < st.fields.size(); ++k)
                if (st.fields[k].name == tok_.text) f = k;
            if (f == st.fields.size()) error(tok_.pos, "struct " + st.name + " has no field '" + std::string(tok_.text) + "'");
            loc += f;
            name += "." + st.fields[f].name;
            advance();
            strct = -1;
            continue;
        }
        break;
    }
    if (!address && (at_array || strct >= 0))
        error(pos, "'" + name + "' is " + (at_array ? "an array: name an element (" + name + "[0])" : "a struct: name a field (" + name + "." +
                                                         prog_.structs[static_cast<std::size_t>(strct)].fields[0].name + ")"));
    return static_cast<int>(loc);
}

// ---- types ------------------------------------------------------------------------------------

/// A parameter's type: for an array, a pointer to its first element; for a struct variable, a
/// pointer to it; else what the declaration says (`struct node **top`), or, written without a
/// struct (`int **top`), what the location's own declaration says it holds.
void Parser::parameter_type(std::uint16_t r, int ag, int loc, unsigned stars, SourcePos pos) {
    const std::string& name = proc().regs[r].name;
    CType t{stars > 0 ? last_struct_ : std::int16_t{-1}, static_cast<std::uint8_t>(stars), -1, 0};
    if (ag >= 0) {
        const Aggregate& a = aggregates_[static_cast<std::size_t>(ag)];
        const std::string want = a.strct >= 0 ? "struct " + prog_.structs[static_cast<std::size_t>(a.strct)].name + " *" : "int *";
        if (stars != 1 || (last_struct_ >= 0 && last_struct_ != a.strct) || (a.strct >= 0 && last_struct_ < 0))
            error(pos, "parameter '" + name + "' points to " + (a.array >= 0 ? "the first element of array '" : "struct '") + name +
                           "': declare it " + want + name);
        t = CType{a.strct, 1, a.array, a.array >= 0 ? prog_.arrays[static_cast<std::size_t>(a.array)].count : std::uint16_t{1}};
    } else {
        const CType held = loc_types_[static_cast<std::size_t>(loc)];
        if (last_struct_ < 0 && held.stars > 0 && stars == static_cast<unsigned>(held.stars) + 1) t = CType{held.strct, static_cast<std::uint8_t>(held.stars + 1), -1, 0};
        else if (held.strct >= 0 && last_struct_ >= 0 && (held.strct != last_struct_ || stars != static_cast<unsigned>(held.stars) + 1))
            error(pos, "parameter '" + name + "' does not match the declaration of location '" + name + "' (" + type_name(held) + ")");
        if (t.stars == 1) t.count = 1;  // a scalar is an array of one
    }
    set_reg_type(r, 0);
    reg_types_[prog_.processes.size() - 1][r] = t;
}

/// A register declared `struct node *p` (`stars` pointers to what type_words_here() read).
void Parser::set_reg_type(std::uint16_t r, unsigned stars) {
    if (reg_types_.size() < prog_.processes.size()) reg_types_.resize(prog_.processes.size());
    auto& v = reg_types_[prog_.processes.size() - 1];
    if (v.size() <= r) v.resize(static_cast<std::size_t>(r) + 1);
    v[r] = CType{stars > 0 ? last_struct_ : std::int16_t{-1}, static_cast<std::uint8_t>(stars), -1, 0};
}

Parser::CType Parser::reg_type(std::size_t r) const {
    if (reg_types_.size() < prog_.processes.size()) return {};
    const auto& v = reg_types_[prog_.processes.size() - 1];
    return r < v.size() ? v[r] : CType{};
}

void Parser::set_expr_type(std::int32_t e, CType t) {
    const auto i = static_cast<std::size_t>(e);
    if (expr_types_.size() <= i) {
        expr_types_.resize(i + 1);
        expr_typed_.resize(i + 1, false);
    }
    expr_types_[i] = t;
    expr_typed_[i] = true;
}

/// The static type of expression `e`'s value: what typing recorded, else what its registers,
/// loads and arithmetic say (an untyped value is an int).
Parser::CType Parser::type_of(std::int32_t e) const {
    if (e < 0) return {};
    const auto i = static_cast<std::size_t>(e);
    if (i < expr_typed_.size() && expr_typed_[i]) return expr_types_[i];
    const Expr& x = prog_.exprs[i];
    switch (x.kind) {
    case ExprKind::Reg: return reg_type(x.reg);
    case ExprKind::Ternary: return type_of(x.b);
    case ExprKind::Binary:
        if (static_cast<BinOp>(x.op) == BinOp::Add || static_cast<BinOp>(x.op) == BinOp::Sub) {
            CType t = type_of(x.a);
            t.count = 0;
            return t.stars > 0 ? t : CType{};
        }
        return {};
    case ExprKind::Deref: return deref(type_of(prog_.accesses[static_cast<std::size_t>(x.a)].addr));
    case ExprKind::Call: {
        const Access& a = prog_.accesses[static_cast<std::size_t>(x.a)];
        switch (a.prim) {
        case Prim::ReadOnce: case Prim::LoadAcquire: case Prim::RcuDereference: case Prim::Xchg: case Prim::Cmpxchg:
            return a.name == "test_bit" ? CType{} : deref(type_of(a.addr));
        default: return {};
        }
    }
    default: return {};
    }
}

std::string Parser::type_name(CType t) const {
    std::string s = t.strct >= 0 ? "struct " + prog_.structs[static_cast<std::size_t>(t.strct)].name : std::string("int");
    if (t.stars > 0) s += " " + std::string(t.stars, '*');
    return s;
}

// ---- designators in code ----------------------------------------------------------------------

/// A name that is no register here but an array, a struct or a location of the initial state:
/// kernel code names its globals.
bool Parser::at_global_name() const {
    if (tok_.kind != Tok::Ident) return false;
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

/// The location argument of READ_ONCE() and the like written as C names it: `a[i]`, `p->f`,
/// `n1.f`, `x` (a location of the initial state). `expected`: the message when it is none.
std::int32_t Parser::lvalue_address(unsigned depth, const std::string& expected) {
    const SourcePos pos = tok_.pos;
    const bool designated = tok_.kind == Tok::Ident &&
                            (peek().kind == Tok::LBracket || peek().kind == Tok::Arrow || peek().kind == Tok::Dot);
    if (!at_global_name() && !designated) unexpected(expected);
    Object obj;
    std::int32_t value = -1;
    const std::size_t first = prog_.accesses.size();
    if (at_global_name()) obj = name_object();
    else value = primary(depth);
    obj.first_access = first;
    obj = designators(obj, value, depth);
    if (value >= 0) unexpected(expected);
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
    Object obj;
    std::int32_t value = -1;
    const std::size_t first = prog_.accesses.size();
    if (at_global_name()) obj = name_object();
    else value = primary(depth);
    obj.first_access = first;
    obj = designators(obj, value, depth);
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

/// `a[i] = v;`, `p->f = v;`, `n1.f = v;`: a plain store.
std::int32_t Parser::designator_store() {
    const SourcePos pos = tok_.pos;
    const std::size_t first_operand = prog_.accesses.size();
    const std::int32_t addr = lvalue_address(1, "a location");
    if (tok_.kind != Tok::Assign) unexpected("'=' after the location (a plain store, a[i] = v;)");
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
