// SPDX-License-Identifier: MIT
#include "litmus/interpreter.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <type_traits>

#include "checker/model/kernel.hpp"
#include "checker/model/primitives.hpp"
#include "litmus/parser.hpp"

namespace oc::litmus {

static_assert(std::is_same_v<Value, oc::Value>, "litmus values are the engine's values");

std::source_location source_location_of(const SpotImpl& spot) {
#if defined(__GLIBCXX__)
    // libstdc++'s std::source_location is one pointer to a {file, function, line, column}
    // record, which SpotImpl mirrors; this lets events name the litmus file and line.
    static_assert(sizeof(std::source_location) == sizeof(const void*));
    static_assert(std::is_trivially_copyable_v<std::source_location>);
    return std::bit_cast<std::source_location>(&spot);
#else
    (void)spot;
    return std::source_location::current();
#endif
}

std::shared_ptr<const Compiled> compile(Program program) {
    auto c = std::make_shared<Compiled>();
    c->program = std::move(program);
    const Program& p = c->program;
    c->spots.reserve(p.accesses.size() + p.locations.size());
    c->labels.reserve(p.accesses.size());
    for (const Access& a : p.accesses) {
        c->spots.push_back(SpotImpl{p.file.c_str(), "litmus", a.pos.line, a.pos.column});
        c->labels.push_back(a.dep_head ? a.name + "[dep]" : a.name);
    }
    for (const Location& l : p.locations)
        c->spots.push_back(SpotImpl{p.file.c_str(), "litmus", l.declared.line, l.declared.column});
    c->srcu_index.assign(p.locations.size(), -1);
    for (std::size_t i = 0; i < p.locations.size(); ++i) {
        if (p.locations[i].type != LocType::Srcu) continue;
        c->srcu_index[i] = static_cast<int>(c->srcu_section_names.size());
        std::vector<std::string> names(p.locations[i].sections);
        for (const Access& a : p.accesses)
            if (!a.plain && a.prim == Prim::SrcuReadLock && a.target == static_cast<std::int32_t>(i))
                names[a.section] = p.locations[i].name + "@" + p.processes[a.process].name + ":" + std::to_string(a.pos.line);
        c->srcu_section_names.push_back(std::move(names));
    }
    for (const auto& names : c->srcu_section_names) {
        std::vector<const char*> ptrs;
        for (const std::string& n : names) ptrs.push_back(n.c_str());
        c->srcu_section_name_ptrs.push_back(std::move(ptrs));
    }
    return c;
}

namespace {

using kernel::spinlock_t;

constexpr std::size_t slot_size = std::max({sizeof(Atomic<long>), sizeof(Plain<long>), sizeof(spinlock_t)});
constexpr std::size_t slot_align = std::max({alignof(Atomic<long>), alignof(Plain<long>), alignof(spinlock_t)});

enum class SlotKind : std::uint8_t { None, Atomic, Plain, Lock, Srcu };

static_assert(max_srcu_sections <= kernel::srcu_struct::max_sections, "a srcu_struct holds every section the parser allows");

struct alignas(slot_align) LocationSlot {
    unsigned char bytes[slot_size];
};

Value wrap_add(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b)); }
Value wrap_sub(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b)); }
Value wrap_mul(Value a, Value b) { return static_cast<Value>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b)); }

/// One execution of the test. Constructed by the engine for every execution; allocates nothing.
class Instance final : public ModelInstance {
public:
    Instance(const Compiled& c, RunMode mode, unsigned threads) : c_(c), p_(c.program) {
        const std::size_t nl = p_.locations.size();
        for (std::size_t i = 0; i < nl; ++i) {
            const Location& l = p_.locations[i];
            const std::source_location where = source_location_of(c_.spots[p_.accesses.size() + i]);
            void* at = static_cast<void*>(slots_[i].bytes);
            if (l.type == LocType::Lock) {
                ::new (at) spinlock_t(l.name.c_str(), where);
                kinds_[i] = SlotKind::Lock;
            } else if (l.type == LocType::Srcu) {
                // An opaque domain, not a memory location: its sections' reader words are.
                const int k = c_.srcu_index[i];
                ::new (static_cast<void*>(srcu_[k])) kernel::srcu_struct(l.sections, c_.srcu_section_name_ptrs[static_cast<std::size_t>(k)].data(), where);
                kinds_[i] = SlotKind::Srcu;
            } else if (l.plain && mode == RunMode::RaceCheck) {
                ::new (at) Plain<long>(l.name.c_str(), l.init, where);
                kinds_[i] = SlotKind::Plain;
            } else {
                ::new (at) Atomic<long>(l.name.c_str(), l.init, where);
                kinds_[i] = SlotKind::Atomic;
            }
        }
        if (p_.computes_addresses)
            for (std::size_t k = 0; k < max_computed_locations; ++k) {
                ::new (static_cast<void*>(slots_[nl + k].bytes)) Atomic<long>(computed_names[k], 0, source_location_of(c_.spots.back()));
                kinds_[nl + k] = SlotKind::Atomic;
            }
        for (std::size_t pi = 0; pi < p_.processes.size(); ++pi)
            for (std::size_t r = 0; r < p_.processes[pi].regs.size(); ++r) {
                const Register& reg = p_.processes[pi].regs[r];
                // A pointer parameter is no register of the test's states (herd shows none),
                // unless the condition names it.
                const bool named = std::any_of(p_.observed.begin(), p_.observed.end(), [&](const Operand& o) {
                    return o.kind == Operand::Kind::Reg && o.proc == pi && o.reg == r;
                });
                if (reg.is_param && !named)
                    ::new (static_cast<void*>(regs_[pi][r])) Reg(reg.full_name.c_str(), reg.init, Reg::Unobserved{});
                else
                    ::new (static_cast<void*>(regs_[pi][r])) Reg(reg.full_name.c_str(), reg.init);
            }
        // The final values of the locations a state shows.
        for (std::size_t i = 0; i < nl; ++i) observed_[i] = LocationRef{this, static_cast<std::uint16_t>(i)};
        for (const Operand& o : p_.observed)
            if (o.kind == Operand::Kind::Loc)
                runtime().add_observable(ObservableSlot{p_.locations[o.loc].name.c_str(), read_location,
                                                        &observed_[o.loc]});
        if (p_.filter >= 0) runtime().add_observable(ObservableSlot{filter_observable, read_filter, this});
        if (p_.uses_rcu) ::new (static_cast<void*>(rcu_)) kernel::rcu_domain(threads);
    }

