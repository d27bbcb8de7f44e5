// SPDX-License-Identifier: MIT
// R: P0 writes x, then y; P1 writes y, then reads x. Bad outcome: P1's write of y wins
// coherence, yet P1 does not see x (herd: exists (y=2 /\ 1:r0=0)).
#include "checker/model/primitives.hpp"
#include "checker/model/model.hpp"
#include "models/catalogue.hpp"

namespace oc::models {
namespace {

struct R {
    struct Config {
        MemoryOrder y_write = relaxed;  ///< both writes of y
        MemoryOrder x_read = relaxed;
        bool fence0 = false;  ///< F_sc between P0's writes
        bool fence1 = false;  ///< F_sc between P1's write and read
    };
    explicit R(const Config& c) : cfg(c) {}
    const Config cfg;

    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0, observed};
    Reg r0{"1:r0"};

    void p0() {
        x.store(1, relaxed);
        if (cfg.fence0) fence(seq_cst);
        y.store(1, cfg.y_write);
    }
    void p1() {
        y.store(2, cfg.y_write);
        if (cfg.fence1) fence(seq_cst);
        r0 = x.load(cfg.x_read);
    }
    bool bad_outcome() const { return y.final() == 2 && r0 == 0; }
    static constexpr std::array<Thread<R>, 2> threads{{{"P0", &R::p0}, {"P1", &R::p1}}};
};

}  // namespace

ModelDef r() {
    using C = R::Config;
    return define<R>("R", "litmus", "W x; W y || W y; R x, with P1's write of y last in coherence", {
        {"relaxed", C{},
         expect::sometimes("W y=1 ->mo W y=2 is not a synchronisation edge, so nothing makes W x hb-before "
                           "P1's read, which may read the initial x (RC11 allows it)."),
         "all accesses relaxed"},
        {"rel_acq", C{release, acquire, false, false},
         expect::sometimes("The acquire read of x reads the initial value, and the release writes of y are "
                           "only mo-ordered (mo is not sw): no sw edge exists, hb is just sb, and the outcome "
                           "violates no RC11 axiom."),
         "release writes of y, acquire read of x"},
        {"fenced", C{relaxed, relaxed, true, true},
         expect::never("F0 ->sb W y=1 ->mo W y=2 ->sb F1 puts F0 before F1 in psc ([F_sc];hb;eco;hb;[F_sc]), "
                       "and F1 ->sb R x ->fr W x ->sb F0 puts F1 before F0: a psc cycle (SC axiom)."),
         "relaxed accesses; F_sc in both threads"},
        {"fence_one_side", C{relaxed, relaxed, false, true},
         expect::sometimes("With F_sc in P1 only there is a single SC fence and no psc cycle; P0's relaxed "
                           "writes to x and y stay unordered for P1."),
         "F_sc in P1 only"},
    });
}

}  // namespace oc::models
