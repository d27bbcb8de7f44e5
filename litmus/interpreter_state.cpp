// SPDX-License-Identifier: MIT
// The interpreter's Instance (interpreter_instance.hpp) around the run: constructing one
// execution's locations (Atomic<long>, Plain<long>, spinlock_t, srcu_struct, computed locations),
// registers and observables in place, destroying them, and the final state the condition and the
// filter are judged on.
#include "litmus/interpreter_instance.hpp"

namespace oc::litmus::detail {

// ---- construction -----------------------------------------------------------------------------

Instance::Instance(const Compiled& c, RunMode mode, unsigned threads, unsigned unroll, std::atomic<std::uint64_t>* cuts)
    : c_(c), p_(c.program), unroll_(unroll), cuts_(cuts) {
    const std::size_t nl = p_.locations.size();
    for (std::size_t i = 0; i < nl; ++i) {
        const Location& l = p_.locations[i];
        const std::source_location where = source_location_of(c_.spots[p_.accesses.size() + i]);
        void* at = static_cast<void*>(slots_[i].bytes);
        if (l.type == LocType::Lock) {
            ::new (at) spinlock_t(l.name.c_str(), where);
            kinds_[i] = SlotKind::Lock;
        } else if (l.type == LocType::Mutex) {
            ::new (at) mutex(l.name.c_str(), where);
            kinds_[i] = SlotKind::Mutex;
        } else if (l.type == LocType::StaticKey) {
            ::new (at) static_key(l.name.c_str(), static_cast<int>(l.init), where);
            kinds_[i] = SlotKind::StaticKey;
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
    std::size_t next_reg = 0;
    for (std::size_t pi = 0; pi < p_.processes.size(); ++pi) {
        reg_base_[pi] = static_cast<std::uint16_t>(next_reg);
        next_reg += p_.processes[pi].regs.size();
    }
    for (std::size_t r = 0; r < next_reg; ++r) ::new (static_cast<void*>(&reg_taint_[r].taint)) Taint{};
    for (std::size_t pi = 0; pi < p_.processes.size(); ++pi)
        for (std::size_t r = 0; r < p_.processes[pi].regs.size(); ++r) {
            const Register& reg = p_.processes[pi].regs[r];
            // A pointer parameter is no register of the test's states (herd shows none),
            // unless the condition names it.
            const bool named = std::any_of(p_.observed.begin(), p_.observed.end(), [&](const Operand& o) {
                return o.kind == Operand::Kind::Reg && o.proc == pi && o.reg == r;
            });
            if (reg.is_param && !named)
                ::new (static_cast<void*>(regs_[reg_base_[pi] + r])) Reg(reg.full_name.c_str(), reg.init, Reg::Unobserved{});
            else
                ::new (static_cast<void*>(regs_[reg_base_[pi] + r])) Reg(reg.full_name.c_str(), reg.init);
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

Instance::~Instance() {
    if (p_.uses_rcu) rcu().~rcu_domain();
    for (std::size_t pi = 0; pi < p_.processes.size(); ++pi)
        for (std::size_t r = 0; r < p_.processes[pi].regs.size(); ++r) reg(static_cast<unsigned>(pi), r).~Reg();
    for (std::size_t i = 0; i < p_.locations.size() + (p_.computes_addresses ? max_computed_locations : 0); ++i) {
        switch (kinds_[i]) {
        case SlotKind::Atomic: atomic_slot(i).~Atomic(); break;
        case SlotKind::Plain: plain_slot(i).~Plain(); break;
        case SlotKind::Lock: lock_slot(i).~spinlock_t(); break;
        case SlotKind::Mutex: mutex_slot(i).~mutex(); break;
        case SlotKind::StaticKey: key_slot(i).~static_key(); break;
        case SlotKind::Srcu: srcu_at(i).~srcu_struct(); break;
        case SlotKind::None: break;
        }
    }
}

// ---- final state ------------------------------------------------------------------------------

Value Instance::final_value(std::size_t loc) const {
    switch (kinds_[loc]) {
    case SlotKind::Atomic: return atomic_slot(loc).final();
    case SlotKind::Plain: return plain_slot(loc).final();
    case SlotKind::Lock: return lock_slot(loc).word.final();
    case SlotKind::Mutex: return mutex_slot(loc).owner.final() != 0 ? 1 : 0;
    case SlotKind::StaticKey: return key_slot(loc).enabled.final();
    case SlotKind::Srcu: return p_.locations[loc].init;  // herd's srcu_read_unlock() writes back what srcu_read_lock() read
    case SlotKind::None: break;
    }
    return 0;
}

Value Instance::operand(const Operand& o) const {
    switch (o.kind) {
    case Operand::Kind::Const:
    case Operand::Kind::Address: return o.value;
    case Operand::Kind::Reg: return reg(o.proc, o.reg).value();
    case Operand::Kind::Loc: return final_value(o.loc);
    }
    return 0;
}

bool Instance::filter_holds() const { return p_.filter < 0 || holds(p_.filter); }

bool Instance::holds(std::int32_t prop) const {
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

}  // namespace oc::litmus::detail
