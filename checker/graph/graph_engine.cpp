// SPDX-License-Identifier: MIT
// The execution-graph engine. It explores the execution graphs of a variant, not its
// interleavings, and visits every complete graph the memory model allows exactly once. The
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

#include "checker/memory_model/memory_model.hpp"
#include "checker/model/runtime.hpp"

namespace oc {
namespace {

// ---- the graph the engine explores ---------------------------------------------------------

/// How an RMW or CAS call computes its write part, so that a revisit can change what it read.
struct RmwSpec {
    bool present = false;  ///< the event comes from Engine::rmw() or Engine::cas()
    bool cas = false;
    RmwOp op = RmwOp::Exchange;
    Value operand = 0;  ///< rmw: new = old OP operand
    Value expected = 0, desired = 0;
    MemoryOrder success = MemoryOrder::Relaxed, failure = MemoryOrder::Relaxed;
};

Value apply(RmwOp op, Value old, Value operand) {
    switch (op) {
    case RmwOp::Exchange: return operand;
    case RmwOp::Add: return old + operand;
    case RmwOp::Sub: return old - operand;
    case RmwOp::And: return old & operand;
    case RmwOp::Or: return old | operand;
    case RmwOp::Xor: return old ^ operand;
    }
    return operand;
}

/// One event with the engine's bookkeeping. An RMW has a read part and a write part, each with
/// its own stamp (the order in which the engine added it), as if they were two events.
struct Node {
    Event ev;
    std::uint32_t stamp = 0;   ///< the event, or an RMW's read part
    std::uint32_t wstamp = 0;  ///< an RMW's write part
    bool rmax = true;          ///< read part: it read the co-latest write when it got its rf
    bool wmax = true;          ///< write part: it was placed co-last when added
    /// An RMW or successful-CAS call whose write part is not in the graph yet (its read was
    /// revisited): ev.kind is Read until the replay adds the write part.
    bool pending = false;
    /// False once a backward revisit kept this read in the revisiting write's porf-prefix: the
    /// graph it is in was built by that revisit, and revisiting the read again would build some
    /// graphs twice (GenMC's "stable" reads).
    bool revisitable = true;
    /// Load buffering (LKMM): the read took a guessed value that a write not yet in the graph
    /// may write; ev.reads_from holds a placeholder (the initial write) that the memory model
    /// never sees. Matched with a real write when the execution completes (complete_guessed()).
    bool guessed = false;
    RmwSpec spec;
    std::uint32_t write_stamp() const { return ev.kind == EventKind::Rmw ? wstamp : stamp; }
};

struct Graph {
    std::vector<std::vector<Node>> threads{1};  ///< graph threads: 0 init, t+1 model thread t
    std::vector<std::vector<EventId>> co;       ///< per location, the writes in coherence order
    std::uint32_t next_stamp = 1;

    Node& at(EventId id) { return threads[id.thread][id.index]; }
    const Node& at(EventId id) const { return threads[id.thread][id.index]; }
    bool has(EventId id) const { return id.thread < threads.size() && id.index < threads[id.thread].size(); }
    std::size_t co_position(LocationId loc, EventId w) const {
        const auto& c = co[loc];
        return static_cast<std::size_t>(std::find(c.begin(), c.end(), w) - c.begin());
    }
};

// ---- control flow out of model code ---------------------------------------------------------

struct Blocked {};     ///< the running thread failed a spin iteration: it waits in this graph
struct DeadBranch {};  ///< no consistent continuation: the graph being extended is abandoned
struct ModelFailed {}; ///< require() failed

// ---- the engine -----------------------------------------------------------------------------

constexpr std::size_t model_storage_size = 64 * 1024;

/// What a read may guess under load buffering (learnt by exploring, see graph_explore()): the
/// values each thread writes to each location, and which threads' writes reach which threads
/// through rf. A guess by thread t of a value only a write porf-after the read can supply needs
/// a write of that value in a thread t's writes reach: otherwise the write is not porf-after the
/// read, and the exploration without guesses (revisits) builds the execution already. Finer
/// than that: a thread guesses a write's value only if one of its events is porf-before a write
/// of that thread, location and value in some execution (or it reaches a thread that has one).
/// Writes at quiescence are never guessed: a read of the threads never reads them (quiescence
/// comes after every thread), with or without load buffering.
struct Guesses {
    /// per location: (graph thread, value) -> the threads (bit mask) that reach such a write
    std::vector<std::map<std::pair<std::uint16_t, Value>, std::uint32_t>> writes;
    std::vector<std::vector<bool>> reach;  ///< [t][u]: a write of t reaches u through rf and po, transitively
    bool operator==(const Guesses&) const = default;
};

class GraphEngine final : public Engine {
public:
    /// `guesses`: per location, the values a read may guess (load buffering); nullptr: none.
    GraphEngine(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                const MemoryModel& model, const Guesses* guesses = nullptr)
        : variant_(variant), options_(options), sink_(sink), model_(model), kernel_events_(model.kernel_events()),
          guesses_(guesses) {}

    void attach(Runtime& rt) { rt_ = &rt; }
    ExploreResult run();

