// SPDX-License-Identifier: MIT
#include "checker/memory_model/lkmm_tags.hpp"

#include <array>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace oc {

namespace {

/// What a primitive's name says of its events' tags, beyond their order (one lookup per event
/// instead of a comparison with every name: this runs for every event the runtime records).
enum class Named : std::uint8_t {
    Other, Fence, Lock, Unlock, IsLocked, RcuDereference, SrcuReadLock, SrcuReadUnlock, Noreturn,
};
struct Meaning {
    Named named = Named::Other;
    std::uint32_t fence = 0;  ///< Named::Fence: its tag
};

struct NameEntry {
    const char* name;
    Meaning meaning;
};

/// An open-addressing table of the names below, hashed on their length and three letters:
/// meaning() runs for nearly every event a search makes, and hashing the whole name
/// (std::hash) cost more than the rest of lkmm_tags_of().
class NameTable {
public:
    NameTable(std::initializer_list<NameEntry> names) {
        for (const NameEntry& n : names) {
            std::size_t i = slot(n.name, std::strlen(n.name));
            while (slots_[i].name != nullptr) i = (i + 1) % size;
            slots_[i] = n;
        }
    }
    Meaning find(const char* name) const {
        const std::size_t len = std::strlen(name);
        if (len == 0) return {};
        for (std::size_t i = slot(name, len);; i = (i + 1) % size) {
            if (slots_[i].name == nullptr) return {};
            if (std::strcmp(slots_[i].name, name) == 0) return slots_[i].meaning;
        }
    }

private:
    static constexpr std::size_t size = 128;  // a power of two, over twice the names
    static std::size_t slot(const char* name, std::size_t len) {
        const auto c = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(name[i])); };
        return (len * 131 + c(0) * 7 + c(len / 2) * 31 + c(len - 1) * 17) % size;
    }
    std::array<NameEntry, size> slots_{};
};

Meaning meaning(const char* primitive) {
    using namespace lkmm;
    static const NameTable table = {
        {"smp_mb", {Named::Fence, Mb}}, {"smp_rmb", {Named::Fence, Rmb}}, {"smp_wmb", {Named::Fence, Wmb}},
        {"barrier", {Named::Fence, Barrier}}, {"smp_mb__before_atomic", {Named::Fence, BeforeAtomic}},
        {"smp_mb__after_atomic", {Named::Fence, AfterAtomic}}, {"smp_mb__after_spinlock", {Named::Fence, AfterSpinlock}},
        {"smp_mb__after_unlock_lock", {Named::Fence, AfterUnlockLock}}, {"rcu_read_lock", {Named::Fence, RcuLock}},
        {"rcu_read_unlock", {Named::Fence, RcuUnlock}}, {"synchronize_rcu", {Named::Fence, SyncRcu}},
        // Linux 6.1's srcu events are fences; herd's lkmmv2 .def makes srcu_read_lock() and
        // srcu_down_read() __load{srcu-lock}, srcu_read_unlock() and srcu_up_read()
        // __store{srcu-unlock}: marked accesses of the srcu_struct's word tagged srcu-lock or
        // srcu-unlock only (kernel_srcu.hpp)
        {"srcu_read_lock", {Named::SrcuReadLock, SrcuLock}}, {"srcu_down_read", {Named::SrcuReadLock, SrcuLock}},
        {"srcu_read_unlock", {Named::SrcuReadUnlock, SrcuUnlock}}, {"srcu_up_read", {Named::SrcuReadUnlock, SrcuUnlock}},
        {"synchronize_srcu", {Named::Fence, SyncSrcu}}, {"synchronize_srcu_expedited", {Named::Fence, SyncSrcu}},
        {"synchronize_rcu_expedited", {Named::Fence, SyncRcu}},
        {"smp_mb__after_srcu_read_unlock", {Named::Fence, AfterSrcuReadUnlock}},
        {"spin_lock", {Named::Lock}}, {"spin_trylock", {Named::Lock}}, {"mutex_lock", {Named::Lock}},
        {"mutex_trylock", {Named::Lock}}, {"spin_unlock", {Named::Unlock}}, {"mutex_unlock", {Named::Unlock}},
        {"spin_is_locked", {Named::IsLocked}}, {"mutex_is_locked", {Named::IsLocked}},
        {"rcu_dereference", {Named::RcuDereference}},
        {"atomic_add", {Named::Noreturn}}, {"atomic_sub", {Named::Noreturn}}, {"atomic_inc", {Named::Noreturn}},
        {"atomic_dec", {Named::Noreturn}}, {"atomic_and", {Named::Noreturn}}, {"atomic_or", {Named::Noreturn}},
        {"atomic_xor", {Named::Noreturn}}, {"atomic_andnot", {Named::Noreturn}}, {"set_bit", {Named::Noreturn}},
        {"clear_bit", {Named::Noreturn}}, {"change_bit", {Named::Noreturn}}, {"clear_bit_unlock", {Named::Noreturn}},
    };
    return primitive == nullptr ? Meaning{} : table.find(primitive);
}

}  // namespace

