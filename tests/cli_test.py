#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end checks of the ordercheck command line: exit codes, usage errors, output formats."""
import json
import re
import sys

exe = sys.argv[1]
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)

# Usage and input errors (exit codes, one-line messages) are in the misuse table: misuse_test.py.

for command in ("list", "check", "explain", "necessity", "diff", "report", "litmus", "merge"):
    code, out, err = run(command, "--help")
    expect(f"{command} --help exits 0 with its usage", code == 0 and out.startswith(f"usage: ordercheck {command}")
           and "--help" in out and err == "", f"{code} {out[:200]} {err}")

code, out, err = run("check", "SB/relaxed")
expect("SB/relaxed passes", code == 0, f"{code} {out}{err}")
expect("no engine chatter on stdout", out.startswith("ordercheck "), out[:200])
expect("row says exhaustive", "exhaustive" in out, out)

code, out, err = run("check", "SB/relaxed", "--engine", "graph", "--format", "json")
doc = json.loads(out) if code == 0 else {}
sb = doc.get("variants", [{}])[0]
expect("the graph engine explores SB's 4 executions once each",
       code == 0 and doc["engine"]["name"] == "graph" and sb.get("engine") == "graph" and
       sb.get("interleavings") == 4 and sb.get("distinct_executions") == 4,
       f"{code} {sb.get('engine')} {sb.get('interleavings')} {sb.get('distinct_executions')} {err}")
code, out, err = run("check", "SB/relaxed", "shrinker_bit/merged", "--format", "json")
doc = json.loads(out) if code == 0 else {}
models = {v["id"]: v["memory_model"] for v in doc.get("variants", [])}
expect("--model auto: LKMM for a model written with kernel primitives, RC11 for a C++11 one",
       code == 0 and models == {"SB/relaxed": "RC11", "shrinker_bit/merged": "LKMM"} and
       doc["engine"]["memory_model"] == "auto", f"{code} {models} {err}")
code, out, err = run("check", "SB/relaxed", "shrinker_bit/merged")
# The text layout itself: the table gains a model column (second) when a run mixes models; the
# values are checked in JSON above.
rows = {l.split()[0]: l.split()[1] for l in out.splitlines() if l.startswith(("SB/", "shrinker_bit/"))}
expect("... the text table names each variant's model when a run mixes them",
       code == 0 and "memory model per variant" in out.splitlines()[0] and
       rows == {"SB/relaxed": "RC11", "shrinker_bit/merged": "LKMM"}, out)
code, out, err = run("check", "shrinker_bit/merged", "vmpressure/v3")
expect("... and the header names the one model of a run that does not mix them",
       code == 0 and "graph engine, LKMM," in out.splitlines()[0] and "load buffering explored" in out, out)
code, out, err = run("check", "shrinker_bit/merged", "--engine", "relacy")
expect("... under Relacy auto is the C++11 mapping", code == 0 and "LKMM" not in out, out)
code, out, err = run("check", "shrinker_bit/after_atomic_as_rmb", "--model", "rc11")
expect("--model rc11 still judges a kernel model under the C++11 mapping (its blind spot noted)",
       code == 0 and "mapping blind spot: LKMM says Sometimes" in out, out)
code, out, err = run("check", "2+2W/relaxed", "S/relaxed", "--engine", "relacy")
expect("Relacy's known gaps are annotated and pass", code == 0 and "engine limitation" in out, out)
code, out, err = run("check", "2+2W/relaxed", "S/relaxed", "--format", "json")
doc = json.loads(out) if code == 0 else {}
found = {v["id"]: (v["memory_model"], v["expected"], v["verdict"], v["engine_limitation"])
         for v in doc.get("variants", [])}
expect("the graph engine finds 2+2W and S (RC11: Sometimes)",
       code == 0 and doc["engine"]["name"] == "graph" and
       found == {vid: ("RC11", "Sometimes", "Sometimes", None) for vid in ("2+2W/relaxed", "S/relaxed")},
       f"{code} {found} {err}")
code, out, err = run("check", "SB", "--engine", "both")
expect("--engine both: every Relacy execution is one the graph engine finds", code == 0 and
       out.count("every one is found by the graph engine") == 5, out)

code, out, err = run("check", "SB/fenced", "--max-executions", "3", "--engine", "relacy")
expect("a budget that cuts the search exits 3", code == 3, f"{code} {out}")
expect("cut short is said", "cut short" in out and "incomplete" in out, out)