    ~Instance() override {
        if (p_.uses_rcu) rcu().~rcu_domain();
        for (std::size_t pi = 0; pi < p_.processes.size(); ++pi)
            for (std::size_t r = 0; r < p_.processes[pi].regs.size(); ++r) reg(static_cast<unsigned>(pi), r).~Reg();
        for (std::size_t i = 0; i < p_.locations.size() + (p_.computes_addresses ? max_computed_locations : 0); ++i) {
            switch (kinds_[i]) {
            case SlotKind::Atomic: atomic_slot(i).~Atomic(); break;
            case SlotKind::Plain: plain_slot(i).~Plain(); break;
            case SlotKind::Lock: lock_slot(i).~spinlock_t(); break;
            case SlotKind::Srcu: srcu_at(i).~srcu_struct(); break;
            case SlotKind::None: break;
            }
        }
    }
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    void run_thread(unsigned index) override {
        if (index < p_.processes.size()) exec(index, p_.processes[index].body);
        // else: the idle thread of a one-process test
    }

    bool bad_outcome() const override { return filter_holds() && holds(p_.condition); }

private:
    struct LocationRef {
        const Instance* self = nullptr;
        std::uint16_t loc = 0;
    };
    static Value read_location(const void* ref) {
        const auto* r = static_cast<const LocationRef*>(ref);
        return r->self->final_value(r->loc);
    }
    static Value read_filter(const void* self) { return static_cast<const Instance*>(self)->filter_holds() ? 1 : 0; }

    // ---- storage ----
    Atomic<long>& atomic_slot(std::size_t i) { return *std::launder(reinterpret_cast<Atomic<long>*>(slots_[i].bytes)); }
    const Atomic<long>& atomic_slot(std::size_t i) const {
        return *std::launder(reinterpret_cast<const Atomic<long>*>(slots_[i].bytes));
    }
    Plain<long>& plain_slot(std::size_t i) { return *std::launder(reinterpret_cast<Plain<long>*>(slots_[i].bytes)); }
    const Plain<long>& plain_slot(std::size_t i) const {
        return *std::launder(reinterpret_cast<const Plain<long>*>(slots_[i].bytes));
    }
    spinlock_t& lock_slot(std::size_t i) { return *std::launder(reinterpret_cast<spinlock_t*>(slots_[i].bytes)); }
    const spinlock_t& lock_slot(std::size_t i) const {
        return *std::launder(reinterpret_cast<const spinlock_t*>(slots_[i].bytes));
    }
    Reg& reg(unsigned proc, std::size_t r) { return *std::launder(reinterpret_cast<Reg*>(regs_[proc][r])); }
    const Reg& reg(unsigned proc, std::size_t r) const { return *std::launder(reinterpret_cast<const Reg*>(regs_[proc][r])); }
    kernel::rcu_domain& rcu() { return *std::launder(reinterpret_cast<kernel::rcu_domain*>(rcu_)); }
    kernel::srcu_struct& srcu_at(std::size_t loc) {
        return *std::launder(reinterpret_cast<kernel::srcu_struct*>(srcu_[c_.srcu_index[loc]]));
    }

