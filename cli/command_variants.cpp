// SPDX-License-Identifier: MIT
// Resolving the ids and litmus files the ordercheck commands are given (cli/command_variants.hpp).
#include "cli/command_variants.hpp"

#include <cctype>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include "cli/catalogue_select.hpp"
#include "cli/command_options.hpp"
#include "litmus/run.hpp"

using namespace oc;

namespace oc::cli::commands {

namespace {

/// Variants made from litmus files named on the command line; stable addresses for the
/// VariantDef pointers the commands pass around.
std::deque<VariantDef>& litmus_variants() {
    static std::deque<VariantDef> store;
    return store;
}

}  // namespace

std::string slug(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

bool is_litmus_file(const std::string& id) {
    return id.size() > 7 && id.ends_with(".litmus") && std::filesystem::is_regular_file(id);
}

std::map<std::string, std::string>& litmus_hashes() {
    static std::map<std::string, std::string> hashes;
    return hashes;
}

std::string catalogue_identity(const cli::Program& program) {
    auto models = program.models;
    models.insert(models.end(), program.by_id_only.begin(), program.by_id_only.end());
    return cli::catalogue_hash(models);
}

namespace {
unsigned litmus_unroll = 0;
}  // namespace

void set_litmus_unroll(unsigned unroll) { litmus_unroll = unroll; }

const VariantDef* litmus_variant(const std::string& path) {
    std::shared_ptr<const litmus::Compiled> test;
    try {
        test = litmus::load(path, litmus_macros());
    } catch (const litmus::LitmusError& e) {
        std::cerr << e.what() << '\n';
        return nullptr;
    }
    const auto& p = test->program;
    const bool racy = (p.result && p.result->datarace) || (p.mapping && p.mapping->datarace);
    litmus::LoopBound bound;
    if (litmus_unroll > 0) {
        bound.unroll = litmus_unroll;
        bound.cuts = std::make_shared<std::atomic<std::uint64_t>>(0);
    }
    litmus_variants().push_back(
        litmus::make_variant(test, racy ? litmus::RunMode::PlainAsRelaxed : litmus::RunMode::RaceCheck, bound));
    std::ifstream in(path, std::ios::binary);
    litmus_hashes()[litmus_variants().back().id()] =
        cli::content_hash(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    return &litmus_variants().back();
}

bool resolve_ids(const std::vector<ModelDef>& models, const std::vector<std::string>& ids,
                 std::vector<const VariantDef*>& out) {
    std::vector<std::string> catalogue_ids;
    for (const auto& id : ids)
        if (id.ends_with(".litmus") && !is_litmus_file(id)) {
            std::cerr << "ordercheck: no such file: '" << id << "'\n";
            return false;
        } else if (!is_litmus_file(id)) {
            catalogue_ids.push_back(id);
        }
    std::vector<const VariantDef*> catalogue;
    if (!catalogue_ids.empty()) {
        std::string error;
        catalogue = cli::select_variants(models, catalogue_ids, error);
        if (!error.empty()) {
            std::cerr << "ordercheck: " << error;
            return false;
        }
    }
    for (const auto& id : ids)
        if (is_litmus_file(id)) {
            const VariantDef* v = litmus_variant(id);
            if (v == nullptr) return false;
            out.push_back(v);
        }
    out.insert(out.begin(), catalogue.begin(), catalogue.end());
    return true;
}

const VariantDef* one_variant(const std::vector<ModelDef>& models, const std::string& id) {
    if (is_litmus_file(id)) return litmus_variant(id);
    std::string error;
    const auto selected = cli::select_variants(models, {id}, error);
    if (!error.empty()) {
        std::cerr << "ordercheck: " << error;
        return nullptr;
    }
    if (selected.size() != 1) {
        std::cerr << "ordercheck: '" << id << "' names a model; give one variant (MODEL/variant)\n";
        return nullptr;
    }
    return selected.front();
}

}  // namespace oc::cli::commands
