// SPDX-License-Identifier: MIT
// herd's cat language, as the Linux-kernel memory model's files (linux-kernel.bell,
// linux-kernel.cat, lock.cat) use it: the syntax tree the parser (cat_parser.hpp) builds and the
// evaluator (cat_eval.hpp) walks; cat_eval.hpp says how herd's enumerated choices are handled.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace oc::cat {

/// A position in a cat file (1-based).
struct Pos {
    std::string file;
    unsigned line = 1;
    unsigned column = 1;
};

/// A positioned error: "FILE:LINE:COL: error: MESSAGE", as the litmus front end reports them.
class CatError : public std::runtime_error {
public:
    CatError(const Pos& pos, const std::string& message)
        : std::runtime_error(pos.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
                             ": error: " + message),
          pos_(pos) {}
    const Pos& pos() const { return pos_; }

private:
    Pos pos_;
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// A name's number, the same for every occurrence of the name in every model (the parser
/// numbers names so that the evaluator compares numbers, not strings). Never 0.
std::uint32_t symbol(const std::string& name);

/// One `name = e`, `name(x, y) = e` or `name x = e` of a let.
struct Binding {
    std::string name;
    std::uint32_t sym = 0;            ///< symbol(name)
    std::vector<std::string> params;  ///< empty: a value; else a function of these parameters
    std::vector<std::uint32_t> param_syms;
    bool tuple_params = false;        ///< `f(x, y)`: one tuple argument
    ExprPtr body;
    Pos pos;
};

struct Expr {
    enum class Op {
        Var,         ///< name
        Empty,       ///< 0 (the empty set or relation)
        Universe,    ///< _ (every event)
        Tag,         ///< 'name
        Union, Inter, Diff, Seq, Cartesian, Add,  ///< | & \ ; * ++ (args[0], args[1])
        Star, Plus, Opt, Inverse, Complement,     ///< r* r+ r? r^-1 ~r
        Identity,    ///< [S]
        App,         ///< args[0] applied to args[1]
        Tuple,       ///< (a, b, ...)
        SetLit,      ///< {a, b, ...}
        Try,         ///< try args[0] with args[1]
        Let,         ///< let [rec] bindings in args[0]
    };
    Op op;
    Pos pos;
    std::string name;             ///< Var, Tag
    std::uint32_t sym = 0;        ///< Var: symbol(name)
    std::vector<ExprPtr> args;
    std::vector<Binding> bindings;  ///< Let
    bool rec = false;               ///< Let
};

/// A new expression node of `op` at `pos` over `args`.
inline ExprPtr make_expr(Expr::Op op, const Pos& pos, std::vector<ExprPtr> args = {}) {
    auto e = std::make_shared<Expr>();
    e->op = op;
    e->pos = pos;
    e->args = std::move(args);
    return e;
}

/// One statement of a cat or bell file.
struct Stmt {
    enum class Kind {
        Let,          ///< let [rec] bindings
        Check,        ///< [flag] [~]acyclic|irreflexive|empty e [as name]
        With,         ///< with name from e
        Include,      ///< include "file" (resolved: `included` holds its statements)
        Enum,         ///< enum Name = 'a || 'b: the tags the graph's events carry
        Ignored,      ///< show, unshow, instructions: no effect on the judgement
    };
    enum class Test { Acyclic, Irreflexive, Empty };
    Kind kind;
    Pos pos;
    std::vector<Binding> bindings;  ///< Let
    bool rec = false;               ///< Let
    Test test = Test::Acyclic;      ///< Check
    bool flag = false;              ///< Check: a flag, not an axiom
    bool negated = false;           ///< Check: ~ (an undefined_unless check is a negated flag)
    bool undefined = false;         ///< Check: herd's undefined_unless (a flag: undefined behaviour)
    std::string name;               ///< Check: the `as` name (else the expression's text); With: the bound name; Include: the file
    std::uint32_t sym = 0;          ///< With: symbol(name)
    ExprPtr expr;                   ///< Check, With
    std::vector<std::string> tags;  ///< Enum
    /// Include: the included file's statements; `intrinsic` when it is one of herd's library
    /// files the evaluator provides itself (cat_eval.cpp).
    std::vector<Stmt> included;
    bool intrinsic = false;
};

/// How the graph's events appear to a model (cat_builtins.hpp): the spelling of each tag the
/// model's enums declare, and the LKMM version herd's semantics follow.
struct Dialect {
    /// ordercheck's tag name ("once", "mb": lkmm::names()) -> the name the model declares it by
    /// ("ONCE", "MB" in the newest linux-kernel.bell); the set of a tag is its name capitalised.
    std::map<std::string, std::string> spelling;
    /// herd's variant lkmmv2: an RMW's events carry its own tag (MB on both parts of a fully
    /// ordered one, which then has no fences around it) and a void RMW's are NORETURN; lkmmv1
    /// (the default) has fences around a fully ordered RMW and tags its events once.
    bool lkmmv2 = false;
};

struct Program;

/// A parsed model: its title and statements, includes resolved.
struct Model {
    std::string title;
    std::vector<Stmt> statements;
    Dialect dialect;  ///< set by CatModel from the enums and the variants
    /// Its compiled form (cat_compile.hpp; prepare() in cat_eval.hpp), for this dialect; without
    /// one the evaluator evaluates every expression.
    std::shared_ptr<const Program> program;
};

}  // namespace oc::cat
