#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ordercheck under LKMM against herd7 with the kernel's model: fastest wall time of N runs for
the kernel's tools/memory-model/litmus-tests directory (Debian's linux-source-6.1, extracted), the
4-thread RCU grace-period chain, rings of grace periods and RCU readers (9, 10 and 12 processes,
generated here) and the same 9-process ring with smp_mb() for the grace periods, the
desc_reserve() tests, the seed twins too slow for check --all and the catalogue. herd7 is timed
when given (it is not a dependency: built from https://github.com/herd/herdtools7). RC11 is timed
beside LKMM where the test means the same under both (no RCU). Prints a Markdown table
(docs/performance.md, "LKMM").

  bench/lkmm_bench.py [BUILD_DIR] [--repeat N] [--kernel-mm DIR] [--herd7 HERD7 LIBDIR] [--skip-slow] [--jobs N]

--skip-slow leaves out the 12-process ring. --jobs N also times each single test with
`litmus --jobs N` (its LKMM search on N threads), in a column of its own.
"""
import argparse
import atexit
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

from bench_args import add_build, count, ordercheck

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
add_build(ap)
ap.add_argument("--repeat", type=count, default=3, metavar="N", help="runs per search; the fastest counts (default: 3)")
ap.add_argument("--kernel-mm", metavar="DIR", help="a kernel tree's tools/memory-model (its litmus-tests, and herd7's model)")
ap.add_argument("--herd7", nargs=2, metavar=("HERD7", "LIBDIR"), help="time herd7 too")
ap.add_argument("--skip-slow", action="store_true", help="leave out the 12-process ring")
ap.add_argument("--jobs", type=count, metavar="N", help="also time each single test with litmus --jobs N")
opts = ap.parse_args()
build, repeat, kernel_mm, herd, skip_slow, jobs = opts.build, opts.repeat, opts.kernel_mm, opts.herd7, opts.skip_slow, opts.jobs
exe = ordercheck(ap, build)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fastest(cmd, cwd=None, timeout=1200):
    """Fastest wall time of `repeat` runs and the last run; (None, None) on a timeout."""
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        try:
            p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, None
        wall = time.perf_counter() - t
        best = wall if best is None else min(best, wall)
    return best, p


def ring(name, kinds):
    """A ring of processes, process i reading x_i and writing x_{i+1}: G reads, waits in
    synchronize_rcu() and writes; M the same with smp_mb(); R reads and writes inside one RCU
    read-side critical section. exists: every process reads 1 (the paulmckrcu/litmus auto/C-RW-*
    family's shape)."""
    n = len(kinds)
    procs = []
    for i, k in enumerate(kinds):
        a, b = f"x{i}", f"x{(i + 1) % n}"
        if k == "R":
            body = f"\trcu_read_lock();\n\tr1 = READ_ONCE(*{a});\n\tWRITE_ONCE(*{b}, 1);\n\trcu_read_unlock();\n"
        else:
            fence = "synchronize_rcu()" if k == "G" else "smp_mb()"
            body = f"\tr1 = READ_ONCE(*{a});\n\t{fence};\n\tWRITE_ONCE(*{b}, 1);\n"
        procs.append(f"P{i}(int *{a}, int *{b})\n{{\n\tint r1;\n\n{body}}}\n")
    cond = " /\\ ".join(f"{i}:r1=1" for i in range(n))
    return f"C {name}\n\n{{}}\n\n" + "\n".join(procs) + f"\nexists ({cond})\n"


def timed(wall, p, fmt="{:.3f} s"):
    return "no answer in 300 s" if wall is None else fmt.format(wall)


def observation(out):
    """herd's Observation (verdict, Positive, Negative), or the judgement when there is none (bounded)."""
    obs = next((l.split()[2:5] for l in out.splitlines() if l.startswith("Observation ")), None)
    if obs is not None:
        return " ".join(obs)
    return next((l.split()[2].rstrip(":") for l in out.splitlines() if l.startswith("Judgement ") and len(l.split()) > 2), "")


rows = []
if kernel_mm:
    tests = sorted(glob.glob(os.path.join(kernel_mm, "litmus-tests", "*.litmus")))
    wall, p = fastest([exe, "litmus", "--model", "lkmm", "-q", *tests])
    herd_wall = "-"
    if herd:
        hw, _ = fastest([herd[0], "-I", herd[1], "-conf", "linux-kernel.cfg", *tests], cwd=kernel_mm)
        herd_wall = f"{hw:.3f} s"
    rows.append((f"kernel litmus-tests ({len(tests)} tests, one process)", f"{wall:.3f} s", "-", "-", herd_wall,
                 p.stdout.strip().splitlines()[-1]))
tmp = tempfile.mkdtemp(prefix="ordercheck-lkmm-bench-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)
cases = [(n, os.path.join(root, "litmus", "tests", n + ".litmus"))
         for n in ("RCU+3gp-chain+reader", "desc-reserve+3", "desc-reserve+4")]
for name, kinds in (("RCU-ring-9", "GGRRRRGGR"), ("RCU-ring-10", "GGRRRRGGRG"), ("mb-ring-9", "MMRRRRMMR"),
                    ("RCU-ring-12", "GGRRRRGGRGGR")):
    if skip_slow and name == "RCU-ring-12":
        continue
    path = os.path.join(tmp, name + ".litmus")
    with open(path, "w") as f:
        f.write(ring(name, kinds))
    cases.append((f"{name} ({kinds})", path))
for name, path in cases:
    wall, p = fastest([exe, "litmus", "--model", "lkmm", path], timeout=300)
    threaded = "-"
    if jobs:
        wj, pj = fastest([exe, "litmus", "--model", "lkmm", "-j", str(jobs), path], timeout=300)
        threaded = timed(wj, pj)
        if pj is not None and p is not None and observation(pj.stdout) != observation(p.stdout):
            threaded += f" (other result: {observation(pj.stdout)})"
    rc11 = "-"
    if not name.startswith("RCU"):  # under RC11, RCU is urcu with spin loops: another program
        w11, p11 = fastest([exe, "litmus", "--model", "rc11", path], timeout=300)
        rc11 = timed(w11, p11)
    herd_wall = "-"
    if herd and not name.startswith("desc"):
        hw, _ = fastest([herd[0], "-I", herd[1], "-conf", "linux-kernel.cfg", path], cwd=kernel_mm, timeout=300)
        herd_wall = timed(hw, None)
    elif name.startswith("desc"):
        herd_wall = "279 s (desc-reserve+3, litmus/herd7-verdicts.tsv)" if name.endswith("3") else "> 60 s (timeout)"
    rows.append((name, timed(wall, p), threaded, rc11, herd_wall, observation(p.stdout) if p else ""))

# The seed twins whose load-buffering search was the longest (a kworker loop in a helper function).
for path in [os.path.join(root, "models", "c", "vmalloc_purge", f) for f in ("v2_in_progress_guard.litmus", "v5_18.litmus")]:
    wall, p = fastest([exe, "litmus", "--model", "lkmm", path])
    rows.append((os.path.relpath(path, root), f"{wall:.3f} s", "-", "-", "- (helper functions)", observation(p.stdout)))

# The catalogue with load buffering explored for every variant (C++ models included, whether or
# not they state dependencies), and the default run (auto: LKMM for the kernel-primitive models).
for label, extra in (("catalogue, --model lkmm (load buffering for every variant)", ["--model", "lkmm"]),
                     ("catalogue, default (auto: LKMM for kernel-primitive models)", [])):
    wall, p = fastest([exe, "check", "--all", *extra])
    rows.append((label, f"{wall:.3f} s", "-", "-", "-", p.stdout.strip().splitlines()[-1]))

print(f"| LKMM | ordercheck | ordercheck -j {jobs or 'N'} (threads) | ordercheck --model rc11 | herd7 7.57 | ordercheck's result (LKMM) |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
