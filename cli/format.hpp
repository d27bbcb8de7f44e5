// SPDX-License-Identifier: MIT
// Report formatting: the verdict table (text) and the JSON report.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/driver/check.hpp"
#include "checker/driver/diff.hpp"
#include "checker/driver/necessity.hpp"

namespace oc::cli {

/// Settings a report must name so a reader can reproduce it.
struct RunSettings {
    std::string search;      ///< "full", "bound", "random"
    std::uint64_t max_executions = 0;
    double timeout_seconds = 0;
    unsigned context_bound = 0;
    std::uint64_t random_executions = 0;
    bool capture = true;
    bool certify = true;
    bool reduction = true;   ///< sleep-set reduction asked for (--no-por turns it off)
    unsigned jobs = 1;       ///< worker processes (--jobs, or MPI ranks)
    std::string engine = "relacy";  ///< "graph", "relacy", "both"
    std::string model = "RC11";     ///< the graph engine's memory model: "RC11", "LKMM"
    // What makes a report one run's (compared by `merge`, run_difference()):
    std::string model_option = "auto";  ///< --model as given: "auto", "lkmm", "rc11"
    std::string catalogue{};            ///< catalogue_hash() of the catalogue the run judged against
    /// The litmus files the run named: variant id -> content_hash() of the file.
    std::map<std::string, std::string> litmus{};
    std::vector<std::string> variants{};  ///< the variant ids, in report order (filled by parse_json)
    std::string version{};              ///< the ordercheck version that wrote it (filled by parse_json)
};

/// One recorded field in which two runs differ: its name and both values.
struct RunDifference {
    std::string field, a, b;
};
/// The first field of the run identity in which A and B differ (the version, engine, memory
/// model, --model, search and its options, capture, certification, reduction, the catalogue,
/// the litmus files, the variants); nullopt when they are the same run. `jobs` is not compared.
std::optional<RunDifference> run_difference(const RunSettings& a, const RunSettings& b);

/// The verdict table: one row per variant, notes for limitations, a closing count line.
std::string format_text(const std::vector<Report>& reports, const RunSettings& settings);
/// The JSON report (schema documented in docs/report-format.md).
std::string format_json(const std::vector<Report>& reports, const RunSettings& settings);

/// Reads the reports of a JSON report back (shard reports to merge, results of worker
/// processes). `lookup` returns the variant of an id (its expectation is not in the JSON), or
/// nullptr for an unknown id. Witness graphs are not in the JSON. Throws std::runtime_error
/// when `text` is not an ordercheck report or names an unknown variant.
std::vector<Report> parse_json(const std::string& text,
                               const std::function<const VariantDef*(const std::string&)>& lookup,
                               RunSettings* settings = nullptr);

/// One necessity row: site, weakening, verdict, exploration, result.
std::string site_line(const NecessityRow& row);
/// The diff report: outcome sets side by side, what only one reaches (with a witness trace),
/// verdicts, metrics.
std::string format_diff(const DiffReport& d);
/// JUnit XML: one testsuite, one testcase per variant; a failed expectation is a <failure>.
std::string format_junit(const std::vector<Report>& reports, const RunSettings& settings);

/// Process exit code for a set of reports: 1 if any failed, else 3 if any is incomplete, else 0.
int exit_code(const std::vector<Report>& reports);

inline constexpr int exit_ok = 0;
inline constexpr int exit_mismatch = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_incomplete = 3;

}  // namespace oc::cli
