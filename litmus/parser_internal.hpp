// SPDX-License-Identifier: MIT
// The parser's internals, shared by its files and the analysis: the Parser class, a hand-written
// recursive descent over the lexer's tokens (its token helpers are here; parser.cpp holds the
// header line, the initial state and the processes, parse_code.cpp the process bodies,
// parse_condition.cpp the final condition and the annotations), and the entry to the analysis
// (analysis.cpp). Internal to litmus/; like the rest of litmus_parse_lib, it needs nothing but
// the standard library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/ast.hpp"
#include "litmus/def_table.hpp"
#include "litmus/lexer.hpp"

namespace oc::litmus::detail {

/// "line:column", for messages that point at a second place.
std::string pos_text(SourcePos p);

/// True for the words that may form a type in declarations and parameters (parser.cpp).
bool is_type_word(std::string_view w);

/// What the declarations and parameters seen so far say of a location's type.
struct TypeInfo {
    LocType type = LocType::Int;
    bool any = false;
    SourcePos pos;
};

/// Parses one test into a Program (run()), without the analysis; throws LitmusError.
class Parser {
public:
    Parser(std::string_view src, const std::string& file, const MacroTable* macros = nullptr)
        : lex_(src, file), macros_(macros) {
        prog_.file = file;
    }
    Program run();

private:
    // ---- tokens ----
    void advance() {
        if (has_peek_) {
            tok_ = peek_;
            has_peek_ = false;
        } else {
            tok_ = next_token();
        }
    }
    const Token& peek() {
        if (!has_peek_) {
            peek_ = next_token();
            has_peek_ = true;
        }
        return peek_;
    }
    /// The next token: from the lexer, or from the body of the function being inlined.
    Token next_token() {
        if (replay_.empty()) return lex_.next(ocaml_);
        Replay& r = replay_.back();
        const Token& t = (*r.tokens)[r.next];
        if (r.next + 1 < r.tokens->size()) ++r.next;  // the last token is the End sentinel
        return t;
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

    // ---- header (parser.cpp) ----
    void header();
    void metadata();

    // ---- locations (parser.cpp) ----
    int find_location(std::string_view name) const;
    int add_location(std::string_view name, SourcePos pos);
    int location_or_new(std::string_view name, SourcePos pos);
    void type_location(int loc, LocType t, SourcePos pos);
    LocType type_words_here(bool& any);
    unsigned stars_here();
    bool key_true_ = false;  ///< the last static key type words were struct static_key_true

    // ---- init block (parser.cpp) ----
    struct RegInit {
        unsigned proc;
        std::string reg;
        Value value;
        SourcePos pos;
    };
    void register_init(bool typed);
    void init_block();
    Value init_value(bool& is_address);
    void init_item();
    void end_init_item();
    void apply_register_inits();

    // ---- processes (parser.cpp) ----
    Process& proc();
    int find_reg(std::string_view name) const;
    std::uint16_t add_reg(std::string_view name, SourcePos pos);
    void process();
    void parameter();

    // ---- helper functions (parse_function.cpp) ----
    /// A helper function defined before the processes, inlined at each call (docs/litmus.md,
    /// "Functions"): its body is kept as tokens and parsed again at every call, in a scope of
    /// its own (its parameters and locals are fresh registers of the calling process).
    struct Function {
        struct Param {
            std::string name;
            bool pointer = false;
            SourcePos pos;
        };
        std::string name;
        SourcePos pos;
        bool value = false;     ///< returns a value (not void)
        bool defined = false;   ///< its body was seen (else only a prototype)
        bool defining = false;  ///< its body is being checked: a call to it now is a recursion
        std::vector<Param> params;
        std::vector<bool> param_assigned;  ///< the body assigns the parameter (a call then copies the argument)
        std::vector<Token> body;           ///< '{' ... '}' and an End sentinel
    };
    struct Replay {
        const std::vector<Token>* tokens = nullptr;
        std::size_t next = 0;
    };
    /// The function whose body is being parsed: its names, and its result register.
    struct Frame {
        const Function* f = nullptr;
        std::vector<std::pair<std::string, std::uint16_t>> names;
        std::int32_t ret_reg = -1;
        unsigned id = 0;
    };
    bool at_function_definition() const;
    void function_definition();
    Function* find_function(std::string_view name) const;
    std::uint16_t new_reg(std::string name, SourcePos pos);
    std::int32_t inline_call(Function& f, bool allow_void, unsigned depth);
    std::int32_t expand_body(const Function& f, const std::vector<std::int32_t>& param_regs, std::int32_t ret_reg, SourcePos call);

    // ---- statements (parse_code.cpp) ----
    std::int32_t add_stmt(Stmt s);
    std::int32_t add_expr(Expr e);
    std::int32_t block_body(unsigned depth);
    void statement(unsigned depth, std::vector<std::int32_t>& out);  // parse_function.cpp
    void statement_here(unsigned depth, std::vector<std::int32_t>& out);
    void return_statement(std::vector<std::int32_t>& out);                // parse_function.cpp
    void no_call_in(std::size_t pending_before, const char* where) const;  // parse_function.cpp
    std::int32_t pending_block(std::size_t pending_before, std::int32_t last);  // parse_function.cpp
    void check_register_room(SourcePos pos) const;                           // parse_function.cpp
    int implicit_reg(std::string_view w, SourcePos pos);             // parser.cpp
    std::vector<Register>::iterator undeclared_reg(std::size_t proc, std::string_view name, SourcePos pos);  // parser.cpp
    bool initialised_in_state(std::string_view w) const;             // parser.cpp
    std::string unknown_identifier(std::string_view w) const;        // parser.cpp
    std::int32_t plain_store();
    std::int32_t store_value(SourcePos pos, std::size_t first_operand, std::int32_t addr);
    std::int32_t if_statement(unsigned depth);
    std::int32_t branch(unsigned depth);
    std::int32_t loop_statement(unsigned depth);
    std::int32_t for_step();
    std::int32_t loop_condition();
    std::int32_t loop_body(unsigned depth, const char* keyword);
    static bool is_cond_load(std::string_view w);
    std::int32_t cond_load(std::uint16_t r);
    void declaration(std::vector<std::int32_t>& out);

    // ---- expressions (parse_code.cpp) ----
    std::int32_t add_access(Access a, std::size_t first_operand);
    void check_depth(unsigned depth) const;
    std::int32_t expression(unsigned depth);

    struct BinInfo {
        Tok tok;
        BinOp op;
        int prec;
    };
    static const BinInfo* bin_info(Tok t);
    std::int32_t binary(int min_prec, unsigned depth);
    std::int32_t unary(unsigned depth);
    std::int32_t postfix(unsigned depth);
    std::int32_t primary(unsigned depth);
    std::int32_t call(bool allow_void, unsigned depth);
    std::int32_t register_ref(std::string_view prim, std::int32_t& out);

    // ---- structs and arrays (parse_types.cpp; docs/litmus.md, "Structs and arrays") ----
public:
    /// A type as far as addresses go: `stars` pointers to a scalar (strct < 0) or to struct
    /// `strct` (stars 0: the object itself). `array`: a pointer into that array of
    /// Program::arrays (its `+` moves over elements), `count` elements from it on (0: unknown).
    struct CType {
        std::int16_t strct = -1;
        std::uint8_t stars = 0;
        std::int16_t array = -1;
        std::uint16_t count = 0;
    };
    /// What a pointer of type `t` points to (an int for a non-pointer).
    static CType deref(CType t) {
        if (t.stars == 0) return {};
        --t.stars;
        t.array = -1;
        t.count = 0;
        return t;
    }
    /// An array or a struct variable of the initial state: its locations from `first`.
    struct Aggregate {
        std::string name;
        std::uint16_t first = 0;
        std::int16_t array = -1;  ///< Program::arrays, or -1 for a struct variable
        std::int16_t strct = -1;  ///< the struct type of the variable or of the elements, or -1
    };
    /// An object designated in code: the expression of its address and its type (an array:
    /// `whole` >= 0, the array of Program::arrays the name designates).
    struct Object {
        std::int32_t addr = -1;
        CType type;
        std::int16_t whole = -1;
        SourcePos pos;
        std::size_t first_access = 0;  ///< the accesses its index expressions made start here
    };

private:
    int find_struct(std::string_view name) const;
    int find_aggregate(std::string_view name) const;
    bool at_struct_definition();
    void struct_definition();
    bool aggregate_declaration(LocType t, unsigned stars, const std::string& name, SourcePos pos, SourcePos type_pos);
    void aggregate_initialiser(const Aggregate& ag, std::size_t count);
    void field_initialisers(std::size_t strct, std::size_t first, bool braces);
    Value aggregate_address(int ag);
    void pointer_location(int loc, unsigned stars);
    void parameter_type(std::uint16_t r, int ag, int loc, unsigned stars, SourcePos pos);
    void set_reg_type(std::uint16_t r, unsigned stars);
    void set_reg_ctype(std::uint16_t r, CType t);
    CType type_of(std::int32_t e) const;
    void set_expr_type(std::int32_t e, CType t);
    CType reg_type(std::size_t r) const;
    std::string type_name(CType t) const;
    bool at_global_name();
    Object name_object();
    std::int32_t const_expr(Value v, SourcePos pos);
    std::int32_t index_expr(std::int32_t base, std::int32_t index, CType base_type, SourcePos pos, const std::string& what);
    Object designators(Object obj, std::int32_t& value, unsigned depth);
    Object designated_object(unsigned depth, std::int32_t& value);
    std::int32_t object_value(const Object& obj);
    std::int32_t lvalue_address(unsigned depth, const std::string& expected);
    std::int32_t address_of_expr(unsigned depth);
    std::int32_t pointer_arith(Expr e);
    std::int32_t designator_store();
    bool struct_statement(std::vector<std::int32_t>& out);
    void check_scalar_target(std::int32_t addr, SourcePos pos);
    std::int32_t test_bit_call(unsigned depth);
    std::int32_t bit_word(std::int32_t& addr, std::int32_t nr, SourcePos pos);
    void bit_operands(Access& a);
    int condition_location(bool address);

    // ---- condition (parse_condition.cpp) ----
    void condition();
    void collect_observed(std::int32_t prop, std::vector<Operand>& out, unsigned depth) const;
    std::int32_t add_prop(Prop p);
    void check_prop_depth(unsigned depth) const;
    std::int32_t prop_implies(unsigned depth);
    std::int32_t prop_or(unsigned depth);
    std::int32_t prop_and(unsigned depth);
    std::int32_t prop_unary(unsigned depth);
    Operand lhs_operand(bool in_locations = false);
    Operand rhs_operand();

    // ---- annotations (parse_condition.cpp) ----
    void annotations();
    void annotation_line(std::string_view l, std::uint32_t line, std::uint32_t col0);

    Lexer lex_;
    const MacroTable* macros_ = nullptr;  ///< the configuration's linux-kernel.def, if any
    Program prog_;
    Token tok_, peek_;
    bool has_peek_ = false;
    bool ocaml_ = true;
    unsigned stmt_accesses_ = 0;
    unsigned accesses_in_process_ = 0;
    int val_reg_ = -1;  ///< in the condition of smp_cond_load_acquire(): the register VAL names
    unsigned loop_depth_ = 0;  ///< loops enclosing the statement parsed (break and continue need one)
    std::vector<TypeInfo> types_;
    // structs and arrays (parse_types.cpp)
    std::int16_t last_struct_ = -1;  ///< the struct tag type_words_here() read (-1: none)
    std::vector<Aggregate> aggregates_;
    std::vector<CType> loc_types_;   ///< per location: what a pointer stored in it points to
    struct RegType {
        CType t;
        std::string name;  ///< the register's full name and declaration, when the type was set
        SourcePos pos;
    };
    std::vector<std::vector<RegType>> reg_types_;  ///< per process, per register
    std::vector<CType> expr_types_;  ///< per expression, where typing set one (else derived)
    std::vector<bool> expr_typed_;
    std::vector<bool> declared_;
    std::vector<RegInit> reg_inits_;
    std::vector<unsigned> expr_depth_, prop_depth_;
    // helper functions
    std::vector<std::unique_ptr<Function>> functions_;
    std::vector<Replay> replay_;
    std::vector<Frame> frames_;
    /// Statements the statement being parsed needs before it: the argument bindings and the
    /// inlined bodies of the function calls in its expressions.
    std::vector<std::int32_t> pending_;
    unsigned stmt_depth_ = 0;    ///< the nesting of the statement being parsed
    unsigned loop_base_ = 0;     ///< loop_depth_ at the start of the function being inlined (break and continue stay in it)
    unsigned returns_ = 0;       ///< return statements parsed in the function being inlined
    unsigned cond_operand_ = 0;  ///< inside an operand of &&, || or ?: that runs only under a condition
    unsigned inline_id_ = 0;
    bool dry_ = false;           ///< checking a function's body at its definition (nothing is kept)
};

/// The analysis after parsing (analysis.cpp): fills the analysis fields of `p` (Location::plain,
/// escapes, sections; Access::target, dep_head, section, srcu_lock; Program::computes_addresses)
/// and throws LitmusError for what the engine cannot check.
void analyse(Program& p);

/// Whether the address expression `addr` (an access's) may designate location `loc`, when the
/// access has no fixed target: an element or field computed by Index/Field reaches only the
/// locations of its kind (parse_types.cpp); any other address reaches every escaping location.
bool may_designate(const Program& p, std::int32_t addr, std::size_t loc);

/// The location an access's address always designates, or -1: a global named in code, an
/// unassigned parameter, or a constant index or a field off one of these (parse_types.cpp).
std::int64_t static_location(const Program& p, unsigned proc, std::int32_t addr);

}  // namespace oc::litmus::detail
