// SPDX-License-Identifier: MIT
#include "checker/memory_model/lkmm_tags.hpp"

#include <cstring>
#include <initializer_list>
#include <utility>

namespace oc {

namespace {

bool named(const char* primitive, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (std::strcmp(primitive, n) == 0) return true;
    return false;
}

}  // namespace

std::uint32_t lkmm_tags_of(const Event& e) {
    using namespace lkmm;
    const char* p = e.primitive;
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
        struct Row { const char* name; std::uint32_t tag; };
        static constexpr Row fences[] = {
            {"smp_mb", Mb}, {"smp_rmb", Rmb}, {"smp_wmb", Wmb}, {"barrier", Barrier},
            {"smp_mb__before_atomic", BeforeAtomic}, {"smp_mb__after_atomic", AfterAtomic},
            {"smp_mb__after_spinlock", AfterSpinlock}, {"smp_mb__after_unlock_lock", AfterUnlockLock},
            {"rcu_read_lock", RcuLock}, {"rcu_read_unlock", RcuUnlock}, {"synchronize_rcu", SyncRcu},
            {"srcu_read_lock", SrcuLock}, {"srcu_read_unlock", SrcuUnlock}, {"synchronize_srcu", SyncSrcu},
            {"srcu_down_read", SrcuLock}, {"srcu_up_read", SrcuUnlock}, {"synchronize_srcu_expedited", SyncSrcu},
            {"synchronize_rcu_expedited", SyncRcu}, {"smp_mb__after_srcu_read_unlock", AfterSrcuReadUnlock},
        };
        for (const Row& r : fences)
            if (std::strcmp(p, r.name) == 0) return r.tag;
        // The fences of a fully ordered RMW, and a C++-level seq_cst or acq_rel fence: smp_mb().
        // (A C++-level acquire or release fence is taken as smp_rmb()/smp_wmb() above: weaker,
        // since those also order reads before later writes in C++.)
        return Mb;
    }
    if (e.order == MemoryOrder::NonAtomic) return 0;  // a plain access
    if (named(p, {"spin_lock", "spin_trylock", "mutex_lock", "mutex_trylock"}))
        return e.kind == EventKind::Rmw ? LockRmw : LockFail;
    if (named(p, {"spin_unlock", "mutex_unlock"}) && e.kind == EventKind::Write) return Unlock;
    if (named(p, {"spin_is_locked", "mutex_is_locked"}) && e.kind == EventKind::Read)
        return e.read_value != 0 ? ReadLocked : ReadUnlocked;
    if (named(p, {"rcu_dereference"}) && !e.weakened_from) return Once;  // an address dependency, not acquire
    // herd's lkmmv2 .def: srcu_read_lock() and srcu_down_read() are __load{srcu-lock}, srcu_read_unlock()
    // and srcu_up_read() __store{srcu-unlock}: marked accesses of the srcu_struct's word tagged
    // srcu-lock/srcu-unlock only (kernel_srcu.hpp). (Linux 6.1's srcu events are fences, above.)
    if (named(p, {"srcu_read_lock", "srcu_down_read"}) && e.kind == EventKind::Read) return SrcuLock;
    if (named(p, {"srcu_read_unlock", "srcu_up_read"}) && e.kind == EventKind::Write) return SrcuUnlock;
    std::uint32_t tags = 0;
    switch (e.order) {
    case MemoryOrder::Relaxed: tags = Once; break;
    case MemoryOrder::Acquire: tags = Acquire; break;
    case MemoryOrder::Release: tags = Release; break;
    case MemoryOrder::AcqRel:
    case MemoryOrder::SeqCst: tags = Acquire | Release; break;  // a C++-level seq_cst access: no LKMM twin
    case MemoryOrder::NonAtomic: break;
    }
    if (e.kind == EventKind::Rmw &&
        named(p, {"atomic_add", "atomic_sub", "atomic_inc", "atomic_dec", "atomic_and", "atomic_or", "atomic_xor",
                  "atomic_andnot", "set_bit", "clear_bit", "change_bit", "clear_bit_unlock"}))
        tags |= Noreturn;
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
