// SPDX-License-Identifier: MIT
// The Relacy engine's scheduler: a tree search over Relacy's decisions with a preemption bound,
// sleep-set partial-order reduction, prefix sharding, budgets and progress reports.
// Part of relacy_engine.cpp's translation unit: included by it after <relacy/relacy.hpp> and the
// headers it needs, never elsewhere. Relacy's process-wide state and its replaced operator new make
// the Relacy engine one translation unit (docs/relacy.md): this file only splits its text.
#pragma once

namespace oc {
namespace {

/// Stops the search when a budget or the timeout is reached, or the command is stopped.
bool budget_exhausted() {
    const ExploreOptions& o = *g.options;
    if (o.max_executions != 0 && g.executions >= o.max_executions) return true;
    if (stop_cause() != StopCause::None) return true;  // interrupted, or the command's deadline
    if (o.timeout_seconds > 0) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - g.start;
        if (elapsed.count() >= o.timeout_seconds) return true;
    }
    return false;
}

/// Calls the progress sink when its interval has passed (from between two iterations).
void maybe_report_progress() {
    const ExploreOptions& o = *g.options;
    if (!o.progress || (g.iterations & 15u) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - g.last_progress).count() < o.progress_interval) return;
    g.last_progress = now;
    Host host;
    ExploreProgress p;
    p.interleavings = g.iterations;
    p.executions = g.executions;
    p.elapsed_seconds = std::chrono::duration<double>(now - g.start).count();
    p.fraction = g.fraction;
    o.progress(p);
}

[[noreturn]] void non_deterministic(std::size_t depth, unsigned count, int type, unsigned limit, int now_type) {
    std::fprintf(stderr,
                 "ordercheck: the model is not deterministic: decision %zu had %u choices of kind %d when it "
                 "was first explored and %u of kind %d on replay (static state, ::rand or addresses?)\n",
                 depth, count, type, limit, now_type);
    std::abort();
}

/// Exhaustive depth-first search over Relacy's decision tree (as rl::full_search_scheduler),
/// with, optionally:
///  - a preemption bound (as rl::context_bound_scheduler);
///  - sleep-set partial-order reduction (Full search): at each scheduling decision, a thread
///    whose next step commutes with every step run since an equivalent interleaving began is
///    asleep and is not scheduled there (Godefroid's sleep sets, over the footprints above). A
///    run in which every runnable thread is asleep is redundant: it is finished along one path
///    (Relacy cannot abandon an execution) and counted as such;
///  - prefix sharding: the decisions before the k-th scheduling decision form a prefix; a first
///    pass enumerates the prefixes (with the same sleep sets), then the shard explores the
///    subtrees of its prefixes (every shard_count-th), starting from the sleep set the
///    unsharded search would have there. Together the shards run exactly the unsharded search;
///  - budgets, and a mixed-radix estimate of the fraction done for progress reports.
template <rl::thread_id_t N>
class Explorer : public rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N> {
public:
    using base_t = rl::tree_search_scheduler<Explorer<N>, rl::context_bound_scheduler_thread_info<N>, N>;
    using thread_info_t = typename base_t::thread_info_t;
    using shared_context_t = typename base_t::shared_context_t;
    using node_t = typename base_t::stree_node;

    Explorer(rl::test_params& params, shared_context_t& ctx, rl::thread_id_t dynamic_thread_count)
        : base_t(params, ctx, dynamic_thread_count) {
        reduction_ = g.reduction;
        if (g.shard_count > 1) {
            mode_ = Mode::Enumerate;
            g.enumerating = true;
        }
    }

    // ---- the CRTP hooks context_impl and the bases call ----

    rl::thread_id_t iteration_begin_impl() {
        switches_remain_ = bounded() ? g.options->context_bound : 0;
        this->stree_depth_ = 0;
        sleep_ = SleepSet{};
        blocked_ = false;
        sched_decisions_ = 0;
        beyond_prefix_ = false;
        prefix_applied_ = false;
        chosen_node_ = npos;
        step_node_ = npos;
        g.steps.reset();
        // tree_search_scheduler::iteration_begin_impl would call its own rand_impl (unqualified
        // call in a base: docs/relacy.md, "A scheduler of one's own"), bypassing ours.
        const unsigned index = rand_impl(this->running_threads_count, rl::sched_type_sched);
        const rl::thread_id_t th = this->running_threads[index];
        begin_step(th);
        return th;
    }

    rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned yield) {
        end_step(yield != 0);
        chosen_node_ = npos;
        const rl::thread_id_t th = base_t::schedule_impl(reason, yield);
        begin_step(th);
        return th;
    }

    unsigned rand_impl(unsigned limit, rl::sched_type type) {
        const bool sched = type == rl::sched_type_sched;
        // A decision inside a step that is neither a thread choice nor a stale-read choice
        // (memory reuse, spurious failures, user choices): not classified, so not commuted.
        if (!sched && type != rl::sched_type_atomic_load) g.steps.step.everything = true;
        if (mode_ == Mode::Enumerate) {
            if (beyond_prefix_) return 0;  // below the prefix: any path, not recorded
            if (sched && sched_decisions_ == prefix_depth_) {
                beyond_prefix_ = true;
                deeper_ = true;
                boundary_sleep_ = sleep_;
                boundary_blocked_ = blocked_;
                return 0;
            }
        }
        const std::size_t d = this->stree_depth_;
        if (mode_ == Mode::Prefixes && d == frozen_ && !prefix_applied_) apply_prefix();
        this->stree_depth_ = d + 1;
        if (sched) ++sched_decisions_;
        return d < this->stree_.size() ? replay(d, limit, type) : fresh(d, limit, type);
    }

    bool iteration_end_impl() {
        end_step(false);
        if (mode_ == Mode::Prefixes && !prefix_applied_) apply_prefix();
        if (mode_ == Mode::Enumerate) return end_enumeration_iteration();
        ++g.iterations;
        if (blocked_) ++g.redundant;
        bool more = backtrack(frozen_);
        if (!more && mode_ == Mode::Prefixes) more = next_prefix();
        g.fraction = fraction_done();
        maybe_report_progress();
        if (more && budget_exhausted()) {
            g.cut_short = true;
            return true;
        }
        return !more;
    }

    bool can_switch(thread_info_t&) { return !bounded() || switches_remain_ != 0; }
    void on_switch(thread_info_t& t) {
        if (bounded() && t.state_ == rl::thread_state_running && switches_remain_ != 0) --switches_remain_;
    }
    double iteration_count_approx() { return 1.0; }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    enum class Mode : std::uint8_t { Search, Enumerate, Prefixes };

    /// What the search keeps per decision, parallel to stree_.
    struct NodeMeta {
        bool tracked = false;  ///< a thread choice under the reduction (not a frozen prefix node)
        std::array<rl::thread_id_t, relacy_max_threads> run{};  ///< choice index -> thread
        SleepSet sleep;        ///< asleep on entry
        SleepSet explored;     ///< children done, with the union of their first steps' footprints
        Footprint child;       ///< union of the current child's first-step footprints so far
    };
    struct Prefix {
        typename rl::vector<node_t>::type nodes;
        SleepSet sleep;        ///< the sleep set where the prefix ends
        bool blocked = false;  ///< every runnable thread was asleep within the prefix
    };

    static bool bounded() { return g.options->search == SearchKind::Bound; }

    void begin_step(rl::thread_id_t th) {
        // A thread run because it was the only runnable one (no decision): if it sleeps, every
        // runnable thread sleeps, and the run is redundant from here on.
        if (reduction_ && !blocked_ && chosen_node_ == npos && sleep_.contains(th)) blocked_ = true;
        step_node_ = chosen_node_;
        g.steps.step = g.steps.pending[th];
    }

    void end_step(bool yielded) {
        Footprint& s = g.steps.step;
        if (yielded) s.everything = true;
        if (reduction_ && !blocked_) {
            if (step_node_ != npos) meta_[step_node_].child.add(s);
            sleep_.wake_dependent(s);
        }
        s = Footprint{};
        step_node_ = npos;
    }

    int first_awake(const NodeMeta& m, unsigned from, unsigned count) const {
        for (unsigned j = from; j < count; ++j)
            if (!m.sleep.contains(m.run[j])) return static_cast<int>(j);
        return -1;
    }

    unsigned replay(std::size_t d, unsigned limit, rl::sched_type type) {
        const node_t& n = this->stree_[d];
        if (n.count_ != limit || n.type_ != type) non_deterministic(d, n.count_, n.type_, limit, type);
        const NodeMeta& m = meta_[d];
        if (m.tracked && !blocked_) {
            sleep_ = m.sleep;
            sleep_.merge(m.explored);
            chosen_node_ = d;
        }
        return n.index_;
    }

    unsigned fresh(std::size_t d, unsigned limit, rl::sched_type type) {
        NodeMeta m;
        unsigned index = blocked_ ? limit - 1 : 0;  // blocked: an exhausted node, never revisited
        if (type == rl::sched_type_sched && reduction_ && !blocked_) {
            m.tracked = true;
            for (unsigned j = 0; j < limit && j < relacy_max_threads; ++j) m.run[j] = this->running_threads[j];
            m.sleep = sleep_;
            const int first = first_awake(m, 0, limit);
            if (first < 0) {
                blocked_ = true;
                m.tracked = false;
                index = limit - 1;
            } else {
                index = static_cast<unsigned>(first);
                chosen_node_ = d;
            }
        }
        node_t n = {limit, index, type, 0};
        this->stree_.push_back(n);
        meta_.push_back(m);
        return index;
    }

    /// Moves to the next unexplored leaf above depth `floor`; false when there is none.
    bool backtrack(std::size_t floor) {
        for (std::size_t i = this->stree_.size(); i > floor; --i) {
            node_t& n = this->stree_[i - 1];
            NodeMeta& m = meta_[i - 1];
            int next = -1;
            if (m.tracked) {
                next = first_awake(m, n.index_ + 1, n.count_);
                if (next >= 0) {
                    m.explored.insert(m.run[n.index_], m.child);
                    m.child = Footprint{};
                }
            } else if (n.index_ + 1 < n.count_) {
                next = static_cast<int>(n.index_ + 1);
            }
            if (next >= 0) {
                n.index_ = static_cast<unsigned>(next);
                this->stree_.resize(i);
                meta_.resize(i);
                return true;
            }
        }
        return false;
    }

    /// Mixed-radix position of the next leaf: a monotone estimate of the fraction done.
    double fraction_done() const {
        double f = 0, w = 1;
        for (std::size_t i = frozen_; i < this->stree_.size(); ++i) {
            w /= this->stree_[i].count_;
            f += this->stree_[i].index_ * w;
        }
        if (mode_ != Mode::Prefixes) return f;
        if (mine_.empty()) return 1;
        return (static_cast<double>(next_mine_ - 1) + f) / static_cast<double>(mine_.size());
    }

    // ---- sharding ----

    bool end_enumeration_iteration() {
        ++g.enumeration_iterations;
        Prefix p;
        p.nodes.assign(this->stree_.begin(), this->stree_.end());
        p.sleep = beyond_prefix_ ? boundary_sleep_ : SleepSet{};
        p.blocked = beyond_prefix_ ? boundary_blocked_ : blocked_;
        prefixes_.push_back(p);
        if (backtrack(0)) return false;
        // Enough prefixes for a fair split? Otherwise enumerate one decision deeper.
        const std::size_t wanted = 16u * g.shard_count;
        if (prefixes_.size() < wanted && deeper_ && prefix_depth_ < max_prefix_depth) {
            ++prefix_depth_;
            deeper_ = false;
            prefixes_.clear();
            this->stree_.clear();
            meta_.clear();
            return false;
        }
        g.enumerating = false;
        g.prefixes = prefixes_.size();
        g.prefix_depth = prefix_depth_;
        for (std::size_t i = g.shard_index; i < prefixes_.size(); i += g.shard_count) mine_.push_back(i);
        g.shard_prefixes = mine_.size();
        mode_ = Mode::Prefixes;
        return !next_prefix();
    }

    bool next_prefix() {
        if (next_mine_ == mine_.size()) return false;
        const Prefix& p = prefixes_[mine_[next_mine_++]];
        this->stree_.assign(p.nodes.begin(), p.nodes.end());
        meta_.assign(p.nodes.size(), NodeMeta{});
        frozen_ = p.nodes.size();
        current_ = &p;
        return true;
    }

    /// At the end of the frozen prefix: continue as the unsharded search would.
    void apply_prefix() {
        prefix_applied_ = true;
        sleep_ = current_->sleep;
        blocked_ = blocked_ || current_->blocked;
    }

    bool reduction_ = false;
    Mode mode_ = Mode::Search;
    unsigned switches_remain_ = 0;
    std::vector<NodeMeta, rl::raw_allocator<NodeMeta>> meta_;
    SleepSet sleep_;                   ///< asleep now
    bool blocked_ = false;             ///< every runnable thread was asleep: a redundant run
    std::size_t chosen_node_ = npos;   ///< the tracked decision that chose the next step's thread
    std::size_t step_node_ = npos;     ///< the tracked decision that started the running step
    unsigned sched_decisions_ = 0;     ///< thread choices recorded in this iteration

    // sharding
    static constexpr unsigned max_prefix_depth = 64;
    unsigned prefix_depth_ = 1;        ///< thread choices per prefix
    bool deeper_ = false;              ///< some path of this pass went past the prefix depth
    bool beyond_prefix_ = false;
    SleepSet boundary_sleep_;
    bool boundary_blocked_ = false;
    std::vector<Prefix, rl::raw_allocator<Prefix>> prefixes_;
    std::vector<std::size_t, rl::raw_allocator<std::size_t>> mine_;
    std::size_t next_mine_ = 0;
    std::size_t frozen_ = 0;           ///< stree_ nodes fixed by the current prefix
    const Prefix* current_ = nullptr;
    bool prefix_applied_ = false;
};

}  // namespace
}  // namespace oc
