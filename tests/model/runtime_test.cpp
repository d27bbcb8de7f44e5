// SPDX-License-Identifier: MIT
// Capture (exact rf and co), engine failures, locks, work items.
#include <doctest/doctest.h>

#include "checker/driver/check.hpp"
#include "checker/model/kernel.hpp"
#include "checker/model/model.hpp"

using namespace oc;
using namespace oc::kernel;

namespace {

Report run_one(const ModelDef& m, std::size_t i = 0) { return check(m.variants.at(i), CheckOptions{}); }

// Two writes of the same value: a read must still name the exact one it read from.
struct SameValue {
    struct Config {};
    explicit SameValue(const Config&) {}
    Atomic<int> x{"x", 1};  // the init write stores 1 too
    Reg r{"1:r"};
    void p0() { x.store(1, relaxed); }
    void p1() { r = x.load(relaxed); }
    bool bad_outcome() const { return false; }
    static constexpr std::array<Thread<SameValue>, 2> threads{{{"P0", &SameValue::p0}, {"P1", &SameValue::p1}}};
};

// Unsynchronised plain accesses: a data race.
struct Racy {
    struct Config {
        bool locked;
    };
    explicit Racy(const Config& c) : cfg(c) {}
    const Config cfg;
    spinlock_t lock{"lock"};
    Plain<int> counter{"counter", 0, observed};
    void inc() {
        if (cfg.locked) spin_lock(lock);
        counter.write(counter.read() + 1);
        if (cfg.locked) spin_unlock(lock);
    }
    bool bad_outcome() const { return counter.final() != 2; }
    static constexpr std::array<Thread<Racy>, 2> threads{{{"A", &Racy::inc}, {"B", &Racy::inc}}};
};

struct Asserting {
    struct Config {};
    explicit Asserting(const Config&) {}
    Atomic<int> x{"x", 0};
    void p0() { x.store(1, relaxed); }
    void p1() { require(x.load(relaxed) == 0, "x must still be 0"); }
    bool bad_outcome() const { return false; }
    static constexpr std::array<Thread<Asserting>, 2> threads{{{"P0", &Asserting::p0}, {"P1", &Asserting::p1}}};
};

// A work item queued by one thread; its worker may run it concurrently or not at all before
// quiescence. Either way it runs exactly once and sees the data written before queueing.
struct Queued {
    struct Config {
        unsigned worker_checks;
    };
    explicit Queued(const Config& c) : cfg(c) {}
    const Config cfg;
    Plain<int> data{"data", 0};
    Reg seen{"seen", -1};
    Work work{"work", [this] { seen = data.read(); }};
    Metric queued{"queued"};
    Metric at_quiescence{"at_quiescence"};
    void producer() {
        data.write(42);
        if (schedule_work(work)) ++queued;
    }
    void worker() { run_worker(work, cfg.worker_checks); }
    bool bad_outcome() const { return seen != 42 || work.executions() != 1; }
    static constexpr std::array<Thread<Queued>, 2> threads{{{"producer", &Queued::producer}, {"kworker", &Queued::worker}}};
};

}  // namespace

TEST_SUITE("runtime") {
    TEST_CASE("capture: reads name the exact write even when values repeat") {
        const ModelDef m = define<SameValue>("same", "test", "", {{"v", {}, expect::never("")}});
        bool saw_init = false, saw_p0 = false, saw_stale = false;
        const ExecutionSink sink = [&](const ExecutionGraph& g, const FinalState&) {
            const Event& read = g.thread(EventId::of_model_thread(1)).at(0);
            REQUIRE(read.reads_from);
            CHECK(read.read_value == 1);
            if (read.reads_from->thread == EventId::init_thread) saw_init = true;
            // The read ran after P0's write yet took the older (init) write: same value, other writer.
            const Event& write = g.thread(EventId::of_model_thread(0)).at(0);
            if (write.step < read.step && read.reads_from->thread == EventId::init_thread) saw_stale = true;
            if (read.reads_from->thread == EventId::of_model_thread(0)) saw_p0 = true;
            CHECK(g.event(*read.reads_from).written_value == 1);
            // co of x: the init write, then P0's write
            CHECK(g.co(0).size() == 2);
            CHECK(g.co(0).front().thread == EventId::init_thread);
        };
        explore(m.variants[0], ExploreOptions{}, sink);
        CHECK(saw_init);
        CHECK(saw_p0);
        CHECK(saw_stale);
    }

    TEST_CASE("plain accesses without synchronisation are a data race; under a spinlock they are not") {
        const ModelDef m = define<Racy>("racy", "test", "",
                                        {{"unlocked", {false}, expect::failure(EngineFailure::DataRace, "")},
                                         {"locked", {true}, expect::never("")}});
        const Report racy = run_one(m, 0);
        CHECK(racy.finding == Finding{EngineFailure::DataRace});
        CHECK(racy.status == Status::Pass);
        CHECK(racy.failure_detail.find("counter") != std::string::npos);
        REQUIRE(racy.witness);
        const Report locked = run_one(m, 1);
        CHECK(locked.finding == Finding{Verdict::Never});
        CHECK(locked.status == Status::Pass);
    }

    TEST_CASE("require() ends the execution as AssertFailed with its message") {
        const ModelDef m = define<Asserting>("assert", "test", "",
                                             {{"v", {}, expect::failure(EngineFailure::AssertFailed, "")}});
        const Report r = run_one(m);
        CHECK(r.finding == Finding{EngineFailure::AssertFailed});
        CHECK(r.failure_detail.find("x must still be 0") != std::string::npos);
    }

    TEST_CASE("work: queued work runs exactly once, concurrently or at quiescence") {
        for (unsigned checks : {0u, 1u, 2u}) {
            const ModelDef m = define<Queued>("queued", "test", "", {{"v", {checks}, expect::never("")}});
            const Report r = run_one(m);
            CAPTURE(checks);
            CHECK(r.finding == Finding{Verdict::Never});
            REQUIRE(r.metrics.size() == 2);
            CHECK(r.metrics[0].name == std::string("queued"));
            CHECK(r.metrics[0].min == 1);
            CHECK(r.metrics[0].max == 1);
        }
    }
}
