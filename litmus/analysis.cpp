// SPDX-License-Identifier: MIT
// The static analysis that prepares a parsed test for the interpreter: the location each access
// targets, escaping addresses, spinlock_t and srcu_struct uses, SRCU sections and the
// lock/unlock pairs, the reads that head an address dependency, and which locations are plain
// (race-checked). Rejects what the engine cannot check exactly.
#include <cstdint>
#include <string>
#include <vector>

#include "litmus/parser.hpp"
#include "litmus/parser_internal.hpp"
#include "litmus/primitive_table.hpp"
#include "litmus/site_set.hpp"

namespace oc::litmus::detail {

namespace {

/// A relaxed read that can carry an address dependency (promoted to acquire when it does).
bool promotable(const Access& a) {
    if (a.plain) return false;
    if (a.prim == Prim::ReadOnce || a.prim == Prim::AtomicRead) return true;
    return is_atomic_rmw(a.prim) && a.order == Order::Relaxed && returns_value(a.prim);
}
/// A marked access a plain location keeps ordered only under LKMM, by its tag: an acquire
/// load, a release store, or a relaxed load heading an address dependency (which the C++11
/// mapping reads as acquire); a program with one is judged under LKMM only.
bool tag_only_downgradable(const Access& a) {
    if (a.plain) return false;
    if (a.dep_head) return a.prim == Prim::ReadOnce || a.prim == Prim::AtomicRead;
    return a.prim == Prim::LoadAcquire || a.prim == Prim::AtomicReadAcquire || a.prim == Prim::StoreRelease ||
           a.prim == Prim::AtomicSetRelease || a.prim == Prim::RcuAssignPointer;
}
/// A marked access the race run may perform as a plain one: a relaxed load or store, or the above.
bool downgradable(const Access& a) {
    return tag_only_downgradable(a) || (!a.plain && !a.dep_head && (a.prim == Prim::ReadOnce || a.prim == Prim::WriteOnce ||
                                                                    a.prim == Prim::AtomicRead || a.prim == Prim::AtomicSet));
}

class Analysis {
public:
    explicit Analysis(Program& p) : p_(p) {}

    void run() {
        find_targets();
        check_static_types();
        number_srcu_sections();
        unlock_taint_.assign(p_.accesses.size(), SiteSet{});
        for (std::size_t i = 0; i < p_.processes.size(); ++i) {
            dependencies(static_cast<unsigned>(i));
            match_srcu_unlocks(static_cast<unsigned>(i));
        }
        classify_locations();
        for (std::size_t i = 0; i < p_.processes.size(); ++i) loops(static_cast<unsigned>(i), p_.processes[i].body, false);
    }

private:
    [[noreturn]] void error(SourcePos pos, const std::string& msg) const { throw LitmusError(p_.file, pos, msg); }

