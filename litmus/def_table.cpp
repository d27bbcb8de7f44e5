// SPDX-License-Identifier: MIT
#include "litmus/def_table.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace oc::litmus {

namespace {

struct Tok {
    std::string text;
    SourcePos pos;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// The tokens of a macro table: names, numbers, punctuation and operators; a builtin with its tag
/// (`__load{ONCE}`) is one token, its tag in lower case (`__load{once}`), since the tag may hold
/// '-' (`__fence{before-atomic}`) and its case changed between kernel versions.
std::vector<Tok> lex(std::string_view s, const std::string& file) {
    std::vector<Tok> out;
    std::uint32_t line = 1, col = 1;
    std::size_t i = 0;
    const auto advance = [&] {
        if (s[i] == '\n') ++line, col = 1;
        else ++col;
        ++i;
    };
    while (i < s.size()) {
        const char c = s[i];
        if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            advance();
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
            while (i < s.size() && s[i] != '\n') advance();
            continue;
        }
        if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
            const SourcePos at{line, col};
            advance(), advance();
            while (i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/')) advance();
            if (i >= s.size()) throw LitmusError(file, at, "expected the end of this comment, found the end of the file");
            advance(), advance();
            continue;
        }
        const SourcePos at{line, col};
        std::string text;
        if (ident_start(c)) {
            while (i < s.size() && ident_char(s[i])) text += s[i], advance();
            if (text.rfind("__", 0) == 0 && i < s.size() && s[i] == '{') {  // a builtin's tag
                std::string tag;
                advance();
                while (i < s.size() && s[i] != '}' && s[i] != '\n') tag += s[i], advance();
                if (i >= s.size() || s[i] != '}') throw LitmusError(file, at, "expected '}' closing the tag of " + text);
                advance();
                text += "{" + lower(tag) + "}";
            }
        } else if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
            while (i < s.size() && std::isalnum(static_cast<unsigned char>(s[i])) != 0) text += s[i], advance();
        } else {
            static constexpr std::string_view two[] = {"&~", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>"};
            for (std::string_view t : two)
                if (s.substr(i, 2) == t) text = std::string(t);
            if (text.empty()) {
                if (std::string_view("{}(),;*+-&|^~!<>=").find(c) == std::string_view::npos)
                    throw LitmusError(file, at, std::string("expected a macro definition, found '") + c + "'");
                text = std::string(1, c);
            }
            for (std::size_t k = 0; k < text.size(); ++k) advance();
        }
        out.push_back({std::move(text), at});
    }
    return out;
}

using Seq = std::vector<std::string>;

struct RawMacro {
    std::string name;
    std::vector<std::string> params;
    Seq body;
    SourcePos pos;
};

/// The body of `m` applied to `args`, calls of other macros expanded (at most `depth` deep).
Seq expand(const Seq& body, const std::vector<RawMacro>& raw, const std::map<std::string, std::size_t, std::less<>>& index,
           const std::string& file, const RawMacro& where, unsigned depth);

Seq apply(const RawMacro& m, const std::vector<Seq>& args, const std::vector<RawMacro>& raw,
          const std::map<std::string, std::size_t, std::less<>>& index, const std::string& file, const RawMacro& where,
          unsigned depth) {
    Seq out;
    for (const std::string& t : m.body) {
        bool param = false;
        for (std::size_t k = 0; k < m.params.size(); ++k)
            if (t == m.params[k]) {
                out.insert(out.end(), args[k].begin(), args[k].end());
                param = true;
            }
        if (!param) out.push_back(t);
    }
    return expand(out, raw, index, file, where, depth + 1);
}

Seq expand(const Seq& body, const std::vector<RawMacro>& raw, const std::map<std::string, std::size_t, std::less<>>& index,
           const std::string& file, const RawMacro& where, unsigned depth) {
    if (depth > 16) throw LitmusError(file, where.pos, "expected macros that end, found " + where.name + " expanding forever");
    Seq out;
    for (std::size_t i = 0; i < body.size(); ++i) {
        const auto it = index.find(body[i]);
        if (it == index.end() || i + 1 >= body.size() || body[i + 1] != "(") {
            out.push_back(body[i]);
            continue;
        }
        const RawMacro& m = raw[it->second];
        std::vector<Seq> args(1);
        int nest = 0;
        std::size_t k = i + 2;
        for (; k < body.size(); ++k) {
            if (body[k] == "(") ++nest;
            if (body[k] == ")" && nest-- == 0) break;
            if (body[k] == "," && nest == 0) args.emplace_back();
            else args.back().push_back(body[k]);
        }
        if (args.size() == 1 && args[0].empty()) args.clear();
        if (k >= body.size())
            throw LitmusError(file, where.pos, where.name + ": expected ')' closing the call of " + m.name + ", found none");
        if (args.size() != m.params.size()) {
            const auto count = [](std::size_t c) { return std::to_string(c) + (c == 1 ? " argument" : " arguments"); };
            throw LitmusError(file, where.pos, where.name + ": expected " + count(m.params.size()) + " to " + m.name +
                                                   ", found " + std::to_string(args.size()));
        }
        // the arguments' own macro calls are expanded with the body they are substituted into
        const Seq r = apply(m, args, raw, index, file, where, depth);
        out.insert(out.end(), r.begin(), r.end());
        i = k;
    }
    return out;
}

/// The normal form of a body: block braces dropped, statements joined by one ';', no spaces.
std::string normal(const Seq& s) {
    std::string out;
    for (const std::string& t : s) {
        if (t == "{" || t == "}") continue;
        if (t == ";") {
            if (!out.empty() && out.back() != ';') out += ';';
            continue;
        }
        out += t;
    }
    while (!out.empty() && out.back() == ';') out.pop_back();
    return out;
}

}  // namespace

