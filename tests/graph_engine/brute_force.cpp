// SPDX-License-Identifier: MIT
// The brute-force reference enumerator (brute_force.hpp). Outline:
//  1. Run the model once, every read answering from its location's initial write: that run's
//     events (their ids, kinds, orders and locations: the "shape") are the program's events. The
//     enumerator supports only programs whose shape does not depend on the values read; any
//     later run with another shape makes the model unsupported.
//  2. For every rf assignment (each read -> any write of its location, the init write and writes
//     of its own thread included, but not an RMW itself), solve the values: re-run the program
//     with each read answering the value its assigned write wrote in the previous run, until a
//     run writes exactly what the previous one did (at most events + 1 runs; when po|rf is
//     acyclic the values settle in at most that many, and when it is cyclic RC11's no-thin-air
//     axiom rejects the graph anyway, so an assignment with no fixpoint is skipped).
//  3. For every coherence order of each location (the init thread's writes first, in program
//     order, as hb;co irreflexive forces; every permutation of the other writes), build the graph
//     and keep it iff check_rc11 accepts it.
// Nothing here is clever: it is a reference to test engines against.
#include "tests/graph_engine/brute_force.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

#include "checker/memory_model/memory_model.hpp"
#include "checker/memory_model/rc11_certify.hpp"
#include "traces/execution_graph.hpp"

namespace oc::testing {
namespace {

/// Some read's value comes back to it through a computation: it reads a write whose value
/// depends (data) on a read of its thread that reads a write ... on the first read, and some
/// write on the way computes its value (not Event::data_copy). A cycle of copies is kept.
bool out_of_thin_air(const ExecutionGraph& g) {
    for (std::size_t t = 1; t < g.thread_count(); ++t)
        for (const Event& start : g.thread(t)) {
            if (!start.is_read()) continue;
            std::set<std::pair<EventId, bool>> seen;
            std::vector<std::pair<EventId, bool>> todo{{start.id, false}};
            while (!todo.empty()) {
                const auto [id, computed] = todo.back();
                todo.pop_back();
                const Event& r = g.event(id);
                if (!r.reads_from || r.reads_from->thread == EventId::init_thread) continue;
                const Event& w = g.event(*r.reads_from);
                const bool through = computed || !w.data_copy;
                for (std::uint32_t i = 0; i < 64 && i < g.thread(w.id.thread).size(); ++i) {
                    if ((w.data_deps >> i & 1u) == 0) continue;
                    const EventId d{w.id.thread, i};
                    if (d == start.id && through) return true;
                    if (d != start.id && g.event(d).is_read() && seen.insert({d, through}).second) todo.push_back({d, through});
                }
            }
        }
    return false;
}

/// Thrown out of a run to reject the whole model (turned into supported = false).
struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};
/// A bug of the enumerator itself, or a model that is not deterministic: escapes brute_force().
struct InternalError : std::logic_error {
    using std::logic_error::logic_error;
};
/// Thrown by Engine::fail (a failed require()).
struct ModelFailed {};

/// Runs the model's threads one after another on the calling thread; each read answers from the
/// write the enumerator assigned to it.
class SequentialEngine final : public Engine {
public:
    /// Answers by access ordinal: the position of the engine call among this run's calls that
    /// record an event (init writes included). A read with no answer reads its location's
    /// initial write.
    const std::vector<std::optional<Tagged>>* answers = nullptr;
    /// What a final-state read of each location returns; null: the initial write.
    const std::vector<Tagged>* finals = nullptr;
    unsigned thread = 0;       ///< the model thread running
    bool final_phase = false;  ///< reads are final-state reads (they record no event)

    void start() {
        calls_ = 0;
        init_.clear();
        thread = 0;
        final_phase = false;
    }
    /// Engine calls of this run that recorded an event.
    std::size_t calls() const { return calls_; }

    void create_atomic(LocationId loc, Tagged init) override { create(loc, init); }
    void create_plain(LocationId loc, Tagged init) override { create(loc, init); }
    Tagged load(LocationId loc, MemoryOrder) override { return read(loc); }
    void store(LocationId, Tagged, MemoryOrder) override { count(); }
    Tagged rmw(LocationId loc, RmwOp, Tagged, MemoryOrder) override { return read(loc); }
    bool cas(LocationId loc, Tagged& expected, Tagged, MemoryOrder, MemoryOrder) override {
        const Tagged seen = read(loc);
        if (seen.value == expected.value) return true;
        expected = seen;
        return false;
    }
    void fence(MemoryOrder) override { count(); }
    Tagged plain_read(LocationId loc) override { return read(loc); }
    void plain_write(LocationId, Tagged) override { count(); }
    void yield() override { throw Unsupported("the model calls spin_yield() (a spin loop)"); }
    [[noreturn]] void fail(const char*) override { throw ModelFailed{}; }
    unsigned current_thread() override { return thread; }
    void enter_host() override {}
    void leave_host() override {}

private:
    void create(LocationId loc, Tagged init) {
        count();
        if (init_.size() <= loc) init_.resize(loc + 1u);
        init_[loc] = init;
    }
    Tagged read(LocationId loc) {
        if (final_phase) return finals != nullptr ? finals->at(loc) : init_.at(loc);
        const std::size_t k = count();
        if (answers != nullptr && k < answers->size() && (*answers)[k]) return *(*answers)[k];
        return init_.at(loc);
    }