code, out, err = run("check", "SB/relaxed", "--search", "random", "--random-executions", "500")
expect("random search finds SB's witness", code == 0 and "sampled" in out, f"{code} {out}")

code, out, err = run("check", "SB/fenced", "--search", "random", "--random-executions", "50")
expect("random search never proves Never", code == 3, f"{code} {out}")

code, out, err = run("check", "SB", "--format", "json", "--engine", "relacy")
try:
    doc = json.loads(out)
    expect("json: schema", doc["schema"] == "ordercheck-report" and doc["schema_version"] == 1)
    expect("json: engine named", doc["engine"]["name"] == "relacy" and doc["engine"]["search"] == "full")
    expect("json: variants", len(doc["variants"]) >= 3 and all(v["status"] == "pass" for v in doc["variants"]))
    expect("json: exit code", doc["exit_code"] == 0 and code == 0)
except (ValueError, KeyError) as e:
    expect("json parses", False, f"{e}: {out[:300]}")

code, out, err = run("list")
expect("list exits 0", code == 0 and "SB/relaxed" in out, f"{code}")

import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    out_dir = os.path.join(tmp, "sb")
    code, out, err = run("explain", "SB/relaxed", "--out", out_dir)
    expect("explain exits 0", code == 0, f"{code} {err}")
    for name in ("witness.dot", "witness.txt", "interleaving.txt", "interleaving.svg", "witness.json"):
        expect(f"explain wrote {name}", os.path.exists(os.path.join(out_dir, name)))
    trace = open(os.path.join(out_dir, "witness.txt")).read()
    expect("both SB reads take rf from the initial writes",
           trace.count("rf init.") == 2 and "R.rlx y=0" in trace and "R.rlx x=0" in trace, trace)

    # nothing a user wrote is overwritten
    mine = os.path.join(tmp, "mine")
    os.makedirs(mine)
    with open(os.path.join(mine, "witness.txt"), "w") as f:
        f.write("my notes")
    code, out, err = run("explain", "SB/relaxed", "--out", mine)
    expect("explain refuses a directory with files", code == 2 and "--force" in err, f"{code} {err}")
    expect("the user's file is intact", open(os.path.join(mine, "witness.txt")).read() == "my notes")

    code, out, err = run("explain", "SB/fenced", "--out", os.path.join(tmp, "none"))
    expect("explain of a Never variant says there is no witness",
           code == 0 and "no bad outcome" in out and "exhaustive" in out, f"{code} {out}")
    expect("... and draws nothing", not os.path.exists(os.path.join(tmp, "none", "witness.dot")))
    code, out, err = run("explain", "SB/fenced", "--out", os.path.join(tmp, "any"), "--any")
    expect("--any draws a representative execution",
           code == 0 and os.path.exists(os.path.join(tmp, "any", "witness.dot")), f"{code} {out}")


    # The explaining cycle and the focused figure (docs/figures.md)
    dot = open(os.path.join(out_dir, "witness.dot")).read()
    cycle = open(os.path.join(out_dir, "cycle.txt")).read()
    expect("the default figure is focused and leaves the initial writes out",
           "(focused; --show all for every event)" in dot and "cluster_0" not in dot, dot)
    expect("SB's cycle is W x -po-> R y -fr-> W y -po-> R x -fr-> W x",
           "W x=1 ->po R y=0 ->fr W y=1 ->po R x=0 ->fr W x=1" in cycle and "not sequentially consistent" in cycle,
           cycle)
    cj = json.load(open(os.path.join(out_dir, "cycle.json")))
    expect("cycle.json has the steps and the prose", cj["kind"] == "not-sc" and len(cj["steps"]) == 4 and
           cj["steps"][1]["relation"] == "fr" and "No interleaving" in cj["prose"], json.dumps(cj)[:300])
    full = os.path.join(tmp, "full")
    code, out, err = run("explain", "SB/relaxed", "--out", full, "--show", "all")
    fdot = open(os.path.join(full, "witness.dot")).read()
    expect("--show all draws every event, the initial writes too", code == 0 and "cluster_0" in fdot and
           "focused" not in fdot, fdot)

    # --show takes the memory model's own relations: LKMM's ppo and pb, and its hb (not C++11's
    # (po | sw)+: the rfe from P0's WRITE_ONCE to P1's READ_ONCE is in LKMM's hb).
    lb = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "litmus", "tests", "LB+await+mb.litmus")
    shown = os.path.join(tmp, "shown")
    code, out, err = run("explain", lb, "--out", shown, "--show", "po,rf,ppo,hb,pb")
    sdot = open(os.path.join(shown, "witness.dot")).read() if code == 0 else ""
    expect("--show draws LKMM's ppo, hb and pb by their names", code == 0 and "<td>ppo</td>" in sdot and
           "<td>pb</td>" in sdot and "<td>hb</td>" in sdot, f"{code} {err} {sdot[:300]}")
    expect("--show hb under LKMM is LKMM's hb (rfe between marked accesses)",
           re.search(r"e1_1 -> e2_0 \[[^]]*<td>hb</td>", sdot) is not None, sdot)
    code, out, err = run("explain", "SB/relaxed", "--out", os.path.join(tmp, "noppo"), "--show", "po,ppo")
    expect("--show: a relation RC11 does not define is an error before the search",
           code == 2 and "'ppo': RC11 defines no such relation" in err and not os.path.exists(os.path.join(tmp, "noppo")),
           f"{code} {err}")

    mutant = os.path.join(tmp, "mutant")
    code, out, err = run("explain", "shrinker_bit/no_after_atomic", "--out", mutant, "--model", "rc11")
    cycle = open(os.path.join(mutant, "cycle.txt")).read()
    expect("a declared mutant is drawn as its base with the barrier removed",
           code == 0 and "of shrinker_bit/merged with smp_mb__after_atomic() removed" in out, f"{code} {out}")
    expect("... and its cycle goes through the barrier (in brackets), named by RC11's axiom",
           "RC11 coherence" in cycle and "->po [smp_mb__after_atomic] ->po R nr_items=0 ->fr W nr_items=1" in cycle,
           cycle)
    kernel = os.path.join(tmp, "mutant-lkmm")
    code, out, err = run("explain", "shrinker_bit/no_after_atomic", "--out", kernel)
    cycle = open(os.path.join(kernel, "cycle.txt")).read() if code == 0 else ""
    expect("a model written with kernel primitives is explained under LKMM by default (its axiom, rfe/fre)",
           code == 0 and "LKMM happens-before" in cycle and
           "->po [smp_mb__after_atomic] ->po R nr_items=0 ->fre W nr_items=1" in cycle, f"{code} {cycle} {err}")
    logic = os.path.join(tmp, "logic")
    code, out, err = run("explain", "shrinker_bit/no_recheck", "--out", logic)
    expect("an outcome with no reordering is drawn as an SC execution, and said to need no barrier",
           code == 0 and "no reordering at all" in out and
           "No barrier can forbid it" in open(os.path.join(logic, "cycle.txt")).read(), f"{code} {out}")

    nec = os.path.join(tmp, "nec")
    code, out, err = run("necessity", "shrinker_bit/merged", "--out", nec)
    rows = sorted(os.listdir(nec)) if os.path.isdir(nec) else []
    expect("necessity --out: one directory per needed barrier (5 under LKMM)", code == 0 and len(rows) == 5,
           f"{code} {rows} {err}")
    expect("... each with its focused figure and the cycle it breaks",
           all(os.path.exists(os.path.join(nec, r, f)) for r in rows for f in ("witness.dot", "cycle.txt")), rows)
    expect("necessity prints the cycle each needed barrier breaks",
           out.count("breaks: LKMM ") == 5 and "[smp_mb__after_atomic]" in out, out)
    rmb = [l for l in out.splitlines() if "smp_mb__after_atomic() at" in l and "smp_rmb()" in l]
    expect("necessity of a kernel-primitive model runs under LKMM by default: after_atomic as smp_rmb breaks it",
           out.startswith("ordercheck") and "graph engine under LKMM" in out.splitlines()[0] and len(rmb) == 1 and
           "needed: the weaker form breaks it" in rmb[0] and "caveat" not in out, out)

    code, out, err = run("diff", "R+shrinker_bit/merged", "R+shrinker_bit/no_after_atomic")
    expect("diff explains a new outcome of a declared mutant by the cycle through its barrier",
           code == 1 and "with smp_mb__after_atomic() removed (the program B writes)" in out and
           "[smp_mb__after_atomic]" in out, f"{code} {out}")
    dd = os.path.join(tmp, "diff")
    code, out, err = run("diff", "SB/fenced", "SB/one_fence", "--out", dd)
    drawn = sorted(os.listdir(dd)) if os.path.isdir(dd) else []
    ddot = open(os.path.join(dd, drawn[0], "witness.dot")).read() if drawn else ""
    expect("diff --out draws each outcome only B reaches: a focused figure and its cycle",
           code == 1 and drawn == ["1-0_r0_0_1_r1_0"] and "which only B reaches" in ddot and "focused" in ddot and
           os.path.exists(os.path.join(dd, drawn[0], "cycle.txt")), f"{code} {drawn} {out} {err}")

