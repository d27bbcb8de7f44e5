// SPDX-License-Identifier: MIT
// herd's macro table (linux-kernel.def, litmus/def_table.hpp): how a table's text is read and
// normalised, which ordercheck primitive each name resolves to, the positioned errors of a bad
// table, and the litmus parser under a table (aliases run as their primitive, a primitive the
// table lacks is refused, ordercheck's own idioms stay). The tables are written here; the
// kernel's own linux-kernel.def is only read, when it is installed.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "litmus/def_table.hpp"
#include "litmus/parser.hpp"
#include "litmus/run.hpp"

using namespace oc;
using namespace oc::litmus;

namespace {

std::shared_ptr<const MacroTable> table(const std::string& text) { return MacroTable::parse(text, "t.def"); }

/// The normalised meaning of `name` in the table of `text` ("" when it is not there).
std::string meaning(const std::string& text, const std::string& name) {
    const auto t = table(text);
    const Macro* m = t->find(name);
    return m == nullptr ? "" : m->meaning;
}

/// The error reading the table of `text` gives, or "" when it reads.
std::string table_error(const std::string& text) {
    try {
        table(text);
    } catch (const LitmusError& e) {
        return e.what();
    }
    return "";
}

/// What `name` resolves to in the table of `text`: the primitive, with "+srcu" for an SRCU access,
/// or "!" and the reason it does not resolve.
std::string resolved(const std::string& text, const std::string& name) {
    std::string why;
    const auto use = table(text)->resolve(name, why);
    if (!use) return "!" + why;
    return use->primitive + (use->srcu_access ? "+srcu" : "");
}

/// A table that defines what the litmus tests below call, an alias of READ_ONCE and one of
/// cmpxchg_acquire (its tag in upper case) among them; no smp_mb.
const char* const small_def = "READ_ONCE(X) __load{once}(X)\n"
                              "WRITE_ONCE(X,V) { __store{once}(X,V); }\n"
                              "smp_wmb() { __fence{wmb}; }\n"
                              "peek(X) __load{once}(X)\n"
                              "grab_acquire(X,V,W) __cmpxchg{ACQUIRE}(X,V,W)\n";

/// MP with smp_wmb() and a cmpxchg-acquire that reads the flag, its read side written with
/// `cas` and `read`.
std::string mp(const std::string& cas, const std::string& read) {
    return "C MP+wmb+cas\n(* Result: Never *)\n{}\n"
           "P0(int *x, int *y) {\n  WRITE_ONCE(*x, 1);\n  smp_wmb();\n  WRITE_ONCE(*y, 1);\n}\n"
           "P1(int *x, int *y) {\n  int r0;\n  int r1;\n"
           "  r0 = " + cas + "(y, 1, 2);\n"  // line 12
           "  r1 = " + read + "(*x);\n"      // line 13
           "}\nexists (1:r0=1 /\\ 1:r1=0)\n";
}

std::string parse_error(const std::string& source, const MacroTable* macros) {
    try {
        parse(source, "t.litmus", macros);
    } catch (const LitmusError& e) {
        return e.what();
    }
    return "";
}

const Access* access_named(const Program& p, const std::string& name) {
    for (const Access& a : p.accesses)
        if (a.name == name) return &a;
    return nullptr;
}

/// Every macro of the kernel table at `def` resolves to the ordercheck primitive of its own name.
void check_kernel_table(const std::string& def) {
    const auto t = MacroTable::load(def);
    CHECK(t->macros().size() > 50);
    for (const Macro& m : t->macros()) {
        CAPTURE(m.name);
        CAPTURE(m.meaning);
        std::string why;
        const auto use = t->resolve(m.name, why);
        CHECK(why.empty());
        REQUIRE(use);
        CHECK(use->primitive == m.name);
    }
}

}  // namespace

