#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tests ordercheck answers wrongly today (litmus/known-wrong/README.md), pinned: each must be
parsed, explored to the end and judged FAIL against herd7's Result: line with the answer
docs/lkmm.md ("Limits") states. When the engine is fixed this test fails: move the tests into
litmus/tests/ and remove the limit from the docs.

Usage: known_wrong_test.py ORDERCHECK DIR
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import expect, finish  # noqa: E402

exe, directory = sys.argv[1], sys.argv[2]
tests = sorted(glob.glob(os.path.join(directory, "*.litmus")))
expect("known-wrong tests exist", len(tests) >= 3, tests)
for path in tests:
    name = os.path.basename(path)[: -len(".litmus")]
    p = subprocess.run([exe, "litmus", "--quiet", "--model", "lkmm", path], capture_output=True, text=True,
                       timeout=120)
    out = p.stdout
    expect(f"{name}: judged, not a usage or parse error", p.returncode == 1, (p.returncode, p.stderr[:500]))
    expect(f"{name}: explored to the end", "exhaustive" in out and "not parsed" in out
           and "0 not parsed" in out and "0 incomplete" in out, out[:800])
    expect(f"{name}: still the known wrong answer (observed Never against herd7's Sometimes)",
           f"Judgement {name} FAIL" in out and "observed Never; Result: Sometimes; LKMM" in out, out[:800])
finish()
