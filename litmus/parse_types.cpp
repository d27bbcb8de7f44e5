// SPDX-License-Identifier: MIT
// Structs and arrays in C litmus tests (docs/litmus.md, "Structs and arrays"), declared: struct
// definitions and array and struct variables in the initial state, each element and field a
// location of its own; element and field designators in initial values and in the final
// condition; and the static types that say what a pointer points to. In code they are parsed by
// parse_designators.cpp. Also the declarations of registers in code (`int r0, *r1 = x;`).
#include <string>

#include "litmus/parser_internal.hpp"

namespace oc::litmus::detail {

namespace {

/// Struct types per test: each instance's fields are locations, so a handful is plenty.
constexpr std::size_t max_structs = 16;
constexpr std::size_t max_fields = 16;

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

/// The kernel's own structures, known without a definition (type_words_here()).
static bool is_kernel_struct(std::string_view tag) {
    return tag == "srcu_struct" || tag == "mutex" || tag == "static_key_false" || tag == "static_key_true" || tag == "static_key";
}

/// `struct T {` with T not yet defined (nor one of the kernel's): a definition, or an unknown struct.
bool Parser::at_struct_definition() {
    if (!is_word("struct")) return false;
    const Token& tag = peek();
    return tag.kind == Tok::Ident && !is_kernel_struct(tag.text) && find_struct(tag.text) < 0;
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
    set_reg_ctype(r, t);
}

/// A register declared `struct node *p` (`stars` pointers to what type_words_here() read).
void Parser::set_reg_type(std::uint16_t r, unsigned stars) {
    set_reg_ctype(r, CType{stars > 0 ? last_struct_ : std::int16_t{-1}, static_cast<std::uint8_t>(stars), -1, 0});
}

/// Types are kept per process index with the register's name and declaration, so a type set in
/// the dry run of a helper function's definition (a process of its own, dropped after) is never
/// taken for the register of the same index of the process parsed next.
void Parser::set_reg_ctype(std::uint16_t r, CType t) {
    if (reg_types_.size() < prog_.processes.size()) reg_types_.resize(prog_.processes.size());
    auto& v = reg_types_[prog_.processes.size() - 1];
    if (v.size() <= r) v.resize(static_cast<std::size_t>(r) + 1);
    const Register& reg = proc().regs[r];
    v[r] = RegType{t, reg.full_name, reg.declared};
}

Parser::CType Parser::reg_type(std::size_t r) const {
    if (reg_types_.size() < prog_.processes.size()) return {};
    const auto& v = reg_types_[prog_.processes.size() - 1];
    if (r >= v.size()) return {};
    const Register& reg = prog_.processes.back().regs[r];
    const RegType& rt = v[r];
    return rt.name == reg.full_name && rt.pos.line == reg.declared.line && rt.pos.column == reg.declared.column ? rt.t : CType{};
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

// ---- declarations in code ----------------------------------------------------------------------

/// `int r0, *r1 = x; struct node *p;` in a process or function body: registers, some assigned.
void Parser::declaration(std::vector<std::int32_t>& out) {
    const SourcePos tpos = tok_.pos;
    bool typed = false;
    const LocType t = type_words_here(typed);
    for (;;) {
        const unsigned stars = stars_here();
        if (last_struct_ >= 0 && stars == 0)
            error(tpos, "unsupported: a local struct (shared structs are declared in the initial state; a register may be a pointer, struct T *p)");
        if (t != LocType::Int && stars == 0)
            error(tpos, std::string("unsupported: a local ") +
                            (t == LocType::Lock        ? "spinlock_t"
                             : t == LocType::Srcu      ? "struct srcu_struct"
                             : t == LocType::Mutex     ? "struct mutex"
                             : t == LocType::StaticKey ? "static key"
                                                       : "atomic_t") +
                            " (shared locations are parameters)");
        if (tok_.kind != Tok::Ident || is_type_word(tok_.text)) unexpected("a register name in the declaration");
        const std::uint16_t r = add_reg(tok_.text, tok_.pos);
        set_reg_type(r, stars);
        const SourcePos pos = tok_.pos;
        advance();
        if (tok_.kind == Tok::LBracket) error(tok_.pos, "unsupported: a local array (shared arrays are declared in the initial state)");
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

}  // namespace oc::litmus::detail