std::uint32_t lkmm_tags_of(const Event& e) {
    using namespace lkmm;
    if (e.id.thread == EventId::init_thread) return 0;  // IW: marked by being initial
    if (e.is_fence()) {
        // Every kernel fence is F.sc but smp_rmb() (F.acq) and smp_wmb() (F.rel), so a fence's
        // order says what a weakening (necessity) left of it: relaxed is a removed barrier,
        // acquire an smp_rmb(), release an smp_wmb(); seq_cst is the primitive's own fence.
        switch (e.order) {
        case MemoryOrder::Relaxed:
        case MemoryOrder::NonAtomic: return 0;
        case MemoryOrder::Acquire: return Rmb;
        case MemoryOrder::Release: return Wmb;
        case MemoryOrder::AcqRel:
        case MemoryOrder::SeqCst: break;
        }
        // A named fence (the srcu ones of Linux 6.1 included: events of their own there); the
        // fences of a fully ordered RMW, and a C++-level seq_cst or acq_rel fence: smp_mb().
        // (A C++-level acquire or release fence is taken as smp_rmb()/smp_wmb() above: weaker,
        // since those also order reads before later writes in C++.)
        const Meaning m = meaning(e.primitive);
        return m.fence != 0 ? m.fence : Mb;
    }
    if (e.order == MemoryOrder::NonAtomic) return 0;  // a plain access
    const Meaning m = meaning(e.primitive);
    switch (m.named) {
    case Named::Lock: return e.kind == EventKind::Rmw ? LockRmw : LockFail;
    case Named::Unlock:
        if (e.kind == EventKind::Write) return Unlock;
        break;
    case Named::IsLocked:
        if (e.kind == EventKind::Read) return e.read_value != 0 ? ReadLocked : ReadUnlocked;
        break;
    case Named::RcuDereference:
        if (!e.weakened_from) return Once;  // an address dependency, not acquire
        break;
    case Named::SrcuReadLock:
        if (e.kind == EventKind::Read) return SrcuLock;
        break;
    case Named::SrcuReadUnlock:
        if (e.kind == EventKind::Write) return SrcuUnlock;
        break;
    case Named::Fence:
    case Named::Noreturn:
    case Named::Other: break;
    }
    std::uint32_t tags = 0;
    switch (e.order) {
    case MemoryOrder::Relaxed: tags = Once; break;
    case MemoryOrder::Acquire: tags = Acquire; break;
    case MemoryOrder::Release: tags = Release; break;
    case MemoryOrder::AcqRel:
    case MemoryOrder::SeqCst: tags = Acquire | Release; break;  // a C++-level seq_cst access: no LKMM twin
    case MemoryOrder::NonAtomic: break;
    }
    if (e.kind == EventKind::Rmw && m.named == Named::Noreturn) tags |= Noreturn;
    return tags;
}

}  // namespace oc

namespace oc::lkmm {

std::string names(std::uint32_t tags) {
    static constexpr std::pair<std::uint32_t, const char*> table[] = {
        {Once, "once"},
        {Acquire, "acquire"},
        {Release, "release"},
        {Noreturn, "noreturn"},
        {Mb, "mb"},
        {Rmb, "rmb"},
        {Wmb, "wmb"},
        {Barrier, "barrier"},
        {BeforeAtomic, "before-atomic"},
        {AfterAtomic, "after-atomic"},
        {AfterSpinlock, "after-spinlock"},
        {AfterUnlockLock, "after-unlock-lock"},
        {AfterSrcuReadUnlock, "after-srcu-read-unlock"},
        {RcuLock, "rcu-lock"},
        {RcuUnlock, "rcu-unlock"},
        {SyncRcu, "sync-rcu"},
        {SrcuLock, "srcu-lock"},
        {SrcuUnlock, "srcu-unlock"},
        {SyncSrcu, "sync-srcu"},
        {LockRmw, "LKR+LKW"},
        {Unlock, "UL"},
        {LockFail, "LF"},
        {ReadLocked, "RL"},
        {ReadUnlocked, "RU"},
        {IfRmwSucceeds, "if-rmw-succeeds"},
        {ConditionalRmw, "conditional-rmw"},
    };
    std::string out;
    for (const auto& [bit, name] : table)
        if ((tags & bit) != 0) {
            if (!out.empty()) out += '+';
            out += name;
        }
    return out;
}

}  // namespace oc::lkmm
