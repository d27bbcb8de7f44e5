// SPDX-License-Identifier: MIT
// BitRel (checker/memory_model/bitrel.hpp) against the definitions, on random relations of
// every width the engine meets: composition, transitive closure and acyclicity, whose one-word
// rows (up to 64 events) take their own paths.
#include <doctest/doctest.h>

#include <cstddef>
#include <random>
#include <vector>

#include "checker/memory_model/bitrel.hpp"

using oc::BitRel;

namespace {

using Matrix = std::vector<std::vector<bool>>;

Matrix matrix(const BitRel& r) {
    Matrix m(r.size(), std::vector<bool>(r.size()));
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = 0; j < r.size(); ++j) m[i][j] = r.test(i, j);
    return m;
}

/// A random relation over n events with about `per_row` edges from each.
BitRel random_rel(std::size_t n, double per_row, std::mt19937& rng, bool forward_only) {
    BitRel r(n);
    std::bernoulli_distribution edge(n == 0 ? 0.0 : per_row / static_cast<double>(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if ((!forward_only || i < j) && edge(rng)) r.set(i, j);
    return r;
}

Matrix compose(const Matrix& a, const Matrix& b) {
    const std::size_t n = a.size();
    Matrix c(n, std::vector<bool>(n));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k)
            if (a[i][k])
                for (std::size_t j = 0; j < n; ++j) c[i][j] = c[i][j] || b[k][j];
    return c;
}

/// i reaches j by one or more edges (a search from each node).
Matrix reach(const Matrix& a) {
    const std::size_t n = a.size();
    Matrix c(n, std::vector<bool>(n));
    for (std::size_t s = 0; s < n; ++s) {
        std::vector<std::size_t> stack;
        for (std::size_t j = 0; j < n; ++j)
            if (a[s][j] && !c[s][j]) {
                c[s][j] = true;
                stack.push_back(j);
            }
        while (!stack.empty()) {
            const std::size_t x = stack.back();
            stack.pop_back();
            for (std::size_t j = 0; j < n; ++j)
                if (a[x][j] && !c[s][j]) {
                    c[s][j] = true;
                    stack.push_back(j);
                }
        }
    }
    return c;
}

}  // namespace

TEST_SUITE("bitrel") {
    TEST_CASE("composition, closure and acyclicity agree with their definitions at every width") {
        std::mt19937 rng(20261205);
        std::size_t cyclic = 0, acyclic = 0;
        for (const std::size_t n : {1u, 2u, 7u, 31u, 63u, 64u, 65u, 100u, 128u, 130u})
            for (const double per_row : {0.3, 1.0, 2.5})
                for (const bool forward_only : {false, true})
                    for (int round = 0; round < 4; ++round) {
                        CAPTURE(n);
                        CAPTURE(per_row);
                        CAPTURE(forward_only);
                        const BitRel a = random_rel(n, per_row, rng, forward_only);
                        const BitRel b = random_rel(n, per_row, rng, false);
                        CHECK(matrix(a.compose(b)) == compose(matrix(a), matrix(b)));
                        BitRel closed = a;
                        closed.close();
                        const Matrix plus = reach(matrix(a));
                        CHECK(matrix(closed) == plus);
                        bool cycle = false;
                        for (std::size_t i = 0; i < n; ++i) cycle = cycle || plus[i][i];
                        CHECK(a.acyclic() == !cycle);
                        (cycle ? cyclic : acyclic) += 1;
                    }
        // both answers of acyclic() were asked many times
        CHECK(cyclic > 50);
        CHECK(acyclic > 50);
    }

    TEST_CASE("a self-loop and a two-cycle are cycles; the empty relation has none") {
        for (const std::size_t n : {1u, 64u, 65u}) {
            BitRel self(n);
            self.set(n - 1, n - 1);
            CHECK_FALSE(self.acyclic());
            CHECK(BitRel(n).acyclic());
            if (n > 1) {
                BitRel two(n);
                two.set(0, n - 1);
                two.set(n - 1, 0);
                CHECK_FALSE(two.acyclic());
                two.reset(n - 1, 0);
                CHECK(two.acyclic());
            }
        }
    }
}
