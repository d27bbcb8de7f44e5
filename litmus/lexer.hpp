// SPDX-License-Identifier: MIT
// The tokenizer of C litmus files: C tokens plus the condition's `/\`, `\/` and `=>`, three
// comment forms, and positions (line, column) for every token. OCaml comments `(* *)` are
// recognised only where the parser says so: inside a process body `READ_ONCE(*x)` starts with
// `(*` too.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "litmus/ast.hpp"

namespace oc::litmus {

enum class Tok : std::uint8_t {
    End, Ident, Int, String,
    LBrace, RBrace, LParen, RParen, LBracket, RBracket, Semi, Comma, Colon, Question,
    Star, Amp, AmpAmp, Pipe, PipePipe, Caret, Tilde, Bang, Assign, EqEq, Ne, Lt, Le, Gt, Ge, Shl, Shr,
    Plus, Minus, Slash, Percent,
    Arrow,    ///< `->`
    Dot,      ///< `.`
    And,      ///< `/\`
    Or,       ///< `\/`
    Implies,  ///< `=>`
    Unsupported,  ///< `++`, `+=`, `#`, a character literal...: the text says which
};

struct Token {
    Tok kind = Tok::End;
    std::string_view text;
    Value value = 0;  ///< Int
    SourcePos pos;
};

/// One item of herd's metadata between the test name line and the initial state: the quoted
/// doc string, or a `key=value` line (diy7's `Cycle=...`, `Relax=...`, `Generator=...`).
struct MetaItem {
    bool doc = false;        ///< the doc string (its text in `value`, without the quotes)
    std::string_view key;    ///< for `key=value`
    std::string_view value;  ///< the rest of the line after '=' (blanks trimmed), or the doc string
    SourcePos pos;
};

/// A comment and where it started (the annotations live in comments).
struct Comment {
    std::string_view text;  ///< without the delimiters
    SourcePos pos;
};

class Lexer {
public:
    Lexer(std::string_view source, std::string file);

    /// The next token. `ocaml_comments`: whether `(*` opens a comment here.
    Token next(bool ocaml_comments);
    /// The rest of the current line after the current position, as one raw chunk up to the
    /// first blank (the test name after `C`); skips blanks before it.
    Token raw_word();
    /// The next metadata item after blanks and comments; false, having consumed only blanks and
    /// comments, when what follows is neither a doc string nor `key=value`.
    bool metadata(MetaItem& out);
    const std::vector<Comment>& comments() const { return comments_; }
    const std::string& file() const { return file_; }
    [[noreturn]] void error(SourcePos pos, const std::string& message) const;

private:
    char peek(std::size_t ahead = 0) const { return i_ + ahead < src_.size() ? src_[i_ + ahead] : '\0'; }
    void bump(std::size_t n = 1);
    SourcePos here() const { return SourcePos{line_, col_}; }
    void skip_blanks_and_comments(bool ocaml_comments);
    Token number();

    std::string_view src_;
    std::string file_;
    std::size_t i_ = 0;
    std::uint32_t line_ = 1, col_ = 1;
    std::vector<Comment> comments_;
};

/// A token as the user wrote it, for messages: `'foo'`, `end of file`.
std::string describe(const Token& t);

}  // namespace oc::litmus
