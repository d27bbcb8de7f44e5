// SPDX-License-Identifier: MIT
// The kernel idioms of the litmus front end beyond linux-kernel.def (docs/litmus.md, "Kernel
// idioms"): mutexes, static keys, spin_lock_irqsave(), try_cmpxchg(), BUG_ON()/WARN_ON() and
// the AssertFailed/DataRace results: what they do when run, and the positioned errors their
// misuse gives.
#include <doctest/doctest.h>

#include <string>

#include "litmus/parser.hpp"
#include "tests/litmus/litmus_test_support.hpp"
#include "litmus/run.hpp"

using namespace oc;
using namespace oc::litmus;
using oc::litmus::test::error_of;
using oc::litmus::test::run_source;

namespace {

/// A one-process test: P0(int *x, atomic_t *v, spinlock_t *s, struct mutex *m, struct
/// static_key_false *k) with `body` (line 4 on), registers r0, r1 and old declared.
std::string one(const std::string& body, const std::string& cond, const std::string& result = "Always",
                const std::string& init = "atomic_t v = ATOMIC_INIT(5);") {
    return "C T\n(* Result: " + result + " *)\n{ " + init +
           " }\nP0(int *x, atomic_t *v, spinlock_t *s, struct mutex *m, struct static_key_false *k) {\n"
           "\tint r0 = 0; int r1 = 0; int old = 3;\n" + body + "\n}\n" + cond + "\n";
}

}  // namespace

