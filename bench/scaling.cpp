// SPDX-License-Identifier: MIT
// The scaling family (see scaling.hpp). Each protocol here has a twin in bare_relacy.cpp that
// performs the same Relacy operations in the same order, so that bare Relacy's iteration count
// equals ordercheck's interleaving count without reduction (docs/performance.md).
#include "bench/scaling.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "checker/model/primitives.hpp"

namespace oc::bench {
namespace {

constexpr std::array<const char*, 6> thread_names{"P0", "P1", "P2", "P3", "P4", "P5"};
constexpr std::array<const char*, 6> location_names{"x0", "x1", "x2", "x3", "x4", "x5"};
constexpr std::array<const char*, 6> first_read_names{"0:r", "1:r", "2:r", "3:r", "4:r", "5:r"};

/// Thread i: for k < K: if k is even, x_i = k/2 + 1 (relaxed) else r = x_{i+1 mod T} (relaxed).
/// Observables: each thread's first read. Bad outcome: every first read returns 0 (SB for T=2,
/// K=2; its T-thread ring otherwise), which relaxed accesses allow.
template <unsigned T, unsigned K>
struct Grid {
    struct Config {};
    explicit Grid(const Config&) {
        for (unsigned i = 0; i < T; ++i) x[i].emplace(location_names[i], 0);
        for (unsigned i = 0; i < T; ++i) first[i].emplace(first_read_names[i]);
    }
    std::array<std::optional<Atomic<int>>, T> x;
    std::array<std::optional<Reg>, T> first;

    void run(unsigned i) {
        bool read = false;
        for (unsigned k = 0; k < K; ++k) {
            if (k % 2 == 0) {
                x[i]->store(static_cast<int>(k / 2 + 1), relaxed);
            } else {
                const int v = x[(i + 1) % T]->load(relaxed);
                if (!read) *first[i] = v;
                read = true;
            }
        }
    }
    template <unsigned I>
    void thread() { run(I); }
    bool bad_outcome() const {
        for (const auto& r : first)
            if (r->value() != 0) return false;
        return true;
    }
    template <std::size_t... I>
    static constexpr std::array<Thread<Grid>, T> make(std::index_sequence<I...>) {
        return {{{thread_names[I], &Grid::template thread<I>}...}};
    }
    static constexpr std::array<Thread<Grid>, T> threads = make(std::make_index_sequence<T>{});
};

/// The shrinker-bit protocol (models/seeds/shrinker_bit.cpp, f90280d6b7) with C++-level
/// operations: ADD writes nr_items = 1, F_sc (smp_mb__before_atomic), sets the bit (relaxed
/// fetch_or); each of R reclaimers runs K passes: if the bit is set and nr_items reads 0, clear
/// the bit (relaxed fetch_and), F_sc (smp_mb__after_atomic), and set it again if nr_items now
/// reads non-zero. Bad outcome: the list keeps its object and ends with its bit clear (P1);
/// the barriers forbid it.
template <unsigned R, unsigned K>
struct ShrinkerPasses {
    struct Config {};
    explicit ShrinkerPasses(const Config&) {}
    Atomic<long> nr_items{"nr_items", 0, observed};
    Atomic<long> map{"map", 1, observed};  // a stale bit

