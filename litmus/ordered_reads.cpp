// SPDX-License-Identifier: MIT
// Load buffering: the reads of a test after which LKMM orders every write of their process, found
// from the program text (VariantDef::ordered_reads). A read guesses a value under LKMM only to
// take part in a po | rf cycle, and the engine drops the guess when its thread ends with every
// write after the read ordered after it (GraphEngine::guess_can_close_a_cycle()). Where the text
// shows that on every path, the guess need not be made at all; where it shows a path that leaves
// a write unordered, the read must guess, whatever the executions found so far show.
#include "litmus/ordered_reads.hpp"

#include "checker/memory_model/memory_model.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace oc::litmus {
namespace {

using Sites = std::set<std::int32_t>;  // access sites (indexes into Program::accesses)

/// What holds for a read site once it has run, on every path to the current point.
struct Open {
    bool fenced = false;  ///< a strong fence (smp_mb(), synchronize_rcu(), synchronize_srcu()) since
    /// bit S (a set of `ordering::` reasons, 0..31): on some path, a write since that none
    /// of the reasons in S orders (ordered() below)
    std::uint32_t free_under = 0;
    /// on some path, something since whose effect the walk does not know (an assertion, a
    /// primitive it does not model, an await that may wait forever)
    bool unknown = false;
    bool operator==(const Open&) const = default;
};

/// The abstract state at a point of one process.
struct State {
    std::vector<Sites> deps;      ///< per register: the sites its value came from on every path
    std::map<std::int32_t, Open> open;
    bool operator==(const State&) const = default;
};

/// The state where two paths meet: what holds on both (fences, dependencies), and what happened
/// on either (a free write). A read that ran on one path only keeps that path's facts.
State join(const State& a, const State& b) {
    State j;
    j.deps.resize(a.deps.size());
    for (std::size_t r = 0; r < a.deps.size(); ++r)
        std::set_intersection(a.deps[r].begin(), a.deps[r].end(), b.deps[r].begin(), b.deps[r].end(),
                              std::inserter(j.deps[r], j.deps[r].end()));
    j.open = a.open;
    for (const auto& [site, o] : b.open) {
        const auto it = j.open.find(site);
        if (it == j.open.end()) {
            j.open.emplace(site, o);
        } else {
            it->second.fenced = it->second.fenced && o.fenced;
            it->second.free_under |= o.free_under;
            it->second.unknown = it->second.unknown || o.unknown;
        }
    }
    return j;
}

bool loads(const Access& a) { return (a.plain && !a.plain_write) || is_marked_load(a); }  // a read event only
bool stores(const Access& a) {  // a marked write event and nothing else
    if (a.plain) return false;
    switch (a.prim) {
    case Prim::WriteOnce:
    case Prim::StoreRelease:
    case Prim::RcuAssignPointer:
    case Prim::AtomicSet:
    case Prim::AtomicSetRelease: return true;
    default: return false;
    }
}
bool rmw(const Access& a) {  // a marked read-modify-write: a marked write when it writes
    if (a.plain) return false;
    switch (a.prim) {
    case Prim::AtomicAdd: case Prim::AtomicSub: case Prim::AtomicInc: case Prim::AtomicDec:
    case Prim::AtomicAnd: case Prim::AtomicOr: case Prim::AtomicXor: case Prim::AtomicAndnot:
    case Prim::SetBit: case Prim::ClearBit: case Prim::TestAndSetBit: case Prim::TestAndClearBit:
    case Prim::AddReturn: case Prim::SubReturn: case Prim::IncReturn: case Prim::DecReturn:
    case Prim::FetchAdd: case Prim::FetchSub: case Prim::FetchInc: case Prim::FetchDec:
    case Prim::FetchAnd: case Prim::FetchOr: case Prim::FetchXor: case Prim::FetchAndnot:
    case Prim::AtomicXchg: case Prim::Xchg: case Prim::AtomicCmpxchg: case Prim::Cmpxchg:
    case Prim::SubAndTest: case Prim::DecAndTest: case Prim::IncAndTest: case Prim::AddNegative: return true;
    default: return false;
    }
}
bool spinlock(const Access& a) {
    return !a.plain && (a.prim == Prim::SpinLock || a.prim == Prim::SpinUnlock || a.prim == Prim::SpinTrylock);
}
/// A marked write whose tags the engine's rule reads as the walk does (the lock word's LKW, UL).
bool marked_write(const Access& a) { return stores(a) || rmw(a) || spinlock(a); }
/// Every write the walk judges: the marked ones and plain writes.
bool known_write(const Access& a) { return marked_write(a) || (a.plain && a.plain_write); }
bool releases(const Access& a) {
    return !a.plain && (a.prim == Prim::StoreRelease || a.prim == Prim::RcuAssignPointer || a.prim == Prim::AtomicSetRelease ||
                        a.prim == Prim::SpinUnlock);
}
bool strong_fence(const Access& a) {
    return !a.plain && (a.prim == Prim::Mb || a.prim == Prim::SynchronizeRcu || a.prim == Prim::SynchronizeSrcu);
}
bool makes_no_event_of_note(const Access& a) {  // fences that neither read, write nor order here
    return !a.plain && (a.prim == Prim::Rmb || a.prim == Prim::Wmb || a.prim == Prim::Barrier ||
                        a.prim == Prim::RcuReadLock || a.prim == Prim::RcuReadUnlock);
}

class Walk {
public:
    Walk(const Program& p, const Process& proc, bool plain_is_plain) : p_(p), proc_(proc), plain_is_plain_(plain_is_plain) {}

