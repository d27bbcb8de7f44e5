// SPDX-License-Identifier: MIT
// Tokens of herd's cat language: names may hold '-' and '.' (po-loc, A-cumul), tags are quoted
// ('once), comments are (* nested *) or // to the end of the line.
#pragma once

#include <string>
#include <vector>

#include "checker/memory_model/cat/cat_ast.hpp"

namespace oc::cat {

struct Token {
    enum class Kind { Name, String, Tag, Number, Punct, End };
    Kind kind;
    std::string text;  ///< the name, the string's contents, the tag without its quote, the punctuation
    Pos pos;
};

/// The tokens of `source` (read from `file`), ending with an End token. Throws CatError.
std::vector<Token> lex(const std::string& source, const std::string& file);

/// How an error message shows a token: "'let'", "the name 'po'", "the end of the file".
std::string describe(const Token& t);

}  // namespace oc::cat
