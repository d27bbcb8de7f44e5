#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the libFuzzer target of the litmus parser (litmus/fuzz/parse_fuzzer.cpp) with Debian's
# clang, ASan and UBSan, and runs it with the corpus as seeds.
#   scripts/fuzz-litmus.sh [RUNS] [libFuzzer options...]     RUNS defaults to 1000000
# New interesting inputs go to build-fuzz/corpus; a crash, leak or timeout is written to
# build-fuzz/artifacts/ and stops the run (copy it to litmus/tests/regressions/ once fixed).
set -eu
cd "$(dirname "$0")/.."

runs=${1:-1000000}
[ $# -gt 0 ] && shift

if ! command -v clang++ >/dev/null 2>&1 || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "fuzz-litmus: needs clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev)" >&2
        exit 2
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi

out=build-fuzz
mkdir -p "$out/corpus" "$out/artifacts"
clang++ -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I. \
    litmus/lexer.cpp litmus/parser.cpp litmus/parse_code.cpp litmus/parse_function.cpp litmus/parse_condition.cpp litmus/parse_types.cpp litmus/parse_designators.cpp litmus/analysis.cpp \
    litmus/primitive_table.cpp litmus/print.cpp litmus/fuzz/parse_fuzzer.cpp -o "$out/parse_fuzzer"

exec "$out/parse_fuzzer" -runs="$runs" -max_len=4096 -timeout=5 -rss_limit_mb=2048 \
    -dict=litmus/fuzz/litmus.dict -artifact_prefix="$out/artifacts/" -print_final_stats=1 \
    "$@" "$out/corpus" litmus/tests
