#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""RC11 written in herd's cat language, run by the cat front end, against the built-in RC11
(docs/cat.md, "RC11 as a cat model"): every variant of the catalogue (`check --all`) and a slice
of the litmus corpus must get the same verdicts and counts.

  cat_rc11_test.py ORDERCHECK SOURCE_ROOT

The model below is written for this test from the definitions of Lahav et al., "Repairing
sequential consistency in C/C++11" (PLDI 2017), in the style of herd's C11 files: a bell that
names the memory orders ('rlx...'sc, which an event carries by its C++ order, tag2set) and a cat
file with herd's constructs (the `C NAME` identity, undefined_unless for data races). When
herd's own rc11.cat and c11.bell are on the machine (ORDERCHECK_HERD_LIBDIR, default
/opt/herd7/libdir), they are compared too; otherwise that part is skipped with a message.
"""
import atexit
import glob
import json
import os
import shutil
import sys
import tempfile

exe, root = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)

BELL = """"C11 memory orders, for ordercheck's RC11 test"
enum memorder = 'rlx || 'acq || 'rel || 'acq_rel || 'sc
instructions R[{'rlx,'acq,'sc}]
instructions W[{'rlx,'rel,'sc}]
instructions F[{'acq,'rel,'acq_rel,'sc}]
let RLX = tag2set('rlx)
let ACQ = tag2set('acq)
let REL = tag2set('rel)
let ACQ_REL = tag2set('acq_rel)
let SC = tag2set('sc)
let A = M & (RLX | ACQ | REL | ACQ_REL | SC)
"""

CAT = """C RC11-test
(* RC11 (Lahav et al., PLDI 2017), Fig. 3 and section 3 *)
let rs = [W] ; (po & loc)? ; [W & A] ; (rf ; rmw)*
let sw = [REL | ACQ_REL | SC] ; ([F] ; po)? ; rs ; rf ; [R & A] ; (po ; [F])? ; [ACQ | ACQ_REL | SC]
let hb = (po | sw)+
let eco = (rf | co | fr)+
let po-nl = po \\ loc
let scb = po | (po-nl ; hb ; po-nl) | (hb & loc) | co | fr
let psc-base = ([SC] | ([F & SC] ; hb?)) ; scb ; ([SC] | (hb? ; [F & SC]))
let psc-f = [F & SC] ; (hb | (hb ; eco ; hb)) ; [F & SC]
irreflexive hb ; eco? as coherence
irreflexive rmw ; eco as rmw-coherence
empty rmw & (fr ; co) as atomicity
acyclic psc-base | psc-f as sc
acyclic po | rf as no-thin-air
let conflict = ((W * _) | (_ * W)) & loc \\ ((IW * _) | (_ * IW))
undefined_unless empty (conflict & ext) \\ (hb | hb^-1 | (A * A)) as race
"""


def variants(out):
    return {v["id"]: (v["verdict"], v["executions"], v.get("positive")) for v in json.loads(out)["variants"]}


def observations(out):
    return [l for l in out.splitlines() if l.startswith(("Observation ", "Flag ", "Positive:"))]


def compare(name, conf):
    code_b, out_b, err_b = run("check", "--all", "--model", "rc11", "--format", "json")
    code_c, out_c, err_c = run("check", "--all", "--conf", conf, "--format", "json")
    expect(f"{name}: check --all runs", code_c in (0, 1) and out_c.lstrip().startswith("{"), (code_c, err_c[-2000:]))
    if not out_c.lstrip().startswith("{"):
        return
    b, c = variants(out_b), variants(out_c)
    differ = {k: (b[k], c.get(k)) for k in b if b[k] != c.get(k)}
    expect(f"{name}: every catalogue variant has the built-in RC11's verdict and counts ({len(b)} variants)",
           not differ and len(b) > 100, differ)
    role = {v["memory_model_role"] for v in json.loads(out_c)["variants"]}
    expect(f"{name}: judged in RC11's role (no kernel tags)", role == {"RC11"}, role)
    # a slice of the litmus corpus, each file under both (RC11's mapping: ordercheck-mapping lines)
    tests = sorted(glob.glob(os.path.join(root, "litmus", "tests", "*.litmus")))[::6]
    code_b, out_b, _ = run("litmus", "--model", "rc11", *tests)
    code_c, out_c, err_c = run("litmus", "--conf", conf, *tests)
    ob, oc = observations(out_b), observations(out_c)
    expect(f"{name}: the same Observation, Positive and Flag lines on {len(tests)} litmus tests",
           ob == oc and len(ob) >= len(tests), [x for x in zip(ob, oc) if x[0] != x[1]][:5] or (len(ob), len(oc), err_c[-500:]))


tmp = tempfile.mkdtemp(prefix="ordercheck-rc11-")
atexit.register(shutil.rmtree, tmp, ignore_errors=True)
with open(os.path.join(tmp, "c11.bell"), "w") as f:
    f.write(BELL)
with open(os.path.join(tmp, "rc11.cat"), "w") as f:
    f.write(CAT)
conf = os.path.join(tmp, "rc11.cfg")
with open(conf, "w") as f:
    f.write("model rc11.cat\nbell c11.bell\n")
compare("RC11 written here", conf)

herd = os.environ.get("ORDERCHECK_HERD_LIBDIR", "/opt/herd7/libdir")
if os.path.exists(os.path.join(herd, "rc11.cat")) and os.path.exists(os.path.join(herd, "c11.bell")):
    herd_conf = os.path.join(tmp, "herd-rc11.cfg")
    with open(herd_conf, "w") as f:
        f.write(f"model {herd}/rc11.cat\nbell {herd}/c11.bell\n")
    compare("herd's rc11.cat", herd_conf)
else:
    print(f"skipped: herd's rc11.cat and c11.bell are not in {herd} (ORDERCHECK_HERD_LIBDIR)")
finish()
