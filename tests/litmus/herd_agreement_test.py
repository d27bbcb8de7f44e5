#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`ordercheck litmus --model lkmm` against herd7's recorded verdicts (scripts/herd7-verdicts.sh):
for every test herd7 judged, the same Observation (verdict, Positive, Negative) and the same
Flag lines (the verdict and the Flag lines only where herd7 cut executions at its unroll bound:
its TSV note says `Loop:`). Tests herd7 could not judge (an error or a timeout) are listed, not compared.

  herd_agreement_test.py ORDERCHECK TSV BASE [--kernel-tarball TARBALL] [--kernel-conf TARBALL | --conf-env VAR]

BASE is the directory the TSV's file column is relative to. With --kernel-tarball, BASE is
tools/memory-model inside that tarball (Debian's linux-source-6.1), whose
tools/memory-model/litmus-tests and Documentation/litmus-tests (the TSV names them
../../Documentation/litmus-tests/...) are extracted into a temporary directory: the kernel's
files (GPL-2.0) are never copied into the repository. The test is skipped (exit 77) when the
tarball is not installed.

With --kernel-conf TARBALL (may follow --kernel-tarball), ordercheck runs the memory model of
that tarball's tools/memory-model (linux-kernel.cfg and the .bell, .cat, .def files it names,
extracted into a temporary directory) through `litmus --conf`, not its built-in LKMM: Linux 6.1's
own .cat files against the same herd7 verdicts (docs/cat.md). Skipped (exit 77) without the
tarball.

With --conf-env VAR, ordercheck runs the model of the folder the environment variable VAR names
(`litmus --conf $VAR/linux-kernel.cfg`: a kernel tree's tools/memory-model, or herdtools7's
catalogue/linux/cfgs with its cats and bells beside), not its built-in LKMM: for verdicts herd7
took with another model than Linux 6.1's. Skipped (exit 77) when VAR is unset, or names no
linux-kernel.cfg.
"""
import os
import re
import subprocess
import sys
import tarfile
import tempfile

exe, tsv, base = sys.argv[1], sys.argv[2], sys.argv[3]
options = dict(zip(sys.argv[4::2], sys.argv[5::2]))
unknown = set(options) - {"--kernel-tarball", "--kernel-conf", "--conf-env"}
if unknown or len(sys.argv[4:]) % 2 != 0:
    print("usage: " + next(l.strip() for l in __doc__.splitlines() if "ORDERCHECK TSV BASE" in l), file=sys.stderr)
    sys.exit(2)
tarball = options.get("--kernel-tarball")
conf_tarball = options.get("--kernel-conf")
conf_env = options.get("--conf-env")
# how ordercheck is asked for the memory model herd7 judged with
MODEL = ["--model", "lkmm"]
if conf_env is not None:
    folder = os.environ.get(conf_env, "")
    cfg = os.path.join(folder, "linux-kernel.cfg")
    if not folder or not os.path.isfile(cfg):
        print(f"skipped: set {conf_env} to the folder of the memory model these verdicts were taken with "
              f"(its linux-kernel.cfg; the TSV's header names it)")
        sys.exit(77)
    MODEL = ["--conf", cfg]

# Where ordercheck cannot give herd's answer: (file, what differs, why). Empty: none.
KNOWN = {}
# The same, under a .cat model (--kernel-conf, --conf-env): file -> why.
KNOWN_UNDER_CAT = {
    "litmus/tests/unlock+unmatched.litmus": "a .cat model refuses a program with an unlock no lock of its thread "
                                            "precedes (docs/cat.md, Known differences)",
}
# Where ordercheck gives herd's verdict and flags but other counts: file -> why. The verdict and
# the Flag lines are compared.
COUNTS_DIFFER = {
    "litmus/tests/unlock+unmatched.litmus": "lock.cat leaves an unmatched unlock out of co; the graph engine "
                                            "orders it with the other writes of the lock (docs/lkmm.md, Limits)",
}
# Tests herd7 did not judge that are too slow under LKMM for the everyday suite (the benchmark
# runs them: bench/graph_bench.py): file name -> why. Empty: none.
SLOW = {}
# Tests herd7 did not judge whose search under LKMM is bounded at any --unroll (a cut in a
# load-buffering run that a later write could still match counts: docs/lkmm.md, "Loops cut in a
# guessed run"): under LKMM the judgement must be `bounded` with no witness against the Result:
# line (exit 3); the corpus judges them exactly under RC11. File name -> why. Empty: none.
BOUNDED_UNDER_LKMM = {}


def herd_rows():
    rows = []
    with open(tsv) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            file, test, verdict, pos, neg, flags = cols[:6]
            note = cols[7] if len(cols) > 7 else ""
            rows.append((file, test, verdict, pos, neg, sorted(x for x in flags.split(",") if x), note))
    return rows


def observe(path):
    """ordercheck's Observation and Flag lines for one file."""
    p = subprocess.run([exe, "litmus", *MODEL, path], capture_output=True, text=True, timeout=600)
    obs, flags = None, []
    for line in p.stdout.splitlines():
        if line.startswith("Observation "):
            obs = line.split()[2:5]
        elif line.startswith("Flag "):
            flags.append(line.split()[1])
    return obs, sorted(flags), p


