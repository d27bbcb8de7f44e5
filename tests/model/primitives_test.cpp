// SPDX-License-Identifier: MIT
// The kernel-primitive mapping, checked through small models explored exhaustively.
#include <doctest/doctest.h>

#include "checker/driver/check.hpp"
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"

using namespace oc;
using namespace oc::kernel;

namespace {

/// Explores every variant of `m` exhaustively and returns the reports.
std::vector<Report> run(const ModelDef& m) {
    std::vector<Report> out;
    for (const auto& v : m.variants) out.push_back(check(v, CheckOptions{}));
    return out;
}

const Report& by_name(const std::vector<Report>& rs, const std::string& id) {
    for (const auto& r : rs)
        if (r.id == id) return r;
    FAIL("no report " << id);
    return rs.front();
}

// SB where each thread's write is a kernel RMW of the chosen kind, then READ_ONCE of the other.
enum class WriteKind { VoidRmw, VoidRmwAfterAtomic, FullyOrderedRmw, RelaxedRmw, AtomicSetAfterAtomic, Xchg };
struct SbRmw {
    struct Config {
        WriteKind kind;
    };
    explicit SbRmw(const Config& c) : cfg(c) {}
    const Config cfg;
    atomic_t x{"x", 0};
    atomic_t y{"y", 0};
    Reg r0{"0:r0"};
    Reg r1{"1:r1"};
    void write(atomic_t& v) {
        switch (cfg.kind) {
        case WriteKind::VoidRmw: atomic_inc(v); break;
        case WriteKind::VoidRmwAfterAtomic:
            atomic_inc(v);
            smp_mb__after_atomic();
            break;
        case WriteKind::FullyOrderedRmw: atomic_inc_return(v); break;
        case WriteKind::RelaxedRmw: atomic_inc_return_relaxed(v); break;
        case WriteKind::AtomicSetAfterAtomic:
            atomic_set(v, 1);
            smp_mb__after_atomic();  // misuse: no RMW precedes it, so it orders nothing
            break;
        case WriteKind::Xchg: xchg(v, 1); break;
        }
    }
    void p0() {
        write(x);
        r0 = READ_ONCE(y);
    }
    void p1() {
        write(y);
        r1 = READ_ONCE(x);
    }
    bool bad_outcome() const { return r0 == 0 && r1 == 0; }
    static constexpr std::array<Thread<SbRmw>, 2> threads{{{"P0", &SbRmw::p0}, {"P1", &SbRmw::p1}}};
};

ModelDef sb_rmw_model() {
    return define<SbRmw>("SB+rmw", "test", "SB with kernel RMWs as writes",
                         {{"void", {WriteKind::VoidRmw}, expect::sometimes("void RMWs are unordered")},
                          {"void_after_atomic", {WriteKind::VoidRmwAfterAtomic}, expect::never("F_sc after each RMW")},
                          {"fully_ordered", {WriteKind::FullyOrderedRmw}, expect::never("F_sc; RMW; F_sc")},
                          {"relaxed_return", {WriteKind::RelaxedRmw}, expect::sometimes("_relaxed is unordered")},
                          {"set_after_atomic", {WriteKind::AtomicSetAfterAtomic},
                           expect::sometimes("after_atomic needs a preceding void RMW")},
                          {"xchg", {WriteKind::Xchg}, expect::never("xchg is fully ordered")}});
}

// A failed conditional RMW in a C++ model: MP whose reader takes the flag with a
// cmpxchg_acquire() expecting 0 (it fails on reading 1), and SB with a cmpxchg_relaxed() that
// always fails followed by smp_mb__after_atomic(). The same rule as in litmus tests (herd7
// 7.57): unordered, but in LKMM's RMW set.
enum class FailedKind { MpAcquire, SbAfterAtomic };
struct FailedRmw {
    struct Config {
        FailedKind kind;
    };
    explicit FailedRmw(const Config& c) : cfg(c) {}
    const Config cfg;
    atomic_t x{"x", 0};
    atomic_t y{"y", 0};
    atomic_t a{"a", 1};
    Reg r0{"r0"};
    Reg r1{"r1"};
    void p0() {
        if (cfg.kind == FailedKind::MpAcquire) {
            WRITE_ONCE(x, 1);
            smp_wmb();
            WRITE_ONCE(y, 1);
            return;
        }
        WRITE_ONCE(x, 1);
        cmpxchg_relaxed(a, 0, 2);
        smp_mb__after_atomic();
        r0 = READ_ONCE(y);
    }
    void p1() {
        if (cfg.kind == FailedKind::MpAcquire) {
            r0 = atomic_cmpxchg_acquire(y, 0, 2);
            r1 = READ_ONCE(x);
            return;
        }
        WRITE_ONCE(y, 1);
        cmpxchg_relaxed(a, 0, 2);
        smp_mb__after_atomic();
        r1 = READ_ONCE(x);
    }
    bool bad_outcome() const { return cfg.kind == FailedKind::MpAcquire ? r0 == 1 && r1 == 0 : r0 == 0 && r1 == 0; }
    static constexpr std::array<Thread<FailedRmw>, 2> threads{{{"P0", &FailedRmw::p0}, {"P1", &FailedRmw::p1}}};
};

ModelDef failed_rmw_model() {
    return define<FailedRmw>("FailedRmw", "test", "failed conditional RMWs",
                             {{"mp_acquire", {FailedKind::MpAcquire}, expect::sometimes("a failed cmpxchg_acquire is no acquire")},
                              {"sb_after_atomic", {FailedKind::SbAfterAtomic},
                               expect::sometimes("C++11 mapping").under_lkmm(Verdict::Never, "RMW set")}});
}

}  // namespace

