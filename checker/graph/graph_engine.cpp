// SPDX-License-Identifier: MIT
// The execution-graph engine. It explores the execution graphs of a variant, not its
// interleavings, and hands on every complete graph the memory model allows exactly once (it builds
// each once, but for some where a thread waits or a revisit closes a cycle: those are recognised
// by their canonical hash). The
// algorithm is of the TruSt family (Kokologiannakis et al., POPL 2022): events are added one at a
// time, the leftmost unfinished thread first; a read branches over the writes of its location
// already in the graph; a write over its coherence placements and over backward revisits of
// earlier reads, taken only when every event the revisit deletes was added maximally, which is
// what makes each graph come out once. docs/graph-engine.md states the algorithm in full.
//
// Model threads are ordinary functions: a graph is explored by running the model from its start
// and replaying each thread against the graph (every read answers from the graph's rf), then
// extending it. The first choice at each new event continues in place; the other choices are
// pushed as whole graphs on a stack and replayed later. A replay that does not reproduce the
// graph's events is an error (the model is not deterministic), never a silent wrong answer.
//
// This file holds that exploration (the stack of graphs, one run of the model against a graph);
// graph_engine_internal.hpp lists the files that hold the rest of the engine.
#include "checker/graph/graph_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdint>
#include <limits>
#include <map>
#include <new>
#include <stdexcept>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "checker/graph/graph_engine_internal.hpp"
#include "checker/memory_model/memory_model.hpp"
#include "checker/model/runtime.hpp"