    // ---- Engine ----
    void create_atomic(LocationId loc, Tagged init) override { init_write(loc, init, MemoryOrder::Relaxed); }
    void create_plain(LocationId loc, Tagged init) override {
        has_plain_ = true;
        init_write(loc, init, MemoryOrder::NonAtomic);
    }
    Tagged load(LocationId loc, MemoryOrder order) override { return read(loc, order); }
    void store(LocationId loc, Tagged v, MemoryOrder order) override { write(loc, v.value, order); }
    Tagged rmw(LocationId loc, RmwOp op, Tagged operand, MemoryOrder order) override {
        RmwSpec spec;
        spec.present = true;
        spec.op = op;
        spec.operand = operand.value;
        spec.success = spec.failure = order;
        return update(loc, spec).first;
    }
    bool cas(LocationId loc, Tagged& expected, Tagged desired, MemoryOrder success, MemoryOrder failure) override {
        RmwSpec spec;
        spec.present = true;
        spec.cas = true;
        spec.expected = expected.value;
        spec.desired = desired.value;
        spec.success = success;
        spec.failure = failure;
        const auto [old, ok] = update(loc, spec);
        expected = old;
        return ok;
    }
    void fence(MemoryOrder order) override;
    void located_fence(LocationId loc, MemoryOrder order) override;
    Tagged plain_read(LocationId loc) override { return read(loc, MemoryOrder::NonAtomic); }
    void plain_write(LocationId loc, Tagged v) override { write(loc, v.value, MemoryOrder::NonAtomic); }
    void yield() override { throw Blocked{}; }
    [[noreturn]] void fail(const char*) override { throw ModelFailed{}; }
    unsigned current_thread() override {
        return rt_->phase() == Phase::Quiescence ? rt_->quiescence_model_thread() : current_;
    }
    void enter_host() override {}
    void leave_host() override {}
    void recorded(const Event& e) override;
    bool blocks_failed_spins() const override { return true; }

private:
    // building blocks
    void init_write(LocationId loc, Tagged init, MemoryOrder order);
    Tagged read(LocationId loc, MemoryOrder order);
    void write(LocationId loc, Value v, MemoryOrder order);
    std::pair<Tagged, bool> update(LocationId loc, const RmwSpec& spec);
    /// The replayed node at `id`, checked against what the model asks for now.
    Node& replayed(EventId id, const char* what, LocationId loc);
    bool replaying(EventId id) const { return g_.has(id); }
    bool at_quiescence() const { return rt_->phase() == Phase::Quiescence; }
    Tagged tagged(EventId w) const { return Tagged{g_.at(w).ev.written_value, pack(w)}; }
    Tagged co_max(LocationId loc) const { return tagged(g_.co[loc].back()); }
    Node new_node(EventId id, EventKind kind, MemoryOrder order, std::optional<LocationId> loc) {
        Node n;
        n.ev.id = id;
        n.ev.kind = kind;
        n.ev.order = order;
        n.ev.location = loc;
        n.stamp = g_.next_stamp++;
        // the primitive, dependencies and extra LKMM tags now: the memory model judges the
        // event before the runtime records it
        if (id.thread != EventId::init_thread) rt_->annotate_next(n.ev);
        return n;
    }
    /// Sets node `r`'s rf to `w` (of graph `g`) and, for an RMW or CAS call, its kind: a CAS
    /// that reads the expected value (or any RMW) is pending its write part.
    static void set_rf(Graph& g, Node& r, EventId w);
    /// Adds the write part of the RMW at `id` (its read part is in the graph) right after its rf
    /// source in co, and pushes the backward revisits it causes. Throws DeadBranch when the
    /// graph is then inconsistent.
    void add_write_part(EventId id);
    /// Sets the write part of the RMW at `id` right after its rf source in co (no revisits).
    void place_write_part(EventId id);
    void push(Graph&& g) { stack_.push_back(std::move(g)); }
    /// In-place revisits (as GenMC's IPR): every read of a waiting thread's failed spin iteration
    /// on a's location reads a instead, in the graph as it is (the waiting thread made no event
    /// since, and no event depends on a waiting read, so nothing is deleted); the thread resumes
    /// when the graph is replayed. These reads get no backward revisit: the graph in which they
    /// read a is this one, and a second way to build it would visit it twice. Keeps the graph
    /// before the change in `before`; returns true if some read now reads a.
    bool in_place_revisits(EventId a, Graph& before);
    std::vector<EventId> blocked_reads_;  ///< reads of the failed iterations of threads waiting in this run
    bool consistent(const Graph& g);
    void to_execution_graph(const Graph& g, ExecutionGraph& out, bool with_steps);
    std::vector<std::uint32_t> porf_prefix(const Graph& g, EventId a) const;
    void backward_revisits(const Graph& g, EventId a);
    void try_revisit(const Graph& g, EventId a, EventId r, const std::vector<std::uint32_t>& prefix);

    // one run of the model against g_
    enum class RunEnd { Complete, Blocked, Dead, Failed };
    RunEnd run_once(FinalState& fs, std::string& detail, std::optional<EngineFailure>& failure);
    bool budget_exhausted() const;

    const VariantDef& variant_;
    const ExploreOptions& options_;
    const ExecutionSink& sink_;
    const MemoryModel& model_;
    const bool kernel_events_;  ///< the model reads LKMM tags (computed when a graph is converted)
    const Guesses* guesses_;  ///< load buffering: values a read may guess
    /// With guesses, one execution can be built both with and without a guess: the canonical
    /// hashes of the executions handed to the sink, so that each goes once.
    std::unordered_set<std::uint64_t> delivered_;
    /// Hands the complete graph g_ to the sink: with guessed reads, once for every way of matching
    /// each guess with a write of its value that leaves the execution consistent.
    void complete(const FinalState& fs);
    /// A guessed read is needed only on a po | rf cycle, and a cycle that is consistent under
    /// LKMM leaves some read of it with a po-later write of its thread that does not depend on it
    /// (were every read-to-write link a dependency, the cycle would be in hb). Such reads are the
    /// only ones the exploration needs to guess: when thread `gt` has finished, a guessed read of
    /// it without one leads nowhere new.
    bool guess_can_close_a_cycle(std::uint16_t gt) const {
        const auto& th = g_.threads[gt];
        for (std::size_t i = 0; i < th.size(); ++i) {
            if (!th[i].guessed) continue;
            bool free_write = false;
            for (std::size_t j = i + 1; j < th.size() && !free_write && i < 64; ++j) {
                const Event& w = th[j].ev;
                const std::uint64_t deps = w.addr_deps | w.data_deps | w.ctrl_deps;
                free_write = w.is_write() && (deps >> i & 1u) == 0;
            }
            if (!free_write && i < 64) return false;
        }
        return true;
    }
    /// Calls `each` on every consistent execution that matches each guessed read of g_ with a
    /// write of its location and value (`base`: g_ as the memory model sees it), until `each`
    /// returns false; returns false then.
    bool for_each_matching(ExecutionGraph& base, const std::function<bool(const ExecutionGraph&)>& each);
    /// Some matching of the guesses of g_ is consistent.
    bool guesses_matched() {
        return !for_each_matching(matching_, [](const ExecutionGraph&) { return false; });
    }
    ExecutionGraph matching_;  ///< g_ before quiescence, for guesses_matched()
    bool has_guesses(const Graph& g) const {
        for (std::size_t t = 1; t < g.threads.size(); ++t)
            for (const Node& n : g.threads[t])
                if (n.guessed) return true;
        return false;
    }
    Runtime* rt_ = nullptr;

