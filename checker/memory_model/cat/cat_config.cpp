// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_config.hpp"

#include <cctype>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

#include "checker/memory_model/cat/cat_parser.hpp"

namespace oc::cat {

namespace {

namespace fs = std::filesystem;

/// herd's configuration keys that change only its figures and printing, never a verdict.
const std::set<std::string>& display_keys() {
    static const std::set<std::string> k{
        "verbose",   "suffix",     "show",        "showflag",   "nshow",       "showkind",  "shortlegend", "texmacros",
        "hexa",      "dotmode",    "dotcom",      "view",       "showevents",  "graph",     "mono",        "fontname",
        "fontsize",  "edgefontsizedelta",         "penwidth",   "arrowsize",   "splines",   "overlap",     "sep",
        "margin",    "pad",        "scale",       "xscale",     "yscale",      "dsiy",      "siwidth",     "boxscale",
        "ptscale",   "squished",   "showpo",      "relabel",    "withbox",     "labelbox",  "showfinalrf", "showinitrf",
        "finalrfpos", "initrfpos", "oneinit",     "labelinit",  "initpos",     "threadposy", "showinitwrites",
        "showthread", "showlegend", "brackets",   "showobserved", "movelabel", "fixedsize", "extrachars",
        "dotheader", "doshow",     "unshow",      "noid",       "symetric",    "classes",   "showraw",     "edgeattr",
        "shift",     "edgemerge",  "dumpallfaults"};
    return k;
}

}  // namespace

CatConfig read_config(const std::string& path) {
    const std::optional<std::string> text = read_model_file(path);
    if (!text) throw CatError(Pos{path, 1, 1}, "expected a readable herd configuration file, found none");
    std::istringstream in(*text);
    const fs::path dir = fs::path(path).parent_path();
    CatConfig c;
    Pos model_pos{path, 1, 1};
    std::string line;
    for (unsigned lineno = 1; std::getline(in, line); ++lineno) {
        // herd's syntax (lexConf): `key value` or `key = value`, '#' starts a comment line
        std::size_t i = 0;
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i == line.size() || line[i] == '#') continue;
        const std::size_t key_start = i;
        while (i < line.size() && std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
        const std::string key = line.substr(key_start, i - key_start);
        const Pos pos{path, lineno, static_cast<unsigned>(key_start + 1)};
        if (key.empty()) throw CatError(pos, "expected a key (model, bell, macros...), found '" + line.substr(key_start) + "'");
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i < line.size() && line[i] == '=') ++i;
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        std::string value = line.substr(i);
        while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
        const Pos value_pos{path, lineno, static_cast<unsigned>(i + 1)};
        if (display_keys().count(key)) continue;
        if (value.empty()) throw CatError(value_pos, "expected a value after '" + key + "', found the end of the line");
        // herd looks the files up in its include path; ordercheck in the configuration's folder
        const auto file = [&](const char* what) {
            const fs::path p = fs::path(value).is_absolute() ? fs::path(value) : dir / value;
            if (!fs::is_regular_file(p))
                throw CatError(value_pos, std::string("expected a readable ") + what + " file \"" + p.string() + "\", found none");
            return p.string();
        };
        if (key == "model" || key == "cat") {
            c.model = file("cat");
            model_pos = pos;
        } else if (key == "bell") {
            c.bell = file("bell");
        } else if (key == "macros") {
            c.macros = file("macros (.def)");
        } else if (key == "variant") {
            // herd: a comma-separated list; ordercheck honours the LKMM versions only, since
            // every other variant changes herd's semantics in ways the engine does not follow
            std::size_t from = 0;
            for (;;) {
                const std::size_t comma = value.find(',', from);
                std::string v = value.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
                while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
                std::size_t lead = 0;
                while (lead < v.size() && std::isspace(static_cast<unsigned char>(v[lead]))) ++lead;
                v.erase(0, lead);
                const Pos vpos{path, lineno, static_cast<unsigned>(i + from + lead + 1)};
                if (v != "lkmmv1" && v != "lkmmv2")
                    throw CatError(vpos, "expected the variant lkmmv1 or lkmmv2 (the only ones ordercheck honours), found '" + v + "'");
                c.variants.insert(v);
                if (comma == std::string::npos) break;
                from = comma + 1;
            }
            if (c.variants.count("lkmmv1") && c.variants.count("lkmmv2"))
                throw CatError(value_pos, "expected one of the variants lkmmv1 and lkmmv2, found both");
        } else {
            throw CatError(pos, "expected a key ordercheck honours (model, bell, macros, variant) or one that changes only herd's "
                                "figures and printing, found '" + key +
                                    "', which would change herd's verdicts");
        }
    }
    if (c.model.empty()) throw CatError(model_pos, "expected a 'model FILE.cat' line, found none");
    return c;
}

std::string bell_next_to(const std::string& cat_path) {
    fs::path bell = fs::path(cat_path);
    bell.replace_extension(".bell");
    return fs::is_regular_file(bell) ? bell.string() : std::string();
}

}  // namespace oc::cat
