// SPDX-License-Identifier: MIT
// The model API: a model is a struct with shared state (Atomic/Plain members), named threads
// (member functions), observables (Reg, Observed locations), metrics and a bad_outcome()
// predicate; its variants each carry a typed, justified expectation. Engine-neutral.
#pragma once

#include <array>
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "checker/model/runtime.hpp"

namespace oc {

/// How often the bad outcome held over the explored executions (herd's words).
enum class Verdict : std::uint8_t { Never, Sometimes, Always };

/// An execution the engine stopped because the model broke a rule of the language.
enum class EngineFailure : std::uint8_t { DataRace, Deadlock, Livelock, AssertFailed, UninitialisedAccess, Other };

/// Either a verdict or an engine failure: what one exploration of a variant finds.
using Finding = std::variant<Verdict, EngineFailure>;

std::string_view to_string(Verdict v);
std::string_view to_string(EngineFailure f);
std::string to_string(const Finding& f);
/// Parses "Never", "Sometimes", "Always", "DataRace", ... (case-sensitive); nullopt if unknown.
std::optional<Finding> parse_finding(std::string_view s);

/// The typed expectation of a variant, justified from the memory model.
struct Expectation {
    Finding memory_model = Verdict::Never;  ///< what C++20/RC11 says of the mapped program
    /// Set when the engine cannot produce an execution RC11 allows (docs/relacy.md): what the
    /// engine finds instead. The check then compares against this and reports a known limitation.
    std::optional<Finding> engine;
    std::string_view engine_note;
    /// Set when the kernel memory model (LKMM) disagrees with the C++11 mapping.
    std::optional<Verdict> lkmm;
    std::string_view lkmm_note;
    std::string_view why;  ///< the justification, from the memory model
    /// The same verdict argued in LKMM's own terms (ppo, hb, pb, strong-fence...), where `why`
    /// argues it through the C++11 mapping's fences and sw edges: what reports give under LKMM.
    std::string_view lkmm_why;
    /// Set when the engine is known to report executions RC11 forbids for this program (Relacy:
    /// SC fences against SC accesses); certification rejects them and the check still passes.
    std::string_view engine_inconsistency_note;
    /// False for a program that states no expectation (a litmus test without a Result: line):
    /// it is explored and reported, not judged.
    bool judged = true;

    /// What this engine must find for the check to pass.
    Finding engine_answer() const { return engine ? *engine : memory_model; }

