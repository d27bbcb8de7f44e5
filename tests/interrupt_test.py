#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End to end: SIGINT/SIGTERM keep what finished and exit 130 (litmus DIR > file, check --format
json, check --jobs 2 with no worker left behind, a second signal ends the process at once), and
the whole-command --timeout of necessity, explain, diff and report (exit 3, nothing claimed)."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

exe = sys.argv[1]
from harness import expect, finish, runner  # noqa: E402
_run = runner(exe)


def run(*args, timeout=300):
    """runner()'s run; a command still running after TIMEOUT seconds is a failed check (exit None)."""
    try:
        return _run(*args, timeout=timeout)
    except subprocess.TimeoutExpired:
        expect(f"{' '.join(args[:1])} ends within {timeout} s", False, args)
        return None, "", ""

corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "litmus", "tests")
quick = ["2+2W+poonceonces", "CoRR+poonceonce+Once", "SB+add_return+sub_return"]


def slow_test(name, processes=4):
    """A litmus test that takes minutes: PROCESSES processes, each writing and reading x and y
    (4 of them: hundreds of thousands of executions; 3 take about a second)."""
    procs = []
    for i in range(processes):
        procs.append(f"P{i}(int *x, int *y)\n{{\n\tint r0;\n\tint r1;\n\n\tWRITE_ONCE(*x, {i + 1});\n"
                     f"\tr0 = READ_ONCE(*y);\n\tWRITE_ONCE(*y, {i + 1});\n\tr1 = READ_ONCE(*x);\n}}\n")
    return (f"C {name}\n\n(*\n * Result: Sometimes\n *)\n\n{{\n}}\n\n" + "\n".join(procs) +
            "\nexists (0:r0=0 /\\ 1:r0=0)\n")


def wait_for(what, predicate, timeout=60):
    """Polls PREDICATE until it holds; False after TIMEOUT seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    expect(f"waiting for {what}", False, f"not within {timeout} s")
    return False


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def group_members(pgid):
    """Processes (zombies aside) whose process group is PGID: the command and its workers."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = read(f"/proc/{pid}/stat")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(pid))
    return found


class Started:
    """ordercheck ARGS in its own process group, stdout and stderr into files."""

    def __init__(self, tmp, name, *args):
        self.out, self.err = os.path.join(tmp, name + ".out"), os.path.join(tmp, name + ".err")
        with open(self.out, "w") as o, open(self.err, "w") as e:
            self.p = subprocess.Popen([exe, *args], stdout=o, stderr=e, start_new_session=True)

    def stdout(self):
        return read(self.out)

    def stderr(self):
        return read(self.err)

    def wait(self, timeout=20):
        """The exit code and the seconds it took (None: still running after TIMEOUT; killed)."""
        start = time.monotonic()
        try:
            code = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()
            return None, timeout
        return code, time.monotonic() - start


