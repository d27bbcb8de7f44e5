// SPDX-License-Identifier: MIT
// Work items (include/linux/workqueue.h): struct Work with its PENDING bit, schedule_work() and
// the worker thread's body, run_worker(); the bodies are in checker/model/kernel.cpp. Part of
// checker/model/kernel.hpp; the mapping is in docs/primitives.md.
#pragma once

#include <functional>

#include "checker/model/kernel_types.hpp"

namespace oc::kernel {

#define OC_HERE SrcLoc where = SrcLoc::current()

// ---- workqueue -------------------------------------------------------------------------------

/// How a work item starts, and the two historical workqueue bugs a model can switch on.
struct WorkOptions {
    /// PENDING set and one execution queued before the model starts (the worker thread runs it
    /// when its run_worker() looks at the queue).
    bool queued_at_start = false;
    /// Mutant: schedule_work() on a pre-v6.0 generic test_and_set_bit(), which returned early,
    /// with no barrier, when a relaxed read found the bit set (fixed by 415d83249709).
    bool unordered_on_failure = false;
    /// Mutant: the worker clears PENDING without the smp_mb() that follows it
    /// (the "ghost PENDING" fixed by 346c09f80459).
    bool no_mb_after_clear = false;
};

/// A work item with its PENDING bit. schedule_work() claims PENDING (fully ordered xchg) and, on
/// 0->1, queues one execution. One worker thread per item (run_worker) runs queued executions:
/// each clears PENDING (F_rel; store 0; F_sc) and then runs the function. Executions still
/// queued when every thread has finished run at quiescence, so liveness can be checked at the end.
class Work {
public:
    Work(const char* name, std::function<void()> fn, WorkOptions options = {}, SrcLoc where = SrcLoc::current());
    Work(const Work&) = delete;
    Work& operator=(const Work&) = delete;

    /// schedule_work(): true iff this call claimed PENDING and queued an execution.
    bool schedule(SrcLoc where);
    /// The worker thread's body: `checks` times, run one queued execution if there is one.
    void run_worker(unsigned checks, SrcLoc where);
    /// Executions run so far (by the worker thread or at quiescence).
    int executions() const { return executed_; }
    /// Executions run at quiescence.
    int executions_at_quiescence() const { return executed_at_quiescence_; }
    const char* name() const { return name_; }

private:
    void execute_one(SrcLoc where);
    static void drain(void* self);

    const char* name_;
    std::function<void()> fn_;
    WorkOptions options_;
    Atomic<int> pending_;
    Atomic<int> queued_;        // executions queued so far (the worker pool's queue, as a count)
    int executed_ = 0;          // worker-local
    int executed_at_quiescence_ = 0;
    int worker_thread_ = -1;
    SrcLoc declared_;
};
inline bool schedule_work(Work& w, OC_HERE) { return w.schedule(where); }
/// The body of a work item's worker thread: up to `checks` looks at its queue.
inline void run_worker(Work& w, unsigned checks, OC_HERE) { w.run_worker(checks, where); }

#undef OC_HERE
}  // namespace oc::kernel