TEST_SUITE("litmus kernel idioms") {
    TEST_CASE("try_cmpxchg() writes the value it read into old when it fails, and leaves it when it succeeds") {
        auto r = run_source(one("r0 = atomic_try_cmpxchg(v, &old, 7);", "exists (0:r0=0 /\\ 0:old=5 /\\ v=5)"));
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        r = run_source(one("old = 5; r0 = atomic_try_cmpxchg_acquire(v, &old, 7);", "exists (0:r0=1 /\\ 0:old=5 /\\ v=7)"));
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        // The retry loop of the kernel's atomic_* fallbacks, with the read in the loop: an await.
        r = run_source(one("do { old = atomic_read(v); } while (!atomic_try_cmpxchg(v, &old, old + 1));",
                           "exists (v=6 /\\ 0:old=5)"));
        CHECK(r.judgement == Judgement::Match);
        CHECK(r.unroll_cuts == 0);
    }

    TEST_CASE("static keys: enable and disable set the count to 1 and 0, inc and dec count, likely/unlikely read it") {
        auto r = run_source(one("static_branch_enable(k); static_branch_enable(k); r0 = static_branch_likely(k);\n"
                                "static_branch_disable(k); r1 = static_branch_unlikely(k); static_branch_inc(k); static_branch_inc(k);",
                                "exists (0:r0=1 /\\ 0:r1=0 /\\ k=2)", "Always", "struct static_key_false k;"));
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        // struct static_key_true starts enabled
        r = run_source("C T\n(* Result: Always *)\n{ struct static_key_true k; }\n"
                       "P0(struct static_key_true *k) { int r0; r0 = static_branch_likely(k); static_branch_dec(k); }\n"
                       "exists (0:r0=1 /\\ k=0)\n");
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        // static_branch_dec() below 0 is the C++ layer's assertion
        r = run_source(one("static_branch_dec(k);", "exists (k=0)", "AssertFailed"));
        CHECK(r.judgement == Judgement::Match);
    }

    TEST_CASE("mutexes: trylock fails while held, is_locked sees it, and a critical section orders as a lock") {
        auto r = run_source(one("mutex_lock(m); r0 = mutex_trylock(m); r1 = mutex_is_locked(m); mutex_unlock(m);",
                                "exists (0:r0=0 /\\ 0:r1=1 /\\ m=0)"));
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        // MP through a mutex and through spin_lock_irqsave(): the reader's section, if it comes
        // second, sees both writes (LKMM: lock.cat's ordering of critical sections).
        for (const char* lock : {"mutex_lock(l)", "spin_lock_irqsave(l, flags)"}) {
            const bool mutex = std::string(lock).starts_with("mutex");
            const std::string type = mutex ? "struct mutex" : "spinlock_t";
            const std::string unlock = mutex ? "mutex_unlock(l)" : "spin_unlock_irqrestore(l, flags)";
            const std::string src = "C T\n(* Result: Never *)\n{ " + type + " l; }\n"
                                    "P0(int *x, int *y, " + type + " *l) { unsigned long flags; " + lock +
                                    "; WRITE_ONCE(*x, 1); WRITE_ONCE(*y, 1); " + unlock + "; }\n"
                                    "P1(int *x, int *y, " + type + " *l) { unsigned long flags; int r0; int r1; " + lock +
                                    "; r0 = READ_ONCE(*y); r1 = READ_ONCE(*x); " + unlock + "; }\n"
                                    "exists (1:r0=1 /\\ 1:r1=0)\n";
            CAPTURE(src);
            CHECK(run_source(src).judgement == Judgement::Match);
        }
    }

    TEST_CASE("BUG_ON() and WARN_ON() stop the execution where their condition holds: Result: AssertFailed") {
        const std::string racy = "C T\n(* Result: AssertFailed *)\n{}\n"
                                 "P0(int *x) { WRITE_ONCE(*x, 1); }\n"
                                 "P1(int *x) { int r0; r0 = READ_ONCE(*x); BUG_ON(r0 == 1); }\nexists (x=1)\n";
        auto r = run_source(racy);
        CHECK(r.judgement == Judgement::Match);
        CHECK(r.judgement_text.find("BUG_ON() fired") != std::string::npos);
        // WARN_ON() returns its (false) condition when it does not fire
        r = run_source(one("r0 = WARN_ON(r1 != 0) + 4;", "exists (0:r0=4)"));
        CHECK(r.judgement_text.find("Always as expected") != std::string::npos);
        // expected but never fired: a mismatch once the search is complete
        r = run_source(one("BUG_ON(r1 != 0);", "exists (x=0)", "AssertFailed"));
        CHECK(r.judgement == Judgement::Mismatch);
    }

    TEST_CASE("misuse of the idioms is a positioned error") {
        struct Case {
            std::string source;
            std::string message;
        };
        const Case cases[] = {
            {"C t\n{}\nP0(spinlock_t *s) { mutex_unlock(s); }\nexists (s=0)",
             "t.litmus:3:21: error: mutex_unlock() needs a struct mutex, but 's' is a spinlock_t (use spin_lock() and "
             "spin_unlock() on it)"},
            {"C t\n{}\nP0(struct mutex *m) { spin_lock(m); }\nexists (m=0)",
             "t.litmus:3:23: error: 'm' is a struct mutex: only mutex_lock(), mutex_unlock(), mutex_trylock() and "
             "mutex_is_locked() may use it"},
            {"C t\n{}\nP0(int *m) { mutex_lock(m); }\nexists (m=0)",
             "t.litmus:3:14: error: mutex_lock() needs a struct mutex, but 'm' is not one (declare it struct mutex *m)"},
            {"C t\n{}\nP0(struct mutex *m) { int r0; r0 = READ_ONCE(*m); }\nexists (m=0)",
             "t.litmus:3:36: error: 'm' is a struct mutex: only mutex_lock(), mutex_unlock(), mutex_trylock() and "
             "mutex_is_locked() may use it"},
            {"C t\n{}\nP0(struct mutex *m) {}\nP1(int *m) {}\nexists (m=0)",
             "t.litmus:4:4: error: location 'm' is a struct mutex at 3:4 but an int here"},
            {"C t\n{ struct mutex m = 1; }\nP0(struct mutex *m) {}\nexists (m=0)",
             "t.litmus:2:18: error: unsupported: an initial value for a struct mutex (it starts unlocked)"},
            {"C t\n{}\nP0(int *k) { static_branch_inc(k); }\nexists (k=0)",
             "t.litmus:3:14: error: static_branch_inc() needs a static key, but 'k' is not one (declare it struct "
             "static_key_false *k)"},
            {"C t\n{}\nP0(struct static_key_false *k) { WRITE_ONCE(*k, 1); }\nexists (k=0)",
             "t.litmus:3:34: error: 'k' is a static key: only static_branch_likely(), static_branch_unlikely(), "
             "static_branch_inc(), static_branch_dec(), static_branch_enable() and static_branch_disable() may use it"},
            {"C t\n{}\nP0(struct static_key_false *k) { int r0; r0 = static_branch_inc(k); }\nexists (k=0)",
             "t.litmus:3:47: error: static_branch_inc() returns no value; call it as a statement"},
            {"C t\n{}\nP0(atomic_t *v) { int old; int r0; r0 = atomic_try_cmpxchg(v, old, 1); }\nexists (v=0)",
             "t.litmus:3:63: error: expected '&' and a register: atomic_try_cmpxchg() takes the address of a register "
             "as its old value, as in atomic_try_cmpxchg(v, &old, new), found 'old'"},
            {"C t\n{}\nP0(atomic_t *v, int *x) { int r0; r0 = atomic_try_cmpxchg(v, &x, 1); }\nexists (v=0)",
             "t.litmus:3:63: error: 'x' is a parameter (a shared location's address): atomic_try_cmpxchg() takes the "
             "address of a register as its old value, as in atomic_try_cmpxchg(v, &old, new)"},
            {"C t\n{}\nP0(atomic_t *v) { int r0; r0 = try_cmpxchg(v, &nosuch, 1); }\nexists (v=0)",
             "t.litmus:3:48: error: unknown identifier 'nosuch': not a parameter or a register declared in P0"},
            {"C t\n{}\nP0(spinlock_t *s) { spin_lock_irqsave(s); }\nexists (s=0)",
             "t.litmus:3:40: error: spin_lock_irqsave() takes 2 arguments, found 1"},
            {"C t\n{}\nP0(int *x) { BUG_ON(); }\nexists (x=0)",
             "t.litmus:3:21: error: expected an expression, found ')'"},
            {"C t\n{}\nP0(struct foo *x) {}\nexists (x=0)",
             "t.litmus:3:4: error: unknown struct 'foo' (define it in the initial state: struct foo { int f; ... };)"},
            {"C t\n(* Result: Bug *)\n{}\nP0(int *x) {}\nexists (x=0)",
             "t.litmus:2:4: error: expected Always, Sometimes, Never, Maybe, DEADLOCK, AssertFailed or DataRace after "
             "'Result:', found 'Bug'"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.source);
            CHECK(error_of(c.source) == c.message);
        }
    }
}
