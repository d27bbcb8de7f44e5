// SPDX-License-Identifier: MIT
// What the ordercheck commands (cli/cmd_*.cpp) share in reading their arguments: the parsing of a
// command's options and positional arguments, the one-line usage error, the range-checked numeric
// options and their limits, and the --model option.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "litmus/def_table.hpp"

namespace oc::cli::commands {

namespace po = boost::program_options;

/// Parses a command's arguments: `opts`, plus every positional argument collected under
/// `positional` (a vector of strings). Throws po::error on bad usage.
/// A command's parsed arguments: its options, its positional arguments, and whether it printed
/// its help (`--help`), after which it has nothing more to do.
struct Parsed {
    po::variables_map vm;
    std::vector<std::string> positional;
    bool help = false;
};

/// Parses ARGS against OPTS, the positional arguments (named WHAT in errors) collected apart;
/// with --help, prints USAGE and the options.
Parsed parse_command(const std::vector<std::string>& args, const po::options_description& opts, const char* what,
                     const std::string& usage);

/// The command being run ("check"...), named by usage errors in the pointer to its --help.
std::string& current_command();

/// A usage error: one line, the reason and where the usage is.
int usage_error(const std::string& message);

/// A bad option value found while reading the options (main() reports it as usage_error()).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Option NAME (read as text) as a decimal integer from LO to HI; throws UsageError naming the
/// option and the accepted range otherwise.
std::int64_t integer_option(const po::variables_map& vm, const std::string& name, std::int64_t lo, std::int64_t hi,
                            const std::string& note = "");

/// The longest --timeout: a year (a larger one overflows the engines' clocks; nan and inf are refused).
inline constexpr double max_timeout_seconds = 365.0 * 24 * 3600;

/// Option NAME (read as text) as a finite number of seconds from 0 to max_timeout_seconds.
double seconds_option(const po::variables_map& vm, const std::string& name);

/// The most worker processes --jobs starts: more only thrash (each worker explores a whole shard).
inline constexpr std::int64_t max_jobs = 256;
/// The most shards --shards splits a variant into.
inline constexpr std::int64_t max_shards = 4096;
inline constexpr std::int64_t max_count = std::numeric_limits<std::int64_t>::max();

/// The --model option: the memory model and its engine agree (LKMM: graph engine only).
struct ModelChoice {
    ModelKind kind = ModelKind::Rc11;
    /// "auto" (the default) under the graph engine: each variant under default_memory_model(),
    /// LKMM for a variant written with kernel primitives (litmus tests, the seeds) and RC11 for
    /// one written with C++11 atomics. Under Relacy "auto" is RC11 (the C++11 mapping).
    bool per_variant = false;
    /// A cat model (--cat, --conf, --lkmm-dir, ORDERCHECK_LKMM_DIR with --model lkmm) judging
    /// every variant in place of the built-in one; `kind` is then the role it plays (LKMM for a
    /// model with the kernel's event tags, else RC11's expectations). Lives to the end of the process.
    const MemoryModel* memory_model = nullptr;
    /// What the run records as its model option: --model as given, or the cat model's name.
    std::string option;
    /// The configuration's macro table (its `macros` line: linux-kernel.def), which says what
    /// a litmus test's primitives are; nullptr: ordercheck's own. Lives to the end of the process.
    const litmus::MacroTable* macros = nullptr;
};

/// The macro table of the last model_option() or preload_litmus_macros() that named one
/// (litmus_variant() parses with it).
const litmus::MacroTable* litmus_macros();
/// Loads the macro table the model options' configuration names, for the litmus files a
/// command reads before it calls model_option(); false (and a line on stderr) when it does
/// not load.
bool preload_litmus_macros(const std::string& model, const boost::program_options::variables_map& vm);
/// The choice of --model MODEL under ENGINE, with the cat options of `vm` (add_cat_options());
/// on bad usage or a model file that does not load, prints one line (a positioned
/// `FILE:LINE:COL: error: ...` for a model file) and returns nullopt: exit with cli::exit_usage.
std::optional<ModelChoice> model_option(const std::string& model, EngineKind engine, const po::variables_map& vm);
/// Adds --cat, --conf and --lkmm-dir to a command's options (docs/cat.md).
void add_cat_options(po::options_description& opts);
/// Sets the model of `explore` from `choice` (the kind, one_model()'s, and the cat model).
inline void apply_model(ExploreOptions& explore, const ModelChoice& choice, ModelKind kind) {
    explore.model = kind;
    explore.memory_model = choice.memory_model;
}
/// The one memory model a command judges `variants` under: "auto" gives LKMM when every one of
/// them is written with kernel primitives, RC11 otherwise (diff compares two variants under one
/// model).
ModelKind one_model(const ModelChoice& choice, EngineKind engine, const std::vector<const VariantDef*>& variants);
inline constexpr const char* model_help =
    "auto (per variant: lkmm for litmus tests and models written with kernel primitives, rc11 for C++11 ones; rc11 "
    "under relacy) | lkmm (the kernel's memory model; with ORDERCHECK_LKMM_DIR set, read from that tools/memory-model "
    "folder as --lkmm-dir does) | rc11 (the C++11 mapping of the kernel primitives)";

}  // namespace oc::cli::commands
