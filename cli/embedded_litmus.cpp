// SPDX-License-Identifier: MIT
// Litmus files built into a program as models (cli/embedded_litmus.hpp).
#include "cli/embedded_litmus.hpp"

#include <filesystem>
#include <string>

#include "cli/catalogue_select.hpp"
#include "cli/command_variants.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"

namespace oc::cli {

std::vector<ModelDef> embedded_litmus_models(std::span<const EmbeddedLitmus> files, std::string_view prefix) {
    std::vector<ModelDef> models;
    for (const EmbeddedLitmus& f : files) {
        const std::string path(f.path);
        const std::filesystem::path fp(path);  // .../MODEL/VARIANT.litmus
        const std::string model_dir = fp.parent_path().filename().string();
        const std::string variant = fp.stem().string();
        if (model_dir.empty() || fp.extension() != ".litmus" || variant.empty())
            throw litmus::LitmusError(path, {}, "an embedded litmus file must be DIR/MODEL/VARIANT.litmus");
        const std::string model = std::string(prefix) + model_dir;

        auto test = litmus::compile(litmus::parse(f.text, path));
        const auto& p = test->program;
        const bool racy = (p.result && p.result->datarace) || (p.mapping && p.mapping->datarace);
        VariantDef v =
            litmus::make_variant(test, racy ? litmus::RunMode::PlainAsRelaxed : litmus::RunMode::RaceCheck);
        v.model = model;
        v.name = variant;
        commands::litmus_hashes()[v.id()] = content_hash(f.text);

        if (models.empty() || models.back().name != model) {
            bool found = false;
            for (const ModelDef& m : models) found = found || m.name == model;
            if (found)
                throw litmus::LitmusError(path, {}, "the embedded files of model " + model + " are not together");
            models.push_back(ModelDef{model, "c", "the C twins of " + model_dir + ": " + fp.parent_path().string() +
                                                      "/*.litmus, each judged by its Result: line", {}});
        }
        models.back().variants.push_back(std::move(v));
    }
    return models;
}

}  // namespace oc::cli
