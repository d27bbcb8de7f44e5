// SPDX-License-Identifier: MIT
// IRIW (independent reads of independent writes): two writers, two readers reading the two
// locations in opposite orders. Bad outcome: the readers disagree on the order of the writes
// (herd: exists (2:r0=1 /\ 2:r1=0 /\ 3:r2=1 /\ 3:r3=0)).
// No fenced variant: with F_sc between the reads of both readers (forbidden by RC11 and C++20) the
// full search runs 830,354 executions, about 1 s, against 120,960 for the forms below; see
// docs/limitations.md.
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct Iriw {
    struct Config {
        MemoryOrder write = relaxed;
        MemoryOrder read = relaxed;
    };
    explicit Iriw(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"2:r0"};
    Reg r1{"2:r1"};
    Reg r2{"3:r2"};
    Reg r3{"3:r3"};

    void p0() { x.store(1, cfg.write); }
    void p1() { y.store(1, cfg.write); }
    void p2() {
        r0 = x.load(cfg.read);
        r1 = y.load(cfg.read);
    }
    void p3() {
        r2 = y.load(cfg.read);
        r3 = x.load(cfg.read);
    }
    bool bad_outcome() const { return r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0; }
    static constexpr std::array<Thread<Iriw>, 4> threads{
        {{"P0", &Iriw::p0}, {"P1", &Iriw::p1}, {"P2", &Iriw::p2}, {"P3", &Iriw::p3}}};
};

}  // namespace

ModelDef iriw() {
    using C = Iriw::Config;
    return define<Iriw>("IRIW", "litmus",
                        "independent reads of independent writes: W x || W y || R x; R y || R y; R x", {
        {"relaxed", C{},
         expect::sometimes("Relaxed reads are not ordered with each other: each reader may read one location's "
                           "write and the other's initial value (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire},
         expect::sometimes("Release/acquire is not multi-copy atomic: W x ->sw R x ->sb R y only gives W x "
                           "hb-before P2's R y, which may still read y's initial value (fr to W y); nothing "
                           "relates the two writes, so neither coherence nor any other axiom is violated."),
         "release writes, acquire reads"},
    });
}

}  // namespace oc::models
