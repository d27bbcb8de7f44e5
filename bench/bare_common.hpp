// SPDX-License-Identifier: MIT
// What every bare-Relacy protocol of bench/bare_relacy shares: the outcome set, the runner that
// explores one protocol with Relacy's own full_search_scheduler and prints its JSON line, and
// the registry entry type. Included (after relacy.hpp) by bare_relacy.cpp only: Relacy's global
// state and its replaced operator new make it a one-translation-unit library.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <ostream>
#include <streambuf>
#include <string>

namespace bare {

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
inline OutcomeSet outcomes;
inline unsigned long long completed = 0;  ///< iterations that reached after()

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    return (h ^ v) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
}

/// Called from a protocol's after(): one completed iteration with these observable values.
inline void record(std::initializer_list<long> values) {
    std::uint64_t h = 0;
    for (long v : values) h = mix(h, static_cast<std::uint64_t>(v));
    outcomes.insert(h);
    ++completed;
}

class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == EOF ? 0 : c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

/// Explores Suite with Relacy's full search and prints one JSON line: iterations (completed ones,
/// plus the failing one if the search stopped on a failure), distinct outcomes, seconds, result.
/// Returns 0 if Relacy's result is `expected` (most protocols: success; a twin of a variant
/// that expects a data race or an assertion failure expects that), 1 otherwise.
template <class Suite>
int run(const char* id, rl::test_result_e expected = rl::test_result_success) {
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
    return r == expected ? 0 : 1;
}

/// A registry entry: runs the protocol under the id it is given.
using Runner = std::function<int(const char*)>;

/// A protocol without configuration.
template <class Suite>
Runner protocol(rl::test_result_e expected = rl::test_result_success) {
    return [expected](const char* id) { return run<Suite>(id, expected); };
}

/// A protocol whose configuration is a static member `cfg` of its suite (Relacy constructs the
/// suite itself, once per iteration): sets it, then runs.
template <class Suite>
Runner twin(typename Suite::Config config, rl::test_result_e expected = rl::test_result_success) {
    return [config, expected](const char* id) {
        Suite::cfg = config;
        return run<Suite>(id, expected);
    };
}

}  // namespace bare
