// SPDX-License-Identifier: MIT
// Sleepable RCU (include/linux/srcu.h): srcu_struct, srcu_read_lock(), srcu_read_unlock(),
// synchronize_srcu() and smp_mb__after_srcu_read_unlock(). Part of checker/model/kernel.hpp.
// Added for the litmus front end (litmus/interpreter_access.cpp): primitives of LKMM's linux-kernel.def
// that the C++ models had no use for. Each mapping, and where it is stronger or weaker than LKMM,
// is stated here and in docs/litmus.md.
#pragma once

#include <new>

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- barrier after SRCU operations -------------------------------------------------------------

/// smp_mb__after_srcu_read_unlock(): F_sc. LKMM orders the accesses up to a srcu_read_unlock()
/// with every access after this fence; the kernel's srcu_read_unlock() already contains smp_mb(),
/// so the kernel defines it as nothing. srcu_read_unlock() below starts with F_sc, so this F_sc
/// adds ordering only where no srcu_read_unlock() precedes it (stronger than LKMM there).
inline void smp_mb__after_srcu_read_unlock(OC_HERE) {
    PrimitiveScope s("smp_mb__after_srcu_read_unlock", where);
    fence(seq_cst, where);
}

// ---- SRCU (sleepable RCU): the urcu-mb scheme of rcu_domain, per srcu_struct and per section ---

/// struct srcu_struct: an independent RCU domain with one reader word per read-side *section*
/// (rcu_domain has one per thread). The index that srcu_read_lock() returns names the section,
/// and srcu_read_unlock(ss, idx) closes that section: LKMM pairs each srcu_read_unlock() with the
/// srcu_read_lock() whose value it is given, and two sections of one thread that overlap without
/// nesting stay independent. srcu_read_lock(ss) takes the calling thread's section (index = the
/// thread's number; nested sections of a thread then flatten, as for rcu_read_lock());
/// srcu_read_lock_section(ss, n) takes section n (the litmus interpreter gives each
/// srcu_read_lock() site its own). synchronize_srcu() waits for the sections of its srcu_struct
/// only, as LKMM's sync-srcu does.
class srcu_struct {
public:
    static constexpr unsigned max_sections = 32;
    /// `sections` reader words (at most max_sections), named by `names` (which must outlive the
    /// srcu_struct; nullptr: "srcu_section0", "srcu_section1"...).
    explicit srcu_struct(unsigned sections, const char* const* names = nullptr, OC_HERE)
        : sections_(sections < max_sections ? sections : max_sections),
          words_(sections_ > 0 && !runtime().lkmm() ? sections_ : 1) {
        static constexpr const char* defaults[max_sections] = {
            "srcu_section0",  "srcu_section1",  "srcu_section2",  "srcu_section3",  "srcu_section4",
            "srcu_section5",  "srcu_section6",  "srcu_section7",  "srcu_section8",  "srcu_section9",
            "srcu_section10", "srcu_section11", "srcu_section12", "srcu_section13", "srcu_section14",
            "srcu_section15", "srcu_section16", "srcu_section17", "srcu_section18", "srcu_section19",
            "srcu_section20", "srcu_section21", "srcu_section22", "srcu_section23", "srcu_section24",
            "srcu_section25", "srcu_section26", "srcu_section27", "srcu_section28", "srcu_section29",
            "srcu_section30", "srcu_section31"};
        // at least one word, which LKMM's srcu events take as the srcu_struct's location (a
        // struct only synchronize_srcu() is given has no section); under LKMM that one only (no
        // event accesses the others, and each would be a node of every graph the model judges)
        for (unsigned i = 0; i < words(); ++i)
            ::new (static_cast<void*>(readers_[i])) Atomic<int>(names != nullptr ? names[i] : defaults[i], 0, where);
    }
    ~srcu_struct() {
        for (unsigned i = 0; i < words(); ++i) reader(i).~Atomic();
    }
    srcu_struct(const srcu_struct&) = delete;
    srcu_struct& operator=(const srcu_struct&) = delete;
    unsigned sections() const { return sections_; }
    /// The reader words constructed: one per section, at least one; one under LKMM.
    unsigned words() const { return words_; }
    Atomic<int>& reader(unsigned i) { return *std::launder(reinterpret_cast<Atomic<int>*>(readers_[i])); }
    unsigned& nesting(unsigned i) { return nesting_[i]; }

private:
    alignas(Atomic<int>) unsigned char readers_[max_sections][sizeof(Atomic<int>)];
    unsigned nesting_[max_sections] = {};
    unsigned sections_;
    unsigned words_;
};
/// Opens section `n` (outermost only: its reader word := 1 (rlx), then F_sc); returns n.
inline int srcu_read_lock_section(srcu_struct& ss, unsigned n, OC_HERE) {
    PrimitiveScope s("srcu_read_lock", where);
    if (runtime().lkmm()) {
        // LKMM: an srcu-lock event on the srcu_struct; herd gives each srcu_read_lock() a value
        // of its own, which srcu_read_unlock() must be given back (srcu-bad-nesting otherwise)
        const auto index = static_cast<int>(1 + runtime().next_event_id().index);
        runtime().srcu_event(ss.reader(0).location(), index, where);
        return index;
    }
    require(n < ss.sections(), "srcu_read_lock(): no such section in the srcu_struct", where);
    if (ss.nesting(n)++ == 0) {
        ss.reader(n).store(1, relaxed, where);
        fence(seq_cst, where);
    }
    return static_cast<int>(n);
}
/// srcu_read_lock(ss): the calling thread's section (its number); returns the index to pass to
/// srcu_read_unlock().
inline int srcu_read_lock(srcu_struct& ss, OC_HERE) {
    return srcu_read_lock_section(ss, runtime().current_model_thread(), where);
}
/// srcu_read_unlock(ss, idx): closes section idx (outermost only: F_sc, then its word := 0 (rlx)).
/// Like urcu-mb's rcu_read_unlock(), it orders the section's accesses before everything after it,
/// which LKMM's srcu_read_unlock() does not (stronger than LKMM).
inline void srcu_read_unlock(srcu_struct& ss, int idx, OC_HERE) {
    PrimitiveScope s("srcu_read_unlock", where);
    if (runtime().lkmm()) {  // LKMM: an srcu-unlock event; the axioms match it by nesting
        runtime().srcu_event(ss.reader(0).location(), idx, where);
        return;
    }
    require(idx >= 0 && static_cast<unsigned>(idx) < ss.sections() && ss.nesting(static_cast<unsigned>(idx)) > 0,
            "srcu_read_unlock() of a section that srcu_read_lock() did not open", where);
    const unsigned n = static_cast<unsigned>(idx);
    if (--ss.nesting(n) != 0) return;
    fence(seq_cst, where);
    ss.reader(n).store(0, relaxed, where);
}
// ---- SRCU read side as memory accesses (herd's newest linux-kernel.def, "lkmmv2") -------------
// There srcu_read_lock(X) is `__load{srcu-lock}(*X)` and srcu_read_unlock(X, Y) is
// `__store{srcu-unlock}(*X, Y)` (srcu_down_read()/srcu_up_read() alike): a marked read of the
// srcu_struct's word, whose value the lock returns, and a marked write of the value the unlock is
// given. The model pairs the two by the data dependency from the lock's read to the unlock's
// written value (srcu-rscs) and flags srcu-bad-value-match when the values differ, so no check
// here. LKMM only (the litmus front end selects it per access site: Access::srcu_access); the
// word is the srcu_struct's location, reader(0), as for the srcu events above. The LKMM tags
// (SrcuLock on the read, SrcuUnlock on the write, no Once) come from the primitive's name
// (lkmm_tags_of()).