    // ---- final state ----
    Value final_value(std::size_t loc) const {
        switch (kinds_[loc]) {
        case SlotKind::Atomic: return atomic_slot(loc).final();
        case SlotKind::Plain: return plain_slot(loc).final();
        case SlotKind::Lock: return lock_slot(loc).word.final();
        case SlotKind::Srcu: return p_.locations[loc].init;  // herd's srcu_read_unlock() writes back what srcu_read_lock() read
        case SlotKind::None: break;
        }
        return 0;
    }
    Value operand(const Operand& o) const {
        switch (o.kind) {
        case Operand::Kind::Const:
        case Operand::Kind::Address: return o.value;
        case Operand::Kind::Reg: return reg(o.proc, o.reg).value();
        case Operand::Kind::Loc: return final_value(o.loc);
        }
        return 0;
    }
    bool filter_holds() const { return p_.filter < 0 || holds(p_.filter); }
    bool holds(std::int32_t prop) const {
        const Prop& x = p_.props[static_cast<std::size_t>(prop)];
        switch (x.kind) {
        case PropKind::True: return true;
        case PropKind::False: return false;
        case PropKind::Eq: return operand(x.lhs) == operand(x.rhs);
        case PropKind::Ne: return operand(x.lhs) != operand(x.rhs);
        case PropKind::Not: return !holds(x.a);
        case PropKind::And: return holds(x.a) && holds(x.b);
        case PropKind::Or: return holds(x.a) || holds(x.b);
        case PropKind::Implies: return !holds(x.a) || holds(x.b);
        }
        return false;
    }

    // ---- dependencies ----
    // LKMM orders a read before a later access whose address (addr), written value (data) or
    // execution (ctrl) depends on the read's value. The interpreter follows values: every value
    // carries a Taint, the reads it came from; an access records the taints of its address, of
    // the values it writes and of the conditions it runs under (runtime().set_dependencies()).
    // What herd7 7.57 does with linux-kernel.cfg (linux 6.1), shown by the corpus tests named
    // (litmus/tests/, Result: herd's verdict) and by the S-shaped cases of the interpreter's unit
    // tests (tests/litmus/interpreter_test.cpp, "LKMM dependencies: verdicts ...", each run
    // through herd7 too):
    //  * ctrl reaches the events of the branch taken, nested ifs included, and not the events
    //    after the if: S+wmb+ctrl Never, S+wmb+ctrl-after-if Sometimes, LB+ctrl-after-if+mb
    //    Sometimes; `if (r0) { if (r2) ...; WRITE_ONCE(*x, 1); }` Never. Nor does it reach a
    //    register assigned in a branch: `if (r0) r2 = 1; else r2 = 1; WRITE_ONCE(*x, r2)`
    //    Sometimes (but `if (r0) r2 = r0; ...` carries r0's data dependency: Never);
    //  * data and addr follow values through registers and every operator herd parses
    //    (+ - * / & | ^ == != < <= > >= and casts), false dependencies included:
    //    S+wmb+data-arith (`r0 + 1 - r0`), LB+datas, LB+addrs (`y + r0 - r0`) Never,
    //    MP+onceassign+addr-reg Never; a value from another register carries none:
    //    S+wmb+data-otherreg, MP+onceassign+addr-otherreg Sometimes;
    //  * cmpxchg's new value is data, its expected value nothing: S+wmb+cmpxchg-new Never,
    //    S+wmb+cmpxchg-expected Sometimes (see written_operand());
    //  * herd7's C parser has no `?:`, `&&`, `||`, `!`, `~`, `%`, `<<`, `>>` nor unary `-` (a lex
    //    or syntax error). Here their value carries the union of their operands' taints, and an
    //    access in the operand that runs only if the first operand says so is ctrl-dependent on
    //    it, as in the branch of an if: `c ? a : b` and `c && a` are `if (c) a` for the events of
    //    `a`. After the expression, no ctrl, as after an if.

    /// The reads a value came from: bit i is the running thread's read at po index i. Dependency
    /// masks have 64 bits; a read at po index 64 or more sets `beyond` instead, and an access
    /// that depends on it stops the execution under LKMM (see DependencyScope).
    struct Taint {
        std::uint64_t reads = 0;
        bool beyond = false;
        Taint& operator|=(const Taint& o) {
            reads |= o.reads;
            beyond = beyond || o.beyond;
            return *this;
        }
    };

    /// Sets the dependencies of one access's events for the duration of the primitive call, and
    /// on leaving adds to `result` the reads the call recorded: the value it returns comes from
    /// them (a READ_ONCE's read, the read part of an RMW, every attempt of a retrying primitive).
    class DependencyScope {
    public:
        DependencyScope(const Taint& addr, const Taint& data, const Taint& ctrl, Taint& result, std::source_location where)
            : result_(result), first_(runtime().next_event_id().index) {
            if ((addr.beyond || data.beyond || ctrl.beyond) && runtime().lkmm())
                runtime().fail("unsupported: a dependency on a read at po index 64 or later (LKMM dependencies are 64-bit "
                               "masks over the first 64 events of a thread)",
                               where);
            runtime().set_dependencies(addr.reads, data.reads, ctrl.reads);
        }
        ~DependencyScope() {
            runtime().set_dependencies(0, 0, 0);
            const EventId next = runtime().next_event_id();
            const ExecutionGraph& g = runtime().graph();
            for (std::uint32_t i = first_; i < next.index; ++i) {
                const EventId id{next.thread, i};
                // Without capture (--no-capture) the runtime keeps no graph: every event of the
                // call counts, and the LKMM judge keeps only the reads (checker/memory_model/lkmm.cpp).
                if (g.contains(id) && !g.event(id).is_read()) continue;
                if (i < 64) result_.reads |= std::uint64_t{1} << i;
                else result_.beyond = true;
            }
        }
        DependencyScope(const DependencyScope&) = delete;
        DependencyScope& operator=(const DependencyScope&) = delete;

