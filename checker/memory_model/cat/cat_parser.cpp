// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_parser.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "checker/memory_model/cat/cat_lexer.hpp"

namespace oc::cat {

namespace {

const std::set<std::string>& keywords() {
    static const std::set<std::string> k{"let", "rec", "and", "in", "include", "acyclic", "irreflexive", "empty",
                                         "flag", "as", "show", "unshow", "enum", "instructions", "with", "from", "try",
                                         "if", "then", "else", "end", "variant", "not", "undefined_unless"};
    return k;
}

class Parser {
public:
    Parser(std::vector<Token> tokens, std::string file, int depth, const Variants& variants)
        : t_(std::move(tokens)), file_(std::move(file)), depth_(depth), variants_(variants) {}

    Model model() {
        Model m;
        // herd's identity: an architecture name, then the model's name or title ("C RC11")
        if (is_name() && (peek(1).kind == Token::Kind::String || (peek(1).kind == Token::Kind::Name &&
                                                                   keywords().count(peek(1).text) == 0))) {
            next();
            m.title = next().text;
        } else if (peek().kind == Token::Kind::String) {
            m.title = next().text;
        }
        while (peek().kind != Token::Kind::End) statement_into(m.statements);
        return m;
    }

private:
    const Token& peek(std::size_t k = 0) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
    const Token& next() {
        const Token& t = t_[i_];
        if (i_ + 1 < t_.size()) ++i_;
        return t;
    }
    bool is_kw(const char* kw, std::size_t k = 0) const {
        return peek(k).kind == Token::Kind::Name && peek(k).text == kw;
    }
    bool is_punct(const char* p, std::size_t k = 0) const {
        return peek(k).kind == Token::Kind::Punct && peek(k).text == p;
    }
    [[noreturn]] void fail(const std::string& expected) const {
        // herd's constructs the front end does not evaluate (docs/cat.md): said so by name
        static const std::set<std::string> unsupported{"procedure", "call", "match", "fun", "forall", "assert"};
        if (peek().kind == Token::Kind::Name && unsupported.count(peek().text))
            throw CatError(peek().pos, "expected " + expected + ", found '" + peek().text +
                                           "', which ordercheck's cat front end does not support");
        throw CatError(peek().pos, "expected " + expected + ", found " + describe(peek()));
    }
    void expect_punct(const char* p) {
        if (!is_punct(p)) fail(std::string("'") + p + "'");
        next();
    }
    void expect_kw(const char* kw) {
        if (!is_kw(kw)) fail(std::string("'") + kw + "'");
        next();
    }
    bool is_name() const { return peek().kind == Token::Kind::Name && keywords().count(peek().text) == 0; }
    std::string name(const char* what) {
        if (!is_name()) fail(what);
        return next().text;
    }

    /// One statement appended to `out`; `if VARIANT ... [else ...] end` appends the statements of
    /// the branch the variants select (both are parsed, so that an error in either is reported).
    void statement_into(std::vector<Stmt>& out) {
        if (!is_kw("if")) {
            out.push_back(statement());
            return;
        }
        next();
        const bool holds = variant_condition();
        std::vector<Stmt> then_part, else_part;
        while (!is_kw("else") && !is_kw("end")) {
            if (peek().kind == Token::Kind::End) fail("'else' or 'end' closing the 'if'");
            statement_into(then_part);
        }
        if (is_kw("else")) {
            next();
            while (!is_kw("end")) {
                if (peek().kind == Token::Kind::End) fail("'end' closing the 'if'");
                statement_into(else_part);
            }
        }
        next();  // end
        for (Stmt& st : holds ? then_part : else_part) out.push_back(std::move(st));
    }

