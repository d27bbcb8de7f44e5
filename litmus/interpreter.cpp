// SPDX-License-Identifier: MIT
// A parsed litmus test as a model: its shared, immutable form (compile(): a source spot and a
// trace label per access, the SRCU sections' names), the expectation its annotations state, and
// the VariantDef whose instances run it (the Instance of interpreter_instance.hpp, one per
// execution).
#include "litmus/interpreter.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <type_traits>

#include "litmus/interpreter_instance.hpp"
#include "litmus/ordered_reads.hpp"
#include "litmus/parser.hpp"

namespace oc::litmus {

static_assert(std::is_same_v<Value, oc::Value>, "litmus values are the engine's values");
static_assert(max_processes <= max_threads, "every process of a test is a thread of the graph engine");

std::source_location source_location_of(const SpotImpl& spot) {
#if defined(__GLIBCXX__)
    // libstdc++'s std::source_location is one pointer to a {file, function, line, column}
    // record, which SpotImpl mirrors; this lets events name the litmus file and line.
    static_assert(sizeof(std::source_location) == sizeof(const void*));
    static_assert(std::is_trivially_copyable_v<std::source_location>);
    return std::bit_cast<std::source_location>(&spot);
#else
    (void)spot;
    return std::source_location::current();
#endif
}

std::shared_ptr<const Compiled> compile(Program program) {
    auto c = std::make_shared<Compiled>();
    c->program = std::move(program);
    const Program& p = c->program;
    c->spots.reserve(p.accesses.size() + p.locations.size());
    c->labels.reserve(p.accesses.size());
    for (const Access& a : p.accesses) {
        c->spots.push_back(SpotImpl{p.file.c_str(), "litmus", a.pos.line, a.pos.column});
        c->labels.push_back(a.dep_head ? a.name + "[dep]" : a.name);
    }
    for (const Location& l : p.locations)
        c->spots.push_back(SpotImpl{p.file.c_str(), "litmus", l.declared.line, l.declared.column});
    c->srcu_index.assign(p.locations.size(), -1);
    for (std::size_t i = 0; i < p.locations.size(); ++i) {
        if (p.locations[i].type != LocType::Srcu) continue;
        c->srcu_index[i] = static_cast<int>(c->srcu_section_names.size());
        // at least one word: LKMM's SRCU events (and the newest model's accesses) use the first
        // as the srcu_struct's location, also for a struct with no srcu_read_lock() site
        std::vector<std::string> names(std::max<std::size_t>(1, p.locations[i].sections), p.locations[i].name);
        bool accesses = false;  // the newest model's SRCU: every access is to the first word
        for (const Access& a : p.accesses)
            if (!a.plain && a.prim == Prim::SrcuReadLock && a.target == static_cast<std::int32_t>(i)) {
                names[a.section] = p.locations[i].name + "@" + p.processes[a.process].name + ":" + std::to_string(a.pos.line);
                accesses = accesses || a.srcu_access;
            }
        if (accesses) names[0] = p.locations[i].name;  // the srcu_struct's word, named as the struct
        c->srcu_section_names.push_back(std::move(names));
    }
    for (const auto& names : c->srcu_section_names) {
        std::vector<const char*> ptrs;
        for (const std::string& n : names) ptrs.push_back(n.c_str());
        c->srcu_section_name_ptrs.push_back(std::move(ptrs));
    }
    return c;
}

namespace {

using detail::Instance;

Verdict verdict_of(Outcome o) {
    switch (o) {
    case Outcome::Always: return Verdict::Always;
    case Outcome::Never: return Verdict::Never;
    case Outcome::Sometimes:
    case Outcome::Maybe:
    case Outcome::Deadlock:
    case Outcome::AssertFailed:
    case Outcome::DataRace: break;
    }
    return Verdict::Sometimes;
}
Finding finding_of(const Expected& e) {
    if (e.outcome == Outcome::Deadlock) return EngineFailure::Deadlock;
    if (e.outcome == Outcome::AssertFailed) return EngineFailure::AssertFailed;
    if (e.outcome == Outcome::DataRace) return EngineFailure::DataRace;
    return verdict_of(e.outcome);
}

}  // namespace

Expectation expectation(const Program& p) {
    const Expected* base = p.mapping ? &*p.mapping : p.result ? &*p.result : nullptr;
    if (base == nullptr) {
        Expectation none = expect::sometimes("the test has no Result: annotation; it is not judged");
        none.judged = false;
        return none;
    }
    std::string_view why = p.result && !p.result->note.empty() ? std::string_view(p.result->note)
                                                                : std::string_view("the test's Result: annotation");
    Expectation e;
    e.memory_model = finding_of(*base);
    e.why = why;
    if (p.mapping && p.result && p.result->outcome != Outcome::Maybe && p.result->outcome != Outcome::Deadlock &&
        p.result->outcome != Outcome::AssertFailed && p.result->outcome != Outcome::DataRace)
        e = e.under_lkmm(verdict_of(p.result->outcome), p.mapping->note);
    if (p.engine) e = e.engine_finds(finding_of(*p.engine), p.engine->note);
    return e;
}

/// VariantDef::stored_constants of `p`: for each store whose value is a register, the constants
/// its process assigns that register anywhere (and the register's initial value), by line; and
/// VariantDef::text_writes and cas_writes.
static std::vector<VariantDef::StoredConstants> stored_constants(const Program& p,
                                                                std::vector<VariantDef::TextWrite>& text_writes,
                                                                std::vector<VariantDef::StoredConstants>& cas_writes) {
    std::vector<VariantDef::StoredConstants> out;
    for (std::size_t proc = 0; proc < p.processes.size(); ++proc) {
        const Process& pr = p.processes[proc];
        std::vector<std::vector<Value>> assigned(pr.regs.size());
        for (std::size_t r = 0; r < pr.regs.size(); ++r) assigned[r].push_back(pr.regs[r].init);
        std::vector<std::int32_t> todo{pr.body};
        while (!todo.empty()) {  // the statements reachable from the body (inlined functions too)
            const std::int32_t si = todo.back();
            todo.pop_back();
            if (si < 0) continue;
            const Stmt& s = p.stmts[static_cast<std::size_t>(si)];
            if (s.kind == StmtKind::Assign && s.expr >= 0 && s.reg < assigned.size() &&
                p.exprs[static_cast<std::size_t>(s.expr)].kind == ExprKind::Const)
                assigned[s.reg].push_back(p.exprs[static_cast<std::size_t>(s.expr)].value);
            for (std::uint32_t k = 0; s.kind == StmtKind::Block && k < s.count; ++k) todo.push_back(p.block_items[s.first + k]);
            if (s.kind != StmtKind::Block) {
                todo.push_back(s.then_stmt);
                todo.push_back(s.else_stmt);
                todo.push_back(s.prelude);
            }
        }
        for (const Access& a : p.accesses) {
            if (a.process != proc || a.vals[0] < 0) continue;
            const Expr& v = p.exprs[static_cast<std::size_t>(a.vals[0])];
            // a store (marked or plain) or an exchange to a fixed location writes its operand
            const bool stores = (a.plain && a.plain_write) ||
                                (!a.plain && ((a.prim >= Prim::WriteOnce && a.prim <= Prim::AtomicSetRelease) ||
                                              a.prim == Prim::AtomicXchg || a.prim == Prim::Xchg));
            if (stores && a.target >= 0 && (v.kind == ExprKind::Const || (v.kind == ExprKind::Reg && v.reg < assigned.size() && assigned[v.reg].size() > 1)))
                for (const Value c : v.kind == ExprKind::Const ? std::vector<Value>{v.value} : assigned[v.reg])
                    text_writes.push_back({static_cast<unsigned>(proc + 1), a.pos.line,
                                           p.locations[static_cast<std::size_t>(a.target)].name, c});
            // a compare-exchange writes its new-value operand when it succeeds (a constant: a
            // register's value would be what some execution computed, and its constants alone
            // let retry loops guess values none of their runs write: treiber-stack+push+pop)
            if (!a.plain && (a.prim == Prim::Cmpxchg || a.prim == Prim::AtomicCmpxchg || a.prim == Prim::TryCmpxchg) &&
                a.vals[1] >= 0 && p.exprs[static_cast<std::size_t>(a.vals[1])].kind == ExprKind::Const)
                cas_writes.push_back({static_cast<unsigned>(proc + 1), a.pos.line, {p.exprs[static_cast<std::size_t>(a.vals[1])].value}});
            if (v.kind != ExprKind::Reg || v.reg >= assigned.size()) continue;
            std::vector<Value> values = assigned[v.reg];
            std::sort(values.begin(), values.end());
            values.erase(std::unique(values.begin(), values.end()), values.end());
            if (values.size() < 2) continue;  // one value: the one every execution stores
            out.push_back({static_cast<unsigned>(proc + 1), a.pos.line, std::move(values)});
        }
    }
    return out;
}

VariantDef make_variant(const std::shared_ptr<const Compiled>& test, RunMode mode, LoopBound bound) {
    const Program& p = test->program;
    VariantDef v;
    v.model = p.name;
    v.name = mode == RunMode::RaceCheck ? "litmus" : "plain-as-relaxed";
    v.summary = p.file;
    v.expect = expectation(p);
    v.exact_dependencies = true;  // registers carry the reads they came from (Taint)
    if (mode == RunMode::RaceCheck)  // plain accesses stay plain (unmarked events) only in this run
        for (const Location& l : p.locations)
            if (l.only_plain) v.plain_only_locations.push_back(l.name);
    v.stored_constants = stored_constants(p, v.text_writes, v.cas_writes);
    v.ordered_reads = ordered_reads(p, mode == RunMode::RaceCheck);
    v.undepended_reads = undepended_reads(p);
    v.read_lines = read_lines(p);
    v.kernel_model_only = p.kernel_model_only;
    if (bound.cuts) {
        // runs cut at the bound are counted: a report that cut any is bounded (checker/driver)
        v.unroll = bound.unroll;
        v.cut_runs = [cuts = bound.cuts] { return cuts->load(); };
    }
    for (const Process& proc : p.processes) v.thread_names.push_back(proc.name);
    if (v.thread_names.size() == 1) v.thread_names.emplace_back("idle");  // the engine needs 2 threads
    v.instance_size = sizeof(Instance);
    v.instance_align = alignof(Instance);
    const unsigned threads = static_cast<unsigned>(v.thread_names.size());
    v.construct = [test, mode, threads, bound](void* storage) -> ModelInstance* {
        return ::new (storage) Instance(*test, mode, threads, bound.unroll, bound.cuts.get());
    };
    return v;
}

}  // namespace oc::litmus
