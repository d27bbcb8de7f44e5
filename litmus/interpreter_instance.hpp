// SPDX-License-Identifier: MIT
// The interpreter's Instance: one execution of a litmus test, as the engine constructs it for
// every execution (through the VariantDef of interpreter.cpp). Declared here with its storage
// (slots for the test's locations and registers, built in place: it allocates nothing) and its
// dependency tracking (Taint); its members are defined by part: interpreter_state.cpp
// (construction, destruction, the final state and condition), interpreter_eval.cpp (statements
// and expressions) and interpreter_access.cpp (shared-memory accesses: plain ones and the kernel
// primitives of checker/model/kernel.hpp). Internal to litmus/.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <source_location>

#include "checker/model/kernel.hpp"
#include "checker/model/primitives.hpp"
#include "litmus/interpreter.hpp"

namespace oc::litmus::detail {

using kernel::spinlock_t;

using kernel::mutex;
using kernel::static_key;

constexpr std::size_t slot_size =
    std::max({sizeof(Atomic<long>), sizeof(Plain<long>), sizeof(spinlock_t), sizeof(mutex), sizeof(static_key)});
constexpr std::size_t slot_align =
    std::max({alignof(Atomic<long>), alignof(Plain<long>), alignof(spinlock_t), alignof(mutex), alignof(static_key)});

enum class SlotKind : std::uint8_t { None, Atomic, Plain, Lock, Srcu, Mutex, StaticKey };

static_assert(max_srcu_sections <= kernel::srcu_struct::max_sections, "a srcu_struct holds every section the parser allows");

struct alignas(slot_align) LocationSlot {
    unsigned char bytes[slot_size];
};

/// One execution of the test. Constructed by the engine for every execution; allocates nothing.
class Instance final : public ModelInstance {
public:
    Instance(const Compiled& c, RunMode mode, unsigned threads, unsigned unroll, std::atomic<std::uint64_t>* cuts);
    ~Instance() override;
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    void run_thread(unsigned index) override {
        runtime().track_replay();
        if (index < p_.processes.size()) exec(index, p_.processes[index].body);
        // else: the idle thread of a one-process test
    }

    bool bad_outcome() const override { return filter_holds() && holds(p_.condition); }
    bool filtered_out() const override { return !filter_holds(); }

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
    mutex& mutex_slot(std::size_t i) { return *std::launder(reinterpret_cast<mutex*>(slots_[i].bytes)); }
    const mutex& mutex_slot(std::size_t i) const { return *std::launder(reinterpret_cast<const mutex*>(slots_[i].bytes)); }
    static_key& key_slot(std::size_t i) { return *std::launder(reinterpret_cast<static_key*>(slots_[i].bytes)); }
    const static_key& key_slot(std::size_t i) const {
        return *std::launder(reinterpret_cast<const static_key*>(slots_[i].bytes));
    }
    Reg& reg(unsigned proc, std::size_t r) { return *std::launder(reinterpret_cast<Reg*>(regs_[reg_base_[proc] + r])); }
    const Reg& reg(unsigned proc, std::size_t r) const {
        return *std::launder(reinterpret_cast<const Reg*>(regs_[reg_base_[proc] + r]));
    }
    kernel::rcu_domain& rcu() { return *std::launder(reinterpret_cast<kernel::rcu_domain*>(rcu_)); }
    kernel::srcu_struct& srcu_at(std::size_t loc) {
        return *std::launder(reinterpret_cast<kernel::srcu_struct*>(srcu_[c_.srcu_index[loc]]));
    }

    // ---- final state (interpreter_state.cpp) ----
    Value final_value(std::size_t loc) const;
    Value operand(const Operand& o) const;
    bool filter_holds() const;
    bool holds(std::int32_t prop) const;

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
    //    `a`. After the expression, no ctrl, as after an if;
    //  * but a register assigned in a branch carries that branch's ctrl to a later branch on it
    //    (herd's ctrl is a chain of register data and control edges that ends in a control
    //    edge, herd/modelUtils.ml): `flag = 0; if (r0 == 1) flag = 1; if (flag == 1)
    //    WRITE_ONCE(*y, 1)` orders the write after r0's read (LB+implicit-flow Never), also through
    //    a read in the branch (LB+implicit-flow-readreg) and through a second register
    //    (LB+implicit-flow-two-hops); as data it orders nothing (LB+implicit-flow-data Sometimes).

    /// The reads a value came from: bit i is the running thread's read at po index i. Dependency
    /// masks have 64 bits; a read at po index 64 or more sets `beyond` instead, and an access
    /// that depends on it stops the execution under LKMM (see DependencyScope). `via_branch`:
    /// the reads a value reached through a branch it was assigned in; only a condition on the
    /// value turns them into ctrl (as_condition()), never an address or a written value.
    struct Taint {
        std::uint64_t reads = 0;
        bool beyond = false;
        std::uint64_t via_branch = 0;
        bool via_branch_beyond = false;
        /// The value is one read's value, unchanged: a read's own, through registers and casts
        /// (an operator, or a second read, makes it none). Event::data_copy of a write.
        bool copy = false;
        bool none() const { return reads == 0 && !beyond; }
        Taint& operator|=(const Taint& o) {
            copy = none() ? o.copy : o.none() ? copy : false;
            reads |= o.reads;
            beyond = beyond || o.beyond;
            via_branch |= o.via_branch;
            via_branch_beyond = via_branch_beyond || o.via_branch_beyond;
            return *this;
        }
        /// The ctrl a branch on this value gives the events under it.
        Taint as_condition() const { return Taint{reads | via_branch, beyond || via_branch_beyond, 0, false, false}; }
    };

