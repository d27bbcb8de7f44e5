// SPDX-License-Identifier: MIT
#include "checker/memory_model/cat/cat_model.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <string_view>

#include "checker/memory_model/cat/cat_builtins.hpp"
#include "checker/memory_model/cat/cat_compile.hpp"
#include "checker/memory_model/cat/cat_eval.hpp"
#include "checker/memory_model/cat/cat_guess.hpp"
#include "checker/memory_model/cat/cat_inert.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"
#include "checker/memory_model/lkmm.hpp"
#include "checker/memory_model/lkmm_check.hpp"
#include "checker/memory_model/lkmm_tags.hpp"

namespace oc::cat {

namespace {

/// Refuses a graph with a lock held when the model starts (a C++ model's kernel::mutex or
/// spinlock given a holder: its lock word's initial value is not 0). herd's lock.cat has every
/// lock start unlocked and derives a lock read's rf from co, so such a graph is never one of the
/// model's executions: judged, the search would find none and say nothing of why.
void refuse_held_locks(const ExecutionGraph& g) {
    constexpr std::uint32_t lock_tags =
        lkmm::LockRmw | lkmm::Unlock | lkmm::LockFail | lkmm::ReadLocked | lkmm::ReadUnlocked;
    for (const Event& w : g.thread(EventId::init_thread)) {
        if (w.written_value == 0 || !w.location) continue;  // nearly every initial write: nothing to scan
        for (std::size_t t = 1; t < g.thread_count(); ++t)
            for (const Event& e : g.thread(t))
                if ((e.lkmm & lock_tags) != 0 && e.location == w.location)
                    throw ModelRefusal(
                        "lock " + g.location_name(*w.location) +
                        " is held when the model starts (its initial value is " + std::to_string(w.written_value) +
                        "); herd's lock.cat has every lock start unlocked, so the cat model cannot judge this "
                        "program (judge it with the built-in --model lkmm, or take the lock in its first steps)");
    }
}

/// lock.cat leaves an unlock that no lock acquisition of its thread precedes out of co (only
/// `critical` merges unlocks into it) and flags it, unmatched-unlock; the graph engine orders
/// every write of a location in co, so no graph with such an unlock would be an execution of the
/// model. Refused, with the reason, rather than judged with no executions.
void refuse_unmatched_unlocks(const ExecutionGraph& g) {
    if (const auto ul = lkmm::unmatched_unlock(g)) {
        const Event& e = g.event(*ul);
        throw ModelRefusal("the unlock of " + g.location_name(*e.location) + " by " + g.thread_name(ul->thread) +
                           " matches no lock acquisition of that thread before it: herd's lock.cat leaves such an "
                           "unlock out of co and flags unmatched-unlock, so the cat model cannot judge this program "
                           "(the built-in --model lkmm judges it and prints the flag)");
    }
}

bool enums_in(const std::vector<Stmt>& stmts, bool& any, Dialect& dialect) {
    for (const Stmt& s : stmts) {
        if (s.kind == Stmt::Kind::Enum) {
            for (const std::string& t : s.tags) {
                any = any || kernel_tag(t);
                if (!known_tag(t))
                    throw CatError(s.pos, "expected a tag that ordercheck's events carry (linux-kernel.bell's), found '" + t);
                dialect.spelling[canonical_tag(t)] = t;
            }
        }
        if (s.kind == Stmt::Kind::Include) enums_in(s.included, any, dialect);
    }
    return any;
}

void let_names_in(const std::vector<Stmt>& statements, std::vector<std::string>& out) {
    for (const Stmt& s : statements) {
        if (s.kind == Stmt::Kind::Include && !s.intrinsic) let_names_in(s.included, out);
        if (s.kind != Stmt::Kind::Let) continue;
        for (const Binding& b : s.bindings)
            if (b.params.empty() && std::find(out.begin(), out.end(), b.name) == out.end()) out.push_back(b.name);
    }
}

/// Whether `e` names a symbol of `dep` (conservatively: a local binding of that name counts too).
bool mentions(const Expr& e, const std::set<std::uint32_t>& dep) {
    if (e.op == Expr::Op::Var && dep.count(e.sym) != 0) return true;
    for (const ExprPtr& a : e.args)
        if (a && mentions(*a, dep)) return true;
    for (const Binding& b : e.bindings)
        if (b.body && mentions(*b.body, dep)) return true;
    return false;
}

/// Drops from `statements` the axioms that depend on a name of `seeds` (the read-side critical
/// sections), keeping in `dep` the names bound to a value that does (a seed's binding counts);
/// true when some axiom was dropped. A `let rec` group is closed by a fixpoint; a name bound
/// again to a value that does not depend on them leaves `dep`.
bool drop_dependent_axioms(std::vector<Stmt>& statements, const std::set<std::uint32_t>& seeds,
                           std::set<std::uint32_t>& dep) {
    bool dropped = false;
    std::vector<Stmt> kept;
    kept.reserve(statements.size());
    for (Stmt& st : statements) {
        switch (st.kind) {
        case Stmt::Kind::Include:
            dropped |= drop_dependent_axioms(st.included, seeds, dep);
            break;
        case Stmt::Kind::Let: {
            std::vector<bool> d(st.bindings.size(), false);
            for (std::size_t i = 0; i < d.size(); ++i) d[i] = seeds.count(st.bindings[i].sym) != 0;
            for (bool changed = true; changed;) {
                changed = false;
                std::set<std::uint32_t> seen = dep;
                if (st.rec)
                    for (std::size_t i = 0; i < d.size(); ++i)
                        if (d[i]) seen.insert(st.bindings[i].sym);
                for (std::size_t i = 0; i < d.size(); ++i)
                    if (!d[i] && st.bindings[i].body && mentions(*st.bindings[i].body, seen)) d[i] = changed = true;
                if (!st.rec) break;
            }
            for (std::size_t i = 0; i < d.size(); ++i) {
                if (d[i]) dep.insert(st.bindings[i].sym);
                else dep.erase(st.bindings[i].sym);
            }
            break;
        }
        case Stmt::Kind::With:
            if (st.expr && mentions(*st.expr, dep)) dep.insert(st.sym);
            else dep.erase(st.sym);
            break;
        case Stmt::Kind::Check:
            if (!st.flag && st.expr && mentions(*st.expr, dep)) {
                dropped = true;
                continue;
            }
            break;
        default:
            break;
        }
        kept.push_back(std::move(st));
    }
    statements = std::move(kept);
    return dropped;
}

}  // namespace

std::unique_ptr<CatModel> CatModel::load(const std::string& cat_path, const std::string& bell_path,
                                         const Variants& variants, bool compiled) {
    Model bell = bell_path.empty() ? Model{} : cat::load(bell_path, variants);
    auto m = std::make_unique<CatModel>(std::move(bell), cat::load(cat_path, variants), variants, compiled);
    m->cat_path_ = cat_path;
    m->bell_path_ = bell_path;
    // Every binding and check once, on a graph of no events: what does not depend on the
    // events (names, arities, types) fails here, before a search starts.
    (void)evaluate(m->model_, ExecutionGraph{}, Goal::Validate);
    return m;
}

std::string CatModel::description() const {
    if (cat_path_.empty()) return "cat: \"" + title_ + "\"";
    std::string d = "cat: " + cat_path_ + " (\"" + title_ + "\")";
    if (!bell_path_.empty()) d += ", bell: " + bell_path_;
    return d;
}

CatModel::CatModel(Model bell, Model cat, const Variants& variants, bool compiled)
    : title_(cat.title.empty() ? bell.title : cat.title), compiled_(compiled) {
    model_.statements = std::move(bell.statements);
    for (Stmt& s : cat.statements) model_.statements.push_back(std::move(s));
    kernel_ = check_enums(model_);
    model_.dialect.lkmmv2 = variants.count("lkmmv2") != 0;
    if (compiled) prepare(model_);
    if (title_.empty()) title_ = "cat model";
    // The model without the axioms that depend on the read-side critical sections (rcu-rscs,
    // srcu-rscs as linux-kernel.cat names them): consistent() on a graph with RCU or SRCU
    // events; consistent_when_complete() asks the whole model (memory_model.hpp says why).
    {
        Model prefix;
        prefix.title = model_.title;
        prefix.dialect = model_.dialect;
        prefix.statements = model_.statements;
        const std::set<std::uint32_t> seeds{symbol("rcu-rscs"), symbol("srcu-rscs")};
        std::set<std::uint32_t> dep;
        if (drop_dependent_axioms(prefix.statements, seeds, dep)) {
            prefix.program.reset();
            if (compiled) prepare(prefix);
            prefix_ = std::make_shared<const Model>(std::move(prefix));
        }
    }
}

const CatModel::Derived& CatModel::derived() const {
    std::call_once(derived_once_, [this] {
        // the derived model (ordered_links(), on a thread's own graph) and its context-monotone
        // copy (the probes below: what they link, every thread that holds their events does)
        for (const bool context_monotone : {false, true}) {
            try {
                std::optional<GuessOrder> g = guess_order(model_, context_monotone);
                if (!g) break;
                auto derived = std::make_shared<Model>(std::move(g->derived));
                if (compiled_) prepare(*derived);
                // every binding once, as load() does for the model: a copy that cannot be
                // evaluated (a 0 where the model's types want something else) orders nothing
                (void)evaluate(*derived, ExecutionGraph{}, Goal::Validate);
                (context_monotone ? derived_.probe : derived_.guess) = std::move(derived);
                if (!context_monotone) derived_.guess_axiom = g->axiom;
            } catch (const CatError&) {
            }
        }
        derived_.orders = kernel_ && derived_.guess && derived_.probe ? probe_orders(*derived_.probe) : 0;
    });
    return derived_;
}

namespace {

/// A probe thread's event: `tags` as the runtime records them (Event::lkmm).
Event probe_event(EventKind kind, std::uint32_t tags, std::optional<LocationId> loc, const char* primitive) {
    Event e;
    e.id.thread = 1;
    e.kind = kind;
    e.location = loc;
    e.lkmm = tags;
    e.primitive = primitive;
    e.order = kind == EventKind::Fence                                   ? MemoryOrder::SeqCst
              : (tags & (lkmm::Acquire | lkmm::LockRmw)) != 0 ? MemoryOrder::Acquire
              : (tags & (lkmm::Release | lkmm::Unlock)) != 0  ? MemoryOrder::Release
                                                              : MemoryOrder::Relaxed;
    return e;
}

}  // namespace

std::uint8_t CatModel::probe_orders(const Model& probe) const {
    // Each reason is probed on threads of a marked read of x, a marked write of y after it and,
    // for a fence, the fence between them; a reason counts when every one of its probes links
    // the read to the write in the context-monotone copy (so on every thread that holds them).
    struct Access {
        EventKind kind;
        std::uint32_t tags;
        const char* primitive;
    };
    const Access once_r{EventKind::Read, lkmm::Once, "READ_ONCE"}, acquire_r{EventKind::Read, lkmm::Acquire, "smp_load_acquire"},
        rmw_r{EventKind::Rmw, lkmm::Once, "xchg_relaxed"}, acquire_rmw{EventKind::Rmw, lkmm::Acquire, "xchg_acquire"},
        lock_r{EventKind::Rmw, lkmm::LockRmw, "spin_lock"};
    const Access once_w{EventKind::Write, lkmm::Once, "WRITE_ONCE"}, release_w{EventKind::Write, lkmm::Release, "smp_store_release"},
        unlock_w{EventKind::Write, lkmm::Unlock, "spin_unlock"};
    const auto links = [&](const Access& r, const Access* fence, const Access& w, int dep) {
        ExecutionGraph g;
        g.set_thread_names({"P0"});
        const LocationId x = g.add_location("x"), y = g.add_location("y"), s = g.add_location("s");
        g.append(probe_event(r.kind, r.tags, x, r.primitive));
        if (fence != nullptr)
            g.append(probe_event(EventKind::Fence, fence->tags, fence->tags == lkmm::SyncSrcu ? std::optional<LocationId>(s) : std::nullopt,
                                 fence->primitive));
        Event b = probe_event(w.kind, w.tags, y, w.primitive);
        if (dep >= 0) (dep == 0 ? b.addr_deps : dep == 1 ? b.data_deps : b.ctrl_deps) = 1;
        g.append(b);
        for (const LocationId l : {x, y, s}) g.set_co(l, {});
        const auto rows = links_of(probe, g, 1);
        return !rows.empty() && (rows[0] >> (fence != nullptr ? 2 : 1) & 1u) != 0;
    };
    std::uint8_t out = 0;
    bool all = true;
    for (const Access& r : {once_r, acquire_r, rmw_r})
        for (const Access& w : {once_w, release_w})
            for (int dep = 0; dep < 3; ++dep) all = all && links(r, nullptr, w, dep);
    if (all) out |= ordering::dependency;
    all = true;
    for (const Access& f : {Access{EventKind::Fence, lkmm::Mb, "smp_mb"}, Access{EventKind::Fence, lkmm::SyncRcu, "synchronize_rcu"},
                            Access{EventKind::Fence, lkmm::SyncSrcu, "synchronize_srcu"}})
        for (const Access& r : {once_r, rmw_r}) all = all && links(r, &f, once_w, -1);
    if (all) out |= ordering::strong_fence;
    if (links(once_r, nullptr, release_w, -1) && links(rmw_r, nullptr, release_w, -1)) out |= ordering::release;
    if (links(acquire_r, nullptr, once_w, -1) && links(acquire_rmw, nullptr, once_w, -1)) out |= ordering::acquire;
    if (links(lock_r, nullptr, once_w, -1) && links(once_r, nullptr, unlock_w, -1)) out |= ordering::locks;
    return out;
}

std::vector<std::uint64_t> CatModel::links_of(const Model& derived, const ExecutionGraph& thread_graph, std::size_t t) const {
    const std::vector<Event>& th = thread_graph.thread(t);
    std::vector<std::uint64_t> rows(std::min<std::size_t>(th.size(), 64), 0);
    const Outcome o = evaluate(derived, thread_graph, Goal::Everything, {guess_order_name});
    if (o.wanted.empty() || !o.wanted.front().second) return rows;
    const BitRel& order = *o.wanted.front().second;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!th[i].is_read()) continue;
        const std::size_t from = o.nodes.of(th[i].id);  // an RMW's read part
        for (std::size_t j = i + 1; j < rows.size(); ++j)
            if (th[j].is_write() && order.test(from, o.nodes.of(th[j].id, th[j].kind == EventKind::Rmw)))
                rows[i] |= std::uint64_t{1} << j;
    }
    return rows;
}