def main(root):
    failures, compared, skipped = [], 0, []
    for file, test, verdict, pos, neg, flags, note in herd_rows():
        if verdict not in ("Always", "Sometimes", "Never"):
            # herd7 gave no verdict (an extension it lacks, a timeout): judge the file's Result:
            # line under LKMM instead, unless it is too slow for this suite
            if os.path.basename(file) in SLOW:
                skipped.append(f"{file}: herd7 {verdict}; not run: {SLOW[os.path.basename(file)]}")
                continue
            p = subprocess.run([exe, "litmus", *MODEL, "-q", os.path.join(root, file)],
                               capture_output=True, text=True, timeout=600)
            lacking = re.search(r"the primitive '(\w+)' is not defined by the macro table", p.stderr)
            if MODEL[0] == "--conf" and p.returncode == 2 and lacking:
                # the model's own macro table lacks a primitive the file uses, and herd7 refused
                # the file too (with these files, or for one of its own limits): nothing to judge.
                # A primitive ordercheck runs without the table (smp_cond_load_acquire) is judged
                # by the Result: line below.
                skipped.append(f"{file}: herd7 {verdict}; ordercheck refuses it too: the model's macro table has no "
                               f"{lacking.group(1)}")
                continue
            if os.path.basename(file) in BOUNDED_UNDER_LKMM and p.returncode == 3:
                skipped.append(f"{file}: herd7 {verdict}; bounded under LKMM with no witness against its Result: line "
                               f"({BOUNDED_UNDER_LKMM[os.path.basename(file)]})")
                continue
            if p.returncode != 0:
                failures.append(f"{file}: herd7 {verdict}; its Result: line does not hold under LKMM: "
                                + p.stdout.strip().splitlines()[0][:300])
            skipped.append(f"{file}: herd7 {verdict}; Result: line judged under LKMM")
            continue
        obs, got_flags, p = observe(os.path.join(root, file))
        compared += 1
        want = [verdict, pos, neg]
        if note.startswith("Loop:") and obs is not None:
            # herd7 cut executions at its unroll bound (its answer is bounded) and counts each
            # unrolling an await exits in; ordercheck explores an await without a bound and counts
            # one execution per way it succeeds (docs/litmus.md, "Loops"): the verdicts only.
            want, obs = [verdict], obs[:1]
        if file in COUNTS_DIFFER and obs is not None and obs[:1] == [verdict] and got_flags == flags:
            print(f"counts differ, as known: {file}: herd7 {pos} {neg}, ordercheck {obs[1]} {obs[2]}: {COUNTS_DIFFER[file]}")
            continue
        if obs != want or got_flags != flags:
            if file in KNOWN:
                print(f"known: {file}: {KNOWN[file]}")
                continue
            if MODEL[0] == "--conf" and file in KNOWN_UNDER_CAT:
                print(f"known under a .cat model: {file}: {KNOWN_UNDER_CAT[file]}")
                continue
            failures.append(f"{file}: herd7 {' '.join(want)} {flags}, ordercheck {obs} {got_flags}"
                            + ("" if obs else f" (exit {p.returncode}: {p.stderr.strip()[:200]})"))
    for s in skipped:
        print(f"not compared ({s})")
    for f in failures:
        print(f"MISMATCH {f}")
    print(f"herd agreement: {compared - len(failures)} of {compared} tests as herd7 judged them; "
          f"{len(skipped)} not judged by herd7")
    return 1 if failures else 0


MODEL_FILES = ("linux-kernel.cfg", "linux-kernel.bell", "linux-kernel.cat", "linux-kernel.def", "lock.cat")


def wanted(name, tests, model):
    """Whether the tarball member `name` is one of the kernel's litmus tests (tests) or one of its
    memory model's files (model)."""
    if tests and ("/tools/memory-model/litmus-tests/" in name or "/Documentation/litmus-tests/" in name):
        return True
    return model and any(name.endswith("/tools/memory-model/" + f) for f in MODEL_FILES)


for t in (tarball, conf_tarball):
    if t is not None and not os.path.exists(t):
        print(f"skipped: {t} is not installed (Debian package linux-source-6.1)")
        sys.exit(77)
if tarball is None and conf_tarball is None:
    sys.exit(main(base))
# per tarball: whether its litmus tests, whether its model files are wanted
sources = {}
if tarball is not None:
    sources.setdefault(tarball, [False, False])[0] = True
if conf_tarball is not None:
    sources.setdefault(conf_tarball, [False, False])[1] = True
with tempfile.TemporaryDirectory() as tmp:
    for t, (tests, model) in sources.items():
        with tarfile.open(t) as tf:
            tf.extractall(tmp, members=[m for m in tf.getmembers() if wanted(m.name, tests, model)])
    mm = [os.path.join(tmp, d, "tools", "memory-model") for d in sorted(os.listdir(tmp))]
    if conf_tarball is not None:
        cfg = os.path.join(mm[0], "linux-kernel.cfg")
        if not all(os.path.isfile(os.path.join(mm[0], f)) for f in MODEL_FILES):
            sys.exit(f"{conf_tarball}: no complete tools/memory-model ({', '.join(MODEL_FILES)})")
        MODEL = ["--conf", cfg]
    sys.exit(main(mm[0] if tarball is not None else base))