namespace oc {
namespace graph_detail {

bool GraphEngine::budget_exhausted() const {
    if (options_.max_executions != 0 && executions_ >= options_.max_executions) return true;
    if (pool_ != nullptr && pool_->stopped(unit_)) return true;  // a unit before this one failed: the search ends there
    if (stop_cause() != StopCause::None) return true;  // interrupted, or the command's deadline
    if (options_.timeout_seconds > 0) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
        if (elapsed.count() >= options_.timeout_seconds) return true;
    }
    return false;
}

std::string GraphEngine::run_too_long() const {
    const std::string limit = std::to_string(options_.max_thread_events);
    if (rt_->phase() == Phase::Quiescence)
        return "a run did not end: the work run at quiescence made " + limit +
               " events (at quiescence every read takes the final value, so a loop that needs a "
               "thread's write to end never ends)";
    return "a run did not end: thread " + variant_.thread_names[current_] + " made " + limit +
           " events (a loop with no bound? a C++ model's spin loop calls spin_yield() after each failed "
           "iteration; a litmus loop is cut at --unroll)";
}

/// A run that a loop bound cut (a litmus loop at --unroll) makes the search bounded, unless it
/// is no execution: it ended dead (no consistent continuation, or a guess that cannot close a
/// cycle), or its load-buffering guesses can be matched neither by the writes in it nor by a
/// write still to come. The writes in it match when some matching is consistent and closes a
/// po | rf cycle (one that closes none is an execution the search builds without guesses, with
/// its own cut). A write still to come is one of a thread that did not finish (of any value:
/// what a thread does past a cut is unexplored), po-after its events so far, which must leave
/// no coherence cycle (may_supply_later()); or one of a finished thread that such a write may
/// make run another way (finished_may_run_again()).
/// Otherwise every completion matches its guesses with the writes in the run, and since a
/// graph with more events is consistent only if the graph it extends is, none is consistent:
/// the run's cut is not counted.
bool GraphEngine::cut_counts(RunEnd end, bool failure_matched) {
    if (end == RunEnd::Dead) return false;
    if (guesses_ == nullptr || !has_guesses(g_) || failure_matched || guesses_matched()) return true;
    if (finished_may_run_again()) return true;
    for (std::size_t t = 1; t < g_.threads.size(); ++t)
        for (const Node& r : g_.threads[t]) {
            if (!r.guessed || !r.ev.location) continue;
            for (unsigned m = 0; m < variant_.thread_count(); ++m) {
                const std::uint16_t u = EventId::of_model_thread(m);
                if (!finished_[m] && u != t && may_supply_later(r, u)) return true;
            }
        }
    return false;
}

bool GraphEngine::finished_may_run_again() const {
    // The writes still to come are those of the threads that did not finish. With two of them,
    // one may revisit a read of the other and shrink what it keeps: no bound is worked out.
    std::optional<std::uint16_t> u;
    for (unsigned m = 0; m < variant_.thread_count(); ++m) {
        if (finished_[m]) continue;
        if (u) return true;
        u = EventId::of_model_thread(m);
    }
    if (!u) return false;
    // A write to come of u is po-after u's events, so its porf-prefix holds theirs (`kept`):
    // nothing else writes before it (a finished thread writes again only once it runs again,
    // which is what is asked). It may revisit a read outside that prefix (backward), or a
    // plain load inside it that nothing kept of its thread depends on (a cycle revisit).
    std::vector<std::uint32_t> kept(g_.threads.size(), 0);
    if (!g_.threads[*u].empty()) kept = porf_prefix(g_, EventId{*u, static_cast<std::uint32_t>(g_.threads[*u].size() - 1)});
    std::uint32_t earliest = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t t = 1; t < g_.threads.size(); ++t) {
        const auto& th = g_.threads[t];
        for (std::size_t i = 0; i < th.size(); ++i) {
            const Node& n = th[i];
            if (!n.ev.is_read() || n.guessed || n.ev.at_quiescence) continue;
            const bool cycle = cycle_revisits_ && n.ev.kind == EventKind::Read && !n.spec.present && i < 64;
            bool may = false;
            if (i >= kept[t]) {
                may = n.revisitable || cycle;
            } else if (cycle) {
                may = true;
                for (std::size_t j = i + 1; j < kept[t] && may; ++j) may = (th[j].replay >> i & 1u) == 0;
            }
            if (may) earliest = std::min(earliest, n.stamp);
        }
    }
    // Such a revisit deletes the events added after the read but the revisiting write's
    // porf-prefix, and their threads run again from there.
    for (unsigned m = 0; m < variant_.thread_count(); ++m) {
        const std::uint16_t f = EventId::of_model_thread(m);
        if (!finished_[m]) continue;
        const auto& th = g_.threads[f];
        for (std::size_t i = kept[f]; i < th.size(); ++i)
            if (th[i].stamp >= earliest || th[i].write_stamp() >= earliest) return true;
    }
    return false;
}

bool GraphEngine::may_supply_later(const Node& r, std::uint16_t u) const {
    // w, the write still to come, is po-after every event of u: each of u's writes of the
    // location is co-before w, and so is what each of u's reads of it read (coherence).
    const LocationId x = *r.ev.location;
    const auto pos = [&](EventId w) { return g_.co_position(x, w); };
    // How far up co w must stay below: an RMW's guess is matched by its co-predecessor, so w is
    // co-before the RMW's own write; a read's, by a write co-before every write its thread makes
    // to the location po-after it (rf ; po-loc is in co).
    std::size_t limit = g_.co[x].size();
    if (r.ev.kind == EventKind::Rmw) {
        limit = pos(r.ev.id);
    } else {
        const auto& th = g_.threads[r.ev.id.thread];
        for (std::size_t j = r.ev.id.index + 1; j < th.size(); ++j)
            if (th[j].ev.is_write() && th[j].ev.location == x) limit = std::min(limit, pos(th[j].ev.id));
    }
    for (const Node& e : g_.threads[u]) {
        if (e.ev.location != x) continue;
        if (e.ev.is_write() && pos(e.ev.id) >= limit) return false;
        if (e.ev.is_read() && !e.guessed && e.ev.reads_from && pos(*e.ev.reads_from) >= limit) return false;
    }
    return true;
}

