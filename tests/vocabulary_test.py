#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One vocabulary per memory model: every output-producing command under LKMM (check in each
format, explain, necessity, diff, report, with every file they write) speaks the kernel's words,
never C++11's (`rlx`, `release fence`, `acquire fence`, `C++11 mapping`, `W.rlx`, `F.sc`); under
`--model rc11` the C++11 words are still where they belong. Also: outcome listings name the
litmus test's registers, not its pointer parameters, and figures draw what the weakened program
runs.

usage: vocabulary_test.py ORDERCHECK SOURCE_ROOT"""
import os
import re
import subprocess
import sys
import tempfile

exe, root = sys.argv[1], os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish  # noqa: E402

# The C++11 words, and the C++11 labels of events (`W.rlx`, `F.sc`, `R.acq`, `U.acqrel`).
CPP11 = re.compile(r"rlx|release fence|acquire fence|C\+\+11 mapping|\b[RWUF]\.(?:na|rlx|acq|rel|acqrel|sc)\b")
MP = os.path.join(root, "litmus", "tests", "MP+wmb+rmb.litmus")
MP_ONCE = os.path.join(root, "litmus", "tests", "MP+poonceonces.litmus")


def run(*args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def leaks(text):
    """The C++11 words in TEXT, with a little context each."""
    return [text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ") for m in CPP11.finditer(text)]


def files_under(d):
    for base, _, names in os.walk(d):
        for n in names:
            yield os.path.join(base, n)


def check_lkmm(what, code, out, out_dir=None, codes=(0,)):
    """COMMAND's exit code is one of CODES; its output, and every file (and file name) it wrote
    under OUT_DIR, hold no C++11 word."""
    expect(f"{what}: exits {'/'.join(map(str, codes))}", code in codes, f"{code}\n{out[-2000:]}")
    expect(f"{what}: no C++11 word in its output", not leaks(out), leaks(out)[:5])
    if out_dir is None:
        return
    written = list(files_under(out_dir))
    expect(f"{what}: wrote files", len(written) > 0, out_dir)
    for path in written:
        rel = os.path.relpath(path, out_dir)
        text = open(path, encoding="utf-8", errors="replace").read()
        expect(f"{what}: no C++11 word in {rel}", not leaks(text) and not leaks(rel), (leaks(rel) + leaks(text))[:5])


with tempfile.TemporaryDirectory() as tmp:
    out = lambda name: os.path.join(tmp, name)  # noqa: E731
    ids = ["shrinker_bit/merged", "shrinker_bit/no_after_atomic", MP]

    # ---- under LKMM: no C++11 word anywhere ----
    for fmt in ("text", "json", "junit"):
        code, text = run("check", *ids, "--model", "lkmm", "--format", fmt)
        check_lkmm(f"check --format {fmt}", code, text)
    # every variant's justification under LKMM is its LKMM argument (Expectation::lkmm_why where
    # the C++11 one speaks of fences and sw edges)
    code, text = run("check", "--all", "--model", "lkmm", "--format", "json")
    check_lkmm("check --all --model lkmm --format json", code, text)
    for vid in ("shrinker_bit/no_after_atomic", "shrinker_bit/merged", MP):
        for show in ("focus", "all"):
            d = out(f"explain-{show}-{os.path.basename(vid)}")
            code, text = run("explain", vid, "--out", d, "--any", "--show", show, "--model", "lkmm")
            check_lkmm(f"explain {os.path.basename(vid)} --show {show}", code, text, d)
    for vid in ("shrinker_bit/merged", MP):
        d = out("necessity-" + os.path.basename(vid))
        code, text = run("necessity", vid, "--out", d, "--model", "lkmm")
        check_lkmm(f"necessity {os.path.basename(vid)} --out", code, text, d)
        if vid == "shrinker_bit/merged":
            expect("necessity under LKMM: the weakened fence is named smp_wmb(), and suffices under LKMM",
                   re.search(r"smp_mb__before_atomic\(\).*-> smp_wmb\(\) .*the weaker form suffices under LKMM", text),
                   text)
    d = out("diff")
    code, text = run("diff", "shrinker_bit/merged", "shrinker_bit/no_after_atomic", "--out", d, "--model", "lkmm")
    check_lkmm("diff shrinker_bit/merged shrinker_bit/no_after_atomic --out", code, text, d, codes=(1,))
    d = out("diff-litmus")
    code, text = run("diff", MP, MP_ONCE, "--out", d, "--model", "lkmm")
    check_lkmm("diff MP+wmb+rmb MP+poonceonces --out", code, text, d, codes=(1,))
    # Registers: the test's own (its exists clause), never a pointer parameter's address.
    only_b = [l for l in text.splitlines() if "only B reaches" in l]
    expect("diff of two litmus tests lists the test's registers only",
           len(only_b) == 1 and only_b[0].strip() == "only B reaches: 1:r0=1 /\\ 1:r1=0", text)
    drawn = sorted(os.listdir(d)) if os.path.isdir(d) else []
    expect("... and names its figure's directory by them", drawn == ["1-1_r0_1_1_r1_0"], drawn)
    d = out("report")
    code, text = run("report", "--out", d, "shrinker_bit", MP, "--model", "lkmm")
    check_lkmm("report --out (with necessity)", code, text, d, codes=(0, 1))
    html = open(os.path.join(d, "index.html")).read() if os.path.isfile(os.path.join(d, "index.html")) else ""
    expect("the report's necessity table says what the CLI says",
           "the weaker form suffices under LKMM" in html and "<td>-&gt; smp_wmb()</td>" in html, html[:300])

    # The interleaving of a weakened program draws what it runs: no removed barrier.
    d = out("explain-focus-no_after_atomic")
    for name in ("interleaving.txt", "interleaving.svg"):
        path = os.path.join(d, name)
        text = open(path).read() if os.path.isfile(path) else ""
        expect(f"{name} of shrinker_bit/no_after_atomic (the base with the barrier removed) has no "
               "smp_mb__after_atomic()", text and "smp_mb__after_atomic" not in text, text)
    trace = open(os.path.join(d, "witness.txt")).read() if os.path.isfile(os.path.join(d, "witness.txt")) else ""
    expect("... while its trace keeps the removed barrier, marked as removed",
           "F (removed: smp_mb__after_atomic)" in trace, trace)

    # ---- under RC11: the C++11 words are where they belong ----
    code, text = run("necessity", "shrinker_bit/merged", "--model", "rc11")
    expect("necessity --model rc11 names the mapping: smp_wmb() (release fence), the C++11 mapping",
           code == 0 and "-> smp_wmb() (release fence)" in text and "under the C++11 mapping" in text, text)
    d = out("explain-rc11")
    code, text = run("explain", "shrinker_bit/no_after_atomic", "--out", d, "--model", "rc11")
    trace = open(os.path.join(d, "witness.txt")).read() if os.path.isfile(os.path.join(d, "witness.txt")) else ""
    expect("explain --model rc11 labels events by their C++11 orders (W.rlx, F.sc)",
           code == 0 and "W.rlx nr_items=1" in trace and "F.sc " in trace and "F.rlx(removed: sc)" in trace, trace)

finish()
