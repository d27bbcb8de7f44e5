// SPDX-License-Identifier: MIT
#include "checker/model/runtime.hpp"

#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace oc {

namespace {
/// Brackets host-side bookkeeping (see Engine::enter_host).
class HostScope {
public:
    explicit HostScope(Engine& e) : e_(e) { e_.enter_host(); }
    ~HostScope() { e_.leave_host(); }
    HostScope(const HostScope&) = delete;
    HostScope& operator=(const HostScope&) = delete;

private:
    Engine& e_;
};

SourceSpot spot(std::source_location where) {
    return SourceSpot{where.file_name(), static_cast<std::uint32_t>(where.line())};
}

}  // namespace

// one per thread: a graph-engine search may run on several threads of a process
constinit thread_local Runtime* detail::installed_runtime = nullptr;

void detail::no_runtime() {
    throw std::logic_error("ordercheck: a model primitive was used outside an exploration");
}

RuntimeInstallation::RuntimeInstallation(Runtime& rt) {
    if (detail::installed_runtime != nullptr) throw std::logic_error("ordercheck: one exploration at a time per thread");
    detail::installed_runtime = &rt;
}
RuntimeInstallation::~RuntimeInstallation() { detail::installed_runtime = nullptr; }

Runtime::Runtime(Engine& engine) : engine_(engine) { graph_.set_tag_namer(&lkmm::names); }

void Runtime::begin_execution(const std::vector<std::string>& thread_names) {
    HostScope host(engine_);
    settle_cuts(true);  // a run its engine did not settle: its cuts count
    if (graph_.thread_count() != thread_names.size() + 1) graph_.set_thread_names(thread_names);
    graph_.clear_events();
    phase_ = Phase::Init;
    spun_ = false;
    step_ = 0;
    next_location_ = 0;
    threads_.fill(ThreadState{});
    adjacency_.fill(Adjacency{});
    observables_.clear();
    metrics_.clear();
    hooks_.clear();
    failure_message_.clear();
    spin_failures_ = 0;
    next_lkmm_ = 0;
}

std::uint16_t Runtime::asked_graph_thread() {
    switch (phase_) {
    case Phase::Init: return EventId::init_thread;
    case Phase::Threads: return EventId::of_model_thread(engine_.current_thread());
    case Phase::Quiescence: return quiescence_thread_;
    case Phase::Final: break;
    }
    throw std::logic_error("ordercheck: shared memory accessed while reading the final state");
}

EventId Runtime::next_id() {
    const std::uint16_t t = graph_thread();
    return EventId{t, threads_.at(t).next_index};
}

Event Runtime::make_event(EventKind kind, MemoryOrder order, std::source_location where) {
    Event e;
    e.id = next_id();
    e.kind = kind;
    e.order = order;
    ThreadState& s = state();
    if (s.depth > 0) {
        e.primitive = s.primitive;
        e.where = s.where;
        e.op = s.op;
    } else {
        e.where = spot(where);
        e.op = ++s.op;
    }
    e.at_quiescence = phase_ == Phase::Quiescence;
    return e;
}

void Runtime::record(Event e) {
    e.step = phase_ == Phase::Init ? 0 : ++step_;
    e.lkmm = std::exchange(next_lkmm_, 0u);  // the extra tags; the rest once captured, below
    if (!e.is_fence() && e.id.thread != EventId::init_thread) {
        const ThreadState& s = threads_.at(e.id.thread);
        e.addr_deps = s.addr_deps;
        e.data_deps = s.data_deps;
        e.ctrl_deps = s.ctrl_deps;
        e.data_copy = s.data_copy;
    }
    state().pending = false;
    if (e.is_read()) {
        ThreadState& t = threads_.at(e.id.thread);
        t.last_read = e.id.index;
        if (e.id.index < 64) t.reads |= std::uint64_t{1} << e.id.index;
    }
    Adjacency& a = adjacency_.at(e.id.thread);
    a.before_armed = false;
    a.after_void_rmw = false;
    ++threads_.at(e.id.thread).next_index;
    engine_.recorded(e);
    if (!capture_ || engine_.keeps_own_graph()) return;
    HostScope host(engine_);
    e.lkmm |= lkmm_tags_of(e);
    graph_.append(e);
}

void Runtime::annotate_next(Event& e) {
    const ThreadState& s = state();
    if (s.depth > 0) {
        e.primitive = s.primitive;
        e.where = s.where;
        e.op = s.op;
    } else {
        e.primitive = "";
        e.op = s.op + 1;  // what make_event() will give it
    }
    e.lkmm = next_lkmm_;
    if (!e.is_fence()) {
        e.addr_deps = s.addr_deps;
        e.data_deps = s.data_deps;
        e.ctrl_deps = s.ctrl_deps;
        e.data_copy = s.data_copy;
    }
}

void Runtime::set_pending(LocationId loc, bool write, std::source_location where) {
    ThreadState& s = state();
    s.pending = true;
    s.pending_loc = loc;
    s.pending_write = write;
    s.pending_where = s.depth > 0 ? s.where : spot(where);
}