GraphEngine::RunEnd GraphEngine::run_once(FinalState& fs, std::string& detail, std::optional<EngineFailure>& failure) {
    ++runs_;
    if (!g_.checked && !g_.threads.empty() && g_.threads.size() > 1 && !consistent(g_)) return RunEnd::Dead;
    g_.checked = false;  // the run changes it
    Runtime& rt = *rt_;
    rt.begin_execution(variant_.thread_names);
    recorded_count_.assign(variant_.thread_count() + 1, 0);
    blocked_reads_.clear();
    finished_.assign(variant_.thread_count(), false);
    alignas(std::max_align_t) thread_local unsigned char storage[model_storage_size];  // per thread: a search may run on several
    current_ = 0;
    ModelInstance* instance = variant_.construct(storage);
    struct Destroy {
        ModelInstance* i;
        ~Destroy() { i->~ModelInstance(); }
    } destroy{instance};
    if (g_.threads.size() < variant_.thread_count() + 1) g_.threads.resize(variant_.thread_count() + 1);
    std::vector<std::pair<unsigned, std::uint32_t>> blocked;  // thread, where its failed iteration began
    try {
        rt.set_phase(Phase::Threads);
        for (unsigned t = 0; t < variant_.thread_count(); ++t) {
            current_ = t;
            rt.set_running(t);
            const std::uint16_t gt = EventId::of_model_thread(t);
            try {
                instance->run_thread(t);
                finished_[t] = true;
                // A guess that cannot close a cycle ends the run, unless a later graph may run
                // the thread another way (path_fixed(); LB+guess+mb-on-revisited-path). Testing
                // the text's claims, a guess it says is ordered is judged anyway
                // (guess_can_close_a_cycle() throws on a wrong one).
                if (guesses_ != nullptr) {
                    if (path_fixed(gt)) {
                        if (!guess_can_close_a_cycle(gt)) return RunEnd::Dead;
                    } else if (options_.guess_ordered_reads) {
                        (void)guess_can_close_a_cycle(gt);
                    }
                }
            } catch (const Blocked&) {
                blocked.emplace_back(t, rt.iteration_start(gt));
                for (std::uint32_t i = rt.iteration_start(gt); i < g_.threads[gt].size(); ++i)
                    if (g_.threads[gt][i].ev.is_read()) blocked_reads_.push_back(EventId{gt, i});
            }
            if (recorded_count_.size() <= gt || recorded_count_[gt] != g_.threads[gt].size())
                throw std::runtime_error("ordercheck: the model is not deterministic: on replay, thread " +
                                         variant_.thread_names[t] + " of " + variant_.id() +
                                         " made fewer events than the graph it replays");
        }
    } catch (const DeadBranch&) {
        return RunEnd::Dead;
    } catch (const ModelFailed&) {
        failure = EngineFailure::AssertFailed;
        detail = "assertion failed: " + rt.failure_message();
        return RunEnd::Failed;
    }
    if (!names_ready_) {
        for (const auto& o : rt.observables()) observable_names_.emplace_back(o.name);
        for (const auto& m : rt.metrics()) metric_names_.emplace_back(m.name);
        names_ready_ = true;
    }
    if (!blocked.empty()) {
        // A blocked thread whose failed read took the co-latest write would spin forever: every
        // other thread has finished or waits too, so nothing can write what it waits for.
        // Every waiting thread whose failed iteration read the co-latest write of everything it
        // read would wait forever; when all of them do, nothing can change what any waits for
        // (the other threads have finished): a livelock. A thread that read an older value waits
        // only in this graph: the graph in which it reads the newer one is visited elsewhere.
        std::string first;
        for (const auto& [t, start] : blocked) {
            const auto& th = g_.threads[EventId::of_model_thread(t)];
            bool forever = false;
            const Node* last_read = nullptr;
            for (std::size_t i = start; i < th.size(); ++i) {
                const Node& n = th[i];
                if (!n.ev.is_read()) continue;
                const auto& co = g_.co[*n.ev.location];
                EventId latest = co.back();
                if (latest == n.ev.id && co.size() > 1) latest = co[co.size() - 2];
                forever = *n.ev.reads_from == latest;
                last_read = &n;
                if (!forever) break;
            }
            if (!forever) return RunEnd::Blocked;
            if (first.empty())
                first = "livelock: thread " + variant_.thread_names[t] + " waits forever on " +
                        rt.graph().location_name(*last_read->ev.location) +
                        " (its spin iteration read the last writes, which no thread can change) at " +
                        last_read->ev.where.file + ":" + std::to_string(last_read->ev.where.line);
        }
        failure = EngineFailure::Livelock;
        detail = first;
        return RunEnd::Failed;
    }
    // Quiescence writes are never read by the threads: a guess that the threads' writes cannot
    // supply is no execution, and what quiescence would do with its value is not run (it could
    // spin forever on a value no execution has).
    if (guesses_ != nullptr && has_guesses(g_) && !guesses_matched()) return RunEnd::Dead;
    try {
        rt.run_quiescence_hooks();
    } catch (const ModelFailed&) {
        failure = EngineFailure::AssertFailed;
        detail = "assertion failed: " + rt.failure_message();
        return RunEnd::Failed;
    } catch (const Blocked&) {
        throw std::runtime_error("ordercheck: a spin loop at quiescence cannot wait for anything");
    }
    if (has_plain_ && options_.race_ends_execution) {
        to_execution_graph(g_, scratch_, false);
        if (const auto race = model_.race(scratch_)) {
            failure = EngineFailure::DataRace;
            const Event& a = scratch_.event(race->first);
            const Event& b = scratch_.event(race->second);
            detail = "data race on " + rt.graph().location_name(*a.location) + ": " + to_string(scratch_, a.id) + " at " +
                     a.where.file + ":" + std::to_string(a.where.line) + " and " + to_string(scratch_, b.id) + " at " +
                     b.where.file + ":" + std::to_string(b.where.line) +
                     (kernel_events_ ? " are not ordered as LKMM requires of plain accesses (its data-race flag)"
                                     : " are not ordered by happens-before");
            return RunEnd::Failed;
        }
    }
    rt.set_phase(Phase::Final);
    fs.bad_outcome = instance->bad_outcome();
    fs.filtered_out = instance->filtered_out();
    fs.observables.clear();
    for (const auto& o : rt.observables()) fs.observables.push_back(o.read(o.self));
    fs.metrics.clear();
    for (const auto& m : rt.metrics()) fs.metrics.push_back(*m.value);
    fs.spin_failures = 0;
    return RunEnd::Complete;
}

