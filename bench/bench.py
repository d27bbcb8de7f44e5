#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The exploration benchmark: bare Relacy against ordercheck (1 and 2 worker processes, with and
without partial-order reduction, with and without capture) on the scaling family and on every
model of the catalogue. Prints Markdown tables (docs/performance.md).

    python3 bench/bench.py [--build build] [--quick] [--skip-slow SECONDS] [--repeat N]

Wall times are whole process runs, measured here (start-up included: a few ms). The scaling
family's protocols and the catalogue's variants (bench/bare_catalogue.hpp) perform the same Relacy
operations in bare_relacy and in ordercheck, so the bare iteration count must equal ordercheck's
interleavings without reduction ("same tree"). For the catalogue, all variants of a model run in
one bare_relacy process and in one ordercheck process, and each of those processes runs --repeat
times (the fastest is kept: they take milliseconds, and single runs of them vary by up to 1.5x);
the "(search)" overhead divides the in-process search times both report, which leave out
process start-up.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

SCALING = [
    # id, heavy (its unreduced search takes more than a few seconds)
    ("grid/2x2", False),
    ("grid/2x4", False),
    ("grid/2x6", False),
    ("grid/3x2", False),
    ("grid/3x3", False),
    ("grid/4x2", True),
    ("grid/3x4", True),
    ("iriw4/relaxed", False),
    ("shrinker_passes/t2_k2", False),
    ("shrinker_passes/t2_k4", False),
    ("shrinker_passes/t2_k8", True),
    ("shrinker_passes/t3_k2", True),
    ("shrinker_passes/t4_k1", True),
]
QUICK = {"grid/2x2", "grid/3x3", "iriw4/relaxed", "shrinker_passes/t2_k4"}