TEST_SUITE("litmus macro table") {
    TEST_CASE("normalisation: parameters as $N, tags in lower case, macros expanded, blocks and spaces dropped") {
        // an expression body, to the end of its line
        CHECK(meaning("READ_ONCE(X) __load{once}(X)\n", "READ_ONCE") == "__load{once}($0)");
        CHECK(meaning("atomic_dec_and_test(X)  __atomic_op_return{mb}(X, -, 1) == 0\n", "atomic_dec_and_test") ==
              "__atomic_op_return{mb}($0,-,1)==0");
        // a block of two statements
        CHECK(meaning("smp_store_mb(X,V) { __store{once}(X,V); __fence{mb}; }\n", "smp_store_mb") ==
              "__store{once}($0,$1);__fence{mb}");
        // parameters by position, whatever their names
        CHECK(meaning("put(ptr, val) { __store{release}(*ptr, val); }\n", "put") == "__store{release}(*$0,$1)");
        CHECK(meaning("add(V,X) { __atomic_op(X,+,V); }\n", "add") == "__atomic_op($1,+,$0)");
        // a call of another macro, with a `*X` argument, expanded (defined before or after)
        const std::string nested = "READ_ONCE(X) __load{once}(X)\nmy_read(X) READ_ONCE(*X)\n"
                                   "my_set(X,V) { my_write(*X,V); }\nmy_write(X,V) { __store{once}(X,V); }\n";
        CHECK(meaning(nested, "my_read") == "__load{once}(*$0)");
        CHECK(meaning(nested, "my_set") == "__store{once}(*$0,$1)");
        // upper-case tags lower-cased, '-' kept
        CHECK(meaning("WRITE_ONCE(X,V) { __store{ONCE}(X,V); }\n", "WRITE_ONCE") == "__store{once}($0,$1)");
        CHECK(meaning("f() { __fence{Before-Atomic}; }\n", "f") == "__fence{before-atomic}");
        // comments anywhere: whole lines, after a body, inside a block, across lines
        const std::string commented = "// ONCE\nREAD_ONCE(X) __load{once}(X) // a trailing comment\n"
                                      "/* a comment\n   over two lines */ smp_mb() { /* inside */ __fence{mb}; }\n"
                                      "smp_rmb() /* before the body */ { __fence{rmb}; } // after it\n";
        const auto t = table(commented);
        REQUIRE(t->macros().size() == 3);
        CHECK(t->find("READ_ONCE")->meaning == "__load{once}($0)");
        CHECK(t->find("smp_mb")->meaning == "__fence{mb}");
        CHECK(t->find("smp_rmb")->meaning == "__fence{rmb}");
        CHECK(t->find("smp_mb")->pos.line == 4);
        CHECK(t->find("smp_mb")->pos.column == 22);
        // a block spanning lines
        const auto spanning = table("\n  smp_store_mb(X,V) {\n\t__store{once}(X,V);\n\n\t__fence{mb};\n}\nsmp_wmb() { __fence{wmb}; }\n");
        const Macro* mb = spanning->find("smp_store_mb");
        REQUIRE(mb != nullptr);
        CHECK(mb->meaning == "__store{once}($0,$1);__fence{mb}");
        CHECK(mb->params == std::vector<std::string>{"X", "V"});
        CHECK(mb->pos.line == 2);
        CHECK(mb->pos.column == 3);
        CHECK(spanning->find("smp_wmb")->meaning == "__fence{wmb}");
        CHECK(spanning->find("smp_mb") == nullptr);
        CHECK(spanning->file() == "t.def");
    }

    TEST_CASE("resolve: its own name first, else an alias; nullopt and why for the rest") {
        // its own meaning
        CHECK(resolved("READ_ONCE(X) __load{once}(X)\n", "READ_ONCE") == "READ_ONCE");
        // rcu_dereference means what READ_ONCE means: its own name wins
        CHECK(resolved("READ_ONCE(X) __load{once}(X)\nrcu_dereference(X) __load{once}(X)\n", "rcu_dereference") ==
              "rcu_dereference");
        CHECK(resolved("atomic_xchg_acquire(X,V) __xchg{ACQUIRE}(X,V)\n", "atomic_xchg_acquire") == "atomic_xchg_acquire");
        // a new name with READ_ONCE's meaning is READ_ONCE; through a nested call, atomic_read
        CHECK(resolved("peek(X) __load{once}(X)\n", "peek") == "READ_ONCE");
        CHECK(resolved("READ_ONCE(X) __load{once}(X)\nmy_read(X) READ_ONCE(*X)\n", "my_read") == "atomic_read");
        CHECK(resolved("swap_rel(X,V) __xchg{release}(X,V)\n", "swap_rel") == "xchg_release");
        // a known name defined as another primitive runs as that one
        CHECK(resolved("READ_ONCE(X) __load{acquire}(*X)\n", "READ_ONCE") == "smp_load_acquire");
        // a meaning ordercheck does not implement: where the table says it
        const std::string foo = resolved("smp_mb() { __fence{mb}; }\nREAD_ONCE(X) __load{foo}(X)\n", "READ_ONCE");
        CHECK(foo.rfind("!", 0) == 0);
        CHECK(foo.find("the primitive 'READ_ONCE' is defined by t.def:2 as __load{foo}($0), which ordercheck's engine does "
                       "not implement") != std::string::npos);
        CHECK(resolved("peek(X) __load{once}(X, X)\n", "peek").rfind("!the primitive 'peek' is defined by t.def:1", 0) == 0);
        // a name the table lacks
        CHECK(resolved("READ_ONCE(X) __load{once}(X)\n", "smp_mb") ==
              "!the primitive 'smp_mb' is not defined by the macro table t.def (herd7 rejects it too with these files)");
        // ... but atomic_add_unless, which herd 7.57 knows itself
        CHECK(resolved("READ_ONCE(X) __load{once}(X)\n", "atomic_add_unless") == "atomic_add_unless");
        CHECK(resolved("atomic_add_unless(X,V,W) __atomic_add_unless{MB}(X,V,W)\n", "atomic_add_unless") == "atomic_add_unless");
        // SRCU: the newest model's accesses, or Linux 6.1's srcu events
        CHECK(resolved("srcu_read_lock(X) __load{srcu-lock}(*X)\n", "srcu_read_lock") == "srcu_read_lock+srcu");
        CHECK(resolved("srcu_read_lock(X) __load{SRCU-LOCK}(*X)\n", "srcu_read_lock") == "srcu_read_lock+srcu");
        CHECK(resolved("srcu_up_read(X,Y) { __store{srcu-unlock}(*X,Y); }\n", "srcu_up_read") == "srcu_up_read+srcu");
        CHECK(resolved("srcu_read_lock(X) __srcu{srcu-lock}(X)\n", "srcu_read_lock") == "srcu_read_lock");
        CHECK(resolved("srcu_read_unlock(X,Y) { __srcu{srcu-unlock}(X,Y); }\n", "srcu_read_unlock") == "srcu_read_unlock");
        CHECK(resolved("enter(X) __load{srcu-lock}(*X)\n", "enter") == "srcu_read_lock+srcu");
    }

    TEST_CASE("a bad table: a positioned error") {
        // a line that is no macro
        CHECK(table_error("READ_ONCE(X) __load{once}(X)\n42 foo\n") == "t.def:2:1: error: expected a macro name, found '42'");
        CHECK(table_error("READ_ONCE X __load{once}(X)\n") ==
              "t.def:1:11: error: expected '(' after the macro name READ_ONCE");
        CHECK(table_error("READ_ONCE(X) __load{once}(X) # x\n") == "t.def:1:30: error: expected a macro definition, found '#'");
        CHECK(table_error("smp_mb()\n") == "t.def:1:1: error: expected the body of smp_mb, found the end of the line");
        // an unclosed block, tag or comment
        CHECK(table_error("READ_ONCE(X) __load{once}(X)\n  smp_mb() { __fence{mb};\nsmp_rmb() __fence{rmb}\n") ==
              "t.def:2:3: error: expected '}' closing the body of smp_mb");
        CHECK(table_error("READ_ONCE(X) __load{once(X)\n") == "t.def:1:14: error: expected '}' closing the tag of __load");
        CHECK(table_error("READ_ONCE(X) __load{once}(X)\n/* open\n") ==
              "t.def:2:1: error: expected the end of this comment, found the end of the file");
        // a macro defined twice
        CHECK(table_error("smp_mb() { __fence{mb}; }\n\nsmp_mb() __fence{mb}\n") ==
              "t.def:3:1: error: expected each macro once, found smp_mb again");
        // a call with the wrong number of arguments
        const std::string args = table_error("READ_ONCE(X) __load{once}(X)\nmy_read(X,Y) READ_ONCE(X,Y)\n");
        CHECK(args.rfind("t.def:2:1: error: my_read: expected 1 argument to READ_ONCE, found 2", 0) == 0);
        CHECK(table_error("WRITE_ONCE(X,V) { __store{once}(X,V); }\nput(X) { WRITE_ONCE(X); }\n")
                  .rfind("t.def:2:1: error: put: expected 2 arguments to WRITE_ONCE, found 1", 0) == 0);
        // a macro that calls itself, directly or through another
        CHECK(table_error("READ_ONCE(X) __load{once}(X)\n  loop(X) loop(X)\n") ==
              "t.def:2:3: error: expected macros that end, found loop expanding forever");
        CHECK(table_error("ping(X) pong(X)\npong(X) ping(X)\n").rfind("t.def:1:1: error: expected macros that end", 0) == 0);
        // a file that is not there
        const std::string missing = "/nonexistent/linux-kernel.def";
        try {
            MacroTable::load(missing);
            FAIL("a missing table loaded");
        } catch (const LitmusError& e) {
            CHECK(std::string(e.what()) == missing + ":1:1: error: expected a readable macro table (.def), found none");
        }
    }

    TEST_CASE("the parser with a table: aliases run as their primitive, what it lacks is refused") {
        const auto t = table(small_def);
        // the aliases, defined only by the table: the primitive of the same meaning, named as written
        const Program p = parse(mp("grab_acquire", "peek"), "t.litmus", t.get());
        const Access* cas = access_named(p, "grab_acquire");
        const Access* read = access_named(p, "peek");
        REQUIRE(cas != nullptr);
        REQUIRE(read != nullptr);
        CHECK(cas->prim == Prim::Cmpxchg);
        CHECK(cas->order == Order::Acquire);
        CHECK(cas->pos.line == 12);
        CHECK(read->prim == Prim::ReadOnce);
        CHECK(!read->srcu_access);
        // ... which without the table are no primitives
        CHECK(parse_error(mp("grab_acquire", "peek"), nullptr).find("call to undefined function 'grab_acquire'") !=
              std::string::npos);
        // the aliased test runs as the test written with the primitives
        LitmusOptions o;
        o.model = ModelKind::Lkmm;
        const LitmusResult aliased = run(compile(parse(mp("grab_acquire", "peek"), "t.litmus", t.get())), o);
        const LitmusResult original = run(compile(parse(mp("cmpxchg_acquire", "READ_ONCE"), "t.litmus")), o);
        CHECK(aliased.error.empty());
        CHECK(aliased.observation == Verdict::Never);
        CHECK(aliased.observation == original.observation);
        CHECK(aliased.positive == original.positive);
        CHECK(aliased.negative == original.negative);
        // a primitive the table lacks: refused at the call, as herd refuses it
        CHECK(parse_error(mp("cmpxchg_acquire", "READ_ONCE"), t.get()) ==
              "t.litmus:12:8: error: unsupported: the primitive 'cmpxchg_acquire' is not defined by the macro table t.def "
              "(herd7 rejects it too with these files)");
        const std::string mb = "C t\n{}\nP0(int *x) {\n  WRITE_ONCE(*x, 1);\n  smp_mb();\n}\nexists (x=1)\n";
        CHECK(parse_error(mb, t.get()).rfind("t.litmus:5:3: error: unsupported: the primitive 'smp_mb' is not defined by the "
                                             "macro table t.def",
                                             0) == 0);
        CHECK(parse_error(mb, nullptr).empty());
        // a primitive the table defines as something ordercheck does not implement
        const auto odd = table(std::string(small_def) + "smp_mb() { __fence{odd}; }\n");
        CHECK(parse_error(mb, odd.get()).find("t.litmus:5:3: error: unsupported: the primitive 'smp_mb' is defined by t.def:6 "
                                              "as __fence{odd}") != std::string::npos);
        // a helper function may not take a macro's name
        const std::string helper = "C t\n{}\nvoid peek(int *x) { WRITE_ONCE(*x, 1); }\nP0(int *x) { peek(x); }\nexists (x=1)\n";
        CHECK(parse_error(helper, t.get()).find("function 'peek' is named like a kernel primitive") != std::string::npos);
        CHECK(parse_error(helper, nullptr).empty());
        // ordercheck's own idioms, which no linux-kernel.def defines, still parse
        const std::string idioms = "C t\n{}\nP0(int *x, struct mutex *m) {\n  mutex_lock(m);\n  WRITE_ONCE(*x, 1);\n"
                                   "  cpu_relax();\n  mutex_unlock(m);\n}\nexists (x=1)\n";
        const Program q = parse(idioms, "t.litmus", t.get());
        REQUIRE(access_named(q, "mutex_lock") != nullptr);
        CHECK(access_named(q, "mutex_lock")->prim == Prim::MutexLock);
        REQUIRE(access_named(q, "cpu_relax") != nullptr);
        CHECK(access_named(q, "cpu_relax")->prim == Prim::Barrier);
        // SRCU under a table of the newest model's kind: an access
        const auto srcu = table("srcu_read_lock(X) __load{srcu-lock}(*X)\nsrcu_read_unlock(X,Y) { __store{srcu-unlock}(*X,Y); }\n");
        const std::string section = "C t\n{}\nP0(struct srcu_struct *s) {\n  int r0;\n  r0 = srcu_read_lock(s);\n"
                                    "  srcu_read_unlock(s, r0);\n}\nexists (0:r0=0)\n";
        const Program sp = parse(section, "t.litmus", srcu.get());
        REQUIRE(access_named(sp, "srcu_read_lock") != nullptr);
        CHECK(access_named(sp, "srcu_read_lock")->srcu_access);
        CHECK(access_named(sp, "srcu_read_unlock")->srcu_access);
        const Program old = parse(section, "t.litmus");
        CHECK(!access_named(old, "srcu_read_lock")->srcu_access);
    }

    TEST_CASE("the kernel's tables: every macro is the ordercheck primitive of its name") {
        const std::string v61 = "/opt/kernel/linux-source-6.1/tools/memory-model/linux-kernel.def";
        if (std::filesystem::exists(v61)) {
            check_kernel_table(v61);
        } else {
            MESSAGE("skipped: no " << v61);
        }
        const char* newest = std::getenv("ORDERCHECK_LKMM_NEWEST_DIR");
        const std::string def = newest != nullptr && *newest != '\0' ? std::string(newest) + "/linux-kernel.def" : "";
        if (!def.empty() && std::filesystem::exists(def)) {
            check_kernel_table(def);
            std::string why;
            const auto lock = MacroTable::load(def)->resolve("srcu_read_lock", why);
            REQUIRE(lock);
            CHECK(lock->srcu_access);
        } else {
            MESSAGE("skipped: the newest model's table (set ORDERCHECK_LKMM_NEWEST_DIR to its tools/memory-model)");
        }
    }
}