    Graph g_;                       ///< the graph of the running replay
    std::vector<Graph> stack_;      ///< graphs still to visit
    unsigned current_ = 0;          ///< running model thread
    std::vector<std::uint32_t> recorded_count_;  ///< events recorded per graph thread in this run
    ExecutionGraph scratch_;        ///< the memory model's view of a graph (names set once)
    ExecutionGraph out_;            ///< what the sink receives
    bool names_ready_ = false;
    bool has_plain_ = false;        ///< the model has Plain locations: check each execution for races
    std::chrono::steady_clock::time_point start_;
    std::uint64_t executions_ = 0, blocked_ = 0, runs_ = 0;
    std::vector<std::string> observable_names_, metric_names_;
};

void GraphEngine::init_write(LocationId loc, Tagged init, MemoryOrder order) {
    const EventId id = unpack(init.writer);
    if (g_.co.size() <= loc) g_.co.resize(loc + 1u);
    if (replaying(id)) {
        replayed(id, "an initial write", loc);
        return;
    }
    Node n;
    n.ev.id = id;
    n.ev.kind = EventKind::Write;
    n.ev.order = order;
    n.ev.location = loc;
    n.ev.written_value = init.value;
    n.stamp = 0;  // init writes precede everything and are never deleted
    g_.threads[0].push_back(n);
    g_.co[loc].assign(1, id);
}

Node& GraphEngine::replayed(EventId id, const char* what, LocationId loc) {
    Node& n = g_.at(id);
    if (n.ev.location != loc)
        throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() + " made " +
                                 what + " where the graph has another event (thread " +
                                 std::to_string(id.thread) + ", event " + std::to_string(id.index) + ")");
    return n;
}

Tagged GraphEngine::read(LocationId loc, MemoryOrder order) {
    if (rt_->phase() == Phase::Final) return co_max(loc);
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {
        const Node& n = replayed(id, "a read", loc);
        if (n.guessed) return Tagged{n.ev.read_value, pack(*n.ev.reads_from)};
        return tagged(*n.ev.reads_from);
    }
    g_.threads[id.thread].push_back(new_node(id, EventKind::Read, order, loc));
    if (at_quiescence()) {  // after every thread: the final value
        set_rf(g_, g_.at(id), g_.co[loc].back());
        return tagged(*g_.at(id).ev.reads_from);
    }
    // Load buffering: the read may take a value a write not in the graph yet will write. Such a
    // graph is never revisited (it came from a guess) and never deleted by a revisit (rmax false:
    // the revisit builds the same graph from the branch without the guess).
    // Not the read of a primitive that retries on the value it reads (atomic_add_unless()): its
    // retry loop is control flow that no dependency records.
    std::vector<Value> guessable;
    if (guesses_ != nullptr && loc < guesses_->writes.size() && std::strcmp(g_.at(id).ev.primitive, "atomic_add_unless") != 0)
        for (const auto& [uv, from] : guesses_->writes[loc])
            if (const auto [u, v] = uv; u != id.thread && (from >> id.thread & 1u) != 0 &&
                std::find(guessable.begin(), guessable.end(), v) == guessable.end())
                guessable.push_back(v);
    for (const Value v : guessable) {
        Graph h = g_;
        Node& r = h.at(id);
        set_rf(h, r, g_.co[loc].front());
        r.ev.read_value = v;
        r.guessed = true;
        r.rmax = false;
        r.revisitable = false;
        if (consistent(h)) push(std::move(h));
    }
    // Forward choices: every write of the location, the co-latest first.
    const std::vector<EventId> writes = g_.co[loc];
    std::optional<EventId> chosen;
    for (std::size_t i = writes.size(); i-- > 0;) {
        Node& r = g_.at(id);
        set_rf(g_, r, writes[i]);
        r.rmax = i + 1 == writes.size();
        if (!consistent(g_)) continue;
        if (!chosen) {
            chosen = writes[i];
            continue;
        }
        push(Graph(g_));
    }
    if (!chosen) throw DeadBranch{};
    Node& r = g_.at(id);
    set_rf(g_, r, *chosen);
    r.rmax = *chosen == writes.back();
    return tagged(*chosen);
}

void GraphEngine::write(LocationId loc, Value v, MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {  // recorded() checks the replayed event
        replayed(id, "a write", loc);
        return;
    }
    Node n = new_node(id, EventKind::Write, order, loc);
    n.ev.written_value = v;
    n.wstamp = n.stamp;
    g_.threads[id.thread].push_back(n);
    if (at_quiescence()) {
        g_.co[loc].push_back(id);
        return;
    }
    // Co placements: after each write already in co, the co-latest first; each one also yields
    // its backward revisits.
    const std::size_t count = g_.co[loc].size();
    std::optional<std::size_t> chosen;
    for (std::size_t p = count; p >= 1; --p) {
        g_.co[loc].insert(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(p), id);
        g_.at(id).wmax = p == count;
        const bool ok = consistent(g_);
        Graph before_ipr;
        const bool ipr = ok && in_place_revisits(id, before_ipr);
        backward_revisits(g_, id);
        if (ok) {
            if (ipr || chosen)
                push(Graph(g_));  // with a waiting thread revisited in place: it resumes there
            else
                chosen = p;
        }
        if (ipr) g_ = std::move(before_ipr);
        g_.co[loc].erase(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(p));
    }
    if (!chosen) throw DeadBranch{};
    g_.co[loc].insert(g_.co[loc].begin() + static_cast<std::ptrdiff_t>(*chosen), id);
    g_.at(id).wmax = *chosen == count;
}

void GraphEngine::set_rf(Graph& g, Node& r, EventId w) {
    const Value v = g.at(w).ev.written_value;
    r.ev.reads_from = w;
    r.ev.read_value = v;
    r.guessed = false;
    if (!r.spec.present) return;
    // The write part is added later (by the replay, or right away by update()).
    r.ev.kind = EventKind::Read;
    r.ev.written_value = 0;
    if (r.spec.cas && v != r.spec.expected) {
        r.pending = false;
        r.ev.order = r.spec.failure;
    } else {
        r.pending = true;
        r.ev.order = r.spec.success;
    }
}

void GraphEngine::place_write_part(EventId id) {
    Node& u = g_.at(id);
    const LocationId loc = *u.ev.location;
    u.ev.kind = EventKind::Rmw;
    u.ev.written_value = u.spec.cas ? u.spec.desired : apply(u.spec.op, u.ev.read_value, u.spec.operand);
    u.pending = false;
    u.wstamp = g_.next_stamp++;
    u.wmax = true;
    auto& co = g_.co[loc];
    const std::size_t p = g_.co_position(loc, *u.ev.reads_from);
    co.insert(co.begin() + static_cast<std::ptrdiff_t>(p + 1), id);
}

void GraphEngine::add_write_part(EventId id) {
    place_write_part(id);
    if (at_quiescence()) return;
    const bool ok = consistent(g_);
    Graph before_ipr;
    const bool ipr = ok && in_place_revisits(id, before_ipr);
    backward_revisits(g_, id);
    if (ipr) {  // a waiting thread resumes in the pushed graph; this run's version is superseded
        push(Graph(g_));
        throw DeadBranch{};
    }
    if (!ok) throw DeadBranch{};
}

bool GraphEngine::in_place_revisits(EventId a, Graph& before) {
    const LocationId loc = *g_.at(a).ev.location;
    bool changed = false;
    for (EventId rid : blocked_reads_) {
        if (!g_.has(rid) || rid == a) continue;
        if (!g_.at(rid).ev.is_read() || g_.at(rid).ev.location != loc || g_.at(rid).ev.reads_from == a) continue;
        if (!changed) before = g_;
        const Node saved = g_.at(rid);
        set_rf(g_, g_.at(rid), a);
        g_.at(rid).rmax = true;
        if (consistent(g_))
            changed = true;
        else
            g_.at(rid) = saved;
    }
    return changed;
}

std::pair<Tagged, bool> GraphEngine::update(LocationId loc, const RmwSpec& spec) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) {
        Node& n = replayed(id, "an RMW", loc);
        if (!n.spec.present || n.spec.cas != spec.cas)
            throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() +
                                     " made an RMW where the graph has another kind of event");
        n.spec = spec;
        if (n.pending) add_write_part(id);
        const Node& m = g_.at(id);
        return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
    }
    Node n = new_node(id, EventKind::Read, spec.success, loc);
    n.spec = spec;
    g_.threads[id.thread].push_back(n);
    if (at_quiescence()) {
        set_rf(g_, g_.at(id), g_.co[loc].back());
        if (g_.at(id).pending) add_write_part(id);
        const Node& m = g_.at(id);
        return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
    }
    // Forward choices over every write of the location; a successful RMW sits right after the
    // write it reads from, and every choice also yields the backward revisits of its write.
    const std::vector<EventId> writes = g_.co[loc];
    std::optional<EventId> chosen;
    const Graph before = g_;
    const EventId latest = g_.co[loc].back();
    for (std::size_t i = writes.size(); i-- > 0;) {
        g_ = before;
        Node& r = g_.at(id);
        set_rf(g_, r, writes[i]);
        r.rmax = writes[i] == latest;
        if (r.pending) {
            try {
                add_write_part(id);
            } catch (const DeadBranch&) {
                continue;
            }
        } else if (!consistent(g_)) {
            continue;
        }
        if (!chosen) {
            chosen = writes[i];
            continue;
        }
        push(Graph(g_));
    }
    if (!chosen) throw DeadBranch{};
    g_ = before;
    Node& r = g_.at(id);
    set_rf(g_, r, *chosen);
    r.rmax = *chosen == latest;
    // The chosen write part's revisits were pushed in the loop: place it without them.
    if (r.pending) place_write_part(id);
    const Node& m = g_.at(id);
    return {tagged(*m.ev.reads_from), m.ev.kind == EventKind::Rmw};
}