def timed(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t0
    return p, time.monotonic() - t0


def oc_json(exe, args, timeout):
    p, wall = timed([exe, "check", *args, "--format", "json", "--no-progress"], timeout)
    if p is None:
        return None, wall
    if p.returncode not in (0, 1, 3):
        sys.exit(f"ordercheck {' '.join(args)} failed ({p.returncode}): {p.stderr[:500]}")
    return json.loads(p.stdout), wall


def totals(doc):
    v = doc["variants"]
    return {
        "interleavings": sum(x["interleavings"] for x in v),
        "distinct": sum(x["distinct_executions"] for x in v),
        "outcomes": sum(x["distinct_outcomes"] for x in v),
        "verdicts": [x["verdict"] for x in v],
    }


def best_of(n, run):
    """Calls run() n times; returns the first result with the smallest wall and search times."""
    results = [run() for _ in range(max(1, n))]
    return results[0][0], min(r[1] for r in results), min(r[2] for r in results)


def rate(n, s):
    if not s:
        return "-"
    r = n / s
    return f"{r / 1e6:.2f}M" if r >= 1e6 else f"{r / 1e3:.0f}k" if r >= 1e4 else f"{r:.0f}"


def secs(s):
    return "-" if s is None else (f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="meson build directory (default: build)")
    ap.add_argument("--quick", action="store_true", help="a few small protocols only")
    ap.add_argument("--skip-slow", type=float, default=120,
                    help="give bare Relacy S seconds per protocol, and skip the unreduced ordercheck runs "
                         "of a protocol whose bare run took more than S/3 seconds (they take about 3x as "
                         "long); default 120")
    ap.add_argument("--repeat", type=int, default=3,
                    help="run each catalogue model's processes N times and keep the fastest (default 3)")
    a = ap.parse_args()
    exe = os.path.join(a.build, "bench", "ordercheck-bench")
    bare = os.path.join(a.build, "bench", "bare_relacy")
    for f in (exe, bare):
        if not os.access(f, os.X_OK):
            sys.exit(f"{f} not found: build first (ninja -C {a.build})")

    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"Machine: {os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}; "
          f"{time.strftime('%Y-%m-%d')}. Command: `python3 bench/bench.py{' --quick' if a.quick else ''}`.\n")

    # ---- scaling family ----
    rows_a, rows_b = [], []
    for pid, heavy in SCALING:
        if a.quick and pid not in QUICK:
            continue
        p, wall = timed([bare, pid], a.skip_slow)
        if p is not None and p.returncode != 0:
            sys.exit(f"bare_relacy {pid} failed: {p.stderr.strip()}")
        b = json.loads(p.stdout) if p is not None else None
        bare_wall = wall if b else None
        slow = b is None or b["seconds"] * 3 > a.skip_slow
        nc = c = c2 = None
        w_nc = w_c = w_c2 = None
        if not slow:
            nc, w_nc = oc_json(exe, [pid, "--no-por", "--no-capture"], 10 * a.skip_slow)
            c, w_c = oc_json(exe, [pid, "--no-por"], 10 * a.skip_slow)
            c2, w_c2 = oc_json(exe, [pid, "--no-por", "--jobs", "2"], 10 * a.skip_slow)
        r, w_r = oc_json(exe, [pid], 10 * a.skip_slow)
        r2, w_r2 = oc_json(exe, [pid, "--jobs", "2"], 10 * a.skip_slow)
        tc = totals(c) if c else None
        tr = totals(r)
        same = "-" if not tc or not b else ("yes" if tc["interleavings"] == b["iterations"] else
                                            f"NO ({tc['interleavings']})")
        rows_a.append("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            pid, f"{b['iterations']:,}" if b else "?", b["outcomes"] if b else "?",
            secs(bare_wall) if b else f"> {a.skip_slow:.0f} s (stopped)",
            rate(b["iterations"], bare_wall) if b else "-",
            secs(w_nc) if nc else "-", secs(w_c) if c else "-",
            rate(tc["interleavings"], w_c) if tc else "-",
            f"{w_c / bare_wall:.1f}x" if c and b else "-", same))
        rows_b.append("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            pid, f"{tc['interleavings']:,}" if tc else "-", tr["distinct"], tr["outcomes"],
            secs(w_c) if c else "-", secs(w_c2) if c2 else "-",
            f"{w_c / w_c2:.2f}x" if c and c2 else "-",
            f"{tr['interleavings']:,}", secs(w_r), secs(w_r2),
            "yes" if (not tc or (tc["distinct"] == tr["distinct"] and tc["verdicts"] == tr["verdicts"])) else "NO"))

    print("### Scaling family: capture overhead (no reduction, 1 process)\n")
    print("| protocol | iterations | outcomes | bare Relacy | bare it/s | ordercheck --no-capture | "
          "ordercheck (capture + RC11) | ordercheck it/s | overhead vs bare | same tree |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows_a))
    print("\n### Scaling family: processes and reduction\n")
    print("| protocol | interleavings (no POR) | distinct executions | outcomes | no POR, 1 job | no POR, 2 jobs | "
          "speed-up | interleavings (POR) | POR, 1 job | POR, 2 jobs | same executions and verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows_b))

    # ---- catalogue ----
    p = subprocess.run([exe, "list"], capture_output=True, text=True, check=True)
    models, variants = [], {}
    for l in p.stdout.splitlines():
        if l and not l.startswith(" "):
            models.append(l.split(" (", 1)[0])
            variants[models[-1]] = []
        elif l.strip():
            variants[models[-1]].append(l.split()[0])
    if a.quick:
        models = models[:3]
    twins = set(subprocess.run([bare, "--list"], capture_output=True, text=True, check=True).stdout.split())
    print("\n### Catalogue, per model\n")
    print(f"Each model's variants run in one process per column; every time is the fastest of {a.repeat} runs.\n")
    print("| model | variants | bare iterations | bare Relacy | bare it/s | interleavings (no POR) | "
          "ordercheck no POR | ordercheck it/s | overhead vs bare: wall (search) | same tree | "
          "interleavings (POR) | distinct executions | outcomes (bare / ordercheck) | POR, 1 job | POR, 2 jobs | "
          "same executions and verdicts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    keys = ("bare_it", "bare_wall", "bare_s", "it", "wall", "s", "red_it", "red_wall", "red2_wall")
    sums = dict.fromkeys(keys, 0)
    all_same = True
    for m in models:
        ids = [v for v in variants[m] if v in twins]
        def run_bare():
            bp, wall = timed([bare, *ids], 600)
            if bp is None or bp.returncode != 0:
                sys.exit(f"bare_relacy {' '.join(ids)} failed: {bp.stderr.strip() if bp else 'timeout'}")
            runs = {b["id"]: b for b in map(json.loads, bp.stdout.splitlines())}
            return runs, wall, sum(b["seconds"] for b in runs.values())

        def run_oc(*args):
            doc, wall = oc_json(exe, [m, *args], 600)
            return doc, wall, sum(v["seconds"] for v in doc["variants"])

        # Each model's processes take milliseconds: keep the fastest of --repeat rounds.
        bare_runs, bare_wall, b_s = best_of(a.repeat, run_bare) if ids else ({}, None, 0)
        full, w_full, oc_s = best_of(a.repeat, lambda: run_oc("--no-por"))
        red, w_red, _ = best_of(a.repeat, lambda: run_oc())
        red2, w_red2, _ = best_of(a.repeat, lambda: run_oc("--jobs", "2"))
        tf, tr = totals(full), totals(red)
        same = "yes" if tf["distinct"] == tr["distinct"] and tf["verdicts"] == tr["verdicts"] else "NO"
        # Same tree: every variant has a twin whose iterations equal ordercheck's unreduced interleavings.
        differ = [f"{v['id']}: {bare_runs[v['id']]['iterations']} vs {v['interleavings']}"
                  for v in full["variants"] if v["id"] in bare_runs and bare_runs[v["id"]]["iterations"] != v["interleavings"]]
        missing = len(full["variants"]) - len(bare_runs)
        tree = "yes" if not differ and not missing else "; ".join(
            differ + ([f"{missing} without a twin"] if missing else [])).join(("NO (", ")"))
        all_same = all_same and tree == "yes"
        b_it = sum(b["iterations"] for b in bare_runs.values())
        b_out = sum(b["outcomes"] for b in bare_runs.values())
        overhead = f"{w_full / bare_wall:.1f}x ({oc_s / b_s:.1f}x)" if bare_runs and b_s else "-"
        nv = len(full["variants"])
        print(f"| `{m}` | {nv}{'' if not missing else f' ({nv - missing} twins)'} | "
              f"{f'{b_it:,}' if bare_runs else '-'} | {secs(bare_wall) if bare_runs else '-'} | "
              f"{rate(b_it, bare_wall) if bare_runs else '-'} | {tf['interleavings']:,} | {secs(w_full)} | "
              f"{rate(tf['interleavings'], w_full)} | {overhead} | {tree} | {tr['interleavings']:,} | "
              f"{tr['distinct']:,} | {b_out if bare_runs else '-'} / {tr['outcomes']} | {secs(w_red)} | "
              f"{secs(w_red2)} | {same} |")
        for k, v in zip(keys, (b_it, bare_wall or 0, b_s, tf["interleavings"], w_full, oc_s,
                               tr["interleavings"], w_red, w_red2)):
            sums[k] += v
    print(f"| all | | {sums['bare_it']:,} | {secs(sums['bare_wall'])} | {rate(sums['bare_it'], sums['bare_wall'])} | "
          f"{sums['it']:,} | {secs(sums['wall'])} | {rate(sums['it'], sums['wall'])} | "
          f"{sums['wall'] / sums['bare_wall']:.1f}x ({sums['s'] / sums['bare_s']:.1f}x) | "
          f"{'yes' if all_same else 'NO'} | {sums['red_it']:,} | | | {secs(sums['red_wall'])} | "
          f"{secs(sums['red2_wall'])} | |")
    if not a.quick:
        all_ids = [v for m in models for v in variants[m] if v in twins]
        def wall(cmd):
            return best_of(a.repeat, lambda: (None, timed(cmd, 600)[1], 0))[1]
        w_bare_all = wall([bare, *all_ids])
        w_all = wall([exe, "check", "--all", "--no-progress"])
        w_all_full = wall([exe, "check", "--all", "--no-por", "--no-progress"])
        w_all2 = wall([exe, "check", "--all", "--jobs", "2", "--no-progress"])
        print(f"\n`ordercheck check --all` (one process, every variant; fastest of {a.repeat}): {secs(w_all)} with reduction, "
              f"{secs(w_all_full)} without; {secs(w_all2)} with `--jobs 2`. `bare_relacy` on the "
              f"{len(all_ids)} twins (one process): {secs(w_bare_all)}.")

if __name__ == "__main__":
    main()