    /// False when the process has code the walk does not follow (jumps, accesses on one path of
    /// an expression): then no read of it is listed.
    bool run() {
        end_.deps.resize(proc_.regs.size());
        stmt(proc_.body, end_);
        return ok_;
    }
    /// Per load and RMW site that may run, what may follow it (a read site, once run, stays in
    /// every later state).
    const std::map<std::int32_t, Open>& reads() const { return end_.open; }

private:
    const Program& p_;
    const Process& proc_;
    const bool plain_is_plain_;
    bool ok_ = true;
    State end_;  // at the end of the process
    std::vector<Sites> ctrl_;  // the enclosing ifs' conditions

    void stmt(std::int32_t si, State& s) {
        if (si < 0 || !ok_) return;
        const Stmt& st = p_.stmts[static_cast<std::size_t>(si)];
        switch (st.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < st.count; ++i) stmt(p_.block_items[st.first + i], s);
            return;
        case StmtKind::Expr: (void)expr(st.expr, s); return;
        case StmtKind::Assign: {
            Sites d = expr(st.expr, s);
            if (st.reg < s.deps.size()) s.deps[st.reg] = std::move(d);
            return;
        }
        case StmtKind::Store: (void)run_access(st.access, s); return;
        case StmtKind::If: {
            const Sites cond = expr(st.expr, s);
            State other = s;
            ctrl_.push_back(cond);
            stmt(st.then_stmt, s);
            stmt(st.else_stmt, other);
            ctrl_.pop_back();
            s = join(s, other);
            return;
        }
        case StmtKind::Inline:
            if (st.may_return) ok_ = false;
            stmt(st.then_stmt, s);
            return;
        case StmtKind::Loop: loop(st, s); return;
        case StmtKind::Break:
        case StmtKind::Continue:
        case StmtKind::Return: ok_ = false; return;
        }
    }

    /// A loop without jumps out of it: its head's state is what holds on entry and after every
    /// iteration, found by iterating to a fixed point (dependencies and fences only shrink, free
    /// writes and reads run only grow). It is left when its condition fails, at the head (a
    /// `while`, a `for`) or after the body (a `do ... while`). An await may leave its thread
    /// waiting forever, as an assertion may end it: what follows the reads before it is unknown.
    void loop(const Stmt& st, State& s) {
        const State entry = s;
        State head = entry;
        for (int pass = 0; ok_; ++pass) {
            State it = head;
            if (!st.post_test) {
                stmt(st.prelude, it);
                (void)expr(st.expr, it);
                s = it;  // the exit: the condition failed
            }
            stmt(st.then_stmt, it);
            if (st.post_test) {
                stmt(st.prelude, it);
                (void)expr(st.expr, it);
                s = it;
            } else {
                stmt(st.else_stmt, it);  // a for's step
            }
            State next = join(entry, it);
            if (next == head || pass > 64) {
                if (next != head) ok_ = false;  // no fixed point in sight: list nothing
                break;
            }
            head = std::move(next);
        }
        if (st.await)
            for (auto& [site, o] : s.open) o.unknown = true;
    }

