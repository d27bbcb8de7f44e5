#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ordercheck under LKMM against herd7 with the kernel's model: fastest wall time of N runs for
the kernel's tools/memory-model/litmus-tests directory (Debian's linux-source-6.1, extracted), the
4-thread RCU grace-period chain, the desc_reserve() tests, the seed twins too slow for check --all
and the catalogue. herd7 is timed when given (it is not
a dependency: built from https://github.com/herd/herdtools7). Prints a Markdown table
(docs/performance.md, "LKMM").

  bench/lkmm_bench.py [BUILD_DIR] [--repeat N] [--kernel-mm DIR] [--herd7 HERD7 LIBDIR]
"""
import glob
import os
import subprocess
import sys
import time

args = sys.argv[1:]
build = args[0] if args and not args[0].startswith("--") else "build"
repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
kernel_mm = args[args.index("--kernel-mm") + 1] if "--kernel-mm" in args else None
herd = args[args.index("--herd7") + 1: args.index("--herd7") + 3] if "--herd7" in args else None
exe = os.path.join(build, "cli", "ordercheck")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fastest(cmd, cwd=None, timeout=1200):
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        wall = time.perf_counter() - t
        best = wall if best is None else min(best, wall)
    return best, p


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
    rows.append((f"kernel litmus-tests ({len(tests)} tests, one process)", f"{wall:.3f} s", herd_wall,
                 p.stdout.strip().splitlines()[-1]))
for name in ("RCU+3gp-chain+reader", "desc-reserve+3", "desc-reserve+4"):
    path = os.path.join(root, "litmus", "tests", name + ".litmus")
    wall, p = fastest([exe, "litmus", "--model", "lkmm", path])
    herd_wall = "-"
    if herd and name.startswith("RCU"):
        hw, _ = fastest([herd[0], "-I", herd[1], "-conf", "linux-kernel.cfg", path], cwd=kernel_mm)
        herd_wall = f"{hw:.3f} s"
    elif name.startswith("desc"):
        herd_wall = "279 s (desc-reserve+3, litmus/herd7-verdicts.tsv)" if name.endswith("3") else "> 60 s (timeout)"
    rows.append((name, f"{wall:.3f} s", herd_wall, observation(p.stdout)))

# The seed twins kept out of check --all for their time under LKMM (models/c/*/slow-under-lkmm/).
for path in sorted(glob.glob(os.path.join(root, "models", "c", "*", "slow-under-lkmm", "*.litmus"))):
    wall, p = fastest([exe, "litmus", "--model", "lkmm", path])
    rows.append((os.path.relpath(path, root), f"{wall:.3f} s", "- (helper functions)", observation(p.stdout)))

# The catalogue with load buffering explored for every variant (C++ models included, whether or
# not they state dependencies), and the default run (auto: LKMM for the kernel-primitive models).
for label, extra in (("catalogue, --model lkmm (load buffering for every variant)", ["--model", "lkmm"]),
                     ("catalogue, default (auto: LKMM for kernel-primitive models)", [])):
    wall, p = fastest([exe, "check", "--all", *extra])
    rows.append((label, f"{wall:.3f} s", "-", p.stdout.strip().splitlines()[-1]))

print("| LKMM | ordercheck | herd7 7.57 | ordercheck's result |")
print("|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