    /// herd's variant conditions: "name", variant "name", not c, c && c, c || c, (c). A variant
    /// holds when the configuration selects it (cat_config.hpp); herd's other conditions (e = e,
    /// e in e) compare values of the execution and are not supported.
    bool variant_condition() {
        bool v = variant_and();
        while (is_punct("||")) {
            next();
            const bool w = variant_and();
            v = v || w;
        }
        return v;
    }
    bool variant_and() {
        bool v = variant_atom();
        while (is_punct("&&")) {
            next();
            const bool w = variant_atom();
            v = v && w;
        }
        return v;
    }
    bool variant_atom() {
        if (is_kw("not")) {
            next();
            return !variant_atom();
        }
        if (is_punct("(")) {
            next();
            const bool v = variant_condition();
            expect_punct(")");
            return v;
        }
        if (is_kw("variant")) next();
        if (peek().kind != Token::Kind::String)
            fail("a variant name in quotes (herd's other conditions are not supported)");
        return variants_.count(next().text) != 0;
    }

    Stmt statement() {
        Stmt s{};
        s.pos = peek().pos;
        if (is_kw("let")) {
            next();
            s.kind = Stmt::Kind::Let;
            s.rec = is_kw("rec");
            if (s.rec) next();
            s.bindings = bindings();
            if (is_kw("in")) fail("a statement (a top-level let has no 'in')");
            return s;
        }
        if (is_kw("include")) {
            next();
            if (peek().kind != Token::Kind::String) fail("a file name in quotes after 'include'");
            const Token& f = next();
            s.kind = Stmt::Kind::Include;
            s.name = f.text;
            include(s, f.pos);
            return s;
        }
        if (is_kw("flag") || is_kw("undefined_unless") || is_punct("~") || is_kw("acyclic") || is_kw("irreflexive") ||
            is_kw("empty")) {
            s.kind = Stmt::Kind::Check;
            if (is_kw("flag")) {
                next();
                s.flag = true;
            } else if (is_kw("undefined_unless")) {
                // herd: an execution where the check fails has undefined behaviour (rc11.cat's
                // data races): a flag that fires when the check fails
                next();
                s.flag = s.undefined = true;
                s.negated = true;
            }
            if (is_punct("~")) {
                next();
                s.negated = !s.negated;
            }
            if (is_kw("acyclic")) s.test = Stmt::Test::Acyclic;
            else if (is_kw("irreflexive")) s.test = Stmt::Test::Irreflexive;
            else if (is_kw("empty")) s.test = Stmt::Test::Empty;
            else fail("'acyclic', 'irreflexive' or 'empty'");
            next();
            const std::size_t from = i_;
            s.expr = expr();
            if (is_kw("as")) {
                next();
                s.name = name("a name after 'as'");
            } else {
                for (std::size_t k = from; k < i_; ++k) s.name += (k > from ? " " : "") + t_[k].text;
            }
            return s;
        }
        if (is_kw("with")) {
            next();
            s.kind = Stmt::Kind::With;
            s.name = name("a name after 'with'");
            s.sym = symbol(s.name);
            expect_kw("from");
            s.expr = expr();
            return s;
        }
        if (is_kw("enum")) {
            next();
            s.kind = Stmt::Kind::Enum;
            s.name = name("the enum's name");
            expect_punct("=");
            for (;;) {
                if (peek().kind != Token::Kind::Tag) fail("a tag ('name)");
                s.tags.push_back(next().text);
                if (!is_punct("||")) break;
                next();
            }
            return s;
        }
        if (is_kw("instructions")) {
            next();
            s.kind = Stmt::Kind::Ignored;
            name("an event set after 'instructions'");
            expect_punct("[");
            expr();
            expect_punct("]");
            return s;
        }
        if (is_kw("show") || is_kw("unshow")) {
            next();
            s.kind = Stmt::Kind::Ignored;
            for (;;) {
                expr();
                if (is_kw("as")) {
                    next();
                    name("a name after 'as'");
                }
                if (!is_punct(",")) break;
                next();
            }
            return s;
        }
        fail("a statement (let, include, acyclic, irreflexive, empty, flag, with, enum, instructions, show)");
    }

    void include(Stmt& s, const Pos& pos) {
        if (intrinsic_include(s.name)) {
            s.intrinsic = true;
            return;
        }
        if (depth_ > 16) throw CatError(pos, "expected at most 16 nested includes, found more (an include cycle?)");
        const std::filesystem::path path = std::filesystem::path(file_).parent_path() / s.name;
        const std::optional<std::string> text = read_model_file(path.string());
        if (!text) throw CatError(pos, "expected a readable file \"" + path.string() + "\", found none");
        Parser inner(lex(*text, path.string()), path.string(), depth_ + 1, variants_);
        s.included = inner.model().statements;
    }

