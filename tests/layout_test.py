#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The house rules of the source tree (docs/hacking.md, "The house"), checked on every run.

- Every include between modules points down the layers of LAYERS: a module includes only
  modules below it (no cycle between folders is then possible; the check for one is explicit
  anyway, to name it if the table is ever loosened).
- Only checker/engines/ includes a backend (checker/graph/, checker/relacy/); tests/ may.
- checker/memory_model/ depends on traces/ only.
- Nothing outside bench/ and tests/ includes bench/, and the ordercheck executable holds no
  symbol of the benchmark's models (`nm`).
- No source file outside tests/ is over 700 lines; no two source files share a name.

Usage: layout_test.py SOURCE_ROOT ORDERCHECK_EXE
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

root, exe = sys.argv[1], sys.argv[2]

# The modules, lowest first. A module may include modules of a lower layer (and itself); modules
# of one layer do not include each other. A file belongs to the longest module path that prefixes
# it (litmus/fuzz/ is part of litmus/).
LAYERS = [
    ["traces", "checker"],               # the execution graph and exporters; checker/version.hpp
    ["checker/memory_model"],            # RC11, LKMM (tags, relations), SC, the explaining cycle
    ["checker/model"],                   # the model API and its runtime
    ["checker/explore"],                 # the exploration interface: options, results, stop flag
    ["checker/graph", "checker/relacy"],  # the two backends
    ["checker/engines"],                 # explore() and capabilities(): the only door to a backend
    ["checker/driver"],                  # check, necessity, diff
    ["litmus", "models"],                # the C litmus front end; the catalogue
    ["cli"],                             # the command line
    ["bench", "docs/examples", "tests"],  # over the product
]
RANK = {m: i for i, layer in enumerate(LAYERS) for m in layer}
BACKENDS = ("checker/graph", "checker/relacy")
SOURCE_EXT = (".cpp", ".hpp", ".h", ".hpp.in")


def module_of(path):
    best = None
    for m in RANK:
        if path == m or path.startswith(m + "/"):
            if best is None or len(m) > len(best):
                best = m
    return best


def tracked_files():
    """The repository's files (git ls-files), or, outside a checkout, the tree minus build dirs."""
    git = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    if git.returncode == 0:
        return git.stdout.split()
    out = []
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if not s.startswith((".", "build"))]
        out += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return out


files = tracked_files()
sources = [f for f in files if f.endswith(SOURCE_EXT)]
expect("the tree has sources", len(sources) > 100, len(sources))

include_re = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
edges = collections.defaultdict(set)  # module -> modules it includes
for f in sources:
    src_mod = module_of(f)
    with open(os.path.join(root, f), errors="replace") as fh:
        lines = fh.readlines()
    if not f.startswith("tests/"):
        expect(f"{f}: at most 700 lines", len(lines) <= 700, f"{len(lines)} lines")
    for n, line in enumerate(lines, 1):
        m = include_re.match(line)
        if not m:
            continue
        target = m.group(1)
        if not os.path.exists(os.path.join(root, target)):
            continue  # a generated header (checker/version.hpp), a system one, or relative
        dst_mod = module_of(target)
        if src_mod is None or dst_mod is None or src_mod == dst_mod:
            continue
        edges[src_mod].add(dst_mod)
        where = f"{f}:{n}: includes {target}"
        if src_mod != "tests":
            expect(f"{where} ({src_mod} -> {dst_mod}) points down the layers", RANK[dst_mod] < RANK[src_mod],
                   f"{src_mod} is layer {RANK[src_mod]}, {dst_mod} layer {RANK[dst_mod]}")
        if dst_mod in BACKENDS:
            expect(f"{where}: only checker/engines and tests reach a backend", src_mod in ("checker/engines", "tests"))
        if src_mod == "checker/memory_model":
            expect(f"{where}: checker/memory_model depends on traces only", dst_mod == "traces")
        if dst_mod == "bench":
            expect(f"{where}: only bench and tests include bench", src_mod in ("bench", "tests"))

# No cycle between modules (tests excluded: they sit over everything).
state = {}


def cycle_from(m, path):
    state[m] = 1
    for d in sorted(edges.get(m, ())):
        if d == "tests":
            continue
        if state.get(d) == 1:
            return path + [m, d]
        if d not in state:
            c = cycle_from(d, path + [m])
            if c:
                return c
    state[m] = 2
    return None


cycle = None
for m in sorted(edges):
    if m != "tests" and m not in state:
        cycle = cycle_from(m, [])
        if cycle:
            break
expect("no include cycle between modules", cycle is None, " -> ".join(cycle or []))

# Every source file's name is unique.
names = collections.defaultdict(list)
for f in sources:
    names[os.path.basename(f)].append(f)
dups = {k: v for k, v in names.items() if len(v) > 1}
expect("no two source files share a name", not dups, dups)

# The product holds no benchmark code.
nm = subprocess.run(["nm", "-C", exe], capture_output=True, text=True)
expect("nm reads the executable", nm.returncode == 0 and "oc::cli::main" in nm.stdout, nm.stderr[:300])
bench_symbols = [line for line in nm.stdout.splitlines() if "oc::bench::" in line]
expect("the ordercheck executable links no benchmark code", not bench_symbols, bench_symbols[:5])

finish()
