#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end checks of `ordercheck litmus` and `ordercheck explain FILE.litmus`: exit codes,
error positions, herd-like output, timing and benchmark lines."""
import json
import os
import re
import sys
import tempfile

exe, corpus = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)

SB = """C SB
(* Result: {result} *)
{{}}
P0(int *x, int *y) {{ int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }}
P1(int *x, int *y) {{ int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }}
exists (0:r0=0 /\\ 1:r0=0)
"""


def row(out, variant):
    """The line of `variant` in check's text report ('' if none)."""
    return next((l.rstrip() for l in out.splitlines() if l.startswith(variant + " ")), "")


with tempfile.TemporaryDirectory() as tmp:
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    good = write("good.litmus", SB.format(result="Sometimes"))
    bad = write("bad.litmus", SB.format(result="Never"))
    broken = write("broken.litmus", "C broken\n{}\nP0(int *x) {\n\tgoto out;\n}\nexists (x=1)\n")

    # No files, a missing file, a parse error alone, a search cut short: misuse_test.py.
    code, out, err = run("litmus", good)
    expect("a matching test exits 0", code == 0, f"{code} {out}")
    for line in ("Test SB Allowed", "States 4", "Ok", "Witnesses", "Condition exists (0:r0=0 /\\ 1:r0=0)",
                 "Judgement SB ok: Sometimes as expected"):
        expect(f"herd output has '{line}'", line in out, out)
    expect("Positive/Negative line", any(l.startswith("Positive: ") and " Negative: " in l for l in out.splitlines()), out)
    expect("Observation line", any(l.startswith("Observation SB Sometimes ") for l in out.splitlines()), out)
    expect("summary line", "litmus: 1 passed, 0 failed" in out, out)

    # --guesses-only: the load-buffering cycle from a guess, not a revisit; the same answer
    lb = os.path.join(corpus, "LB+ctrl+po.litmus")
    observations = []
    for extra in ([], ["--guesses-only"]):
        code, out, err = run("litmus", *extra, lb)
        expect(f"LB+ctrl+po {extra} exits 0", code == 0, out + err)
        observations.append([l for l in out.splitlines() if l.startswith(("Observation ", "States ", "Positive: "))])
    expect("--guesses-only gives the same states and counts", observations[0] == observations[1], str(observations))
    expect("LB+ctrl+po has its cycle", "Observation LB+ctrl+po Sometimes 1 3" in observations[0], str(observations))

    # the judgement names the memory model that gave the answer
    code, out, err = run("litmus", "--model", "rc11", good)
    expect("under --model rc11 the judgement says RC11", "(Result: Sometimes; RC11; exhaustive" in out, out + err)

    code, out, err = run("litmus", bad)
    expect("a mismatch exits 1", code == 1, f"{code} {out}")
    expect("a mismatch says so as judgelitmus does", "!!! Unexpected non-Never verification" in out, out)

    code, out, err = run("litmus", good, bad, broken)
    expect("a mismatch outranks a parse error", code == 1, f"{code}")

    # A value out of thin air (a plain load-buffering cycle through data dependencies) is left
    # out, and the output says so where herd7's count may differ (docs/lkmm.md, "Limits").
    code, out, err = run("litmus", os.path.join(corpus, "LB+plain-arith.litmus"))
    expect("a thin-air cycle is left out and reported", code == 0 and "Thin-air LB+plain-arith: 1 execution(s) left out" in out
           and "Observation LB+plain-arith Never 0 3" in out and "1 out of thin air left out" in out, f"{code} {out}")
    # A cycle of copies is kept (herd7 gives it a symbolic value), counted with the writes' value, and said.
    code, out, err = run("litmus", os.path.join(corpus, "LB+plain-copy.litmus"))
    expect("a copy cycle is kept and reported", code == 0 and "Thin-air LB+plain-copy: 1 execution(s) in which a value comes "
           "back to itself through copies" in out and "Observation LB+plain-copy Never 0 4" in out, f"{code} {out}")
    code, out, err = run("litmus", good)
    expect("no Thin-air line where nothing was left out", "Thin-air" not in out and "thin air" not in out, out)

    code, out, err = run("litmus", "--quiet", "--time", "--repeat", "3", good)
    expect("--quiet prints the judgement only", out.startswith("Judgement SB ok"), out)
    expect("--time prints a timing line", "Timing SB: parse " in out, out)
    expect("--repeat prints a benchmark line", "Benchmark SB: parse+run median " in out and "over 3 runs" in out, out)
    # Under LKMM the timing line shows the load-buffering rounds: desc-reserve+3+mb-after-head
    # needs a round with guesses (its failed cmpxchg reads close cycles), desc-reserve+3 does not
    # (every read is ordered before the writes after it), and RC11 has no rounds.
    rounds = re.compile(r"; round 1 [0-9.]+ ms \((\d+) executions, no guesses\)(, round 2 [0-9.]+ ms \((\d+) executions\))?\n")
    code, out, err = run("litmus", "--quiet", "--time", os.path.join(corpus, "desc-reserve+3+mb-after-head.litmus"))
    m = rounds.search(out)
    expect("--time shows the round without guesses and the round with them",
           m is not None and m.group(2) is not None and int(m.group(1)) < int(m.group(3)) == 252, out)
    code, out, err = run("litmus", "--quiet", "--time", os.path.join(corpus, "desc-reserve+3.litmus"))
    m = rounds.search(out)
    expect("--time shows one round where the text shows no read guesses",
           m is not None and m.group(2) is None and m.group(1) == "138", out)
    code, out, err = run("litmus", "--quiet", "--time", "--model", "rc11", os.path.join(corpus, "desc-reserve+3.litmus"))
    expect("--time shows no rounds under RC11", "Timing desc-reserve+3: " in out and "round" not in out, out)

    code, out, err = run("litmus", "--quiet", tmp)
    expect("a directory runs its .litmus files", code == 1 and out.count("Judgement ") == 3, f"{code} {out}")

    # A counting loop that needs five iterations: beyond the default unroll bound (2) every
    # execution is cut, and the test is bounded (exit 3), never a proof; --unroll 5 completes it.
    count = write("count.litmus", "C count\n(* Result: Always *)\n{}\n"
                  "P0(int *x) {\n\tint r0;\n\tfor (r0 = 0; r0 < 5; r0 = r0 + 1)\n\t\tWRITE_ONCE(*x, r0);\n}\n"
                  "exists (x=4)\n")
    for model in ("lkmm", "rc11"):
        code, out, err = run("litmus", "--model", model, count)
        expect(f"{model}: a loop beyond --unroll exits 3", code == 3, f"{code} {out} {err}")
        expect(f"{model}: the judgement is bounded", "Judgement count bounded: no execution completed within the unroll bound, "
               "expected Always: a loop needs more than 2 iterations" in out, out)
        expect(f"{model}: a Bounded line and no Observation, no Ok/No",
               "Bounded count: 1 run(s) cut at --unroll 2" in out and "Observation" not in out
               and "\nOk\n" not in out and "\nNo\n" not in out, out)
        expect(f"{model}: the summary counts it", "litmus: 0 passed, 0 failed (0 incomplete, 1 bounded," in out, out)
        code, out, err = run("litmus", "--model", model, "--unroll", "5", count)
        expect(f"{model}: --unroll 5 completes it", code == 0 and "Observation count Always 1 0" in out
               and "Judgement count ok" in out, f"{code} {out}")
    # A run in which a thread waits forever is no execution (herd7's Never 0 1), said on a line of
    # its own; when every run waits, the test deadlocks.
    code, out, err = run("litmus", os.path.join(corpus, "lock+never-released.litmus"))
    expect("a run that waits forever is no execution", code == 0 and "Observation lock+never-released Never 0 1" in out
           and "Waiting lock+never-released: 1 run(s) in which a thread waits forever" in out
           and "Judgement lock+never-released ok" in out, f"{code} {out} {err}")
    for model in ("lkmm", "rc11"):  # split over threads (LKMM) and worker processes (RC11: the JSON reports)
        code, out, err = run("litmus", "--model", model, "-j", "2", os.path.join(corpus, "lock+never-released.litmus"))
        expect(f"-j 2 under {model}: the run that waits counted once", code == 0 and "Never 0 1" in out
               and "Waiting lock+never-released: 1 run(s)" in out, f"{code} {out} {err}")
    # An execution with an await may be built twice, in two shards (docs/graph-engine.md,
    # "Blocking, locks"): the worker processes' per-outcome hashes count it once.
    ring = os.path.join(corpus, "RCU+ring+gp-gp-reader-reader-reader.litmus")
    code, out1, err = run("litmus", "--model", "rc11", ring)
    code2, out2, err2 = run("litmus", "--model", "rc11", "-j", "2", ring)
    obs = [[l for l in o.splitlines() if l.startswith("Observation ")] for o in (out1, out2)]
    expect("-j 2 under RC11: an await's executions counted once across worker processes",
           code == 0 and code2 == 0 and obs[0] == obs[1] and obs[0] != [], f"{obs} {err} {err2}")
    code, out, err = run("litmus", os.path.join(corpus, "lock+self-deadlock.litmus"))
    expect("every run waits: a deadlock, no Waiting line", code == 0 and "Never 0 0" in out and "Waiting" not in out
           and "ok: DEADLOCK as expected" in out, f"{code} {out} {err}")
    # Split over workers, the search counts each cut run once: the frontier every shard runs
    # counts in shard 0 only (it counted in each shard: 16 cut runs for 2 with -j 2).
    lb_loop = write("lb-loop.litmus", "C lb-loop\n{}\n"
                    "P0(int *x, int *y) {\n\tint r0;\n\tint i;\n\tr0 = READ_ONCE(*x);\n"
                    "\tfor (i = 0; i < 4; i = i + 1)\n\t\tWRITE_ONCE(*y, i);\n}\n"
                    "P1(int *x, int *y) {\n\tint r1;\n\tr1 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, 1);\n}\n"
                    "exists (0:r0=1 /\\ 1:r1=1)\n")
    code, out, err = run("litmus", "--model", "rc11", lb_loop)
    cuts = re.search(r"Bounded lb-loop: (\d+) run\(s\) cut", out)
    expect("lb-loop is bounded", code == 3 and cuts is not None, f"{code} {out} {err}")
    for jobs in ("2", "4"):
        code, out_j, err = run("litmus", "--model", "rc11", "-j", jobs, lb_loop)
        expect(f"-j {jobs}: the same cut runs as one process", code == 3 and cuts is not None
               and f"Bounded lb-loop: {cuts.group(1)} run(s) cut" in out_j, f"{code} {out_j} {err}")
    code, out, err = run("litmus", "--quiet", count, bad)
    expect("a mismatch outranks a bounded test", code == 1, f"{code} {out}")
    code, out, err = run("litmus", "--unroll", "0", count)
    expect("--unroll 0 is a usage error", code == 2 and "--unroll" in err, f"{code} {err}")

    # `check` on a litmus file takes --unroll too, and a cut is never a proof: the report is
    # bounded (exit 3, status incomplete) and names the bound, even where the executions within
    # the bound witness the expected Sometimes.
    code, out, err = run("check", count)
    expect("check: a loop beyond --unroll exits 3", code == 3, f"{code} {out} {err}")
    expect("check: the exploration is bounded and names the bound",
           row(out, "count/litmus").endswith("incomplete") and " bounded " in row(out, "count/litmus")
           and "cut at --unroll 2" in out, out)
    code, out, err = run("check", "--unroll", "5", count)
    expect("check: --unroll 5 completes it", code == 0 and row(out, "count/litmus").endswith("pass")
           and "exhaustive" in row(out, "count/litmus"), f"{code} {out}")
    some = write("some.litmus", "C some\n(* Result: Sometimes *)\n{}\n"
                 "P0(int *x, int *y, int *z) {\n\tint r0; int r1; int i;\n\tr1 = READ_ONCE(*x);\n"
                 "\tr0 = READ_ONCE(*y);\n\tfor (i = 0; i < r0; i = i + 1)\n\t\tWRITE_ONCE(*z, i);\n}\n"
                 "P1(int *x, int *y) {\n\tWRITE_ONCE(*x, 1);\n\tWRITE_ONCE(*y, 5);\n}\n"
                 "exists (0:r1=1)\n")
    for model in ("lkmm", "rc11"):
        code, out, err = run("check", "--model", model, "--format", "json", some)
        doc = json.loads(out) if out.startswith("{") else {}
        rep = doc.get("variants", [{}])[0] if doc else {}
        expect(f"check {model}: a witnessed Sometimes with a cut is no pass (exit 3)",
               code == 3 and rep.get("status") == "incomplete" and rep.get("verdict") == "Sometimes"
               and rep.get("exploration") == "bounded" and rep.get("unroll") == 2 and rep.get("unroll_cuts", 0) > 0,
               f"{code} {out} {err}")
        code, out, err = run("check", "--model", model, "--shards", "2", some)
        expect(f"check {model}: merged shards with a cut are no pass either", code == 3
               and row(out, "some/litmus").endswith("incomplete") and "cut at --unroll 2" in out, f"{code} {out} {err}")
        code, out, err = run("check", "--model", model, "--unroll", "6", some)
        expect(f"check {model}: --unroll 6 settles it", code == 0 and row(out, "some/litmus").endswith("pass"), f"{code} {out}")

    # Under LKMM a cut in a load-buffering run counts while some thread's later write could still
    # match the guess (docs/lkmm.md, "Loops cut in a guessed run"). Here P0 guesses y=1, P1 reads
    # the z that depends on it and spins to the bound, and P1's y=1 after the loop could match:
    # the cut counts (that write would close a dependency cycle LKMM forbids, which the engine does
    # not work out), so the search is bounded, no proof. Under RC11 nothing is guessed: exact.
    oota = write("oota-cut.litmus", "C oota-cut\n(* Result: Never *)\n{}\n"
                 "P0(int *x, int *y, int *z) {\n\tint r0;\n\tr0 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, 1);\n"
                 "\tWRITE_ONCE(*z, r0);\n}\n"
                 "P1(int *y, int *z) {\n\tint r1;\n\tint i;\n\tr1 = READ_ONCE(*z);\n\tif (r1 == 1)\n"
                 "\t\tfor (i = 0; i < 3; i = i + 1)\n\t\t\t;\n\tWRITE_ONCE(*y, 1);\n}\n"
                 "exists (0:r0=1 /\\ 1:r1=1)\n")
    def cut_counts_under_lkmm(name, path):
        code, out, err = run("litmus", "--model", "lkmm", path)
        expect(f"{name}: under LKMM the guessed run's cut counts (bounded, exit 3)",
               code == 3 and f"Judgement {name} bounded" in out, f"{code} {out} {err}")

    cut_counts_under_lkmm("oota-cut", oota)
    code, out, err = run("litmus", "--model", "rc11", oota)
    expect("oota-cut: exact under RC11", code == 0 and "ok: Never as expected" in out, f"{code} {out} {err}")

    # A cut in a guessed run also counts when a finished thread may run another way: P2's write
    # of y, past its loop's cut, revisits P1's read of y, and P1 then writes the x = 1 that P0's
    # guess needs (LKMM allows that cycle; it takes three iterations of the loop). A rule that
    # asked only whether P2 itself could still write x = 1 (no: it read P0's x = 5, so its write
    # would come after it) dropped the cut and answered an exact Never at --unroll 2.
    rerun = write("rerun-cut.litmus", "C rerun-cut\n(* Result: Never *)\n{}\n"
                  "P0(int *x) {\n\tint r0;\n\tr0 = READ_ONCE(*x);\n\tWRITE_ONCE(*x, r0 + 4);\n}\n"
                  "P1(int *x, int *y) {\n\tint r1;\n\tr1 = READ_ONCE(*y);\n\tif (r1 == 1)\n\t\tWRITE_ONCE(*x, 1);\n}\n"
                  "P2(int *x, int *y) {\n\tint r2;\n\tint i;\n\tr2 = READ_ONCE(*x);\n\ti = 0;\n\tif (r2 == 5) {\n"
                  "\t\twhile (i < 3)\n\t\t\ti = i + 1;\n\t}\n\tWRITE_ONCE(*y, 1);\n}\n"
                  "exists (2:r2=5)\n")
    cut_counts_under_lkmm("rerun-cut", rerun)
    code, out, err = run("litmus", "--model", "lkmm", "--unroll", "3", rerun)
    expect("rerun-cut: --unroll 3 finds the cycle (herd7 -unroll 3: Sometimes 1 10)",
           code == 1 and "Observation rerun-cut Sometimes 1 10" in out, f"{code} {out} {err}")

    # report and explain take --unroll too: a cut is never a proof there either.
    page = os.path.join(tmp, "page")
    code, out, err = run("report", "--out", page, "--no-necessity", count)
    expect("report: a loop beyond --unroll exits 3", code == 3, f"{code} {out} {err}")
    code, out, err = run("report", "--out", page, "--no-necessity", "--force", "--unroll", "5", count)
    expect("report: --unroll 5 completes it", code == 0, f"{code} {out} {err}")
    code, out, err = run("explain", count, "--out", os.path.join(tmp, "cut"))
    expect("explain: no witness within the bound says the search was cut",
           code == 0 and "no witness to draw" in out and "cut at --unroll 2" in out, f"{code} {out} {err}")
    code, out, err = run("explain", some, "--unroll", "6", "--out", os.path.join(tmp, "some"))
    expect("explain --unroll 6 draws the witness", code == 0 and "drew" in out and "cut at" not in out, f"{code} {out} {err}")

    # --jobs: one test's search split over worker processes (the graph engine under RC11) gives
    # the answer of one process, herd's counts included; under LKMM and with Relacy the search
    # stays in one process, with the same answer.
    def answer(out):
        return [l for l in out.splitlines() if not l.startswith("Time ")]
    many = [os.path.join(corpus, n + ".litmus") for n in ("desc-reserve+3", "IRIW+mbs", "LB+ctrls", "2+2W+poonceonces")]
    for extra in (["--model", "rc11"], ["--model", "lkmm"], ["--engine", "relacy"]):
        c1, o1, e1 = run("litmus", *extra, *many)
        c2, o2, e2 = run("litmus", *extra, "--jobs", "2", *many)
        expect(f"litmus {' '.join(extra)} --jobs 2 answers as one process does",
               c1 == c2 == 0 and answer(o1) == answer(o2), f"{c1} {c2}\n{o1}\n{o2}\n{e2}")
    code, out, err = run("litmus", "--model", "rc11", "--jobs", "2", count)
    expect("litmus --jobs 2: runs cut at --unroll in the workers count (bounded, exit 3)",
           code == 3 and "Judgement count bounded" in out and "cut at --unroll 2" in out, f"{code} {out} {err}")
    # Several tests with --jobs 2: two at a time in worker processes, printed in file order, the
    # same output, messages and exit code as one process (a mismatch, a parse error, a match).
    c1, o1, e1 = run("litmus", good, bad, broken, os.path.join(corpus, "LB+ctrls.litmus"))
    c2, o2, e2 = run("litmus", "--jobs", "2", good, bad, broken, os.path.join(corpus, "LB+ctrls.litmus"))
    expect("litmus --jobs 2 on several tests: the output of one process, in order",
           c1 == c2 == 1 and answer(o1) == answer(o2) and e1 == e2, f"{c1} {c2}\n{o1}\n{o2}\n{e1}\n{e2}")
    code, out, err = run("litmus", "--jobs", "2", "--repeat", "2", good, bad)
    expect("litmus --jobs with --repeat is a usage error", code == 2 and "--repeat" in err, f"{code} {out} {err}")
    code, out, err = run("litmus", "--jobs", "0", good)
    expect("litmus --jobs 0 is a usage error", code == 2 and "--jobs" in err, f"{code} {out} {err}")

    out_dir = os.path.join(tmp, "figures")
    code, out, err = run("explain", good, "--out", out_dir)
    expect("explain takes a litmus file, under LKMM", code == 0 and "SB/litmus (graph engine under LKMM): drew" in out,
           f"{code} {out} {err}")
    trace = os.path.join(out_dir, "witness.txt")
    expect("explain wrote the trace", os.path.exists(trace))
    if os.path.exists(trace):
        text = open(trace).read()
        expect("the trace names the litmus file and line", "good.litmus:4]" in text, text)

    # A test with no Result: whose search the timeout cuts short (inside its first run: the
    # loops make 250,000 writes) settles nothing: the judgement says so and the exit is 3, in one
    # process and in worker processes, not 0 as for a test run to its end.
    os.mkdir(os.path.join(tmp, "long"))
    long_loop = write("long/long.litmus", "C long\n{}\nP0(int *x)\n{\n\tint i = 0;\n\tint j = 0;\n"
                      "\twhile (i < 500) {\n\t\tj = 0;\n\t\twhile (j < 500) {\n\t\t\tWRITE_ONCE(*x, j);\n"
                      "\t\t\tj = j + 1;\n\t\t}\n\t\ti = i + 1;\n\t}\n}\nexists (x=5)\n")
    for jobs in ("1", "2"):
        code, out, err = run("litmus", "--quiet", "--unroll", "1000", "--timeout", "0.5", "--jobs", jobs, long_loop, good,
                             timeout=120)
        expect(f"litmus --jobs {jobs}: an unjudged test cut short exits 3", code == 3 and
               "Judgement long unjudged: no Result: annotation, not judged; the search was cut short" in out,
               f"{code} {out} {err}")

finish()