    /// name [params] = e (and name [params] = e)*
    std::vector<Binding> bindings() {
        std::vector<Binding> out;
        for (;;) {
            Binding b;
            b.pos = peek().pos;
            b.name = name("a name after 'let'");
            if (is_punct("(")) {
                next();
                b.tuple_params = true;
                if (!is_punct(")"))
                    for (;;) {
                        b.params.push_back(name("a parameter name"));
                        if (!is_punct(",")) break;
                        next();
                    }
                expect_punct(")");
                if (b.params.size() == 1) b.tuple_params = false;
                if (b.params.empty()) fail("a parameter name");
            } else if (is_name()) {
                b.params.push_back(next().text);
            }
            expect_punct("=");
            b.sym = symbol(b.name);
            for (const std::string& prm : b.params) b.param_syms.push_back(symbol(prm));
            b.body = expr();
            out.push_back(std::move(b));
            if (!is_kw("and")) break;
            next();
        }
        return out;
    }

    static ExprPtr make(Expr::Op op, const Pos& pos, std::vector<ExprPtr> args = {}) {
        return make_expr(op, pos, std::move(args));
    }

    // precedence, loosest first: | ++ ; \ & * (cartesian), postfix, ~, application
    ExprPtr expr() {
        ExprPtr l = add();
        while (is_punct("|")) {
            const Pos p = next().pos;
            l = make(Expr::Op::Union, p, {l, add()});
        }
        return l;
    }
    ExprPtr add() {
        ExprPtr l = seq();
        if (is_punct("++")) {
            const Pos p = next().pos;
            return make(Expr::Op::Add, p, {l, add()});
        }
        return l;
    }
    ExprPtr seq() {
        ExprPtr l = diff();
        while (is_punct(";")) {
            const Pos p = next().pos;
            l = make(Expr::Op::Seq, p, {l, diff()});
        }
        return l;
    }
    ExprPtr diff() {
        ExprPtr l = inter();
        while (is_punct("\\")) {
            const Pos p = next().pos;
            l = make(Expr::Op::Diff, p, {l, inter()});
        }
        return l;
    }
    ExprPtr inter() {
        ExprPtr l = cartesian();
        while (is_punct("&")) {
            const Pos p = next().pos;
            l = make(Expr::Op::Inter, p, {l, cartesian()});
        }
        return l;
    }
    /// Can the token at k begin an expression? (`r*` is a closure unless an operand follows)
    bool starts_expr(std::size_t k) const {
        const Token& t = peek(k);
        if (t.kind == Token::Kind::Name) return keywords().count(t.text) == 0;
        if (t.kind == Token::Kind::Tag || t.kind == Token::Kind::Number) return true;
        return t.kind == Token::Kind::Punct && (t.text == "(" || t.text == "[" || t.text == "{" || t.text == "~");
    }
    ExprPtr cartesian() {
        ExprPtr l = postfix();
        while (is_punct("*") && starts_expr(1)) {
            const Pos p = next().pos;
            l = make(Expr::Op::Cartesian, p, {l, postfix()});
        }
        return l;
    }
    ExprPtr postfix() {
        ExprPtr e = prefix();
        for (;;) {
            const Pos p = peek().pos;
            if (is_punct("*") && !starts_expr(1)) e = make(Expr::Op::Star, p, {e});
            else if (is_punct("^*")) e = make(Expr::Op::Star, p, {e});
            else if (is_punct("+") || is_punct("^+")) e = make(Expr::Op::Plus, p, {e});
            else if (is_punct("?")) e = make(Expr::Op::Opt, p, {e});
            else if (is_punct("^-1")) e = make(Expr::Op::Inverse, p, {e});
            else break;
            next();
        }
        return e;
    }
    ExprPtr prefix() {
        if (is_punct("~")) {
            const Pos p = next().pos;
            return make(Expr::Op::Complement, p, {prefix()});
        }
        ExprPtr e = primary();
        // application: f(x), f x, map f S
        while ((e->op == Expr::Op::Var || e->op == Expr::Op::App) && (is_name() || is_punct("(") || is_punct("{"))) {
            const Pos p = peek().pos;
            e = make(Expr::Op::App, p, {e, primary()});
        }
        return e;
    }
    ExprPtr primary() {
        const Token& t = peek();
        const Pos p = t.pos;
        if (t.kind == Token::Kind::Number) {
            if (t.text != "0") fail("'0' (the empty relation): no other number is a cat expression");
            next();
            return make(Expr::Op::Empty, p);
        }
        if (t.kind == Token::Kind::Tag) {
            auto e = std::make_shared<Expr>();
            e->op = Expr::Op::Tag;
            e->pos = p;
            e->name = next().text;
            return e;
        }
        if (is_kw("let")) {
            next();
            auto e = std::make_shared<Expr>();
            e->op = Expr::Op::Let;
            e->pos = p;
            e->rec = is_kw("rec");
            if (e->rec) next();
            e->bindings = bindings();
            expect_kw("in");
            e->args = {expr()};
            return e;
        }
        if (is_kw("try")) {
            next();
            ExprPtr a = expr();
            expect_kw("with");
            return make(Expr::Op::Try, p, {a, expr()});
        }
        if (is_kw("if")) {  // if VARIANT then e else e: the branch the variants select
            next();
            const bool holds = variant_condition();
            expect_kw("then");
            ExprPtr yes = expr();
            expect_kw("else");
            ExprPtr no = expr();
            return holds ? yes : no;
        }
        if (is_name()) {
            auto e = std::make_shared<Expr>();
            e->op = next().text == "_" ? Expr::Op::Universe : Expr::Op::Var;
            e->pos = p;
            e->name = t.text;
            e->sym = symbol(e->name);
            return e;
        }
        if (is_punct("(")) {
            next();
            std::vector<ExprPtr> items{expr()};
            while (is_punct(",")) {
                next();
                items.push_back(expr());
            }
            expect_punct(")");
            return items.size() == 1 ? items[0] : make(Expr::Op::Tuple, p, std::move(items));
        }
        if (is_punct("[")) {
            next();
            ExprPtr s = expr();
            expect_punct("]");
            return make(Expr::Op::Identity, p, {s});
        }
        if (is_punct("{")) {
            next();
            std::vector<ExprPtr> items;
            if (!is_punct("}"))
                for (;;) {
                    items.push_back(expr());
                    if (!is_punct(",")) break;
                    next();
                }
            expect_punct("}");
            return make(Expr::Op::SetLit, p, std::move(items));
        }
        fail("an expression");
    }