std::optional<std::vector<std::uint64_t>> CatModel::ordered_links(const ExecutionGraph& thread_graph, std::size_t t) const {
    const Derived& d = derived();
    if (!d.guess) return std::nullopt;
    return links_of(*d.guess, thread_graph, t);
}

std::pair<std::size_t, std::size_t> CatModel::compiled_share() const {
    if (!model_.program) return {0, 0};
    return {model_.program->compiled, model_.program->evaluated};
}

bool CatModel::planned() const { return model_.program && model_.program->planned; }

bool CatModel::inert_when_last(const Event& e) const { return inert(e, false); }
bool CatModel::inert_as_sink(const Event& e) const { return inert(e, true); }
bool CatModel::inert_as_sink_without_locks(const Event& e) const { return inert(e, true, true); }

bool CatModel::inert(const Event& e, bool sink, bool lock_free) const {
    const std::uint32_t tags = kernel_ ? lkmm_tags_of(e) | e.lkmm : e.lkmm;  // as the graph engine shows it
    // what the built-in sets read of the event (cat_builtins.cpp), and where it is added: of
    // its primitive, only whether it names a lock that a failed attempt is of (the probe holds
    // e alone, so no RMW of the same call is next to it); not the name's address, which
    // differs from one litmus test to the next
    const bool lock_named = e.primitive != nullptr && (std::string_view(e.primitive) == "spin_lock" ||
                                                       std::string_view(e.primitive) == "mutex_lock");
    const std::array<std::uintptr_t, 6> key{static_cast<std::uintptr_t>(e.kind), static_cast<std::uintptr_t>(e.order), tags,
                                            std::uintptr_t{lock_named},
                                            std::uintptr_t{e.location.has_value()} | std::uintptr_t{e.reads_from.has_value()} << 1,
                                            std::uintptr_t{sink} | std::uintptr_t{lock_free} << 1};
    {
        std::shared_lock lock(inert_mutex_);
        const auto it = inert_.find(key);
        if (it != inert_.end()) return it->second;
    }
    bool answer = false;
    // under lkmmv2 an RMW's events take their tags from the fences around them: not probed alone
    const bool rmw_part = e.kind == EventKind::Rmw || (e.kind == EventKind::Read && (tags & lkmm::ConditionalRmw) != 0);
    if (!(model_.dialect.lkmmv2 && rmw_part) && (sink || !e.reads_from)) {
        const auto probe = [&](std::uint32_t t) {
            ExecutionGraph g;
            g.set_thread_names({"P0"});
            Event p = e;
            p.id = EventId{1, 0};
            p.lkmm = t;
            p.reads_from.reset();
            if (e.location) {
                while (g.location_count() <= *e.location) g.add_location("x" + std::to_string(g.location_count()));
                g.set_co(*e.location, {});
            }
            g.append(p);
            return g;
        };
        std::vector<ExecutionGraph> probes{probe(tags)};
        // under lkmmv2 a fence is also the one after an RMW of its call, which has no tag
        if (model_.dialect.lkmmv2 && e.kind == EventKind::Fence && (tags & lkmm::Mb) != 0) probes.push_back(probe(0));
        answer = inert_event(model_, probes, EventId{1, 0}, sink ? Place::Sink : Place::Last, lock_free ? Lock::Free : Lock::Any);
    }
    std::unique_lock lock(inert_mutex_);
    inert_[key] = answer;
    return answer;
}