std::shared_ptr<const MacroTable> MacroTable::parse(std::string_view text, const std::string& file) {
    const std::vector<Tok> toks = lex(text, file);
    std::vector<RawMacro> raw;
    std::map<std::string, std::size_t, std::less<>> index;
    std::size_t i = 0;
    const auto at = [&](std::size_t k) -> const Tok& {
        static const Tok end{"", {}};
        return k < toks.size() ? toks[k] : end;
    };
    while (i < toks.size()) {
        RawMacro m;
        m.pos = toks[i].pos;
        if (!ident_start(toks[i].text[0]) || toks[i].text.rfind("__", 0) == 0)
            throw LitmusError(file, m.pos, "expected a macro name, found '" + toks[i].text + "'");
        m.name = toks[i++].text;
        if (at(i).text != "(") throw LitmusError(file, at(i).pos, "expected '(' after the macro name " + m.name);
        ++i;
        while (at(i).text != ")") {
            if (!m.params.empty()) {
                if (at(i).text != ",") throw LitmusError(file, at(i).pos, "expected ',' or ')' in the parameters of " + m.name);
                ++i;
            }
            if (at(i).text.empty() || !ident_start(at(i).text[0]))
                throw LitmusError(file, at(i).pos, "expected a parameter name of " + m.name + ", found '" + at(i).text + "'");
            m.params.push_back(toks[i++].text);
        }
        ++i;
        // the body: a block `{ ... }`, else the rest of the line
        if (at(i).text == "{") {
            int nest = 0;
            for (; i < toks.size(); ++i) {
                m.body.push_back(toks[i].text);
                if (toks[i].text == "{") ++nest;
                if (toks[i].text == "}" && --nest == 0) break;
            }
            if (i >= toks.size()) throw LitmusError(file, m.pos, "expected '}' closing the body of " + m.name);
            ++i;
        } else {
            const std::uint32_t line = m.pos.line;
            while (i < toks.size() && toks[i].pos.line == line) m.body.push_back(toks[i++].text);
        }
        if (m.body.empty()) throw LitmusError(file, m.pos, "expected the body of " + m.name + ", found the end of the line");
        if (index.count(m.name)) throw LitmusError(file, m.pos, "expected each macro once, found " + m.name + " again");
        index.emplace(m.name, raw.size());
        raw.push_back(std::move(m));
    }
    auto t = std::make_shared<MacroTable>();
    t->file_ = file;
    for (const RawMacro& m : raw) {
        std::vector<Seq> args;
        for (std::size_t k = 0; k < m.params.size(); ++k) args.push_back({"$" + std::to_string(k)});
        Macro out{m.name, m.params, normal(apply(m, args, raw, index, file, m, 0)), m.pos};
        t->index_.emplace(out.name, t->macros_.size());
        t->macros_.push_back(std::move(out));
    }
    return t;
}

