#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End to end, a model out of tree: `meson install` of this build into a temporary directory
(headers, libordercheck.a, ordercheck.pc), then docs/examples/my_protocol built against it with
the compiler line documented in docs/writing-models.md and with meson, and the resulting program
run: check, necessity, explain, diff, list, --jobs, --shard + merge, (mpirun).

usage: install_test.py BUILD_DIR SOURCE_ROOT"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

build_dir, source_root = (os.path.abspath(a) for a in sys.argv[1:3])
from harness import expect, finish  # noqa: E402

started = time.monotonic()
meson = shutil.which("meson") or "meson"


def sh(cmd, cwd=None, env=None, timeout=300):
    """Runs CMD (a list, or a string for the shell); returns (exit code, stdout + stderr)."""
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=isinstance(cmd, str), capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def options(build):
    """The build's meson options, by name."""
    code, out = sh([meson, "introspect", "--buildoptions", build])
    if code != 0:
        return {}
    return {o["name"]: o["value"] for o in json.loads(out)}


opts = options(build_dir)
prefix = opts.get("prefix", "/usr/local")
libdir = opts.get("libdir", "lib")
includedir = opts.get("includedir", "include")
def under(root, d):
    """Where the install into destdir ROOT puts the directory option D (absolute or prefix-relative)."""
    return os.path.join(root, d.lstrip("/")) if os.path.isabs(d) else os.path.join(root, prefix.lstrip("/"), d)