void GraphEngine::fence(MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) return;  // recorded() checks the replayed event
    g_.threads[id.thread].push_back(new_node(id, EventKind::Fence, order, std::nullopt));
    if (!at_quiescence() && !consistent(g_)) throw DeadBranch{};
}

void GraphEngine::located_fence(LocationId loc, MemoryOrder order) {
    const EventId id = rt_->next_event_id();
    if (replaying(id)) return;
    g_.threads[id.thread].push_back(new_node(id, EventKind::Fence, order, loc));
    if (!at_quiescence() && !consistent(g_)) throw DeadBranch{};
}

void GraphEngine::recorded(const Event& e) {
    if (e.id.thread >= recorded_count_.size()) recorded_count_.resize(e.id.thread + 1u, 0);
    ++recorded_count_[e.id.thread];
    if (!g_.has(e.id)) throw std::logic_error("ordercheck: graph engine: the runtime recorded an event the engine did not add");
    Node& n = g_.at(e.id);
    if (n.ev.kind != e.kind || n.ev.location != e.location || n.ev.order != e.order ||
        (e.is_write() && n.ev.written_value != e.written_value))
        throw std::runtime_error("ordercheck: the model is not deterministic: on replay, " + variant_.id() +
                                 " recorded " + std::string(short_name(e.kind)) + " at " + e.where.file + ":" +
                                 std::to_string(e.where.line) + " where the graph has another event");
    n.ev.where = e.where;
    if (e.is_fence()) n.ev.written_value = e.written_value;  // an SRCU event's index
    n.ev.primitive = e.primitive;
    n.ev.weakened_from = e.weakened_from;
    n.ev.op = e.op;
    n.ev.at_quiescence = e.at_quiescence;
}

