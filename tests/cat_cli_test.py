#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Selecting a cat model on the command line (docs/cat.md): --cat, --conf, --lkmm-dir and
ORDERCHECK_LKMM_DIR.

  cat_cli_test.py ORDERCHECK SOURCE_ROOT errors
      bad model files (written here to a temporary directory) and bad combinations: a positioned
      one-line error and exit 2, never a crash; reports naming the cat model by its files.
  cat_cli_test.py ORDERCHECK SOURCE_ROOT kernel
      Linux 6.1's linux-kernel.cfg (the extracted tree, else extracted from Debian's tarball)
      against the built-in LKMM on a handful of the litmus corpus: the same verdicts, counts and
      flags; and a configuration whose linux-kernel.def is written here (the kernel's cat and
      bell copied to a temporary directory): a primitive it lacks refused at the call, its own
      names run as the primitives of the same meaning, a bad def a positioned error, on litmus,
      check and explain. Exits 77 (meson's skip) when neither is there.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

exe, root, mode = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import expect, finish, runner  # noqa: E402
run = runner(exe)

SB = os.path.join(root, "litmus", "tests", "SB+poonceonces.litmus")
COMMANDS = ["litmus", "check", "explain", "necessity", "diff", "report"]


def env_with(**kv):
    e = dict(os.environ)
    e.pop("ORDERCHECK_LKMM_DIR", None)
    e.update(kv)
    return e


def command_line(command, tmp, *model_args):
    """A correct command line of COMMAND with MODEL_ARGS (the model options under test)."""
    out = os.path.join(tmp, "out-" + command)
    return {
        "litmus": ["litmus", SB],
        "check": ["check", SB],
        "explain": ["explain", SB, "--out", out],
        "necessity": ["necessity", "SB/fenced"],
        "diff": ["diff", "SB/fenced", "SB/relaxed"],
        "report": ["report", "SB", "--out", out, "--no-necessity"],
    }[command] + list(model_args)


def crashed(code, err):
    return code < 0 or "terminate called" in err or "Sanitizer" in err or "Aborted" in err


def errors():
    tmp = tempfile.mkdtemp(prefix="ordercheck-cat-cli-")
    files = {
        "syntax.cat": '"bad syntax"\nlet x = po |\n',
        "unknown.cat": '"unknown relation"\nlet a = po\nacyclic a | nosuch as x\n',
        "unsupported.cat": '"unsupported"\nprocedure f(x) = acyclic x end\n',
        "sc.cat": '"SC for the test"\nacyclic po | rf | co | fr as sc\n',
        "variant.cfg": "model sc.cat\nvariant lkmmv2, mixed\n",
        "through.cfg": "graph columns\nmodel sc.cat\nthrough invalid\n",
        "nomodel.cfg": "graph columns\nsquished true\n",
        "nobell.cfg": "# herd's comment\nbell missing.bell\nmodel sc.cat\n",
        "sc.cfg": "graph columns\nsquished true\nshowevents noregs\nedgeattr co,color,blue\nmodel = sc.cat\n",
    }
    for name, text in files.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    p = lambda name: os.path.join(tmp, name)  # noqa: E731

    # Each bad model file: FILE:LINE:COL: error: ..., one line, exit 2, on every command.
    bad = [
        ("missing", ["--cat", p("missing.cat")], rf"^{re.escape(p('missing.cat'))}:1:1: error: expected a readable cat file"),
        ("syntax", ["--cat", p("syntax.cat")], rf"^{re.escape(p('syntax.cat'))}:3:1: error: expected an expression, found the end of the file"),
        ("unknown relation", ["--cat", p("unknown.cat")],
         rf"^{re.escape(p('unknown.cat'))}:3:13: error: expected a defined name, found 'nosuch'"),
        ("unsupported construct", ["--cat", p("unsupported.cat")],
         rf"^{re.escape(p('unsupported.cat'))}:2:1: error: .*found 'procedure', which ordercheck's cat front end does not support"),
        ("cfg variant", ["--conf", p("variant.cfg")],
         rf"^{re.escape(p('variant.cfg'))}:2:17: error: expected the variant lkmmv1 or lkmmv2 .*found 'mixed'"),
        ("cfg verdict key", ["--conf", p("through.cfg")],
         rf"^{re.escape(p('through.cfg'))}:3:1: error: .*found 'through', which would change herd's verdicts"),
        ("cfg no model", ["--conf", p("nomodel.cfg")], rf"^{re.escape(p('nomodel.cfg'))}:1:1: error: expected a 'model FILE.cat' line"),
        ("cfg missing bell", ["--conf", p("nobell.cfg")],
         rf"^{re.escape(p('nobell.cfg'))}:2:6: error: expected a readable bell file \"{re.escape(p('missing.bell'))}\""),
        ("cfg missing", ["--conf", p("missing.cfg")], rf"^{re.escape(p('missing.cfg'))}:1:1: error: expected a readable herd configuration"),
        ("lkmm-dir without cfg", ["--lkmm-dir", tmp],
         rf"^{re.escape(tmp)}/linux-kernel.cfg:1:1: error: expected a readable herd configuration"),
    ]
    for command in COMMANDS:
        for name, args, pattern in bad:
            if command != "litmus" and name not in ("missing", "unknown relation"):
                continue  # the loading is shared: every error once through litmus, two through each command
            code, out, err = run(*command_line(command, tmp, *args), env=env_with())
            label = f"{command} {name}"
            expect(label + ": exit 2", code == 2, (code, out, err))
            expect(label + ": no crash", not crashed(code, err), err)
            expect(label + ": one positioned line", len(err.strip().splitlines()) == 1 and re.search(pattern, err),
                   err)

    # Bad combinations: usage errors, exit 2.
    combos = [
        (["--cat", p("sc.cat"), "--model", "rc11"], "--cat selects the memory model; it conflicts with --model rc11"),
        (["--conf", p("sc.cfg"), "--model", "rc11"], "--conf selects the memory model; it conflicts with --model rc11"),
        (["--cat", p("sc.cat"), "--conf", p("sc.cfg")], "--cat, --conf and --lkmm-dir each select a model: give one"),
        (["--cat", p("sc.cat"), "--engine", "relacy"], "--cat needs the graph engine"),
        (["--cat", p("sc.cat"), "--model", "lkmm"], "declares none of the kernel's event tags"),
    ]
    for args, message in combos:
        code, out, err = run(*command_line("litmus", tmp, *args), env=env_with())
        expect(f"litmus {args}: exit 2", code == 2 and message in err and len(err.strip().splitlines()) == 1,
               (code, err))
    code, out, err = run("check", SB, "--cat", p("sc.cat"), "--engine", "both", env=env_with())
    expect("check --engine both with a cat model: exit 2", code == 2 and "does not apply to a cat model" in err, err)

    # --help of each command names the options.
    for command in COMMANDS:
        code, out, err = run(command, "--help")
        expect(f"{command} --help: the cat options",
               code == 0 and all(o in out for o in ("--cat", "--conf", "--lkmm-dir", "ORDERCHECK_LKMM_DIR")), out)

    # A cat model judges, and the reports say which files did. SC forbids SB's outcome (Never),
    # where LKMM allows it (Sometimes).
    code, out, err = run("litmus", SB, "--conf", p("sc.cfg"), env=env_with())
    # (no execution rejected: the engine explored under SC, not only the certification judged by it)
    expect("litmus --conf sc.cfg: SC's verdict", "Observation SB+poonceonces Never 0 3" in out and
           "Judgement SB+poonceonces FAIL: !!! Unexpected non-Sometimes verification" in out, out + err)
    # ... and its judgement names the model that gave it (not the kernel's: no event tags)
    expect("litmus --conf sc.cfg: the judgement names the model",
           f'Result: Sometimes; cat: {p("sc.cat")} ("SC for the test"); exhaustive, 3 executions' in out, out + err)
    code, out, err = run("check", SB, "--cat", p("sc.cat"), "--format", "json", env=env_with())
    doc = json.loads(out) if out.startswith("{") else {}
    name = f'cat: {p("sc.cat")} ("SC for the test")'
    variant = (doc.get("variants") or [{}])[0]
    expect("check --format json: the cat model named", doc.get("engine", {}).get("memory_model") == name and
           variant.get("memory_model") == name and variant.get("memory_model_role") == "RC11" and
           variant.get("verdict") == "Never" and variant.get("rejected_executions") == 0, out + err)
    code, out, err = run("check", SB, "--cat", p("sc.cat"), env=env_with())
    expect("check text: the cat model named in the header", f"(graph engine, {name}," in out, out)
    # A run that does not end: SC as written has no atomicity axiom, so an RMW may read an older
    # write, and vmalloc_purge's counter can end above the threshold with the purge list empty.
    # The loop drain_vmap_area_work() goes on with at quiescence then reads the same final values
    # forever. The search stops, cut short, says where, and exits 3; it neither hangs nor passes.
    code, out, err = run("check", "vmalloc_purge/v5_18", "--cat", p("sc.cat"), env=env_with(), timeout=120)
    expect("check: a run that does not end is cut short and says where", code == 3 and
           "cut short: a run did not end: the work run at quiescence made 10000 events" in out and
           'see "cut short" above for why' in out, (code, out, err))
    code, out, err = run("check", "vmalloc_purge/v5_18", "--cat", p("sc.cat"), "--format", "json", env=env_with(),
                         timeout=120)
    variant = (json.loads(out).get("variants") or [{}])[0] if out.startswith("{") else {}
    expect("check --format json: why the search was cut short", code == 3 and variant.get("exploration") == "cut short"
           and "at quiescence" in (variant.get("cut_short_why") or ""), (code, out, err))

    # ORDERCHECK_LKMM_DIR: --model lkmm reads it; a run that asks for no model does not.
    bogus = os.path.join(tmp, "no-such-dir")
    code, out, err = run("litmus", SB, "--model", "lkmm", env=env_with(ORDERCHECK_LKMM_DIR=bogus))
    expect("ORDERCHECK_LKMM_DIR with --model lkmm: read", code == 2 and f"{bogus}/linux-kernel.cfg:1:1: error" in err, err)
    code, out, err = run("litmus", SB, env=env_with(ORDERCHECK_LKMM_DIR=bogus))
    expect("ORDERCHECK_LKMM_DIR without --model lkmm: not read", code == 0 and "; LKMM;" in out, out + err)
    code, out, err = run("litmus", SB, "--model", "lkmm", "--cat", p("sc.cat"), env=env_with(ORDERCHECK_LKMM_DIR=bogus))
    expect("--cat overrides ORDERCHECK_LKMM_DIR", code == 2 and "declares none of the kernel's event tags" in err, err)
    shutil.rmtree(tmp, ignore_errors=True)


def kernel_dir():
    """tools/memory-model of linux-source 6.1, extracted or from Debian's tarball; None if neither."""
    installed = "/opt/kernel/linux-source-6.1/tools/memory-model"
    if os.path.exists(os.path.join(installed, "linux-kernel.cfg")):
        return installed
    tarball = "/usr/src/linux-source-6.1.tar.xz"
    if not os.path.exists(tarball):
        return None
    tmp = tempfile.mkdtemp(prefix="ordercheck-cat-cli-kernel-")
    d = "linux-source-6.1/tools/memory-model"
    names = [f"{d}/linux-kernel.{x}" for x in ("cfg", "bell", "cat", "def")] + [f"{d}/lock.cat", f"{d}/litmus-tests"]
    if subprocess.run(["tar", "-xJf", tarball, "-C", tmp, *names]).returncode != 0:
        return None
    return os.path.join(tmp, d)


# A handful of the corpus: plain accesses (the data-race flag), locks, RCU (the unbalanced-locking
# flag), load buffering, a release/acquire chain, a trylock revisited to succeed.
CORPUS = ["SB+poonceonces", "MP+plain+po", "SB+plain", "MP+locks", "RCU+deferred-free", "RCU+unbalanced-lock",
          "LB+poonceonces", "ISA2+release+acquire+acquire", "WRC+release+acquire", "MP+locks-on-int",
          "trylock+trylock"]


def herd_lines(out):
    """Per test: its Observation, Positive/Negative and Flag lines, and its judgement."""
    tests, current = {}, None
    for line in out.splitlines():
        if line.startswith("Test "):
            current = line.split()[1]
            tests[current] = []
        elif current and re.match(r"^(Observation|Positive|Flag|States|Ok|No)\b", line):
            tests[current].append(line)
        elif current and line.startswith("Judgement "):
            tests[current].append(line.split(" (")[0])
    return tests


def kernel():
    d = kernel_dir()
    if d is None:
        print("skipped: no /opt/kernel/linux-source-6.1 and no /usr/src/linux-source-6.1.tar.xz")
        sys.exit(77)
    files = [os.path.join(root, "litmus", "tests", t + ".litmus") for t in CORPUS]
    files = [f for f in files if os.path.exists(f)]
    expect("the corpus files are there", len(files) == len(CORPUS), files)
    builtin = run("litmus", *files, "--model", "lkmm", env=env_with())
    for how, args in (("--conf", ["--conf", os.path.join(d, "linux-kernel.cfg")]), ("--lkmm-dir", ["--lkmm-dir", d]),
                      ("ORDERCHECK_LKMM_DIR", ["--model", "lkmm"])):
        env = env_with(ORDERCHECK_LKMM_DIR=d) if how == "ORDERCHECK_LKMM_DIR" else env_with()
        code, out, err = run("litmus", *files, *args, env=env)
        expect(f"{how}: exit code as the built-in's", code == builtin[0] == 0, (code, builtin[0], err))
        expect(f"{how}: the cat model judged", f"LKMM by cat: {d}/linux-kernel.cat" in out, out)
        a, b = herd_lines(out), herd_lines(builtin[1])
        expect(f"{how}: every test ran", sorted(a) == sorted(b) and len(a) == len(files), (sorted(a), sorted(b)))
        for t in b:
            expect(f"{how} {t}: verdict, counts and flags as the built-in LKMM's", a.get(t) == b[t], (a.get(t), b[t]))

    # --show draws the model's relations: the kernel's files give the edges the built-in gives.
    lb = os.path.join(root, "litmus", "tests", "LB+await+mb.litmus")
    figures = {}
    for how, args in (("built-in", []), ("--conf", ["--conf", os.path.join(d, "linux-kernel.cfg")])):
        out_dir = tempfile.mkdtemp(prefix="ordercheck-cat-show-")
        code, out, err = run("explain", lb, "--out", out_dir, "--force", "--show", "po,rf,ppo,hb,pb,prop,rb", *args,
                             env=env_with())
        dot = open(os.path.join(out_dir, "witness.dot")).read() if code == 0 else ""
        figures[how] = sorted(l for l in dot.splitlines() if "->" in l)
        shutil.rmtree(out_dir, ignore_errors=True)
        expect(f"explain --show with the model's relations ({how})", code == 0 and any("<td>pb</td>" in l for l in figures[how]),
               f"{code} {err}")
    expect("explain --show: the cat model's ppo, hb, pb, prop, rb are the built-in's", figures["built-in"] == figures["--conf"],
           (figures["built-in"], figures["--conf"]))

    # A C++ model that starts with a lock held (vmalloc_purge/seed) is outside lock.cat: that
    # variant fails with the reason, and the command goes on with the others.
    code, out, err = run("check", "vmalloc_purge/seed", "vmalloc_purge/baseline", "--conf", os.path.join(d, "linux-kernel.cfg"),
                         "--no-progress")
    expect("a lock held at the start: exit 1 (a variant failed)", code == 1, (code, err))
    expect("a lock held at the start: the variant says why",
           "vmap_purge_lock is held when the model starts" in out and "lock.cat has every lock start unlocked" in out, out)
    expect("a lock held at the start: the other variant is still judged",
           re.search(r"^vmalloc_purge/baseline .* pass$", out, re.M) is not None, out)

    macro_table(d)
    weakened_orderings(d)


def weakened_orderings(d):
    """.cat changes a maintainer might propose, each a copy of linux-kernel.cat with one reason
    for ordering a read before a later write taken away, and the kernel's load-buffering tests
    that then change verdict (herd7 7.57 with each copy gives the answers below). The rules that
    skip load-buffering guesses before a thread ends (the program text, what the rounds learn)
    must then not count that reason: the model's probes (CatModel::orders()) say which it has.
    - ctrl taken out of rwdep: LB+ctrls Sometimes 1 3 (nothing orders either read before its
      write); LB+ctrl+data Sometimes 1 2 (P1's data dependency still orders, P0's control
      dependency no longer does, and P0's write of y = 1 runs only in the cycle, so the value
      P1's copy passes on is learnt from the text);
    - smp_mb() no longer a strong fence: LB+fencembonceonce+ctrlonceonce Sometimes 1 2 (P1's
      control dependency orders, P0's fence no longer does);
    - acq-po and po-rel out of ppo's fences: LB+poacquireonce+pooncerelease and
      LB+unlocklockonceonce+poacquireonce Sometimes 1 3 (the acquire no longer orders; a
      release still does, through cumul-fence in prop, but one link of the cycle is enough).
    The unchanged files keep every one Never."""
    kernel_tests = os.path.join(d, "litmus-tests")
    ours = os.path.join(root, "litmus", "tests")
    for change, cases in (
            (("let rwdep = (dep | ctrl) ; [W]", "let rwdep = dep ; [W]"),
             ((ours, "LB+ctrls", "Sometimes 1 3", "Never 0 3"), (ours, "LB+ctrl+data", "Sometimes 1 2", "Never 0 2"))),
            (("let strong-fence = mb | gp", "let strong-fence = gp"),
             ((kernel_tests, "LB+fencembonceonce+ctrlonceonce", "Sometimes 1 2", "Never 0 2"),)),
            (("let nonrw-fence = strong-fence | po-rel | acq-po", "let nonrw-fence = strong-fence"),
             ((kernel_tests, "LB+poacquireonce+pooncerelease", "Sometimes 1 3", "Never 0 3"),
              (kernel_tests, "LB+unlocklockonceonce+poacquireonce", "Sometimes 1 3", "Never 0 3")))):
        tmp = tempfile.mkdtemp(prefix="ordercheck-cat-cli-weak-")
        for name in ("linux-kernel.cfg", "linux-kernel.def", "linux-kernel.bell", "lock.cat", "linux-kernel.cat"):
            shutil.copy(os.path.join(d, name), tmp)
        cat = os.path.join(tmp, "linux-kernel.cat")
        text = open(cat).read()
        expect(f"linux-kernel.cat has `{change[0]}` as the test expects", change[0] in text)
        with open(cat, "w") as f:
            f.write(text.replace(change[0], change[1]))
        for folder, test, weak, kept in cases:
            lb = os.path.join(folder, test + ".litmus")
            for cfg_dir, want in ((tmp, weak), (d, kept)):
                code, out, err = run("litmus", lb, "--conf", os.path.join(cfg_dir, "linux-kernel.cfg"), env=env_with())
                expect(f"{test} under {cfg_dir}'s model: {want}", f"Observation {test} {want}" in out, (code, out, err))
        shutil.rmtree(tmp, ignore_errors=True)


# A tools/memory-model of the test's own: the kernel's cat and bell files with a macro table
# written here. It lacks smp_mb() and names two primitives of its own: peek() (READ_ONCE's
# meaning) and grab_acquire() (cmpxchg_acquire's, its tag in upper case).
OWN_DEF = """// a small table: no smp_mb, two names of its own
READ_ONCE(X) __load{once}(X)
WRITE_ONCE(X,V) { __store{once}(X,V); }
smp_wmb() { __fence{wmb}; }
peek(X) __load{once}(X)
grab_acquire(X,V,W) __cmpxchg{ACQUIRE}(X,V,W)
"""
OWN_CFG = "macros linux-kernel.def\nbell linux-kernel.bell\nmodel linux-kernel.cat\n"
# SB with smp_mb(), line 9 column 2
LACKING = """C SB+mbs

{}

P0(int *x, int *y)
{
\tint r0;
\tWRITE_ONCE(*x, 1);
\tsmp_mb();
\tr0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
\tint r0;
\tWRITE_ONCE(*y, 1);
\tsmp_mb();
\tr0 = READ_ONCE(*x);
}

exists (0:r0=0 /\\ 1:r0=0)
"""
# MP with smp_wmb() and a cmpxchg-acquire reading the flag: Never (Sometimes were the read side relaxed)
ALIASED = """C MP+wmb+cas

(* Result: Never *)

{}

P0(int *x, int *y)
{
\tWRITE_ONCE(*x, 1);
\tsmp_wmb();
\tWRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
\tint r0;
\tint r1;
\tr0 = grab_acquire(y, 1, 2);
\tr1 = peek(*x);
}

exists (1:r0=1 /\\ 1:r1=0)
"""


def macro_table(d):
    """--conf with a configuration whose macro table is the test's own (linux-kernel.def)."""
    tmp = tempfile.mkdtemp(prefix="ordercheck-cat-cli-def-")
    own, bad = os.path.join(tmp, "own"), os.path.join(tmp, "bad")
    for folder, text in ((own, OWN_DEF), (bad, OWN_DEF + "smp_mb() { __fence{mb};\n")):
        os.mkdir(folder)
        for name in ("linux-kernel.cat", "linux-kernel.bell", "lock.cat"):
            shutil.copy(os.path.join(d, name), folder)
        for name, content in (("linux-kernel.def", text), ("linux-kernel.cfg", OWN_CFG)):
            with open(os.path.join(folder, name), "w") as f:
                f.write(content)
    files = {"lacking": LACKING, "aliased": ALIASED,
             "original": ALIASED.replace("grab_acquire(", "cmpxchg_acquire(").replace("peek(", "READ_ONCE(")}
    for name, text in files.items():
        with open(os.path.join(tmp, name + ".litmus"), "w") as f:
            f.write(text)
    p = lambda name: os.path.join(tmp, name)  # noqa: E731
    cfg = ["--conf", os.path.join(own, "linux-kernel.cfg")]

    # (a) a primitive the table lacks: refused at the call, as herd refuses it; the test does not
    # parse (exit 2). Without the table it runs.
    lacking = (rf"^{re.escape(p('lacking.litmus'))}:9:2: error: unsupported: the primitive 'smp_mb' is not defined by the "
               rf"macro table {re.escape(os.path.join(own, 'linux-kernel.def'))} \(herd7 rejects it too")
    code, out, err = run("litmus", p("lacking.litmus"), *cfg, env=env_with())
    expect("litmus --conf, a primitive the def lacks: exit 2", code == 2, (code, out, err))
    expect("litmus --conf, a primitive the def lacks: the positioned error", re.search(lacking, err, re.M), err)
    expect("litmus --conf, a primitive the def lacks: does not parse",
           f"Judgement {p('lacking.litmus')} ERROR: does not parse" in out and "1 not parsed" in out, out)
    code, out, err = run("litmus", p("lacking.litmus"), "--model", "lkmm", env=env_with())
    expect("litmus --model lkmm, smp_mb(): parses", code == 0 and "Observation SB+mbs Never" in out, (code, out, err))

    # (b) the table's own names run as the primitives of the same meaning: the verdict of the
    # test written with those primitives under the built-in LKMM; without the table they are no
    # primitives.
    def observation(out):
        return [l for l in out.splitlines() if l.startswith("Observation ")]
    code, out, err = run("litmus", p("aliased.litmus"), *cfg, env=env_with())
    code2, out2, err2 = run("litmus", p("original.litmus"), "--model", "lkmm", env=env_with())
    expect("litmus --conf, aliases: run", code == 0 and code2 == 0, (code, err, code2, err2))
    expect("litmus --conf, aliases: the Observation of the original primitives under the built-in LKMM",
           observation(out) == observation(out2) == ["Observation MP+wmb+cas Never 0 3"], (out, out2))
    code, out, err = run("litmus", p("aliased.litmus"), "--model", "lkmm", env=env_with())
    expect("litmus without the table, aliases: no primitives",
           code == 2 and "call to undefined function 'grab_acquire'" in err, (code, err))

    # (c) a syntax error in the table: positioned, exit 2, on every command
    bad_def = re.escape(os.path.join(bad, "linux-kernel.def"))
    for command in COMMANDS:
        code, out, err = run(*command_line(command, tmp, "--conf", os.path.join(bad, "linux-kernel.cfg")), env=env_with())
        expect(f"{command} --conf, a bad def: exit 2", code == 2 and not crashed(code, err), (code, out, err))
        expect(f"{command} --conf, a bad def: one positioned line",
               len(err.strip().splitlines()) == 1 and
               re.search(rf"^{bad_def}:7:1: error: expected '}}' closing the body of smp_mb", err), err)

    # (d) check and explain take a litmus file's primitives from the table too
    for command in ("check", "explain"):
        extra = ["--out", p("out-" + command)] if command == "explain" else []
        code, out, err = run(command, p("lacking.litmus"), *extra, *cfg, env=env_with())
        expect(f"{command} FILE.litmus --conf, a primitive the def lacks: exit 2", code == 2, (code, out, err))
        expect(f"{command} FILE.litmus --conf, a primitive the def lacks: the positioned error",
               re.search(lacking, err, re.M), err)
        code, out, err = run(command, p("aliased.litmus"), *extra, *cfg, env=env_with())
        expect(f"{command} FILE.litmus --conf, aliases: run", code == 0, (code, out, err))
        if command == "check":
            expect("check FILE.litmus --conf, aliases: the verdict",
                   re.search(r"^MP\+wmb\+cas/litmus +Never +Never .* pass$", out, re.M), out)
    shutil.rmtree(tmp, ignore_errors=True)


if mode == "errors":
    errors()
elif mode == "kernel":
    kernel()
else:
    sys.exit(f"unknown mode {mode}")
finish()
