// SPDX-License-Identifier: MIT
// `ordercheck merge`: combine the JSON reports of the shards of one run (check --shard I/N) into
// one report per variant.
#include "cli/subcommands.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <map>

#include "cli/command_options.hpp"
#include "cli/command_variants.hpp"
#include "cli/format.hpp"
#include "cli/parallel.hpp"

using namespace oc;

namespace oc::cli::commands {

int cmd_merge(const std::vector<std::string>& args, const cli::Program& program) {
    po::options_description opts("merge options");
    std::string format = "text";
    opts.add_options()("format", po::value(&format)->default_value("text"), "text | json | junit")
        ("help,h", "this help");
    const Parsed parsed = parse_command(args, opts, "shard reports (JSON)",
                                        "usage: ordercheck merge FILE... [TEST.litmus...] [--format text|json|junit]\n"
                                        "Combines the JSON reports of `check --shard I/N --format json` into one "
                                        "report per variant;\na variant is exhaustive only if all N shards are "
                                        "given and each completed. Shards of litmus tests\nneed the test files "
                                        "(unchanged since the run).\n");
    if (parsed.help) return cli::exit_ok;
    if (format != "text" && format != "json" && format != "junit")
        return usage_error("--format must be text, json or junit (got '" + format + "')");
    std::vector<std::string> files;
    auto models = program.models;
    models.insert(models.end(), program.by_id_only.begin(), program.by_id_only.end());
    std::map<std::string, const VariantDef*> by_id;
    for (const auto& m : models)
        for (const auto& v : m.variants) by_id[v.id()] = &v;
    for (const auto& arg : parsed.positional) {
        if (!arg.ends_with(".litmus")) {
            files.push_back(arg);
            continue;
        }
        if (!is_litmus_file(arg)) return usage_error("no such file: '" + arg + "'");
        const VariantDef* v = litmus_variant(arg);
        if (v == nullptr) return cli::exit_usage;
        by_id[v->id()] = v;
    }
    if (files.empty()) return usage_error("merge needs the JSON reports of the shards");
    const auto lookup = [&](const std::string& id) -> const VariantDef* {
        const auto it = by_id.find(id);
        return it == by_id.end() ? nullptr : it->second;
    };
    // Only shards of one run combine: every file must record the same run (run_difference()),
    // judged against this program's catalogue (the expectations come from it).
    std::vector<Report> shards;
    cli::RunSettings settings;
    const std::string catalogue = catalogue_identity(program);
    std::string first_file;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) return usage_error("cannot read '" + file + "'");
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        cli::RunSettings run;
        try {
            for (auto& r : cli::parse_json(text, lookup, &run)) shards.push_back(std::move(r));
        } catch (const std::exception& e) {
            std::cerr << "ordercheck: " << file << ": " << e.what() << '\n';
            return cli::exit_usage;
        }
        for (const auto& [id, hash] : run.litmus) {
            const auto it = litmus_hashes().find(id);
            if (it == litmus_hashes().end()) {
                std::cerr << "ordercheck: merge: " << file << " ran the litmus test " << id
                          << "; name its .litmus file too\n";
                return cli::exit_usage;
            }
            if (it->second != hash) {
                std::cerr << "ordercheck: merge: " << file << " ran " << id << " from another file than the one given ("
                          << "content hash " << hash << ", given " << it->second << ")\n";
                return cli::exit_usage;
            }
        }
        if (run.catalogue != catalogue) {
            std::cerr << "ordercheck: merge: " << file << " was judged against another catalogue ("
                      << (run.catalogue.empty() ? std::string("not recorded") : run.catalogue) << ") than this ordercheck's ("
                      << catalogue << "); merge with the ordercheck that ran the shards\n";
            return cli::exit_usage;
        }
        if (first_file.empty()) {
            settings = run;
            first_file = file;
        } else if (const auto d = cli::run_difference(settings, run)) {
            std::cerr << "ordercheck: merge: " << first_file << " and " << file << " are not shards of one run: "
                      << d->field << " differs (" << d->a << " in " << first_file << ", " << d->b << " in " << file
                      << ")\n";
            return cli::exit_usage;
        }
    }
    std::vector<Report> merged;
    try {
        merged = cli::merge_by_variant(shards);
    } catch (const std::invalid_argument& e) {
        std::cerr << "ordercheck: " << e.what() << '\n';
        return cli::exit_usage;
    }
    std::cout << (format == "json"    ? cli::format_json(merged, settings)
                  : format == "junit" ? cli::format_junit(merged, settings)
                                      : cli::format_text(merged, settings));
    return cli::exit_code(merged);
}

}  // namespace oc::cli::commands