bool GraphEngine::consistent(const Graph& g) {
    to_execution_graph(g, scratch_, false);
    return model_.consistent(scratch_);
}

void GraphEngine::to_execution_graph(const Graph& g, ExecutionGraph& out, bool with_steps) {
    if (out.thread_count() != variant_.thread_count() + 1) out.set_thread_names(variant_.thread_names);
    const ExecutionGraph& names = rt_->graph();
    out.set_tag_namer(names.tag_namer());
    while (out.location_count() < g.co.size()) {
        const auto l = static_cast<LocationId>(out.location_count());
        out.add_location(l < names.location_count() ? names.location_name(l) : "loc" + std::to_string(l));
    }
    out.clear_events();
    std::vector<std::uint32_t> step;
    if (with_steps) {
        // An order of the events in which po and rf point forward, the earliest-added first:
        // the interleaving diagram draws it.
        std::vector<std::size_t> next(g.threads.size(), 0);
        std::vector<std::vector<std::uint32_t>> steps(g.threads.size());
        for (std::size_t t = 0; t < g.threads.size(); ++t) steps[t].assign(g.threads[t].size(), 0);
        std::size_t left = 0;
        for (const auto& t : g.threads) left += t.size();
        std::uint32_t s = 0;
        for (std::size_t i = 0; i < g.threads[0].size(); ++i) steps[0][i] = 0;
        left -= g.threads[0].size();
        next[0] = g.threads[0].size();
        std::vector<std::vector<bool>> done(g.threads.size());
        for (std::size_t t = 0; t < g.threads.size(); ++t) done[t].assign(g.threads[t].size(), t == 0);
        while (left > 0) {
            std::size_t best = g.threads.size();
            std::uint32_t best_stamp = std::numeric_limits<std::uint32_t>::max();
            for (std::size_t t = 1; t < g.threads.size(); ++t) {
                if (next[t] >= g.threads[t].size()) continue;
                const Node& n = g.threads[t][next[t]];
                if (n.ev.reads_from) {
                    const EventId w = *n.ev.reads_from;
                    if (!(w.thread == t && w.index < next[t]) && !done[w.thread][w.index]) continue;
                }
                if (n.stamp < best_stamp) {
                    best_stamp = n.stamp;
                    best = t;
                }
            }
            if (best == g.threads.size()) {  // an rf cycle (not under RC11): fall back to stamps
                for (std::size_t t = 1; t < g.threads.size(); ++t)
                    if (next[t] < g.threads[t].size() && (best == g.threads.size() || g.threads[t][next[t]].stamp < best_stamp)) {
                        best = t;
                        best_stamp = g.threads[t][next[t]].stamp;
                    }
            }
            steps[best][next[best]] = ++s;
            done[best][next[best]] = true;
            ++next[best];
            --left;
        }
        for (std::size_t t = 0; t < g.threads.size(); ++t)
            for (std::size_t i = 0; i < g.threads[t].size(); ++i) {
                Event e = g.threads[t][i].ev;
                e.step = steps[t][i];
                if (kernel_events_) e.lkmm = lkmm_tags_of(e) | e.lkmm;
                if (g.threads[t][i].guessed) e.reads_from.reset();
                out.append(e);
            }
    } else if (kernel_events_) {
        for (const auto& t : g.threads)
            for (const Node& n : t) {
                Event e = n.ev;
                e.lkmm = lkmm_tags_of(e) | e.lkmm;  // ev.lkmm holds the extra tags only
                if (n.guessed) e.reads_from.reset();  // a guess: the model sees no rf yet
                out.append(e);
            }
    } else {
        for (const auto& t : g.threads)
            for (const Node& n : t) out.append(n.ev);
    }
    for (std::size_t l = 0; l < g.co.size(); ++l) out.set_co(static_cast<LocationId>(l), g.co[l]);
}

std::vector<std::uint32_t> GraphEngine::porf_prefix(const Graph& g, EventId a) const {
    std::vector<std::uint32_t> pre(g.threads.size(), 0);
    pre[0] = static_cast<std::uint32_t>(g.threads[0].size());
    std::vector<EventId> work{EventId{a.thread, a.index}};
    while (!work.empty()) {
        const EventId e = work.back();
        work.pop_back();
        const std::uint32_t want = e.index + 1;
        if (want <= pre[e.thread]) continue;
        const std::uint32_t from = pre[e.thread];
        pre[e.thread] = want;
        for (std::uint32_t i = from; i < want; ++i) {
            const Node& n = g.threads[e.thread][i];
            if (n.ev.reads_from && n.ev.reads_from->thread != 0) work.push_back(*n.ev.reads_from);
        }
    }
    return pre;
}