    private:
        Taint& result_;
        std::uint32_t first_;
    };

    /// Whether value operand `i` of `a` is written (a data dependency of its write): every value
    /// operand but cmpxchg's expected value (herd: no dependency, above) and atomic_add_unless()'s
    /// `u`, its counterpart (unobservable in herd: atomic_add_unless() is fully ordered when it
    /// writes).
    static bool written_operand(const Access& a, int i) {
        switch (a.prim) {
        case Prim::Cmpxchg:
        case Prim::AtomicCmpxchg: return i == 1;
        case Prim::AddUnless: return i == 0;
        default: return true;
        }
    }

    /// Runs `fn` with the accesses it makes ctrl-dependent on `cond` too (a branch).
    template <class Fn> decltype(auto) under_condition(unsigned proc, const Taint& cond, Fn&& fn) {
        const Taint outer = ctrl_[proc];
        ctrl_[proc] |= cond;
        struct Restore {
            Taint& ctrl;
            Taint outer;
            ~Restore() { ctrl = outer; }
        } restore{ctrl_[proc], outer};
        return fn();
    }

    // ---- statements ----
    void exec(unsigned proc, std::int32_t stmt) {
        const Stmt& s = p_.stmts[static_cast<std::size_t>(stmt)];
        Taint t;
        switch (s.kind) {
        case StmtKind::Block:
            for (std::uint32_t i = 0; i < s.count; ++i) exec(proc, p_.block_items[s.first + i]);
            return;
        case StmtKind::Expr: eval(proc, s.expr, t); return;
        case StmtKind::Assign:
            reg(proc, s.reg) = eval(proc, s.expr, t);
            reg_taint_[proc][s.reg] = t;
            return;
        case StmtKind::Store: access(proc, static_cast<std::size_t>(s.access), t); return;
        case StmtKind::If: {
            const bool taken = eval(proc, s.expr, t) != 0;
            // ctrl for the branch taken only: herd gives none to what follows the if (above).
            under_condition(proc, t, [&] {
                if (taken) exec(proc, s.then_stmt);
                else if (s.else_stmt >= 0) exec(proc, s.else_stmt);
            });
            return;
        }
        }
    }

    /// Evaluates expression `e`, adding to `taint` the reads its value came from.
    Value eval(unsigned proc, std::int32_t e, Taint& taint) {
        const Expr& x = p_.exprs[static_cast<std::size_t>(e)];
        switch (x.kind) {
        case ExprKind::Const: return x.value;
        case ExprKind::Reg:
            taint |= reg_taint_[proc][x.reg];
            return reg(proc, x.reg).value();
        case ExprKind::Unary: {
            const Value a = eval(proc, x.a, taint);
            switch (static_cast<UnOp>(x.op)) {
            case UnOp::Neg: return wrap_sub(0, a);
            case UnOp::Not: return a == 0 ? 1 : 0;
            case UnOp::BitNot: return ~a;
            }
            return 0;
        }
        case ExprKind::Binary: return binary(proc, x, taint);
        case ExprKind::Ternary: {
            Taint cond;
            const bool c = eval(proc, x.a, cond) != 0;
            taint |= cond;
            return under_condition(proc, cond, [&] { return eval(proc, c ? x.b : x.c, taint); });
        }
        case ExprKind::Deref:
        case ExprKind::Call: return access(proc, static_cast<std::size_t>(x.a), taint);
        }
        return 0;
    }

    Value binary(unsigned proc, const Expr& x, Taint& taint) {
        const auto op = static_cast<BinOp>(x.op);
        if (op == BinOp::LogAnd || op == BinOp::LogOr) {
            // The right operand runs only if the left one says so: a branch.
            Taint cond;
            const bool a = eval(proc, x.a, cond) != 0;
            taint |= cond;
            if (a == (op == BinOp::LogOr)) return a ? 1 : 0;
            return under_condition(proc, cond, [&] { return eval(proc, x.b, taint) != 0 ? 1 : 0; });
        }
        const Value a = eval(proc, x.a, taint);
        const Value b = eval(proc, x.b, taint);
        switch (op) {
        case BinOp::Mul: return wrap_mul(a, b);
        case BinOp::Div:
            if (b == 0) fail_at(x.pos, "division by zero");
            return b == -1 ? wrap_sub(0, a) : a / b;
        case BinOp::Mod:
            if (b == 0) fail_at(x.pos, "division by zero");
            return b == -1 ? 0 : a % b;
        case BinOp::Add: return wrap_add(a, b);
        case BinOp::Sub: return wrap_sub(a, b);
        case BinOp::Shl:
            if (b < 0 || b > 63) fail_at(x.pos, "shift count out of range");
            return static_cast<Value>(static_cast<std::uint64_t>(a) << b);
        case BinOp::Shr:
            if (b < 0 || b > 63) fail_at(x.pos, "shift count out of range");
            return a >> b;
        case BinOp::Lt: return a < b;
        case BinOp::Le: return a <= b;
        case BinOp::Gt: return a > b;
        case BinOp::Ge: return a >= b;
        case BinOp::Eq: return a == b;
        case BinOp::Ne: return a != b;
        case BinOp::BitAnd: return a & b;
        case BinOp::BitXor: return a ^ b;
        case BinOp::BitOr: return a | b;
        case BinOp::LogAnd:
        case BinOp::LogOr: break;
        }
        return 0;
    }