tmp = tempfile.mkdtemp(prefix="oc-interrupt-")
try:
    tests = os.path.join(tmp, "tests")
    os.mkdir(tests)
    for q in quick:
        shutil.copy(os.path.join(corpus, q + ".litmus"), tests)
    for s in ("zz-slow", "zz-slow2"):
        with open(os.path.join(tests, s + ".litmus"), "w") as f:
            f.write(slow_test(s))
    quick_files = [os.path.join(tests, q + ".litmus") for q in quick]
    slow, slow2 = os.path.join(tests, "zz-slow.litmus"), os.path.join(tests, "zz-slow2.litmus")
    # a directory of 3 quick tests, then the slow one
    lone_dir = os.path.join(tmp, "dir")
    os.mkdir(lone_dir)
    for q in quick_files + [slow]:
        shutil.copy(q, lone_dir)

    # ---- litmus DIR > file: the judgements of the tests finished before SIGINT stay in the file ----
    c = Started(tmp, "litmus", "litmus", lone_dir)
    judged = lambda: sum(line.startswith("Judgement ") for line in c.stdout().splitlines())  # noqa: E731
    # each test's lines reach the file as it finishes (not when the process ends)
    if wait_for("the 3 quick judgements in the file while the slow test runs", lambda: judged() >= 3):
        time.sleep(0.3)
        expect("litmus: still running the slow test", c.p.poll() is None, c.stderr())
        c.p.send_signal(signal.SIGINT)
        code, took = c.wait()
        out, err = c.stdout(), c.stderr()
        expect("litmus: SIGINT exits 130", code == 130, (code, err))
        expect("litmus: stopped within 5 s", took < 5, took)
        expect("litmus: says how far it got on stderr", "interrupted after 3 of 4 litmus tests" in err, err)
        for q in quick:
            expect(f"litmus: {q}'s judgement kept", f"Judgement {q} ok" in out, out)
        expect("litmus: the test cut short is not judged", "Judgement zz-slow" not in out and
               "Observation zz-slow" not in out, out)
        expect("litmus: the summary says interrupted", "3 of 4 files: interrupted" in out, out)

    # ---- a signal inside one run: a thread whose loops make 250,000 writes has its first run
    # still going when SIGINT comes; the engine checks for it at its events, not between runs ----
    one_run = os.path.join(tmp, "one-run.litmus")
    with open(one_run, "w") as f:
        f.write("C one-run\n{}\nP0(int *x)\n{\n\tint i = 0;\n\tint j = 0;\n\twhile (i < 500) {\n\t\tj = 0;\n"
                "\t\twhile (j < 500) {\n\t\t\tWRITE_ONCE(*x, j);\n\t\t\tj = j + 1;\n\t\t}\n\t\ti = i + 1;\n\t}\n}\n"
                "exists (x=5)\n")
    c = Started(tmp, "one-run", "litmus", "--unroll", "1000", one_run)
    time.sleep(1.5)
    expect("one long run: still running", c.p.poll() is None, c.stderr())
    c.p.send_signal(signal.SIGINT)
    code, took = c.wait()
    expect("one long run: SIGINT exits 130 within 5 s", code == 130 and took < 5, (code, took, c.stderr()))

    # ---- litmus --jobs 2 DIR: tests run two at a time, printed in order; a Ctrl-C (to the whole
    # process group) keeps the finished ones and ends the workers ----
    c = Started(tmp, "litmus-jobs", "litmus", "--jobs", "2", lone_dir)
    judged = lambda: sum(line.startswith("Judgement ") for line in c.stdout().splitlines())  # noqa: E731
    if wait_for("litmus --jobs 2: the 3 quick judgements while the slow test runs", lambda: judged() >= 3):
        time.sleep(0.3)
        expect("litmus --jobs 2: still running the slow test", c.p.poll() is None, c.stderr())
        os.killpg(c.p.pid, signal.SIGINT)
        code, took = c.wait()
        out, err = c.stdout(), c.stderr()
        expect("litmus --jobs 2: SIGINT exits 130", code == 130, (code, err))
        expect("litmus --jobs 2: stopped within 5 s", took < 5, took)
        expect("litmus --jobs 2: says how far it got", "interrupted after 3 of 4 litmus tests" in err, err)
        expect("litmus --jobs 2: the judgements in file order",
               [l.split()[1] for l in out.splitlines() if l.startswith("Judgement ")] == quick, out)
        expect("litmus --jobs 2: the test cut short is not judged", "zz-slow" not in out, out)
        try:
            os.killpg(c.p.pid, 0)
            workers_left = True
        except ProcessLookupError:
            workers_left = False
        expect("litmus --jobs 2: no worker process left", not workers_left)

    # ---- check --format json: a well-formed partial report marked interrupted ----
    c = Started(tmp, "check-json", "check", *quick_files[:2], slow, "--format", "json", "--progress")
    # the progress line names the slow test once it has run for a second: the quick ones are done
    if wait_for("check: the slow test running", lambda: "zz-slow/litmus" in c.stderr()):
        c.p.send_signal(signal.SIGINT)
        code, took = c.wait()
        err = c.stderr()
        expect("check json: SIGINT exits 130", code == 130, (code, err))
        expect("check json: interrupted after 2 of 3 variants", "interrupted after 2 of 3 variants" in err, err)
        try:
            doc = json.loads(c.stdout())
            ids = [v["id"] for v in doc["variants"]]
            expect("check json: marked interrupted", doc.get("interrupted") is True and
                   doc.get("variants_finished") == 2 and doc.get("variants_selected") == 3 and
                   doc.get("exit_code") == 130, doc)
            expect("check json: the finished variants, exhaustive", ids == [q + "/litmus" for q in quick[:2]] and
                   all(v["exploration"] == "exhaustive" for v in doc["variants"]), ids)
        except json.JSONDecodeError as e:
            expect("check json: the partial report parses", False, f"{e}: {c.stdout()[:500]}")

    # ---- check --jobs 2: Ctrl-C (SIGINT to the process group) stops the workers ----
    c = Started(tmp, "check-jobs", "check", *quick_files[:2], slow, slow2, "--jobs", "2", "--progress")
    workers = lambda: len(group_members(c.p.pid)) - 1  # noqa: E731
    if wait_for("check --jobs 2: the quick tasks done, 2 workers on the slow ones",
                lambda: "2/4 tasks" in c.stderr() and workers() == 2):
        os.killpg(c.p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
        code, took = c.wait()
        out, err = c.stdout(), c.stderr()
        expect("check --jobs 2: SIGINT exits 130", code == 130, (code, err))
        expect("check --jobs 2: interrupted after 2 of 4 variants", "interrupted after 2 of 4 variants" in err, err)
        expect("check --jobs 2: the finished variants listed", all(q + "/litmus" in out for q in quick[:2]) and
               "zz-slow" not in out and "interrupted after 2 of 4 variants" in out, out)
        expect("check --jobs 2: no worker left behind", not group_members(c.p.pid), group_members(c.p.pid))

    # ---- check --jobs 2, SIGTERM to the command alone: it ends its workers itself ----
    c = Started(tmp, "check-term", "check", slow, slow2, "--jobs", "2", "--shards", "1")
    if wait_for("check --jobs 2: 2 workers", lambda: workers() == 2):
        c.p.send_signal(signal.SIGTERM)
        code, took = c.wait()
        expect("check --jobs 2: SIGTERM exits 130", code == 130, (code, c.stderr()))
        expect("check --jobs 2: interrupted after 0 of 2", "interrupted after 0 of 2 variants" in c.stderr(),
               c.stderr())
        expect("check --jobs 2 after SIGTERM: no worker left behind", not group_members(c.p.pid),
               group_members(c.p.pid))

    # ---- a second signal ends the process at once ----
    # Stopped, the command gets SIGINT then SIGTERM (two signals: a repeated SIGINT would merge
    # into one while it is stopped); continued, it handles both before it can finish the first.
    c = Started(tmp, "second", "litmus", lone_dir)
    if wait_for("the 3 quick judgements", lambda: judged() >= 3):
        c.p.send_signal(signal.SIGSTOP)
        c.p.send_signal(signal.SIGINT)
        c.p.send_signal(signal.SIGTERM)
        c.p.send_signal(signal.SIGCONT)
        code, took = c.wait()
        out, err = c.stdout(), c.stderr()
        expect("second signal: exits 130", code == 130, (code, err))
        expect("second signal: at once, without finishing (no summary, no message)",
               "litmus:" not in out and "interrupted" not in err, (out, err))
        expect("second signal: the judgements already written stay", all(f"Judgement {q} ok" in out for q in quick),
               out)
    c = Started(tmp, "second-jobs", "check", slow, slow2, "--jobs", "2", "--shards", "1")
    if wait_for("check --jobs 2: 2 workers", lambda: workers() == 2):
        c.p.send_signal(signal.SIGSTOP)
        c.p.send_signal(signal.SIGINT)
        c.p.send_signal(signal.SIGTERM)
        c.p.send_signal(signal.SIGCONT)
        code, took = c.wait()
        expect("second signal with --jobs: exits 130 at once", code == 130 and "interrupted" not in c.stderr(),
               (code, c.stderr()))
        # the workers end with their parent (they do not outlive it)
        wait_for("second signal with --jobs: no worker left behind", lambda: not group_members(c.p.pid), 10)

    # ---- --timeout on necessity, explain, diff and report ----
    small = os.path.join(corpus, "SB+add_return+sub_return.litmus")
    witness = os.path.join(corpus, "2+2W+poonceonces.litmus")
    for cmd, args in (("necessity", [slow]), ("explain", [slow, "--out", os.path.join(tmp, "ex-slow")]),
                      ("diff", [slow, slow]), ("report", [slow, "--out", os.path.join(tmp, "rep-slow")])):
        start = time.monotonic()
        code, out, err = run(cmd, *args, "--timeout", "1", timeout=60)
        took = time.monotonic() - start
        expect(f"{cmd} --timeout 1 on a slow test: exit 3", code == 3, (code, out, err))
        expect(f"{cmd} --timeout 1: stops in time", took < 10, took)
        expect(f"{cmd} --timeout 1: says the time ran out", "--timeout 1 s ran out" in err and
               "incomplete" in err, err)
        expect(f"{cmd} --timeout 1: claims no verdict", not any(w in out for w in ("needed", "Never", "Sometimes",
                                                                                  "exhaustive", "equal")), out)
    expect("explain --timeout: nothing drawn", not os.path.exists(os.path.join(tmp, "ex-slow")) or
           not os.listdir(os.path.join(tmp, "ex-slow")))
    page = os.path.join(tmp, "rep-slow", "index.html")
    expect("report --timeout: the page says it is partial",
           os.path.exists(page) and "Partial report" in read(page) and "0 of 1 variants" in read(page))
    listed = sorted(os.listdir(os.path.dirname(page))) if os.path.isdir(os.path.dirname(page)) else []
    expect("report --timeout: no temporary file left", listed == ["index.html"], listed)

    # without --timeout (and with one long enough), a small input runs to the end
    for t in ([], ["--timeout", "120"]):
        code, out, err = run("necessity", small, *t)
        expect(f"necessity {t}: completes", code == 0 and out.count("needed: the weaker form breaks it") == 2, (out, err))
        ex = os.path.join(tmp, "ex-small" + str(len(t)))
        code, out, err = run("explain", witness, "--out", ex, *t)
        expect(f"explain {t}: completes", code == 0 and os.path.exists(os.path.join(ex, "witness.dot")) and
               not any(f.endswith(".part") for f in os.listdir(ex)), (out, err))
        code, out, err = run("diff", small, small, *t)
        expect(f"diff {t}: completes", code == 0 and "equal (exact" in out, (out, err))
        rep = os.path.join(tmp, "rep-small" + str(len(t)))
        code, out, err = run("report", small, "--out", rep, *t)
        expect(f"report {t}: completes", code == 0 and "Partial report" not in read(os.path.join(rep, "index.html")),
               (out, err))

    # the value is range-checked: one error, exit 2, before any work
    for cmd, args in (("necessity", [small]), ("explain", [witness, "--out", os.path.join(tmp, "ex-bad")]),
                      ("diff", [small, small]), ("report", [small, "--out", os.path.join(tmp, "rep-bad")])):
        for bad in ("-1", "nan", "inf"):
            code, out, err = run(cmd, *args, "--timeout", bad)
            expect(f"{cmd} --timeout {bad}: exit 2", code == 2 and
                   "--timeout must be a number of seconds between 0 (none) and" in err and not out, (code, out, err))
    expect("a rejected --timeout writes nothing", not os.path.exists(os.path.join(tmp, "ex-bad")) and
           not os.path.exists(os.path.join(tmp, "rep-bad")))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish()