std::shared_ptr<const MacroTable> MacroTable::load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LitmusError(path, SourcePos{1, 1}, "expected a readable macro table (.def), found none");
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path);
}

const Macro* MacroTable::find(std::string_view name) const {
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &macros_[it->second];
}

std::optional<MacroUse> MacroTable::resolve(std::string_view name, std::string& why) const {
    const Macro* m = find(name);
    // herd7 7.57 knows atomic_add_unless() itself (its C lexer), whatever the table says; newer
    // tables define it, with the same meaning
    if (m == nullptr && name == "atomic_add_unless") return MacroUse{"atomic_add_unless", false};
    if (m == nullptr) {
        why = "the primitive '" + std::string(name) + "' is not defined by the macro table " + file_ +
              " (herd7 rejects it too with these files)";
        return std::nullopt;
    }
    // its own meaning first, then any primitive with the same one
    for (const OwnMeaning& o : own_meanings())
        if (o.name == name && o.meaning == m->meaning) return MacroUse{o.name, o.srcu_access};
    for (const OwnMeaning& o : own_meanings())
        if (o.meaning == m->meaning) return MacroUse{o.name, o.srcu_access};
    why = "the primitive '" + std::string(name) + "' is defined by " + file_ + ":" + std::to_string(m->pos.line) +
          " as " + m->meaning + ", which ordercheck's engine does not implement (docs/litmus.md, \"The macro table\")";
    return std::nullopt;
}

