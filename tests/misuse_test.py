#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The misuse suite: what a user can get wrong on the command line, in one table.

Each Row is a command line and what must come of it: the exit code, a fragment of stderr and/or
stdout, and that the process neither crashed (no signal, no sanitizer or terminate report) nor
hung (it finished within the row's time limit). Usage errors (exit 2) are one line unless the
row says otherwise. To add a case, add a Row; a row can also send a signal to the process after a
delay (send_signal, signal_after) to test interruption.

Placeholders in a row's arguments ({tmp}, {sb}, {big}...) name the files set up below.
tests/cli_test.py and tests/litmus/litmus_cli_test.py test the outputs of correct use.
"""
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

exe = sys.argv[1]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)


@dataclasses.dataclass
class Row:
    name: str
    args: list
    code: int
    stderr: object = ""         # a fragment stderr must contain (or a tuple of them)
    stdout: str = ""            # a fragment stdout must contain
    not_stdout: tuple = ()      # fragments stdout must not contain ("^X": no line starts with X)
    one_line: bool = None       # stderr is one line (default: for exit 2)
    timeout: float = 20         # seconds; a row still running then is a hang
    send_signal: int = None     # a signal to send after signal_after seconds
    signal_after: float = 1.0


def usage(option, command="check"):
    """The pointer a usage error ends with."""
    return f"; see 'ordercheck {command} --help'"


# A test with 16 processes: far more executions than any search finishes in a second; its
# condition (a value nobody writes) is never witnessed, so a search cut short settles nothing.
BIG = "C big16\n(* Result: Never *)\n{}\n" + "".join(
    f"P{i}(int *x0, int *x1, int *x2) {{ int r0; WRITE_ONCE(*x{i % 3}, {i + 1}); r0 = READ_ONCE(*x{(i + 1) % 3}); }}\n"
    for i in range(16)) + "exists (0:r0=99)\n"
SB = """C SB
(*
 * Result: {result}
 *)
{{}}
P0(int *x, int *y) {{ int r0; WRITE_ONCE(*x, 1); r0 = READ_ONCE(*y); }}
P1(int *x, int *y) {{ int r0; WRITE_ONCE(*y, 1); r0 = READ_ONCE(*x); }}
exists (0:r0=0 /\\ 1:r0=0)
"""

ROWS = [
    # ---- numeric options: range-checked, one line, before any work ----
    Row("--jobs negative", ["check", "SB", "--jobs", "-3"], 2,
        "--jobs must be an integer between 1 and 256 (worker processes) (got '-3')" + usage("jobs")),
    Row("--jobs too many", ["check", "SB", "--jobs", "100000"], 2, "between 1 and 256"),
    Row("--jobs 0", ["check", "SB", "-j", "0"], 2, "--jobs must be"),
    Row("--jobs not a number", ["check", "SB", "--jobs", "x"], 2, "(got 'x')"),
    Row("--shards negative", ["check", "SB", "--shards", "-2"], 2, "--shards must be an integer between 1 and 4096"),
    Row("--shards 0", ["check", "SB", "--shards", "0"], 2, "--shards must be"),
    Row("--max-executions negative", ["check", "SB", "--max-executions", "-5"], 2,
        "--max-executions must be an integer between 0 and 9223372036854775807 (0: no limit) (got '-5')"),
    Row("--max-executions overflows", ["check", "SB", "--max-executions", "99999999999999999999"], 2,
        "--max-executions must be"),
    Row("--max-executions not a number", ["check", "SB", "--max-executions", "many"], 2, "(got 'many')"),
    Row("--max-executions trailing text", ["check", "SB", "--max-executions", "5k"], 2, "(got '5k')"),
    Row("--timeout nan", ["check", "SB", "--timeout", "nan"], 2, "--timeout must be a number of seconds"),
    Row("--timeout inf", ["check", "SB", "--timeout", "inf"], 2, "--timeout must be"),
    Row("--timeout negative", ["check", "SB", "--timeout", "-1"], 2, "(got '-1')"),
    Row("--timeout huge", ["check", "SB", "--timeout", "1e400"], 2, "--timeout must be"),
    Row("--timeout empty", ["check", "SB", "--timeout", ""], 2, "--timeout must be"),
    Row("--context-bound negative", ["check", "SB", "--engine", "relacy", "--search", "bound", "--context-bound", "-1"],
        2, "--context-bound must be an integer between 0 and 1000"),
    Row("--random-executions 0", ["check", "SB", "--engine", "relacy", "--search", "random",
                                  "--random-executions", "0"], 2, "--random-executions must be an integer between 1"),
    Row("--random-executions negative", ["check", "SB", "--engine", "relacy", "--search", "random",
                                         "--random-executions", "-1"], 2, "(got '-1')"),
    Row("litmus --repeat negative", ["litmus", "--repeat", "-1", "{sb}"], 2,
        "--repeat must be an integer between 0 and 1000 (got '-1')" + usage("repeat", "litmus")),
    Row("litmus --timeout nan", ["litmus", "--timeout", "nan", "{sb}"], 2, "--timeout must be"),
    Row("litmus --max-executions negative", ["litmus", "--max-executions", "-5", "{sb}"], 2, "--max-executions must be"),
    Row("litmus --guesses-only under RC11", ["litmus", "--guesses-only", "--model", "rc11", "{sb}"], 2,
        "--guesses-only is how the graph engine builds load buffering under LKMM"),
    Row("litmus --guesses-only with Relacy", ["litmus", "--guesses-only", "--engine", "relacy", "{sb}"], 2,
        "it does not go with --engine relacy or --model rc11"),
    Row("litmus --unroll 0", ["litmus", "--unroll", "0", "{sb}"], 2, "--unroll must be an integer between 1 and 1000"),
    Row("litmus --unroll not a number", ["litmus", "--unroll", "x", "{sb}"], 2, "(got 'x')"),
    Row("litmus --jobs 0", ["litmus", "--jobs", "0", "{sb}"], 2,
        "--jobs must be an integer between 1 and 256 (worker processes) (got '0')" + usage("jobs", "litmus")),
    Row("litmus --jobs too many", ["litmus", "-j", "257", "{sb}"], 2, "between 1 and 256"),
    Row("litmus --jobs with --repeat", ["litmus", "--jobs", "2", "--repeat", "3", "{sb}"], 2,
        "--repeat measures one process at a time: give it without --jobs"),
    Row("check --unroll 0", ["check", "--unroll", "0", "{sb}"], 2, "--unroll must be an integer between 1 and 1000"),
    Row("check --unroll too big", ["check", "--unroll", "1001", "{sb}"], 2, "(got '1001')"),
    Row("explain --unroll 0", ["explain", "{sb}", "--out", "{tmp}/u", "--unroll", "0"], 2, "--unroll must be an integer between 1 and 1000"),
    Row("report --unroll x", ["report", "--out", "{tmp}/u", "--unroll", "x", "{sb}"], 2, "(got 'x')"),
    Row("--cat: missing file", ["litmus", "--cat", "{tmp}/missing.cat", "{sb}"], 2, "missing.cat:1:1: error: expected a readable cat file"),
    Row("--cat: a folder", ["litmus", "--cat", "{tmp}", "{sb}"], 2, ":1:1: error: expected a readable cat file"),
    Row("--conf: a folder", ["check", "SB/relaxed", "--conf", "{tmp}"], 2, "error: expected a readable herd configuration file"),
    Row("--lkmm-dir: no linux-kernel.cfg", ["check", "SB/relaxed", "--lkmm-dir", "{tmp}"], 2, "linux-kernel.cfg:1:1: error"),
    Row("--cat with --model rc11", ["litmus", "--cat", "{tmp}/missing.cat", "--model", "rc11", "{sb}"], 2, "it conflicts with --model rc11"),
    Row("--cat and --conf", ["litmus", "--cat", "{tmp}/x.cat", "--conf", "{tmp}/y.cfg", "{sb}"], 2, "each select a model: give one"),

    # ---- usage errors: one line and a pointer to the command's --help, not the whole help ----
    Row("no command", [], 2, "no command given; see 'ordercheck --help'"),
    Row("unknown command", ["frobnicate"], 2, "unknown command 'frobnicate'; see 'ordercheck --help'"),
    *[Row(f"{c}: unknown option", [c, "--frobnicate"], 2, usage("", c)) for c in
      ("list", "check", "merge", "explain", "necessity", "diff", "report", "litmus")],
    Row("check without ids", ["check"], 2, "check needs variant ids or --all"),
    Row("check: ids and --all", ["check", "SB", "--all"], 2, "either ids or --all"),
    Row("bad --format", ["check", "SB", "--format", "yaml"], 2, "--format must be text, json or junit"),
    Row("bad --search", ["check", "SB", "--search", "sideways"], 2, "--search must be"),
    Row("bad --engine", ["check", "SB", "--engine", "steam"], 2, "--engine must be"),
    Row("bad --model", ["check", "SB", "--model", "tso"], 2, "--model must be auto, lkmm or rc11"),
    Row("bad --engine for necessity", ["necessity", "SB/fenced", "--engine", "steam"], 2, "--engine must be"),
    Row("bad --show for explain", ["explain", "SB/relaxed", "--out", "{tmp}/show", "--show", "po,zz"], 2, "zz"),
    Row("--show names its two modes", ["explain", "SB/relaxed", "--out", "{tmp}/show", "--show", "everything"], 2,
        "; or focus, all"),
    Row("unknown id", ["check", "no-such-model"], 2,
        ("unknown model or variant id: 'no-such-model'", "known ids:\n", "    SB/relaxed\n"), one_line=False),
    Row("explain of a model", ["explain", "SB", "--out", "{tmp}/x"], 2, "'SB' names a model"),
    Row("explain with two ids", ["explain", "SB/relaxed", "SB/fenced", "--out", "{tmp}/x"], 2,
        "explain needs exactly one variant id"),
    Row("necessity of an unproved variant", ["necessity", "SB/relaxed"], 2, "SB/relaxed is not proved"),
    Row("the graph engine refuses a random search", ["check", "SB", "--engine", "graph", "--search", "random"], 2,
        "--search random runs under Relacy only"),
    Row("a random search cannot be sharded", ["check", "SB", "--shard", "0/2", "--engine", "relacy",
                                              "--search", "random"], 2, "only --search full or bound can be sharded"),
    Row("explain without --out", ["explain", "SB/fenced"], 2, "explain needs --out DIR"),
    Row("diff with one id", ["diff", "SB/fenced"], 2, "diff needs two variant ids"),
    Row("report without --out", ["report"], 2, "report needs --out DIR"),
    Row("report of a variant id", ["report", "--out", "{tmp}/r", "SB/fenced"], 2, "report takes model names",
        one_line=False),
    Row("--shard I >= N", ["check", "SB", "--shard", "3/3"], 2, "--shard takes I/N"),
    Row("--shard malformed", ["check", "SB", "--shard", "x"], 2, "--shard takes I/N"),
    Row("--shard N = 0", ["check", "SB", "--shard", "1/0"], 2, "--shard takes I/N"),
    Row("--shard negative", ["check", "SB", "--shard", "-1/2"], 2, "--shard takes I/N"),
    Row("--shard and --shards", ["check", "SB", "--shard", "0/2", "--shards", "2"], 2, "not both"),

    # ---- bad input files ----
    Row("litmus: no files", ["litmus"], 2, "litmus needs at least one file or directory"),
    Row("litmus: missing file", ["litmus", "{tmp}/missing.litmus"], 2, "no such file"),
    Row("litmus: empty directory", ["litmus", "{empty}"], 2, "no .litmus files in directory"),
    Row("litmus: parse error names file:line:column", ["litmus", "{broken}"], 2,
        "broken.litmus:4:2: error: unsupported: 'goto' statements", stdout="ERROR: does not parse"),
    Row("litmus: unknown struct field", ["litmus", "{badfield}"], 2,
        "badfield.litmus:7:17: error: struct node has no field 'nope'", stdout="ERROR: does not parse"),
    Row("litmus: constant index out of bounds", ["litmus", "{oob}"], 2,
        "oob.litmus:6:15: error: index 2 is out of bounds of array 'a' (2 elements)", stdout="ERROR: does not parse"),
    Row("explain: parse error", ["explain", "{broken}", "--out", "{tmp}/b"], 2, "broken.litmus:4:2: error:"),
    Row("check: parse error", ["check", "{broken}"], 2, "broken.litmus:4:2: error:"),
    Row("check: missing litmus file", ["check", "{tmp}/missing.litmus"], 2, "no such file: '"),
    Row("explain: --out holds files, no --force", ["explain", "SB/relaxed", "--out", "{full}"], 2,
        "already holds files; choose an empty directory or pass --force"),
    Row("report: index.html exists, no --force", ["report", "--out", "{full}", "SB"], 2,
        "index.html exists; pass --force to replace it"),
    Row("merge: no files", ["merge"], 2, "merge needs the JSON reports"),
    Row("merge: unreadable file", ["merge", "{tmp}/missing.json"], 2, "cannot read"),
    Row("merge: not JSON", ["merge", "{notjson}"], 2, "notjson.txt: malformed ordercheck JSON report"),
    Row("merge: only a litmus file", ["merge", "{sb}"], 2, "merge needs the JSON reports of the shards"),
    Row("merge: a missing litmus file", ["merge", "{lit0}", "{tmp}/missing.litmus"], 2, "no such file: '"),
    Row("merge: JSON, not a report", ["merge", "{notreport}"], 2, "not an ordercheck JSON report"),

    # ---- merge: only shards of one run ----
    Row("merge: shards of one run", ["merge", "{lkmm0}", "{lkmm1}", "{lkmm2}"], 0, stdout="exhaustive"),
    Row("merge: one shard of an RC11 run among LKMM shards", ["merge", "{lkmm0}", "{rc11_1}", "{lkmm2}"], 2,
        "are not shards of one run: memory_model differs (LKMM in "),
    Row("merge: --model auto and --model lkmm", ["merge", "{lkmm0}", "{auto1}", "{lkmm2}"], 2,
        "model_option differs (lkmm in "),
    Row("merge: another --max-executions", ["merge", "{lkmm0}", "{budget1}", "{lkmm2}"], 2,
        "max_executions differs (0 in "),
    Row("merge: another --timeout", ["merge", "{lkmm0}", "{timeout1}", "{lkmm2}"], 2, "timeout_seconds differs"),
    Row("merge: certification off", ["merge", "{lkmm0}", "{nocertify1}", "{lkmm2}"], 2, "certify differs"),
    Row("merge: other variants", ["merge", "{lkmm0}", "{more1}", "{lkmm2}"], 2, "variants differs"),
    Row("merge: another version", ["merge", "{lkmm0}", "{version1}", "{lkmm2}"], 2,
        "ordercheck_version differs"),
    Row("merge: another catalogue", ["merge", "{lkmm0}", "{catalogue1}", "{lkmm2}"], 2,
        "was judged against another catalogue"),
    Row("merge: a report that records no catalogue", ["merge", "{old1}"], 2, "another catalogue (not recorded)"),
    Row("merge: another engine", ["merge", "{relacy0}", "{graph1}"], 2, "engine differs (relacy in "),
    Row("merge: shards of a litmus test, with its file", ["merge", "{lit0}", "{lit1}", "{sb}"], 0,
        stdout="exhaustive"),
    Row("merge: shards of a litmus test, without its file", ["merge", "{lit0}", "{lit1}"], 2,
        "unknown variant 'SB/litmus'"),
    Row("merge: shards of a litmus test, with another file of that name", ["merge", "{lit0}", "{lit1}",
                                                                          "{sb_changed}"], 2,
        "ran SB/litmus from another file than the one given (content hash "),

    # ---- a search cut short: incomplete (exit 3), never a verdict nor a named failure ----
    Row("litmus --timeout on a big test", ["litmus", "--timeout", "1", "{big}"], 3,
        stdout="Judgement big16 incomplete: ", not_stdout=("^Observation", "FAIL", "deadlock", "\nOk\n", "\nNo\n")),
    Row("litmus --max-executions on a big test", ["litmus", "--max-executions", "3", "{big}"], 3,
        stdout="Incomplete big16: the search was cut short after ", not_stdout=("^Observation", "FAIL")),
    Row("litmus --quiet --timeout", ["litmus", "--quiet", "--timeout", "0.5", "{big}"], 3,
        stdout="incomplete", not_stdout=("FAIL",)),
    Row("check --timeout on a big test", ["check", "{big}", "--timeout", "1"], 3, stdout="incomplete",
        not_stdout=("FAIL",)),
    Row("check --max-executions", ["check", "SB/fenced", "--max-executions", "3", "--engine", "relacy"], 3,
        stdout="incomplete"),

    # ---- the whole-command --timeout of necessity, explain, diff and report ----
    # (tests/interrupt_test.py checks what each writes when its time runs out)
    *[Row(f"{cmd} --timeout {bad}", [cmd, *args, "--timeout", bad], 2,
          f"--timeout must be a number of seconds between 0 (none) and 31536000 (got '{bad}')" + usage("timeout", cmd))
      for cmd, args in (("necessity", ["SB/fenced"]), ("explain", ["SB/relaxed", "--out", "{tmp}/t"]),
                        ("diff", ["SB/relaxed", "SB/fenced"]), ("report", ["SB", "--out", "{tmp}/r"]))
      for bad in ("-1", "nan", "inf")],
    Row("necessity --timeout on a big test", ["necessity", "{big}", "--timeout", "1"], 3,
        "--timeout 1 s ran out", not_stdout=("not needed", "needed:")),
    Row("explain --timeout on a big test", ["explain", "{big}", "--out", "{tmp}/tbig", "--timeout", "1"], 3,
        "--timeout 1 s ran out", not_stdout=("wrote",)),
    Row("diff --timeout on a big test", ["diff", "{big}", "{big}", "--timeout", "1"], 3, "--timeout 1 s ran out",
        not_stdout=("equal",)),
    Row("report --timeout on a big test", ["report", "{big}", "--out", "{tmp}/rbig", "--timeout", "1"], 3,
        "--timeout 1 s ran out", stdout="(partial)"),

    # ---- interruption: what finished is kept, exit 130 (tests/interrupt_test.py: the details) ----
    Row("litmus interrupted", ["litmus", "{sb}", "{big}"], 130, "interrupted", stdout="Observation SB ",
        send_signal=signal.SIGINT, signal_after=1.5),
    Row("check interrupted", ["check", "{big}"], 130, "interrupted after 0 of 1", send_signal=signal.SIGTERM,
        signal_after=1.5),
]


def judgelitmus(litmus_text, out_text):
    """What the kernel's tools/memory-model/scripts/judgelitmus.sh (Linux 6.1) decides from a
    herd output, re-expressed (the script is GPL; this mirrors its behaviour, not its text):
    - lines 34-39: the expected outcome is the third word of the test's first line starting
      with ` * Result: `, or "specified" without one;
    - lines 41-52: an output with no line starting with `Observation` is a verification error,
      exit 255 (what herd7 killed by a timeout leaves);
    - lines 53-65: for DEADLOCK an Observation line must end in `Never 0 0` (exit 0), else an
      "Unexpected non-DEADLOCK verification" (exit 1);
    - lines 66-76: otherwise an Observation line must contain the outcome word (grep, so as a
      substring), or the outcome be Maybe (exit 0); else "Unexpected non-OUTCOME verification"
      (exit 1)."""
    outcome = "specified"
    for line in litmus_text.splitlines():
        if line.startswith(" * Result: "):
            outcome = line.split()[2]
            break
    observations = [l for l in out_text.splitlines() if l.startswith("Observation")]
    if not observations:
        return 255
    if outcome == "DEADLOCK":
        return 0 if any(l.endswith("Never 0 0") for l in observations) else 1
    return 0 if any(outcome in l for l in observations) or outcome == "Maybe" else 1


with tempfile.TemporaryDirectory() as tmp:
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    files = {"tmp": tmp}
    files["sb"] = write("sb.litmus", SB.format(result="Sometimes"))
    files["big"] = write("big16.litmus", BIG)
    files["broken"] = write("broken.litmus", "C broken\n{}\nP0(int *x) {\n\tgoto out;\n}\nexists (x=1)\n")
    files["badfield"] = write("badfield.litmus", "C badfield\n{\n\tstruct node { int val; };\n\tstruct node n1;\n}\n"
                              "P0(struct node *n1) {\n\tWRITE_ONCE(n1->nope, 1);\n}\nexists (n1.val=1)\n")
    files["oob"] = write("oob.litmus", "C oob\n{\n\tint a[2];\n}\nP0(int *a) {\n\tWRITE_ONCE(a[2], 1);\n}\nexists (a[0]=1)\n")
    files["notjson"] = write("notjson.txt", "States 4\n")
    files["notreport"] = write("notreport.json", '{"schema": "something-else"}')
    files["empty"] = os.path.join(tmp, "empty")
    os.mkdir(files["empty"])
    files["full"] = os.path.join(tmp, "full")
    os.mkdir(files["full"])
    write("full/index.html", "a user's page\n")

    # shard reports of several runs of shrinker_bit/merged (split in 3)
    def shard(name, index, *extra, ids=("shrinker_bit/merged",), count=3):
        code, out, err = run("check", *ids, "--shard", f"{index}/{count}", "--format", "json", *extra)
        expect(f"shard report {name} is written", code in (0, 3) and out.startswith("{"), f"{code} {err}")
        files[name] = write(name + ".json", out)
        return out

    for i in range(3):
        shard(f"lkmm{i}", i, "--model", "lkmm")
    shard("rc11_1", 1, "--model", "rc11")
    shard("auto1", 1)
    shard("budget1", 1, "--model", "lkmm", "--max-executions", "1000000")
    shard("timeout1", 1, "--model", "lkmm", "--timeout", "600")
    shard("nocertify1", 1, "--model", "lkmm", "--no-certify")
    shard("more1", 1, "--model", "lkmm", ids=("shrinker_bit/merged", "SB/relaxed"))
    shard("relacy0", 0, "--engine", "relacy", ids=("SB/relaxed",), count=2)
    shard("graph1", 1, "--engine", "graph", "--model", "rc11", ids=("SB/relaxed",), count=2)
    os.mkdir(os.path.join(tmp, "changed"))
    files["sb_changed"] = write("changed/sb.litmus", SB.format(result="Sometimes") + "\n")
    shard("lit0", 0, ids=(files["sb"],), count=2)
    shard("lit1", 1, ids=(files["sb"],), count=2)
    doc = json.loads(open(files["lkmm1"]).read())
    doc["ordercheck_version"] = "0.0-other"
    files["version1"] = write("version1.json", json.dumps(doc))
    doc = json.loads(open(files["lkmm1"]).read())
    doc["catalogue"]["hash"] = "0123456789abcdef"
    files["catalogue1"] = write("catalogue1.json", json.dumps(doc))
    del doc["catalogue"]
    files["old1"] = write("old1.json", json.dumps(doc))

    for row in ROWS:
        args = [a.format(**files) for a in row.args]
        start = time.monotonic()
        p = subprocess.Popen([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            if row.send_signal is not None:
                try:
                    p.wait(timeout=row.signal_after)
                except subprocess.TimeoutExpired:
                    p.send_signal(row.send_signal)
            out, err = p.communicate(timeout=max(0.1, row.timeout - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            expect(f"{row.name}: finishes within {row.timeout} s", False, f"{args}: still running, killed")
            continue
        elapsed = time.monotonic() - start
        detail = f"{args}: exit {p.returncode} after {elapsed:.1f}s\nstderr: {err}\nstdout: {out[:1500]}"
        expect(f"{row.name}: not killed by a signal", p.returncode >= 0 or row.send_signal is not None, detail)
        expect(f"{row.name}: no crash report", not any(s in err for s in ("terminate called", "Sanitizer",
                                                                          "Assertion", "Segmentation")), detail)
        expect(f"{row.name}: exit {row.code}", p.returncode == row.code, detail)
        for fragment in (row.stderr,) if isinstance(row.stderr, str) else row.stderr:
            expect(f"{row.name}: stderr has '{fragment}'", fragment in err, detail)
        expect(f"{row.name}: stdout has '{row.stdout}'", row.stdout in out, detail)
        for bad in row.not_stdout:  # a fragment starting a line when it starts with "^"
            found = any(l.startswith(bad[1:]) for l in out.splitlines()) if bad.startswith("^") else bad in out
            expect(f"{row.name}: stdout has no '{bad}'", not found, detail)
        if row.one_line if row.one_line is not None else row.code == 2:
            expect(f"{row.name}: one line on stderr", err.count("\n") == 1, detail)

    # The herd-like output as judgelitmus.sh reads it: a complete run's Observation is judged
    # (the re-expression is checked on a match and a mismatch), a cut-short run has none, so
    # the script reports a verification error, as for herd7 stopped by a timeout.
    sometimes, never = files["sb"], write("sb-never.litmus", SB.format(result="Never"))
    code, out, err = run("litmus", sometimes)
    expect("judgelitmus logic: a complete matching run is judged ok", code == 0 and
           judgelitmus(open(sometimes).read(), out) == 0, f"{code} {out}")
    code, out, err = run("litmus", never)
    expect("judgelitmus logic: a complete mismatching run is judged a failure", code == 1 and
           judgelitmus(open(never).read(), out) == 1, f"{code} {out}")
    for result in ("Never", "Sometimes", "Always", "Maybe", "DEADLOCK"):
        path = write(f"big-{result}.litmus", BIG.replace("Result: Never", "Result: " + result))
        code, out, err = run("litmus", "--max-executions", "3", path, timeout=20)
        # DEADLOCK: the executions that completed witness that not every one blocks (a mismatch)
        expect(f"judgelitmus logic: a cut-short run (Result: {result}) is a verification error, not a verdict",
               code == (1 if result == "DEADLOCK" else 3) and judgelitmus(open(path).read(), out) == 255,
               f"{code} {out}")

finish()
