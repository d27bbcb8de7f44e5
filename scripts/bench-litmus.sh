#!/bin/sh
# SPDX-License-Identifier: MIT
# Times parse + exhaustive run of one litmus test (default: the 2-thread MP+wmb+rmb): the median,
# min and max of N in-process repetitions (`ordercheck litmus --repeat N`), then the median wall
# time of N whole `ordercheck litmus` processes (start-up included). A benchmark prints figures;
# it passes or fails nothing.
#   scripts/bench-litmus.sh [FILE] [N]
set -eu
cd "$(dirname "$0")/.."
file=${1:-litmus/tests/MP+wmb+rmb.litmus}
n=${2:-50}
exe=build/cli/ordercheck
[ -x "$exe" ] || { echo "bench-litmus: build first (ninja -C build)" >&2; exit 2; }

echo "== in process: $exe litmus --quiet --repeat $n $file"
"$exe" litmus --quiet --repeat "$n" "$file" | grep '^Benchmark'

echo "== whole process, $n runs: $exe litmus --quiet $file"
python3 - "$exe" "$file" "$n" <<'PY'
import statistics, subprocess, sys, time
exe, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run([exe, "litmus", "--quiet", path], check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter() - t) * 1e3)
print(f"process wall time: median {statistics.median(times):.2f} ms (min {min(times):.2f}, max {max(times):.2f}) over {n} runs")
PY
