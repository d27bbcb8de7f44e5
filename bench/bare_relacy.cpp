// SPDX-License-Identifier: MIT
// bare_relacy: protocols on bare Relacy, without ordercheck's layer (no tagged values, no
// runtime, no capture, no certification): plain rl::atomic<long> and rl::var<long>, and
// Relacy's own full-search scheduler. Two sets, each protocol performing the same Relacy
// operations in the same order as its ordercheck twin, so that its iteration count equals
// ordercheck's interleavings with --no-por:
//  - the scaling family (bench/scaling.cpp), below;
//  - the catalogue's variants (models/litmus, models/seeds), in bare_catalogue.hpp, under the
//    same ids as ordercheck's (e.g. SB/fenced, shrinker_bit/merged).
// Prints one JSON object per protocol: iterations, distinct outcomes, seconds, Relacy's result.
// Exit status 0 if every result is the expected one (a failure only for the catalogue variants
// that expect an engine failure), 1 otherwise, 2 on a usage error.
//
//   bare_relacy grid/3x3 shrinker_passes/t2_k4 iriw4/relaxed
//   bare_relacy SB/relaxed SB/rel_acq SB/fenced SB/one_fence SB/sc_vs_fence
//   bare_relacy --list
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <ostream>
#include <streambuf>
#include <string>

#include <relacy/relacy.hpp>
#undef new
#undef delete

#include "bench/bare_common.hpp"
#include "bench/bare_catalogue.hpp"

namespace {

using bare::outcomes;
using bare::completed;
using bare::mix;
using bare::protocol;

/// grid TxK: thread i, for k < K: k even: x_i = k/2 + 1; k odd: r = x_{i+1 mod T}; all relaxed.
template <unsigned T, unsigned K>
struct Grid : rl::test_suite<Grid<T, K>, T> {
    rl::atomic<long> x[T];
    long first[T];
    void before() {
        for (unsigned i = 0; i < T; ++i) {
            x[i].store(0, rl::mo_relaxed, $);
            first[i] = 0;
        }
    }
    void thread(unsigned i) {
        bool read = false;
        for (unsigned k = 0; k < K; ++k) {
            if (k % 2 == 0) {
                x[i].store(static_cast<long>(k / 2 + 1), rl::mo_relaxed, $);
            } else {
                const long v = x[(i + 1) % T].load(rl::mo_relaxed, $);
                if (!read) first[i] = v;
                read = true;
            }
        }
    }
    void after() {
        std::uint64_t h = 0;
        for (unsigned i = 0; i < T; ++i) h = mix(h, static_cast<std::uint64_t>(first[i]));
        outcomes.insert(h);
        ++completed;
    }
};

/// shrinker_passes: thread 0 adds (nr_items = 1; F_sc; map |= 1); threads 1..R run K passes of
/// (bit set and nr_items 0: map &= ~1; F_sc; nr_items != 0: map |= 1).
template <unsigned R, unsigned K>
struct Shrinker : rl::test_suite<Shrinker<R, K>, R + 1> {
    rl::atomic<long> nr_items, map;
    void before() {
        nr_items.store(0, rl::mo_relaxed, $);
        map.store(1, rl::mo_relaxed, $);
    }
    void thread(unsigned i) {
        if (i == 0) {
            nr_items.store(1, rl::mo_relaxed, $);
            rl::atomic_thread_fence(rl::mo_seq_cst, $);
            map.fetch_or(1, rl::mo_relaxed, $);
            return;
        }
        for (unsigned pass = 0; pass < K; ++pass) {
            if ((map.load(rl::mo_relaxed, $) & 1) == 0) continue;
            if (nr_items.load(rl::mo_relaxed, $) != 0) continue;
            map.fetch_and(~1L, rl::mo_relaxed, $);
            rl::atomic_thread_fence(rl::mo_seq_cst, $);
            if (nr_items.load(rl::mo_relaxed, $) != 0) map.fetch_or(1, rl::mo_relaxed, $);
        }
    }
    void after() {
        const long n = nr_items.load(rl::mo_relaxed, $), m = map.load(rl::mo_relaxed, $);
        outcomes.insert(mix(mix(0, static_cast<std::uint64_t>(n)), static_cast<std::uint64_t>(m)));
        ++completed;
        RL_ASSERT(!(n == 1 && (m & 1) == 0));  // P1
    }
};

/// IRIW, relaxed.
struct Iriw : rl::test_suite<Iriw, 4> {
    rl::atomic<long> x, y;
    long r[4];
    void before() {
        x.store(0, rl::mo_relaxed, $);
        y.store(0, rl::mo_relaxed, $);
        for (long& v : r) v = 0;
    }
    void thread(unsigned i) {
        switch (i) {
        case 0: x.store(1, rl::mo_relaxed, $); break;
        case 1: y.store(1, rl::mo_relaxed, $); break;
        case 2:
            r[0] = x.load(rl::mo_relaxed, $);
            r[1] = y.load(rl::mo_relaxed, $);
            break;
        default:
            r[2] = y.load(rl::mo_relaxed, $);
            r[3] = x.load(rl::mo_relaxed, $);
            break;
        }
    }
    void after() {
        std::uint64_t h = 0;
        for (long v : r) h = mix(h, static_cast<std::uint64_t>(v));
        outcomes.insert(h);
        ++completed;
    }
};

const std::map<std::string, bare::Runner>& protocols() {
    static const std::map<std::string, bare::Runner> m = [] {
        std::map<std::string, bare::Runner> scaling{
            {"grid/2x2", protocol<Grid<2, 2>>()},
            {"grid/2x4", protocol<Grid<2, 4>>()},
            {"grid/2x6", protocol<Grid<2, 6>>()},
            {"grid/3x2", protocol<Grid<3, 2>>()},
            {"grid/3x3", protocol<Grid<3, 3>>()},
            {"grid/3x4", protocol<Grid<3, 4>>()},
            {"grid/4x2", protocol<Grid<4, 2>>()},
            {"shrinker_passes/t2_k2", protocol<Shrinker<1, 2>>()},
            {"shrinker_passes/t2_k4", protocol<Shrinker<1, 4>>()},
            {"shrinker_passes/t2_k8", protocol<Shrinker<1, 8>>()},
            {"shrinker_passes/t3_k2", protocol<Shrinker<2, 2>>()},
            {"shrinker_passes/t4_k1", protocol<Shrinker<3, 1>>()},
            {"shrinker_passes/t4_k2", protocol<Shrinker<3, 2>>()},
            {"iriw4/relaxed", protocol<Iriw>()},
        };
        scaling.merge(bare::catalogue_twins());
        return scaling;
    }();
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bare_relacy ID... | --list\n");
        return 2;
    }
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--list") == 0) {
            for (const auto& [id, fn] : protocols()) std::printf("%s\n", id.c_str());
            continue;
        }
        const auto it = protocols().find(argv[i]);
        if (it == protocols().end()) {
            std::fprintf(stderr, "bare_relacy: unknown protocol '%s' (--list)\n", argv[i]);
            return 2;
        }
        status |= it->second(argv[i]);
    }
    return status;
}
