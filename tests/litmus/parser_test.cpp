// SPDX-License-Identifier: MIT
// The C litmus parser and its analysis: what it accepts, the errors it gives (file, line,
// column, what was expected), the constructs it rejects as unsupported, and the regression
// inputs the fuzz target found.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "litmus/parser.hpp"
#include "tests/litmus/litmus_test_support.hpp"
#include "tests/litmus/litmus_test_paths.hpp"

using namespace oc::litmus;
using oc::litmus::test::error_of;
using oc::litmus::test::run_source;

namespace {


/// A test around `body` (the statements of P0, which has parameters x, y and a lock s; P1 is
/// empty), with the condition `cond`.
std::string with_body(const std::string& body, const std::string& cond = "exists (0:r0=1)") {
    return "C T\n{}\nP0(int *x, int *y, spinlock_t *s)\n{\n\tint r0;\n" + body + "\n}\nP1(int *x)\n{\n}\n" + cond + "\n";
}

const char* const mp =
    "C MP+test\n"
    "\n"
    "(*\n"
    " * Result: Never\n"
    " * ordercheck-mapping: Sometimes DATARACE why not\n"
    " *)\n"
    "\n"
    "{ x = 0; int *p = y; 0:r0 = 2; }\n"
    "\n"
    "P0(int *x, int **p) // two parameters\n"
    "{\n"
    "\tint r0;\n"
    "\tWRITE_ONCE(*x, 1);\n"
    "\tsmp_wmb();\n"
    "\tWRITE_ONCE(*p, x);\n"
    "}\n"
    "\n"
    "P1(int **p)\n"
    "{\n"
    "\tint *r0;\n"
    "\tint r1;\n"
    "\n"
    "\tr0 = READ_ONCE(*p); /* the pointer */\n"
    "\tr1 = READ_ONCE(*r0);\n"
    "}\n"
    "\n"
    "locations [x;]\n"
    "exists (1:r0=x /\\ 1:r1=0)\n";

const Access& access_named(const Program& p, unsigned process, const std::string& name, unsigned nth = 0) {
    for (const Access& a : p.accesses)
        if (a.process == process && a.name == name && nth-- == 0) return a;
    FAIL("no access " << name << " in P" << process);
    return p.accesses.front();
}

}  // namespace

