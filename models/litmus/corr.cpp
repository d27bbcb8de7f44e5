// SPDX-License-Identifier: MIT
// CoRR (read-read coherence): P0 writes x; P1 reads x twice. Bad outcome: the second read sees a
// write coherence-before the one the first read saw (herd: exists (1:r0=1 /\ 1:r1=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct CoRR {
    struct Config {
        bool second_write = false;  ///< P0 writes x=1 then x=2 (a read one store back is possible)
    };
    explicit CoRR(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Reg r0{"1:r0"};
    Reg r1{"1:r1"};

    void p0() {
        x.store(1, relaxed);
        if (cfg.second_write) x.store(2, relaxed);
    }
    void p1() {
        r0 = x.load(relaxed);
        r1 = x.load(relaxed);
    }
    // P0's values grow along sb, hence along mo: a smaller second value is an mo-earlier write.
    bool bad_outcome() const { return r1 < r0; }
    static constexpr std::array<Thread<CoRR>, 2> threads{{{"P0", &CoRR::p0}, {"P1", &CoRR::p1}}};
};

}  // namespace

ModelDef corr() {
    using C = CoRR::Config;
    return define<CoRR>("CoRR", "litmus", "read-read coherence: W x || R x; R x", {
        {"relaxed", C{},
         expect::never("The first read reads W x=1 and the second the initial value: R x ->sb R x ->fr W x ->rf "
                       "R x is an hb;eco cycle (coherence), whatever the memory orders."),
         "relaxed accesses, one write"},
        {"two_writes", C{true},
         expect::never("A smaller second value means the second read reads an mo-earlier write than the first: "
                       "first R ->sb second R ->fr W (the write the first read read) ->rf first R is an hb;eco "
                       "cycle (coherence). The outcomes r0=2,r1=1 and r0=1,r1=0 need a read only one store back, "
                       "which Relacy explores; r0=2,r1=0 would need two."),
         "relaxed accesses; P0 writes x=1 then x=2"},
    });
}

}  // namespace oc::models
