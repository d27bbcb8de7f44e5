// SPDX-License-Identifier: MIT
// Reading the ordercheck commands' arguments (cli/command_options.hpp).
#include "cli/command_options.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "checker/engines/engines.hpp"
#include "cli/format.hpp"

using namespace oc;

namespace oc::cli::commands {

Parsed parse_command(const std::vector<std::string>& args, const po::options_description& opts, const char* what,
                     const std::string& usage) {
    po::options_description hidden;
    hidden.add_options()("positional", po::value<std::vector<std::string>>(), what);
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description pos;
    pos.add("positional", -1);
    Parsed p;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), p.vm);
    po::notify(p.vm);
    if (p.vm.count("positional")) p.positional = p.vm["positional"].as<std::vector<std::string>>();
    if (p.vm.count("help")) {
        std::cout << usage << opts;
        p.help = true;
    }
    return p;
}

std::string& current_command() {
    static std::string command;
    return command;
}

int usage_error(const std::string& message) {
    std::cerr << "ordercheck: " << message << "; see 'ordercheck "
              << (current_command().empty() ? std::string("--help") : current_command() + " --help") << "'\n";
    return cli::exit_usage;
}

// Numeric options are read as text and checked here, before any work starts: boost reads "-3"
// into an unsigned as 4294967293 (a run that forks workers until killed, or never ends).

std::int64_t integer_option(const po::variables_map& vm, const std::string& name, std::int64_t lo, std::int64_t hi,
                            const std::string& note) {
    const std::string text = vm[name].as<std::string>();
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
        throw UsageError("--" + name + " must be an integer between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + note + " (got '" + text + "')");
    return v;
}

double seconds_option(const po::variables_map& vm, const std::string& name) {
    const std::string text = vm[name].as<std::string>();
    char* end = nullptr;
    const double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ? -1 : std::strtod(text.c_str(), &end);
    if (end == nullptr || *end != '\0' || !std::isfinite(v) || v < 0 || v > max_timeout_seconds)
        throw UsageError("--" + name + " must be a number of seconds between 0 (none) and " +
                         std::to_string(static_cast<long long>(max_timeout_seconds)) + " (got '" + text + "')");
    return v;
}

std::optional<ModelChoice> model_option(const std::string& model, EngineKind engine) {
    if (model == "auto") return ModelChoice{ModelKind::Rc11, engine == EngineKind::Graph};
    const auto kind = parse_model(model);
    if (!kind) {
        usage_error("--model must be auto, lkmm or rc11 (got '" + model + "')");
        return std::nullopt;
    }
    if (!capabilities(engine).judges(*kind)) {
        usage_error("--model lkmm needs the graph engine (Relacy explores C++11 only)");
        return std::nullopt;
    }
    return ModelChoice{*kind, false};
}
ModelKind one_model(const ModelChoice& choice, EngineKind engine, const std::vector<const VariantDef*>& variants) {
    if (!choice.per_variant) return choice.kind;
    for (const VariantDef* v : variants)
        if (default_memory_model(*v, engine) != ModelKind::Lkmm) return ModelKind::Rc11;
    return variants.empty() ? ModelKind::Rc11 : ModelKind::Lkmm;
}

}  // namespace oc::cli::commands
