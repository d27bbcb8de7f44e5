// SPDX-License-Identifier: MIT
// Runs a parsed litmus test as a model: a VariantDef whose instance declares the test's
// locations (Atomic<long>, Plain<long> or spinlock_t) and registers (Reg), and interprets each
// process through the kernel primitives of checker/model/kernel.hpp, so one mapping serves the
// C++ models and the litmus tests. The instance never allocates: the program is shared and
// immutable, referenced by pointer.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "checker/model/model.hpp"
#include "litmus/ast.hpp"

namespace oc::litmus {

/// How plain C accesses are run.
enum class RunMode : std::uint8_t {
    /// Locations accessed plainly are Plain<long>: the engine reports a data race and stops.
    RaceCheck,
    /// Every location is atomic and plain accesses are relaxed: the outcome of a racy test.
    PlainAsRelaxed,
};

/// A source spot with the layout of libstdc++'s std::source_location::__impl, so that events
/// carry the litmus file's line (see source_location_of()).
struct SpotImpl {
    const char* file;
    const char* function;
    unsigned line;
    unsigned column;
};

/// A parsed test with what the interpreter needs besides: one source spot and one trace label
/// per access. Immutable once built; shared by every execution (and by reports, whose events
/// point at its strings).
struct Compiled {
    Program program;
    std::vector<SpotImpl> spots;        ///< per access
    std::vector<std::string> labels;    ///< per access: "READ_ONCE", "READ_ONCE[dep]"...
    /// Per location: its index among the test's srcu_structs, or -1.
    std::vector<int> srcu_index;
    /// Per srcu_struct: the names of its sections' reader words ("s@P0:12": the srcu_struct, and
    /// the process and line of the srcu_read_lock() that opens the section), and pointers to them.
    std::vector<std::vector<std::string>> srcu_section_names;
    std::vector<std::vector<const char*>> srcu_section_name_ptrs;
};

/// Builds the shared form of a parsed program.
std::shared_ptr<const Compiled> compile(Program program);

/// How loops that are not awaits are bounded (docs/litmus.md, "Loops"): an execution that would
/// start iteration unroll + 1 of such a loop is cut there.
struct LoopBound {
    unsigned unroll = default_unroll;
    /// Where cut executions are counted: under the graph engine a cut execution is dropped (the
    /// thread blocks, as at a failed await iteration, and the run is counted as blocked), and a
    /// run that cut any is bounded. Null, or under Relacy (which cannot drop an execution): a cut
    /// ends the search with an assertion failure naming the bound, so that no caller takes a
    /// bounded search for a complete one.
    std::shared_ptr<std::atomic<std::uint64_t>> cuts;
};

/// The model of the test: id "NAME/litmus", threads P0..Pn (plus an idle thread for a
/// one-process test), the expectation from its annotations (expectation()). The variant holds
/// `test`; a Report of it points into `test` (file name, labels, notes), so keep `test` alive
/// while the report is used.
VariantDef make_variant(const std::shared_ptr<const Compiled>& test, RunMode mode, LoopBound bound = {});

/// The expectation the annotations state: `Result:`, refined by `ordercheck-mapping:` (the
/// C++11 mapping differs from LKMM) and `ordercheck-engine:` (the engine cannot produce RC11's
/// answer). Outcomes without a verdict (Maybe, DEADLOCK) map to Sometimes and a Deadlock
/// failure; the litmus judge handles them itself.
Expectation expectation(const Program& p);

/// The name of the hidden observable that is 1 when the `filter` holds.
inline constexpr const char* filter_observable = "$filter";

/// A std::source_location for `spot` (libstdc++); elsewhere, the interpreter's own location.
std::source_location source_location_of(const SpotImpl& spot);

}  // namespace oc::litmus