    void add() {
        nr_items.store(1, relaxed);
        fence(seq_cst);
        map.fetch_or(1, relaxed);
    }
    void reclaim() {
        for (unsigned pass = 0; pass < K; ++pass) {
            if ((map.load(relaxed) & 1) == 0) continue;
            if (nr_items.load(relaxed) != 0) continue;
            map.fetch_and(~1L, relaxed);
            fence(seq_cst);
            if (nr_items.load(relaxed) != 0) map.fetch_or(1, relaxed);
        }
    }
    template <unsigned I>
    void thread() {
        if constexpr (I == 0)
            add();
        else
            reclaim();
    }
    bool bad_outcome() const { return nr_items.final() == 1 && (map.final() & 1) == 0; }
    template <std::size_t... I>
    static constexpr std::array<Thread<ShrinkerPasses>, R + 1> make(std::index_sequence<I...>) {
        return {{{I == 0 ? "ADD" : thread_names[I], &ShrinkerPasses::template thread<I>}...}};
    }
    static constexpr std::array<Thread<ShrinkerPasses>, R + 1> threads = make(std::make_index_sequence<R + 1>{});
};

/// IRIW, relaxed: W x || W y || R x; R y || R y; R x. Bad outcome: the readers disagree.
struct Iriw4 {
    struct Config {};
    explicit Iriw4(const Config&) {}
    Atomic<int> x{"x", 0};
    Atomic<int> y{"y", 0};
    Reg r0{"2:r0"}, r1{"2:r1"}, r2{"3:r2"}, r3{"3:r3"};
    void p0() { x.store(1, relaxed); }
    void p1() { y.store(1, relaxed); }
    void p2() {
        r0 = x.load(relaxed);
        r1 = y.load(relaxed);
    }
    void p3() {
        r2 = y.load(relaxed);
        r3 = x.load(relaxed);
    }
    bool bad_outcome() const { return r0 == 1 && r1 == 0 && r2 == 1 && r3 == 0; }
    static constexpr std::array<Thread<Iriw4>, 4> threads{
        {{"P0", &Iriw4::p0}, {"P1", &Iriw4::p1}, {"P2", &Iriw4::p2}, {"P3", &Iriw4::p3}}};
};

constexpr const char* grid_why =
    "Relaxed accesses order nothing between a thread's store and its later load of the next thread's location: "
    "every first load may read the initial value (RC11 allows it).";
constexpr const char* shrinker_why =
    "F_sc between ADD's write of nr_items and its set_bit, and between a reclaimer's clear_bit and its re-read "
    "of nr_items, forbid the R shape: either the re-read sees the object or the set_bit is co-after the clear.";

template <class M>
void append(ModelDef& into, const char* name, Expectation e, const char* summary) {
    ModelDef d = define<M>(into.name.c_str(), into.family.c_str(), "", {{name, typename M::Config{}, e, summary}});
    into.variants.push_back(std::move(d.variants.front()));
}

}  // namespace

std::vector<ModelDef> scaling_models() {
    ModelDef grid{"grid", "scaling", "T threads x K operations: thread i alternates W x_i and R x_{i+1} (relaxed)", {}};
    append<Grid<2, 2>>(grid, "2x2", expect::sometimes(grid_why), "SB");
    append<Grid<2, 4>>(grid, "2x4", expect::sometimes(grid_why), "2 threads x 4 operations");
    append<Grid<2, 6>>(grid, "2x6", expect::sometimes(grid_why), "2 threads x 6 operations");
    append<Grid<3, 2>>(grid, "3x2", expect::sometimes(grid_why), "SB ring of 3");
    append<Grid<3, 3>>(grid, "3x3", expect::sometimes(grid_why), "3 threads x 3 operations");
    append<Grid<3, 4>>(grid, "3x4", expect::sometimes(grid_why), "3 threads x 4 operations");
    append<Grid<4, 2>>(grid, "4x2", expect::sometimes(grid_why), "SB ring of 4");

    ModelDef shrinker{"shrinker_passes", "scaling",
                      "the shrinker-bit protocol with C++-level operations: 1 adder, R reclaimers, K passes each", {}};
    append<ShrinkerPasses<1, 2>>(shrinker, "t2_k2", expect::never(shrinker_why), "1 reclaimer, 2 passes");
    append<ShrinkerPasses<1, 4>>(shrinker, "t2_k4", expect::never(shrinker_why), "1 reclaimer, 4 passes");
    append<ShrinkerPasses<1, 8>>(shrinker, "t2_k8", expect::never(shrinker_why), "1 reclaimer, 8 passes");
    append<ShrinkerPasses<2, 2>>(shrinker, "t3_k2", expect::never(shrinker_why), "2 reclaimers, 2 passes");
    append<ShrinkerPasses<3, 1>>(shrinker, "t4_k1", expect::never(shrinker_why), "3 reclaimers, 1 pass");
    append<ShrinkerPasses<3, 2>>(shrinker, "t4_k2", expect::never(shrinker_why), "3 reclaimers, 2 passes");

    ModelDef iriw{"iriw4", "scaling", "IRIW with relaxed accesses", {}};
    append<Iriw4>(iriw, "relaxed",
                  expect::sometimes("Relaxed reads are not ordered with each other: each reader may read one "
                                    "location's write and the other's initial value (RC11 allows it)."),
                  "all accesses relaxed");
    return {grid, shrinker, iriw};
}

}  // namespace oc::bench