    /// The sites the value of `e` came from on every path (a subset of the interpreter's taint).
    Sites expr(std::int32_t e, State& s) {
        if (e < 0 || !ok_) return {};
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return {};
        case ExprKind::Reg: return x.reg < s.deps.size() ? s.deps[x.reg] : Sites{};
        case ExprKind::Unary: return expr(x.a, s);
        case ExprKind::Binary: {
            const auto op = static_cast<BinOp>(x.op);
            if (op == BinOp::LogAnd || op == BinOp::LogOr) {
                Sites left = expr(x.a, s);
                if (has_access(x.b)) ok_ = false;  // an access that runs on one path only
                return left;
            }
            Sites a = expr(x.a, s);
            Sites b = expr(x.b, s);
            if (op == BinOp::Index || op == BinOp::Field) return {};
            a.insert(b.begin(), b.end());
            return a;
        }
        case ExprKind::Ternary: {
            Sites cond = expr(x.a, s);
            if (has_access(x.b) || has_access(x.c)) ok_ = false;
            return cond;
        }
        case ExprKind::Deref:
        case ExprKind::Call: return run_access(x.a, s);
        }
        return {};
    }
    /// Access site `ai` with its operands, in the interpreter's order (values, then the
    /// address); its value comes from its own read, if it makes one.
    Sites run_access(std::int32_t ai, State& s) {
        const Access& a = p_.accesses[static_cast<std::size_t>(ai)];
        Sites data;
        for (int i = 0; i < 2; ++i) {
            Sites v = expr(a.vals[i], s);
            if (written_operand(a, i)) data.insert(v.begin(), v.end());
        }
        const Sites addr = expr(a.addr, s);
        access(ai, s, addr, data);
        return Sites{ai};
    }
    bool has_access(std::int32_t e) const {
        if (e < 0) return false;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        if (x.kind == ExprKind::Deref || x.kind == ExprKind::Call) return true;
        return has_access(x.a) || has_access(x.b) || has_access(x.c);
    }

    /// Access site `ai` runs, its address and written values coming from `addr` and `data`.
    void access(std::int32_t ai, State& s, const Sites& addr, const Sites& data) {
        const Access& a = p_.accesses[static_cast<std::size_t>(ai)];
        if (makes_no_event_of_note(a)) return;
        if (strong_fence(a)) {
            for (auto& [site, o] : s.open) o.fenced = true;
            return;
        }
        // A write (a store, an RMW, a spinlock operation, a plain write) is ordered after each
        // read before it or not; what else may follow (an assertion, a primitive the walk does
        // not model) leaves the reads before it unknown.
        if (known_write(a)) {
            for (auto& [site, o] : s.open) {
                const std::optional<std::uint8_t> by = ordered_by(site, o, a, addr, data);
                for (std::uint8_t reasons = 0; reasons <= ordering::all; ++reasons)
                    if (by && (*by & reasons) == 0) o.free_under |= std::uint32_t{1} << reasons;
            }
        } else if (!loads(a)) {
            for (auto& [site, o] : s.open) o.unknown = true;
        }
        // run again in a loop: the new read has no fence since it, and the earlier one's free
        // writes still count against the site
        if (loads(a) || rmw(a)) s.open[ai].fenced = false;
    }
    /// The reasons (`ordering::` bits, MemoryModel::orders()) for which the write of `w` is
    /// ordered after load site `r` on this path: both marked, and `w` depends on `r` (addr, data,
    /// ctrl), follows a strong fence, is a release or a spin_unlock(), or `r` is an acquire (the
    /// rules of GraphEngine::guess_can_close_a_cycle(), under the built-in LKMM every one);
    /// nullopt when it is ordered whatever the model orders for: `w` writes plainly to a
    /// location no marked access reaches.
    std::optional<std::uint8_t> ordered_by(std::int32_t r, const Open& o, const Access& w, const Sites& addr,
                                           const Sites& data) const {
        const Access& ra = p_.accesses[static_cast<std::size_t>(r)];
        if (ra.plain) return 0;
        // a plain write to a location no marked access reaches: the cycle through it goes on
        // with a plain read, which guesses (VariantDef::plain_only_locations, in the runs that
        // keep plain accesses plain)
        if (w.plain && w.plain_write && plain_is_plain_ && w.target >= 0 &&
            p_.locations[static_cast<std::size_t>(w.target)].only_plain)
            return std::nullopt;
        if (!marked_write(w)) return 0;
        std::uint8_t by = 0;
        bool depends = addr.count(r) != 0 || data.count(r) != 0;
        for (const Sites& c : ctrl_) depends = depends || c.count(r) != 0;
        if (depends) by |= ordering::dependency;
        if (o.fenced) by |= ordering::strong_fence;
        if (releases(w)) by |= w.prim == Prim::SpinUnlock ? ordering::locks : ordering::release;
        // acq-po; a compare-exchange that fails is a relaxed read, and a fully ordered RMW is
        // left to the engine's rule
        if (ra.prim == Prim::LoadAcquire || ra.prim == Prim::AtomicReadAcquire ||
            (rmw(ra) && ra.order == Order::Acquire && ra.prim != Prim::Cmpxchg && ra.prim != Prim::AtomicCmpxchg))
            by |= ordering::acquire;
        return by;
    }
};

}  // namespace