    /// Marks a known engine limitation: RC11 says `memory_model`, the engine finds `found`.
    Expectation engine_finds(Finding found, std::string_view note) const {
        Expectation e = *this;
        e.engine = found;
        e.engine_note = note;
        return e;
    }
    /// Marks a program on which the engine is known to report RC11-inconsistent executions.
    Expectation engine_reports_inconsistent(std::string_view note) const {
        Expectation e = *this;
        e.engine_inconsistency_note = note;
        return e;
    }
    /// The LKMM argument for the same verdict, where `why` speaks of the C++11 mapping.
    Expectation because_under_lkmm(std::string_view argument) const {
        Expectation e = *this;
        e.lkmm_why = argument;
        return e;
    }
    /// Records the LKMM answer where it differs from the C++11 mapping (a mapping blind spot).
    Expectation under_lkmm(Verdict v, std::string_view note) const {
        Expectation e = *this;
        e.lkmm = v;
        e.lkmm_note = note;
        return e;
    }
};

namespace expect {
inline Expectation never(std::string_view why) {
    Expectation e;
    e.memory_model = Verdict::Never;
    e.why = why;
    return e;
}
inline Expectation sometimes(std::string_view why) {
    Expectation e;
    e.memory_model = Verdict::Sometimes;
    e.why = why;
    return e;
}
inline Expectation always(std::string_view why) {
    Expectation e;
    e.memory_model = Verdict::Always;
    e.why = why;
    return e;
}
inline Expectation failure(EngineFailure f, std::string_view why) {
    Expectation e;
    e.memory_model = f;
    e.why = why;
    return e;
}
}  // namespace expect

/// A model thread: a name and a member function.
template <class M>
struct Thread {
    const char* name;
    void (M::*body)();
};

/// A running model, type-erased for the engine.
class ModelInstance {
public:
    virtual ~ModelInstance() = default;
    virtual void run_thread(unsigned index) = 0;
    virtual bool bad_outcome() const = 0;
    /// The execution is one the model's filter excludes (a litmus test's `filter` clause, herd's
    /// semantics): it is explored and reported, and counts in no verdict.
    virtual bool filtered_out() const { return false; }
};

/// How a hand-written mutant derives from another variant of its model: the barrier `primitive`
/// of variant `base`, weakened as barrier necessity weakens it. Where `base` has the primitive
/// at more than one ordering site, `primitive` names one by its line in the model's source:
/// "smp_mb@42" (docs/writing-models.md). With it the mutant's bad outcome
/// can be explained as the base's execution with that barrier put back (explaining_cycle.hpp);
/// a test checks that the mutant and the weakened base reach the same outcomes.
struct Derivation {
    const char* base = nullptr;  ///< nullptr: not a declared mutant
    const char* primitive = "";  ///< the barrier's primitive, "smp_mb" or "smp_mb@LINE": one ordering site of `base`
    Weakening weakening = Weakening::Remove;
    explicit operator bool() const { return base != nullptr; }
};

/// `{"no_after_atomic", C{...}, expect, "summary", weakens("merged", "smp_mb__after_atomic")}`.
constexpr Derivation weakens(const char* base, const char* primitive, Weakening w = Weakening::Remove) {
    return Derivation{base, primitive, w};
}

/// One variant of a model, ready to explore.
struct VariantDef {
    std::string model;      ///< e.g. "SB"
    std::string name;       ///< e.g. "relaxed"
    std::string summary;    ///< one line: what differs in this variant
    Expectation expect;
    std::vector<std::string> thread_names;
    std::size_t instance_size = 0;
    std::size_t instance_align = alignof(std::max_align_t);
    /// Constructs the model (with this variant's configuration) in `storage`.
    std::function<ModelInstance*(void* storage)> construct;
    /// The model states its dependencies (litmus tests, exactly; C++ models that say
    /// `states_dependencies`, primitives.hpp). Under LKMM the graph engine explores load
    /// buffering for every model; one that leaves this false is explored as having no dependency.
    bool exact_dependencies = false;
    /// The locations no marked access ever reaches (by name; a litmus test's purely plain
    /// locations, as its analysis finds them statically). Under LKMM a load-buffering cycle
    /// through a write to one continues with a plain read, which guesses in its stead, so such
    /// a write keeps no marked read's guess alive (docs/lkmm.md, "Load buffering"). Empty: none
    /// is known, which only leaves more reads to guess.
    std::vector<std::string> plain_only_locations;
    /// Load buffering: the constants a write site may store that one execution need not show
    /// (a litmus test: every constant the program assigns the register a store writes, in any
    /// branch: crypto-control-data stores `r1`, 1 or 0 as its read decides). Each entry: the
    /// site's graph thread, its source line, the constants. Under LKMM the guess rounds let a
    /// read guess them where it guesses a write of that site that copies no read (docs/lkmm.md,
    /// "Load buffering"). Empty: none known, so a value only a cycle stores is never guessed.
    struct StoredConstants {
        unsigned thread = 0;
        std::uint32_t line = 0;
        std::vector<Value> values;
    };
    std::vector<StoredConstants> stored_constants;
    /// Load buffering: the constants each store of the program text to a fixed location may
    /// write (graph thread, source line, location name, value). A store that only a
    /// load-buffering cycle runs (under `if (r)` where only the cycle gives r its value) is in
    /// no execution the guess rounds learn from, so its values are learnt from here, any read
    /// of the location may guess them, and a guess no write matches builds no execution.
    struct TextWrite {
        unsigned thread = 0;
        std::uint32_t line = 0;
        std::string location;
        Value value = 0;
    };
    std::vector<TextWrite> text_writes;
    /// Load buffering: the values each compare-exchange site of the program text writes when it
    /// succeeds (graph thread, source line, its new-value operand where that is a constant). A
    /// compare-exchange that failed in an execution the rounds learn from would have written
    /// one of them had it read the expected value, which a load-buffering cycle may give it: the
    /// rounds learn it as such a write, with the failed read's porf prefix (docs/lkmm.md, "Load
    /// buffering": LB+rmw-cmpxchgs). Empty: none known, so that write is learnt only from
    /// executions in which it succeeds.
    std::vector<StoredConstants> cas_writes;
    /// Load buffering under LKMM or a cat model (`ordered(model.orders())`): the reads whose
    /// guesses the program text decides, as (graph thread, source line) pairs. `ordered`: every
    /// read event of that thread made at that line has, on every path of the program, each
    /// write of its thread po-after it ordered after it for a reason the model orders for (a
    /// dependency, a strong fence between, a release write, an acquire read) and nothing after
    /// it the text cannot judge (an assertion, an await), so a guess there could never close a
    /// cycle (the engine would drop it when the thread ends): it guesses nothing. `ordered` false: some path may leave a write unordered after it, so it
    /// guesses, whatever the executions found so far show. A litmus test finds them from its
    /// text (litmus/ordered_reads.cpp). A read not listed, or listed with nullopt, is left to
    /// what the rounds learn (docs/lkmm.md, "Load buffering").
    struct OrderedRead {
        unsigned thread = 0;
        std::uint32_t line = 0;
        /// bit S (a set of reasons, MemoryModel::orders()): some path leaves a write after a
        /// read of the line that none of the reasons in S orders
        std::uint32_t free_under = 0;
        bool unknown = false;  ///< something after such a read has an effect the text cannot judge
        /// `ordered` under a model that orders for `reasons` (MemoryModel::orders()).
        std::optional<bool> ordered(std::uint8_t reasons) const {
            if ((free_under >> reasons & 1u) != 0) return false;
            if (unknown) return std::nullopt;
            return true;
        }
    };
    std::vector<OrderedRead> ordered_reads;
    /// Load buffering by cycle revisits (ExploreOptions::cycle_revisits): the (graph thread,
    /// source line) pairs whose every read event is a load whose value nothing of its thread
    /// uses (litmus/ordered_reads.cpp, undepended_reads()), the only read of a process with no
    /// loop: no later event depends on it and no later read may have to change with it, so a
    /// revisit builds every cycle through it, and it guesses nothing.
    std::vector<std::pair<unsigned, std::uint32_t>> undepended_reads;
    /// The (graph thread, source line) pairs of every access that may read (a litmus test's;
    /// empty: not known). With undepended_reads and ordered_reads it shows when no read of the
    /// program ever guesses (graph_explore()).
    std::vector<std::pair<unsigned, std::uint32_t>> read_lines;
    /// Whether the text shows that no read guesses under a model that orders for `reasons`:
    /// every line of read_lines is undepended or ordered.
    bool text_guesses_nothing(std::uint8_t reasons) const {
        if (read_lines.empty()) return false;
        for (const auto& tl : read_lines) {
            if (std::find(undepended_reads.begin(), undepended_reads.end(), tl) != undepended_reads.end()) continue;
            bool ordered = false;
            for (const auto& o : ordered_reads)
                if (o.thread == tl.first && o.line == tl.second) ordered = o.ordered(reasons).value_or(false);
            if (!ordered) return false;
        }
        return true;
    }
    /// Non-empty: the variant is exact only under a memory model that reads LKMM's tags (the
    /// graph engine under LKMM or a kernel cat model), and this says why, with the place in the
    /// source; under RC11 or Relacy check() refuses it with this text (EngineFailure::Other).
    /// A litmus test sets it for a location accessed plainly and with marked accesses from
    /// several processes (docs/litmus.md, "Data races").
    std::string kernel_model_only;
    /// Set for a hand-written mutant of another variant (see Derivation).
    Derivation derived;
    /// A variant whose loops run under an unroll bound (a litmus test's loops that are not
    /// awaits): the bound, and the number of runs cut at it so far (cumulative; check() counts
    /// the difference). A run cut at the bound is dropped, so a search that cut any is bounded,
    /// never a proof. 0 / empty: no bound.
    unsigned unroll = 0;
    std::function<std::uint64_t()> cut_runs;