tmp = tempfile.mkdtemp(prefix="ordercheck-install-")
try:
    # ---- install into a temporary destdir ----
    dest = os.path.join(tmp, "dest")
    code, out = sh([meson, "install", "--no-rebuild", "--quiet", "-C", build_dir, "--destdir", dest])
    expect("meson install --destdir exits 0", code == 0, out)
    inc = under(dest, os.path.join(includedir, "ordercheck"))
    lib = under(dest, libdir)
    pc = os.path.join(lib, "pkgconfig", "ordercheck.pc")
    for path in ("checker/model/model.hpp", "checker/model/primitives.hpp", "checker/model/kernel.hpp",
                 "checker/model/runtime.hpp", "checker/explore/exploration.hpp", "checker/driver/check.hpp",
                 "cli/commands.hpp", "checker/version.hpp", "traces/execution_graph.hpp"):
        expect(f"installed include/ordercheck/{path}", os.path.isfile(os.path.join(inc, path)), inc)
    expect("installed libordercheck.a", os.path.isfile(os.path.join(lib, "libordercheck.a")), lib)
    expect("installed pkgconfig/ordercheck.pc", os.path.isfile(pc), pc)

    # The installed ordercheck carries the C twins of the seeds (models/c/, embedded at build time):
    # run from a directory with no source tree, it lists and checks them.
    bindir = opts.get("bindir", "bin")
    installed_exe = under(dest, os.path.join(bindir, "ordercheck"))
    expect("installed bin/ordercheck", os.path.isfile(installed_exe), installed_exe)
    if os.path.isfile(installed_exe):
        twins = sorted(glob.glob(os.path.join(source_root, "models", "c", "*", "*.litmus")))
        code, out = sh([installed_exe, "list"], cwd=tmp)
        listed = set(re.findall(r"^  (c:\S+)  expect ", out, re.M))
        wanted = {"c:" + os.path.basename(os.path.dirname(f)) + "/" + os.path.splitext(os.path.basename(f))[0]
                  for f in twins}
        expect("the installed ordercheck lists every C twin under models/c/ (c:MODEL/VARIANT)",
               code == 0 and len(wanted) > 0 and listed == wanted, sorted(listed ^ wanted))
        code, out = sh([installed_exe, "check", "c:shrinker_bit/merged", "--no-progress"], cwd=tmp)
        expect("the installed ordercheck checks a C twin (c:shrinker_bit/merged: Never, pass)",
               code == 0 and re.search(r"^c:shrinker_bit/merged\s+.*Never\s+Never\s+exhaustive\b.*\bpass$", out, re.M),
               out)

    # The include closure: every "..." include of an installed header is installed; none is Relacy.
    headers = sorted(glob.glob(os.path.join(inc, "**", "*.hpp"), recursive=True))
    expect("headers are installed", len(headers) > 0, inc)
    for h in headers:
        rel, text = os.path.relpath(h, inc), open(h).read()
        for target in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            expect(f"{rel} includes {target}, which is installed", os.path.isfile(os.path.join(inc, target)), h)
        expect(f"{rel} includes no Relacy header", not re.search(r'#\s*include\s*[<"]relacy/', text), h)

    # ordercheck.pc is relocatable: its prefix is found from its own directory (${pcfiledir}), so
    # the destdir copy is used as installed, with no edit, and so is a copy moved elsewhere.
    pcdir = os.path.dirname(pc)
    if os.path.isfile(pc):
        text = open(pc).read()
        expect("ordercheck.pc: Cflags point at include/ordercheck",
               re.search(r"^Cflags:.*-I\$\{includedir\}/ordercheck\b", text, re.M), text)
        expect("ordercheck.pc: Libs name -lordercheck", re.search(r"^Libs:.*-lordercheck\b", text, re.M), text)
        expect("ordercheck.pc is relocatable: prefix=${pcfiledir}/... (meson configure -Dpkgconfig.relocatable=true "
               "for a build directory set up before it was the default)",
               re.search(r"^prefix=\$\{pcfiledir\}/", text, re.M), text)
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = pcdir + (os.pathsep + env["PKG_CONFIG_PATH"] if env.get("PKG_CONFIG_PATH") else "")
    pkg_config = shutil.which("pkg-config") or "pkg-config"

    def pkg_config_dirs(pc_path):
        """The -I and -L directories `pkg-config --cflags --libs ordercheck` gives, resolved."""
        code, out = sh([pkg_config, "--cflags", "--libs", "ordercheck"], env=dict(env, PKG_CONFIG_PATH=pc_path))
        flags = out.split()
        return (code, out, {os.path.realpath(f[2:]) for f in flags if f.startswith("-I")},
                {os.path.realpath(f[2:]) for f in flags if f.startswith("-L")})

    code, out, includes, libdirs = pkg_config_dirs(pcdir)
    expect("pkg-config --cflags --libs ordercheck names the destdir copy",
           code == 0 and os.path.realpath(inc) in includes and os.path.realpath(lib) in libdirs, out)
    # The same install moved elsewhere: pkg-config follows it.
    moved = os.path.join(tmp, "moved")
    shutil.copytree(dest, moved, symlinks=True)
    code, out, includes, libdirs = pkg_config_dirs(os.path.join(moved, os.path.relpath(pcdir, dest)))
    expect("pkg-config follows a moved install",
           code == 0 and os.path.realpath(os.path.join(moved, os.path.relpath(inc, dest))) in includes and
           os.path.realpath(os.path.join(moved, os.path.relpath(lib, dest))) in libdirs, out)

    # A sanitizer build installs instrumented objects: the example is built with the same.
    sanitize = opts.get("b_sanitize", "none")
    extra = []
    if sanitize not in ("none", "", None):
        extra = ["-fsanitize=" + sanitize] + (["-fno-sanitize=vptr"] if "undefined" in sanitize else [])

    # ---- the documented compiler line ----
    doc = open(os.path.join(source_root, "docs", "writing-models.md")).read()
    lines = re.findall(r"^g\+\+ .*\$\(pkg-config --cflags --libs ordercheck\).*$", doc, re.M)
    expect("docs/writing-models.md documents one compiler line", len(lines) == 1, lines)
    example = os.path.join(tmp, "my_protocol")
    shutil.copytree(os.path.join(source_root, "docs", "examples", "my_protocol"), example)
    t0 = time.monotonic()
    code, out = sh(lines[0] + "".join(" " + a for a in extra), cwd=example, env=env)
    print(f"compiler line: {time.monotonic() - t0:.1f}s: {lines[0] if lines else ''}")
    exe = os.path.join(example, "my_model")
    expect("the compiler line builds my_model", code == 0 and os.path.isfile(exe), out)

    def run(*args, program=exe, **kw):
        return sh([program, *args], cwd=example, env=env, **kw)

    if os.path.isfile(exe):
        code, out = run("check", "--all")
        expect("my_model check --all exits 0", code == 0, out)
        expect("mailbox/release_acquire: expected Never, found Never, pass",
               re.search(r"^mailbox/release_acquire\s+Never\s+Never\s+exhaustive\b.*\bpass$", out, re.M), out)
        expect("mailbox/once: expected Sometimes, found Sometimes, pass",
               re.search(r"^mailbox/once\s+Sometimes\s+Sometimes\s+exhaustive\b.*\bpass$", out, re.M), out)
        expect("check --all checks the two variants only", "2 passed, 0 failed" in out, out)

        code, out = run("necessity", "mailbox/release_acquire")
        needed = [l for l in out.splitlines() if "needed: the weaker form breaks it" in l]
        expect("necessity exits 0", code == 0, out)
        expect("necessity: smp_store_release and smp_load_acquire are both needed",
               len(needed) == 2 and any("smp_store_release" in l for l in needed) and
               any("smp_load_acquire" in l for l in needed), out)

        code, out = run("explain", "mailbox/once", "--out", "witness")
        expect("explain writes a witness", code == 0 and os.path.isfile(os.path.join(example, "witness", "witness.dot"))
               and os.path.isfile(os.path.join(example, "witness", "witness.txt")), out)

        code, out = run("diff", "mailbox/release_acquire", "mailbox/once")
        expect("diff exits 1: the broken variant adds an outcome", code == 1, out)
        code, out = run("list")
        expect("list shows the user's models only", code == 0 and "mailbox/once" in out and "SB" not in out, out)
        code, out = run("check", "SB/relaxed")
        expect("the catalogue is not in the program: SB/relaxed is unknown (exit 2)",
               code == 2 and "mailbox/release_acquire" in out, out)
        code, out = run("check", "mailbox", "--jobs", "2")
        expect("check --jobs 2 (worker processes) exits 0", code == 0 and "2 passed, 0 failed" in out, out)
        shards = []
        for i in range(2):  # a shard alone settles nothing (exit 3); its JSON report goes to merge
            p = subprocess.run([exe, "check", "mailbox", "--shard", f"{i}/2", "--format", "json"], cwd=example,
                               env=env, capture_output=True, text=True, timeout=300)
            expect(f"check --shard {i}/2 exits 0 or 3", p.returncode in (0, 3), p.stderr)
            path = os.path.join(example, f"shard{i}.json")
            open(path, "w").write(p.stdout)
            shards.append(path)
        code, out = run("merge", *shards)
        expect("check --shard I/2 + merge exits 0", code == 0 and "2 passed, 0 failed" in out, out)

        code, out = run("report", "--out", "report", "--no-necessity")
        expect("report writes index.html over the user's models",
               code == 0 and "mailbox/once" in open(os.path.join(example, "report", "index.html")).read()
               if os.path.isfile(os.path.join(example, "report", "index.html")) else False, out)
        tests = sorted(glob.glob(os.path.join(source_root, "litmus", "tests", "*.litmus")))
        if tests:
            code, out = run("litmus", tests[0])
            expect("litmus runs a litmus test", code == 0 and "1 passed, 0 failed" in out, out)

        mpirun = shutil.which("mpirun")
        code, linked = sh(["ldd", exe])
        if mpirun and "libmpi" in linked:
            mpi_env = dict(env, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                           OMPI_MCA_rmaps_base_oversubscribe="1")
            code, out = sh([mpirun, "-n", "2", exe, "check", "mailbox"], cwd=example, env=mpi_env)
            expect("mpirun -n 2 my_model check mailbox exits 0", code == 0 and "2 passed, 0 failed" in out, out)
        else:
            print("SKIP mpirun: " + ("not installed" if not mpirun else "built without MPI"))

    # ---- meson: dependency('ordercheck') ----
    if os.environ.get("ORDERCHECK_INSTALL_TEST_NO_MESON"):
        print("SKIP the meson build of the example (ORDERCHECK_INSTALL_TEST_NO_MESON)")
    else:
        t0 = time.monotonic()
        setup = [meson, "setup", os.path.join(tmp, "example-build"), example]
        if extra:
            setup += ["-Db_sanitize=" + sanitize] + (["-Dcpp_args=-fno-sanitize=vptr",
                                                      "-Dcpp_link_args=-fno-sanitize=vptr"]
                                                     if "undefined" in sanitize else [])
        code, out = sh(setup, env=env)
        expect("meson setup of the example finds dependency('ordercheck')", code == 0, out)
        if code == 0:
            code, out = sh(["ninja", "-C", os.path.join(tmp, "example-build")], env=env)
            expect("ninja builds the example", code == 0, out)
            built = os.path.join(tmp, "example-build", "my_model")
            if code == 0:
                code, out = run("check", "--all", program=built)
                expect("the meson-built my_model: check --all exits 0 with both variants passing",
                       code == 0 and "2 passed, 0 failed" in out, out)
        print(f"meson build of the example: {time.monotonic() - t0:.1f}s")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"install test: {time.monotonic() - started:.1f}s")
finish()
