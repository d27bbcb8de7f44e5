// SPDX-License-Identifier: MIT
// Reading the ordercheck commands' arguments (cli/command_options.hpp).
#include "cli/command_options.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>

#include "checker/engines/engines.hpp"
#include "checker/memory_model/cat/cat_config.hpp"
#include "checker/memory_model/cat/cat_model.hpp"
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

void add_cat_options(po::options_description& opts) {
    opts.add_options()
        ("cat", po::value<std::string>(),
         "judge by the memory model of this herd cat file (graph engine; its bell: the .bell file of the same name next "
         "to it, if any; docs/cat.md)")
        ("conf", po::value<std::string>(),
         "judge by the model a herd -conf file names (its model, bell and macros lines, relative to its folder; e.g. "
         "tools/memory-model/linux-kernel.cfg of a kernel tree)")
        ("lkmm-dir", po::value<std::string>(),
         "a kernel tree's tools/memory-model folder: --conf DIR/linux-kernel.cfg (the environment variable "
         "ORDERCHECK_LKMM_DIR does the same, for --model lkmm only)");
}

namespace {

const litmus::MacroTable* active_macros = nullptr;

/// The macro table at `path`, read once per process and kept to its end. Throws LitmusError.
const litmus::MacroTable* macro_table(const std::string& path) {
    static std::map<std::string, std::shared_ptr<const litmus::MacroTable>> tables;
    auto& t = tables[path];
    if (!t) t = litmus::MacroTable::load(path);
    return t.get();
}

/// The cat model `choice` asks for, loaded once per process and kept to its end, and the macro
/// table its configuration names (into `macros`); nullptr (and a line on stderr: CatError,
/// LitmusError) when either does not load.
const MemoryModel* load_cat(const std::string& cat, const std::string& conf, const litmus::MacroTable*& macros) {
    static std::vector<std::unique_ptr<cat::CatModel>> loaded;
    try {
        std::string model = cat, bell;
        cat::Variants variants;
        macros = nullptr;
        if (!conf.empty()) {
            const cat::CatConfig c = cat::read_config(conf);
            model = c.model;
            bell = c.bell;
            variants = c.variants;
            if (!c.macros.empty()) macros = macro_table(c.macros);
        } else {
            bell = cat::bell_next_to(cat);
        }
        loaded.push_back(cat::CatModel::load(model, bell, variants));
    } catch (const std::runtime_error& e) {
        std::cerr << e.what() << '\n';
        return nullptr;
    }
    active_macros = macros;
    register_memory_model(*loaded.back());
    return loaded.back().get();
}

/// The cat file or configuration the options select (--cat, --conf, --lkmm-dir, then
/// ORDERCHECK_LKMM_DIR, which applies to --model lkmm only: runs that ask for no model keep
/// the built-in one whatever the environment says).
struct CatSelection {
    std::string cat, conf, from;
    unsigned given = 0;
};
CatSelection cat_selection(const std::string& model, const po::variables_map& vm) {
    CatSelection s;
    if (vm.count("cat")) s.cat = vm["cat"].as<std::string>(), s.from = "--cat", ++s.given;
    if (vm.count("conf")) s.conf = vm["conf"].as<std::string>(), s.from = "--conf", ++s.given;
    if (vm.count("lkmm-dir")) s.conf = vm["lkmm-dir"].as<std::string>() + "/linux-kernel.cfg", s.from = "--lkmm-dir", ++s.given;
    const char* env = std::getenv("ORDERCHECK_LKMM_DIR");
    if (s.given == 0 && model == "lkmm" && env != nullptr && *env != '\0') {
        s.conf = std::string(env) + "/linux-kernel.cfg";
        s.from = "ORDERCHECK_LKMM_DIR";
    }
    return s;
}

}  // namespace

const litmus::MacroTable* litmus_macros() { return active_macros; }

bool preload_litmus_macros(const std::string& model, const po::variables_map& vm) {
    const CatSelection s = cat_selection(model, vm);
    if (s.conf.empty() || s.given > 1) return true;  // model_option() reports the misuse
    try {
        const cat::CatConfig c = cat::read_config(s.conf);
        if (!c.macros.empty()) active_macros = macro_table(c.macros);
    } catch (const std::runtime_error& e) {  // CatError, LitmusError
        std::cerr << e.what() << '\n';
        return false;
    }
    return true;
}

std::optional<ModelChoice> model_option(const std::string& model, EngineKind engine, const po::variables_map& vm) {
    const CatSelection sel = cat_selection(model, vm);
    std::string cat = sel.cat, conf = sel.conf, from = sel.from;
    const unsigned given = sel.given;
    if (given > 1) {
        usage_error("--cat, --conf and --lkmm-dir each select a model: give one");
        return std::nullopt;
    }
    if (!cat.empty() || !conf.empty()) {
        if (model != "auto" && model != "lkmm") {
            usage_error(from + " selects the memory model; it conflicts with --model " + model);
            return std::nullopt;
        }
        if (!capabilities(engine).cat) {
            usage_error(from + " needs the graph engine (Relacy explores C++11 only)");
            return std::nullopt;
        }
        const litmus::MacroTable* macros = nullptr;
        const MemoryModel* m = load_cat(cat, conf, macros);
        if (m == nullptr) return std::nullopt;
        if (model == "lkmm" && !m->kernel_events()) {
            usage_error("--model lkmm: " + m->description() + " declares none of the kernel's event tags (a bell file's enums)");
            return std::nullopt;
        }
        return ModelChoice{m->kernel_events() ? ModelKind::Lkmm : ModelKind::Rc11, false, m, m->description(), macros};
    }
    if (model == "auto") return ModelChoice{ModelKind::Rc11, engine == EngineKind::Graph, nullptr, model};
    const auto kind = parse_model(model);
    if (!kind) {
        usage_error("--model must be auto, lkmm or rc11 (got '" + model + "')");
        return std::nullopt;
    }
    if (!capabilities(engine).judges(*kind)) {
        usage_error("--model lkmm needs the graph engine (Relacy explores C++11 only)");
        return std::nullopt;
    }
    return ModelChoice{*kind, false, nullptr, model};
}
ModelKind one_model(const ModelChoice& choice, EngineKind engine, const std::vector<const VariantDef*>& variants) {
    if (!choice.per_variant) return choice.kind;
    for (const VariantDef* v : variants)
        if (default_memory_model(*v, engine) != ModelKind::Lkmm) return ModelKind::Rc11;
    return variants.empty() ? ModelKind::Rc11 : ModelKind::Lkmm;
}

}  // namespace oc::cli::commands