    std::string id() const { return model + "/" + name; }
    unsigned thread_count() const { return static_cast<unsigned>(thread_names.size()); }
};

/// One protocol and all its variants.
struct ModelDef {
    std::string name;
    std::string family;      ///< "litmus", "seed"...
    std::string description;
    std::vector<VariantDef> variants;
};

namespace detail {
template <class M, class Config>
class Instance final : public ModelInstance {
public:
    explicit Instance(const Config& c) : model_(c) {}
    void run_thread(unsigned index) override { (model_.*(M::threads[index].body))(); }
    bool bad_outcome() const override { return model_.bad_outcome(); }

private:
    M model_;
};
}  // namespace detail

/// A variant of model M built from M's configuration struct.
template <class M>
struct VariantSpec {
    const char* name;
    typename M::Config config;
    Expectation expect;
    const char* summary = "";
    Derivation derived = {};
};

/// Defines a model from its struct M (with `Config`, `threads`, `bad_outcome()`) and variants.
template <class M>
ModelDef define(const char* name, const char* family, const char* description,
                std::vector<VariantSpec<M>> variants) {
    static_assert(M::threads.size() >= 2 && M::threads.size() <= max_threads, "a model has 2..max_threads threads");
    ModelDef def{name, family, description, {}};
    for (const auto& v : variants) {
        VariantDef vd;
        vd.model = name;
        vd.name = v.name;
        vd.summary = v.summary;
        vd.expect = v.expect;
        vd.derived = v.derived;
        if constexpr (requires { M::states_dependencies; }) vd.exact_dependencies = M::states_dependencies;
        for (const auto& t : M::threads) vd.thread_names.emplace_back(t.name);
        using I = detail::Instance<M, typename M::Config>;
        vd.instance_size = sizeof(I);
        vd.instance_align = alignof(I);
        vd.construct = [config = v.config](void* storage) -> ModelInstance* { return new (storage) I(config); };
        def.variants.push_back(std::move(vd));
    }
    return def;
}

}  // namespace oc
