#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random small litmus tests, judged by herd7 and by ordercheck under LKMM, compared.

  scripts/herd7-fuzz.py ORDERCHECK HERD7 LIBDIR KERNEL_MM_DIR [--seeds FIRST:LAST] [--keep DIR]
                        [--timeout S] [--family classic|rich] [--cat] [--jobs N]

herd7 is a reference oracle, not a project dependency: run this by hand where herd7 is built
(docs/lkmm.md, "Agreement with herd7"). Each seed makes one test, the same on every machine:

  even seeds: load buffering. Process i first reads x_i and last writes x_i+1 (a ring), with
    up to four statements between: reads, writes of a constant or of a register plus 0 or 1,
    fences (smp_mb(), smp_wmb(), smp_rmb()), compare-exchanges and exchanges, and an if on a
    register around one of them. The exists clause asks for every first read to see 1: the
    cycle.
  odd seeds: the same statements in any order over three locations, with an exists clause on
    random registers.

--family rich (the default is classic, above) draws from more of the kernel's primitives, in
the same two shapes: acquire loads and release stores, value-returning and void atomics of
every ordering, smp_mb__before_atomic() and smp_mb__after_atomic(), RCU read-side critical
sections and synchronize_rcu(), spin_lock()/spin_unlock() around statements, and if/else.

--cat also runs ordercheck under the kernel tree's own files (--conf KERNEL_MM_DIR/
linux-kernel.cfg) and compares that answer with herd7's too.

--jobs N runs each ordercheck run again with the search split over N threads (litmus -j N,
twice the timeout) and compares that answer with herd7's too.

