// SPDX-License-Identifier: MIT
// A set of one process's access sites (bit i: the access with Access::site i), as wide as the
// process needs: what the analysis (analysis.cpp) follows through registers to find the reads
// whose values reach an address or a srcu_read_unlock(). Parse-time only.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace oc::litmus::detail {

class SiteSet {
public:
    SiteSet() = default;
    static SiteSet of(std::size_t site) {
        SiteSet s;
        s.words_.assign(site / 64 + 1, 0);
        s.words_[site / 64] = std::uint64_t{1} << (site % 64);
        return s;
    }
    SiteSet& operator|=(const SiteSet& o) {
        if (o.words_.size() > words_.size()) words_.resize(o.words_.size(), 0);
        for (std::size_t i = 0; i < o.words_.size(); ++i) words_[i] |= o.words_[i];
        return *this;
    }
    friend SiteSet operator|(SiteSet a, const SiteSet& b) { return a |= b; }
    bool contains(std::size_t site) const {
        return site / 64 < words_.size() && (words_[site / 64] >> (site % 64) & 1u) != 0;
    }
    bool empty() const { return count() == 0; }
    std::size_t count() const {
        std::size_t n = 0;
        for (std::uint64_t w : words_) n += static_cast<std::size_t>(std::popcount(w));
        return n;
    }
    /// Equal as sets (a missing word is a zero word).
    friend bool operator==(const SiteSet& a, const SiteSet& b) {
        const std::size_t n = std::max(a.words_.size(), b.words_.size());
        for (std::size_t i = 0; i < n; ++i)
            if (a.word(i) != b.word(i)) return false;
        return true;
    }

private:
    std::uint64_t word(std::size_t i) const { return i < words_.size() ? words_[i] : 0; }
    std::vector<std::uint64_t> words_;
};

}  // namespace oc::litmus::detail
