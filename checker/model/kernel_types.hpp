// SPDX-License-Identifier: MIT
// The kernel's types the primitives work on (include/linux/types.h: atomic_t; atomic_long_t;
// a bitmap word), as Atomic<> locations, and SrcLoc, the call site every primitive records.
// Part of checker/model/kernel.hpp, the header models include.
#pragma once

#include <source_location>

#include "checker/model/primitives.hpp"

namespace oc::kernel {

using SrcLoc = std::source_location;

using atomic_t = Atomic<int>;
using atomic_long_t = Atomic<long>;
/// A bitmap word for the bitops (bit numbers 0..62).
using bitmap_t = Atomic<long>;

}  // namespace oc::kernel