For each test the Observation lines (verdict, Positive, Negative) and the Flag lines are compared. A test herd7
rejects or does not answer within the timeout is counted apart, not compared. Exit 1 when
some test differs; each difference is printed with its file (kept with --keep DIR).
"""
import os
import random
import subprocess
import sys
import tempfile

LOCS = ["x", "y", "z", "w"]


def statement(rnd, regs, nested=False):
    kind = rnd.choice(["w", "fence", "r", "cas"] if nested else ["r", "r", "w", "w", "if", "fence", "cas"])
    loc = rnd.choice(LOCS)
    if kind == "r":
        r = f"r{len(regs)}"
        regs.append(r)
        return [f"{r} = READ_ONCE(*{loc});"]
    if kind == "w":
        if regs and rnd.random() < 0.4:
            return [f"WRITE_ONCE(*{loc}, {rnd.choice(regs)} + {rnd.randint(0, 1)});"]
        return [f"WRITE_ONCE(*{loc}, {rnd.randint(1, 2)});"]
    if kind == "fence":
        return [rnd.choice(["smp_mb();", "smp_wmb();", "smp_rmb();"])]
    if kind == "cas":
        r = f"r{len(regs)}"
        regs.append(r)
        op = rnd.choice(["cmpxchg_relaxed", "cmpxchg", "cmpxchg_acquire", "xchg_relaxed"])
        if op == "xchg_relaxed":
            return [f"{r} = xchg_relaxed({loc}, {rnd.randint(1, 2)});"]
        return [f"{r} = {op}({loc}, {rnd.randint(0, 1)}, {rnd.randint(1, 2)});"]
    if regs:  # if
        body = statement(rnd, regs, True)
        return [f"if ({rnd.choice(regs)} == {rnd.randint(0, 2)}) {{"] + ["\t" + b for b in body] + ["}"]
    return [f"WRITE_ONCE(*{loc}, 1);"]


RICH_READS = ["READ_ONCE(*{l})", "READ_ONCE(*{l})", "smp_load_acquire({l})", "atomic_read({l})"]
RICH_WRITES = ["WRITE_ONCE(*{l}, {v});", "WRITE_ONCE(*{l}, {v});", "smp_store_release({l}, {v});",
               "atomic_set({l}, {v});"]
RICH_RMWS = ["xchg{o}({l}, {v})", "cmpxchg{o}({l}, {e}, {v})", "atomic_add_return{o}({v}, {l})",
             "atomic_fetch_add{o}({v}, {l})", "atomic_xchg{o}({l}, {v})", "atomic_cmpxchg{o}({l}, {e}, {v})"]
RICH_VOID = ["atomic_inc({l});", "atomic_add({v}, {l});"]
RICH_FENCES = ["smp_mb();", "smp_wmb();", "smp_rmb();", "smp_mb__before_atomic();", "smp_mb__after_atomic();"]


def rich_statement(rnd, regs, depth=0):
    kinds = ["r", "r", "w", "w", "rmw", "void", "fence"]
    if depth == 0:
        kinds += ["if", "rcu", "lock", "sync"]
    kind = rnd.choice(kinds)
    loc = rnd.choice(LOCS)
    v, e = rnd.randint(1, 2), rnd.randint(0, 1)
    if kind == "r":
        r = f"r{len(regs)}"
        regs.append(r)
        return [f"{r} = " + rnd.choice(RICH_READS).format(l=loc) + ";"]
    if kind == "w":
        if regs and rnd.random() < 0.4:
            v = f"{rnd.choice(regs)} + {rnd.randint(0, 1)}"
        return [rnd.choice(RICH_WRITES).format(l=loc, v=v)]
    if kind == "rmw":
        r = f"r{len(regs)}"
        regs.append(r)
        o = rnd.choice(["", "_relaxed", "_acquire", "_release"])
        return [f"{r} = " + rnd.choice(RICH_RMWS).format(o=o, l=loc, v=v, e=e) + ";"]
    if kind == "void":
        return [rnd.choice(RICH_VOID).format(l=loc, v=v)]
    if kind == "fence":
        return [rnd.choice(RICH_FENCES)]
    if kind == "sync":
        return ["synchronize_rcu();"]
    if kind in ("rcu", "lock"):
        body = []
        for _ in range(rnd.randint(1, 2)):
            body += rich_statement(rnd, regs, depth + 1)
        open_, close = (("rcu_read_lock();", "rcu_read_unlock();") if kind == "rcu"
                        else ("spin_lock(s);", "spin_unlock(s);"))
        return [open_] + body + [close]
    if regs:  # if, sometimes with an else
        then = rich_statement(rnd, regs, depth + 1)
        out = [f"if ({rnd.choice(regs)} == {rnd.randint(0, 2)}) {{"] + ["\t" + b for b in then] + ["}"]
        if rnd.random() < 0.4:
            other = rich_statement(rnd, regs, depth + 1)
            out[-1] = "} else {"
            out += ["\t" + b for b in other] + ["}"]
        return out
    return [f"WRITE_ONCE(*{loc}, 1);"]


def process(p, regs, lines):
    decl = "".join(f"\tint {r};\n" for r in regs)
    args = ", ".join(f"int *{l}" for l in LOCS)
    if any("spin_" in l for l in lines):
        args += ", spinlock_t *s"
    return f"P{p}({args})\n{{\n{decl}\n" + "\n".join("\t" + l for l in lines) + "\n}\n"


def test(seed, family="classic"):
    rnd = random.Random(seed)
    make = statement if family == "classic" else (lambda rnd, regs: rich_statement(rnd, regs))
    nproc = rnd.choice([2, 3, 3])
    procs, conds = [], []
    for p in range(nproc):
        regs, lines = [], []
        if seed % 2 == 0:
            regs.append("r0")
            lines.append(f"r0 = READ_ONCE(*{LOCS[p]});")
        for _ in range(rnd.randint(1, 4)):
            lines += make(rnd, regs)
        if seed % 2 == 0:
            lines.append(f"WRITE_ONCE(*{LOCS[(p + 1) % nproc]}, 1);")
            conds.append(f"{p}:r0=1")
        else:
            conds += [f"{p}:{r}={rnd.randint(0, 2)}" for r in regs if rnd.random() < 0.6]
        if not regs:  # herd7 wants a declaration or a statement before the body
            regs.append("r0")
            lines.insert(0, f"r0 = READ_ONCE(*{LOCS[p]});")
        procs.append(process(p, regs, lines))
    if not conds:
        conds = ["x=1"]
    return f"C fuzz{seed}\n\n{{}}\n\n" + "\n".join(procs) + "\nexists (" + " /\\ ".join(conds) + ")\n"


def observation(cmd, cwd, timeout):
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return None
    obs, flags = None, []
    for line in out.splitlines():
        if line.startswith("Observation "):
            obs = line.split()[2:5]
        elif line.startswith("Flag "):
            flags.append(line.split()[1])
    return None if obs is None else obs + sorted(flags)


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    oc, herd, libdir, kernel_mm = (os.path.abspath(a) for a in argv[1:5])
    opts = argv[5:]
    first, last = 0, 200
    if "--seeds" in opts:
        first, last = (int(s) for s in opts[opts.index("--seeds") + 1].split(":"))
    timeout = float(opts[opts.index("--timeout") + 1]) if "--timeout" in opts else 20.0
    family = opts[opts.index("--family") + 1] if "--family" in opts else "classic"
    if family not in ("classic", "rich"):
        print(f"herd7-fuzz.py: --family classic|rich, not {family}", file=sys.stderr)
        return 2
    cat = "--cat" in opts
    jobs = opts[opts.index("--jobs") + 1] if "--jobs" in opts and opts.index("--jobs") + 1 < len(opts) else "1"
    if not jobs.isdigit() or not 1 <= int(jobs) <= 256:
        print(f"herd7-fuzz.py: --jobs N takes a number of threads from 1 to 256, not {jobs}", file=sys.stderr)
        return 2
    jobs = int(jobs)
    keep = opts[opts.index("--keep") + 1] if "--keep" in opts else tempfile.mkdtemp(prefix="herd7-fuzz-")
    os.makedirs(keep, exist_ok=True)
    compared = differ = unanswered = 0
    for seed in range(first, last):
        path = os.path.join(keep, f"fuzz{seed}.litmus")
        with open(path, "w") as f:
            f.write(test(seed, family))
        h = observation([herd, "-set-libdir", libdir, "-conf", "linux-kernel.cfg", path], kernel_mm, timeout)
        if h is None:
            unanswered += 1
            continue
        runs = [("built-in LKMM", ["--model", "lkmm"])]
        if cat:
            runs.append(("cat", ["--conf", os.path.join(kernel_mm, "linux-kernel.cfg")]))
        if jobs > 1:
            runs += [(f"{name}, -j {jobs}", [*model, "-j", str(jobs)]) for name, model in runs]
        compared += 1
        for name, model in runs:
            o = observation([oc, "litmus", *model, path], None, timeout * (2 if "-j" in model else 1))
            if o != h:
                differ += 1
                print(f"DIFF {path}: herd7 {' '.join(h)}, ordercheck ({name}) "
                      f"{' '.join(o) if o else 'no answer'}", flush=True)
    print(f"seeds {first}:{last} ({family}): {compared} compared, {differ} differences, {unanswered} herd7 did not answer; "
          f"tests in {keep}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
