// SPDX-License-Identifier: MIT
// herd's cat language (checker/memory_model/cat/): positioned parse errors, small models written
// here evaluated on hand-built graphs, and the kernel's own linux-kernel.cat run through the
// graph engine beside the built-in LKMM (lkmm.cpp) on every litmus test of the corpus.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "checker/graph/graph_engine.hpp"
#include "checker/memory_model/cat/cat_eval.hpp"
#include "checker/memory_model/cat/cat_model.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"
#include "litmus/interpreter.hpp"
#include "litmus/parser.hpp"
#include "tests/test_support.hpp"

using namespace oc;
namespace fs = std::filesystem;

namespace {

/// The message parsing `source` throws ("" if it parses).
std::string parse_error(const std::string& source) {
    try {
        cat::parse(source, "m.cat");
    } catch (const cat::CatError& e) {
        return e.what();
    }
    return "";
}

/// Appends an event of thread `t` to `g`: relaxed, or seq_cst for a fence.
EventId add_event(ExecutionGraph& g, std::uint16_t t, EventKind kind, std::optional<LocationId> loc,
                  std::uint32_t tags, std::optional<EventId> from = std::nullopt, const char* primitive = "") {
    Event e;
    e.id.thread = t;
    e.kind = kind;
    e.location = loc;
    e.lkmm = tags;
    e.primitive = primitive;
    e.reads_from = from;
    e.order = kind == EventKind::Fence ? MemoryOrder::SeqCst : MemoryOrder::Relaxed;
    return g.append(e);
}

/// Store buffering: two threads, each writes one location and reads the other; both reads see
/// the initial value (the SB outcome), with an smp_mb() between when `fences` is set.
ExecutionGraph sb(bool fences) {
    ExecutionGraph g;
    g.set_thread_names({"P0", "P1"});
    auto add = [&](std::uint16_t t, EventKind kind, std::optional<LocationId> loc, std::uint32_t tags,
                   std::optional<EventId> from = std::nullopt) { return add_event(g, t, kind, loc, tags, from); };
    const LocationId x = g.add_location("x"), y = g.add_location("y");
    const EventId ix = add(EventId::init_thread, EventKind::Write, x, 0);
    const EventId iy = add(EventId::init_thread, EventKind::Write, y, 0);
    add(1, EventKind::Write, x, lkmm::Once);
    if (fences) add(1, EventKind::Fence, std::nullopt, lkmm::Mb);
    add(1, EventKind::Read, y, lkmm::Once, iy);
    add(2, EventKind::Write, y, lkmm::Once);
    if (fences) add(2, EventKind::Fence, std::nullopt, lkmm::Mb);
    add(2, EventKind::Read, x, lkmm::Once, ix);
    return g;
}

/// linux-kernel.{bell,cat} and lock.cat of linux-source 6.1: the extracted tree, else extracted
/// from Debian's tarball into a temporary directory; "" when neither is there.
std::string kernel_model_dir() {
    const std::string installed = "/opt/kernel/linux-source-6.1/tools/memory-model";
    if (fs::exists(installed + "/linux-kernel.cat")) return installed;
    const std::string tarball = "/usr/src/linux-source-6.1.tar.xz";
    if (!fs::exists(tarball)) return "";
    const fs::path tmp = fs::temp_directory_path() / "ordercheck-cat-test";
    const std::string dir = "linux-source-6.1/tools/memory-model";
    const std::string files =
        dir + "/linux-kernel.bell " + dir + "/linux-kernel.cat " + dir + "/lock.cat " + dir + "/linux-kernel.def";
    fs::create_directories(tmp);
    if (std::system(("tar -xJf " + tarball + " -C " + tmp.string() + " " + files).c_str()) != 0) return "";
    return (tmp / dir).string();
}

/// linux-kernel.bell and lock.cat of `dir` copied into `to` (made), for a changed
/// linux-kernel.cat beside them; returns the original linux-kernel.cat's text.
std::string copy_of_model(const std::string& dir, const fs::path& to) {
    fs::create_directories(to);
    for (const char* f : {"linux-kernel.bell", "lock.cat"})
        fs::copy_file(dir + "/" + f, to / f, fs::copy_options::overwrite_existing);
    std::ifstream in(dir + "/linux-kernel.cat");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Run {
    std::uint64_t executions = 0, bad = 0, blocked = 0;
    std::set<std::string> flags;
    std::string failure;
    double seconds = 0;
    bool cut_short = false;
};

/// `v` explored under `model`; with `max_executions` the search stops there (Run::cut_short).
Run explore_under(const VariantDef& v, const MemoryModel& model, std::uint64_t max_executions = 0, unsigned threads = 1) {
    ExploreOptions o;
    o.max_executions = max_executions;
    o.threads = threads;
    o.engine = EngineKind::Graph;
    o.model = ModelKind::Lkmm;
    o.race_ends_execution = false;
    Run r;
    const auto start = std::chrono::steady_clock::now();
    const ExploreResult res = graph_explore(v, o, [&](const ExecutionGraph& g, const FinalState& f) {
        ++r.executions;
        if (f.bad_outcome) ++r.bad;
        for (std::string& flag : model.flags(g)) r.flags.insert(std::move(flag));
    }, model);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.blocked = res.blocked;
    r.cut_short = res.cut_short;
    if (res.failure) r.failure = std::string(to_string(*res.failure)) + ": " + res.failure_detail;
    return r;
}

/// One thread's events as the graph engine shows them to MemoryModel::ordered_links(): thread
/// P0 alone, no rf, no co. `events`: (kind, location 0 x / 1 y / none, tags, data_deps mask).
struct ThreadEvent {
    EventKind kind;
    std::optional<LocationId> loc;
    std::uint32_t tags;
    std::uint64_t data_deps = 0;
};
ExecutionGraph one_thread(const std::vector<ThreadEvent>& events) {
    ExecutionGraph g;
    g.set_thread_names({"P0"});
    g.add_location("x");
    g.add_location("y");
    for (const ThreadEvent& t : events) {
        Event e;
        e.id.thread = 1;
        e.kind = t.kind;
        e.location = t.loc;
        e.lkmm = t.tags;
        e.data_deps = t.data_deps;
        e.order = t.kind == EventKind::Fence ? MemoryOrder::SeqCst : MemoryOrder::Relaxed;
        g.append(e);
    }
    g.set_co(0, {});
    g.set_co(1, {});
    return g;
}

/// Whether `model` orders the read at po index i of one_thread(events) before the write at j.
bool links(const cat::CatModel& model, const std::vector<ThreadEvent>& events, std::size_t i, std::size_t j) {
    const auto rows = model.ordered_links(one_thread(events), 1);
    REQUIRE(rows);
    return i < rows->size() && ((*rows)[i] >> j & 1u) != 0;
}

}  // namespace

TEST_SUITE("cat") {
    TEST_CASE("parse errors name the file, line and column, what was expected and what was found") {
        CHECK(parse_error("let x = po ;\n") == "m.cat:2:1: error: expected an expression, found the end of the file");
        CHECK(parse_error("\"t\"\nlet = po") == "m.cat:2:5: error: expected a name after 'let', found '='");
        CHECK(parse_error("acyclic po as\n") == "m.cat:2:1: error: expected a name after 'as', found the end of the file");
        CHECK(parse_error("let x = (po | rf\nacyclic x") ==
              "m.cat:2:1: error: expected ')', found the name 'acyclic'");
        CHECK(parse_error("let x = po (* never closed") ==
              "m.cat:1:12: error: unterminated comment: expected '*)' to close the '(*' here");
        CHECK(parse_error("let x = po $ rf") == "m.cat:1:12: error: expected a name, an operator or a comment, found '$'");
        CHECK(parse_error("po") ==
              "m.cat:1:1: error: expected a statement (let, include, acyclic, irreflexive, empty, flag, with, enum, "
              "instructions, show), found the name 'po'");
        CHECK(parse_error("let x = 1") ==
              "m.cat:1:9: error: expected '0' (the empty relation): no other number is a cat expression, found the number 1");
        CHECK(parse_error("include \"no-such-file.cat\"").find("m.cat:1:9: error: expected a readable file") == 0);
        CHECK(parse_error("let rec a = b and b = a\nlet c = let d = po in d") == "");
    }
    TEST_CASE("evaluation errors are positioned too: an undefined name, a set where a relation goes") {
        const ExecutionGraph g = sb(false);
        auto eval_error = [&](const std::string& src) {
            try {
                cat::evaluate(cat::parse(src, "m.cat"), g, cat::Goal::Validate);
            } catch (const cat::CatError& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        CHECK(eval_error("let x = po | nothing") ==
              "m.cat:1:14: error: expected a defined name, found 'nothing', which is not defined");
        CHECK(eval_error("let x = W ; po") == "m.cat:1:9: error: expected a relation, found a set of events");
        CHECK(eval_error("let x = W | po") == "m.cat:1:11: error: expected two sets or two relations, found a set of events and a relation");
        CHECK(eval_error("let x = try nothing with po\nacyclic x") == "");
    }
    TEST_CASE("small models: SC forbids store buffering, a fenceless TSO-like model allows it") {
        const std::string sc = "\"SC\"\nacyclic po | rf | co | fr as sc\n";
        // W -> R pairs in po are not ordered; the fences (here Mb) restore them
        const std::string tso =
            "\"TSO-like\"\nlet ppo = po \\ (W * R)\nlet fence = [M] ; fencerel(Mb) ; [M]\n"
            "acyclic ppo | fence | rfe | co | fr as tso\n";
        const cat::CatModel sc_model(cat::Model{}, cat::parse(sc, "sc.cat"));
        const cat::CatModel tso_model(cat::Model{}, cat::parse(tso, "tso.cat"));
        CHECK(sc_model.name() == "SC");
        CHECK(!sc_model.consistent(sb(false)));
        REQUIRE(sc_model.check(sb(false)));
        CHECK(sc_model.check(sb(false))->axiom == "sc");
        CHECK(sc_model.check(sb(false))->cycle.size() == 4);
        CHECK(tso_model.consistent(sb(false)));
        CHECK(!tso_model.consistent(sb(true)));
        CHECK(tso_model.check(sb(true))->axiom == "tso");
        CHECK(!tso_model.kernel_events());
        // certifying a complete execution asks for both at once: one evaluation, the same answers
        const cat::CatModel flagged(cat::Model{}, cat::parse(tso + "flag ~empty (W * R) & loc & ext as conflict\n", "f.cat"));
        for (const bool fences : {false, true}) {
            const ExecutionGraph g = sb(fences);
            const auto [violation, flags] = flagged.check_and_flags(g, true);
            REQUIRE(violation.has_value() == flagged.check(g).has_value());
            if (violation) {
                CHECK(violation->axiom == flagged.check(g)->axiom);
                CHECK(violation->cycle == flagged.check(g)->cycle);
            }
            CHECK(flags == flagged.flags(g));
            CHECK(flags == std::vector<std::string>{"conflict"});
            CHECK(flagged.check_and_flags(g, false).second.empty());
        }
    }
    TEST_CASE("let rec is a least fixed point; flags fire by their names; functions apply") {
        // the transitive closure of po, built by recursion, equals po+; po is transitive
        const std::string m =
            "let rec t = po | (t ; po)\nlet twice(r) = r ; r\nempty t \\ po+ as closure\nempty po+ \\ t as closure2\n"
            "flag ~empty twice(po) as two-steps\nflag ~empty rf as some-rf\nflag ~empty co & id as never\n";
        const cat::CatModel model(cat::Model{}, cat::parse(m, "m.cat"));
        const ExecutionGraph g = sb(true);
        CHECK(model.consistent(g));
        CHECK(model.flags(g) == std::vector<std::string>{"two-steps", "some-rf"});
        CHECK(model.flags(sb(false)) == std::vector<std::string>{"some-rf"});
    }
    TEST_CASE("load buffering: a cat model's own axioms decide which of a thread's read-to-write links are ordered") {
        using K = EventKind;
        const auto model = [](const std::string& text) { return cat::CatModel(cat::Model{}, cat::parse(text, "m.cat")); };
        const std::vector<ThreadEvent> rw = {{K::Read, 0, lkmm::Once}, {K::Write, 1, lkmm::Once}};
        const std::vector<ThreadEvent> rfw = {{K::Read, 0, lkmm::Once}, {K::Fence, std::nullopt, lkmm::Mb}, {K::Write, 1, lkmm::Once}};
        // SC: po is in the axiom with rf, so every link is ordered
        const cat::CatModel sc = model("acyclic po | rf | co | fr as sc\n");
        CHECK(sc.guess_axiom() == "sc");
        CHECK(links(sc, rw, 0, 1));
        // the rf edges between threads only within [Once]: a plain read's links are not ordered
        const cat::CatModel hb = model("acyclic po-loc | rf | co | fr as coherence\n"
                                       "let hb = [Once] ; (po | rfe) ; [Once]\nacyclic hb as hb\n");
        CHECK(hb.guess_axiom() == "hb");
        CHECK(links(hb, rw, 0, 1));
        CHECK(!links(hb, {{K::Read, 0, 0}, {K::Write, 1, lkmm::Once}}, 0, 1));
        CHECK(!links(hb, {{K::Read, 0, lkmm::Once}, {K::Write, 1, 0}}, 0, 1));
        // the rf edge's write side restricts the link's write, its read side the link's read
        const cat::CatModel sides = model("acyclic po-loc | rf | co | fr as coherence\n"
                                          "acyclic ([Once & W] ; rfe ; [Once & R]) | po as lb\n");
        CHECK(links(sides, rw, 0, 1));
        CHECK(!links(sides, {{K::Read, 0, lkmm::Once}, {K::Write, 1, 0}}, 0, 1));
        CHECK(!links(sides, {{K::Read, 0, 0}, {K::Write, 1, lkmm::Once}}, 0, 1));
        // a difference keeps what its right side, exact on one thread's events, leaves
        const cat::CatModel fenced = model("acyclic po-loc | rf | co | fr as coherence\n"
                                           "acyclic (po \\ (po ; [Mb] ; po)) | rf as lb\n");
        CHECK(links(fenced, rw, 0, 1));
        CHECK(!links(fenced, rfw, 0, 2));
        // ... but not what a right side that grows with the execution (rf ; po) may take away:
        // that part is read as the empty relation
        const cat::CatModel grows = model("acyclic po-loc | rf | co | fr as coherence\n"
                                          "acyclic (po \\ (rf ; po)) | rf as lb\n");
        CHECK(grows.guess_axiom() == "lb");
        CHECK(!links(grows, rw, 0, 1));
        // a `with` choice stands for the empty relation; its union with po still orders
        const cat::CatModel chosen = model("acyclic po-loc | rf | co | fr as coherence\n"
                                           "with c from total-orders(W, co0)\nacyclic (c \\ id) | [R] ; po ; [W] | rfe as lb\n");
        CHECK(chosen.guess_axiom() == "lb");
        CHECK(links(chosen, rw, 0, 1));
        // no axiom forbids reading from a po-later write: the model says nothing
        const cat::CatModel incoherent = model("acyclic po | rfe as lb\n");
        CHECK(incoherent.guess_axiom().empty());
        CHECK(!incoherent.ordered_links(one_thread(rw), 1));
        // no axiom holds the rf edges between threads
        CHECK(model("acyclic po-loc | rf | co | fr as coherence\nacyclic po as po\n").guess_axiom() == "coherence");
        CHECK(model("acyclic po-loc | co | fr as coherence\n").guess_axiom().empty());
    }
    TEST_CASE("load buffering under linux-kernel.cat (6.1): happens-before's links") {
        const std::string dir = kernel_model_dir();
        if (dir.empty()) {
            MESSAGE("skipped: no linux-source-6.1 (tools/memory-model) on this machine");
            return;
        }
        const auto m = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell");
        CHECK(m->guess_axiom() == "happens-before");
        using K = EventKind;
        // a marked write after smp_mb() (strong-fence, in ppo)
        CHECK(links(*m, {{K::Read, 0, lkmm::Once}, {K::Fence, std::nullopt, lkmm::Mb}, {K::Write, 1, lkmm::Once}}, 0, 2));
        // nothing between them
        CHECK(!links(*m, {{K::Read, 0, lkmm::Once}, {K::Write, 1, lkmm::Once}}, 0, 1));
        // a data dependency
        CHECK(links(*m, {{K::Read, 0, lkmm::Once}, {K::Write, 1, lkmm::Once, 1}}, 0, 1));
        // a release write (po-rel); an acquire read (acq-po)
        CHECK(links(*m, {{K::Read, 0, lkmm::Once}, {K::Write, 1, lkmm::Release}}, 0, 1));
        CHECK(links(*m, {{K::Read, 0, lkmm::Acquire}, {K::Write, 1, lkmm::Once}}, 0, 1));
        // hb relates marked accesses only: a plain read, a plain write
        CHECK(!links(*m, {{K::Read, 0, 0}, {K::Fence, std::nullopt, lkmm::Mb}, {K::Write, 1, lkmm::Once}}, 0, 2));
        CHECK(!links(*m, {{K::Read, 0, lkmm::Once}, {K::Fence, std::nullopt, lkmm::Mb}, {K::Write, 1, 0}}, 0, 2));
        // smp_wmb() orders writes only
        CHECK(!links(*m, {{K::Read, 0, lkmm::Once}, {K::Fence, std::nullopt, lkmm::Wmb}, {K::Write, 1, lkmm::Once}}, 0, 2));
        // the model orders for every reason the built-in does (its probes), so the engine's
        // rules that decide before a thread ends apply as under the built-in model
        CHECK(m->orders() == ordering::all);
        // ... not for the reason a copy takes away, nor for a model without the kernel's tags
        const std::filesystem::path weak = std::filesystem::temp_directory_path() / "ordercheck-cat-test-weak";
        const std::string original = copy_of_model(dir, weak);
        const auto weakened = [&](const std::string& from, const std::string& to, const std::string& before_locks = "") {
            std::string text = original;
            REQUIRE(text.find(from) != std::string::npos);
            text.replace(text.find(from), from.size(), to);
            const std::string include = "\ninclude \"lock.cat\"";  // lock.cat rebinds rmw
            REQUIRE(text.find(include) != std::string::npos);
            text.insert(text.find(include), "\n" + before_locks);
            std::ofstream(weak / "linux-kernel.cat") << text;
            return cat::CatModel::load((weak / "linux-kernel.cat").string(), (weak / "linux-kernel.bell").string());
        };
        const auto w = weakened("let rwdep = (dep | ctrl) ; [W]", "let rwdep = dep ; [W]");
        CHECK(w->orders() == (ordering::all & ~ordering::dependency));
        CHECK(!links(*w, {{K::Read, 0, lkmm::Once}, {K::Write, 1, lkmm::Once}}, 0, 1));
        // smp_mb() no longer a strong fence: dependencies and the rest still order
        CHECK(weakened("let strong-fence = mb | gp", "let strong-fence = gp")->orders() == (ordering::all & ~ordering::strong_fence));
        // acq-po and po-rel taken out of ppo's fences: an acquire (and a spin_lock()'s LKR, an
        // acquire) no longer orders; a release still does, through hb's (prop \ id) & int, since
        // cumul-fence holds A-cumul(po-rel)
        CHECK(weakened("let nonrw-fence = strong-fence | po-rel | acq-po", "let nonrw-fence = strong-fence")->orders() ==
              (ordering::dependency | ordering::strong_fence | ordering::release));
        // a dependency that orders only with no fence between: the probe of two events links it,
        // a thread with a fence there would not, so it is no reason (the probes read the
        // context-monotone copy, in which `\ (po ; [F] ; po)` is 0)
        CHECK(weakened("let rwdep = (dep | ctrl) ; [W]", "let rwdep = ((dep | ctrl) ; [W]) \\ (po ; [F] ; po)")->orders() ==
              (ordering::all & ~ordering::dependency));
        // the newest bell's failed RMWs (`RMW \ (domain(rmw) | range(rmw))`) taken from Acquire:
        // rmw joins two parts of one event, so its domain is the same on any thread that holds
        // the event and the acquire still orders, spin_lock()'s LKR too: a lock is not in RMW
        // (herd's RMW is the events of RMW instructions, CAction.ml's is_rmw_or_atomic), so not
        // in FailedRMW either; the domain of a relation that may reach another event of the
        // thread (po ; [F]) is not the same, and the acquire is no reason then
        const std::string acq_po = "let acq-po = [Acquire] ; po ; [M]";
        CHECK(weakened(acq_po, "let acq-po = [Acquire \\ FailedRMW] ; po ; [M]",
                       "let FailedRMW = RMW \\ (domain(rmw) | range(rmw))")->orders() == ordering::all);
        CHECK(weakened(acq_po, "let acq-po = [Acquire \\ domain(po ; [F])] ; po ; [M]")->orders() ==
              (ordering::all & ~(ordering::acquire | ordering::locks)));
        CHECK(cat::CatModel(cat::Model{}, cat::parse("acyclic po | rf | co | fr as sc\n", "m.cat")).orders() == 0);
        std::filesystem::remove_all(weak);
    }
    TEST_CASE("events the engine adds without asking: decided from the model's text") {
        const std::string dir = kernel_model_dir();
        if (dir.empty()) {
            MESSAGE("skipped: no linux-source-6.1 (tools/memory-model) on this machine");
            return;
        }
        const auto event = [](EventKind kind, std::uint32_t tags, bool located, bool with_rf) {
            Event e;
            e.id = EventId{1, 3};
            e.kind = kind;
            e.lkmm = tags;
            if (located) e.location = LocationId{0};
            if (with_rf) e.reads_from = EventId{EventId::init_thread, 0};
            e.order = MemoryOrder::Relaxed;  // a fence's tags are `tags` alone (lkmm_tags_of())
            return e;
        };
        using K = EventKind;
        const auto m = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell");
        const MemoryModel& builtin = lkmm_model();
        // linux-kernel.cat's fences, and a read with no rf yet, as the built-in LKMM's rule says,
        // but for an RCU or SRCU unlock: rcu-rscs^-1 leads out of it, into rb alone. The
        // built-in LKMM's consistent() leaves the rcu axiom to complete graphs, so it counts the
        // unlock inert; the cat model's walk follows every relation the text defines, whichever
        // axioms its prefix check asks, so it asks about the unlock (more queries, no other answer)
        for (const std::uint32_t f : std::initializer_list<std::uint32_t>{lkmm::Mb, lkmm::Rmb, lkmm::Wmb, lkmm::BeforeAtomic, lkmm::AfterAtomic, lkmm::AfterSpinlock,
                                      lkmm::RcuLock, lkmm::SyncRcu}) {
            CAPTURE(f);
            CHECK(m->inert_when_last(event(K::Fence, f, false, false)) == builtin.inert_when_last(event(K::Fence, f, false, false)));
        }
        for (const std::uint32_t f : std::initializer_list<std::uint32_t>{lkmm::SrcuLock, lkmm::SyncSrcu}) {
            CAPTURE(f);
            CHECK(m->inert_when_last(event(K::Fence, f, true, false)) == builtin.inert_when_last(event(K::Fence, f, true, false)));
        }
        CHECK(!m->inert_when_last(event(K::Fence, lkmm::RcuUnlock, false, false)));
        CHECK(!m->inert_when_last(event(K::Fence, lkmm::SrcuUnlock, true, false)));
        CHECK(builtin.inert_when_last(event(K::Fence, lkmm::RcuUnlock, false, false)));
        CHECK(builtin.inert_when_last(event(K::Fence, lkmm::SrcuUnlock, true, false)));
        for (const std::uint32_t t : {0u, std::uint32_t{lkmm::Once}, std::uint32_t{lkmm::Acquire}}) {
            CHECK(m->inert_when_last(event(K::Read, t, true, false)));
            // a read of the co-latest write is asked about: its fr (rf^-1 ; co) leaves it through
            // the write it reads, and lock.cat's co leaves a lock's write (critical); the walk
            // does not follow which write that is
            CHECK(!m->inert_as_sink(event(K::Read, t, true, true)));
        }
        // a read that reads from a write says nothing as "last" (fr may leave it)
        CHECK(!m->inert_when_last(event(K::Read, lkmm::Once, true, true)));
        // a write placed co-latest: lock.cat's co0 names the final writes (FW), which change
        CHECK(!m->inert_as_sink(event(K::Write, lkmm::Once, true, false)));
        // in a graph with no lock event, lock.cat's critical is empty, its co the graph's (co+
        // of it), its W and co0 the prelude's: the sinks are inert, as the built-in LKMM's rule
        // says of marked reads and writes
        for (const std::uint32_t t : {0u, std::uint32_t{lkmm::Once}, std::uint32_t{lkmm::Acquire}}) {
            CAPTURE(t);
            CHECK(m->inert_as_sink_without_locks(event(K::Read, t, true, true)));
        }
        for (const std::uint32_t t : {0u, std::uint32_t{lkmm::Once}, std::uint32_t{lkmm::Release}}) {
            CAPTURE(t);
            CHECK(m->inert_as_sink_without_locks(event(K::Write, t, true, false)));
        }
        // the graph engine asks that only of graphs with no lock event (GraphEngine::inert_as_sink());
        // with locks, lock.cat's critical leads out of a lock's write: asked about, as above

        // a model whose relation leads back out of smp_wmb() (a cycle as soon as it has a
        // predecessor), and one that forbids smp_mb() outright: those fences are asked about
        const std::filesystem::path changed = std::filesystem::temp_directory_path() / "ordercheck-cat-test-inert";
        const std::string original = copy_of_model(dir, changed);
        for (const auto& [axiom, tag] : {std::pair<std::string, std::uint32_t>{"acyclic po | ([Wmb] ; po^-1) as back", lkmm::Wmb},
                                         {"empty [Mb] as no-mb", lkmm::Mb}}) {
            std::ofstream(changed / "linux-kernel.cat") << original << "\n" << axiom << "\n";
            const auto c = cat::CatModel::load((changed / "linux-kernel.cat").string(), (changed / "linux-kernel.bell").string());
            CAPTURE(axiom);
            CHECK(!c->inert_when_last(event(K::Fence, tag, false, false)));
            CHECK(c->inert_when_last(event(K::Fence, lkmm::Rmb, false, false)));
        }
        // an axiom a write breaks only beside a lock's write: its sink is inert in a graph
        // without locks alone; one it breaks beside any other write: never
        for (const auto& [axiom, without_locks] : {std::pair<std::string, bool>{"empty LKW * (W \\ LKW \\ UL) as write-with-lock", true},
                                                   {"empty ((W \\ IW) * (W \\ IW)) \\ id as one-write", false}}) {
            std::ofstream(changed / "linux-kernel.cat") << original << "\n" << axiom << "\n";
            const auto c = cat::CatModel::load((changed / "linux-kernel.cat").string(), (changed / "linux-kernel.bell").string());
            CAPTURE(axiom);
            CHECK(!c->inert_as_sink(event(K::Write, lkmm::Once, true, false)));
            CHECK(c->inert_as_sink_without_locks(event(K::Write, lkmm::Once, true, false)) == without_locks);
        }
        std::filesystem::remove_all(changed);
        // a model of cos.cat alone (no lock.cat): its co is the graph's, so a write placed
        // co-latest that no read reads is inert too
        const cat::CatModel sc(cat::Model{}, cat::parse("include \"cos.cat\"\nacyclic po | rf | co | fr as sc\n", "m.cat"));
        CHECK(sc.inert_as_sink(event(K::Write, 0, true, false)));
        CHECK(sc.inert_when_last(event(K::Fence, 0, false, false)));
        // and a read of the co-latest write: its fr (cos.cat's (rf^-1 ; co) \ id) leads to the
        // write it reads and stops there, since no co pair leaves the co-latest write; not so
        // with a relation that goes on from that write through po
        CHECK(sc.inert_as_sink(event(K::Read, 0, true, true)));
        const cat::CatModel on(cat::Model{}, cat::parse("include \"cos.cat\"\nacyclic po | rf | (rf^-1 ; po) as on\n", "m.cat"));
        CHECK(!on.inert_as_sink(event(K::Read, 0, true, true)));
        CHECK(on.inert_as_sink(event(K::Write, 0, true, false)));
        // ... and not with an axiom that a new write breaks whatever it reads
        const cat::CatModel nw(cat::Model{}, cat::parse("include \"cos.cat\"\nacyclic po | rf | co | fr as sc\nempty W \\ IW as no-writes\n", "m.cat"));
        CHECK(!nw.inert_as_sink(event(K::Write, 0, true, false)));
        CHECK(nw.inert_as_sink(event(K::Read, 0, true, true)));
    }
    TEST_CASE("an enum may declare only the tags the graph's events carry") {
        CHECK_NOTHROW(cat::CatModel(cat::parse("enum A = 'once || 'mb", "b.bell"), cat::parse("\"x\"", "x.cat")));
        CHECK_THROWS_WITH(cat::CatModel(cat::parse("enum A = 'once ||\n 'sparkle", "b.bell"), cat::parse("\"x\"", "x.cat")),
                          "b.bell:1:1: error: expected a tag that ordercheck's events carry (linux-kernel.bell's), found 'sparkle");
    }
    TEST_CASE("variant conditionals choose by the configuration's variants") {
        const std::string m =
            "let a = if \"lkmmv2\" then po else 0\nflag ~empty a as v2-expr\n"
            "if not \"lkmmv2\" flag ~empty po as v1-stmt else flag ~empty po as v2-stmt end\n"
            "if \"lkmmv2\" && (\"other\" || variant \"lkmmv2\") flag ~empty po as both end\n";
        const cat::CatModel v2(cat::Model{}, cat::parse(m, "m.cat", {"lkmmv2"}), {"lkmmv2"});
        const cat::CatModel v1(cat::Model{}, cat::parse(m, "m.cat"));
        CHECK(v2.flags(sb(false)) == std::vector<std::string>{"v2-expr", "v2-stmt", "both"});
        CHECK(v1.flags(sb(false)) == std::vector<std::string>{"v1-stmt"});
        CHECK(parse_error("let a = if po = po then po else 0") ==
              "m.cat:1:12: error: expected a variant name in quotes (herd's other conditions are not supported), "
              "found the name 'po'");
        CHECK(parse_error("if \"v\" flag ~empty po as x") ==
              "m.cat:1:27: error: expected 'else' or 'end' closing the 'if', found the end of the file");
    }
    TEST_CASE("lkmmv2: a fully ordered RMW's tag is on its events, its fences carry none; tags as the bell spells them") {
        // P0: xchg(x, 1) as the runtime records it (F_sc; RMW; F_sc, one primitive call), then
        // smp_mb(), smp_mb__after_srcu_read_unlock() and atomic_inc(y) (a void RMW)
        ExecutionGraph g;
        g.set_thread_names({"P0"});
        const LocationId x = g.add_location("x"), y = g.add_location("y");
        auto add = [&](std::uint16_t t, EventKind kind, std::optional<LocationId> loc, std::uint32_t tags,
                       const char* prim, std::optional<EventId> from = std::nullopt) {
            return add_event(g, t, kind, loc, tags, from, prim);
        };
        const EventId ix = add(EventId::init_thread, EventKind::Write, x, 0, "");
        const EventId iy = add(EventId::init_thread, EventKind::Write, y, 0, "");
        add(1, EventKind::Fence, std::nullopt, lkmm::Mb, "xchg");
        add(1, EventKind::Rmw, x, lkmm::Once, "xchg", ix);
        add(1, EventKind::Fence, std::nullopt, lkmm::Mb, "xchg");
        add(1, EventKind::Fence, std::nullopt, lkmm::Mb, "smp_mb");
        add(1, EventKind::Fence, std::nullopt, lkmm::AfterSrcuReadUnlock, "smp_mb__after_srcu_read_unlock");
        add(1, EventKind::Rmw, y, lkmm::Once | lkmm::Noreturn, "atomic_inc", iy);
        const std::string bell =
            "enum Accesses = 'ONCE || 'MB || 'NORETURN\nenum Barriers = 'MB || 'after-srcu-read-unlock\n";
        const std::string cat =
            "\"m\"\nflag ~empty MB & R as mb-read\nflag ~empty MB & W as mb-write\n"
            "flag ~empty [MB & F] ; po ; [MB & F] as two-mb-fences\nflag ~empty After-srcu-read-unlock as after-srcu\n"
            "flag ~empty NORETURN & W as noreturn-write\nflag ~empty ONCE & RMW as once-rmw\n";
        const cat::CatModel v2(cat::parse(bell, "b.bell"), cat::parse(cat, "m.cat"), {"lkmmv2"});
        const cat::CatModel v1(cat::parse(bell, "b.bell"), cat::parse(cat, "m.cat"));
        CHECK(v2.flags(g) == std::vector<std::string>{"mb-read", "mb-write", "after-srcu", "noreturn-write"});
        // lkmmv1: the fences are the RMW's ordering, its events are once (herd 7.57)
        CHECK(v1.flags(g) == std::vector<std::string>{"two-mb-fences", "after-srcu", "once-rmw"});
    }
    TEST_CASE("herd's C11 constructs: the C NAME identity, tag2set of the C++ orders, undefined_unless") {
        // sb(true): relaxed accesses and seq_cst fences
        const std::string bell = "enum memorder = 'rlx || 'sc\nlet SC = tag2set('sc)\nlet RLX = tag2set('rlx)\n";
        const std::string cat = "C RC11-like\nflag ~empty SC & F as sc-fences\nflag ~empty RLX & W as rlx-writes\n"
                                "flag ~empty SC & M as sc-accesses\nundefined_unless empty po as ub\n"
                                "undefined_unless ~empty po as never\n";
        const cat::CatModel m(cat::parse(bell, "c.bell"), cat::parse(cat, "m.cat"));
        CHECK(m.name() == "RC11-like");
        CHECK(!m.kernel_events());  // memory orders are not the kernel's tags: RC11's role
        CHECK(m.flags(sb(true)) == std::vector<std::string>{"sc-fences", "rlx-writes", "ub"});
        REQUIRE(m.race(sb(true)));  // an undefined_unless that fails is a race, as data-race is
        CHECK(parse_error("let a = tag2set('nope)") == "");
    }
    // The whole corpus takes some 20 s under the cat model (5 to 10 times the built-in): the unit
    // suite compares every test of at most `quick_executions` executions under the built-in
    // model (all but the few large ones), ORDERCHECK_CAT_DIFFERENTIAL=all every test.
    TEST_CASE("linux-kernel.cat (6.1) agrees with the built-in LKMM on the litmus corpus") {
        constexpr std::uint64_t quick_executions = 200;
        const char* all_env = std::getenv("ORDERCHECK_CAT_DIFFERENTIAL");
        const bool all = all_env != nullptr && std::string(all_env) == "all";
        const std::string dir = kernel_model_dir();
        if (dir.empty()) {
            MESSAGE("skipped: linux-source 6.1's tools/memory-model is not installed");
            return;
        }
        const auto model = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell");
        CHECK(model->name() == "Linux-kernel memory consistency model");
        CHECK(model->kernel_events());
        std::vector<fs::path> tests;
        for (const std::string& file : test::litmus_corpus()) tests.emplace_back(file);
        REQUIRE(tests.size() > 100);
        // 6.1's macro table refuses the primitives it lacks (as herd7 7.57 does): those tests have
        // no 6.1 answer to compare with (smp_mb__after_srcu_read_unlock() is the newest model's)
        const auto table = litmus::MacroTable::load(dir + "/linux-kernel.def");
        std::size_t agree = 0, compared = 0, left_out = 0, refused = 0, unmatched = 0;
        double builtin_seconds = 0, cat_seconds = 0;
        for (const fs::path& path : tests) {
            std::shared_ptr<const litmus::Compiled> test;
            try {
                (void)litmus::parse_file(path.string(), table.get());
            } catch (const litmus::LitmusError& e) {
                if (std::string(e.what()).find("not defined by the macro table") != std::string::npos) ++refused;
                continue;  // the corpus's malformed-input tests, and those 6.1's table refuses
            }
            try {
                test = litmus::compile(litmus::parse_file(path.string()));
            } catch (const std::exception&) {
                continue;
            }
            const VariantDef v = litmus::make_variant(test, litmus::RunMode::RaceCheck);
            Run builtin, catm;
            try {
                builtin = explore_under(v, lkmm_model(), all ? 0 : quick_executions);
            } catch (const std::exception&) {
                continue;
            }
            if (builtin.cut_short) {
                ++left_out;
                continue;
            }
            catm = explore_under(v, *model);
            // an unlock no acquisition matches: the built-in flags it, the cat model refuses the
            // program (lock.cat leaves the unlock out of co: cat_model.cpp)
            if (builtin.flags.count("unmatched-unlock") != 0 &&
                catm.failure.find("matches no lock acquisition") != std::string::npos) {
                ++unmatched;
                continue;
            }
            ++compared;
            builtin_seconds += builtin.seconds;
            cat_seconds += catm.seconds;
            const bool same = builtin.executions == catm.executions && builtin.bad == catm.bad &&
                              builtin.blocked == catm.blocked && builtin.failure == catm.failure &&
                              builtin.flags == catm.flags;
            if (same) {
                ++agree;
                continue;
            }
            std::string fb, fc;
            for (const auto& f : builtin.flags) fb += f + " ";
            for (const auto& f : catm.flags) fc += f + " ";
            MESSAGE(path.filename().string() << ": built-in " << builtin.executions << " executions, " << builtin.bad
                    << " bad, blocked " << builtin.blocked << ", flags [" << fb << "] " << builtin.failure << "; cat "
                    << catm.executions << ", " << catm.bad << " bad, blocked " << catm.blocked << ", flags [" << fc
                    << "] " << catm.failure);
        }
        MESSAGE(agree << " of " << compared << " litmus tests agree; built-in " << builtin_seconds << " s, cat "
                      << cat_seconds << " s; " << left_out << " larger tests left out (ORDERCHECK_CAT_DIFFERENTIAL=all); "
                      << refused << " refused by 6.1's linux-kernel.def");
        CHECK(agree == compared);
        CHECK(unmatched == 1);  // unlock+unmatched
        CHECK(refused >= 5);  // atomic_andnot, atomic_or, atomic_fetch_or_acquire, srcu_down_read, ...
        CHECK(compared > 100);
    }

    TEST_CASE("compiled linux-kernel.cat (6.1) answers every query as the evaluated one") {
        // Every graph the search asks about, on the quick tests of the corpus: the compiled
        // model's consistency, violated axiom, flags and race against the evaluator's own.
        const std::string dir = kernel_model_dir();
        if (dir.empty()) {
            MESSAGE("skipped: linux-source 6.1's tools/memory-model is not installed");
            return;
        }
        const auto compiled = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell");
        const auto evaluated = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell", {}, false);
        const auto [c, e] = compiled->compiled_share();
        MESSAGE(c << " bindings and checks compiled, " << e << " evaluated");
        CHECK(e * 10 < c);  // lock.cat's map, cross and with stay evaluated; the rest is compiled
        CHECK(evaluated->compiled_share() == std::pair<std::size_t, std::size_t>{0, 0});
        // the compiled one runs as a plan (lock.cat's withs included): what is compared below
        CHECK(compiled->planned());
        CHECK(!evaluated->planned());
        // Each model searched alone, so that what the compiled one keeps from one graph to the
        // next (its buffers, scopes and values) lives on as in a search; the answers compared
        // in the order the search asked for them.
        struct Recorder final : MemoryModel {
            const MemoryModel& m;
            mutable std::vector<std::string> answers;
            explicit Recorder(const MemoryModel& x) : m(x) {}
            std::string_view name() const override { return m.name(); }
            bool kernel_events() const override { return m.kernel_events(); }
            std::uint8_t orders() const override { return m.orders(); }
            bool inert_when_last(const Event& ev) const override { return m.inert_when_last(ev); }
            bool consistent(const ExecutionGraph& g) const override { return !check(g); }
            std::optional<AxiomViolation> check(const ExecutionGraph& g) const override {
                auto x = m.check(g);
                std::string a = x ? x->axiom + ": " + x->explanation + ":" : "consistent";
                if (x)
                    for (const EventId& e : x->cycle) a += " " + std::to_string(e.thread) + "." + std::to_string(e.index);
                answers.push_back(std::move(a));
                return x;
            }
            std::optional<std::pair<EventId, EventId>> race(const ExecutionGraph& g) const override {
                auto x = m.race(g);
                answers.push_back(x ? "race " + std::to_string(x->first.thread) + "." + std::to_string(x->first.index) + " " +
                                          std::to_string(x->second.thread) + "." + std::to_string(x->second.index)
                                    : "no race");
                return x;
            }
            std::vector<std::string> flags(const ExecutionGraph& g) const override {
                auto x = m.flags(g);
                std::string a = "flags";
                for (const std::string& f : x) a += " " + f;
                answers.push_back(std::move(a));
                return x;
            }
        };
        std::size_t queries = 0, differ = 0;
        const auto table = litmus::MacroTable::load(dir + "/linux-kernel.def");
        std::size_t tests = 0;
        // and graphs of more than 64 nodes (relations of several words a row): a writer of
        // 40 locations with fences and a reader in an RCU critical section
        const fs::path wide = fs::temp_directory_path() / ("ordercheck-cat-wide-" + std::to_string(::getpid()) + ".litmus");
        struct Remove {
            fs::path path;
            ~Remove() { std::error_code ec; fs::remove(path, ec); }
        } remove_wide{wide};
        {
            std::string params, writes;
            for (int k = 0; k < 40; ++k) {
                params += std::string(k == 0 ? "" : ", ") + "int *x" + std::to_string(k);
                writes += "\tWRITE_ONCE(*x" + std::to_string(k) + ", 1);\n" + (k % 10 == 9 ? "\tsmp_mb();\n" : "");
            }
            std::ofstream(wide) << "C wide\n\n{}\n\nP0(" << params << ")\n{\n" << writes
                                << "}\n\nP1(int *x0, int *x39)\n{\n\tint r0;\n\tint r1;\n\n\trcu_read_lock();\n"
                                   "\tr0 = READ_ONCE(*x39);\n\tsmp_rmb();\n\tr1 = READ_ONCE(*x0);\n\trcu_read_unlock();\n}\n\n"
                                   "exists (1:r0=1 /\\ 1:r1=0)\n";
        }
        std::vector<std::string> files = test::litmus_corpus();
        files.insert(files.begin(), wide.string());
        for (const std::string& file : files) {
            std::shared_ptr<const litmus::Compiled> test;
            try {
                test = litmus::compile(litmus::parse_file(file, table.get()));
            } catch (const std::exception&) {
                continue;
            }
            const VariantDef v = litmus::make_variant(test, litmus::RunMode::RaceCheck);
            const Recorder c(*compiled), e(*evaluated);
            const Run r = explore_under(v, c, 200);
            (void)explore_under(v, e, 200);
            queries += c.answers.size();
            if (c.answers != e.answers) {
                ++differ;
                MESSAGE(file << ": the compiled model answered otherwise");
            }
            tests += r.executions > 0 ? 1 : 0;
            // r0 and r1 each 0 or 1, less r0 = 1 with r1 = 0: message passing through the
            // writer's smp_mb() (x0 before x39) and the reader's smp_rmb()
            if (file == wide.string()) CHECK(r.executions == 3);
        }
        MESSAGE(queries << " answers over " << tests << " tests; " << differ << " tests answered otherwise");
        CHECK(tests > 100);
        CHECK(queries > 5000);
        CHECK(differ == 0);
    }

    TEST_CASE("linux-kernel.cat (6.1) on several threads: what one thread finds") {
        // The cat model says it may be evaluated on several threads at once (concurrent()):
        // load-buffering tests searched on 3 threads give what one gives.
        const std::string dir = kernel_model_dir();
        if (dir.empty()) {
            MESSAGE("skipped: linux-source 6.1's tools/memory-model is not installed");
            return;
        }
        const auto model = cat::CatModel::load(dir + "/linux-kernel.cat", dir + "/linux-kernel.bell");
        REQUIRE(model->concurrent());
        for (const char* name : {"LB+poonceonces", "LB+branch-pointer", "LB+xchg_relaxeds", "desc-reserve+3", "RCU+deferred-free+plain"}) {
            CAPTURE(name);
            const VariantDef v = litmus::make_variant(
                litmus::compile(litmus::parse_file(std::string(OC_SOURCE_ROOT "/litmus/tests/") + name + ".litmus")),
                litmus::RunMode::RaceCheck);
            const Run one = explore_under(v, *model), three = explore_under(v, *model, 0, 3);
            CHECK(one.executions > 0);
            CHECK(three.executions == one.executions);
            CHECK(three.bad == one.bad);
            CHECK(three.blocked == one.blocked);
            CHECK(three.flags == one.flags);
            CHECK(three.failure == one.failure);
        }
    }
}