void GraphEngine::backward_revisits(const Graph& g, EventId a) {
    const Node& an = g.at(a);
    const LocationId loc = *an.ev.location;
    const auto prefix = porf_prefix(g, a);
    // An RMW that reads from the same write as another RMW conflicts with it; only reads added
    // up to the other RMW can resolve that (by revisiting it or deleting it).
    std::uint32_t limit = std::numeric_limits<std::uint32_t>::max();
    if (an.ev.kind == EventKind::Rmw)
        for (std::size_t t = 1; t < g.threads.size(); ++t)
            for (const Node& u : g.threads[t])
                if (u.ev.id != a && u.ev.kind == EventKind::Rmw && u.ev.reads_from == an.ev.reads_from)
                    limit = std::min(limit, u.stamp);
    for (std::size_t t = 1; t < g.threads.size(); ++t)
        for (std::size_t i = prefix[t]; i < g.threads[t].size(); ++i) {
            const Node& r = g.threads[t][i];
            if (!r.ev.is_read() || r.ev.location != loc || r.ev.id == a || r.stamp > limit) continue;
            if (r.ev.at_quiescence || !r.revisitable) continue;
            if (std::find(blocked_reads_.begin(), blocked_reads_.end(), r.ev.id) != blocked_reads_.end()) continue;
            try_revisit(g, a, r.ev.id, prefix);
        }
}

void GraphEngine::try_revisit(const Graph& g, EventId a, EventId rid, const std::vector<std::uint32_t>& prefix) {
    const Node& r = g.at(rid);
    const Node& an = g.at(a);
    const std::uint32_t sr = r.stamp;
    const std::size_t nt = g.threads.size();
    // Kept: the events added up to r, and a's porf-prefix (both are po-prefixes of each thread).
    std::vector<std::uint32_t> keep(nt, 0);
    std::vector<bool> cut(nt, false);  // the last kept event keeps its read part only
    for (std::size_t t = 0; t < nt; ++t) {
        std::uint32_t k = 0;
        while (k < g.threads[t].size() && (t == 0 || g.threads[t][k].stamp <= sr)) ++k;
        keep[t] = std::max(k, prefix[t]);
        if (keep[t] > 0 && keep[t] > prefix[t]) {
            const Node& last = g.threads[t][keep[t] - 1];
            if (last.ev.kind == EventKind::Rmw && last.wstamp > sr) cut[t] = true;
        }
    }
    auto kept_write = [&](EventId w) {
        return w.index < keep[w.thread] && !(cut[w.thread] && w.index + 1 == keep[w.thread]);
    };
    const LocationId loc = *an.ev.location;
    // The revisiting write's co-successor, if any, must stay.
    if (an.ev.kind == EventKind::Write) {
        const auto& co = g.co[loc];
        const std::size_t p = g.co_position(loc, a);
        if (p + 1 < co.size() && !kept_write(co[p + 1])) return;
    }
    // Every deleted part, and r itself, must have been added maximally.
    auto successor_kept = [&](EventId w, EventId self) {
        const LocationId l = *g.at(w).ev.location;
        const auto& co = g.co[l];
        for (std::size_t j = g.co_position(l, w) + 1; j < co.size(); ++j)
            if (co[j] != a && co[j] != self && kept_write(co[j])) return true;
        return false;
    };
    auto read_part_ok = [&](const Node& e) {
        if (!e.rmax) return false;
        const EventId w = *e.ev.reads_from;
        if (successor_kept(w, e.ev.id)) return false;
        if (!kept_write(w) && g.at(w).write_stamp() > e.stamp) return false;  // revisited by a deleted write
        return true;
    };
    auto write_part_ok = [&](const Node& e) { return e.wmax && !successor_kept(e.ev.id, e.ev.id); };
    for (std::size_t t = 1; t < nt; ++t) {
        for (std::size_t i = keep[t]; i < g.threads[t].size(); ++i) {
            const Node& e = g.threads[t][i];
            if (e.ev.is_read() && !read_part_ok(e)) return;
            if (e.ev.is_write() && !write_part_ok(e)) return;
        }
        if (cut[t] && !write_part_ok(g.threads[t][keep[t] - 1])) return;
    }
    if (!read_part_ok(r)) return;

    // The revisited graph: restrict, then r reads from a.
    Graph h;
    h.next_stamp = g.next_stamp;
    h.threads.resize(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        h.threads[t].assign(g.threads[t].begin(), g.threads[t].begin() + keep[t]);
        if (cut[t]) {
            Node& last = h.threads[t].back();
            last.ev.kind = EventKind::Read;
            last.ev.written_value = 0;
            last.pending = true;
        }
    }
    for (std::size_t t = 1; t < nt; ++t)
        for (std::uint32_t i = 0; i < prefix[t] && i < h.threads[t].size(); ++i) h.threads[t][i].revisitable = false;
    h.co.resize(g.co.size());
    for (std::size_t l = 0; l < g.co.size(); ++l)
        for (EventId w : g.co[l])
            if (kept_write(w)) h.co[l].push_back(w);
    set_rf(h, h.at(rid), a);
    h.at(rid).rmax = h.co[loc].back() == a;
    // A kept read whose write was deleted (it had been revisited by it) is the last event of its
    // thread: it reads the co-latest write instead.
    for (std::size_t t = 1; t < nt; ++t)
        for (Node& e : h.threads[t])
            if (e.ev.reads_from && !kept_write(*e.ev.reads_from) && e.ev.id != rid) {
                const LocationId l = *e.ev.location;
                set_rf(h, e, h.co[l].back());
                e.rmax = true;
            }
    push(std::move(h));
}

bool GraphEngine::budget_exhausted() const {
    if (options_.max_executions != 0 && executions_ >= options_.max_executions) return true;
    if (stop_cause() != StopCause::None) return true;  // interrupted, or the command's deadline
    if (options_.timeout_seconds > 0) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
        if (elapsed.count() >= options_.timeout_seconds) return true;
    }
    return false;
}

