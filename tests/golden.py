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

# Golden traces: the text trace, DOT and interleaving of two witnesses, byte for byte, under each
# engine (Relacy's in traces/golden/, the graph engine's in traces/golden/graph/).
GOLDEN = {
    ("relacy", "SB/relaxed"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("relacy", "MP/relaxed"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "SB/relaxed"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "MP/relaxed"): ["witness.txt", "witness.dot", "interleaving.txt"],
    ("graph", "2+2W/relaxed"): ["witness.txt", "witness.dot", "interleaving.txt"],
}
# Figures in docs/: DOT source (compared) and its SVG (regenerated with it).
FIGURES_FILE = "docs/figures/FIGURES"


def slug(variant_id):
    return variant_id.replace("/", "__").replace("+", "_")


def explain(exe, variant_id, out, engine="relacy"):
    p = subprocess.run([exe, "explain", variant_id, "--out", out, "--engine", engine], capture_output=True, text=True,
                       timeout=300)
    if p.returncode != 0:
        sys.exit(f"ordercheck explain {variant_id} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def figures(root):
    path = os.path.join(root, FIGURES_FILE)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def main():
    mode, exe, root = sys.argv[1], sys.argv[2], sys.argv[3]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (engine, vid), files in GOLDEN.items():
            a, b = (os.path.join(tmp, engine + slug(vid) + ".1"), os.path.join(tmp, engine + slug(vid) + ".2"))
            explain(exe, vid, a, engine)
            explain(exe, vid, b, engine)
            golden_dir = os.path.join(root, "traces", "golden", *(["graph"] if engine == "graph" else []), slug(vid))
            for name in files:
                if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
                    print(f"FAIL {vid} {name}: two runs differ")
                    failed += 1
                    continue
                if mode == "promote":
                    os.makedirs(golden_dir, exist_ok=True)
                    shutil.copyfile(os.path.join(a, name), os.path.join(golden_dir, name))
                    print(f"promoted {golden_dir}/{name}")
                elif not os.path.exists(os.path.join(golden_dir, name)):
                    print(f"FAIL {vid} {name}: no golden file {golden_dir}/{name} (run the promote target)")
                    failed += 1
                elif filecmp.cmp(os.path.join(a, name), os.path.join(golden_dir, name), shallow=False):
                    passed += 1
                else:
                    print(f"FAIL {vid} {name}: differs from {golden_dir}/{name}")
                    subprocess.run(["diff", "-u", os.path.join(golden_dir, name), os.path.join(a, name)])
                    failed += 1
        for vid in figures(root):
            out = os.path.join(tmp, "fig-" + slug(vid))
            explain(exe, vid, out)
            fig = os.path.join(root, "docs", "figures", slug(vid))
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