TEST_SUITE("litmus parser") {
    TEST_CASE("a complete test: header, init, processes, condition, annotations") {
        const Program p = parse(mp, "mp.litmus");
        CHECK(p.name == "MP+test");
        CHECK(p.file == "mp.litmus");
        REQUIRE(p.processes.size() == 2);
        CHECK(p.processes[0].name == "P0");
        REQUIRE(p.locations.size() == 3);  // x, p, y (y named by p's initial value)
        CHECK(p.locations[0].name == "x");
        CHECK(p.locations[1].name == "p");
        CHECK(p.locations[1].init == address_of(2));
        CHECK(p.locations[2].name == "y");
        CHECK(p.locations[2].escapes);
        CHECK(p.processes[0].regs[2].init == 2);  // 0:r0 = 2 (after the parameters x and p)
        CHECK(p.processes[1].regs[0].is_param);
        CHECK(p.processes[1].regs[1].full_name == "1:r0");
        CHECK(p.quantifier == Quantifier::Exists);
        CHECK(format_prop(p, p.condition) == "1:r0=x /\\ 1:r1=0");
        REQUIRE(p.observed.size() == 3);  // x (locations clause), 1:r0, 1:r1
        CHECK(format_operand(p, p.observed[0]) == "x");
        REQUIRE(p.result);
        CHECK(p.result->outcome == Outcome::Never);
        CHECK_FALSE(p.result->datarace);
        CHECK(p.result->pos.line == 4);
        REQUIRE(p.mapping);
        CHECK(p.mapping->outcome == Outcome::Sometimes);
        CHECK(p.mapping->datarace);
        CHECK(p.mapping->note == "why not");
        CHECK_FALSE(p.engine);
    }

    TEST_CASE("condition forms: ~exists, forall, filter, locations, \\/, ~, =>, true, x=1, !=") {
        const Program a = parse(with_body("r0 = READ_ONCE(*x);", "~exists (0:r0=1 \\/ ~(x=1) /\\ y=0)"), "t");
        CHECK(a.quantifier == Quantifier::NotExists);
        CHECK(format_prop(a, a.condition) == "0:r0=1 \\/ ~x=1 /\\ y=0");
        const Program b = parse(with_body("r0 = READ_ONCE(*x);", "filter (x=1) forall (0:r0=1 => true)"), "t");
        CHECK(b.quantifier == Quantifier::Forall);
        CHECK(b.filter >= 0);
        CHECK(format_prop(b, b.condition) == "0:r0=1 => true");
        const Program c = parse(with_body("r0 = READ_ONCE(*x);", "locations [y; 0:r0;] exists 0:r0 != -1"), "t");
        CHECK(c.locations_clause.size() == 2);
        CHECK(format_prop(c, c.condition) == "0:r0!=-1");
        CHECK(c.observed.size() == 2);  // 0:r0 appears once
        // herd's lexer reads `not` as `~` (paulmckrcu/litmus writes `exists not(...)`)
        const Program d = parse(with_body("r0 = READ_ONCE(*x);", "exists not(0:r0=1 /\\ not x=1)"), "t");
        CHECK(d.quantifier == Quantifier::Exists);
        CHECK(format_prop(d, d.condition) == "~(0:r0=1 /\\ ~x=1)");
        const Program e = parse(with_body("r0 = READ_ONCE(*x);", "not exists (0:r0=1)"), "t");
        CHECK(e.quantifier == Quantifier::NotExists);
        // no final condition: herd7's `forall (true)` (paulmckrcu/litmus manual/locked/self-deadlock)
        for (const char* tail : {"", "locations [x;]", "filter (x=1)"}) {
            CAPTURE(tail);
            const Program f = parse(with_body("r0 = READ_ONCE(*x);", tail), "t");
            CHECK(f.quantifier == Quantifier::Forall);
            CHECK(format_prop(f, f.condition) == "true");
        }
    }

    TEST_CASE("a test name ending in .litmus loses it, as herd's Misc.clean_name does") {
        CHECK(parse("C C-CO+o-o.litmus\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n", "t").name == "C-CO+o-o");
        CHECK(parse("C .litmus\n{}\nP0(int *x) { WRITE_ONCE(*x, 1); }\nexists (x=1)\n", "t").name == ".litmus");
    }

    TEST_CASE("annotations on one-line comments") {
        const Program p = parse("C t\n(* Result: Never*)\n// ordercheck-engine: Sometimes DATARACE  \n{}\nP0(int *x) {}\nexists (x=1)", "t");
        REQUIRE(p.result);
        CHECK(p.result->outcome == Outcome::Never);
        CHECK(p.result->note.empty());
        REQUIRE(p.engine);
        CHECK(p.engine->outcome == Outcome::Sometimes);
        CHECK(p.engine->datarace);
        CHECK(p.engine->pos.line == 3);
    }

    TEST_CASE("comments: three forms; (* is code inside a process") {
        const Program p = parse("C c // name\n(* a (* nested *) comment *)\n/* c */ {}\n"
                                "P0(int *x) { int r0; r0 = READ_ONCE(*x); /* (* */ }\n"
                                "P1(int *x) { WRITE_ONCE(*x, 1); }\n(* tail *) exists (0:r0=1) // end",
                                "t");
        CHECK(p.accesses.size() == 2);
        CHECK(p.name == "c");
    }

    TEST_CASE("every error names file:line:column and what was expected") {
        struct Case {
            std::string source;
            std::string message;  // the exact what()
        };
        const Case cases[] = {
            {"", "t.litmus:1:1: error: expected 'C' and the test name on the first line, found end of file"},
            {"C\n{}", "t.litmus:1:2: error: expected the test name after 'C' on the same line"},
            {"C t\nP0() {}", "t.litmus:2:1: error: expected '{' to open the initial state, found 'P0'"},
            {"C t\n{ x = ; }", "t.litmus:2:7: error: expected an initial value (a number, a location or ATOMIC_INIT(n)), found ';'"},
            {"C t\n{}\nexists (x=1)", "t.litmus:3:1: error: expected the first process 'P0(...) { ... }', found 'exists'"},
            {"C t\n{}\nP0(int *x) { WRITE_ONCE(*x, 1) }\nexists (x=1)",
             "t.litmus:3:32: error: expected ';' after the call, found '}'"},
            {"C t\n{}\nP0(int *x) {}\nP2(int *x) {}\nexists (x=1)",
             "t.litmus:4:1: error: expected process P1 (processes are numbered from P0 in order), found 'P2'"},
            {"C t\n{}\nP0(int *x) {}\nexists", "t.litmus:4:7: error: expected a register (0:r0) or a location name, found end of file"},
            {"C t\n{}\nP0(int *x) {}\nexists (x=1) junk",
             "t.litmus:4:14: error: expected end of file after the final condition, found 'junk'"},
            {"C t\n{}\nP0(int *x) { int r0 = r9; }\nexists (x=1)",
             "t.litmus:3:23: error: unknown identifier 'r9': not a parameter or a register declared in P0"},
            {"C t\n\"never closed\n{}", "t.litmus:2:1: error: unterminated doc string: expected '\"' to close the '\"' here"},
            {"C t\nCycle=Rfe Fre\nnot a key line\n{}", "t.litmus:3:1: error: expected '{' to open the initial state, found 'not'"},
            {"C t\n{}\nP0(int *x) { int r0 = (int *x; }\nexists (x=1)",
             "t.litmus:3:29: error: expected ')' to close the cast, found 'x'"},
            {"C t\n{}\nP0(struct srcu_struct *s) {}\nP1(int *s) {}\nexists (s=0)",
             "t.litmus:4:4: error: location 's' is a struct srcu_struct at 3:4 but an int here"},
            {"C t\n{}\nP0(int *s) {}\nP1(struct srcu_struct *s) {}\nexists (s=0)",
             "t.litmus:4:4: error: location 's' is an int at 3:4 but a struct srcu_struct here"},
            {"C t\n{}\nP0(spinlock_t *s) {}\nP1(struct srcu_struct *s) {}\nexists (s=0)",
             "t.litmus:4:4: error: location 's' is a spinlock_t at 3:4 but a struct srcu_struct here"},
            {"C t\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(x); }\nexists (x=1)",
             "t.litmus:3:37: error: expected '*' and a location as the first argument of READ_ONCE(), as in READ_ONCE(*x), found 'x'"},
            {"C t\n{}\nP0(int *x) { WRITE_ONCE(*x); }\nexists (x=1)",
             "t.litmus:3:27: error: WRITE_ONCE() takes 2 arguments, found 1"},
            {"C t\n{}\nP0(int *x) { int r0; r0 = smp_mb(); }\nexists (x=1)",
             "t.litmus:3:27: error: smp_mb() returns no value; call it as a statement"},
            {"C t\n{}\nP0(int x) {}\nexists (x=1)",
             "t.litmus:3:8: error: expected '*' before parameter 'x': parameters point to shared locations (int *x)"},
            {"C t\n{}\nP0(int *x) {}\nexists (1:r0=1)", "t.litmus:4:9: error: P1 does not exist (the test has 1 processes)"},
            {"C t\n{}\nP0(int *x) {}\nexists (0:r7=1)", "t.litmus:4:11: error: unknown register 0:r7: P0 declares no register 'r7'"},
            {"C t\n{}\nP0(int *x) {}\nexists (z=1)", "t.litmus:4:9: error: unknown location 'z' in the condition"},
            {"C t\n{}\nP0(int *x) {}\nexists (x 1)",
             "t.litmus:4:11: error: expected '=' in the condition (as in 0:r0=1 or x=1), found '1'"},
            {"C t\n{}\nP0(int *x) {}\nexists (x=1 && x=2)",
             "t.litmus:4:13: error: expected ')' in the condition, found '&&'"},
            {"C t\n(* Result: Perhaps *)\n{}\nP0(int *x) {}\nexists (x=1)",
             "t.litmus:2:4: error: expected Always, Sometimes, Never, Maybe, DEADLOCK, AssertFailed or DataRace after 'Result:', found 'Perhaps'"},
            {"C t\n(* never closed\n{}", "t.litmus:2:1: error: unterminated comment: expected '*)' to close the '(*' here"},
            {"C t\n{ x = 1; x = 2; }", "t.litmus:2:10: error: location 'x' is initialised twice (first at 2:3)"},
            {"C t\n{ 3:r0 = 1; }\nP0(int *x) {}\nexists (x=1)",
             "t.litmus:2:3: error: register initialisation for P3, which does not exist"},
            {"C t\n{}\nP0(int *x) { int r0; int r0; }\nexists (x=1)",
             "t.litmus:3:26: error: 'r0' is declared twice in P0 (first at 3:18)"},
            {"C t\n{}\nP0(int *x) { int r0 = 012; }\nexists (x=1)",
             "t.litmus:3:23: error: unsupported: octal constant (a leading 0); write the value in decimal"},
            {"C t\n{}\nP0(int *x) { int r0 = 99999999999; }\nexists (x=1)",
             "t.litmus:3:23: error: unsupported: integer constant out of range (constants must stay below 2^32 in magnitude)"},
            {std::string("C t\n{}\nP0(int *x) { \0 }", sizeof("C t\n{}\nP0(int *x) { \0 }") - 1),
             "t.litmus:3:14: error: unexpected NUL character"},
            {"C t\n{}\nP0(spinlock_t *x) {}\nP1(atomic_t *x) {}\nexists (x=1)",
             "t.litmus:4:4: error: location 'x' is a spinlock_t at 3:4 but an atomic_t here"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.source);
            CHECK(error_of(c.source) == c.message);
        }
    }

    TEST_CASE("constructs outside the supported set are 'unsupported: ...' errors") {
        struct Case {
            std::string body;
            std::string message;  // the message, after "t.litmus:L:C: error: "
        };
        const Case cases[] = {
            {"goto out;", "unsupported: 'goto' statements (a litmus process is code with if/else and loops)"},
            {"switch (r0) {}", "unsupported: 'switch' statements (a litmus process is code with if/else and loops)"},
            {"r0++;", "unsupported: increment and decrement operators ('++'); write r = r + 1"},
            {"r0 += 1;", "unsupported: compound assignment ('+='); write r = r op v"},
            {"r0 = (struct foo *)x;", "unknown struct 'foo' (define it in the initial state: struct foo { int f; ... };)"},
            {"r0 = &r0;", "unsupported: '&' (address-of) in process code; parameters already point to their locations"},
            {"int a[2];", "unsupported: a local array (shared arrays are declared in the initial state)"},
            {"struct foo *q;", "unsupported: struct declarations"},
            {"spinlock_t l;", "unsupported: a local spinlock_t (shared locations are parameters)"},
            {"r0 = atomic_inc_not_zero(x);",
             "unsupported: the primitive 'atomic_inc_not_zero' is not in LKMM's linux-kernel.def (herd7 rejects it too); write "
             "atomic_add_unless(v, 1, 0), which is how the kernel defines it (docs/litmus.md lists the supported ones)"},
            {"spin_unlock_wait(s);",
             "unsupported: the primitive 'spin_unlock_wait' is not in LKMM's linux-kernel.def (herd7 rejects it too); it was removed "
             "from the kernel in v4.13 (docs/litmus.md lists the supported ones)"},
            {"srcu_read_lock(x);", "srcu_read_lock() needs a struct srcu_struct, but 'x' is not one (declare it struct srcu_struct *x)"},
            {"frobnicate(x);", "call to undefined function 'frobnicate': not a kernel primitive (docs/litmus.md lists them) nor a "
                               "helper function defined before this call"},
            {"r0 = READ_ONCE(*x) + READ_ONCE(*y);",
             "unsupported: two shared-memory accesses in one statement that are not nested in each other (C leaves their "
             "order unspecified); split it into two statements"},
            {"WRITE_ONCE(*x, READ_ONCE(*y) + *y);",
             "unsupported: two shared-memory accesses in one statement that are not nested in each other (C leaves their "
             "order unspecified); split it into two statements"},
            {"r0 = x->next;", "'->' on a value that is not a pointer to a struct (int *)"},
            {"#define A 1", "unsupported: preprocessor directives ('#')"},
            {"r0 = 1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1;",
             "unsupported: expression nested deeper than 24 levels"},
            {"r0 = " + std::string(100, '(') + "1" + std::string(100, ')') + ";",
             "unsupported: parentheses or unary operators nested too deeply"},
            {"spin_lock(x); r0 = READ_ONCE(*x);", "spin_lock() needs a spinlock_t, but 'x' is not one (declare it spinlock_t *x)"},
            {"(int)r0;", "expected a statement, found '('"},
            {"r0 = READ_ONCE(*s);",
             "'s' is a spinlock_t: only spin_lock(), spin_unlock(), spin_trylock() and spin_is_locked() may use it"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.body);
            const std::string e = error_of(with_body(c.body));
            const auto at = e.find(": error: ");
            REQUIRE(at != std::string::npos);
            CHECK(e.substr(0, 11) == "t.litmus:6:");  // the body's line
            CHECK(e.substr(at + 9) == c.message);
        }
        CHECK(error_of("X86 SB\n{}\nP0:\n") ==
              "t.litmus:1:1: error: unsupported: only C litmus tests are supported; this file starts with 'X86' where 'C' and the test name were expected");
        std::string thirty_three = "C t\n{}\n";
        for (int i = 0; i < 33; ++i) thirty_three += "P" + std::to_string(i) + "(int *x) {}\n";
        CHECK(error_of(thirty_three + "exists (x=1)") ==
              "t.litmus:35:1: error: unsupported: more than 32 processes (the graph engine runs up to 32 threads)");
        CHECK(error_of("C t\n{}\nP0(int *x) {}\ncases (x=1)") == "t.litmus:4:1: error: unsupported: 'cases' clauses");
    }

    TEST_CASE("loops: while, for, do ... while, break and continue, nested with if/else and blocks") {
        const Program p = parse(with_body("int r1; int r2;\n"
                                          "while (r0 < 3) { r0 = r0 + 1; if (r0 == 2) continue; else break; }\n"
                                          "for (int i = 0; i < 2; i = i + 1) WRITE_ONCE(*x, i);\n"
                                          "for (;;) { r1 = READ_ONCE(*y); if (r1) { break; } }\n"
                                          "do r2 = READ_ONCE(*x); while (r2 != 1);\n"
                                          "while (READ_ONCE(*x) == 0);\n"),
                                "t");
        std::vector<const Stmt*> loops;
        for (const Stmt& s : p.stmts)
            if (s.kind == StmtKind::Loop) loops.push_back(&s);
        REQUIRE(loops.size() == 5);
        CHECK(loops[0]->expr >= 0);
        CHECK_FALSE(loops[0]->post_test);
        CHECK(loops[1]->else_stmt >= 0);  // the for's step
        CHECK(loops[2]->expr == -1);      // for (;;): no condition
        CHECK(loops[3]->post_test);
        CHECK(std::count_if(p.stmts.begin(), p.stmts.end(), [](const Stmt& s) { return s.kind == StmtKind::Break; }) == 2);
        CHECK(std::count_if(p.stmts.begin(), p.stmts.end(), [](const Stmt& s) { return s.kind == StmtKind::Continue; }) == 1);
        // A value read in one iteration reaches an address in the next: that read heads an
        // address dependency (the analysis follows the back edge).
        const Program d = parse("C t\n{}\nP0(int *x, int **p) { int *r1 = x; int r2 = 0;\n"
                                "  while (r2 == 0) { r2 = READ_ONCE(*r1); r1 = READ_ONCE(*p); } }\nexists (x=0)", "t");
        CHECK(access_named(d, 0, "READ_ONCE", 1).dep_head);
        CHECK_FALSE(access_named(d, 0, "READ_ONCE", 0).dep_head);
        // the for's declaration is a register of P0
        CHECK(std::any_of(p.processes[0].regs.begin(), p.processes[0].regs.end(), [](const Register& r) { return r.name == "i"; }));
    }

    TEST_CASE("loops: what is an await (failed iterations have no effect) and what runs under the unroll bound") {
        struct Case {
            std::string body;
            bool await;
        };
        // P0 has x, y and the lock s; the condition names 0:r0.
        const Case cases[] = {
            {"while (!READ_ONCE(*x)) cpu_relax();", true},
            {"while (smp_load_acquire(x) == 0) { barrier(); }", true},
            {"int r1; while (READ_ONCE(*x) == 0) { r1 = 0; }", true},  // r1 is dead after the loop
            {"do { r0 = READ_ONCE(*x); } while (r0 == 0);", true},    // r0 is assigned before the exit
            {"while (1) { r0 = READ_ONCE(*x); if (r0) break; }", true},
            {"do { r0 = READ_ONCE(*x); } while (cmpxchg(x, r0, r0 + 1) != r0);", true},
            {"do { r0 = atomic_read(x); } while (r0 != atomic_cmpxchg_relaxed(x, r0, 5));", true},
            {"r0 = smp_cond_load_acquire(x, VAL == 1);", true},
            {"smp_cond_load_relaxed(y, VAL != 0 && r0 == 0);", true},  // its value goes to a register named VAL
            // a write, an RMW, a fence, a plain read: an iteration has an effect
            {"while (READ_ONCE(*x) == 0) WRITE_ONCE(*y, 1);", false},
            {"while (atomic_inc_return(x) < 3);", false},
            {"while (READ_ONCE(*x) == 0) smp_mb();", false},
            {"while (*x == 0);", false},
            {"while (READ_ONCE(*x) == 0); *x = 2;", false},  // x is accessed plainly (the race check)
            {"int *r1; r1 = x; while (READ_ONCE(*r1) == 0);", false},  // through a register: any location
            // a register carried into the next iteration, or out of the loop from a failed one
            {"r0 = READ_ONCE(*x); while (r0 == 0) { r0 = READ_ONCE(*x); }", false},
            {"int r1; while (1) { if (READ_ONCE(*x)) break; r0 = 5; }", false},
            {"int r1; while (1) { if (READ_ONCE(*x)) break; r1 = 5; } WRITE_ONCE(*y, r1);", false},
            {"int r1; r1 = 0; do { r0 = READ_ONCE(*x); r1 = r1 + 1; } while (r0 == 0);", false},
            // a cmpxchg whose failure is not the iteration's: another register, a while loop
            {"int r1; do { r0 = READ_ONCE(*x); } while (cmpxchg(x, r0, r0 + 1) != r1);", false},
            {"while (cmpxchg(x, r0, r0 + 1) != r0) { r0 = READ_ONCE(*x); }", false},
            // no read: it could never succeed once it fails; counting loops; continue; nested loops
            {"while (r0 == 0) cpu_relax();", false},
            {"for (r0 = 0; r0 < 3; r0 = r0 + 1) cpu_relax();", false},
            {"while (1) { r0 = READ_ONCE(*x); if (!r0) continue; break; }", false},
            {"while (READ_ONCE(*x) == 0) { while (READ_ONCE(*y) == 0); }", false},
        };
        for (const Case& c : cases) {
            CAPTURE(c.body);
            const Program p = parse(with_body(c.body), "t");
            const Stmt* outer = nullptr;
            for (const Stmt& s : p.stmts)
                if (s.kind == StmtKind::Loop) outer = &s;  // the outermost loop is added last
            REQUIRE(outer != nullptr);
            CHECK(outer->await == c.await);
        }
    }

    TEST_CASE("loops: malformed loops and break/continue outside one are positioned errors") {
        struct Case {
            std::string body;
            std::string message;  // after "t.litmus:6:C: error: "
        };
        const Case cases[] = {
            {"break;", "'break' outside a loop"},
            {"if (r0) continue;", "'continue' outside a loop"},
            {"while r0 {}", "expected '(' after 'while', found 'r0'"},
            {"while () {}", "expected a condition in 'while ()', found ')'"},
            {"while (r0 {}", "expected ')' to close the condition of 'while', found '{'"},
            {"do { r0 = 1; } (r0);", "expected 'while' after the body of 'do', found '('"},
            {"do { r0 = 1; } while (r0) r0 = 2;", "expected ';' after 'do ... while (...)', found 'r0'"},
            {"for (r0 = 0; r0 < 2) {}", "expected ';' after the condition of 'for', found ')'"},
            {"for (r0 = 0; r0 < 2; r0++) {}", "unsupported: increment and decrement operators ('++'); write r = r + 1"},
            {"for (r0 = 0; r0 < 2; *x = 1) {}", "expected an assignment (r = r + 1) or a call as the step of 'for', found '*'"},
            {"for (WRITE_ONCE(*x, 1); r0; ) {}", "expected an assignment or a declaration as the init of 'for', found 'WRITE_ONCE'"},
            {"while (r0) int r1;", "expected a statement as the body of 'while', found a declaration; use braces"},
            {"while (r0) while (r0) while (r0) while (r0) while (r0);", "unsupported: loops nested deeper than 4 levels"},
            {"r0 = smp_cond_load_acquire(*x, VAL);", "expected a pointer as the first argument of smp_cond_load_acquire(), as in "
                                                      "smp_cond_load_acquire(x, VAL != 0), found '*'"},
            {"r0 = smp_cond_load_acquire(x);", "expected ',' and a condition on VAL after the pointer of smp_cond_load_acquire(), "
                                               "found ')'"},
            {"r0 = smp_cond_load_relaxed(x, VAL == READ_ONCE(*y));",
             "unsupported: a shared-memory access in the condition of smp_cond_load_relaxed() (it may use VAL and registers)"},
            {"WRITE_ONCE(*y, smp_cond_load_acquire(x, VAL));",
             "smp_cond_load_acquire() is supported as a statement: r = smp_cond_load_acquire(x, cond on VAL); or "
             "smp_cond_load_acquire(x, cond on VAL);"},
            {"r0 = VAL;", "unknown identifier 'VAL': not a parameter or a register declared in P0"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.body);
            const std::string e = error_of(with_body(c.body));
            const auto at = e.find(": error: ");
            REQUIRE(at != std::string::npos);
            CHECK(e.substr(0, 11) == "t.litmus:6:");
            CHECK(e.substr(at + 9) == c.message);
        }
        CHECK(error_of("C t\n{}\nP0(struct srcu_struct *s) {\n int r0;\n while (1) {\n  r0 = srcu_read_lock(s);\n"
                       "  srcu_read_unlock(s, r0);\n }\n}\nexists (0:r0=0)") ==
              "t.litmus:6:8: error: unsupported: srcu_read_lock() in a loop (each srcu_read_lock() site opens one section)");
        CHECK(error_of("C t\n{}\nP0(int *x) {\n do {} while (1);\n break;\n}\nexists (x=0)") ==
              "t.litmus:5:2: error: 'break' outside a loop");
    }

    TEST_CASE("helper functions: inlined at each call, in a scope of their own") {
        const std::string src =
            "C F\n{}\n"
            "static inline void publish(int *data, int *flag) { WRITE_ONCE(*data, 1); smp_store_release(flag, 1); }\n"
            "static bool ready(int *flag);\n"  // a prototype, defined below
            "static unsigned long twice(unsigned long v) { unsigned long r; r = v + v; return r; }\n"
            "static bool ready(int *flag) { int r; r = smp_load_acquire(flag); if (!r) return false; return true; }\n"
            "P0(int *x, int *y) { publish(x, y); }\n"
            "static int consume(int *data, int *flag) {\n"  // between the processes
            "  int r; int i;\n"
            "  for (i = 0; i < 2; i = i + 1) { if (ready(flag)) break; }\n"
            "  r = READ_ONCE(*data);\n"
            "  return twice(r);\n"
            "}\n"
            "P1(int *x, int *y) { int r0; int r1; r0 = consume(x, y); r1 = consume(x, y) + twice(r0); }\n"
            "exists (1:r0=2)\n";
        const Program p = parse(src, "t");
        REQUIRE(p.processes.size() == 2);
        // publish; consume twice, each with ready and twice inside; twice once more
        CHECK(std::count_if(p.stmts.begin(), p.stmts.end(), [](const Stmt& s) { return s.kind == StmtKind::Inline; }) == 1 + 2 * 3 + 1);
        // The pointer parameters are the processes' own: every access has its fixed location.
        for (const Access& a : p.accesses) {
            CAPTURE(a.name);
            CHECK(a.target >= 0);
        }
        std::vector<std::string> p0, p1;
        for (const Access& a : p.accesses) (a.process == 0 ? p0 : p1).push_back(a.name + ":" + p.locations[a.target].name);
        CHECK(p0 == std::vector<std::string>{"WRITE_ONCE:x", "smp_store_release:y"});
        CHECK(p1 == std::vector<std::string>{"smp_load_acquire:y", "READ_ONCE:x", "smp_load_acquire:y", "READ_ONCE:x"});
        // Each call has registers of its own, which the condition cannot name.
        std::size_t locals = 0;
        for (const Register& r : p.processes[1].regs) locals += r.name.find("consume.r#") == 0;
        CHECK(locals == 2);
        CHECK(error_of("C F\n{}\nstatic int g(int v) { return v; }\nP0(int *x) { int r0; r0 = g(1); }\nexists (0:r#1=1)\n") != "");
        // A function nobody calls is checked all the same.
        CHECK(error_of("C F\n{}\nstatic void f(int *x) { WRITE_ONCE(x, 1); }\nP0(int *x) { }\nexists (x=0)\n") ==
              "t.litmus:3:36: error: expected '*' and a location as the first argument of WRITE_ONCE(), as in "
              "WRITE_ONCE(*x, ...), found 'x'");
        // A loop in a function, or a loop calling a function that only reads, can be an await.
        const auto outer_await = [](const std::string& functions, const std::string& body) {
            const Program q = parse("C A\n{}\n" + functions + "\nP0(int *x, int *y) { int r0; " + body + " }\nexists (0:r0=1)\n", "t");
            const Stmt* loop = nullptr;
            for (const Stmt& s : q.stmts)
                if (s.kind == StmtKind::Loop) loop = &s;
            REQUIRE(loop != nullptr);
            return loop->await;
        };
        const std::string wait = "static int wait(int *f) { int v; do { v = smp_load_acquire(f); } while (!v); return v; }";
        const std::string peek = "static int peek(int *f) { return READ_ONCE(*f); }";
        const std::string poke = "static int poke(int *f) { WRITE_ONCE(*f, 1); return READ_ONCE(*f); }";
        const std::string early = "static int first(int *f) { int v; v = READ_ONCE(*f); if (v) return v; v = READ_ONCE(*f); return v; }";
        CHECK(outer_await(wait, "r0 = wait(x);"));
        CHECK(outer_await(peek, "do { r0 = peek(x); } while (!r0);"));
        CHECK(outer_await(early, "do { r0 = first(x); } while (!r0);"));
        CHECK(outer_await(wait, "r0 = wait(x);"));
        CHECK_FALSE(outer_await(poke, "do { r0 = poke(x); } while (!r0);"));  // the iteration writes
        // a return inside the loop leaves it: what is read after it must be assigned before it
        CHECK(outer_await("static int w(int *f) { int v; while (1) { v = READ_ONCE(*f); if (v) return v; } }", "r0 = w(x);"));
        CHECK_FALSE(outer_await("static int w(int *f, int u) { int v; while (1) { if (READ_ONCE(*f)) return u; u = 1; } }",
                                "r0 = w(x, 0);"));
    }

    TEST_CASE("helper functions: what cannot be inlined is a positioned error") {
        struct Case {
            std::string functions;  // line 3
            std::string body;       // line 4, P0(int *x, int *y) with int r0
            std::string message;
        };
        const Case cases[] = {
            {"", "r0 = g(x);", "t.litmus:4:35: error: call to undefined function 'g': not a kernel primitive (docs/litmus.md lists "
                                "them) nor a helper function defined before this call"},
            {"static int g(int *a) { return READ_ONCE(*a); }", "r0 = g(x, 1);", "t.litmus:4:40: error: g() takes 1 argument, found more"},
            {"static int g(int *a, int v) { return v; }", "r0 = g(x);", "t.litmus:4:35: error: g() takes 2 arguments, found 1"},
            {"static int g(int *a) { return g(a); }", "r0 = g(x);",
             "t.litmus:3:31: error: recursive call to g() (helper functions are inlined at each call; recursion, direct or "
             "through other functions, is unsupported)"},
            {"static int h(int *a); static int g(int *a) { return h(a); } static int h(int *a) { return g(a); }", "r0 = g(x);",
             "t.litmus:3:53: error: recursive call to h() (helper functions are inlined at each call; recursion, direct or "
             "through other functions, is unsupported)"},
            {"static void g(int *a) { return 1; }", "g(x);", "t.litmus:3:25: error: 'return' with a value in void function g()"},
            {"static int g(int *a) { if (READ_ONCE(*a)) return; return 1; }", "r0 = g(x);",
             "t.litmus:3:43: error: 'return' without a value in function g(), which returns one"},
            {"static void g(int *a) { WRITE_ONCE(*a, 1); }", "r0 = g(x);",
             "t.litmus:4:35: error: g() returns no value (it is void); call it as a statement"},
            {"static int READ_ONCE(int *a) { return 1; }", "", "t.litmus:3:12: error: function 'READ_ONCE' is named like a kernel primitive; rename it"},
            {"static void smp_mb(void) { }", "", "t.litmus:3:13: error: function 'smp_mb' is named like a kernel primitive; rename it"},
            {"static void P1(int *a) { }", "", "t.litmus:3:13: error: function 'P1' is named like a process; rename it"},
            {"static int g(int *a) { return 1; } static int g(int *a) { return 2; }", "",
             "t.litmus:3:47: error: function g() is defined twice (first at 3:12)"},
            {"static int g(int *a) { return r0; }", "r0 = g(x);",
             "t.litmus:3:31: error: unknown identifier 'r0': not a parameter or a local declared in function g()"},
            {"static int g(int *a) { v = 1; return v; }", "",
             "t.litmus:3:24: error: unknown identifier 'v': not a parameter or a local declared in function g()"},
            {"static void g(int *a) { break; }", "", "t.litmus:3:25: error: 'break' outside a loop of function g()"},
            {"", "return;", "t.litmus:4:30: error: unsupported: 'return' in a process (a process ends at its closing brace; "
                            "'return' belongs in a helper function)"},
            {"static int g(int *a) { return READ_ONCE(*a); }", "r0 = READ_ONCE(*y) + g(x);",
             "t.litmus:4:51: error: unsupported: a call to g(), which accesses shared memory, and another shared-memory access in "
             "one statement, not nested in each other (C leaves their order unspecified); split it into two statements"},
            {"static int g(int *a) { return READ_ONCE(*a); }", "r0 = r0 && g(x);",
             "t.litmus:4:41: error: unsupported: a call to g() in an operand of '&&', '||' or '?:', which C evaluates only under a "
             "condition; assign its result to a register first"},
            {"static int g(int *a) { return 1; }", "r0 = smp_cond_load_acquire(y, VAL == g(x));",
             "t.litmus:4:67: error: unsupported: a call to a helper function in the condition of smp_cond_load_acquire() (it runs "
             "at every iteration of the wait); write the wait as a loop whose condition calls it"},
            {"static int g(int *a) { int i = 0; while (READ_ONCE(*a)) { i = i + 1; } return i; }",
             "while (1) { while (1) { while (1) { while (g(x)) { r0 = 1; } } } }",
             "t.litmus:3:57: error: unsupported: loops nested deeper than 4 levels (in g() called at 4:73)"},
            {"static int g(int *a);", "r0 = g(x);", "t.litmus:4:35: error: call to function g(), declared at 3:12 but not defined before this call"},
            {"static int g(int *a) { if (READ_ONCE(*a)) return; }", "", "t.litmus:3:43: error: 'return' without a value in function g(), which returns one"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.functions);
            CAPTURE(c.body);
            CHECK(error_of("C t\n{}\n" + c.functions + "\nP0(int *x, int *y) { int r0; " + c.body + " }\nexists (0:r0=1)\n") == c.message);
        }
        // What the analysis finds wrong in an inlined body points into the function.
        CHECK(error_of("C t\n{}\nstatic int g(int *a) { return READ_ONCE(*a); }\nP0(spinlock_t *s) { int r0; spin_lock(s); r0 = g(s); }\n"
                       "exists (0:r0=1)\n") ==
              "t.litmus:3:31: error: 's' is a spinlock_t: only spin_lock(), spin_unlock(), spin_trylock() and spin_is_locked() may use it");
    }

    TEST_CASE("plain and marked accesses to one location: checked exactly or rejected") {
        // Plain in P0, READ_ONCE in P1: the READ_ONCE may run as a plain read.
        const Program ok = parse("C t\n{}\nP0(int *x) { *x = 1; }\nP1(int *x) { int r0; r0 = READ_ONCE(*x); }\nexists (x=1)", "t");
        CHECK(ok.locations[0].plain);
        // Marked accesses from two processes on a plainly accessed location keep their tags under
        // LKMM; under the C++11 mapping they would race, so the test runs under LKMM only.
        const Program two = parse("C t\n{}\nP0(int *x) { *x = 1; }\nP1(int *x) { int r0; r0 = READ_ONCE(*x); }\n"
                                  "P2(int *x) { WRITE_ONCE(*x, 2); }\nexists (x=1)",
                                  "t");
        CHECK(two.locations[0].plain);
        CHECK(two.kernel_model_only ==
              "t:5:14: location 'x' is accessed plainly (at 3:14) and with marked accesses from more than one process, "
              "which the C++11 mapping would run as racing plain accesses (docs/litmus.md)");
        CHECK(ok.kernel_model_only.empty());
        // An acquire load or a release store keeps its ordering as its LKMM tag, which the C++11
        // mapping of a plain location would lose: LKMM only.
        const Program acq =
            parse("C t\n{}\nP0(int *x) { *x = 1; }\nP1(int *x) { int r0; r0 = smp_load_acquire(x); }\nexists (x=1)", "t");
        CHECK(acq.locations[0].plain);
        CHECK(acq.kernel_model_only ==
              "t:4:27: location 'x' is accessed plainly (at 3:14) and with smp_load_acquire(), whose ordering the C++11 "
              "mapping of a plain location would lose (docs/litmus.md)");
        const Program rel = parse("C t\n{}\nP0(int *x) { int r0; r0 = *x; }\nP1(int *x) { smp_store_release(x, 1); }\nexists (x=1)", "t");
        CHECK(rel.locations[0].plain);
        CHECK_FALSE(rel.kernel_model_only.empty());
        // So does a READ_ONCE() that heads an address dependency (the mapping reads it as acquire).
        const Program head = parse("C t\n{ p=y; }\nP0(int **p) { int r0; r0 = *p; }\n"
                                   "P1(int **p) { int *r1; r1 = READ_ONCE(*p); WRITE_ONCE(*r1, 1); }\nexists (0:r0=0)",
                                   "t");
        CHECK(head.locations[0].plain);
        CHECK(head.kernel_model_only.find("READ_ONCE(), whose ordering the C++11 mapping") != std::string::npos);
        // An RMW cannot be run as a plain access.
        CHECK(error_of("C t\n{}\nP0(int *x) { *x = 1; }\nP1(int *x) { int r0; r0 = xchg(x, 2); }\nexists (x=1)") ==
              "t.litmus:4:27: error: unsupported: location 'x' is accessed plainly (at 3:14) and with xchg(); "
              "ordercheck checks races only on locations whose marked accesses are loads and stores: READ_ONCE/WRITE_ONCE, "
              "acquire loads, release stores (docs/litmus.md)");
        // Only marked accesses: atomic.
        CHECK_FALSE(parse(mp, "t").locations[0].plain);
    }

    TEST_CASE("dependencies: a read whose value reaches an address is promoted, nothing else") {
        const Program p = parse(mp, "t");
        CHECK(access_named(p, 1, "READ_ONCE", 0).dep_head);        // r0 = READ_ONCE(*p); ... *r0
        CHECK_FALSE(access_named(p, 1, "READ_ONCE", 1).dep_head);  // r1 = READ_ONCE(*r0): its value goes nowhere
        CHECK(access_named(p, 1, "READ_ONCE", 1).target == -1);    // a dynamic address
        CHECK(access_named(p, 0, "WRITE_ONCE", 0).target == 0);    // *x: the location x
        CHECK(p.locations[0].escapes);                              // WRITE_ONCE(*p, x) stores x's address

        // Through copies and both arms of an if; a data or control dependency promotes nothing.
        const Program q = parse("C t\n{}\nP0(int *x, int **p, int **q) {\n"
                                "  int *r0; int *r1; int r2; int r3; int r4;\n"
                                "  r0 = READ_ONCE(*p);\n"
                                "  if (r2) { r1 = r0; } else { r1 = x; }\n"
                                "  r2 = READ_ONCE(*r1);\n"
                                "  r3 = READ_ONCE(*x);\n"
                                "  if (r3) WRITE_ONCE(*x, r3);\n"
                                "  r4 = xchg_relaxed(p, x);\n"
                                "  WRITE_ONCE(*r4, 1);\n"
                                "  r4 = *q;\n"
                                "  WRITE_ONCE(*r4, 1);\n"
                                "}\nP1(int *x) {}\nexists (x=1)",
                                "t");
        CHECK(access_named(q, 0, "READ_ONCE", 0).dep_head);
        CHECK_FALSE(access_named(q, 0, "READ_ONCE", 2).dep_head);
        CHECK(access_named(q, 0, "xchg_relaxed").dep_head);  // relaxed RMWs head dependencies too
        CHECK_FALSE(access_named(q, 0, "plain read").dep_head);  // plain reads never do
    }

    TEST_CASE("diy7 metadata: the doc string and key=value lines are kept, and mean nothing to the run") {
        const Program p = parse("C SB+fencembonceonces\n"
                                "\"Fre FenceMbdWROnceOnce Fre FenceMbdWROnceOnce\"\n"
                                "Cycle=Fre FenceMbdWROnceOnce Fre FenceMbdWROnceOnce\n"
                                "Relax=\n"
                                "Safe=Fre FenceMbdWROnceOnce\n"
                                "Generator=diy7 (version 7.56)\n"
                                "Prefetch=0:x=F,0:y=T,1:y=F,1:x=T\n"
                                "Com=Fr Fr\n"
                                "(* Result: Never *)\n"
                                "Orig=FenceMbdWROnceOnce Fre FenceMbdWROnceOnce Fre  \r\n"
                                "{\n}\n"
                                "P0(int *x, int *y) { int r0; WRITE_ONCE(*x, 1); smp_mb(); r0 = READ_ONCE(*y); }\n"
                                "P1(int *x, int *y) { int r0; WRITE_ONCE(*y, 1); smp_mb(); r0 = READ_ONCE(*x); }\n"
                                "exists (0:r0=0 /\\ 1:r0=0)\n",
                                "t");
        CHECK(p.name == "SB+fencembonceonces");
        CHECK(p.doc == "Fre FenceMbdWROnceOnce Fre FenceMbdWROnceOnce");
        REQUIRE(p.metadata.size() == 7);
        CHECK(p.metadata[0].key == "Cycle");
        CHECK(p.metadata[0].value == "Fre FenceMbdWROnceOnce Fre FenceMbdWROnceOnce");
        CHECK(p.metadata[0].pos.line == 3);
        CHECK(p.metadata[1].key == "Relax");
        CHECK(p.metadata[1].value.empty());
        CHECK(p.metadata[3].key == "Generator");
        CHECK(p.metadata[3].value == "diy7 (version 7.56)");
        CHECK(p.metadata[4].value == "0:x=F,0:y=T,1:y=F,1:x=T");
        CHECK(p.metadata[6].key == "Orig");
        CHECK(p.metadata[6].value == "FenceMbdWROnceOnce Fre FenceMbdWROnceOnce Fre");  // trailing blanks and \r trimmed
        REQUIRE(p.result);  // a comment among the metadata lines still carries the annotation
        CHECK(p.result->outcome == Outcome::Never);
        CHECK(p.processes.size() == 2);
        CHECK(p.locations.size() == 2);  // no metadata value became a location

        // herd's other forms: the doc string on the name line, over several lines, with a ';'.
        const Program q = parse("C t \"one\nand two\";\nHash=abc\n{}\nP0(int *x) {}\nexists (x=0)", "t");
        CHECK(q.doc == "one\nand two");
        REQUIRE(q.metadata.size() == 1);
        CHECK(q.metadata[0].key == "Hash");
        CHECK(q.metadata[0].pos.line == 3);  // lines after a multi-line doc string keep their numbers
        // Without metadata nothing changes.
        CHECK(parse(mp, "t").metadata.empty());
        CHECK(parse(mp, "t").doc.empty());
    }

    TEST_CASE("casts are accepted and ignored, as herd does; pointer-typed registers and parameters") {
        // The shape of the auto/ tests of Paul McKenney's corpus (intptr_t throughout).
        const Program p = parse("C C-MP+wmb+addr\n{\n\tx1=y1;\n}\n"
                                "P0(intptr_t *u0, intptr_t *x1)\n{\n"
                                "\tintptr_t r3 = u0;\n"
                                "\tWRITE_ONCE(*u0, 1);\n"
                                "\tsmp_wmb();\n"
                                "\tWRITE_ONCE(*(intptr_t **)x1, (intptr_t *)r3);\n"
                                "}\n"
                                "P1(intptr_t *x1)\n{\n"
                                "\tintptr_t *r1;\n"
                                "\tintptr_t r2;\n"
                                "\tr1 = (intptr_t *)READ_ONCE(*(intptr_t **)x1);\n"
                                "\tr2 = READ_ONCE(*(intptr_t *)r1);\n"
                                "}\n"
                                "exists (1:r1=u0 /\\ 1:r2=0)\n",
                                "t");
        const Access& store = access_named(p, 0, "WRITE_ONCE", 1);
        CHECK(store.target == 0);                                            // *(intptr_t **)x1 is the location x1
        CHECK(p.exprs[static_cast<std::size_t>(store.vals[0])].kind == ExprKind::Reg);  // (intptr_t *)r3 is r3
        CHECK(access_named(p, 1, "READ_ONCE", 0).target == 0);
        CHECK(access_named(p, 1, "READ_ONCE", 1).target == -1);              // through r1: a dynamic address
        CHECK(access_named(p, 1, "READ_ONCE", 0).dep_head);                  // the cast keeps the address dependency
        REQUIRE(p.locations.size() == 3);                                    // x1, y1 (named by x1's value), u0
        CHECK(p.locations[2].escapes);                                       // u0's address is stored
        CHECK(p.locations[0].init == address_of(1));                      // x1=y1

        // A cast binds as a unary operator; any type words and stars; (void *)0 is NULL.
        const Program q = parse(with_body("int *r1; r0 = (int)READ_ONCE(*(int *)x) + 1; r1 = (void *)0; "
                                          "r0 = (const volatile unsigned long)r0; r0 = (u8 **)-r0;"),
                                "t");
        const Stmt& body = q.stmts[static_cast<std::size_t>(q.processes[0].body)];
        REQUIRE(body.count >= 2);
        const Stmt& first = q.stmts[static_cast<std::size_t>(q.block_items[body.first + 0])];
        REQUIRE(first.kind == StmtKind::Assign);
        const Expr& sum = q.exprs[static_cast<std::size_t>(first.expr)];
        CHECK(sum.kind == ExprKind::Binary);                                 // ((int)READ_ONCE(...)) + 1
        CHECK(q.exprs[static_cast<std::size_t>(sum.a)].kind == ExprKind::Call);
        // The kernel's own test, atomic_t parameters and a declaration with an initialiser.
        CHECK_NOTHROW(parse("C add_unless_mb\n{}\nP0(atomic_t *x, atomic_t *y, atomic_t *z)\n{\n\tWRITE_ONCE(*x, 1);\n"
                            "\tint r0 = atomic_add_unless(z,1,5);\n\tWRITE_ONCE(*y, 1);\n}\n"
                            "P1(atomic_t *x, atomic_t *y)\n{\n\tint r0 = READ_ONCE(*y);\n\tif (r0 == 1)\n\t\tWRITE_ONCE(*x, 2);\n}\n"
                            "exists (1:r0=1 /\\ x=1)",
                            "t"));
        // rcu_assign_pointer(*(char **)y, (char *)1), as in manual/extra/.
        CHECK_NOTHROW(parse(with_body("rcu_assign_pointer(*(char **)y, (char *)1); r0 = (int)rcu_dereference(*(char **)x);"), "t"));
    }

    TEST_CASE("registers herd accepts without a declaration") {
        // An assignment declares its register; so does a typed or untyped initialisation in the
        // initial state, which the process may read without declaring it.
        const Program p = parse("C t\n{\n\tint *z = 1;\n\tint 0:r1 = z;\n\tint * 1:r9;\n\t1:r8 = 3;\n}\n"
                                "P0(int *x, int *y, int *z) { rcu_assign_pointer(*x, r1); r2 = READ_ONCE(*y); }\n"
                                "P1(int *x) { r5 = READ_ONCE(*x); }\n"
                                "exists (0:r2=0 /\\ 1:r5=0 /\\ 1:r9=0 /\\ 1:r8=3)",
                                "t");
        const Process& p0 = p.processes[0];
        REQUIRE(p0.regs.size() == 5);  // x, y, z, r1, r2
        CHECK(p0.regs[3].name == "r1");
        CHECK(p0.regs[3].implicit);
        CHECK(p0.regs[3].init == address_of(0));  // 0:r1 = z (z is the first location named)
        CHECK(p0.regs[4].name == "r2");
        CHECK(p0.regs[4].implicit);
        CHECK(p0.regs[4].assigned);
        const Process& p1 = p.processes[1];
        REQUIRE(p1.regs.size() == 4);  // x, r5, then r9 and r8 from the initial state
        CHECK(p1.regs[2].name == "r9");
        CHECK(p1.regs[3].init == 3);
        CHECK(p.locations[0].escapes);
        // Reading a register nothing declares, assigns or initialises is still an error.
        CHECK(error_of("C t\n{}\nP0(int *x) { WRITE_ONCE(*x, r7); }\nexists (x=1)") ==
              "t.litmus:3:29: error: unknown identifier 'r7': not a parameter or a register declared in P0");
        CHECK(error_of("C t\n{ 0:x = 1; }\nP0(int *x) {}\nexists (x=1)") ==
              "t.litmus:2:3: error: unsupported: initialising parameter x (it points to location x)");
        // `locations [...]` may list one (herd7 shows its initial value, 0); a condition or a
        // filter may not, where a misspelt register would silently read 0
        const Program q = parse("C t\n{}\nP0(int *x) { int r0; r0 = READ_ONCE(*x); }\nlocations [0:r1; x]\nexists (0:r0=1)", "t");
        REQUIRE(q.processes[0].regs.size() == 3);  // x, r0, r1
        CHECK(q.processes[0].regs[2].name == "r1");
        CHECK(q.processes[0].regs[2].implicit);
        CHECK(q.processes[0].regs[2].init == 0);
        CHECK(q.locations_clause.size() == 2);
        CHECK(error_of("C t\n{}\nP0(int *x) {}\nfilter (0:r7=1)\nexists (x=1)") ==
              "t.litmus:4:11: error: unknown register 0:r7: P0 declares no register 'r7'");
    }

    TEST_CASE("herd7's constructs: spin_lock() on an int, nested accesses, (void)expr, ';' after the condition") {
        // spin_lock() on a location declared `int *l`: a spinlock_t when only the spinlock
        // operations use it, starts at 0 and its address is no value
        const std::string locks = "C t\n{}\nP0(int *l, int *x)\n{\n\tspin_lock(l);\n\tWRITE_ONCE(*x, 1);\n\tspin_unlock(l);\n}\n"
                                  "P1(int *l)\n{\n\tint r0;\n\tr0 = spin_trylock(l);\n}\nexists (1:r0=1)\n";
        const Program p = parse(locks, "t");
        CHECK(p.locations[0].name == "l");
        CHECK(p.locations[0].type == LocType::Lock);
        CHECK(p.locations[1].type == LocType::Int);
        CHECK(error_of("C t\n{ l = 1; }\nP0(int *l)\n{\n\tspin_lock(l);\n}\nexists (l=1)\n") ==
              "t.litmus:5:2: error: spin_lock() needs a spinlock_t, but 'l' is not one (declare it spinlock_t *l)");
        // declared spinlock_t in one process and int in another: a spinlock_t, starting unlocked
        const Program mixed = parse("C t\n{}\nP0(spinlock_t *l)\n{\n\tspin_lock(l);\n}\nP1(int *l)\n{\n\tspin_unlock(l);\n}\nexists (l=0)\n", "t");
        CHECK(mixed.locations[0].type == LocType::Lock);
        CHECK(error_of("C t\n{ int l = 1; }\nP0(spinlock_t *l)\n{\n\tspin_lock(l);\n}\nP1(int *l) {}\nexists (l=1)\n") ==
              "t.litmus:2:7: error: unsupported: an initial value for a spinlock_t ('l' starts unlocked)");
        CHECK(error_of("C t\n{}\nP0(spinlock_t *l)\n{\n\tspin_lock(l);\n}\nP1(atomic_t *l) {}\nexists (l=1)\n").find(
                  "location 'l' is a spinlock_t at") != std::string::npos);
        // two accesses in one statement when one is an operand of the other: the read runs first
        const Program copy = parse(with_body("*y = *x;\nWRITE_ONCE(*x, READ_ONCE(*y));", "exists (x=1)"), "t");
        REQUIRE(copy.accesses.size() == 4u);
        CHECK(copy.accesses[0].name == "plain read");
        CHECK(copy.accesses[1].name == "plain write");
        CHECK(copy.accesses[2].name == "READ_ONCE");
        CHECK(copy.accesses[3].name == "WRITE_ONCE");
        CHECK(error_of(with_body("r0 = READ_ONCE(*x) | *y;")).find("not nested in each other") != std::string::npos);
        // (void)expr: a call made for its effect, its value discarded
        const Program v = parse(with_body("(void)atomic_add_unless(x, 1, 0);\n(void) xchg(y, 1);\n(void)r0;"), "t");
        CHECK(access_named(v, 0, "atomic_add_unless").prim == Prim::AddUnless);
        CHECK(access_named(v, 0, "xchg").prim == Prim::Xchg);
        CHECK(error_of(with_body("(void atomic_inc(x);")) == "t.litmus:6:7: error: expected ')' to close '(void', found 'atomic_inc'");
        // one ';' after the final condition
        CHECK(error_of(with_body("", "exists (x=1);")) == "");
        CHECK(error_of(with_body("", "exists (x=1);;")) == "t.litmus:11:14: error: expected end of file after the final condition, found ';'");
    }

    TEST_CASE("the primitives added from linux-kernel.def") {
        const Program p = parse(with_body("r0 = atomic_add_unless(x, 2, 5); atomic_andnot(1, y); r0 = atomic_fetch_andnot_acquire(1, y);\n"
                                          "r0 = atomic_add_negative_relaxed(-1, x); smp_mb__after_unlock_lock(); smp_mb__after_srcu_read_unlock();"),
                                "t");
        const Access& unless = access_named(p, 0, "atomic_add_unless");
        CHECK(unless.prim == Prim::AddUnless);
        CHECK(unless.target == 0);  // atomic_add_unless(v, a, u): v first
        CHECK(unless.vals[0] >= 0);
        CHECK(unless.vals[1] >= 0);
        CHECK(returns_value(Prim::AddUnless));
        CHECK(access_named(p, 0, "atomic_andnot").prim == Prim::AtomicAndnot);
        CHECK_FALSE(returns_value(Prim::AtomicAndnot));
        CHECK(access_named(p, 0, "atomic_fetch_andnot_acquire").order == Order::Acquire);
        CHECK(access_named(p, 0, "atomic_add_negative_relaxed").order == Order::Relaxed);
        CHECK(access_named(p, 0, "smp_mb__after_unlock_lock").prim == Prim::MbAfterUnlockLock);
        CHECK(access_named(p, 0, "smp_mb__after_srcu_read_unlock").prim == Prim::MbAfterSrcuReadUnlock);
        CHECK(error_of(with_body("atomic_andnot(1, x, y);")).find("atomic_andnot() takes 2 arguments, found more") != std::string::npos);
    }

    TEST_CASE("SRCU: struct srcu_struct locations, one section per srcu_read_lock(), unlocks paired by their index") {
        const Program p = parse("C t\n{}\n"
                                "P0(int *x, struct srcu_struct *s, struct srcu_struct *t) {\n"
                                "  int r1; int r2; int r3;\n"
                                "  r1 = srcu_read_lock(s);\n"
                                "  r2 = srcu_down_read(s);\n"
                                "  r3 = srcu_read_lock(t);\n"
                                "  srcu_read_unlock(s, r1);\n"
                                "  r1 = r2;\n"
                                "  srcu_up_read(s, r1);\n"
                                "  srcu_read_unlock(t, r3);\n"
                                "}\n"
                                "P1(int *x, struct srcu_struct *s) { int r1; r1 = srcu_read_lock(s); srcu_read_unlock(s, r1); synchronize_srcu_expedited(s); }\n"
                                "exists (0:r1=0)",
                                "t");
        CHECK(p.uses_srcu);
        REQUIRE(p.locations.size() == 3);
        CHECK(p.locations[1].type == LocType::Srcu);
        CHECK(p.locations[1].sections == 3);  // two in P0, one in P1
        CHECK(p.locations[2].sections == 1);
        CHECK(access_named(p, 0, "srcu_read_lock", 0).section == 0);
        CHECK(access_named(p, 0, "srcu_down_read").section == 1);
        CHECK(access_named(p, 0, "srcu_read_lock", 1).section == 0);  // the first on t
        CHECK(access_named(p, 1, "srcu_read_lock").section == 2);
        const auto index_of = [&](const Access& a) { return static_cast<std::int32_t>(&a - p.accesses.data()); };
        CHECK(access_named(p, 0, "srcu_read_unlock", 0).srcu_lock == index_of(access_named(p, 0, "srcu_read_lock", 0)));
        CHECK(access_named(p, 0, "srcu_up_read").srcu_lock == index_of(access_named(p, 0, "srcu_down_read")));  // through r1 = r2
        CHECK(access_named(p, 0, "srcu_read_unlock", 1).srcu_lock == index_of(access_named(p, 0, "srcu_read_lock", 1)));
        CHECK(access_named(p, 1, "synchronize_srcu_expedited").prim == Prim::SynchronizeSrcu);
        CHECK_FALSE(p.locations[1].plain);
        // The initial state may declare one; it takes no value.
        CHECK(parse("C t\n{ struct srcu_struct s; }\nP0(struct srcu_struct *s) { synchronize_srcu(s); }\nexists (s=0)", "t")
                  .locations[0]
                  .type == LocType::Srcu);
        CHECK(error_of("C t\n{ struct srcu_struct s = 1; }\nP0(int *x) {}\nexists (x=0)") ==
              "t.litmus:2:24: error: unsupported: an initial value for a struct srcu_struct");
    }

    TEST_CASE("SRCU: what cannot be paired or typed is refused with its line") {
        const auto srcu = [](const std::string& body) {
            return "C t\n{}\nP0(int *x, int *idx, struct srcu_struct *s, struct srcu_struct *t)\n{\n\tint r0; int r1;\n" + body +
                   "\n}\nP1(int *x, int *idx, struct srcu_struct *s) {\n\tint r3;\n\tr3 = READ_ONCE(*idx);\n\tsrcu_up_read(s, r3);\n}\n"
                   "exists (0:r0=0)\n";
        };
        struct Case {
            std::string body;
            std::string message;
        };
        const Case cases[] = {
            // The index passed through memory to another process (C-srcu-nest-6): P1's srcu_up_read().
            {"r0 = srcu_down_read(s); WRITE_ONCE(*idx, r0);",
             "t.litmus:11:2: error: unsupported: the index given to srcu_up_read() does not come from a srcu_read_lock() or "
             "srcu_down_read() of P1 through registers; ordercheck pairs each srcu_up_read() with the srcu_read_lock() whose value "
             "it is given, within one process (not through memory)"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.body);
            CHECK(error_of(srcu(c.body)) == c.message);
        }
        const auto one = [](const std::string& body) {
            return "C t\n{}\nP0(int *x, struct srcu_struct *s, struct srcu_struct *t)\n{\n\tint r0; int r1;\n" + body + "\n}\nexists (0:r0=0)\n";
        };
        const Case single[] = {
            {"srcu_read_unlock(s, 0);",
             "t.litmus:6:1: error: unsupported: the index given to srcu_read_unlock() does not come from a srcu_read_lock() or "
             "srcu_down_read() of P0 through registers; ordercheck pairs each srcu_read_unlock() with the srcu_read_lock() whose "
             "value it is given, within one process (not through memory)"},
            {"r0 = srcu_read_lock(s); r1 = srcu_read_lock(s); srcu_read_unlock(s, r0 + r1);",
             "t.litmus:6:49: error: unsupported: the index given to srcu_read_unlock() may come from more than one read; ordercheck "
             "pairs each srcu_read_unlock() with the one srcu_read_lock() whose value it is given"},
            {"r0 = srcu_read_lock(s); srcu_read_unlock(t, r0);",
             "t.litmus:6:25: error: srcu_read_unlock() on 't' is given the index of srcu_read_lock() on 's' at 6:6"},
            {"r0 = READ_ONCE(*x); srcu_read_unlock(s, r0);",
             "t.litmus:6:21: error: unsupported: the index given to srcu_read_unlock() does not come from a srcu_read_lock() or "
             "srcu_down_read() of P0 through registers; ordercheck pairs each srcu_read_unlock() with the srcu_read_lock() whose "
             "value it is given, within one process (not through memory)"},
            {"r0 = srcu_read_lock(x);", "t.litmus:6:6: error: srcu_read_lock() needs a struct srcu_struct, but 'x' is not one (declare it struct srcu_struct *x)"},
            {"r0 = READ_ONCE(*s);",
             "t.litmus:6:6: error: 's' is a struct srcu_struct: only srcu_read_lock(), srcu_read_unlock(), srcu_down_read(), "
             "srcu_up_read() and synchronize_srcu() may use it"},
            {"int *r2 = s; synchronize_srcu(r2);",
             "t.litmus:6:14: error: unsupported: synchronize_srcu() on a srcu_struct reached through a register; pass the struct "
             "srcu_struct parameter itself"},
            {"r0 = srcu_read_lock(s) + 1;", ""},  // herd flags a bad index only when it reaches srcu_read_unlock()
        };
        for (const Case& c : single) {
            CAPTURE(c.body);
            CHECK(error_of(one(c.body)) == c.message);
        }
        std::string five = "C t\n{}\nP0(";
        for (int i = 0; i < 5; ++i) five += std::string(i ? ", " : "") + "struct srcu_struct *s" + std::to_string(i);
        CHECK(error_of(five + ") {}\nexists (s0=0)") == "t.litmus:3:120: error: unsupported: more than 4 struct srcu_struct locations");
    }

    TEST_CASE("up to 32 processes, and 512 registers in all, however they are spread") {
        std::string src = "C t\n{}\n";
        for (int i = 0; i < 32; ++i) {
            src += "P" + std::to_string(i) + "(int *x) {";
            for (int r = 0; r < 14; ++r) src += " int r" + std::to_string(r) + ";";
            src += " r14 = READ_ONCE(*x); }\n";  // 15 locals and the parameter x
        }
        const Program p = parse(src + "exists (31:r14=0)", "t");
        CHECK(p.processes.size() == max_processes);
        CHECK(p.processes[31].regs.size() == 16);
        // One process may hold most of them (inlined helpers add registers).
        const auto one_process = [](int regs) {
            std::string body;
            for (int r = 1; r < regs; ++r) body += " r" + std::to_string(r) + " = " + std::to_string(r) + ";";
            return "C t\n{}\nP0(int *x) {" + body + " }\nexists (0:r1=1)";
        };
        CHECK(parse(one_process(512), "t").processes[0].regs.size() == 512);
        CHECK(error_of(one_process(513)).find("t.litmus:3:") == 0);
        CHECK(error_of(one_process(513)).find("unsupported: more than 512 registers in the test (all processes together") !=
              std::string::npos);
    }

    TEST_CASE("more than 64 accesses in a process: an address dependency is found past the 64th") {
        std::string body;
        for (int i = 0; i < 70; ++i) body += " WRITE_ONCE(*x, " + std::to_string(i) + ");";
        const Program p = parse("C t\n{ int *p = x; }\nP0(int *x, int **p) { int *r1; int r2;" + body +
                                    " r1 = READ_ONCE(*p); r2 = READ_ONCE(*r1); }\nexists (0:r2=1)",
                                "t");
        REQUIRE(p.accesses.size() == 72);
        CHECK(p.accesses[70].site == 70);
        CHECK(p.accesses[70].dep_head);   // its value is the address of the next read
        CHECK_FALSE(p.accesses[71].dep_head);
        CHECK_FALSE(p.accesses[69].dep_head);
    }

    TEST_CASE("the corpus parses, and every test carries a Result:") {
        unsigned n = 0;
        for (const auto& e : std::filesystem::directory_iterator(litmus_test::corpus_dir)) {
            if (e.path().extension() != ".litmus") continue;
            CAPTURE(e.path().string());
            const Program p = parse_file(e.path().string());
            CHECK(p.result.has_value());
            ++n;
        }
        CHECK(n >= 40);
    }

    TEST_CASE("regressions: each input parses or is rejected with a positioned error") {
        unsigned n = 0;
        for (const auto& e : std::filesystem::directory_iterator(litmus_test::regressions_dir)) {
            if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
            CAPTURE(e.path().string());
            std::ifstream in(e.path(), std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            // The deep-* inputs guard the nesting bounds: they must be rejected as unsupported.
            const bool guard = e.path().filename().string().rfind("deep-", 0) == 0;
            try {
                parse(text.str(), "fuzz");
                CHECK_FALSE(guard);
            } catch (const LitmusError& err) {
                CHECK(std::string(err.what()).rfind("fuzz:", 0) == 0);
                CHECK(err.pos().line >= 1);
                if (guard) CHECK(err.message().rfind("unsupported: ", 0) == 0);
            }
            ++n;
        }
        CHECK(n >= 6);
    }
}
