// SPDX-License-Identifier: MIT
#include "checker/model/kernel.hpp"

#include <string>

namespace oc::kernel {

Work::Work(const char* name, std::function<void()> fn, WorkOptions options, SrcLoc where)
    : name_(name),
      fn_(std::move(fn)),
      options_(options),
      pending_(name, options.queued_at_start ? 1 : 0, where),
      queued_("queued", options.queued_at_start ? 1 : 0, where),
      declared_(where) {
    runtime().add_quiescence_hook(QuiescenceHook{&Work::drain, this});
}

bool Work::schedule(SrcLoc where) {
    // Kernel: test_and_set_bit(WORK_STRUCT_PENDING_BIT) (fully ordered since v6.0), then
    // insert_work() under pool->lock, which the worker takes before running the item.
    PrimitiveScope scope("schedule_work", where);
    // Before 415d83249709 the generic test_and_set_bit() began with
    // `if (READ_ONCE(*p) & mask) return 1;`: no ordering when the bit was already set.
    if (options_.unordered_on_failure && pending_.load(relaxed, where) != 0) return false;
    fence(seq_cst, where);
    const int was_pending = pending_.exchange(1, relaxed, where);
    fence(seq_cst, where);
    if (was_pending != 0) return false;
    queued_.fetch_add(1, release, where);
    return true;
}

void Work::execute_one(SrcLoc where) {
    ++executed_;
    {
        // set_work_pool_and_clear_pending(): smp_wmb(); clear PENDING; smp_mb() (346c09f80459).
        PrimitiveScope scope("process_one_work", where);
        fence(release, where);
        pending_.store(0, relaxed, where);
        if (!options_.no_mb_after_clear) fence(seq_cst, where);
    }
    fn_();
}

void Work::run_worker(unsigned checks, SrcLoc where) {
    worker_thread_ = static_cast<int>(runtime().engine().current_thread());
    for (unsigned i = 0; i < checks; ++i) {
        int queued = 0;
        {
            PrimitiveScope scope("worker_dequeue", where);
            queued = queued_.load(acquire, where);
        }
        if (queued > executed_) execute_one(where);
    }
}

void Work::drain(void* self) {
    auto& w = *static_cast<Work*>(self);
    if (w.worker_thread_ < 0) {
        // No worker ran: nothing can have been executed; attribute quiescence work to thread 0.
        w.worker_thread_ = 0;
    }
    runtime().set_quiescence_thread(static_cast<unsigned>(w.worker_thread_));
    for (;;) {
        int queued = 0;
        {
            PrimitiveScope scope("worker_dequeue", w.declared_);
            queued = w.queued_.load(acquire, w.declared_);
        }
        if (queued <= w.executed_) break;
        ++w.executed_at_quiescence_;
        w.execute_one(w.declared_);
    }
}

}  // namespace oc::kernel