import xml.etree.ElementTree as ET


def junit_shape(doc_text):
    """The common JUnit XML shape (Jenkins/Ant): testsuites > testsuite > testcase, counts agree."""
    root = ET.fromstring(doc_text)
    assert root.tag == "testsuites", root.tag
    for suite in root.findall("testsuite"):
        for attr in ("name", "tests", "failures", "errors", "skipped", "time"):
            assert attr in suite.attrib, attr
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("skipped")) == sum(1 for c in cases if c.find("skipped") is not None)
        for c in cases:
            for attr in ("classname", "name", "time"):
                assert attr in c.attrib, attr
            float(c.get("time"))
            f = c.find("failure")
            if f is not None:
                assert f.get("message") and f.get("type"), "failure needs message and type"
    return root


code, out, err = run("check", "SB", "--format", "junit", "--engine", "relacy")
try:
    root = junit_shape(out)
    expect("junit: all pass", code == 0 and root.find("testsuite").get("failures") == "0", out[:300])
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    expect("junit names version and engine", "ordercheck.version" in props and "relacy" in props.get("engine", ""))
except (ET.ParseError, AssertionError) as e:
    expect("junit shape", False, f"{e}: {out[:300]}")

with tempfile.TemporaryDirectory() as tmp:
    code, out, err = run("check", "SB/sc_vs_fence", "SB/relaxed", "--no-certify", "--format", "junit",
                         "--witness-dir", tmp, "--engine", "relacy")
    try:
        root = junit_shape(out)
        fails = [c for c in root.iter("testcase") if c.find("failure") is not None]
        expect("junit: the uncertified false positive is a failure", code == 1 and len(fails) == 1, out[:500])
        text = fails[0].find("failure").text if fails else ""
        expect("junit failure names verdict and witness path",
               "verdict Sometimes" in text and os.path.join(tmp, "SB_sc_vs_fence", "witness.svg") in text, text)
        expect("the witness was written", os.path.exists(os.path.join(tmp, "SB_sc_vs_fence", "witness.dot")))
    except (ET.ParseError, AssertionError) as e:
        expect("junit failure shape", False, f"{e}: {out[:300]}")