std::string Runtime::pending_accesses() const {
    std::string out;
    for (std::size_t t = 1; t < threads_.size() && t < graph_.thread_count(); ++t) {
        const ThreadState& s = threads_[t];
        if (!s.pending) continue;
        if (!out.empty()) out += "; ";
        out += graph_.thread_name(t) + " was about to " + (s.pending_write ? "write " : "read ") +
               graph_.location_name(s.pending_loc) + " at " + s.pending_where.file + ":" +
               std::to_string(s.pending_where.line);
    }
    return out;
}

LocationId Runtime::add_location(const char* name, bool atomic, Value init, std::source_location where) {
    if (phase_ != Phase::Init) fail("shared locations must be declared as members of the model", where);
    LocationId loc;
    {
        HostScope host(engine_);
        if (next_location_ < graph_.location_count()) {
            if (graph_.location_name(static_cast<LocationId>(next_location_)) != name)
                throw std::logic_error("ordercheck: the model declared its locations in a different order "
                                       "in two executions (the model is not deterministic)");
            loc = static_cast<LocationId>(next_location_);
        } else {
            loc = graph_.add_location(name);
            atomic_location_.push_back(atomic);
        }
        ++next_location_;
    }
    Event e = make_event(EventKind::Write, atomic ? MemoryOrder::Relaxed : MemoryOrder::NonAtomic, where);
    e.location = loc;
    e.written_value = init;
    e.primitive = "init";
    const Tagged t{init, pack(e.id)};
    if (atomic)
        engine_.create_atomic(loc, t);
    else
        engine_.create_plain(loc, t);
    record(e);
    return loc;
}

void Runtime::add_observable(ObservableSlot slot) {
    HostScope host(engine_);
    observables_.push_back(slot);
}

void Runtime::add_metric(MetricSlot slot) {
    HostScope host(engine_);
    metrics_.push_back(slot);
}

void Runtime::add_quiescence_hook(QuiescenceHook hook) {
    HostScope host(engine_);
    hooks_.push_back(hook);
}

const Mutation* Runtime::mutation_at(std::source_location where) {
    if (!mutation_ || phase_ == Phase::Init || phase_ == Phase::Final) return nullptr;
    const ThreadState& s = state();
    const char* primitive = s.depth > 0 ? s.primitive : "";
    const char* file = s.depth > 0 ? s.where.file : where.file_name();
    const std::uint32_t line = s.depth > 0 ? s.where.line : static_cast<std::uint32_t>(where.line());
    const Site& site = mutation_->site;
    if (line != site.line || site.primitive != primitive || site.file != file) return nullptr;
    return &*mutation_;
}

namespace {
MemoryOrder weakened_access(const Mutation* m, MemoryOrder order) {
    return m != nullptr && m->weakening == Weakening::ToRelaxed && order != MemoryOrder::NonAtomic
               ? MemoryOrder::Relaxed
               : order;
}
}  // namespace

Value Runtime::load(LocationId loc, MemoryOrder order, std::source_location where) {
    const MemoryOrder written = order;
    order = weakened_access(mutation_at(where), order);
    set_pending(loc, false, where);
    const Tagged t = engine_.load(loc, order);
    Event e = make_event(EventKind::Read, order, where);
    if (order != written) e.weakened_from = written;
    e.location = loc;
    e.read_value = t.value;
    e.reads_from = unpack(t.writer);
    record(e);
    return t.value;
}

void Runtime::store(LocationId loc, Value v, MemoryOrder order, std::source_location where) {
    const MemoryOrder written = order;
    order = weakened_access(mutation_at(where), order);
    set_pending(loc, true, where);
    Event e = make_event(EventKind::Write, order, where);
    if (order != written) e.weakened_from = written;
    engine_.store(loc, Tagged{v, pack(e.id)}, order);
    e.location = loc;
    e.written_value = v;
    record(e);
}

Value Runtime::rmw(LocationId loc, RmwOp op, Value operand, MemoryOrder order, std::source_location where) {
    const MemoryOrder written = order;
    order = weakened_access(mutation_at(where), order);
    set_pending(loc, true, where);
    Event e = make_event(EventKind::Rmw, order, where);
    if (order != written) e.weakened_from = written;
    e.rmw_data = op != RmwOp::Exchange;
    const Tagged old = engine_.rmw(loc, op, Tagged{operand, pack(e.id)}, order);
    Value now = operand;
    switch (op) {
    case RmwOp::Exchange: now = operand; break;
    case RmwOp::Add: now = old.value + operand; break;
    case RmwOp::Sub: now = old.value - operand; break;
    case RmwOp::And: now = old.value & operand; break;
    case RmwOp::Or: now = old.value | operand; break;
    case RmwOp::Xor: now = old.value ^ operand; break;
    }
    e.location = loc;
    e.read_value = old.value;
    e.written_value = now;
    e.reads_from = unpack(old.writer);
    record(e);
    return old.value;
}