std::vector<OrderedRead> ordered_reads(const Program& p, bool plain_is_plain) {
    std::vector<OrderedRead> out;
    for (std::size_t proc = 0; proc < p.processes.size(); ++proc) {
        Walk w(p, p.processes[proc], plain_is_plain);
        if (!w.run()) continue;
        // By line (an event knows its line, not its site), per rule: some read of the line may
        // leave a write unordered (it guesses); else one is not known, or is an access the walk
        // does not judge (the rounds' learnt rules decide); else every one is ordered.
        struct Line {
            bool reads = false, unknown = false;
            std::uint32_t free_under = 0;
        };
        std::map<std::uint32_t, Line> lines;
        for (std::size_t ai = 0; ai < p.accesses.size(); ++ai) {
            const Access& a = p.accesses[ai];
            if (a.process != proc) continue;
            const auto site = static_cast<std::int32_t>(ai);
            Line& l = lines[a.pos.line];
            const bool reads_nothing = !a.plain ? (stores(a) || strong_fence(a) || makes_no_event_of_note(a)) : a.plain_write;
            if (reads_nothing) continue;
            l.reads = true;
            const auto it = w.reads().find(site);
            if (it == w.reads().end()) {  // not a load or RMW, or never run
                l.unknown = true;
                continue;
            }
            const Open& o = it->second;
            l.free_under |= a.plain ? ~std::uint32_t{0} : o.free_under;
            l.unknown = l.unknown || o.unknown;
        }
        for (const auto& [line, l] : lines)
            if (l.reads && (!l.unknown || l.free_under != 0))
                out.push_back({static_cast<unsigned>(proc + 1), line, l.free_under, l.unknown});
    }
    return out;
}