    [[noreturn]] void fail_at(SourcePos pos, const char* message) {
        const SpotImpl spot{p_.file.c_str(), "litmus", pos.line, pos.column};
        runtime().fail(message, source_location_of(spot));
    }

    // ---- accesses ----
    /// The location an access's address expression designates; `taint` gets the reads the
    /// address came from (an addr dependency).
    /// An address off one of the test's locations (`y + r2` with r2 = -1) is a location of its own,
    /// as herd's `y+-1`: a computed location (slot nl + address mod max_computed_locations), which
    /// starts at 0.
    std::size_t resolve(unsigned proc, const Access& a, std::source_location where, Taint& taint) {
        const Value v = eval(proc, a.addr, taint);
        const std::size_t nl = p_.locations.size();
        if (const std::int64_t l = location_at(v, nl); l >= 0) return static_cast<std::size_t>(l);
        const Value from = v - address_base;
        const Value nearest = from + address_stride / 2 >= 0 ? (from + address_stride / 2) / address_stride : -1;
        const Value offset = from - nearest * address_stride;
        if (nearest < 0 || nearest >= static_cast<Value>(nl) || offset <= -address_limit || offset >= address_limit)
            runtime().fail("dereference of a value that is not the address of a location", where);
        if (!p_.computes_addresses)
            runtime().fail("unsupported: an address computed off a location outside an access's address expression", where);
        const auto k = static_cast<std::size_t>(static_cast<std::uint64_t>(v) % max_computed_locations);
        if (computed_[k] != 0 && computed_[k] != v)
            runtime().fail("unsupported: two computed addresses share a computed location (ordercheck runs up to 4 "
                           "addresses off the test's locations per execution)",
                           where);
        computed_[k] = v;
        return nl + k;
    }
    /// A bit number of a bitop: 0..62 (the model's words are longs; bit 63 is the sign).
    static unsigned bit_number(Value nr, std::source_location where) {
        if (nr < 0 || nr > 62) runtime().fail("a bit operation's bit number must be 0 to 62", where);
        return static_cast<unsigned>(nr);
    }
    Atomic<long>& atomic_at(std::size_t loc, std::source_location where) {
        if (kinds_[loc] != SlotKind::Atomic)
            runtime().fail(kinds_[loc] == SlotKind::Lock   ? "a memory access to a spinlock_t"
                           : kinds_[loc] == SlotKind::Srcu ? "a memory access to a struct srcu_struct"
                                                           : "unsupported: an ordered access to a plainly accessed location",
                           where);
        return atomic_slot(loc);
    }
    spinlock_t& lock_at(std::size_t loc, std::source_location where) {
        if (kinds_[loc] != SlotKind::Lock) runtime().fail("a spinlock operation on a location that is not a spinlock_t", where);
        return lock_slot(loc);
    }

    /// Runs access site `ai`; `result` gets the reads the returned value came from.
    Value access(unsigned proc, std::size_t ai, Taint& result) {
        const Access& a = p_.accesses[ai];
        const std::source_location where = source_location_of(c_.spots[ai]);
        // The operands first, with the reads each came from: an access among them (`*z2 = *z1`,
        // the only kind of second access the parser allows in a statement) runs here, before
        // this one, and its value's taint is a data or addr dependency of this access.
        Taint addr, data, unwritten;
        Value v0 = 0, v1 = 0;
        if (a.vals[0] >= 0) v0 = eval(proc, a.vals[0], written_operand(a, 0) ? data : unwritten);
        if (a.vals[1] >= 0) v1 = eval(proc, a.vals[1], written_operand(a, 1) ? data : unwritten);
        const std::size_t loc = a.addr >= 0 ? resolve(proc, a, where, addr) : 0;
        const DependencyScope deps(addr, data, ctrl_[proc], result, where);
        if (a.plain) return plain_access(a, loc, v0, where);
        return primitive(a, ai, loc, v0, v1, where);
    }