    /// Counts one event-recording call; returns its ordinal. A loop that only ends when a read
    /// changes value spins forever here (every unanswered read repeats the initial write).
    std::size_t count() {
        if (calls_ >= brute_force_max_events)
            throw Unsupported("a run made more than " + std::to_string(brute_force_max_events) +
                              " events (a loop waiting for a value without spin_yield()?)");
        return calls_++;
    }

    std::size_t calls_ = 0;
    std::vector<Tagged> init_;  ///< the initial write of each location
};

/// What must not depend on the values read: an event's identity and labels.
struct Shape {
    EventId id;
    EventKind kind = EventKind::Write;
    MemoryOrder order = MemoryOrder::Relaxed;
    std::optional<LocationId> location;
    friend bool operator==(const Shape&, const Shape&) = default;
};
Shape shape_of(const Event& e) { return Shape{e.id, e.kind, e.order, e.location}; }

/// One sequential run of the model.
struct Run {
    ExecutionGraph graph;       ///< as the runtime recorded it (rf as answered, co in run order)
    std::vector<Shape> shape;   ///< by access ordinal
    std::vector<Value> written; ///< value written, by access ordinal (0 for non-writes)
    bool bad_outcome = false;
    std::vector<std::string> observable_names;
    std::vector<Value> observables;
};

/// Owns the engine, the runtime and the model's storage; runs the model from scratch each time.
class Runner {
public:
    explicit Runner(const VariantDef& v)
        : variant_(v), runtime_(engine_), storage_(v.instance_size + v.instance_align) {}
    Runtime& runtime() { return runtime_; }

    Run run(const std::vector<std::optional<Tagged>>& answers, const std::vector<Tagged>* finals) {
        engine_.start();
        engine_.answers = &answers;
        engine_.finals = finals;
        runtime_.begin_execution(variant_.thread_names);
        void* place = storage_.data();
        std::size_t space = storage_.size();
        place = std::align(variant_.instance_align, variant_.instance_size, place, space);
        if (place == nullptr) throw InternalError("brute_force: cannot align the model's storage");
        ModelInstance* instance = nullptr;
        Run r;
        try {
            instance = variant_.construct(place);
            runtime_.set_phase(Phase::Threads);
            for (unsigned t = 0; t < variant_.thread_count(); ++t) {
                engine_.thread = t;
                instance->run_thread(t);
            }
            runtime_.run_quiescence_hooks();
            runtime_.set_phase(Phase::Final);
            engine_.final_phase = true;
            r.bad_outcome = instance->bad_outcome();
            for (const ObservableSlot& s : runtime_.observables()) {
                r.observable_names.emplace_back(s.name);
                r.observables.push_back(s.read(s.self));
            }
        } catch (const ModelFailed&) {
            destroy(instance);
            throw Unsupported("a require() failed: " + runtime_.failure_message());
        } catch (...) {
            destroy(instance);
            throw;
        }
        destroy(instance);

        r.graph = runtime_.graph();
        // Each engine call above recorded exactly one event right after it, so the k-th call made
        // the k-th event in execution order (init events, step 0, first, in creation order).
        const std::vector<EventId> order = r.graph.in_execution_order();
        if (order.size() != engine_.calls())
            throw InternalError("brute_force: " + std::to_string(engine_.calls()) + " engine calls recorded " +
                                std::to_string(order.size()) + " events");
        for (EventId id : order) {
            const Event& e = r.graph.event(id);
            r.shape.push_back(shape_of(e));
            r.written.push_back(e.is_write() ? e.written_value : 0);
        }
        return r;
    }

private:
    static void destroy(ModelInstance* instance) {
        if (instance != nullptr) instance->~ModelInstance();
    }

