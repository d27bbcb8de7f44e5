// SPDX-License-Identifier: MIT
// The one translation unit that implements doctest and its main().
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