    /// A primitive call, its operands evaluated: `loc` the location (unused without an address).
    Value primitive(const Access& a, std::size_t ai, std::size_t loc, Value v0, Value v1, std::source_location where) {
        const char* label = c_.labels[ai].c_str();
        namespace k = kernel;
        Order order = a.order;
        // Under the C++11 mapping, the head of an address dependency is read as acquire (consume
        // as compilers implement it); LKMM orders by the dependency itself.
        const bool consume_as_acquire = a.dep_head && !runtime().lkmm();
        if (consume_as_acquire && order == Order::Relaxed) order = Order::Acquire;
        // Accesses that may meet a downgraded (plain) location first.
        switch (a.prim) {
        case Prim::ReadOnce:
        case Prim::AtomicRead: {
            if (kinds_[loc] == SlotKind::Plain) return downgraded_read(loc, label, where);
            PrimitiveScope s(label, where);
            if (consume_as_acquire) return k::smp_load_acquire(atomic_at(loc, where), where);
            return a.prim == Prim::ReadOnce ? k::READ_ONCE(atomic_at(loc, where), where)
                                            : k::atomic_read(atomic_at(loc, where), where);
        }
        case Prim::WriteOnce:
        case Prim::AtomicSet: {
            const Value v = v0;
            if (kinds_[loc] == SlotKind::Plain) {
                PrimitiveScope s(label, where);
                plain_slot(loc).write(v, where);
                return 0;
            }
            PrimitiveScope s(label, where);
            if (a.prim == Prim::WriteOnce) k::WRITE_ONCE(atomic_at(loc, where), v, where);
            else k::atomic_set(atomic_at(loc, where), v, where);
            return 0;
        }
        default: break;
        }
        // Fences and RCU: no location.
        switch (a.prim) {
        case Prim::Mb: k::smp_mb(where); return 0;
        case Prim::Rmb: k::smp_rmb(where); return 0;
        case Prim::Wmb: k::smp_wmb(where); return 0;
        case Prim::MbBeforeAtomic: k::smp_mb__before_atomic(where); return 0;
        case Prim::MbAfterAtomic: k::smp_mb__after_atomic(where); return 0;
        case Prim::MbAfterSpinlock: k::smp_mb__after_spinlock(where); return 0;
        case Prim::Barrier: return 0;
        case Prim::MbAfterUnlockLock: k::smp_mb__after_unlock_lock(where); return 0;
        case Prim::MbAfterSrcuReadUnlock: k::smp_mb__after_srcu_read_unlock(where); return 0;
        case Prim::RcuReadLock: k::rcu_read_lock(rcu(), where); return 0;
        case Prim::RcuReadUnlock: k::rcu_read_unlock(rcu(), where); return 0;
        case Prim::SynchronizeRcu: k::synchronize_rcu(rcu(), where); return 0;
        default: break;
        }
        // Void RMWs: no enclosing scope, so that a preceding smp_mb__before_atomic() keeps its
        // own name on the fence it places.
        switch (a.prim) {
        case Prim::AtomicAdd: k::atomic_add(v0, atomic_at(loc, where), where); return 0;
        case Prim::AtomicSub: k::atomic_sub(v0, atomic_at(loc, where), where); return 0;
        case Prim::AtomicInc: k::atomic_inc(atomic_at(loc, where), where); return 0;
        case Prim::AtomicDec: k::atomic_dec(atomic_at(loc, where), where); return 0;
        case Prim::AtomicAnd: k::atomic_and(v0, atomic_at(loc, where), where); return 0;
        case Prim::AtomicOr: k::atomic_or(v0, atomic_at(loc, where), where); return 0;
        case Prim::AtomicXor: k::atomic_xor(v0, atomic_at(loc, where), where); return 0;
        case Prim::AtomicAndnot: k::atomic_andnot(v0, atomic_at(loc, where), where); return 0;
        case Prim::SetBit: k::set_bit(bit_number(v0, where), atomic_at(loc, where), where); return 0;
        case Prim::ClearBit: k::clear_bit(bit_number(v0, where), atomic_at(loc, where), where); return 0;
        default: break;
        }
        // Everything else, under the litmus test's own name.
        PrimitiveScope s(label, where);
        if (a.prim == Prim::SpinLock || a.prim == Prim::SpinUnlock || a.prim == Prim::SpinTrylock ||
            a.prim == Prim::SpinIsLocked) {
            spinlock_t& l = lock_at(loc, where);
            switch (a.prim) {
            case Prim::SpinLock: k::spin_lock(l, where); return 0;
            case Prim::SpinUnlock: k::spin_unlock(l, where); return 0;
            case Prim::SpinTrylock: return k::spin_trylock(l, where) ? 1 : 0;
            default: return k::spin_is_locked(l, where) ? 1 : 0;
            }
        }
        if (a.prim == Prim::SrcuReadLock || a.prim == Prim::SrcuReadUnlock || a.prim == Prim::SynchronizeSrcu) {
            if (kinds_[loc] != SlotKind::Srcu) runtime().fail("an SRCU operation on a location that is not a struct srcu_struct", where);
            kernel::srcu_struct& ss = srcu_at(loc);
            // The index: herd's srcu_read_lock() reads the srcu_struct's word, which every
            // srcu_read_unlock() writes back unchanged, so it is the initial value (0). The
            // section is the one the parser gave this srcu_read_lock() site (one per site).
            const Value index = p_.locations[loc].init;
            if (runtime().lkmm()) {
                // LKMM: srcu-lock, srcu-unlock and sync-srcu events; srcu_read_lock() returns a
                // value of its own (as herd's does), srcu_read_unlock() carries the value it is
                // given, and the bell matches the two by nesting (srcu-bad-nesting otherwise)
                switch (a.prim) {
                case Prim::SrcuReadLock: return k::srcu_read_lock_section(ss, a.section, where);
                case Prim::SrcuReadUnlock: k::srcu_read_unlock(ss, static_cast<int>(v0), where); return 0;
                default: k::synchronize_srcu(ss, where); return 0;
                }
            }
            switch (a.prim) {
            case Prim::SrcuReadLock: k::srcu_read_lock_section(ss, a.section, where); return index;
            case Prim::SrcuReadUnlock:
                if (v0 != index) runtime().fail("srcu_read_unlock() is given another value than srcu_read_lock() returned", where);
                k::srcu_read_unlock(ss, static_cast<int>(p_.accesses[static_cast<std::size_t>(a.srcu_lock)].section), where);
                return 0;
            default: k::synchronize_srcu(ss, where); return 0;
            }
        }
        Atomic<long>& x = atomic_at(loc, where);
#define OC_BY_ORDER(fn, ...)                                                   \
    switch (order) {                                                           \
    case Order::Full: return k::fn(__VA_ARGS__, where);                        \
    case Order::Relaxed: return k::fn##_relaxed(__VA_ARGS__, where);           \
    case Order::Acquire: return k::fn##_acquire(__VA_ARGS__, where);           \
    case Order::Release: return k::fn##_release(__VA_ARGS__, where);           \
    }                                                                          \
    return 0
        switch (a.prim) {
        case Prim::LoadAcquire: return k::smp_load_acquire(x, where);
        case Prim::RcuDereference: return k::rcu_dereference(x, where);
        case Prim::AtomicReadAcquire: return k::atomic_read_acquire(x, where);
        case Prim::StoreRelease: k::smp_store_release(x, v0, where); return 0;
        case Prim::RcuAssignPointer: k::rcu_assign_pointer(x, v0, where); return 0;
        case Prim::StoreMb:
            k::WRITE_ONCE(x, v0, where);
            k::smp_mb(where);
            return 0;
        case Prim::AtomicSetRelease: k::atomic_set_release(x, v0, where); return 0;
        case Prim::AddReturn: OC_BY_ORDER(atomic_add_return, v0, x);
        case Prim::SubReturn: OC_BY_ORDER(atomic_sub_return, v0, x);
        case Prim::IncReturn: OC_BY_ORDER(atomic_add_return, 1, x);
        case Prim::DecReturn: OC_BY_ORDER(atomic_sub_return, 1, x);
        case Prim::FetchAdd: OC_BY_ORDER(atomic_fetch_add, v0, x);
        case Prim::FetchSub: OC_BY_ORDER(atomic_fetch_sub, v0, x);
        case Prim::FetchInc: OC_BY_ORDER(atomic_fetch_add, 1, x);
        case Prim::FetchDec: OC_BY_ORDER(atomic_fetch_sub, 1, x);
        case Prim::FetchAnd: OC_BY_ORDER(atomic_fetch_and, v0, x);
        case Prim::FetchOr: OC_BY_ORDER(atomic_fetch_or, v0, x);
        case Prim::FetchXor: OC_BY_ORDER(atomic_fetch_xor, v0, x);
        case Prim::FetchAndnot: OC_BY_ORDER(atomic_fetch_andnot, v0, x);
        case Prim::AtomicXchg: OC_BY_ORDER(atomic_xchg, x, v0);
        case Prim::Xchg:
            switch (order) {
            case Order::Full: return k::xchg(x, v0, where);
            case Order::Relaxed: return k::xchg_relaxed(x, v0, where);
            case Order::Acquire: return k::atomic_xchg_acquire(x, v0, where);
            case Order::Release: return k::atomic_xchg_release(x, v0, where);
            }
            return 0;
        case Prim::AtomicCmpxchg: OC_BY_ORDER(atomic_cmpxchg, x, v0, v1);
        case Prim::Cmpxchg: OC_BY_ORDER(cmpxchg, x, v0, v1);
        case Prim::SubAndTest: return k::atomic_sub_and_test(v0, x, where) ? 1 : 0;
        case Prim::DecAndTest: return k::atomic_dec_and_test(x, where) ? 1 : 0;
        case Prim::IncAndTest: return k::atomic_inc_and_test(x, where) ? 1 : 0;
        case Prim::AddNegative: {
            // atomic_add_negative{,_relaxed,_acquire,_release}: the add_return of that ordering, < 0.
            const Value r = [&]() -> Value { OC_BY_ORDER(atomic_add_return, v0, x); }();
            return r < 0 ? 1 : 0;
        }
        case Prim::AddUnless: return k::atomic_add_unless(x, v0, v1, where) ? 1 : 0;
        case Prim::TestAndSetBit: return k::test_and_set_bit(bit_number(v0, where), x, where) ? 1 : 0;
        case Prim::TestAndClearBit: return k::test_and_clear_bit(bit_number(v0, where), x, where) ? 1 : 0;
        default: break;
        }
#undef OC_BY_ORDER
        runtime().fail("internal: a primitive the interpreter does not dispatch", where);
    }