ExploreResult GraphEngine::run() {
    start_ = std::chrono::steady_clock::now();
    auto last_progress = start_;
    ExploreResult result;
    result.engine = EngineKind::Graph;
    result.model = options_.model;
    result.shard_index = options_.shard_index;
    result.shard_count = options_.shard_count;
    stack_.push_back(std::move(start_graph_));
    // Sharding: visit graphs breadth-first until the frontier is wide enough, then each shard
    // keeps every shard_count-th graph of it. What the frontier visits counts in shard 0.
    bool frontier = options_.shard_count > 1;
    std::size_t fifo_next = 0;
    const std::size_t frontier_width = 16u * options_.shard_count;
    FinalState fs;
    while (true) {
        if (frontier) {
            if (fifo_next == stack_.size() || stack_.size() - fifo_next >= frontier_width) {
                std::vector<Graph> mine;
                for (std::size_t i = fifo_next; i < stack_.size(); ++i)
                    if ((i - fifo_next) % options_.shard_count == options_.shard_index) mine.push_back(std::move(stack_[i]));
                result.prefixes = stack_.size() - fifo_next;
                result.shard_prefixes = mine.size();
                stack_ = std::move(mine);
                std::reverse(stack_.begin(), stack_.end());
                frontier = false;
                continue;
            }
        } else if (stack_.empty()) {
            break;
        } else if (pool_ != nullptr && stack_.size() > 1 && pool_->hungry()) {
            // A thread waits for work: it gets the graph this search would visit last, and the
            // subtree below it (WorkPool).
            pool_->give(std::move(stack_.front()), unit_, ++given_);
            stack_.erase(stack_.begin());
        }
        if (budget_exhausted()) {
            result.cut_short = true;
            break;
        }
        const bool counted = !frontier || options_.shard_index == 0;
        if (frontier) {
            g_ = std::move(stack_[fifo_next++]);
        } else {
            g_ = std::move(stack_.back());
            stack_.pop_back();
        }
        // Deferred check (defer_checks_): a graph pushed unasked is run before it is asked. The
        // graphs its run pushes sit above `base`. If the whole model holds on the graph the run
        // completes to, it holds on this one, which that graph extends (the same prefix-closure
        // every cut of the engine relies on); else this one is asked now, and if it breaks an
        // axiom its run is dropped with all it pushed, as if it had been asked at the start.
        std::optional<Graph> unasked;
        const std::size_t base = stack_.size();
        if (defer_checks_ && !frontier && !g_.checked && g_.threads.size() > 1) {
            unasked.emplace(g_);
            g_.checked = true;  // run_once() does not ask it
        }
        const auto unasked_breaks_model = [&] { return unasked && !consistent(*unasked); };
        const auto drop_run = [&] {
            stack_.erase(stack_.begin() + static_cast<std::ptrdiff_t>(base), stack_.end());
            if (rt_->cut_pending()) rt_->settle_cuts(false);
        };
        std::string detail;
        std::optional<EngineFailure> failure;
        RunEnd end;
        try {
            end = run_once(fs, detail, failure);
        } catch (const SearchStopped& e) {  // inside a run: what it built so far is no execution
            result.cut_short = true;
            result.cut_detail = e.detail;
            break;
        } catch (const ModelRefusal& e) {  // the model cannot judge the program: no graph is one of its executions
            if (unasked_breaks_model()) {
                drop_run();
                continue;
            }
            result.failure = EngineFailure::Other;
            result.failure_detail = std::string("the memory model refuses the program: ") + e.what();
            to_execution_graph(g_, result.failure_graph, true);  // the graph it refused
            break;
        }
        // The whole check of the completed graph, asked here when the run was deferred (below,
        // where it is asked, its answer is reused).
        bool out_converted = false;  // out_ holds g_ without its steps
        std::optional<bool> complete_ok;  // the answer, once asked
        bool whole = false;               // the model checked out_ whole
        const auto ask_complete = [&] {
            if (complete_ok || end == RunEnd::Dead || !model_.asks_when_complete() || (guesses_ != nullptr && has_guesses(g_)))
                return;
            to_execution_graph(g_, out_, false);
            out_converted = true;
            complete_ok = model_.consistent_when_complete(out_);
            whole = model_.whole_when_complete(out_);
        };
        if (unasked) {
            ask_complete();
            if (!(complete_ok.value_or(false) && whole) && unasked_breaks_model()) {
                drop_run();
                continue;
            }
        }
        // A guess that no write matches is no execution: what it led to (a failure, a blocked
        // thread) is dropped; a complete graph is matched in complete(). A failure whose guesses
        // the writes already in the graph match consistently is real: it is reported with that
        // matching (docs/lkmm.md, "Limits": one whose supplying write is still to come is not).
        bool failure_matched = false;
        ExecutionGraph matched;
        if (guesses_ != nullptr && end == RunEnd::Failed && has_guesses(g_))
            failure_matched = !for_each_matching(matching_, [&](const ExecutionGraph& m) {
                matched = m;
                return false;
            });
        // a run of the frontier is run by every shard and counts in shard 0 only, its cuts too
        if (rt_->cut_pending()) rt_->settle_cuts(counted && cut_counts(end, failure_matched));
        if (guesses_ != nullptr && end != RunEnd::Complete && end != RunEnd::Dead && has_guesses(g_) && !failure_matched)
            end = RunEnd::Dead;
        // The axioms the model asks of a finished run only (MemoryModel::consistent_when_complete()):
        // a graph that breaks one is no execution, and no failure or wait found in it is real.
        // With guesses, for_each_matching() asks them of each matching.
        ask_complete();
        fs.model_checked = complete_ok.value_or(false) && whole;
        if (complete_ok) {
            defer_checks_ = options_.defer_checks && whole;  // while complete graphs are checked whole
            if (!*complete_ok) continue;
        }
        const auto convert_out = [&](bool steps) {  // g_ into out_, converted once
            if (!out_converted)
                to_execution_graph(g_, out_, steps);
            else if (steps)
                number_steps(g_, out_);
        };
        if (end == RunEnd::Failed && failure == EngineFailure::Livelock && !options_.livelock_ends_search) {
            // herd7's semantics (litmus tests): a run in which a thread waits forever is no
            // execution; the search goes on
            if (counted && livelocked_++ == 0) livelock_detail_ = detail;
            continue;
        }
        if (end == RunEnd::Failed) {
            if (!counted) continue;
            result.failure = failure;
            result.failure_detail = detail;
            if (failure_matched)
                result.failure_graph = std::move(matched);
            else
                to_execution_graph(g_, result.failure_graph, true);
            break;
        }
        if (!counted) continue;
        if (end == RunEnd::Blocked) ++blocked_;
        if (end == RunEnd::Complete) {
            if (guesses_ != nullptr) {
                complete(fs);
            } else if (g_.cycle_revisited || rt_->spun()) {
                // An execution may come out more than once (try_revisit()) where a revisit closed a
                // po | rf cycle on the way and the execution has one, and where it runs an await:
                // a revisit may delete a waiting read with the write it took in place, and the
                // graph in which the read still waited may build the same graph (each way to the
                // execution runs the await). Such an execution is handed on once, by its hash.
                convert_out(options_.capture);  // the sink sees the steps only when it keeps the graph
                FinalState state = fs;
                state.load_buffering = g_.cycle_revisited && porf_cyclic(out_);
                if ((!state.load_buffering && !rt_->spun()) || delivered_.insert(canonical_hash(out_)).second) {
                    ++executions_;
                    sink_(options_.capture ? out_ : ExecutionGraph{}, state);
                }
            } else {
                ++executions_;
                if (options_.capture) {
                    convert_out(true);
                    sink_(out_, fs);
                } else {
                    sink_(ExecutionGraph{}, fs);
                }
            }
        }
        if (options_.progress && (runs_ & 63u) == 0) {
            const auto now = std::chrono::steady_clock::now();
            if (std::chrono::duration<double>(now - last_progress).count() >= options_.progress_interval) {
                last_progress = now;
                ExploreProgress p;
                p.interleavings = executions_ + blocked_;
                p.executions = executions_;
                p.elapsed_seconds = std::chrono::duration<double>(now - start_).count();
                options_.progress(p);
            }
        }
    }
    result.executions = executions_;
    result.blocked = blocked_;
    result.livelocked = livelocked_;
    result.livelock_detail = livelock_detail_;
    result.thin_air = thin_air_.size();
    result.thin_air_copies = thin_air_copies_.size();
    // Explored: the complete executions visited (and a failing one); blocked ones are counted apart.
    result.interleavings = executions_ + (result.failure ? 1 : 0);
    result.completed = !result.failure && !result.cut_short;
    result.fraction = result.completed ? 1.0 : 0.0;
    result.observable_names = observable_names_;
    result.metric_names = metric_names_;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return result;
}

}  // namespace graph_detail

ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    const MemoryModel& model = options.memory_model != nullptr ? *options.memory_model
                               : options.model == ModelKind::Lkmm ? lkmm_model()
                               : options.model == ModelKind::Sc ? sc_model()
                                                                : rc11_model();
    return graph_explore(variant, options, sink, model);
}

}  // namespace oc