    void find_targets() {
        std::vector<bool> is_addr(p_.exprs.size(), false);
        for (const Access& a : p_.accesses)
            if (a.addr >= 0) is_addr[static_cast<std::size_t>(a.addr)] = true;
        // Which process each expression belongs to: accesses know theirs; registers are
        // per-process, so resolve through the access list and the statements.
        for (Access& a : p_.accesses) {
            if (a.addr < 0) continue;
            const Expr& e = p_.exprs[static_cast<std::size_t>(a.addr)];
            // `y + r2`: an address computed by arithmetic may leave the test's locations
            // (an element or a field, BinOp::Index or Field, is checked to be a location)
            const bool element = e.kind == ExprKind::Binary && (static_cast<BinOp>(e.op) == BinOp::Index || static_cast<BinOp>(e.op) == BinOp::Field);
            if ((e.kind == ExprKind::Unary || e.kind == ExprKind::Binary || e.kind == ExprKind::Ternary) && !element)
                p_.computes_addresses = true;
            if (e.kind == ExprKind::Const || element) a.target = static_cast<std::int32_t>(static_location(p_, a.process, a.addr));
            if (e.kind != ExprKind::Reg) continue;
            const Register& r = p_.processes[a.process].regs[e.reg];
            if (r.is_param && !r.assigned) a.target = r.loc;
        }
        // A parameter used other than as an access's address lets its address escape; so does
        // a parameter that is reassigned.
        for (std::size_t pi = 0; pi < p_.processes.size(); ++pi) {
            const Process& proc = p_.processes[pi];
            for (const Register& r : proc.regs)
                if (r.is_param && r.assigned) p_.locations[r.loc].escapes = true;
            mark_escapes(proc, proc.body, is_addr);
        }
        for (const Process& proc : p_.processes)
            for (const Register& r : proc.regs)
                if (const std::int64_t l = r.is_param ? -1 : location_at(r.init, p_.locations.size()); l >= 0)
                    p_.locations[static_cast<std::size_t>(l)].escapes = true;
    }
    void mark_escapes(const Process& proc, std::int32_t stmt, const std::vector<bool>& is_addr) {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) mark_escapes(proc, p_.block_items[s.first + i], is_addr);
            break;
        case StmtKind::If:
            escapes_in(proc, s.expr, is_addr);
            mark_escapes(proc, s.then_stmt, is_addr);
            if (s.else_stmt >= 0) mark_escapes(proc, s.else_stmt, is_addr);
            break;
        case StmtKind::Store: {
            const Access& a = p_.accesses[static_cast<std::size_t>(s.access)];
            escapes_in(proc, a.addr, is_addr);
            escapes_in(proc, a.vals[0], is_addr);
            break;
        }
        case StmtKind::Expr:
        case StmtKind::Assign: escapes_in(proc, s.expr, is_addr); break;
        case StmtKind::Loop:
            if (s.prelude >= 0) mark_escapes(proc, s.prelude, is_addr);
            escapes_in(proc, s.expr, is_addr);
            mark_escapes(proc, s.then_stmt, is_addr);
            if (s.else_stmt >= 0) mark_escapes(proc, s.else_stmt, is_addr);
            break;
        case StmtKind::Return: escapes_in(proc, s.expr, is_addr); break;
        case StmtKind::Inline: mark_escapes(proc, s.then_stmt, is_addr); break;
        case StmtKind::Break:
        case StmtKind::Continue: break;
        }
    }
    void escapes_in(const Process& proc, std::int32_t e, const std::vector<bool>& is_addr) {
        if (e < 0) return;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return;
        case ExprKind::Reg:
            if (proc.regs[x.reg].is_param && !is_addr[static_cast<std::size_t>(e)]) p_.locations[proc.regs[x.reg].loc].escapes = true;
            return;
        case ExprKind::Unary: escapes_in(proc, x.a, is_addr); return;
        case ExprKind::Binary: escapes_in(proc, x.a, is_addr); escapes_in(proc, x.b, is_addr); return;
        case ExprKind::Ternary:
            escapes_in(proc, x.a, is_addr);
            escapes_in(proc, x.b, is_addr);
            escapes_in(proc, x.c, is_addr);
            return;
        case ExprKind::Deref:
        case ExprKind::Call: {
            const Access& a = p_.accesses[static_cast<std::size_t>(x.a)];
            escapes_in(proc, a.addr, is_addr);
            escapes_in(proc, a.vals[0], is_addr);
            escapes_in(proc, a.vals[1], is_addr);
            return;
        }
        }
    }

    void check_static_types() {
        // herd7 takes spin_lock() on any location (`int *l`): one that only spin_lock(),
        // spin_unlock(), spin_trylock() and spin_is_locked() use, whose address is not a value
        // and which starts at 0 (unlocked), is a spinlock_t
        for (std::size_t l = 0; l < p_.locations.size(); ++l) {
            Location& loc = p_.locations[l];
            if (loc.type != LocType::Int || loc.escapes || loc.init != 0) continue;
            bool locked = false, other = false;
            for (const Access& a : p_.accesses) {
                if (a.target != static_cast<std::int32_t>(l)) continue;
                (!a.plain && is_lock_prim(a.prim) ? locked : other) = true;
            }
            if (locked && !other) loc.type = LocType::Lock;
        }
        for (const Location& loc : p_.locations)
            if (loc.type == LocType::Lock && loc.init != 0)
                error(loc.declared, "unsupported: an initial value for a spinlock_t ('" + loc.name + "' starts unlocked)");
        for (const Access& a : p_.accesses) {
            if (!a.plain && (is_mutex_prim(a.prim) || is_key_prim(a.prim) || is_srcu_prim(a.prim)) && a.target < 0)
                error(a.pos, "unsupported: " + a.name + "() on a " + (is_srcu_prim(a.prim) ? "srcu_struct" : "location") +
                                 " reached through a register; pass the " + (is_srcu_prim(a.prim) ? "struct srcu_struct " : "") + "parameter itself");
            if (a.target < 0) continue;
            const Location& l = p_.locations[static_cast<std::size_t>(a.target)];
            const bool lock = l.type == LocType::Lock;
            const bool srcu = l.type == LocType::Srcu;
            const bool mutex = l.type == LocType::Mutex, key = l.type == LocType::StaticKey;
            if (!a.plain && is_mutex_prim(a.prim) && !mutex)
                error(a.pos, a.name + "() needs a struct mutex, but '" + l.name + "' is " +
                                 (lock ? "a spinlock_t (use spin_lock() and spin_unlock() on it)"
                                       : "not one (declare it struct mutex *" + l.name + ")"));
            if ((a.plain || !is_mutex_prim(a.prim)) && mutex)
                error(a.pos, "'" + l.name + "' is a struct mutex: only mutex_lock(), mutex_unlock(), mutex_trylock() and "
                                            "mutex_is_locked() may use it");
            if (!a.plain && is_key_prim(a.prim) && !key)
                error(a.pos, a.name + "() needs a static key, but '" + l.name +
                                 "' is not one (declare it struct static_key_false *" + l.name + ")");
            if ((a.plain || !is_key_prim(a.prim)) && key)
                error(a.pos, "'" + l.name + "' is a static key: only static_branch_likely(), static_branch_unlikely(), "
                                            "static_branch_inc(), static_branch_dec(), static_branch_enable() and "
                                            "static_branch_disable() may use it");
            if (!a.plain && is_lock_prim(a.prim) && !lock)
                error(a.pos, a.name + "() needs a spinlock_t, but '" + l.name + "' is not one (declare it spinlock_t *" + l.name + ")");
            if ((a.plain || !is_lock_prim(a.prim)) && lock)
                error(a.pos, "'" + l.name + "' is a spinlock_t: only spin_lock(), spin_unlock(), spin_trylock() and spin_is_locked() may use it");
            if (!a.plain && is_srcu_prim(a.prim) && !srcu)
                error(a.pos, a.name + "() needs a struct srcu_struct, but '" + l.name +
                                 "' is not one (declare it struct srcu_struct *" + l.name + ")");
            if ((a.plain || !is_srcu_prim(a.prim)) && srcu)
                error(a.pos, "'" + l.name + "' is a struct srcu_struct: only srcu_read_lock(), srcu_read_unlock(), "
                                            "srcu_down_read(), srcu_up_read() and synchronize_srcu() may use it");
        }
    }

    // ---- loops ----------------------------------------------------------------------------------
    // An await (docs/litmus.md, "Loops") is a loop whose failed iterations the engine may drop:
    // the graph engine blocks the thread at a failed iteration (spin_yield()) and explores the
    // execution in which it succeeds elsewhere. Dropping a failed iteration is sound when
    //  * its accesses are marked reads (and barrier()/cpu_relax(), which make no event): removing
    //    reads from a consistent execution leaves a consistent one with the same writes, values
    //    read elsewhere and final memory; or, for `do { ... } while (cmpxchg(x, r, n) != r);`,
    //    a cmpxchg that fails when the iteration does (a failed cmpxchg writes nothing: a read)
    //    and is the last access of the iteration;
    //  * no register carries a value from one iteration to the next or out of the loop: every
    //    register the loop assigns is assigned in the iteration before the iteration reads it,
    //    and before every exit if the process reads it after the loop or the condition names it;
    //  * the iteration reads shared memory (else a failed iteration fails forever: no await), at
    //    fixed locations that no process accesses plainly (a failed iteration's read could race
    //    where the successful one does not; the race check sees complete executions only);
    //  * it has no nested loop, no continue, no SRCU (a section per srcu_read_lock() site).
    // Every other loop runs under the unroll bound.

    /// Marks the awaits among the loops under `stmt`; rejects SRCU primitives in loops.
    void loops(unsigned proc, std::int32_t stmt, bool in_loop) {
        Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) loops(proc, p_.block_items[s.first + i], in_loop);
            return;
        case StmtKind::If:
            loops(proc, s.then_stmt, in_loop);
            if (s.else_stmt >= 0) loops(proc, s.else_stmt, in_loop);
            return;
        case StmtKind::Loop:
            if (!in_loop) reject_srcu_in(proc, stmt);
            if (s.prelude >= 0) loops(proc, s.prelude, true);
            loops(proc, s.then_stmt, true);
            s.await = is_await(proc, stmt);
            return;
        case StmtKind::Inline: loops(proc, s.then_stmt, in_loop); return;
        default: return;
        }
    }
    void reject_srcu_in(unsigned proc, std::int32_t loop) {
        std::vector<std::int32_t> acc;
        accesses_under(loop, acc);
        for (std::int32_t ai : acc) {
            const Access& a = p_.accesses[static_cast<std::size_t>(ai)];
            if (!a.plain && is_srcu_prim(a.prim))
                error(a.pos, "unsupported: " + a.name + "() in a loop (each srcu_read_lock() site opens one section)");
        }
        (void)proc;
    }
    /// The accesses of statement `stmt` (and of the statements under it), in no particular order.
    void accesses_under(std::int32_t stmt, std::vector<std::int32_t>& out) const {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) accesses_under(p_.block_items[s.first + i], out);
            return;
        case StmtKind::If:
        case StmtKind::Loop:
            if (s.prelude >= 0) accesses_under(s.prelude, out);
            accesses_in(s.expr, out);
            accesses_under(s.then_stmt, out);
            if (s.else_stmt >= 0) accesses_under(s.else_stmt, out);
            return;
        case StmtKind::Store:
            out.push_back(s.access);
            accesses_in(p_.accesses[static_cast<std::size_t>(s.access)].addr, out);
            accesses_in(s.expr, out);
            return;
        case StmtKind::Expr:
        case StmtKind::Assign:
        case StmtKind::Return: accesses_in(s.expr, out); return;
        case StmtKind::Inline: accesses_under(s.then_stmt, out); return;
        case StmtKind::Break:
        case StmtKind::Continue: return;
        }
    }
    void accesses_in(std::int32_t e, std::vector<std::int32_t>& out) const {
        if (e < 0) return;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const:
        case ExprKind::Reg: return;
        case ExprKind::Unary: accesses_in(x.a, out); return;
        case ExprKind::Binary: accesses_in(x.a, out); accesses_in(x.b, out); return;
        case ExprKind::Ternary: accesses_in(x.a, out); accesses_in(x.b, out); accesses_in(x.c, out); return;
        case ExprKind::Deref:
        case ExprKind::Call: {
            out.push_back(x.a);
            const Access& a = p_.accesses[static_cast<std::size_t>(x.a)];
            accesses_in(a.addr, out);
            accesses_in(a.vals[0], out);
            accesses_in(a.vals[1], out);
            return;
        }
        }
    }
    /// For `do { ... } while (cmpxchg(x, r, n) != r);` (either side of the !=, any cmpxchg
    /// variant, atomic_cmpxchg too): the cmpxchg's access; else -1. The condition holds exactly
    /// when the cmpxchg failed (it returns the old value, and succeeds when that is r), and the
    /// cmpxchg is the condition's only access, so nothing follows it in the iteration.
    std::int32_t retry_cmpxchg(const Stmt& loop) const {
        if (!loop.post_test || loop.expr < 0) return -1;
        const Expr& c = p_.exprs[static_cast<std::size_t>(loop.expr)];
        // `while (!try_cmpxchg(x, &r, n))`: the condition holds exactly when it failed
        if (c.kind == ExprKind::Unary && static_cast<UnOp>(c.op) == UnOp::Not) {
            const Expr& call = p_.exprs[static_cast<std::size_t>(c.a)];
            if (call.kind != ExprKind::Call) return -1;
            const Access& a = p_.accesses[static_cast<std::size_t>(call.a)];
            if (a.plain || a.prim != Prim::TryCmpxchg) return -1;
            std::vector<std::int32_t> nested;
            accesses_in(a.addr, nested);
            accesses_in(a.vals[1], nested);
            return nested.empty() ? call.a : -1;
        }
        if (c.kind != ExprKind::Binary || static_cast<BinOp>(c.op) != BinOp::Ne) return -1;
        for (int side = 0; side < 2; ++side) {
            const Expr& call = p_.exprs[static_cast<std::size_t>(side == 0 ? c.a : c.b)];
            const Expr& other = p_.exprs[static_cast<std::size_t>(side == 0 ? c.b : c.a)];
            if (call.kind != ExprKind::Call || other.kind != ExprKind::Reg) continue;
            const Access& a = p_.accesses[static_cast<std::size_t>(call.a)];
            if (a.plain || (a.prim != Prim::Cmpxchg && a.prim != Prim::AtomicCmpxchg)) continue;
            const Expr& expected = p_.exprs[static_cast<std::size_t>(a.vals[0])];
            if (expected.kind != ExprKind::Reg || expected.reg != other.reg) continue;
            std::vector<std::int32_t> nested;
            accesses_in(a.addr, nested);
            accesses_in(a.vals[0], nested);
            accesses_in(a.vals[1], nested);
            if (!nested.empty()) continue;
            return call.a;
        }
        return -1;
    }
    /// Registers assigned by statement `stmt` (bits).
    void assigned_under(std::int32_t stmt, std::vector<bool>& out) const {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) assigned_under(p_.block_items[s.first + i], out);
            return;
        case StmtKind::If:
        case StmtKind::Loop:
            if (s.prelude >= 0) assigned_under(s.prelude, out);
            assigned_under(s.then_stmt, out);
            if (s.else_stmt >= 0) assigned_under(s.else_stmt, out);
            return;
        case StmtKind::Assign: out[s.reg] = true; return;
        case StmtKind::Return:
            if (s.expr >= 0) out[s.reg] = true;
            return;
        case StmtKind::Inline: assigned_under(s.then_stmt, out); return;
        default: return;
        }
    }
    /// Registers read by statement `stmt` or the statements under it, except those under `skip`.
    void read_under(std::int32_t stmt, std::int32_t skip, std::vector<bool>& out) const {
        if (stmt == skip) return;
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) read_under(p_.block_items[s.first + i], skip, out);
            return;
        case StmtKind::If:
        case StmtKind::Loop:
            if (s.prelude >= 0) read_under(s.prelude, skip, out);
            read_in(s.expr, out);
            read_under(s.then_stmt, skip, out);
            if (s.else_stmt >= 0) read_under(s.else_stmt, skip, out);
            return;
        case StmtKind::Store:
            read_in(p_.accesses[static_cast<std::size_t>(s.access)].addr, out);
            read_in(s.expr, out);
            return;
        case StmtKind::Expr:
        case StmtKind::Assign:
        case StmtKind::Return: read_in(s.expr, out); return;
        case StmtKind::Inline: read_under(s.then_stmt, skip, out); return;
        case StmtKind::Break:
        case StmtKind::Continue: return;
        }
    }
    void read_in(std::int32_t e, std::vector<bool>& out) const {
        if (e < 0) return;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return;
        case ExprKind::Reg: out[x.reg] = true; return;
        case ExprKind::Unary: read_in(x.a, out); return;
        case ExprKind::Binary: read_in(x.a, out); read_in(x.b, out); return;
        case ExprKind::Ternary: read_in(x.a, out); read_in(x.b, out); read_in(x.c, out); return;
        case ExprKind::Deref:
        case ExprKind::Call: {
            const Access& a = p_.accesses[static_cast<std::size_t>(x.a)];
            read_in(a.addr, out);
            read_in(a.vals[0], out);
            read_in(a.vals[1], out);
            return;
        }
        }
    }

    /// What the register rule of an await needs while walking one iteration.
    struct AwaitWalk {
        std::vector<bool> assigned;  ///< registers the loop assigns
        std::vector<bool> live;      ///< of those, the ones read after the loop (or named by the condition)
        bool ok = true;
    };
    /// Whether every register of `w.assigned` that expression `e` reads is in `defined`.
    void await_reads(std::int32_t e, const std::vector<bool>& defined, AwaitWalk& w) const {
        std::vector<bool> reads(defined.size(), false);
        read_in(e, reads);
        for (std::size_t r = 0; r < reads.size(); ++r)
            if (reads[r] && w.assigned[r] && !defined[r]) w.ok = false;
    }
    void await_exit(const std::vector<bool>& defined, AwaitWalk& w) const {
        for (std::size_t r = 0; r < defined.size(); ++r)
            if (w.assigned[r] && w.live[r] && !defined[r]) w.ok = false;
    }
    /// Walks statement `stmt` of an await's iteration: `defined`, the registers assigned so far in
    /// it. `returned`: for a function inlined in the iteration, the registers assigned at every
    /// return so far (null: a return leaves the loop, as the loop is in the function).
    void await_walk(std::int32_t stmt, std::vector<bool>& defined, AwaitWalk& w, std::vector<bool>* returned = nullptr) const {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) await_walk(p_.block_items[s.first + i], defined, w, returned);
            return;
        case StmtKind::Inline: {
            // After the call: what every path to its end (a return or the last statement)
            // assigned. The statements after a return are walked too, which only adds
            // registers to `defined` after the return's own were recorded.
            std::vector<bool> at_returns(defined.size(), true);
            await_walk(s.then_stmt, defined, w, &at_returns);
            for (std::size_t r = 0; r < defined.size(); ++r) defined[r] = defined[r] && at_returns[r];
            return;
        }
        case StmtKind::Return:
            await_reads(s.expr, defined, w);
            if (s.expr >= 0) defined[s.reg] = true;
            if (returned == nullptr) {
                await_exit(defined, w);
            } else {
                for (std::size_t r = 0; r < defined.size(); ++r) (*returned)[r] = (*returned)[r] && defined[r];
            }
            return;
        case StmtKind::If: {
            await_reads(s.expr, defined, w);
            std::vector<bool> other = defined;
            await_walk(s.then_stmt, defined, w, returned);
            if (s.else_stmt >= 0) await_walk(s.else_stmt, other, w, returned);
            for (std::size_t r = 0; r < defined.size(); ++r) defined[r] = defined[r] && other[r];
            return;
        }
        case StmtKind::Assign:
            await_reads(s.expr, defined, w);
            defined[s.reg] = true;
            return;
        case StmtKind::Expr: await_reads(s.expr, defined, w); return;
        case StmtKind::Break: await_exit(defined, w); return;
        case StmtKind::Store:
        case StmtKind::Loop:
        case StmtKind::Continue: w.ok = false; return;
        }
    }

    /// No condition (`for (;;)`) or a nonzero constant (`while (1)`): the loop ends only by break.
    bool always_true(std::int32_t e) const {
        if (e < 0) return true;
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        return x.kind == ExprKind::Const && x.value != 0;
    }

    bool is_await(unsigned proc, std::int32_t loop) const {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(loop)];
        const std::int32_t cas = retry_cmpxchg(s);
        std::vector<std::int32_t> acc;
        accesses_under(loop, acc);
        bool reads = false;
        for (std::int32_t ai : acc) {
            const Access& a = p_.accesses[static_cast<std::size_t>(ai)];
            if (ai == cas || is_marked_load(a)) {
                if (a.target < 0 || p_.locations[static_cast<std::size_t>(a.target)].plain) return false;
                reads = true;
            } else if (a.plain || a.prim != Prim::Barrier) {
                return false;
            }
        }
        if (!reads) return false;
        const Process& pr = p_.processes[proc];
        AwaitWalk w;
        w.assigned.assign(pr.regs.size(), false);
        w.live.assign(pr.regs.size(), false);
        assigned_under(loop, w.assigned);
        // A try_cmpxchg() writes its old value's register when it fails: a register the loop
        // assigns, which the next iteration must assign again before reading it.
        for (std::int32_t ai : acc)
            if (const Access& a = p_.accesses[static_cast<std::size_t>(ai)]; !a.plain && a.out_reg >= 0) w.assigned[a.out_reg] = true;
        read_under(pr.body, loop, w.live);
        for (const Operand& o : p_.observed)
            if (o.kind == Operand::Kind::Reg && o.proc == proc) w.live[o.reg] = true;
        std::vector<bool> defined(pr.regs.size(), false);
        if (!s.post_test) {
            if (s.prelude >= 0) await_walk(s.prelude, defined, w);
            await_reads(s.expr, defined, w);
            if (!always_true(s.expr)) await_exit(defined, w);  // the condition fails: the loop ends
        }
        await_walk(s.then_stmt, defined, w);
        if (s.post_test) {
            if (s.prelude >= 0) await_walk(s.prelude, defined, w);
            await_reads(s.expr, defined, w);
            if (!always_true(s.expr)) await_exit(defined, w);
        }
        if (s.else_stmt >= 0) w.ok = false;  // a for's step runs after a failed iteration: not an await (conservative)
        return w.ok;
    }

    /// Each srcu_read_lock() site opens its own section of its srcu_struct (one reader word).
    void number_srcu_sections() {
        unsigned structs = 0;
        for (const Location& l : p_.locations)
            if (l.type == LocType::Srcu && ++structs > max_srcu_structs)
                error(l.declared, "unsupported: more than " + std::to_string(max_srcu_structs) + " struct srcu_struct locations");
        for (Access& a : p_.accesses) {
            if (a.plain || a.prim != Prim::SrcuReadLock) continue;
            Location& l = p_.locations[static_cast<std::size_t>(a.target)];
            if (l.sections >= max_srcu_sections)
                error(a.pos, "unsupported: more than " + std::to_string(max_srcu_sections) + " srcu_read_lock() calls on '" + l.name + "'");
            a.section = l.sections++;
        }
    }

    /// Pairs each srcu_read_unlock() of process `proc` with the srcu_read_lock() whose value it is
    /// given, as LKMM does (srcu-rscs: the lock's value reaches the unlock through a data
    /// dependency). Followed through registers within the process only.
    void match_srcu_unlocks(unsigned proc) {
        for (std::size_t ai = 0; ai < p_.accesses.size(); ++ai) {
            Access& u = p_.accesses[ai];
            if (u.process != proc || u.plain || u.prim != Prim::SrcuReadUnlock) continue;
            const SiteSet& from = unlock_taint_[ai];
            if (from.count() > 1)
                error(u.pos, "unsupported: the index given to " + u.name + "() may come from more than one read; "
                             "ordercheck pairs each " + u.name + "() with the one srcu_read_lock() whose value it is given");
            const Access* lock = nullptr;
            for (std::size_t li = 0; li < p_.accesses.size() && !from.empty(); ++li) {
                const Access& l = p_.accesses[li];
                if (l.process == proc && from.contains(l.site) && !l.plain && l.prim == Prim::SrcuReadLock) {
                    lock = &l;
                    u.srcu_lock = static_cast<std::int32_t>(li);
                }
            }
            if (lock == nullptr)
                error(u.pos, "unsupported: the index given to " + u.name + "() does not come from a srcu_read_lock() or "
                             "srcu_down_read() of " + p_.processes[proc].name + " through registers; ordercheck pairs each " + u.name +
                             "() with the srcu_read_lock() whose value it is given, within one process (not through memory)");
            if (lock->target != u.target)
                error(u.pos, u.name + "() on '" + p_.locations[static_cast<std::size_t>(u.target)].name + "' is given the index of " +
                                 lock->name + "() on '" + p_.locations[static_cast<std::size_t>(lock->target)].name + "' at " +
                                 pos_text(lock->pos));
        }
    }

    /// Forward pass over one process: which reads' values reach an address.
    void dependencies(unsigned proc) {
        std::vector<SiteSet> taint(p_.processes[proc].regs.size());
        SiteSet heads;
        walk(proc, p_.processes[proc].body, taint, heads);
        for (Access& a : p_.accesses)
            if (a.process == proc && heads.contains(a.site) && promotable(a)) a.dep_head = true;
    }
    void walk(unsigned proc, std::int32_t stmt, std::vector<SiteSet>& taint, SiteSet& heads) {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) walk(proc, p_.block_items[s.first + i], taint, heads);
            break;
        case StmtKind::Expr: value_taint(s.expr, taint, heads); break;
        case StmtKind::Assign: taint[s.reg] = value_taint(s.expr, taint, heads); break;
        case StmtKind::Store: {
            const Access& a = p_.accesses[static_cast<std::size_t>(s.access)];
            heads |= value_taint(a.addr, taint, heads);
            value_taint(a.vals[0], taint, heads);
            break;
        }
        case StmtKind::If: {
            value_taint(s.expr, taint, heads);
            std::vector<SiteSet> other = taint;
            walk(proc, s.then_stmt, taint, heads);
            if (s.else_stmt >= 0) walk(proc, s.else_stmt, other, heads);
            for (std::size_t i = 0; i < taint.size(); ++i) taint[i] |= other[i];
            break;
        }
        case StmtKind::Loop:
            // A value read in one iteration reaches the next ones: to a fixed point (taints only grow).
            for (;;) {
                const std::vector<SiteSet> before = taint;
                const SiteSet heads_before = heads;
                if (s.prelude >= 0) walk(proc, s.prelude, taint, heads);
                value_taint(s.expr, taint, heads);
                walk(proc, s.then_stmt, taint, heads);
                if (s.else_stmt >= 0) walk(proc, s.else_stmt, taint, heads);
                for (std::size_t i = 0; i < taint.size(); ++i) taint[i] |= before[i];
                if (taint == before && heads == heads_before) break;
            }
            break;
        case StmtKind::Return:
            // the call's result register: the union over its returns
            if (s.expr >= 0) taint[s.reg] |= value_taint(s.expr, taint, heads);
            break;
        case StmtKind::Inline: walk(proc, s.then_stmt, taint, heads); break;
        case StmtKind::Break:
        case StmtKind::Continue: break;
        }
    }
    /// The reads (as a bit set of access sites) whose value may flow into expression `e`;
    /// records the reads flowing into an address in `heads`.
    SiteSet value_taint(std::int32_t e, const std::vector<SiteSet>& taint, SiteSet& heads) {
        if (e < 0) return {};
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return {};
        case ExprKind::Reg: return taint[x.reg];
        case ExprKind::Unary: return value_taint(x.a, taint, heads);
        case ExprKind::Binary: return value_taint(x.a, taint, heads) | value_taint(x.b, taint, heads);
        case ExprKind::Ternary:
            return value_taint(x.a, taint, heads) | value_taint(x.b, taint, heads) | value_taint(x.c, taint, heads);
        case ExprKind::Deref:
        case ExprKind::Call: {
            const Access& a = p_.accesses[static_cast<std::size_t>(x.a)];
            heads |= value_taint(a.addr, taint, heads);
            const SiteSet v0 = value_taint(a.vals[0], taint, heads);
            value_taint(a.vals[1], taint, heads);
            if (!a.plain && a.prim == Prim::SrcuReadUnlock) unlock_taint_[static_cast<std::size_t>(x.a)] |= v0;
            // Only marked reads head a dependency (LKMM's hb holds marked accesses only).
            return a.plain ? SiteSet{} : SiteSet::of(a.site);
        }
        }
        return {};
    }

    /// Decides which locations are plain (race-checked) and rejects mixes the engine cannot
    /// check exactly.
    void classify_locations() {
        const std::size_t n = p_.locations.size();
        std::vector<const Access*> first_plain(n, nullptr);
        std::vector<std::vector<const Access*>> marked(n);
        for (const Access& a : p_.accesses) {
            if (a.addr < 0) continue;  // fences, RCU
            if (!a.plain && (is_lock_prim(a.prim) || is_srcu_prim(a.prim) || is_mutex_prim(a.prim) || is_key_prim(a.prim)))
                continue;
            for (std::size_t l = 0; l < n; ++l) {
                const LocType t = p_.locations[l].type;
                const bool reaches = a.target >= 0 ? static_cast<std::size_t>(a.target) == l
                                                   : may_designate(p_, a.addr, l) && t != LocType::Lock && t != LocType::Srcu &&
                                                         t != LocType::Mutex && t != LocType::StaticKey;
                if (!reaches) continue;
                if (a.plain) {
                    if (first_plain[l] == nullptr) first_plain[l] = &a;
                } else {
                    marked[l].push_back(&a);
                }
            }
        }
        for (std::size_t l = 0; l < n; ++l) {
            Location& loc = p_.locations[l];
            if (first_plain[l] == nullptr) continue;
            loc.plain = true;
            loc.only_plain = marked[l].empty();
            const Access* other_process = nullptr;
            const std::string at = pos_text(first_plain[l]->pos);
            for (const Access* m : marked[l]) {
                const std::string via = m->target < 0 ? " (through a pointer that may point to it)" : "";
                if (!downgradable(*m))
                    error(m->pos, "unsupported: location '" + loc.name + "' is accessed plainly (at " + at +
                                      ") and with " + m->name + "()" + via + (m->dep_head ? ", which heads an address dependency" : "") +
                                      "; ordercheck checks races only on locations whose marked accesses are loads and stores: "
                                      "READ_ONCE/WRITE_ONCE, acquire loads, release stores (docs/litmus.md)");
                if (m->process != marked[l].front()->process) other_process = m;
                if (tag_only_downgradable(*m) && p_.kernel_model_only.empty())
                    p_.kernel_model_only = p_.file + ":" + pos_text(m->pos) + ": location '" + loc.name + "' is accessed plainly (at " +
                                           at + ") and with " + m->name + "(), whose ordering the C++11 mapping of a plain "
                                           "location would lose (docs/litmus.md)";
            }
            // Under LKMM the marked accesses keep their tags, and LKMM's data-race flag reads
            // them; under the C++11 mapping they would run as plain ones and race.
            if (other_process != nullptr && p_.kernel_model_only.empty())
                p_.kernel_model_only = p_.file + ":" + pos_text(other_process->pos) + ": location '" + loc.name +
                                       "' is accessed plainly (at " + at + ") and with marked accesses from more than one process, which the C++11 "
                                       "mapping would run as racing plain accesses (docs/litmus.md)";
        }
    }

    Program& p_;
    std::vector<SiteSet> unlock_taint_;  ///< per access: the reads whose value reaches a srcu_read_unlock()'s index
};

}  // namespace

void analyse(Program& p) { Analysis(p).run(); }

}  // namespace oc::litmus::detail