GraphEngine::RunEnd GraphEngine::run_once(FinalState& fs, std::string& detail, std::optional<EngineFailure>& failure) {
    ++runs_;
    if (!g_.threads.empty() && g_.threads.size() > 1 && !consistent(g_)) return RunEnd::Dead;
    Runtime& rt = *rt_;
    rt.begin_execution(variant_.thread_names);
    recorded_count_.assign(variant_.thread_count() + 1, 0);
    blocked_reads_.clear();
    alignas(std::max_align_t) static unsigned char storage[model_storage_size];
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
            const std::uint16_t gt = EventId::of_model_thread(t);
            try {
                instance->run_thread(t);
                if (guesses_ != nullptr && !guess_can_close_a_cycle(gt)) return RunEnd::Dead;
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
    fs.observables.clear();
    for (const auto& o : rt.observables()) fs.observables.push_back(o.read(o.self));
    fs.metrics.clear();
    for (const auto& m : rt.metrics()) fs.metrics.push_back(*m.value);
    fs.spin_failures = 0;
    return RunEnd::Complete;
}

bool GraphEngine::for_each_matching(ExecutionGraph& base, const std::function<bool(const ExecutionGraph&)>& each) {
    to_execution_graph(g_, base, true);
    // the guessed reads, and for each the writes of its location and value
    std::vector<EventId> reads;
    std::vector<std::vector<EventId>> candidates;
    for (std::size_t t = 1; t < g_.threads.size(); ++t)
        for (const Node& n : g_.threads[t]) {
            if (!n.guessed) continue;
            reads.push_back(n.ev.id);
            candidates.emplace_back();
            for (std::size_t u = 1; u < base.thread_count(); ++u)
                for (const Event& w : base.thread(u))
                    if (w.is_write() && !w.at_quiescence && w.location == n.ev.location &&
                        w.written_value == n.ev.read_value && w.id != n.ev.id)
                        candidates.back().push_back(w.id);
        }
    if (reads.empty()) return each(base);
    for (const auto& c : candidates)
        if (c.empty()) return true;  // a guess no write supplies: no execution
    // every matching, one after another
    std::vector<std::size_t> pick(reads.size(), 0);
    for (;;) {
        const ExecutionGraph g = with_events_edited(base, [&](Event& e) {
            const auto it = std::find(reads.begin(), reads.end(), e.id);
            if (it == reads.end()) return;
            const auto k = static_cast<std::size_t>(it - reads.begin());
            e.reads_from = candidates[k][pick[k]];
        });
        if (model_.consistent(g) && !each(g)) return false;
        // next combination
        std::size_t k = 0;
        while (k < pick.size() && ++pick[k] == candidates[k].size()) pick[k++] = 0;
        if (k == pick.size()) return true;
    }
}

void GraphEngine::complete(const FinalState& fs) {
    for_each_matching(out_, [&](const ExecutionGraph& g) {
        if (delivered_.insert(canonical_hash(g)).second) {
            ++executions_;
            sink_(g, fs);
        }
        return true;
    });
}

ExploreResult GraphEngine::run() {
    start_ = std::chrono::steady_clock::now();
    auto last_progress = start_;
    ExploreResult result;
    result.engine = EngineKind::Graph;
    result.model = options_.model;
    result.shard_index = options_.shard_index;
    result.shard_count = options_.shard_count;
    stack_.push_back(Graph{});
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
        std::string detail;
        std::optional<EngineFailure> failure;
        RunEnd end = run_once(fs, detail, failure);
        // A guess that no write matches is no execution: what it led to (a failure, a blocked
        // thread) is dropped; a complete graph is matched in complete().
        if (guesses_ != nullptr && end != RunEnd::Complete && end != RunEnd::Dead && has_guesses(g_)) end = RunEnd::Dead;
        if (end == RunEnd::Failed) {
            if (!counted) continue;
            result.failure = failure;
            result.failure_detail = detail;
            to_execution_graph(g_, result.failure_graph, true);
            break;
        }
        if (!counted) continue;
        if (end == RunEnd::Blocked) ++blocked_;
        if (end == RunEnd::Complete) {
            if (guesses_ != nullptr) {
                complete(fs);
            } else {
                ++executions_;
                if (options_.capture) {
                    to_execution_graph(g_, out_, true);
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
    // Explored: the complete executions visited (and a failing one); blocked ones are counted apart.
    result.interleavings = executions_ + (result.failure ? 1 : 0);
    result.completed = !result.failure && !result.cut_short;
    result.fraction = result.completed ? 1.0 : 0.0;
    result.observable_names = observable_names_;
    result.metric_names = metric_names_;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return result;
}

}  // namespace

ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink,
                            const MemoryModel& model) {
    if (options.search != SearchKind::Full)
        throw std::invalid_argument("ordercheck: the graph engine runs the full search only (use --engine relacy for "
                                    "a bounded or random search)");
    if (options.shard_count == 0 || options.shard_index >= options.shard_count)
        throw std::invalid_argument("ordercheck: shard " + std::to_string(options.shard_index) + "/" +
                                    std::to_string(options.shard_count) + " does not exist");
    if (variant.instance_size > model_storage_size || variant.instance_align > alignof(std::max_align_t))
        throw std::runtime_error("ordercheck: model " + variant.id() + " is too large for the engine (" +
                                 std::to_string(variant.instance_size) + " bytes)");
    if (variant.thread_count() < 1 || variant.thread_count() > max_threads)
        throw std::runtime_error("ordercheck: model " + variant.id() + " has " + std::to_string(variant.thread_count()) +
                                 " threads; the graph engine runs 1 to " + std::to_string(max_threads));
    auto run = [&](const ExecutionSink& s, const Guesses* guesses, const ExploreOptions& o) {
        GraphEngine engine(variant, o, s, model, guesses);
        Runtime runtime(engine);
        runtime.set_capture(o.capture);
        runtime.set_mutation(o.mutation);
        runtime.set_lkmm(model.kernel_events());
        RuntimeInstallation installation(runtime);
        engine.attach(runtime);
        return engine.run();
    };
    if (!model.kernel_events()) return run(sink, nullptr, options);

    // Load buffering: a read may guess any value some write of its location writes in some
    // execution. Those values are found by exploring (always with the graphs captured): first
    // without guesses, then with the values found so far, until no new value appears. Then the
    // exploration proper, with that set. A value that only justifies itself (out of thin air) is
    // never guessed: with its dependencies stated exactly LKMM forbids it (the dependency orders
    // the read before the write), and for a model that states none, the model's own control flow
    // on the values it reads is such a dependency in the code it stands for.
    // The values come from the whole search, whichever shard this one is.
    // A round that turns out to be the exploration proper (nothing to guess after the first, or
    // the values settled) is not run again: its executions, kept while they are few, go to the
    // sink. Its time, and that of the rounds before, counts in the result and in the timeout.
    ExploreOptions dry_options = options;
    dry_options.capture = true;
    dry_options.shard_index = 0;
    dry_options.shard_count = 1;
    const bool reusable = options.capture && options.shard_count == 1;
    constexpr std::size_t kept_limit = 4096;
    double dry_seconds = 0;
    auto remaining = [&](ExploreOptions o) {  // what is left of the timeout
        if (options.timeout_seconds > 0) o.timeout_seconds = std::max(options.timeout_seconds - dry_seconds, 1e-9);
        return o;
    };
    const std::size_t threads = variant.thread_count() + 1;
    Guesses found;
    found.reach.assign(threads, std::vector<bool>(threads, false));
    bool settled = false;
    for (int round = 0; round < 4 && !settled; ++round) {
        Guesses now = found;
        std::vector<std::vector<std::uint32_t>> from;  // per event: the threads porf-before it
        std::vector<std::pair<ExecutionGraph, FinalState>> kept;
        bool kept_all = reusable;
        const ExecutionSink collect = [&](const ExecutionGraph& g, const FinalState& fs) {
            if (kept_all && kept.size() == kept_limit) {  // too many to keep: the proper run redoes them
                kept_all = false;
                kept.clear();
            }
            if (kept_all) kept.emplace_back(g, fs);
            if (now.writes.size() < g.location_count()) now.writes.resize(g.location_count());
            from.resize(g.thread_count());
            for (std::size_t t = 0; t < g.thread_count(); ++t) from[t].assign(g.thread(t).size(), 1u << t);
            for (bool changed = true; changed;) {  // a fixpoint: a matched guess can close a cycle
                changed = false;
                for (std::size_t t = 1; t < g.thread_count(); ++t)
                    for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
                        const Event& e = g.thread(t)[i];
                        std::uint32_t m = from[t][i] | (i > 0 ? from[t][i - 1] : 0u);
                        if (e.is_read() && e.reads_from) m |= from[e.reads_from->thread][e.reads_from->index];
                        changed = changed || m != from[t][i];
                        from[t][i] = m;
                    }
            }
            for (std::size_t t = 1; t < g.thread_count(); ++t)
                for (std::size_t i = 0; i < g.thread(t).size(); ++i) {
                    const Event& e = g.thread(t)[i];
                    if (e.is_write() && e.location && !e.at_quiescence)
                        now.writes[*e.location][{static_cast<std::uint16_t>(t), e.written_value}] |=
                            from[t][i] & ~(1u << t) & ~1u;
                    if (e.is_read() && e.reads_from && e.reads_from->thread != 0 && e.reads_from->thread != t)
                        now.reach[e.reads_from->thread][t] = true;
                }
        };
        ExploreResult dry = run(collect, round == 0 ? nullptr : &found, remaining(dry_options));
        dry_seconds += dry.seconds;
        if (!dry.completed) break;  // the exploration proper meets the same failure or budget
        for (std::size_t k = 0; k < threads; ++k)  // transitive closure
            for (std::size_t i = 0; i < threads; ++i)
                if (now.reach[i][k])
                    for (std::size_t j = 0; j < threads; ++j)
                        if (now.reach[k][j]) now.reach[i][j] = true;
        for (auto& per_location : now.writes)  // a thread that reaches a thread before a write
            for (auto& [uv, mask] : per_location)
                for (std::size_t i = 1; i < threads; ++i)
                    for (std::size_t k = 1; k < threads; ++k)
                        if ((mask >> k & 1u) != 0 && now.reach[i][k]) mask |= 1u << i;
        // after the first round: settled if no thread may guess anything (it ran as it would
        // with guesses); after a later one: if it learnt nothing new
        bool guessable = false;
        for (const auto& per_location : now.writes)
            for (const auto& [uv, mask] : per_location) guessable = guessable || mask != 0;
        settled = round == 0 ? !guessable : now == found;
        found = std::move(now);
        if (settled && kept_all) {
            for (const auto& [g, fs] : kept) sink(g, fs);
            dry.seconds = dry_seconds;
            return dry;
        }
    }
    ExploreResult result = run(sink, &found, remaining(options));
    result.seconds += dry_seconds;
    if (!settled && result.completed) {
        // the values read by guesses did not settle in 4 rounds: the search may miss executions
        result.completed = false;
        result.cut_short = true;
    }
    return result;
}

ExploreResult graph_explore(const VariantDef& variant, const ExploreOptions& options, const ExecutionSink& sink) {
    const MemoryModel& model = options.model == ModelKind::Lkmm ? lkmm_model()
                               : options.model == ModelKind::Sc ? sc_model()
                                                                : rc11_model();
    return graph_explore(variant, options, sink, model);
}

}  // namespace oc