const std::vector<OwnMeaning>& own_meanings() {
    static const std::vector<OwnMeaning> table = [] {
        std::vector<OwnMeaning> v;
        const auto add = [&](std::string name, std::string meaning, bool srcu = false) {
            v.push_back({std::move(name), std::move(meaning), srcu});
        };
        // name (fully ordered: mb), name_relaxed (once), name_acquire, name_release; `T` in the
        // pattern stands for the tag
        const auto forms = [&](const std::string& name, const std::string& pattern) {
            static constexpr std::pair<const char*, const char*> f[] = {
                {"", "mb"}, {"_relaxed", "once"}, {"_acquire", "acquire"}, {"_release", "release"}};
            for (const auto& [suffix, tag] : f) {
                std::string m = pattern;
                m.replace(m.find("{T}"), 3, std::string("{") + tag + "}");
                add(name + suffix, m);
            }
        };
        add("READ_ONCE", "__load{once}($0)");
        add("WRITE_ONCE", "__store{once}($0,$1)");
        add("smp_store_release", "__store{release}(*$0,$1)");
        add("smp_load_acquire", "__load{acquire}(*$0)");
        add("rcu_assign_pointer", "__store{release}($0,$1)");
        add("rcu_dereference", "__load{once}($0)");
        add("smp_store_mb", "__store{once}($0,$1);__fence{mb}");
        for (const char* f : {"mb", "rmb", "wmb"}) add(std::string("smp_") + f, std::string("__fence{") + f + "}");
        for (const char* f : {"before_atomic", "after_atomic", "after_spinlock", "after_unlock_lock", "after_srcu_read_unlock"}) {
            std::string tag = f;
            for (char& c : tag)
                if (c == '_') c = '-';
            add(std::string("smp_mb__") + f, "__fence{" + tag + "}");
        }
        add("barrier", "__fence{barrier}");
        forms("xchg", "__xchg{T}($0,$1)");
        forms("cmpxchg", "__cmpxchg{T}($0,$1,$2)");
        forms("atomic_xchg", "__xchg{T}($0,$1)");
        forms("atomic_cmpxchg", "__cmpxchg{T}($0,$1,$2)");
        add("spin_lock", "__lock($0)");
        add("spin_unlock", "__unlock($0)");
        add("spin_trylock", "__trylock($0)");
        add("spin_is_locked", "__islocked($0)");
        add("rcu_read_lock", "__fence{rcu-lock}");
        add("rcu_read_unlock", "__fence{rcu-unlock}");
        add("synchronize_rcu", "__fence{sync-rcu}");
        add("synchronize_rcu_expedited", "__fence{sync-rcu}");
        // SRCU: Linux 6.1's events on the srcu_struct, and the newest model's accesses to it
        for (const char* n : {"srcu_read_lock", "srcu_down_read"}) {
            add(n, "__srcu{srcu-lock}($0)");
            add(n, "__load{srcu-lock}(*$0)", true);
        }
        for (const char* n : {"srcu_read_unlock", "srcu_up_read"}) {
            add(n, "__srcu{srcu-unlock}($0,$1)");
            add(n, "__store{srcu-unlock}(*$0,$1)", true);
        }
        add("synchronize_srcu", "__srcu{sync-srcu}($0)");
        add("synchronize_srcu_expedited", "__srcu{sync-srcu}($0)");
        add("atomic_read", "__load{once}(*$0)");
        add("atomic_set", "__store{once}(*$0,$1)");
        add("atomic_read_acquire", "__load{acquire}(*$0)");
        add("atomic_set_release", "__store{release}(*$0,$1)");
        static constexpr std::pair<const char*, const char*> ops[] = {
            {"add", "+"}, {"sub", "-"}, {"and", "&"}, {"or", "|"}, {"xor", "^"}, {"andnot", "&~"}};
        // a void RMW: Linux 6.1's table gives no tag (herd 7.57 tags its read noreturn itself)
        for (const auto& [op, sym] : ops) {
            add(std::string("atomic_") + op, std::string("__atomic_op{noreturn}($1,") + sym + ",$0)");
            add(std::string("atomic_") + op, std::string("__atomic_op($1,") + sym + ",$0)");
            forms(std::string("atomic_fetch_") + op, std::string("__atomic_fetch_op{T}($1,") + sym + ",$0)");
        }
        add("atomic_inc", "__atomic_op{noreturn}($0,+,1)");
        add("atomic_inc", "__atomic_op($0,+,1)");
        add("atomic_dec", "__atomic_op{noreturn}($0,-,1)");
        add("atomic_dec", "__atomic_op($0,-,1)");
        forms("atomic_add_return", "__atomic_op_return{T}($1,+,$0)");
        forms("atomic_sub_return", "__atomic_op_return{T}($1,-,$0)");
        forms("atomic_inc_return", "__atomic_op_return{T}($0,+,1)");
        forms("atomic_dec_return", "__atomic_op_return{T}($0,-,1)");
        forms("atomic_fetch_inc", "__atomic_fetch_op{T}($0,+,1)");
        forms("atomic_fetch_dec", "__atomic_fetch_op{T}($0,-,1)");
        add("atomic_sub_and_test", "__atomic_op_return{mb}($1,-,$0)==0");
        add("atomic_dec_and_test", "__atomic_op_return{mb}($0,-,1)==0");
        add("atomic_inc_and_test", "__atomic_op_return{mb}($0,+,1)==0");
        forms("atomic_add_negative", "__atomic_op_return{T}($1,+,$0)<0");
        add("atomic_add_unless", "__atomic_add_unless{mb}($0,$1,$2)");
        return v;
    }();
    return table;
}

bool is_lkmm_primitive(std::string_view name) {
    for (const OwnMeaning& o : own_meanings())
        if (o.name == name) return true;
    return false;
}

}  // namespace oc::litmus
