#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden traces and committed figures: check them against a fresh `ordercheck explain`, or
promote (regenerate) them.

  golden.py check   ORDERCHECK SOURCE_ROOT
  golden.py promote ORDERCHECK SOURCE_ROOT
"""
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

# Golden traces: the text trace, DOT and interleaving of witnesses, byte for byte, under each
# engine (Relacy's in traces/golden/, the graph engine's in traces/golden/graph/). "all" is the
# full figure (`--show all`); "focus" the default focused figure with its explaining cycle
# (in traces/golden/graph/focused/).
GOLDEN = {
    ("relacy", "SB/relaxed", "all"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("relacy", "MP/relaxed", "all"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "SB/relaxed", "all"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "MP/relaxed", "all"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "2+2W/relaxed", "all"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "SB/relaxed", "focus"): ["witness.dot", "cycle.txt", "cycle.json"],
    ("graph", "shrinker_bit/no_after_atomic", "focus"): ["witness.dot", "cycle.txt", "cycle.json"],
    ("graph", "shrinker_bit/no_after_atomic", "focus", "rc11"): ["witness.dot", "cycle.txt", "cycle.json"],
}
# `necessity ID --out DIR`: for each needed barrier, its focused figure and the cycle it breaks
# (in traces/golden/necessity/<id>/<row>/). IDs are catalogue variants or litmus files (relative
# to the source root); the graph engine with the default model (LKMM for litmus tests and models
# written with kernel primitives, RC11 for C++11 ones), or the one named second.
NECESSITY = {
    ("shrinker_bit/merged",): ["witness.dot", "cycle.txt"],
    ("shrinker_bit/merged", "rc11"): ["witness.dot", "cycle.txt"],
    ("litmus/tests/MP+wmb+rmb.litmus",): ["witness.dot", "cycle.txt"],
}
# Figures in docs/: DOT source (compared) and its SVG (regenerated with it).
FIGURES_FILE = "docs/figures/FIGURES"


def slug(variant_id):
    return variant_id.replace("/", "__").replace("+", "_")


def explain(exe, variant_id, out, engine="relacy", show="focus", model="auto"):
    p = subprocess.run([exe, "explain", variant_id, "--out", out, "--engine", engine, "--show", show,
                        "--model", model], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"ordercheck explain {variant_id} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def necessity(exe, variant_id, out, model="auto"):
    p = subprocess.run([exe, "necessity", variant_id, "--out", out, "--model", model], capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"ordercheck necessity {variant_id} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def compare(mode, a, b, golden_dir, name, label):
    """One golden file: the same in two runs, then promoted or compared. Returns (passed, failed)."""
    if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
        print(f"FAIL {label} {name}: two runs differ")
        return 0, 1
    if mode == "promote":
        os.makedirs(golden_dir, exist_ok=True)
        shutil.copyfile(os.path.join(a, name), os.path.join(golden_dir, name))
        print(f"promoted {golden_dir}/{name}")
        return 0, 0
    if not os.path.exists(os.path.join(golden_dir, name)):
        print(f"FAIL {label} {name}: no golden file {golden_dir}/{name} (run the promote target)")
        return 0, 1
    if filecmp.cmp(os.path.join(a, name), os.path.join(golden_dir, name), shallow=False):
        return 1, 0
    print(f"FAIL {label} {name}: differs from {golden_dir}/{name}")
    subprocess.run(["diff", "-u", os.path.join(golden_dir, name), os.path.join(a, name)])
    return 0, 1


def figures(root):
    path = os.path.join(root, FIGURES_FILE)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        # "ID" (the default, focused figure) or "ID all" (the full figure, committed as SLUG.all.*)
        return [tuple(line.split()) for line in f if line.strip() and not line.startswith("#")]


def main():
    mode, exe, root = sys.argv[1], sys.argv[2], sys.argv[3]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (engine, vid, show, *pinned), files in GOLDEN.items():
            model = pinned[0] if pinned else "auto"
            suffix = "." + model if pinned else ""  # a model named in the key: its own directory
            tag = engine + show + slug(vid) + suffix
            a, b = os.path.join(tmp, tag + ".1"), os.path.join(tmp, tag + ".2")
            explain(exe, vid, a, engine, show, model)
            explain(exe, vid, b, engine, show, model)
            golden_dir = os.path.join(root, "traces", "golden", *(["graph"] if engine == "graph" else []),
                                      *(["focused"] if show == "focus" else []), slug(vid) + suffix)
            for name in files:
                p, f = compare(mode, a, b, golden_dir, name, vid)
                passed, failed = passed + p, failed + f
        for (vid, *pinned), files in NECESSITY.items():
            model = pinned[0] if pinned else "auto"
            suffix = "." + model if pinned else ""
            arg = os.path.join(root, vid) if vid.endswith(".litmus") else vid
            a, b = os.path.join(tmp, "nec" + slug(vid) + suffix + ".1"), os.path.join(tmp, "nec" + slug(vid) + suffix + ".2")
            necessity(exe, arg, a, model)
            necessity(exe, arg, b, model)
            rows = sorted(os.listdir(a))
            if not rows:
                print(f"FAIL necessity {vid}: no needed barrier was drawn")
                failed += 1
            golden_base = os.path.join(root, "traces", "golden", "necessity",
                                       slug(os.path.basename(vid) if vid.endswith(".litmus") else vid) + suffix)
            if mode == "check" and os.path.isdir(golden_base) and sorted(os.listdir(golden_base)) != rows:
                print(f"FAIL necessity {vid}: rows {rows} differ from {sorted(os.listdir(golden_base))}")
                failed += 1
            for row in rows:
                for name in files:
                    p, f = compare(mode, os.path.join(a, row), os.path.join(b, row), os.path.join(golden_base, row),
                                   name, f"necessity {vid} {row}")
                    passed, failed = passed + p, failed + f
        for entry in figures(root):
            vid, show = entry[0], entry[1] if len(entry) > 1 else "focus"
            out = os.path.join(tmp, "fig-" + show + slug(vid))
            explain(exe, vid, out, show=show)
            fig = os.path.join(root, "docs", "figures", slug(vid) + (".all" if show == "all" else ""))
            if mode == "promote":
                for ext in ("dot", "svg"):
                    src = os.path.join(out, "witness." + ext)
                    if os.path.exists(src):
                        shutil.copyfile(src, fig + "." + ext)
                        print(f"promoted {fig}.{ext}")
                shutil.copyfile(os.path.join(out, "interleaving.svg"), fig + ".interleaving.svg")
                continue
            for name, committed in (("witness.dot", fig + ".dot"), ("interleaving.svg", fig + ".interleaving.svg")):
                if os.path.exists(committed) and filecmp.cmp(os.path.join(out, name), committed, shallow=False):
                    passed += 1
                else:
                    print(f"FAIL figure {vid}: {committed} is stale or missing (run the promote-traces target)")
                    failed += 1
            if not os.path.exists(fig + ".svg"):
                print(f"FAIL figure {vid}: {fig}.svg missing")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