code, out, err = run("check", "SB/fenced", "--max-executions", "3", "--format", "junit", "--engine", "relacy")
try:
    root = junit_shape(out)
    expect("junit: a cut-short search is skipped, not passed", code == 3 and root.find(".//skipped") is not None)
except (ET.ParseError, AssertionError) as e:
    expect("junit skipped shape", False, f"{e}")

code, out, err = run("necessity", "R+shrinker_bit/merged")
expect("necessity exits 0", code == 0, f"{code} {err}")
needed = [l for l in out.splitlines() if l.strip().startswith("smp_mb__") and "removed" in l]
expect("necessity: both barriers needed", len(needed) == 2 and all(l.rstrip().endswith("needed") for l in needed), out)

code, out, err = run("diff", "SB/fenced", "SB/relaxed")
expect("diff: new outcome exits 1", code == 1 and "only B reaches" in out, f"{code} {out}")
code, out, err = run("diff", "SB/fenced", "SB/relaxed", "--allow-new-outcomes")
expect("diff: --allow-new-outcomes exits 0", code == 0, f"{code}")
code, out, err = run("diff", "SB/relaxed", "SB/fenced")
expect("diff: removing outcomes exits 0", code == 0 and "only A reaches" in out, f"{code} {out}")

# ---- litmus files wherever an id is accepted ----
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lit = lambda name: os.path.join(root, "litmus", "tests", name + ".litmus")
code, out, err = run("check", lit("SB+mbonceonces"), "SB/relaxed")
expect("check takes a litmus file beside a catalogue id", code == 0 and "SB+mbonceonces/litmus" in out and
       "SB/relaxed" in out, f"{code} {out} {err}")
