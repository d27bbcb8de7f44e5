// SPDX-License-Identifier: MIT
// A model of one's own protocol, built out of tree against an installed ordercheck: the whole
// ordercheck command line over this file's models (docs/writing-models.md, "Your own models,
// out of tree").
//
// The protocol, a one-slot mailbox: the producer fills the slot (mbox.msg), then raises
// mbox.ready; the consumer reads ready and then the slot. Bad outcome: the consumer sees ready
// raised but reads the slot as it was before the producer filled it.
//
// Abstracted away: the consumer reads ready once instead of polling it (a poll loop only adds
// executions in which it is still waiting; the bad outcome needs just the read that finds ready
// raised), and the slot is one int (a longer message is more writes ordered the same way).
#include <array>
#include <vector>

#include "cli/commands.hpp"  // ORDERCHECK_MAIN
#include "checker/model/kernel.hpp"  // WRITE_ONCE, READ_ONCE, smp_store_release, smp_load_acquire
#include "checker/model/model.hpp"   // define, expect, Thread

namespace mailbox {
namespace {

using namespace oc;
using namespace oc::kernel;

struct Mailbox {
    struct Config {  // what differs between the variants
        bool release_acquire = false;  ///< publish with smp_store_release, read with smp_load_acquire
    };
    explicit Mailbox(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> msg{"msg", 0};      // the slot
    Atomic<int> ready{"ready", 0};  // the flag
    Reg seen{"consumer:ready"};     // what the consumer read: the outcome
    Reg got{"consumer:msg"};

    void producer() {
        WRITE_ONCE(msg, 42);
        if (cfg.release_acquire)
            smp_store_release(ready, 1);
        else
            WRITE_ONCE(ready, 1);
    }
    void consumer() {
        seen = cfg.release_acquire ? smp_load_acquire(ready) : READ_ONCE(ready);
        got = READ_ONCE(msg);
    }

    bool bad_outcome() const { return seen == 1 && got == 0; }
    static constexpr std::array<Thread<Mailbox>, 2> threads{
        {{"producer", &Mailbox::producer}, {"consumer", &Mailbox::consumer}}};
};

}  // namespace

/// The mailbox model and its two variants.
oc::ModelDef model() {
    using C = Mailbox::Config;
    return oc::define<Mailbox>("mailbox", "example", "one-slot mailbox: W msg; W ready || R ready; R msg", {
        {"release_acquire", C{true},
         oc::expect::never(
             "The consumer's acquire read of ready reading the producer's release write is an sw edge, so "
             "W msg ->sb W ready ->sw R ready ->sb R msg makes W msg hb-before R msg. R msg reading the initial "
             "value would be fr-before W msg, and coherence (hb;eco irreflexive) forbids W msg ->hb R msg ->fr "
             "W msg. LKMM (the default for this kernel-primitive model) forbids it too: R msg ->fre W msg "
             "->po-rel W ready ->rfe R ready is prop and internal, so R msg ->hb R ready, and R ready ->acq-po "
             "R msg closes an hb cycle (MP+pooncerelease+poacquireonce: Never)."),
         "smp_store_release of ready, smp_load_acquire of ready"},
        {"once", C{false},
         oc::expect::sometimes(
             "WRITE_ONCE and READ_ONCE are relaxed accesses: a relaxed read of a relaxed write makes no sw "
             "edge, so nothing makes W msg hb-before R msg, and R msg may read the initial value while R ready "
             "reads W ready (RC11 allows it; so does LKMM, which orders neither the two writes nor the two "
             "reads)."),
         "WRITE_ONCE of ready, READ_ONCE of ready"},
    });
}

}  // namespace mailbox

/// Every model of this program (here one), in the order `list` and `check --all` show them.
std::vector<oc::ModelDef> my_models() { return {mailbox::model()}; }

ORDERCHECK_MAIN(my_models)