    const VariantDef& variant_;
    SequentialEngine engine_;
    Runtime runtime_;
    std::vector<unsigned char> storage_;
};

/// Rejects the model when `run` has other events than the first run: names the first thread
/// whose events differ and where.
void require_same_shape(const Run& first, const Run& run) {
    if (run.shape == first.shape) return;
    const ExecutionGraph& a = first.graph;
    const ExecutionGraph& b = run.graph;
    for (std::size_t t = 0; t < a.thread_count(); ++t) {
        const std::vector<Event>& ea = a.thread(t);
        const std::vector<Event>& eb = b.thread(t);
        for (std::size_t i = 0; i < std::max(ea.size(), eb.size()); ++i) {
            if (i < ea.size() && i < eb.size() && shape_of(ea[i]) == shape_of(eb[i])) continue;
            throw Unsupported("the events depend on the values read: event " + a.thread_name(t) + "." +
                              std::to_string(i) + " is " + (i < ea.size() ? event_label(a, ea[i], Vocabulary::Cpp11) : "missing") +
                              " in the first run (every read answering the initial write) and " +
                              (i < eb.size() ? event_label(b, eb[i], Vocabulary::Cpp11) : "missing") + " in another");
        }
    }
    throw Unsupported("the events depend on the values read");
}

/// Advances `digits` (digit i counts modulo sizes[i]) to the next combination; false after the last.
bool next_combination(std::vector<std::size_t>& digits, const std::vector<std::size_t>& sizes) {
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (++digits[i] < sizes[i]) return true;
        digits[i] = 0;
    }
    return false;
}

/// Advances each location's permutation like an odometer; false after the last combination.
bool next_coherence(std::vector<std::vector<EventId>>& movable) {
    for (auto& writes : movable)
        if (std::next_permutation(writes.begin(), writes.end())) return true;  // false: back to sorted
    return false;
}

/// The graph of `run` with each read's rf source set to `source` (the runtime records a CAS's
/// source from its own co, which is meaningless here).
ExecutionGraph with_rf(const ExecutionGraph& recorded, const std::map<EventId, EventId>& source) {
    ExecutionGraph g;
    for (std::size_t l = 0; l < recorded.location_count(); ++l)
        g.add_location(recorded.location_name(static_cast<LocationId>(l)));
    std::vector<std::string> names;
    for (std::size_t t = 1; t < recorded.thread_count(); ++t) names.push_back(recorded.thread_name(t));
    g.set_thread_names(std::move(names));
    for (std::size_t t = 0; t < recorded.thread_count(); ++t) {
        for (Event e : recorded.thread(t)) {
            if (e.is_read()) {
                const EventId w = source.at(e.id);
                if (recorded.event(w).written_value != e.read_value)
                    throw InternalError("brute_force: a fixpoint read a value its source did not write");
                e.reads_from = w;
            }
            if (g.append(e) != e.id) throw InternalError("brute_force: event ids changed in the rebuilt graph");
        }
    }
    return g;
}

