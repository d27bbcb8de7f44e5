#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End to end: accounting in the reports, --no-por, --shard + merge (through the JSON files),
--jobs, progress on stderr, and an MPI launch with 2 ranks when mpirun is installed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

exe = sys.argv[1]
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)

def check_json(*args, **kw):
    code, out, err = run("check", *args, "--format", "json", **kw)
    try:
        return code, json.loads(out), err
    except json.JSONDecodeError as e:
        expect(f"json of check {' '.join(args)}", False, f"{e}: {out[:300]} {err[:300]}")
        return code, {"variants": []}, err


def by_id(doc):
    return {v["id"]: v for v in doc["variants"]}


def outcome_set(v):
    return sorted(tuple(o["values"]) for o in v["outcomes"])


# ---- accounting and --no-por ----
code, doc, _ = check_json("SB/relaxed", "--engine", "relacy")
v = by_id(doc).get("SB/relaxed", {})
expect("accounting fields", all(k in v for k in ("interleavings", "distinct_executions", "distinct_outcomes",
                                                 "interleavings_per_execution", "reduction")), v)
expect("reduction on by default", v.get("reduction", {}).get("mode") == "sleep sets" and doc["engine"]["reduction"], v)
expect("SB: 4 distinct executions, 4 outcomes", v.get("distinct_executions") == 4 and v.get("distinct_outcomes") == 4, v)
code, doc, _ = check_json("SB/relaxed", "--no-por")
w = by_id(doc).get("SB/relaxed", {})
expect("--no-por runs Relacy's 64 interleavings", w.get("interleavings") == 64 and w["reduction"]["mode"] == "off", w)
expect("--no-por: ratio 16", abs(w.get("interleavings_per_execution", 0) - 16) < 1e-9, w)
expect("same executions with and without", v.get("distinct_executions") == w.get("distinct_executions") and
       outcome_set(v) == outcome_set(w), (v, w))
code, out, _ = run("check", "SB/relaxed", "--engine", "relacy")
expect("text table has the accounting columns", "interleavings" in out and "outcomes" in out and "ratio" in out, out)
code, out, _ = run("check", "SB/relaxed")
expect("the graph engine's table says explored", "explored" in out and "outcomes" in out and "ratio" in out, out)
code, doc, _ = check_json("SB/relaxed")
g = by_id(doc).get("SB/relaxed", {})
expect("the graph engine by default: one run per execution", g.get("engine") == "graph" and
       g.get("interleavings") == 4 and g.get("distinct_executions") == 4 and
       g.get("reduction", {}).get("mode") == "optimal (execution graphs)", g)
code, out, _ = run("check", "vmpressure/plain_counter", "--engine", "relacy")
expect("a failure falls back to the full search and says so", code == 0 and "fell back to full search" in out, out)

# ---- shards through JSON files, merged ----
tmp = tempfile.mkdtemp(prefix="oc-shards-")
try:
    for ids, n, extra in ((["SB", "IRIW/relaxed", "shrinker_bit/baseline"], 3, ["--engine", "relacy"]),
                          (["SB", "IRIW/relaxed", "shrinker_bit/baseline", "vmalloc_drain"], 3, []),
                          (["grid/3x3", "memcg_flush/patched"], 4, ["--no-por"]),
                          (["vmalloc_purge/insert_before_add"], 2, []),
                          # load buffering: each shard learns the guessable values from the whole search
                          (["shrinker_bit/merged", "LB/relaxed"], 3,
                           ["--model", "lkmm"])):
        files = []
        for i in range(n):
            f = os.path.join(tmp, f"s{i}.json")
            code, out, err = run("check", *ids, "--shard", f"{i}/{n}", "--format", "json", *extra)
            with open(f, "w") as fh:
                fh.write(out)
            files.append(f)
            expect(f"shard {i}/{n} of {ids} runs", code in (0, 1, 3), err)
        code, out, err = run("merge", *files, "--format", "json")
        expect(f"merge of {ids} exits as the full run", code == 0, f"{code} {err} {out[:500]}")
        merged = by_id(json.loads(out)) if code == 0 else {}
        _, full, _ = check_json(*ids, *extra)
        for vid, f in by_id(full).items():
            m = merged.get(vid, {})
            expect(f"merge {vid}: verdict and exploration", m.get("verdict") == f["verdict"] and
                   m.get("exploration") == f["exploration"] and m.get("status") == f["status"], (m, f))
            if f["exploration"] == "exhaustive":
                expect(f"merge {vid}: distinct executions and outcomes", m.get("distinct_executions") ==
                       f["distinct_executions"] and outcome_set(m) == outcome_set(f), (m, f))
                if "lkmm" not in extra:  # under LKMM a guessed execution can be explored in two shards
                    expect(f"merge {vid}: the same interleavings", m.get("interleavings") == f["interleavings"],
                           (m, f))
        if n == 3 and extra:
            code, out, err = run("merge", *files[:2], "--format", "json")
            partial = json.loads(out)["variants"] if out.startswith("{") else []
            expect("a missing shard is not exhaustive", code == 3 and partial and
                   all(p["exploration"] == "shard" and p["status"] != "fail" for p in partial), f"{code} {out[:500]}")
            code, out, err = run("merge", files[0], files[0])
            expect("a shard given twice is a usage error", code == 2 and "twice" in err, f"{code} {err}")
    # a mixed run (auto: SB under RC11, shrinker_bit under LKMM): merge names each variant's model
    files = []
    for i in range(2):
        f = os.path.join(tmp, f"m{i}.json")
        code, out, err = run("check", "SB/relaxed", "shrinker_bit/merged", "--shard", f"{i}/2", "--format", "json")
        with open(f, "w") as fh:
            fh.write(out)
        files.append(f)
    code, out, err = run("merge", *files)
    rows = {l.split()[0]: l.split()[1] for l in out.splitlines() if l.startswith(("SB/", "shrinker_bit/"))}
    expect("merge of a mixed run keeps each variant's model", code == 0 and
           rows == {"SB/relaxed": "RC11", "shrinker_bit/merged": "LKMM"}, f"{code} {out} {err}")
    code, out, err = run("merge", files[1], "--format", "json")
    expect("... and the run's (auto) in JSON", json.loads(out)["engine"]["memory_model"] == "auto" if code in (0, 3)
           else False, f"{code} {out[:300]}")