namespace {

/// Whether access `a` may make a read event.
bool may_read(const Access& a) {
    return a.plain ? !a.plain_write : !(stores(a) || strong_fence(a) || makes_no_event_of_note(a));
}

/// The registers read by the expressions of a process, and its loads assigned to a register.
class Uses {
public:
    explicit Uses(const Program& p) : p_(p) {}
    void stmt(std::int32_t si) {
        if (si < 0) return;
        const Stmt& st = p_.stmts[static_cast<std::size_t>(si)];
        switch (st.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < st.count; ++i) stmt(p_.block_items[st.first + i]);
            return;
        case StmtKind::Assign: {
            const Expr* x = st.expr >= 0 ? &p_.exprs[static_cast<std::size_t>(st.expr)] : nullptr;
            if (x != nullptr && (x->kind == ExprKind::Deref || x->kind == ExprKind::Call) &&
                loads(p_.accesses[static_cast<std::size_t>(x->a)]))
                assigned.emplace_back(x->a, st.reg);
            expr(st.expr);
            return;
        }
        case StmtKind::Store: access(st.access); return;
        case StmtKind::Expr:
        case StmtKind::Return: expr(st.expr); return;
        case StmtKind::If:
        case StmtKind::Loop:
            loops = loops || st.kind == StmtKind::Loop;
            expr(st.expr);
            stmt(st.prelude);
            stmt(st.then_stmt);
            stmt(st.else_stmt);
            return;
        case StmtKind::Inline: stmt(st.then_stmt); return;
        case StmtKind::Break:
        case StmtKind::Continue: return;
        }
    }
    std::set<std::uint16_t> used;
    std::vector<std::pair<std::int32_t, std::uint16_t>> assigned;  ///< (load site, register)
    bool loops = false;  ///< the process has a loop

private:
    const Program& p_;
    void expr(std::int32_t e) {
        if (e < 0) return;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return;
        case ExprKind::Reg: used.insert(x.reg); return;
        case ExprKind::Deref:
        case ExprKind::Call: access(x.a); return;
        default:
            expr(x.a);
            expr(x.b);
            expr(x.c);
        }
    }
    void access(std::int32_t ai) {
        if (ai < 0) return;
        const Access& a = p_.accesses[static_cast<std::size_t>(ai)];
        expr(a.addr);
        expr(a.vals[0]);
        expr(a.vals[1]);
    }
};

}  // namespace

std::vector<std::pair<unsigned, std::uint32_t>> read_lines(const Program& p) {
    std::set<std::pair<unsigned, std::uint32_t>> lines;
    for (const Access& a : p.accesses)
        if (may_read(a)) lines.emplace(static_cast<unsigned>(a.process + 1), a.pos.line);
    return {lines.begin(), lines.end()};
}

std::vector<std::pair<unsigned, std::uint32_t>> undepended_reads(const Program& p) {
    std::vector<std::pair<unsigned, std::uint32_t>> out;
    for (std::size_t proc = 0; proc < p.processes.size(); ++proc) {
        Uses u(p);
        u.stmt(p.processes[proc].body);
        // A revisit gives one read its new value. Another read after it (another site, or the
        // same one in a loop) may have to take a new value at the same time, or the graph with
        // the first one alone is inconsistent (both reads of x in LB+two-reads-each: coherence):
        // a process whose load is its only read, run once, is the case that holds.
        std::size_t read_sites = 0;
        for (const Access& a : p.accesses) read_sites += a.process == proc && may_read(a);
        if (read_sites != 1 || u.loops) continue;
        // A write revisits one read: where another read of the location may need the same
        // write's value, both cannot get it so (LB+two-readers-of-one-write). The load's location
        // is a fixed one that no other access reads.
        const auto only_reader = [&](std::int32_t site) {
            const std::int32_t loc = p.accesses[static_cast<std::size_t>(site)].target;
            if (loc < 0) return false;
            for (std::size_t ai = 0; ai < p.accesses.size(); ++ai)
                if (static_cast<std::int32_t>(ai) != site && may_read(p.accesses[ai]) &&
                    (p.accesses[ai].target < 0 || p.accesses[ai].target == loc))
                    return false;
            return true;
        };
        std::set<std::int32_t> free_sites;
        for (const auto& [site, reg] : u.assigned)
            if (u.used.count(reg) == 0 && only_reader(site)) free_sites.insert(site);
        // by line: every access of the line that reads must be such a load
        std::map<std::uint32_t, bool> lines;
        for (std::size_t ai = 0; ai < p.accesses.size(); ++ai) {
            const Access& a = p.accesses[ai];
            if (a.process != proc || !may_read(a)) continue;
            auto [it, fresh] = lines.emplace(a.pos.line, true);
            it->second = it->second && free_sites.count(static_cast<std::int32_t>(ai)) != 0;
        }
        for (const auto& [line, free] : lines)
            if (free) out.emplace_back(static_cast<unsigned>(proc + 1), line);
    }
    return out;
}

}  // namespace oc::litmus
