#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The graph engine against Relacy (with sleep sets): wall time, executions explored per distinct
execution, and peak memory, for the printk desc_reserve() litmus tests and the whole catalogue.
Prints a Markdown table (docs/performance.md). Usage: bench/graph_bench.py [BUILD_DIR] [--repeat N]"""
import argparse
import json
import os
import subprocess
import sys
import time

from bench_args import add_build, count, ordercheck

ap = argparse.ArgumentParser(description=__doc__.split(" Usage:")[0])
add_build(ap)
ap.add_argument("--repeat", type=count, default=3, metavar="N", help="runs per search; the fastest counts (default: 3)")
opts = ap.parse_args()
build, repeat = opts.build, opts.repeat
exe = ordercheck(ap, build)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def measure(args):
    """Fastest wall time of `repeat` runs, and the peak RSS of one run (KiB, measured apart)."""
    best, out = None, ""
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run([exe, *args], capture_output=True, text=True)
        wall = time.perf_counter() - t
        best = wall if best is None else min(best, wall)
        out = p.stdout
    rss = int(subprocess.run([sys.executable, "-c", PEAK, exe, *args], capture_output=True, text=True).stdout)
    return best, rss, out


def catalogue(engine):
    # RC11 for both engines, as for the litmus tests below (the default run judges the
    # kernel-primitive models under LKMM: bench/lkmm_bench.py times it)
    wall, rss, out = measure(["check", "--all", "--engine", engine, "--model", "rc11", "--format", "json"])
    doc = json.loads(out)
    runs = sum(v["interleavings"] for v in doc["variants"])
    distinct = sum(v["distinct_executions"] for v in doc["variants"])
    worst = max((v["interleavings_per_execution"] for v in doc["variants"] if v["distinct_executions"]), default=0)
    return wall, rss, runs, distinct, worst


def litmus(name, engine):
    # RC11 for both engines, so that they explore the same executions (LKMM: bench/lkmm_bench.py)
    wall, rss, out = measure(["litmus", "--engine", engine, "--model", "rc11",
                              os.path.join(root, "litmus", "tests", name)])
    obs = [l for l in out.splitlines() if l.startswith("Observation")]
    n = obs[0].split()[-2:] if obs else ["?", "?"]
    return wall, rss, int(n[0]) + int(n[1]) if obs else 0


print("| what | engine | wall (fastest of %d) | executions explored | distinct | explored per distinct | peak RSS |" % repeat)
print("|---|---|---|---|---|---|---|")
for engine in ("graph", "relacy"):
    wall, rss, runs, distinct, worst = catalogue(engine)
    print(f"| catalogue (check --all --model rc11) | {engine} | {wall:.3f} s | {runs} | {distinct} | {runs / distinct:.2f} (worst variant {worst:.1f}) | {rss // 1024} MiB |")
for name in ("desc-reserve+3.litmus", "desc-reserve+4.litmus"):
    for engine in ("graph", "relacy"):
        wall, rss, n = litmus(name, engine)
        print(f"| {name} | {engine} | {wall:.3f} s | {n} (Positive+Negative) | | | {rss // 1024} MiB |")