code, out, err = run("diff", lit("SB+mbonceonces"), lit("SB+poonceonces"))
expect("diff of two litmus files: the change adds behaviour, exit 1 with a witness",
       code == 1 and "only B reaches" in out and "rf init" in out, f"{code} {out} {err}")
code, out, err = run("necessity", lit("SB+mbonceonces"))
rows = [l for l in out.splitlines() if "smp_mb()" in l and "removed" in l]
expect("necessity of a litmus test: both smp_mb() needed", code == 0 and len(rows) == 2 and
       all(l.rstrip().endswith("needed") for l in rows), f"{code} {out} {err}")
merged, mutant = lit("R+shrinker_bit+merged"), lit("R+shrinker_bit+no_after_atomic")
code, out, err = run("diff", merged, mutant)
expect("diff of the shrinker R shape as litmus files: exit 1 with a witness",
       code == 1 and "only B reaches" in out and "clear_bit" in out, f"{code} {out} {err}")
code, out, err = run("necessity", merged)
rows = [l for l in out.splitlines() if "smp_mb__" in l and "removed" in l]
expect("necessity of the merged shrinker litmus test: both barriers needed",
       code == 0 and len(rows) == 2 and all(l.rstrip().endswith("needed") for l in rows), f"{code} {out} {err}")
with tempfile.TemporaryDirectory() as tmp:
    code, out, err = run("report", "--out", tmp, merged, mutant)
    page = os.path.join(tmp, "index.html")
    html = open(page).read() if os.path.exists(page) else ""
    expect("report renders both shrinker litmus tests", code == 0 and "R+shrinker_bit+merged" in html and
           "R+shrinker_bit+no_after_atomic" in html and 'class="necessity"' in html, f"{code} {out} {err}")
    # clear_bit() reads set_bit()'s write (rfe), so LKMM's first violated axiom is happens-before:
    # R nr ->fre W nr ->mb set_bit ->rfe clear_bit is prop & int, and clear_bit ->mb R nr is ppo.
    expect("the report's necessity table gives the cycle each needed barrier breaks, under LKMM",
           html.count("LKMM happens-before (hb acyclic): ") == 5 and "[smp_mb__after_atomic]" in html, html[:0])
    expect("the report's witnesses come with their explaining cycle", '<pre class="cycle">explaining cycle:' in html,
           html[:0])

with tempfile.TemporaryDirectory() as tmp:
    unjudged = os.path.join(tmp, "noresult.litmus")
    with open(lit("SB+poonceonces")) as f:
        text = f.read()
    with open(unjudged, "w") as f:
        f.write("\n".join(l for l in text.splitlines() if "Result:" not in l) + "\n")
    code, out, err = run("check", unjudged)
    expect("a litmus file without Result: is explored, reported unjudged, exit 0",
           code == 0 and "unjudged" in out and "Sometimes" in out, f"{code} {out} {err}")
    broken = os.path.join(tmp, "broken.litmus")
    with open(broken, "w") as f:
        f.write("C broken\n{}\nP0(int *x) { WRITE_ONCE(*x, ; }\nexists (x=1)\n")
    code, out, err = run("check", broken)
    expect("a litmus file that does not parse: file:line error, exit 2", code == 2 and "broken.litmus:3" in err,
           f"{code} {err}")
    code, out, err = run("report", "--out", tmp, lit("SB+mbonceonces"), lit("SB+poonceonces"), "--no-necessity")
    page = os.path.join(tmp, "index.html")
    expect("report renders litmus files", code == 0 and os.path.exists(page) and
           "SB+poonceonces" in open(page).read(), f"{code} {out} {err}")
    mixed = os.path.join(tmp, "mixed")
    code, out, err = run("report", "--out", mixed, "SB", "R+shrinker_bit", "--no-necessity")
    html = open(os.path.join(mixed, "index.html")).read() if code == 0 else ""
    expect("report: a page that mixes models has a model column (LKMM for the kernel-primitive model)",
           "<th>model</th>" in html and "<td>R+shrinker_bit/merged</td>" in html and
           "R+shrinker_bit/merged</td><td>" in html and
           html.split("<td>R+shrinker_bit/merged</td>")[1].split("</tr>")[0].count("<td>LKMM</td>") == 1 and
           html.split("<td>SB/relaxed</td>")[1].split("</tr>")[0].count("<td>RC11</td>") == 1, f"{code} {err}")

finish()
