// SPDX-License-Identifier: MIT
// Linux kernel primitives mapped onto C++11 relaxed accesses plus fences (never onto seq_cst
// accesses: Relacy does not relate seq_cst fences to seq_cst accesses). Each mapping, and where
// it is stronger or weaker than the kernel memory model (LKMM), is in docs/primitives.md.
// The umbrella header models include: the primitives are grouped as the kernel's own headers
// group them, one header checker/model/kernel_NAME.hpp per kernel header, each saying which it mirrors.
#pragma once

#include "checker/model/kernel_types.hpp"
#include "checker/model/kernel_rwonce.hpp"
#include "checker/model/kernel_barrier.hpp"
#include "checker/model/kernel_atomic.hpp"
#include "checker/model/kernel_bitops.hpp"
#include "checker/model/kernel_spinlock.hpp"
#include "checker/model/kernel_mutex.hpp"
#include "checker/model/kernel_llist.hpp"
#include "checker/model/kernel_static_key.hpp"
#include "checker/model/kernel_workqueue.hpp"
#include "checker/model/kernel_rcupdate.hpp"
#include "checker/model/kernel_srcu.hpp"
