// SPDX-License-Identifier: MIT
// bare_relacy: the scaling family (scaling.cpp) on bare Relacy, without ordercheck's layer (no
// tagged values, no runtime, no capture, no certification): plain rl::atomic<long> and
// Relacy's own full-search scheduler. Each protocol performs the same Relacy operations in the
// same order as its ordercheck twin, so its iteration count equals ordercheck's interleavings
// with --no-por. Prints one JSON object per variant: iterations, distinct outcomes, seconds.
//
//   bare_relacy grid/3x3 shrinker_passes/t2_k4 iriw4/relaxed
//   bare_relacy --list
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <ostream>
#include <streambuf>
#include <string>

#include <relacy/relacy.hpp>
#undef new
#undef delete

namespace {

/// Distinct outcomes, counted without allocating inside the simulation: a fixed open-addressing
/// set of 64-bit hashes of the final registers and locations.
struct OutcomeSet {
    static constexpr std::size_t capacity = 1u << 16;
    std::uint64_t slots[capacity] = {};
    std::size_t size = 0;
    void clear() {
        std::memset(slots, 0, sizeof slots);
        size = 0;
    }
    void insert(std::uint64_t h) {
        h |= 1;  // 0 marks an empty slot
        for (std::size_t i = h % capacity;; i = (i + 1) % capacity) {
            if (slots[i] == h) return;
            if (slots[i] == 0) {
                slots[i] = h;
                ++size;
                return;
            }
        }
    }
};
OutcomeSet outcomes;
unsigned long long completed = 0;  ///< iterations that reached after()

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull; }

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

class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == EOF ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

template <class Suite>
int run(const char* id) {
    NullBuffer null_buffer;
    std::ostream null_stream(&null_buffer);
    rl::test_params p;
    p.search_type = rl::sched_full;
    p.output_stream = &null_stream;
    p.progress_stream = &null_stream;
    p.collect_history = false;
    outcomes.clear();
    completed = 0;
    rl::ostringstream state;
    const auto t0 = std::chrono::steady_clock::now();
    const rl::test_result_e r =
        rl::run_test<Suite, rl::full_search_scheduler<Suite::params::thread_count>>(p, state, false);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const unsigned long long iterations = completed + (r == rl::test_result_success ? 0 : 1);
    std::printf("{\"id\": \"%s\", \"iterations\": %llu, \"outcomes\": %zu, \"seconds\": %.6f, "
                "\"iterations_per_second\": %.0f, \"result\": \"%s\"}\n",
                id, iterations, outcomes.size, s, static_cast<double>(iterations) / s, rl::test_result_str(r));
    std::fflush(stdout);
    return r == rl::test_result_success ? 0 : 1;
}

const std::map<std::string, std::function<int(const char*)>>& protocols() {
    static const std::map<std::string, std::function<int(const char*)>> m{
        {"grid/2x2", run<Grid<2, 2>>},
        {"grid/2x4", run<Grid<2, 4>>},
        {"grid/2x6", run<Grid<2, 6>>},
        {"grid/3x2", run<Grid<3, 2>>},
        {"grid/3x3", run<Grid<3, 3>>},
        {"grid/3x4", run<Grid<3, 4>>},
        {"grid/4x2", run<Grid<4, 2>>},
        {"shrinker_passes/t2_k2", run<Shrinker<1, 2>>},
        {"shrinker_passes/t2_k4", run<Shrinker<1, 4>>},
        {"shrinker_passes/t2_k8", run<Shrinker<1, 8>>},
        {"shrinker_passes/t3_k2", run<Shrinker<2, 2>>},
        {"shrinker_passes/t4_k1", run<Shrinker<3, 1>>},
        {"shrinker_passes/t4_k2", run<Shrinker<3, 2>>},
        {"iriw4/relaxed", run<Iriw>},
    };
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
