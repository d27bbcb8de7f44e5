// SPDX-License-Identifier: MIT
// Structs and arrays in C litmus tests (docs/litmus.md, "Structs and arrays"): how they map to
// locations and addresses, the designators in code and in the condition, the bit operations past
// the first long, the run-time checks (an index out of bounds, `->` on NULL), and the positioned
// errors for their misuse.
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

const char* const node_init =
    "\tstruct node { int val; struct node *next; };\n"
    "\tstruct node n1;\n"
    "\tint a[2];\n";

/// A test with the struct node n1 and the array a[2] in its initial state (lines 3 to 5), and
/// `body` as the statements of P0(struct node *n1, int *a) (from line 10 on).
std::string with_types(const std::string& body, const std::string& cond = "exists (0:r0=1)") {
    return std::string("C T\n{\n") + node_init + "}\nP0(struct node *n1, int *a)\n{\n\tint r0;\n\tstruct node *p;\n" + body +
           "\n}\n" + cond + "\n";
}

int loc_named(const Program& p, const std::string& name) {
    for (std::size_t i = 0; i < p.locations.size(); ++i)
        if (p.locations[i].name == name) return static_cast<int>(i);
    FAIL("no location " << name);
    return -1;
}

}  // namespace

TEST_SUITE("litmus structs and arrays") {
    TEST_CASE("each element and field is a location; initialisers and addresses") {
        const Program p = parse(
            "C T\n{\n"
            "  struct node { int val; struct node *next; };\n"
            "  int a[3] = {1, 2};\n"
            "  struct node n1 = { .next = &n1, .val = 7 };\n"
            "  struct node ns[2] = { {1, &n1}, {2, NULL} };\n"
            "  struct node *top = &ns[1];\n"
            "  int *p = a;\n"
            "  atomic_t c[2] = {ATOMIC_INIT(3)};\n"
            "}\n"
            "P0(int *a) { int r0; r0 = READ_ONCE(a[1]); }\n"
            "exists (a[2]=0 /\\ ns[1].val=2 /\\ 0:r0=2 /\\ top=ns[1] /\\ p=&a[0])\n",
            "t.litmus");
        const char* names[] = {"a[0]", "a[1]", "a[2]", "n1.val", "n1.next", "ns[0].val", "ns[0].next", "ns[1].val", "ns[1].next",
                               "top", "p", "c[0]", "c[1]"};
        REQUIRE(p.locations.size() == std::size(names));
        for (std::size_t i = 0; i < std::size(names); ++i) CHECK(p.locations[i].name == names[i]);
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "a[1]"))].init == 2);
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "a[2]"))].init == 0);
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "n1.val"))].init == 7);
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "n1.next"))].init == address_of(3));
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "ns[0].next"))].init == address_of(3));
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "top"))].init == address_of(7));
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "p"))].init == address_of(0));
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "c[0]"))].type == LocType::Atomic);
        CHECK(p.locations[static_cast<std::size_t>(loc_named(p, "c[0]"))].init == 3);
        // the address of an aggregate prints as its name, as herd prints a[0]'s
        CHECK(format_value(p, address_of(0)) == "a");
        CHECK(format_value(p, address_of(1)) == "a[1]");
        CHECK(format_value(p, address_of(7)) == "ns[1]");
        CHECK(p.arrays.size() == 3);
        CHECK(p.arrays[1].stride == 2);
        CHECK(p.structs.size() == 1);
    }

    TEST_CASE("designators in code: constant and register indices, ->, ., &, pointer arithmetic, globals") {
        // a[r0], a + r0 (elements), &a[r0] to a primitive, plain reads and stores, p->f, n1.f by
        // name, READ_ONCE(top) and cmpxchg(&top, ...) on a location named as the kernel names it
        const LitmusResult r = run_source(
            "C T\n{\n  struct node { int val; struct node *next; };\n"
            "  struct node n1 = {5, NULL};\n  struct node n2;\n  struct node *top = &n1;\n  int a[3] = {10, 11, 12};\n  int b[2] = {40, 41};\n}\n"
            "P0(int *a, int *b)\n{\n"
            "  int r0; int r1; int r2; int r3; int r4; struct node *old; int r5;\n"
            "  r0 = 2;\n"
            "  r1 = READ_ONCE(a[r0]);\n"
            "  r2 = READ_ONCE(*(a + r0 - 1));\n"
            "  smp_store_release(&a[r0 - 2], 20);\n"
            "  r3 = b[r0 - 1];\n"
            "  b[r0 - 2] = 30;\n"
            "  old = READ_ONCE(top);\n"
            "  WRITE_ONCE(n2.val, old->val + 1);\n"
            "  WRITE_ONCE(n2.next, old);\n"
            "  r4 = cmpxchg(&top, old, &n2);\n"
            "  r5 = READ_ONCE(top)->next->val;\n"
            "}\n"
            "exists (0:r1=12 /\\ 0:r2=11 /\\ 0:r3=41 /\\ a[0]=20 /\\ b[0]=30 /\\ 0:r4=n1 /\\ top=n2 /\\ n2.val=6 /\\ 0:r5=5)\n");
        CHECK(r.error.empty());
        CHECK(r.observation == Verdict::Always);
    }

    TEST_CASE("a constant index or a field off a global or a parameter is a fixed location") {
        // a plain element next to marked ones, and an await on a field
        const Program p = parse(
            "C T\n{ struct msg { int data; int flag; }; struct msg m; int a[2]; }\n"
            "P0(struct msg *m, int *a) { int r0; a[0] = 1; smp_store_release(&a[1], 1); WRITE_ONCE(m->data, 1); smp_store_release(&m->flag, 1); }\n"
            "P1(struct msg *m) { int r0; int r1; do { r0 = smp_load_acquire(&m->flag); } while (!r0); r1 = READ_ONCE(m->data); }\n"
            "exists (1:r1=0)\n",
            "t.litmus");
        CHECK(p.locations[0].name == "m.data");
        for (const Access& a : p.accesses) CHECK(a.target >= 0);
        CHECK(p.locations[2].plain);   // a[0]
        CHECK(!p.locations[3].plain);  // a[1]
        bool await = false;
        for (const Stmt& s : p.stmts) await = await || (s.kind == StmtKind::Loop && s.await);
        CHECK(await);
        // a register index reaches every element: a[r0] plain next to an RMW of a[1] is refused
        CHECK(error_of("C T\n{ int a[2]; }\nP0(int *a) { int r0; int r1; a[r0] = 1; r1 = xchg(&a[1], 1); }\nexists (a[0]=1)\n")
                  .find("location 'a[1]' is accessed plainly (at 3:30) and with xchg()") != std::string::npos);
    }

    TEST_CASE("arrays of structs and of atomic_t, with register indices") {
        const LitmusResult r = run_source(
            "C T\n{ struct node { int val; struct node *next; }; struct node pool[3]; atomic_t c[2]; }\n"
            "P0(struct node *pool, atomic_t *c) { int r0; int r1;\n"
            "  r0 = 2; WRITE_ONCE(pool[r0].val, 5); atomic_inc(&c[1]); r1 = atomic_read(&c[r0 - 1]);\n"
            "  WRITE_ONCE((pool + 1)->next, &pool[r0]); }\n"
            "exists (pool[2].val=5 /\\ c[1]=1 /\\ 0:r1=1 /\\ pool[1].next=pool[2] /\\ pool[0].next=NULL)\n");
        CHECK(r.error.empty());
        CHECK(r.observation == Verdict::Always);
    }

    TEST_CASE("the race check sees each element: plain accesses race on one, not on two") {
        const LitmusResult same = run_source("C T\n(* Result: Sometimes DATARACE *)\n{ int a[2]; }\n"
                                             "P0(int *a) { a[1] = 1; }\nP1(int *a) { int r0; r0 = a[1]; }\nexists (1:r0=1)\n");
        CHECK(same.judgement == Judgement::Match);
        const LitmusResult other = run_source("C T\n(* Result: Always *)\n{ int a[2]; }\n"
                                              "P0(int *a) { a[0] = 1; }\nP1(int *a) { int r0; r0 = a[1]; }\nexists (1:r0=0 /\\ a[0]=1)\n");
        CHECK(other.judgement == Judgement::Match);
    }

    TEST_CASE("an address dependency runs through a register index as through a pointer") {
        const std::string with_dep =
            "C T\n{ int a[2]; int idx; }\n"
            "P0(int *a, int *idx) { WRITE_ONCE(a[1], 1); smp_wmb(); WRITE_ONCE(*idx, 1); }\n"
            "P1(int *a, int *idx) { int r0; int r1; r0 = READ_ONCE(*idx); r1 = READ_ONCE(a[r0]); }\n"
            "exists (1:r0=1 /\\ 1:r1=0)\n";
        CHECK(run_source(with_dep).observation == Verdict::Never);
        // the same read at a constant index carries no dependency: MP+wmb+po
        std::string no_dep = with_dep;
        no_dep.replace(no_dep.find("a[r0]"), 5, "a[1]");
        CHECK(run_source(no_dep).observation == Verdict::Sometimes);
    }

    TEST_CASE("bit operations reach the next long of an array; test_bit is a read of the word") {
        const LitmusResult r = run_source(
            "C T\n{ long bits[2] = {1, 0}; }\n"
            "P0(long *bits) { int r0; int r1; int r2; int r3; int r4; int nr;\n"
            "  set_bit(70, bits); r0 = test_and_set_bit(64, bits); r1 = test_and_clear_bit(70, bits);\n"
            "  nr = 65; set_bit(nr, bits); clear_bit(0, bits); r2 = test_bit(nr, bits); r3 = test_bit(70, bits);\n"
            "  r4 = test_bit(0, &bits[1]); }\n"
            "exists (bits[0]=0 /\\ bits[1]=3 /\\ 0:r0=0 /\\ 0:r1=1 /\\ 0:r2=1 /\\ 0:r3=0 /\\ 0:r4=1)\n");
        CHECK(r.error.empty());
        CHECK(r.observation == Verdict::Always);
        // a register bit number past the array fails the execution
        const LitmusResult past = run_source("C T\n{ long bits[2]; }\nP0(long *bits) { int nr; nr = 128; set_bit(nr, bits); }\nexists (bits[0]=0)\n");
        CHECK(past.error.find("array index out of bounds") != std::string::npos);
    }

    TEST_CASE("an index out of bounds or '->' on NULL fails the execution: no wrap onto another location") {
        const LitmusResult oob = run_source("C T\n{ int a[2]; int b; }\nP0(int *a, int *b) { int r0; r0 = 2; WRITE_ONCE(a[r0], 1); }\nexists (b=1)\n");
        CHECK(oob.judgement == Judgement::Error);
        CHECK(oob.error.find("array index out of bounds") != std::string::npos);
        const LitmusResult neg = run_source("C T\n{ int b; int a[2]; }\nP0(int *a, int *b) { int r0; r0 = 0 - 1; WRITE_ONCE(*(a + r0), 1); }\nexists (b=1)\n");
        CHECK(neg.error.find("array index out of bounds") != std::string::npos);
        const LitmusResult null = run_source(
            "C T\n{ struct node { int val; struct node *next; }; struct node n1; }\n"
            "P0(struct node *n1) { struct node *p; int r0; p = READ_ONCE(n1->next); r0 = READ_ONCE(p->val); }\nexists (0:r0=0)\n");
        CHECK(null.error.find("'->' on a NULL pointer") != std::string::npos);
        // a struct pointer that points to something else than a struct of its type
        const LitmusResult other = run_source(
            "C T\n{ struct node { int val; struct node *next; }; struct node n1; int x; }\n"
            "P0(int *x) { struct node *p; int r0; p = x; r0 = READ_ONCE(p->val); }\nexists (0:r0=0)\n");
        CHECK(other.error.find("not the address of a struct of its type") != std::string::npos);
    }

    TEST_CASE("misuse: positioned errors") {
        struct Case {
            std::string body;
            std::string message;  // with its line:column
        };
        const Case cases[] = {
            {"r0 = READ_ONCE(n1->nope);", "11:21: error: struct node has no field 'nope'"},
            {"r0 = r0[1];", "11:9: error: index of 'r0', which is not an array nor a pointer (int)"},
            {"r0 = READ_ONCE(a[2]);", "11:19: error: index 2 is out of bounds of array 'a' (2 elements)"},
            {"r0 = READ_ONCE(a[-1]);", "11:19: error: index -1 is out of bounds of array 'a' (2 elements)"},
            {"r0 = r0->val;", "11:9: error: '->' on a value that is not a pointer to a struct (int)"},
            {"r0 = READ_ONCE(n1.val);", "11:19: error: '.' on something that is not a struct; use '->' on a pointer"},
            {"p = n1; r0 = p;", ""},
            {"r0 = READ_ONCE(p);", "11:17: error: expected '*' and a location as the first argument of READ_ONCE(), as in READ_ONCE(*x), found 'p'"},
            {"struct node n;", "11:2: error: unsupported: a local struct (shared structs are declared in the initial state; a register may be a pointer, struct T *p)"},
            {"struct nope *q;", "11:2: error: unsupported: struct declarations"},
            {"r0 = (struct nope *)p;", "11:8: error: unknown struct 'nope' (define it in the initial state: struct nope { int f; ... };)"},
            {"set_bit(64, &n1->val);", "11:10: error: bit 64 is beyond the long the bitmap points to, which is no array element (declare the bitmap as an array: long bits[N])"},
            {"r0 = READ_ONCE(*n1);", "11:7: error: an access to a whole struct node: name one of its fields (p->f)"},
            {"r0 = smp_load_acquire(n1);", "11:7: error: an access to a whole struct node: name one of its fields (p->f)"},
            {"*n1 = 1;", "11:2: error: an access to a whole struct node: name one of its fields (p->f)"},
            {"r0 = READ_ONCE((r0));", "11:17: error: expected '*' and a location as the first argument of READ_ONCE(), as in READ_ONCE(*x), found an expression that is no location"},
            {"r0 = READ_ONCE(a);", "11:17: error: expected '*' and a location as the first argument of READ_ONCE(), as in READ_ONCE(*x), found 'a'"},
        };
        for (const Case& c : cases) {
            CAPTURE(c.body);
            const std::string e = error_of(with_types("\t" + c.body));
            if (c.message.empty()) {
                CHECK(e.empty());
                continue;
            }
            CHECK(e == "t.litmus:" + c.message);
        }
        // a register typed in the check of a helper function's definition types nothing of the
        // process parsed next (the same register index)
        CHECK(error_of("C T\n{ struct node { int val; }; struct node n1; }\n"
                       "static void f(int *x) { struct node *q; q = 0; }\n"
                       "P0(struct node *n1) { r0 = 1; r1 = r0->val; }\nexists (n1.val=0)\n") ==
              "t.litmus:4:38: error: '->' on a value that is not a pointer to a struct (int)");
        // the initial state and the condition
        const std::pair<std::string, std::string> whole[] = {
            {"C T\n{\n struct foo n;\n}\nP0(int *x) {}\nexists (x=0)\n",
             "t.litmus:3:9: error: unknown struct 'foo' (define it in the initial state before its use: struct foo { int f; ... };)"},
            {"C T\n{\n int a[49];\n}\nP0(int *a) {}\nexists (a[0]=0)\n", "t.litmus:3:8: error: the size of array 'a' must be 1 to 48"},
            {"C T\n{\n int a[30];\n int b[30];\n}\nP0(int *a) {}\nexists (a[0]=0)\n",
             "t.litmus:4:6: error: unsupported: 'b' needs 30 locations (one per element and field), and a test has at most 48 (30 used before it)"},
            {"C T\n{\n int a[2] = {1, 2, 3};\n}\nP0(int *a) {}\nexists (a[0]=0)\n",
             "t.litmus:3:20: error: too many initialisers for array 'a' (2 elements)"},
            {"C T\n{\n struct s { int f; };\n struct s v = { .g = 1 };\n}\nP0(int *x) {}\nexists (x=0)\n",
             "t.litmus:4:18: error: struct s has no field 'g'"},
            {"C T\n{\n struct s { int f; int f; };\n}\nP0(int *x) {}\nexists (x=0)\n",
             "t.litmus:3:24: error: field 'f' is declared twice in struct s"},
            {"C T\n{\n int a[2];\n}\nP0(int *a) {}\nexists (a[2]=0)\n", "t.litmus:6:11: error: index 2 is out of bounds of array 'a' (2 elements)"},
            {"C T\n{\n int a[2];\n}\nP0(int *a) {}\nexists (a=0)\n", "t.litmus:6:9: error: 'a' is an array: name an element (a[0])"},
            {std::string("C T\n{\n") + node_init + "}\nP0(int *n1) {}\nexists (n1.val=0)\n",
             "t.litmus:7:4: error: parameter 'n1' points to struct 'n1': declare it struct node *n1"},
            {std::string("C T\n{\n") + node_init + "}\nP0(struct node *n1) {}\nexists (n1.nope=0)\n",
             "t.litmus:8:12: error: struct node has no field 'nope'"},
            {std::string("C T\n{\n") + node_init + "}\nP0(struct node *n1) {}\nexists (n1=0)\n",
             "t.litmus:8:9: error: 'n1' is a struct: name a field (n1.val)"},
            {"C T\n{\n int x;\n}\nP0(int *x) {}\nexists (x[0]=0)\n", "t.litmus:6:10: error: 'x' is not an array nor a struct"},
        };
        for (const auto& [source, message] : whole) {
            CAPTURE(source);
            CHECK(error_of(source) == message);
        }
    }
}
