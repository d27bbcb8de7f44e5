// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_lexer.hpp"

#include <cctype>

namespace oc::cat {

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.'; }

}  // namespace

std::string describe(const Token& t) {
    switch (t.kind) {
    case Token::Kind::Name: return "the name '" + t.text + "'";
    case Token::Kind::String: return "the string \"" + t.text + "\"";
    case Token::Kind::Tag: return "the tag '" + t.text;
    case Token::Kind::Number: return "the number " + t.text;
    case Token::Kind::Punct: return "'" + t.text + "'";
    case Token::Kind::End: return "the end of the file";
    }
    return "?";
}

std::vector<Token> lex(const std::string& src, const std::string& file) {
    std::vector<Token> out;
    std::size_t i = 0;
    unsigned line = 1, column = 1;
    auto here = [&] { return Pos{file, line, column}; };
    auto advance = [&] {
        if (src[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
        ++i;
    };
    auto at = [&](std::size_t k) { return i + k < src.size() ? src[i + k] : '\0'; };
    while (i < src.size()) {
        const char c = src[i];
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            advance();
            continue;
        }
        const Pos start = here();
        if (c == '(' && at(1) == '*') {
            // (* comments nest *)
            int depth = 0;
            do {
                if (i >= src.size()) throw CatError(start, "unterminated comment: expected '*)' to close the '(*' here");
                if (src[i] == '(' && at(1) == '*') {
                    ++depth;
                    advance();
                } else if (src[i] == '*' && at(1) == ')') {
                    --depth;
                    advance();
                }
                advance();
            } while (depth > 0);
            continue;
        }
        if (c == '/' && at(1) == '/') {
            while (i < src.size() && src[i] != '\n') advance();
            continue;
        }
        if (name_start(c)) {
            std::string text;
            while (i < src.size() && name_char(src[i])) {
                text += src[i];
                advance();
            }
            out.push_back({Token::Kind::Name, text, start});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
            std::string text;
            while (i < src.size() && std::isdigit(static_cast<unsigned char>(src[i])) != 0) {
                text += src[i];
                advance();
            }
            out.push_back({Token::Kind::Number, text, start});
            continue;
        }
        if (c == '\'') {
            advance();
            std::string text;
            while (i < src.size() && name_char(src[i])) {
                text += src[i];
                advance();
            }
            if (text.empty()) throw CatError(start, "expected a tag name after '''");
            out.push_back({Token::Kind::Tag, text, start});
            continue;
        }
        if (c == '"') {
            advance();
            std::string text;
            while (i < src.size() && src[i] != '"' && src[i] != '\n') {
                text += src[i];
                advance();
            }
            if (i >= src.size() || src[i] != '"')
                throw CatError(start, "unterminated string: expected '\"' to close the '\"' here");
            advance();
            out.push_back({Token::Kind::String, text, start});
            continue;
        }
        // punctuation, longest first
        static const char* const puncts[] = {"^-1", "++", "||", "&&", "^+", "^*", "(", ")", "[", "]", "{", "}", ",", "=",
                                             "|",   "&",  "\\", ";",  "*",  "+", "?", "~", "^"};
        bool matched = false;
        for (const char* p : puncts) {
            const std::string s(p);
            if (src.compare(i, s.size(), s) == 0) {
                for (std::size_t k = 0; k < s.size(); ++k) advance();
                out.push_back({Token::Kind::Punct, s, start});
                matched = true;
                break;
            }
        }
        if (!matched) throw CatError(start, std::string("expected a name, an operator or a comment, found '") + c + "'");
    }
    out.push_back({Token::Kind::End, "", here()});
    return out;
}

}  // namespace oc::cat