    Value downgraded_read(std::size_t loc, const char* label, std::source_location where) {
        PrimitiveScope s(label, where);
        return plain_slot(loc).read(where);
    }

    /// `*x` and `*x = v` (`v`): plain accesses, race-checked when the location is Plain.
    Value plain_access(const Access& a, std::size_t loc, Value v, std::source_location where) {
        switch (kinds_[loc]) {
        case SlotKind::Plain:
            if (a.plain_write) {
                plain_slot(loc).write(v, where);
                return 0;
            }
            return plain_slot(loc).read(where);
        case SlotKind::Atomic:
            // PlainAsRelaxed (or a location the analysis proved unreachable from plain code).
            if (a.plain_write) {
                atomic_slot(loc).store(v, relaxed, where);
                return 0;
            }
            return atomic_slot(loc).load(relaxed, where);
        case SlotKind::Srcu: runtime().fail("a plain access to a struct srcu_struct", where);
        case SlotKind::Lock:
        case SlotKind::None: break;
        }
        runtime().fail("a plain access to a spinlock_t", where);
    }

    const Compiled& c_;
    const Program& p_;
    static constexpr const char* computed_names[max_computed_locations] = {"computed0", "computed1", "computed2", "computed3"};
    LocationSlot slots_[max_test_locations + max_computed_locations];
    SlotKind kinds_[max_test_locations + max_computed_locations] = {};
    Value computed_[max_computed_locations] = {};  ///< the address each computed location stands for (0: none yet)
    LocationRef observed_[max_test_locations];
    Taint reg_taint_[max_processes][max_registers] = {};  ///< the reads each register's value came from
    Taint ctrl_[max_processes] = {};  ///< the reads the conditions of the enclosing branches came from
    alignas(Reg) unsigned char regs_[max_processes][max_registers][sizeof(Reg)];
    alignas(kernel::rcu_domain) unsigned char rcu_[sizeof(kernel::rcu_domain)];
    alignas(kernel::srcu_struct) unsigned char srcu_[max_srcu_structs][sizeof(kernel::srcu_struct)];
};

