// SPDX-License-Identifier: MIT
// Linux kernel primitives mapped onto C++11 relaxed accesses plus fences (never onto seq_cst
// accesses: Relacy does not relate seq_cst fences to seq_cst accesses). Each mapping, and where
// it is stronger or weaker than the kernel memory model (LKMM), is in docs/primitives.md.
// The umbrella header models include: the primitives are grouped as the kernel's own headers
// group them, one header of checker/model/kernel/ per kernel header, each saying which it mirrors.
#pragma once

#include "checker/model/kernel/types.hpp"
#include "checker/model/kernel/rwonce.hpp"
#include "checker/model/kernel/barrier.hpp"
#include "checker/model/kernel/atomic.hpp"
#include "checker/model/kernel/bitops.hpp"
#include "checker/model/kernel/spinlock.hpp"
#include "checker/model/kernel/mutex.hpp"
#include "checker/model/kernel/llist.hpp"
#include "checker/model/kernel/static_key.hpp"
#include "checker/model/kernel/workqueue.hpp"
#include "checker/model/kernel/rcupdate.hpp"
#include "checker/model/kernel/srcu.hpp"
