#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel's own model files (--conf linux-kernel.cfg, evaluated by the cat front end) against
the built-in LKMM, on the same searches: fastest wall time of N runs each, the ratio, and whether
the two give the same answers (every Observation and Flag line, or every variant's verdict and
execution count). Prints a Markdown table (docs/performance.md, "The kernel's model files (cat)"; its history in
docs/cat.md, "Cost").

  bench/cat_bench.py KERNEL_MM_DIR [BUILD_DIR] [--repeat N] [--slow]

KERNEL_MM_DIR: a kernel tree's tools/memory-model (linux-kernel.cfg, .cat, .bell and litmus-tests/).
--slow adds desc-reserve+4 (under a second built-in, over half a minute with the cat files).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

from bench_args import add_build, count, ordercheck

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("kernel_mm", metavar="KERNEL_MM_DIR", help="a kernel tree's tools/memory-model (linux-kernel.cfg, .cat, .bell and litmus-tests/)")
add_build(ap)
ap.add_argument("--repeat", type=count, default=1, metavar="N", help="runs per search; the fastest counts (default: 1)")
ap.add_argument("--slow", action="store_true", help="add desc-reserve+4")
opts = ap.parse_args()
kernel_mm, build, repeat, slow = opts.kernel_mm, opts.build, opts.repeat, opts.slow
exe = ordercheck(ap, build)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cfg = os.path.join(kernel_mm, "linux-kernel.cfg")
if not os.path.exists(cfg):
    sys.exit(f"cat_bench.py: no {cfg}")


def fastest(cmd, timeout=3600):
    best, out = None, ""
    for _ in range(repeat):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        wall = time.perf_counter() - t
        best = wall if best is None else min(best, wall)
        out = p.stdout
    return best, out


def answers(out):
    """What must agree: the herd-style result lines of `litmus`, or each variant of `check`."""
    if out.lstrip().startswith("{"):
        d = json.loads(out)
        return [(v["id"], v["verdict"], v["executions"], v["positive"]) for v in d["variants"]]
    return [l for l in out.splitlines() if l.startswith(("Observation ", "Flag ", "Positive:"))]


def refused(files):
    """The tests the configuration's macro table (linux-kernel.def) refuses: primitives it does
    not define, as herd7 refuses them with those files (docs/litmus.md, "The macro table")."""
    out = subprocess.run([exe, "litmus", "--conf", cfg, "--max-executions", "1", *files],
                         capture_output=True, text=True).stdout
    return {l.split()[1] for l in out.splitlines() if l.startswith("Judgement ") and "does not parse" in l}


corpus = sorted(p for p in glob.glob(os.path.join(root, "litmus", "tests", "*.litmus")) if "desc-reserve+4" not in p)
kernel = sorted(glob.glob(os.path.join(kernel_mm, "litmus-tests", "*.litmus")))
skipped = refused(corpus)
corpus = [p for p in corpus if p not in skipped]
work = [
    (f"kernel litmus-tests ({len(kernel)} tests, one process)", ["litmus", *kernel]),
    (f"project corpus ({len(corpus)} tests, one process; desc-reserve+4 apart, {len(skipped)} the macro table refuses)",
     ["litmus", *corpus]),
]
for name in ("RCU+3gp-chain+reader", "desc-reserve+3", "desc-reserve+3+mb-after-head") + (("desc-reserve+4",) if slow else ()):
    work.append((name, ["litmus", os.path.join(root, "litmus", "tests", name + ".litmus")]))
work.append(("catalogue (`check --all`)", ["check", "--all", "--format", "json"]))

print(f"ordercheck {exe}; model files {kernel_mm}; fastest of {repeat}")
print()
print("| search | built-in LKMM | linux-kernel.cfg (cat) | ratio | same answers |")
print("|---|---|---|---|---|")
for name, cmd in work:
    builtin, out_b = fastest([exe, *cmd, "--model", "lkmm"])
    cat, out_c = fastest([exe, *cmd, "--conf", cfg])
    same = answers(out_b) == answers(out_c) and answers(out_b) != []
    # where they differ, which variants (check) or lines (litmus): e.g. the catalogue's
    # vmalloc_purge/seed, which the cat model refuses (docs/cat.md)
    differ = sorted({a[0] if isinstance(a, tuple) else a.split()[1] for a in
                     set(answers(out_b)) ^ set(answers(out_c))})
    print(f"| {name} | {builtin:.3f} s | {cat:.3f} s | {cat / builtin:.1f}x | "
          f"{'yes' if same else 'NO: ' + ', '.join(differ)} |")
