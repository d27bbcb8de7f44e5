// SPDX-License-Identifier: MIT
#include "litmus/lexer.hpp"

namespace oc::litmus {

namespace {
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
}  // namespace

Lexer::Lexer(std::string_view source, std::string file) : src_(source), file_(std::move(file)) {}

void Lexer::error(SourcePos pos, const std::string& message) const { throw LitmusError(file_, pos, message); }

void Lexer::bump(std::size_t n) {
    for (std::size_t k = 0; k < n && i_ < src_.size(); ++k, ++i_) {
        if (src_[i_] == '\n') {
            ++line_;
            col_ = 1;
        } else {
            ++col_;
        }
    }
}

void Lexer::skip_blanks_and_comments(bool ocaml_comments) {
    for (;;) {
        while (is_blank(peek())) bump();
        const SourcePos start = here();
        if (peek() == '/' && peek(1) == '/') {
            const std::size_t from = i_ + 2;
            while (peek() != '\n' && peek() != '\0') bump();
            comments_.push_back(Comment{src_.substr(from, i_ - from), start});
            continue;
        }
        if (peek() == '/' && peek(1) == '*') {
            bump(2);
            const std::size_t from = i_;
            while (!(peek() == '*' && peek(1) == '/')) {
                if (i_ >= src_.size()) error(start, "unterminated comment: expected '*/' to close the '/*' here");
                bump();
            }
            comments_.push_back(Comment{src_.substr(from, i_ - from), start});
            bump(2);
            continue;
        }
        if (ocaml_comments && peek() == '(' && peek(1) == '*') {
            // OCaml comments nest, as in herd.
            bump(2);
            const std::size_t from = i_;
            unsigned depth = 1;
            std::size_t to = i_;
            while (depth > 0) {
                if (i_ >= src_.size()) error(start, "unterminated comment: expected '*)' to close the '(*' here");
                if (peek() == '(' && peek(1) == '*') {
                    ++depth;
                    bump(2);
                } else if (peek() == '*' && peek(1) == ')') {
                    --depth;
                    to = i_;
                    bump(2);
                } else {
                    bump();
                }
            }
            comments_.push_back(Comment{src_.substr(from, to - from), start});
            continue;
        }
        return;
    }
}

Token Lexer::number() {
    Token t;
    t.kind = Tok::Int;
    t.pos = here();
    const std::size_t from = i_;
    std::uint64_t v = 0;
    const auto too_big = [&] {
        error(t.pos, "unsupported: integer constant out of range (constants must stay below 2^32 in magnitude)");
    };
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
        bump(2);
        bool any = false;
        for (;;) {
            const char c = peek();
            unsigned d = 0;
            if (is_digit(c)) d = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
            else break;
            any = true;
            v = v * 16 + d;
            if (v >= static_cast<std::uint64_t>(address_limit)) too_big();
            bump();
        }
        if (!any) error(t.pos, "expected hexadecimal digits after '0x'");
    } else {
        if (peek() == '0' && is_digit(peek(1)))
            error(t.pos, "unsupported: octal constant (a leading 0); write the value in decimal");
        while (is_digit(peek())) {
            v = v * 10 + static_cast<unsigned>(peek() - '0');
            if (v >= static_cast<std::uint64_t>(address_limit)) too_big();
            bump();
        }
    }
    while (peek() == 'u' || peek() == 'U' || peek() == 'l' || peek() == 'L') bump();  // C suffixes
    if (is_ident_char(peek())) error(here(), "expected an operator or ';' after the number, found '" + std::string(1, peek()) + "'");
    t.value = static_cast<Value>(v);
    t.text = src_.substr(from, i_ - from);
    return t;
}

Token Lexer::raw_word() {
    while (peek() == ' ' || peek() == '\t') bump();
    Token t;
    t.pos = here();
    const std::size_t from = i_;
    while (!is_blank(peek()) && peek() != '\0') bump();
    t.kind = i_ > from ? Tok::Ident : Tok::End;
    t.text = src_.substr(from, i_ - from);
    return t;
}