void enumerate(Runner& runner, BruteForceResult& result, const MemoryModel* model) {
    const std::vector<std::optional<Tagged>> no_answers;
    const Run first = runner.run(no_answers, nullptr);
    result.observable_names = first.observable_names;
    const std::vector<Shape>& shape = first.shape;
    const std::size_t events = shape.size();

    std::vector<std::size_t> reads;                                    // ordinals
    std::vector<std::vector<std::size_t>> writes(first.graph.location_count());  // ordinals, by location
    for (std::size_t k = 0; k < events; ++k) {
        const Event& e = first.graph.event(shape[k].id);
        if (e.is_read()) reads.push_back(k);
        if (e.is_write()) writes.at(*e.location).push_back(k);
    }

    // Whether the shape depends on the values read beyond what the rf assignments below try: each
    // read answers, alone, 0, 1, 2 and every value the first run wrote. A store only a
    // load-buffering cycle runs (`if (r) WRITE_ONCE(*y, 1)` where only the cycle gives r a value)
    // is in no run of the first run's shape, so no rf assignment reads it: the enumeration then
    // covers the first run's shape only, a subset (LB+ctrls+plain-read+untaken).
    std::set<Value> probe_values{0, 1, 2};
    for (std::size_t k = 0; k < events && k < first.written.size(); ++k)
        if (first.graph.event(shape[k].id).is_write()) probe_values.insert(first.written[k]);
    for (std::size_t r : reads) {
        const std::size_t w0 = writes.at(*shape[r].location).front();
        for (const Value v : probe_values) {
            std::vector<std::optional<Tagged>> probe(events);
            probe[r] = Tagged{v, pack(shape[w0].id)};
            try {  // a value no write gives may also fail a require() or spin: another shape
                if (runner.run(probe, nullptr).shape != first.shape) result.every_shape = false;
            } catch (const Unsupported&) {
                result.every_shape = false;
            }
        }
    }

    // The init thread's writes of a location come first in co, in po order (init is po-before
    // everything, so hb;co irreflexive forces it); the others are permuted.
    std::vector<std::vector<EventId>> init_writes(writes.size());
    std::vector<std::vector<EventId>> movable(writes.size());
    for (std::size_t l = 0; l < writes.size(); ++l) {
        for (std::size_t k : writes[l])
            (shape[k].id.thread == EventId::init_thread ? init_writes : movable)[l].push_back(shape[k].id);
        std::sort(movable[l].begin(), movable[l].end());
    }

    // The writes each read may read from: every write of its location but itself (an RMW reading
    // from itself is a po|rf cycle and a reflexive rmw;eco, which check_rc11 would reject anyway;
    // skipping it keeps a CAS from failing in a run that solves nothing).
    std::vector<std::vector<std::size_t>> sources;
    std::vector<std::size_t> sizes;  // rf choices of each read
    double bound = 1;
    for (std::size_t r : reads) {
        std::vector<std::size_t> from;
        for (std::size_t w : writes.at(*shape[r].location))
            if (w != r) from.push_back(w);
        sources.push_back(std::move(from));
        sizes.push_back(sources.back().size());
        bound *= static_cast<double>(sizes.back());
    }
    for (const auto& m : movable)
        for (std::size_t i = 2; i <= m.size(); ++i) bound *= static_cast<double>(i);
    if (bound == 0) return;  // a read with no write to read from: no execution
    if (bound > static_cast<double>(brute_force_max_candidates))
        throw Unsupported("too big: " + std::to_string(static_cast<unsigned long long>(bound)) +
                          " rf x co candidates (limit " + std::to_string(brute_force_max_candidates) + ")");

    std::vector<std::size_t> choice(reads.size(), 0);
    std::vector<std::optional<Tagged>> answers(events);
    do {
        std::vector<std::size_t> rf(reads.size());  // ordinal of the write each read reads from
        for (std::size_t i = 0; i < reads.size(); ++i) rf[i] = sources[i][choice[i]];

        // Solve the values: iterate to a fixpoint, starting from the first run's.
        std::vector<Value> guess = first.written;
        std::optional<Run> fixed;
        for (std::size_t round = 0; round < events + 1 && !fixed; ++round) {
            for (std::size_t i = 0; i < reads.size(); ++i)
                answers[reads[i]] = Tagged{guess[rf[i]], pack(shape[rf[i]].id)};
            Run run = runner.run(answers, nullptr);
            require_same_shape(first, run);
            if (run.written == guess)
                fixed = std::move(run);
            else
                guess = std::move(run.written);
        }
        if (!fixed) continue;  // no fixpoint: a po|rf cycle, which no-thin-air forbids

        std::map<EventId, EventId> source;
        for (std::size_t i = 0; i < reads.size(); ++i) source[shape[reads[i]].id] = shape[rf[i]].id;
        ExecutionGraph graph = with_rf(fixed->graph, source);

        std::vector<std::vector<EventId>> perm = movable;
        do {
            for (std::size_t l = 0; l < perm.size(); ++l) {
                std::vector<EventId> co = init_writes[l];
                co.insert(co.end(), perm[l].begin(), perm[l].end());
                graph.set_co(static_cast<LocationId>(l), std::move(co));
            }
            ++result.candidates;
            if (model != nullptr ? !(model->consistent(graph) && model->consistent_when_complete(graph))
                                 : static_cast<bool>(check_rc11(graph)))
                continue;
            if (model != nullptr && out_of_thin_air(graph)) continue;
            const std::uint64_t hash = canonical_hash(graph);
            if (!result.hashes.insert(hash).second)
                throw InternalError("brute_force: two different candidate graphs have the same canonical hash");

            // The final state: each location holds its co-last write.
            std::vector<Tagged> finals;
            for (std::size_t l = 0; l < graph.location_count(); ++l) {
                const EventId last = graph.co(static_cast<LocationId>(l)).back();
                finals.push_back(Tagged{graph.event(last).written_value, pack(last)});
            }
            const Run outcome = runner.run(answers, &finals);
            if (outcome.written != fixed->written || outcome.shape != shape)
                throw InternalError("brute_force: the model is not deterministic (a re-run wrote other values)");
            result.outcomes[hash] = BruteForceOutcome{outcome.bad_outcome, outcome.observables};
        } while (next_coherence(perm));
    } while (next_combination(choice, sizes));
}

}  // namespace

BruteForceResult brute_force(const VariantDef& variant, const MemoryModel* model) {
    BruteForceResult result;
    Runner runner(variant);
    RuntimeInstallation installed(runner.runtime());
    if (model != nullptr) runner.runtime().set_lkmm(model->kernel_events());
    try {
        enumerate(runner, result, model);
    } catch (const InternalError&) {
        throw;
    } catch (const Unsupported& u) {
        result = BruteForceResult{};
        result.supported = false;
        result.why_unsupported = u.what();
    } catch (const std::exception& e) {
        result = BruteForceResult{};
        result.supported = false;
        result.why_unsupported = std::string("the model threw: ") + e.what();
    }
    return result;
}

}  // namespace oc::testing
