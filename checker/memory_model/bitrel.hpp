// SPDX-License-Identifier: MIT
// A binary relation over a graph's events, numbered densely 0..n-1, as a bit matrix: one row of
// 64-bit words per event. Composition and closure work a word at a time, which keeps the memory
// models' predicates (RC11, LKMM) cheap on the tens of events a test has.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace oc {

/// Sets bits lo..hi-1 of the bit row `words` (a word at a time).
inline void set_bit_span(std::uint64_t* words, std::size_t lo, std::size_t hi) {
    for (std::size_t j = lo; j < hi;) {
        const std::size_t v = j / 64, bit = j % 64, take = (64 - bit < hi - j) ? 64 - bit : hi - j;
        words[v] |= (take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1)) << bit;
        j += take;
    }
}

/// A binary relation over events 0..n-1 as a bit matrix.
class BitRel {
public:
    explicit BitRel(std::size_t n) : n_(n), w_((n + 63) / 64), bits_(n * w_, 0) {}
    void set(std::size_t i, std::size_t j) { bits_[i * w_ + j / 64] |= std::uint64_t{1} << (j % 64); }
    bool test(std::size_t i, std::size_t j) const { return (bits_[i * w_ + j / 64] >> (j % 64) & 1u) != 0; }
    std::uint64_t* row(std::size_t i) { return bits_.data() + i * w_; }
    const std::uint64_t* row(std::size_t i) const { return bits_.data() + i * w_; }
    std::size_t size() const { return n_; }
    void unite(const BitRel& o) {
        for (std::size_t k = 0; k < bits_.size(); ++k) bits_[k] |= o.bits_[k];
    }
    /// Calls f(j) for every j with (i, j) in the relation.
    template <class F>
    void for_each(std::size_t i, F&& f) const {
        const std::uint64_t* r = row(i);
        for (std::size_t w = 0; w < w_; ++w)
            for (std::uint64_t bits = r[w]; bits != 0; bits &= bits - 1)
                f(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
    }
    /// this ; o
    BitRel compose(const BitRel& o) const {
        BitRel r(n_);
        compose_rows(o, r);
        return r;
    }
    /// r = this ; o (r: of this size, not this or o; its storage is reused)
    void compose_into(const BitRel& o, BitRel& r) const {
        if (w_ != 1) r.clear();  // one-word rows are written whole
        compose_rows(o, r);
    }
    /// Makes this the empty relation over n nodes (the storage is reused when large enough).
    void reshape(std::size_t n) {
        n_ = n;
        w_ = (n + 63) / 64;
        bits_.assign(n * w_, 0);
    }
    /// Makes this a relation over n nodes whose pairs are unspecified, for a caller that writes
    /// every row next: storage that was there keeps what it held (no zeroing as reshape()'s).
    void reshape_for_overwrite(std::size_t n) {
        n_ = n;
        w_ = (n + 63) / 64;
        bits_.resize(n * w_);
    }
    /// Removes every pair.
    void clear() { std::fill(bits_.begin(), bits_.end(), 0); }
    /// Transitive closure in place (Warshall, by rows; a node with no successor passes nothing on).
    void close() {
        if (w_ == 1) {
            for (std::size_t k = 0; k < n_; ++k) {
                const std::uint64_t kb = std::uint64_t{1} << k, rk = bits_[k];  // row k gains nothing in step k
                if (rk == 0) continue;
                for (std::size_t i = 0; i < n_; ++i)
                    if ((bits_[i] & kb) != 0) bits_[i] |= rk;
            }
            return;
        }
        for (std::size_t k = 0; k < n_; ++k) {
            if (row_empty(k)) continue;
            const std::size_t kw = k / 64;
            const std::uint64_t kb = std::uint64_t{1} << (k % 64);
            for (std::size_t i = 0; i < n_; ++i)
                if ((bits_[i * w_ + kw] & kb) != 0) or_row(row(i), row(k));
        }
    }
    /// Is some (i, j) in both this and the inverse of `o` (this ; o reflexive)?
    bool meets_inverse(const BitRel& o) const {
        for (std::size_t i = 0; i < n_; ++i) {
            bool hit = false;
            for_each(i, [&](std::size_t j) { hit = hit || o.test(j, i); });
            if (hit) return true;
        }
        return false;
    }
    std::size_t words() const { return w_; }
    void reset(std::size_t i, std::size_t j) { bits_[i * w_ + j / 64] &= ~(std::uint64_t{1} << (j % 64)); }
    bool empty() const {
        // four words to a test: most relations of a small graph are a few dozen words
        const std::uint64_t* p = bits_.data();
        const std::size_t m = bits_.size();
        std::size_t k = 0;
        for (; k + 4 <= m; k += 4)
            if ((p[k] | p[k + 1] | p[k + 2] | p[k + 3]) != 0) return false;
        for (; k < m; ++k)
            if (p[k] != 0) return false;
        return true;
    }
    /// this & o
    void intersect(const BitRel& o) {
        for (std::size_t k = 0; k < bits_.size(); ++k) bits_[k] &= o.bits_[k];
    }
    /// this \ o
    void subtract(const BitRel& o) {
        for (std::size_t k = 0; k < bits_.size(); ++k) bits_[k] &= ~o.bits_[k];
    }
    /// this^-1
    BitRel inverse() const {
        BitRel r(n_);
        for (std::size_t i = 0; i < n_; ++i) for_each(i, [&](std::size_t j) { r.set(j, i); });
        return r;
    }
    /// r = this^-1 (r: of this size, not this)
    void inverse_into(BitRel& r) const {
        r.clear();
        for (std::size_t i = 0; i < n_; ++i) for_each(i, [&](std::size_t j) { r.set(j, i); });
    }
    /// Adds the identity (this?).
    void add_identity() {
        for (std::size_t i = 0; i < n_; ++i) set(i, i);
    }
    friend bool operator==(const BitRel&, const BitRel&) = default;
    bool reflexive_somewhere() const {
        for (std::size_t i = 0; i < n_; ++i)
            if (test(i, i)) return true;
        return false;
    }
    /// Acyclic: every node goes, a layer of sources (no edge in from the nodes left) at a time.
    bool acyclic() const {
        if (w_ == 1) {
            std::uint64_t left = n_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n_) - 1;
            while (left != 0) {
                std::uint64_t in = 0;
                for (std::uint64_t bits = left; bits != 0; bits &= bits - 1)
                    in |= bits_[static_cast<std::size_t>(__builtin_ctzll(bits))];
                const std::uint64_t sources = left & ~in;
                if (sources == 0) return false;
                left &= ~sources;
            }
            return true;
        }
        std::vector<std::uint64_t> left(w_, 0), in(w_);
        set_bit_span(left.data(), 0, n_);
        for (;;) {
            std::fill(in.begin(), in.end(), 0);
            bool any = false;
            for (std::size_t v = 0; v < w_; ++v)
                for (std::uint64_t bits = left[v]; bits != 0; bits &= bits - 1) {
                    any = true;
                    or_row(in.data(), row(v * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
                }
            if (!any) return true;  // every node went
            bool removed = false;
            for (std::size_t v = 0; v < w_; ++v) {
                const std::uint64_t sources = left[v] & ~in[v];
                removed = removed || sources != 0;
                left[v] &= ~sources;
            }
            if (!removed) return false;  // every node left has an edge in from another left: a cycle
        }
    }

private:
    /// r = this ; o: one-word rows written whole, longer rows ORed into r (zero there)
    void compose_rows(const BitRel& o, BitRel& r) const {
        if (w_ == 1) {  // up to 64 events, nearly every graph: a row is one word
            for (std::size_t i = 0; i < n_; ++i) {
                std::uint64_t acc = 0;
                for (std::uint64_t bits = bits_[i]; bits != 0; bits &= bits - 1)
                    acc |= o.bits_[static_cast<std::size_t>(__builtin_ctzll(bits))];
                r.bits_[i] = acc;
            }
            return;
        }
        for (std::size_t i = 0; i < n_; ++i) {
            std::uint64_t* dst = r.row(i);
            for_each(i, [&](std::size_t j) { or_row(dst, o.row(j)); });
        }
    }
    bool row_empty(std::size_t i) const {
        const std::uint64_t* r = row(i);
        for (std::size_t k = 0; k < w_; ++k)
            if (r[k] != 0) return false;
        return true;
    }
    void or_row(std::uint64_t* dst, const std::uint64_t* src) const {
        for (std::size_t k = 0; k < w_; ++k) dst[k] |= src[k];
    }
    std::size_t n_, w_;
    std::vector<std::uint64_t> bits_;
};

}  // namespace oc