bool Lexer::metadata(MetaItem& out) {
    skip_blanks_and_comments(true);
    out = MetaItem{};
    out.pos = here();
    if (peek() == '"') {
        // herd reads the doc string as '"' [^'"']* '"': it may span lines.
        bump();
        const std::size_t from = i_;
        while (i_ < src_.size() && src_[i_] != '"') bump();
        if (i_ >= src_.size()) error(out.pos, "unterminated doc string: expected '\"' to close the '\"' here");
        out.doc = true;
        out.value = src_.substr(from, i_ - from);
        bump();
        while (peek() == ' ' || peek() == '\t') bump();
        if (peek() == ';') bump();  // herd allows a ';' after the doc string
        return true;
    }
    // herd's key: a letter, then letters, digits, '_', '/', '.' or '-'; then blanks and '='.
    if (!is_ident_start(peek())) return false;
    std::size_t j = i_;
    while (j < src_.size() && (is_ident_char(src_[j]) || src_[j] == '/' || src_[j] == '.' || src_[j] == '-')) ++j;
    std::size_t k = j;
    while (k < src_.size() && (src_[k] == ' ' || src_[k] == '\t')) ++k;
    if (k >= src_.size() || src_[k] != '=') return false;
    out.key = src_.substr(i_, j - i_);
    bump(k + 1 - i_);
    while (peek() == ' ' || peek() == '\t') bump();
    const std::size_t from = i_;
    while (i_ < src_.size() && src_[i_] != '\n') bump();
    std::size_t to = i_;
    while (to > from && (src_[to - 1] == ' ' || src_[to - 1] == '\t' || src_[to - 1] == '\r')) --to;
    out.value = src_.substr(from, to - from);
    return true;
}

Token Lexer::next(bool ocaml_comments) {
    skip_blanks_and_comments(ocaml_comments);
    Token t;
    t.pos = here();
    const std::size_t from = i_;
    const char c = peek();
    if (c == '\0') {
        if (i_ < src_.size()) error(t.pos, "unexpected NUL character");
        t.kind = Tok::End;
        return t;
    }
    if (is_ident_start(c)) {
        while (is_ident_char(peek())) bump();
        t.kind = Tok::Ident;
        t.text = src_.substr(from, i_ - from);
        return t;
    }
    if (is_digit(c)) return number();
    if (c == '"') {
        bump();
        while (peek() != '"') {
            if (peek() == '\0' || peek() == '\n') error(t.pos, "unterminated string: expected '\"'");
            bump();
        }
        bump();
        t.kind = Tok::String;
        t.text = src_.substr(from, i_ - from);
        return t;
    }
    struct Punct {
        const char* text;
        Tok kind;
    };
    // Longest first.
    static constexpr Punct puncts[] = {
        {"<<=", Tok::Unsupported}, {">>=", Tok::Unsupported},
        {"/\\", Tok::And}, {"\\/", Tok::Or}, {"=>", Tok::Implies},
        {"&&", Tok::AmpAmp}, {"||", Tok::PipePipe}, {"==", Tok::EqEq}, {"!=", Tok::Ne}, {"<=", Tok::Le},
        {">=", Tok::Ge}, {"<<", Tok::Shl}, {">>", Tok::Shr},
        {"++", Tok::Unsupported}, {"--", Tok::Unsupported}, {"->", Tok::Arrow}, {"+=", Tok::Unsupported},
        {"-=", Tok::Unsupported}, {"*=", Tok::Unsupported}, {"/=", Tok::Unsupported}, {"%=", Tok::Unsupported},
        {"&=", Tok::Unsupported}, {"|=", Tok::Unsupported}, {"^=", Tok::Unsupported},
        {"{", Tok::LBrace}, {"}", Tok::RBrace}, {"(", Tok::LParen}, {")", Tok::RParen}, {"[", Tok::LBracket},
        {"]", Tok::RBracket}, {";", Tok::Semi}, {",", Tok::Comma}, {":", Tok::Colon}, {"?", Tok::Question},
        {"*", Tok::Star}, {"&", Tok::Amp}, {"|", Tok::Pipe}, {"^", Tok::Caret}, {"~", Tok::Tilde},
        {"!", Tok::Bang}, {"=", Tok::Assign}, {"<", Tok::Lt}, {">", Tok::Gt}, {"+", Tok::Plus},
        {"-", Tok::Minus}, {"/", Tok::Slash}, {"%", Tok::Percent},
        {".", Tok::Dot}, {"#", Tok::Unsupported}, {"'", Tok::Unsupported}, {"\\", Tok::Unsupported},
    };
    for (const Punct& p : puncts) {
        const std::string_view s(p.text);
        if (src_.substr(i_, s.size()) == s) {
            bump(s.size());
            t.kind = p.kind;
            t.text = src_.substr(from, s.size());
            return t;
        }
    }
    // Any other byte (including non-ASCII): one unsupported token, reported by the parser.
    bump();
    t.kind = Tok::Unsupported;
    t.text = src_.substr(from, 1);
    return t;
}

std::string describe(const Token& t) {
    switch (t.kind) {
    case Tok::End: return "end of file";
    case Tok::String: return "a string";
    default: break;
    }
    std::string out = "'";
    for (char c : t.text) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
            out += hex[static_cast<unsigned char>(c) & 0xf];
        } else {
            out += c;
        }
    }
    return out + "'";
}

}  // namespace oc::litmus
