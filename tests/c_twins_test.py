#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The C twins of the seeds (docs/writing-models.md, "One seed both ways"): every file
models/c/MODEL/VARIANT.litmus must be the C twin of the C++ variant MODEL/VARIANT, under the
engine and model both are judged with (the graph engine, LKMM):

- the C++ variant MODEL/VARIANT exists (`ordercheck list`);
- `ordercheck check FILE MODEL/VARIANT --engine graph --model lkmm` passes both (each against
  its own expectation: the file's Result: line, the variant's LKMM expectation), and the two
  give the same verdict and expect the same verdict, each search exhaustive or stopped at the
  failure (a data race, a failed assertion) it expects;
- the executable embeds exactly these files: `list` shows c:MODEL/VARIANT for each, no other;
- every variant of a model with a C twin has one (the four seeds: each variant, both ways);
- each hand-inlined copy models/c/MODEL/inlined/VARIANT.litmus (for herd7, which rejects C
  functions) has its twin's Result: and is judged ok by `ordercheck litmus --model lkmm`.

A failure names the file. usage: c_twins_test.py ORDERCHECK SOURCE_ROOT"""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish, runner  # noqa: E402

exe, root = sys.argv[1], os.path.abspath(sys.argv[2])
run = runner(exe)

files = sorted(glob.glob(os.path.join(root, "models", "c", "*", "*.litmus")))
expect("models/c/ holds C twins", len(files) > 0, root)

code, out, err = run("list")
expect("ordercheck list exits 0", code == 0, err)
listed = set(re.findall(r"^  (\S+)  expect ", out, re.M))


def result_line(path):
    m = re.search(r"^\s*\*?\s*Result:\s*(\S+)", open(path).read(), re.M)
    return m.group(1) if m else None


twins = set()
for path in files:
    rel = os.path.relpath(path, root)
    model = os.path.basename(os.path.dirname(path))
    variant = os.path.splitext(os.path.basename(path))[0]
    cpp = f"{model}/{variant}"
    twins.add(f"c:{cpp}")
    expect(f"{rel}: names the C++ variant {cpp}, which exists (ordercheck list)", cpp in listed,
           f"no variant {cpp}: the file must be models/c/MODEL/VARIANT.litmus for a variant MODEL/VARIANT")
    expect(f"{rel}: ordercheck embeds it as c:{cpp}", f"c:{cpp}" in listed, "rebuild? (scripts/embed-litmus.py)")
    if cpp not in listed:
        continue
    code, out, err = run("check", path, cpp, "--engine", "graph", "--model", "lkmm", "--format", "json",
                         "--no-progress")
    try:
        reports = json.loads(out)["variants"]
    except (ValueError, KeyError):
        expect(f"{rel}: check gives a JSON report", False, out[:500] + err[:500])
        continue
    by_cpp = [r for r in reports if r["id"] == cpp]
    by_c = [r for r in reports if r["id"] != cpp]
    if not (len(by_cpp) == 1 and len(by_c) == 1):
        expect(f"{rel}: one report each for the file and {cpp}", False, [r["id"] for r in reports])
        continue
    c, p = by_c[0], by_cpp[0]
    expect(f"{rel}: the C twin passes (its Result: {c['expected']}, found {c['verdict']})", c["status"] == "pass",
           c["summary"])
    expect(f"{rel}: {cpp} passes under LKMM", p["status"] == "pass", p["verdict"])
    expect(f"{rel}: the same verdict as {cpp} under LKMM (C {c['verdict']}, C++ {p['verdict']})",
           c["verdict"] == p["verdict"], "")
    expect(f"{rel}: the same expectation as {cpp} under LKMM (Result: {c['expected']}, C++ {p['expected']})",
           c["expected"] == p["expected"], "")
    # exhaustive, or stopped at the failure both expect (a data race, a failed assertion)
    settled = [r["exploration"] == "exhaustive" or (r["exploration"] == "until failure" and r["verdict"] == r["expected"])
               for r in (c, p)]
    expect(f"{rel}: both searches are exhaustive or stop at their expected failure", all(settled),
           (c["exploration"], p["exploration"]))

embedded = {i for i in listed if i.startswith("c:")}
for model in sorted({t.split(":", 1)[1].split("/")[0] for t in twins}):
    missing = sorted(v for v in listed if v.startswith(model + "/") and f"c:{v}" not in twins)
    expect(f"every variant of {model} has a C twin under models/c/{model}/", not missing, missing)
expect("ordercheck embeds no C twin without its file under models/c/", embedded <= twins, sorted(embedded - twins))

for inl in sorted(glob.glob(os.path.join(root, "models", "c", "*", "inlined", "*.litmus"))):
    rel = os.path.relpath(inl, root)
    twin = os.path.join(os.path.dirname(os.path.dirname(inl)), os.path.basename(inl))
    expect(f"{rel}: inlines the twin {os.path.relpath(twin, root)}, which exists", os.path.isfile(twin), twin)
    if not os.path.isfile(twin):
        continue
    expect(f"{rel}: the same Result: as its twin", result_line(inl) == result_line(twin),
           (result_line(inl), result_line(twin)))
    code, out, err = run("litmus", inl, "--model", "lkmm")
    expect(f"{rel}: ordercheck litmus --model lkmm judges it ok", code == 0 and "ok:" in out, out[-600:] + err)

finish()