    Taint& reg_taint(unsigned proc, std::size_t r) { return reg_taint_[reg_base_[proc] + r].taint; }
    /// Register `r` gets a value whose taint is `t`, under the enclosing branches' ctrl.
    void assign_taint(unsigned proc, std::size_t r, const Taint& t) {
        Taint& mine = reg_taint(proc, r);
        mine = t;
        mine.via_branch |= ctrl_[proc].reads;
        mine.via_branch_beyond = mine.via_branch_beyond || ctrl_[proc].beyond;
    }

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
            runtime().set_dependencies(addr.reads, data.reads, ctrl.reads, data.copy);
        }
        ~DependencyScope() {
            runtime().set_dependencies(0, 0, 0);
            // the call's reads
            const auto [reads, beyond] = runtime().reads_since(first_);
            result_.reads |= reads;
            result_.beyond = result_.beyond || beyond;
            // the call's value is its read's (a READ_ONCE, an RMW's old value): a copy of it
            result_.copy = !result_.beyond && std::popcount(result_.reads) == 1;
        }
        DependencyScope(const DependencyScope&) = delete;
        DependencyScope& operator=(const DependencyScope&) = delete;

    private:
        Taint& result_;
        std::uint32_t first_;
    };

    /// Runs `fn` with the accesses it makes ctrl-dependent on `cond` too (a branch).
    /// A branch on a value of taint `cond`: what runs from here on may depend on its reads
    /// (Runtime::tested(), the graph engine's replay dependencies).
    static void branch_on(const Taint& cond) {
        const Taint c = cond.as_condition();
        runtime().tested(c.beyond ? ~std::uint64_t{0} : c.reads);
    }
    template <class Fn> decltype(auto) under_condition(unsigned proc, const Taint& cond, Fn&& fn) {
        branch_on(cond);
        const Taint outer = ctrl_[proc];
        ctrl_[proc] |= cond.as_condition();
        struct Restore {
            Taint& ctrl;
            Taint outer;
            ~Restore() { ctrl = outer; }
        } restore{ctrl_[proc], outer};
        return fn();
    }

    // ---- statements (interpreter_eval.cpp) ----
    /// How a statement ends: normally, by `break` or `continue` (to the innermost loop), or by
    /// `return` (to the end of the inlined function).
    enum class Flow : std::uint8_t { Normal, Break, Continue, Return };
    Flow exec(unsigned proc, std::int32_t stmt);
    Flow loop(unsigned proc, const Stmt& s);
    [[noreturn]] void cut(const Stmt& loop);
    Value eval(unsigned proc, std::int32_t e, Taint& taint);
    Value binary(unsigned proc, const Expr& x, Taint& taint);
    Value element(unsigned proc, const Expr& x, Taint& taint);
    [[noreturn]] void fail_at(SourcePos pos, const char* message);

    // ---- accesses (interpreter_access.cpp) ----
    std::size_t resolve(unsigned proc, const Access& a, std::source_location where, Taint& taint);
    static unsigned bit_number(Value nr, std::source_location where);
    Atomic<long>& atomic_at(std::size_t loc, std::source_location where);
    spinlock_t& lock_at(std::size_t loc, std::source_location where);
    Value access(unsigned proc, std::size_t ai, Taint& result);
    Value primitive(const Access& a, std::size_t ai, std::size_t loc, Value v0, Value v1, std::source_location where);
    /// The kernel idioms beyond linux-kernel.def (mutexes, static keys, try_cmpxchg, BUG_ON,
    /// WARN_ON); false if `a` is none of them.
    bool idiom(unsigned proc, const Access& a, std::size_t loc, Value v0, Value v1, std::source_location where,
               Value& result);
    Value downgraded_read(std::size_t loc, const char* label, std::source_location where, std::uint32_t tags = lkmm::Once);
    /// A marked write on a location held as plain: a plain write that keeps its LKMM tags.
    void downgraded_write(std::size_t loc, Value v, const char* label, std::source_location where, std::uint32_t tags);
    Value plain_access(const Access& a, std::size_t loc, Value v, std::source_location where);

    const Compiled& c_;
    const Program& p_;
    const unsigned unroll_;                 ///< LoopBound::unroll
    std::atomic<std::uint64_t>* cuts_;      ///< LoopBound::cuts (null: a cut is an error)
    static constexpr const char* computed_names[max_computed_locations] = {"computed0", "computed1", "computed2", "computed3"};
    LocationSlot slots_[max_test_locations + max_computed_locations];
    SlotKind kinds_[max_test_locations + max_computed_locations] = {};
    Value tried_ = 0;  ///< the value the last try_cmpxchg() read
    Value computed_[max_computed_locations] = {};  ///< the address each computed location stands for (0: none yet)
    LocationRef observed_[max_test_locations];
    // The registers of all processes, one after another: process p's from reg_base_[p].
    std::uint16_t reg_base_[max_processes] = {};
    /// The reads each register's value came from. Only the test's registers are set, when a run
    /// begins: a run builds an Instance, and clearing all max_registers would cost more than
    /// many a short run.
    union TaintSlot {
        TaintSlot() {}
        Taint taint;
    };
    TaintSlot reg_taint_[max_registers];
    Taint ctrl_[max_processes] = {};  ///< the reads the conditions of the enclosing branches came from
    alignas(Reg) unsigned char regs_[max_registers][sizeof(Reg)];
    alignas(kernel::rcu_domain) unsigned char rcu_[sizeof(kernel::rcu_domain)];
    alignas(kernel::srcu_struct) unsigned char srcu_[max_srcu_structs][sizeof(kernel::srcu_struct)];
};

}  // namespace oc::litmus::detail