/// srcu_read_lock(ss) or srcu_down_read(ss) (`name`) as lkmmv2 defines it: reads the srcu_struct's
/// word (rlx) and returns the value read.
inline int srcu_read_lock_access(srcu_struct& ss, const char* name, OC_HERE) {
    PrimitiveScope s(name, where);
    return ss.reader(0).load(relaxed, where);
}
/// srcu_read_unlock(ss, idx) or srcu_up_read(ss, idx) (`name`) as lkmmv2 defines it: writes idx to
/// the srcu_struct's word (rlx). The caller states the data dependency of idx (the interpreter's
/// DependencyScope), as for WRITE_ONCE().
inline void srcu_read_unlock_access(srcu_struct& ss, int idx, const char* name, OC_HERE) {
    PrimitiveScope s(name, where);
    ss.reader(0).store(idx, relaxed, where);
}

/// synchronize_srcu(ss): F_sc; wait (spin_yield) until each section's reader word reads 0; F_sc.
/// The grace-period guarantee follows from the SC fences as for synchronize_rcu(). Inside one of
/// the srcu_struct's own sections it waits for itself (the engine reports a livelock).
inline void synchronize_srcu(srcu_struct& ss, OC_HERE) {
    PrimitiveScope s("synchronize_srcu", where);
    if (runtime().lkmm()) {  // LKMM: one sync-srcu event on the srcu_struct
        runtime().srcu_event(ss.reader(0).location(), 0, where);
        return;
    }
    fence(seq_cst, where);
    for (unsigned n = 0; n < ss.sections(); ++n)
        for (;;) {
            spin_iteration();
            if (ss.reader(n).load(relaxed, where) == 0) break;
            spin_yield();
        }
    fence(seq_cst, where);
}


#undef OC_HERE
}  // namespace oc::kernel