bool Runtime::cas(LocationId loc, Value& expected, Value desired, MemoryOrder success, MemoryOrder failure,
                  std::source_location where) {
    const Mutation* m = mutation_at(where);
    const MemoryOrder written_success = success, written_failure = failure;
    success = weakened_access(m, success);
    failure = weakened_access(m, failure);
    set_pending(loc, true, where);
    Event e = make_event(EventKind::Rmw, success, where);
    Tagged exp{expected, 0};
    const bool ok = engine_.cas(loc, exp, Tagged{desired, pack(e.id)}, success, failure);
    e.location = loc;
    if (ok) {
        // An RMW reads the co-latest write (the engine appends writes to co in execution order and
        // no other thread ran between the CAS and this point).
        if (capture_) {
            const auto& co = graph_.co(loc);
            e.reads_from = co.empty() ? std::optional<EventId>{} : co.back();
        }
        e.read_value = expected;
        e.written_value = desired;
        if (success != written_success) e.weakened_from = written_success;
    } else {
        e.kind = EventKind::Read;
        e.order = failure;
        if (failure != written_failure) e.weakened_from = written_failure;
        e.reads_from = unpack(exp.writer);
        e.read_value = exp.value;
        expected = exp.value;
    }
    record(e);
    return ok;
}

void Runtime::fence(MemoryOrder order, std::source_location where) {
    const MemoryOrder written = order;
    if (const Mutation* m = mutation_at(where)) {
        switch (m->weakening) {
        // A removed fence is recorded as a relaxed fence, which orders nothing in RC11 (no sw,
        // no psc), so that the witness still shows where the barrier was.
        case Weakening::Remove:
        case Weakening::ToRelaxed: order = MemoryOrder::Relaxed; break;
        case Weakening::ToReleaseFence: order = MemoryOrder::Release; break;
        case Weakening::ToAcquireFence: order = MemoryOrder::Acquire; break;
        }
    }
    Event e = make_event(EventKind::Fence, order, where);
    if (order != written) e.weakened_from = written;
    engine_.fence(order);
    record(e);
}

void Runtime::srcu_event(LocationId loc, Value value, std::source_location where) {
    Event e = make_event(EventKind::Fence, MemoryOrder::SeqCst, where);
    e.location = loc;
    e.written_value = value;
    engine_.located_fence(loc, MemoryOrder::SeqCst);
    record(e);
}

Value Runtime::plain_read(LocationId loc, std::source_location where) {
    set_pending(loc, false, where);
    const Tagged t = engine_.plain_read(loc);
    Event e = make_event(EventKind::Read, MemoryOrder::NonAtomic, where);
    e.location = loc;
    e.read_value = t.value;
    e.reads_from = unpack(t.writer);
    record(e);
    return t.value;
}

void Runtime::plain_write(LocationId loc, Value v, std::source_location where) {
    set_pending(loc, true, where);
    Event e = make_event(EventKind::Write, MemoryOrder::NonAtomic, where);
    engine_.plain_write(loc, Tagged{v, pack(e.id)});
    e.location = loc;
    e.written_value = v;
    record(e);
}

void Runtime::yield() {
    if (phase_ != Phase::Threads) return;
    ++spin_failures_;
    engine_.yield();
}

void Runtime::fail(const char* message, std::source_location where) {
    {
        HostScope host(engine_);
        failure_message_ = std::string(message) + " (" + where.file_name() + ":" + std::to_string(where.line()) + ")";
    }
    engine_.fail(message);
    std::abort();  // Engine::fail does not return
}

Value Runtime::final_value(LocationId loc, bool atomic) {
    if (phase_ != Phase::Final) throw std::logic_error("ordercheck: final_value() outside the final state");
    return atomic ? engine_.load(loc, MemoryOrder::Relaxed).value : engine_.plain_read(loc).value;
}

void Runtime::begin_primitive(const char* name, std::source_location where) {
    ThreadState& s = state();
    if (s.depth++ == 0) {
        s.primitive_start = s.next_index;
        s.primitive = name;
        s.where = spot(where);
        ++s.op;
    }
}

std::uint64_t Runtime::replay_dependencies() {
    const ThreadState& s = state();
    if (!s.replay_known || s.next_index > 64) return ~std::uint64_t{0};
    std::uint64_t m = s.tested | s.addr_deps | s.data_deps | s.ctrl_deps;
    if (s.depth > 0)
        for (std::uint32_t i = s.primitive_start; i < s.next_index; ++i) m |= std::uint64_t{1} << i;
    return m;
}

void Runtime::end_primitive() {
    ThreadState& s = state();
    if (s.depth > 0 && --s.depth == 0) s.primitive = "";
}

void Runtime::run_quiescence_hooks() {
    phase_ = Phase::Quiescence;
    for (std::size_t i = 0; i < hooks_.size(); ++i) hooks_[i].run(hooks_[i].self);
}

}  // namespace oc