bool CatModel::consistent(const ExecutionGraph& g) const {
    if (kernel_) {
        refuse_held_locks(g);
        refuse_unmatched_unlocks(g);
    }
    const Model& m = prefix_ && lkmm::has_rcu_events(g) ? *prefix_ : model_;
    return !evaluate(m, g, Goal::FirstViolation).violated;
}

bool CatModel::consistent_when_complete(const ExecutionGraph& g) const {
    if (!prefix_ || !lkmm::has_rcu_events(g)) return true;
    return !evaluate(model_, g, Goal::FirstViolation).violated;
}

std::optional<AxiomViolation> CatModel::violation(const Outcome& o) const {
    if (!o.violated) return std::nullopt;
    AxiomViolation v;
    v.axiom = *o.violated;
    if (o.violated_relation) v.cycle = lkmm::cycle_events(o.nodes, *o.violated_relation);
    v.explanation = "the execution violates " + v.axiom + " of the cat model \"" + title_ + "\"";
    return v;
}

std::optional<AxiomViolation> CatModel::check(const ExecutionGraph& g) const {
    if (auto wf = check_well_formed(g)) return wf;
    return violation(evaluate(model_, g, Goal::FirstViolation));
}

std::pair<std::optional<AxiomViolation>, std::vector<std::string>> CatModel::check_and_flags(const ExecutionGraph& g,
                                                                                                bool with_flags) const {
    if (!with_flags) return {check(g), {}};
    if (auto wf = check_well_formed(g)) return {std::move(wf), flags(g)};
    Outcome o = evaluate(model_, g, Goal::Everything);
    std::optional<AxiomViolation> v = violation(o);
    return {std::move(v), std::move(o.flags)};
}

