// SPDX-License-Identifier: MIT
// Running many checks: in this process, in worker processes (--jobs), split into shards
// (--shards, --shard i/N) or across MPI ranks; merging shard reports; progress on stderr.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/format.hpp"
#include "checker/driver/check.hpp"

namespace oc::cli {

enum class ProgressMode {
    Auto,  ///< on stderr when it is a terminal
    On,    ///< always (--progress)
    Off,
};

struct RunPlan {
    unsigned jobs = 1;    ///< worker processes; 1: run in this process
    unsigned shards = 1;  ///< split each variant into this many shards and merge them (1: no split)
    /// --shard i/N: explore only shard i of N of each variant and report that part.
    std::optional<std::pair<unsigned, unsigned>> only_shard;
    ProgressMode progress = ProgressMode::Auto;
    /// What the run is (written into the reports ranks send under MPI; rank 0 refuses a rank
    /// whose run differs, run_difference()).
    RunSettings settings;
};

struct RunOutcome {
    std::vector<Report> reports;
    bool print = true;    ///< false on MPI ranks other than 0 (rank 0 prints the merged reports)
    unsigned processes = 1;  ///< processes that explored (jobs or MPI ranks)
    /// stop_cause() ended the run early: `reports` holds the variants finished before it (every
    /// shard of them), not the one it cut short, nor those not begun.
    bool stopped = false;
    std::size_t finished = 0;  ///< variants in `reports`
    std::size_t total = 0;     ///< variants asked for
};

/// Called on every report in the process that explored it (worker processes included), before
/// it is handed back: writes witness figures, which do not travel between processes.
using ReportHook = std::function<void(Report&)>;

/// Runs check() on every variant as `plan` says. Under `mpirun -n K` (Open MPI; detected from
/// the launcher's environment), each rank explores shard rank/K of every variant and rank 0
/// merges. Throws std::runtime_error when a worker fails or MPI is asked for but not built in.
/// When stop_cause() is set (SIGINT, SIGTERM), the workers are killed and waited for, and the run
/// ends with the variants finished so far (RunOutcome::stopped).
RunOutcome run_checks(const std::vector<const VariantDef*>& variants, const CheckOptions& options,
                      const RunPlan& plan, const ReportHook& hook);

/// Merges the shard reports of each variant found in `reports` (grouped by id, first-seen
/// order); reports that are not shards pass through. Throws std::invalid_argument when shards of
/// one variant were explored by different engines or under different memory models.
std::vector<Report> merge_by_variant(const std::vector<Report>& reports);

/// Writes all of `s` to `fd` (a worker's pipe), again after EINTR; false when a write fails.
bool write_all(int fd, const std::string& s);

/// Parses "i/N" (0 <= i < N); nullopt when malformed.
std::optional<std::pair<unsigned, unsigned>> parse_shard(const std::string& s);

/// True when this process was started by an MPI launcher with more than one rank.
bool launched_by_mpi();
/// True when this binary was built with MPI support.
bool mpi_available();

}  // namespace oc::cli