    std::vector<Token> t_;
    std::size_t i_ = 0;
    std::string file_;
    int depth_;
    const Variants& variants_;
};

}  // namespace

std::uint32_t symbol(const std::string& name) {
    // a name's number never changes: each thread keeps those it asked for, and the shared table
    // (behind its lock) is asked once per name and thread (an evaluation binds every built-in set)
    thread_local std::unordered_map<std::string, std::uint32_t> known;
    if (const auto it = known.find(name); it != known.end()) return it->second;
    static std::mutex m;
    static std::unordered_map<std::string, std::uint32_t> table;
    std::uint32_t sym;
    {
        const std::lock_guard<std::mutex> lock(m);
        sym = table.emplace(name, static_cast<std::uint32_t>(table.size() + 1)).first->second;
    }
    known.emplace(name, sym);
    return sym;
}

bool intrinsic_include(const std::string& name) {
    return name == "cross.cat" || name == "cos-opt.cat" || name == "cos.cat" || name == "stdlib.cat";
}

Model parse(const std::string& source, const std::string& file, const Variants& variants) {
    return Parser(lex(source, file), file, 0, variants).model();
}

std::optional<std::string> read_model_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;  // missing, a folder, a device
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) return std::nullopt;
    return text;
}

Model load(const std::string& path, const Variants& variants) {
    const std::optional<std::string> text = read_model_file(path);
    if (!text) throw CatError(Pos{path, 1, 1}, "expected a readable cat file, found none");
    return parse(*text, path, variants);
}

}  // namespace oc::cat