finally:
    shutil.rmtree(tmp)
# Bad --shard values, merge of a non-report and of shards of different runs: misuse_test.py.

# ---- worker processes ----
ids = ["SB", "IRIW", "shrinker_bit/baseline", "vmpressure/plain_counter"]
_, serial, _ = check_json(*ids)
code, par, err = check_json(*ids, "--jobs", "2")
expect("--jobs 2 exits 0", code == 0, err)
expect("--jobs 2 names its processes", par.get("engine", {}).get("jobs") == 2, par.get("engine"))
for vid, s in by_id(serial).items():
    p = by_id(par).get(vid, {})
    expect(f"--jobs 2 {vid}: same report", all(p.get(k) == s[k] for k in
                                                ("verdict", "exploration", "status", "interleavings",
                                                 "distinct_executions", "outcomes")), (p, s))
code, par, err = check_json("grid/3x3", "--jobs", "2", "--no-por")
g = by_id(par).get("grid/3x3", {})
expect("--jobs 2 splits a single variant into shards and merges them",
       code == 0 and g.get("interleavings") == 181602 and g.get("exploration") == "exhaustive" and
       (g.get("shard") or {}).get("count") == 8, g)

# A single variant under LKMM: not split into shards (each would run every load-buffering round
# whole), but searched on the workers' threads in one process: the report one process gives.
desc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "litmus", "tests",
                    "desc-reserve+3+mb-after-head.litmus")
serial_code, serial, _ = check_json(desc)
code, par, err = check_json(desc, "--jobs", "2")
s = next(iter(by_id(serial).values()), {})
p = next(iter(by_id(par).values()), {})
expect("--jobs 2, one LKMM variant: one process's report, searched unsplit",
       code == serial_code and all(p.get(k) == s.get(k) for k in
                                   ("verdict", "exploration", "status", "distinct_executions", "positive",
                                    "negative", "outcomes")) and
       s.get("distinct_executions") == 252 and (p.get("shard") or {}).get("count", 1) == 1,
       (p.get("shard"), s.get("distinct_executions"), p.get("distinct_executions")))

# ---- progress ----
def progress_lines(err):  # sanitizer builds add their own warnings on stderr
    return [l for l in err.splitlines() if l.startswith("ordercheck: ")]


code, out, err = run("check", "grid/3x4", "--no-por", "--timeout", "2.5", "--progress")
lines = progress_lines(err)
expect("--progress reports on stderr after a second", code in (0, 3) and lines and
       all("interleavings" in l and "elapsed" in l and "ETA" in l for l in lines), err)
code, out, err = run("check", "grid/3x4", "--no-por", "--timeout", "2.5")
expect("no progress when stderr is not a terminal", code in (0, 3) and not progress_lines(err), err)

# ---- MPI (2 ranks on this host) ----
mpirun = shutil.which("mpirun")
linked = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
if mpirun and "libmpi" in linked:
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    ids = ["SB", "grid/3x3", "shrinker_bit/baseline"]
    p = subprocess.run([mpirun, "-n", "2", exe, "check", *ids, "--format", "json"], capture_output=True, text=True,
                       timeout=300, env=env)
    try:
        mpi = by_id(json.loads(p.stdout))
        expect("mpirun -n 2 exits 0", p.returncode == 0, p.stderr)
        _, single, _ = check_json(*ids)
        for vid, s in by_id(single).items():
            m = mpi.get(vid, {})
            expect(f"mpirun -n 2 {vid}: same verdict and counts as one run",
                   all(m.get(k) == s[k] for k in ("verdict", "exploration", "status", "interleavings",
                                                   "distinct_executions", "distinct_outcomes")) and
                   (m.get("shard") or {}).get("count") == 2, (m, s))
    except json.JSONDecodeError as e:
        expect("mpirun -n 2 prints one JSON report (rank 0)", False, f"{e}: {p.stdout[:300]} {p.stderr[:500]}")
    # ranks that run different commands (MPMD) are not shards of one run: rank 0 refuses to merge
    p = subprocess.run([mpirun, "-n", "1", exe, "check", "SB/relaxed", ":", "-n", "1", exe, "check", "SB/relaxed",
                        "--max-executions", "100000"], capture_output=True, text=True, timeout=300, env=env)
    expect("mpirun: a rank running other options is refused", p.returncode != 0 and
           "rank 1 ran a different max_executions (100000, rank 0: 0)" in p.stderr and "pass" not in p.stdout,
           f"{p.returncode} {p.stdout[:300]} {p.stderr[:500]}")
else:
    print("SKIP mpirun: " + ("not installed" if not mpirun else "ordercheck built without MPI"))

finish()