std::optional<std::pair<EventId, EventId>> CatModel::race(const ExecutionGraph& g) const {
    const Outcome o = evaluate(model_, g, Goal::Everything);
    for (const auto& [flag, pair] : o.flag_pairs)
        if (flag == "data-race" || std::find(o.undefined.begin(), o.undefined.end(), flag) != o.undefined.end())
            return std::make_pair(o.nodes.event[pair.first], o.nodes.event[pair.second]);
    return std::nullopt;
}

std::vector<std::string> CatModel::relation_names() const {
    std::vector<std::string> out = {"po", "rf", "co", "fr", "rmw", "addr", "data", "ctrl", "loc", "int", "ext"};
    for (std::string& n : let_names(model_))
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
    return out;
}

std::optional<std::vector<std::pair<EventId, EventId>>> CatModel::relation(const ExecutionGraph& g,
                                                                          std::string_view name) const {
    const Outcome o = evaluate(model_, g, Goal::Everything, {std::string(name)});
    if (o.wanted.empty() || !o.wanted.front().second) return std::nullopt;
    return lkmm::event_pairs(o.nodes, *o.wanted.front().second);
}

std::vector<std::string> CatModel::flags(const ExecutionGraph& g) const {
    return evaluate(model_, g, Goal::Everything).flags;
}

std::vector<std::string> let_names(const Model& model) {
    std::vector<std::string> out;
    let_names_in(model.statements, out);
    return out;
}

bool check_enums(Model& model) {
    bool any = false;
    return enums_in(model.statements, any, model.dialect);
}

}  // namespace oc::cat
