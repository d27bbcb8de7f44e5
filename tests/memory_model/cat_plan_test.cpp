// A cat model compiled whole runs as a plan (checker/memory_model/cat/cat_plan.hpp), with no
// evaluator: its answers against the evaluator's own on graphs made to reach each kind of step.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "checker/memory_model/cat/cat_model.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"

using namespace oc;

namespace {

struct Builder {
    ExecutionGraph g;
    LocationId x, y;
    EventId ix, iy;
    Builder() {
        g.set_thread_names({"P0", "P1"});
        x = g.add_location("x");
        y = g.add_location("y");
        ix = add(EventId::init_thread, EventKind::Write, x);
        iy = add(EventId::init_thread, EventKind::Write, y);
    }
    EventId add(std::uint16_t t, EventKind kind, LocationId loc, std::optional<EventId> from = std::nullopt) {
        Event e;
        e.id.thread = t;
        e.kind = kind;
        e.location = loc;
        e.reads_from = from;
        e.order = MemoryOrder::Relaxed;
        e.written_value = kind == EventKind::Write && t != EventId::init_thread ? 1 : 0;
        if (from) e.read_value = g.event(*from).written_value;
        return g.append(e);
    }
};

/// Store buffering: each read takes the initial value (`sb`), the other thread's write
/// (`mp`), its own thread's write (`own`), or no write at all (`none`: a read the engine
/// guessed, which `with chosen` then finds no candidate for).
ExecutionGraph shape(const std::string& reads) {
    Builder b;
    const EventId wx = b.add(1, EventKind::Write, b.x);
    if (reads == "own") b.add(1, EventKind::Read, b.x, wx);
    b.add(1, EventKind::Read, b.y, reads == "none" ? std::nullopt : std::optional<EventId>(b.iy));
    const EventId wy = b.add(2, EventKind::Write, b.y);
    b.add(2, EventKind::Read, b.x, reads == "mp" ? wx : b.ix);
    b.g.set_co(b.x, {b.ix, wx});
    b.g.set_co(b.y, {b.iy, wy});
    return b.g;
}

/// consistent() (a prefix's query), then for a complete graph check() and flags() (each read
/// reads from a write), and race().
std::string answer(const MemoryModel& m, const ExecutionGraph& g, bool complete) {
    std::string a = m.consistent(g) ? "consistent" : "inconsistent";
    if (complete) {
        if (const auto v = m.check(g)) {
            a += " | " + v->axiom + ":";
            for (const EventId& e : v->cycle) a += " " + std::to_string(e.thread) + "." + std::to_string(e.index);
        }
        if (const auto r = m.race(g)) a += " | race " + std::to_string(r->first.index) + "," + std::to_string(r->second.index);
    }
    for (const std::string& f : m.flags(g)) a += " | flag " + f;
    return a;
}

}  // namespace

TEST_SUITE("cat") {
    TEST_CASE("a model compiled whole runs as a plan and answers as the evaluator") {
        // every kind of step: cos.cat's `with co from total-orders(W, co0)`, a top-level
        // `let rec`, lock.cat's one-rf-edge-per-event choice (`with chosen from cross(...)`),
        // axioms, flags, an undefined_unless check, an `empty` of a set, of the empty value.
        // The choice is written as Linux 6.1's lock.cat writes it, and as the newest one does
        // (its functions at the top level).
        const std::string as_6_1 =
            "let possible = let f r = (let g p = p ++ 0 in map g ((W * {r}) & loc & ext)) in map f (R \\ range(rf & int))\n";
        const std::string as_newest =
            "let pair-to-relation p = p ++ 0\nlet options e = (W * {e}) & loc & ext\n"
            "let possible = let f e = map pair-to-relation (options e) in map f (R \\ range(rf & int))\n";
        for (const std::string& choice : {as_6_1, as_newest}) {
            CAPTURE(choice);
            const std::string text =
                "\"plan\"\ninclude \"cos.cat\"\nlet rec t = po | (t ; po)\n" + choice +
                "with chosen from cross(possible)\nlet twice(r) = r ; r\n"
                "empty t \\ po+ as closure\nacyclic po | rf | co | fr as sc\n"
                "flag ~empty twice(po) as two-steps\nflag ~empty chosen as some-chosen\n"
                "undefined_unless empty (W * R) & loc & ext & rf as read-elsewhere\n"
                "empty R \\ M as reads-are-accesses\nempty 0 as nothing\n";
            const cat::CatModel planned(cat::Model{}, cat::parse(text, "plan.cat"));
            const cat::CatModel evaluated(cat::Model{}, cat::parse(text, "plan.cat"), {}, false);
            CHECK(planned.planned());
            CHECK(!evaluated.planned());
            // Each answer from the model's text. sb: po ; fr ; po ; fr is a cycle of sc; each read
            // takes an external write (some-chosen, and read-elsewhere, whose first pair is the
            // race: init x, index 0, to P1's read, index 1). mp: P1's read takes P0's write, no
            // cycle; the first rf pair from init y to P0's read (1, 1). own: P0 reads its own write
            // too, a third event in P0 (two-steps); that read is not among the choices. none: P0's
            // read of y has no rf, so no candidate of `chosen` is the graph (a prefix the engine
            // asks about while a read guesses its value).
            const std::vector<std::pair<std::string, std::string>> expected = {
                {"sb", "inconsistent | sc: 1.0 1.1 2.0 2.1 | race 0,1 | flag some-chosen | flag read-elsewhere"},
                {"mp", "consistent | race 1,1 | flag some-chosen | flag read-elsewhere"},
                {"own", "inconsistent | sc: 1.0 1.2 2.0 2.1 | race 0,1 | flag two-steps | flag some-chosen | flag read-elsewhere"},
                {"none", "inconsistent | flag some-chosen | flag read-elsewhere"},
            };
            for (const auto& [reads, want] : expected) {
                CAPTURE(reads);
                const ExecutionGraph g = shape(reads);
                CHECK(answer(planned, g, reads != "none") == answer(evaluated, g, reads != "none"));
                CHECK(answer(planned, g, reads != "none") == want);
            }
        }
        // a `with` of candidates the plan does not know: the model is evaluated, as before
        const std::string other = "\"other\"\nwith chosen from po ++ (rf ++ 0)\nacyclic po | chosen as ok\n";
        const cat::CatModel unplanned(cat::Model{}, cat::parse(other, "other.cat"));
        CHECK(!unplanned.planned());
        CHECK(unplanned.consistent(shape("sb")));
    }
}