TEST_SUITE("primitives") {
    TEST_CASE("a failed conditional RMW: unordered; under LKMM in the RMW set, tagged as in litmus") {
        const ModelDef m = failed_rmw_model();
        for (const ModelKind model : {ModelKind::Lkmm, ModelKind::Rc11}) {
            CAPTURE(static_cast<int>(model));
            CheckOptions o;
            o.explore.engine = EngineKind::Graph;
            o.explore.model = model;
            o.keep_first_execution = true;
            const Report mp = check(m.variants.at(0), o);
            CHECK(mp.finding == Finding{Verdict::Sometimes});
            const Report sb = check(m.variants.at(1), o);
            CHECK(sb.finding == Finding{model == ModelKind::Lkmm ? Verdict::Never : Verdict::Sometimes});
            CHECK(sb.exploration == Exploration::Exhaustive);
            if (model != ModelKind::Lkmm) continue;
            // P0's cmpxchg_relaxed() in SB always fails: a read tagged once and conditional-rmw
            REQUIRE(sb.first_execution);
            const Event& failed = sb.first_execution->thread(1).at(1);
            CHECK(failed.kind == EventKind::Read);
            CHECK(failed.lkmm == (lkmm::Once | lkmm::ConditionalRmw));
        }
    }

    TEST_CASE("a fully ordered RMW forbids SB's bad outcome; a void RMW does not") {
        const auto rs = run(sb_rmw_model());
        CHECK(by_name(rs, "SB+rmw/void").finding == Finding{Verdict::Sometimes});
        CHECK(by_name(rs, "SB+rmw/fully_ordered").finding == Finding{Verdict::Never});
        CHECK(by_name(rs, "SB+rmw/xchg").finding == Finding{Verdict::Never});
        CHECK(by_name(rs, "SB+rmw/relaxed_return").finding == Finding{Verdict::Sometimes});
        for (const auto& r : rs) CHECK(r.exploration == Exploration::Exhaustive);
    }

    TEST_CASE("smp_mb__after_atomic after a void RMW orders the later load; after atomic_set it does nothing") {
        const auto rs = run(sb_rmw_model());
        CHECK(by_name(rs, "SB+rmw/void_after_atomic").finding == Finding{Verdict::Never});
        CHECK(by_name(rs, "SB+rmw/set_after_atomic").finding == Finding{Verdict::Sometimes});
    }
}
