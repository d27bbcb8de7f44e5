// SPDX-License-Identifier: MIT
#include "cli/catalogue_select.hpp"

#include <cstdint>
#include <cstdio>
#include <set>

namespace oc::cli {

std::vector<const VariantDef*> select_variants(const std::vector<ModelDef>& models,
                                               const std::vector<std::string>& ids, std::string& error) {
    std::set<std::string> wanted(ids.begin(), ids.end());
    std::set<std::string> matched;
    std::vector<const VariantDef*> out;
    for (const auto& m : models)
        for (const auto& v : m.variants) {
            const bool by_model = wanted.count(m.name) != 0;
            const bool by_id = wanted.count(v.id()) != 0;
            if (ids.empty() || by_model || by_id) out.push_back(&v);
            if (by_model) matched.insert(m.name);
            if (by_id) matched.insert(v.id());
        }
    std::string unknown;
    for (const auto& id : ids)
        if (matched.count(id) == 0) unknown += (unknown.empty() ? "" : ", ") + ("'" + id + "'");
    if (!unknown.empty()) {
        error = "unknown model or variant id: " + unknown + "\nknown ids:\n";
        for (const auto& m : models) {
            error += "  " + m.name + "\n";
            for (const auto& v : m.variants) error += "    " + v.id() + "\n";
        }
        return {};
    }
    return out;
}

std::string content_hash(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string catalogue_hash(const std::vector<ModelDef>& models) {
    const auto finding = [](const std::optional<Finding>& f) { return f ? to_string(*f) : std::string("-"); };
    std::string text;
    for (const auto& m : models) {
        text += "model " + m.name + " " + m.family + "\n";
        for (const auto& v : m.variants) {
            const Expectation& e = v.expect;
            text += "variant " + v.id() + " threads " + std::to_string(v.thread_count()) +
                    (v.exact_dependencies ? " exact-dependencies" : "") + " rc11 " + to_string(e.memory_model) +
                    " engine " + finding(e.engine) + " lkmm " +
                    (e.lkmm ? std::string(to_string(*e.lkmm)) : std::string("-")) +
                    // " lkmm-engine -": a field no expectation sets any more, kept so that the
                    // hash of a catalogue (and merging shards written before) stays the same
                    " lkmm-engine -" + (e.judged ? " judged" : " unjudged") + "\n";
        }
    }
    return content_hash(text);
}

}  // namespace oc::cli