Verdict verdict_of(Outcome o) {
    switch (o) {
    case Outcome::Always: return Verdict::Always;
    case Outcome::Never: return Verdict::Never;
    case Outcome::Sometimes:
    case Outcome::Maybe:
    case Outcome::Deadlock: break;
    }
    return Verdict::Sometimes;
}
Finding finding_of(const Expected& e) {
    if (e.outcome == Outcome::Deadlock) return EngineFailure::Deadlock;
    return verdict_of(e.outcome);
}

}  // namespace

Expectation expectation(const Program& p) {
    const Expected* base = p.mapping ? &*p.mapping : p.result ? &*p.result : nullptr;
    if (base == nullptr) {
        Expectation none = expect::sometimes("the test has no Result: annotation; it is not judged");
        none.judged = false;
        return none;
    }
    std::string_view why = p.result && !p.result->note.empty() ? std::string_view(p.result->note)
                                                                : std::string_view("the test's Result: annotation");
    Expectation e;
    e.memory_model = finding_of(*base);
    e.why = why;
    if (p.mapping && p.result && p.result->outcome != Outcome::Maybe && p.result->outcome != Outcome::Deadlock)
        e = e.under_lkmm(verdict_of(p.result->outcome), p.mapping->note);
    if (p.engine) e = e.engine_finds(finding_of(*p.engine), p.engine->note);
    return e;
}

VariantDef make_variant(const std::shared_ptr<const Compiled>& test, RunMode mode) {
    const Program& p = test->program;
    VariantDef v;
    v.model = p.name;
    v.name = mode == RunMode::RaceCheck ? "litmus" : "plain-as-relaxed";
    v.summary = p.file;
    v.expect = expectation(p);
    v.exact_dependencies = true;  // registers carry the reads they came from (Taint)
    for (const Process& proc : p.processes) v.thread_names.push_back(proc.name);
    if (v.thread_names.size() == 1) v.thread_names.emplace_back("idle");  // the engine needs 2 threads
    v.instance_size = sizeof(Instance);
    v.instance_align = alignof(Instance);
    const unsigned threads = static_cast<unsigned>(v.thread_names.size());
    v.construct = [test, mode, threads](void* storage) -> ModelInstance* {
        return ::new (storage) Instance(*test, mode, threads);
    };
    return v;
}

}  // namespace oc::litmus
