# SPDX-License-Identifier: MIT
"""What the benchmark scripts (lkmm_bench.py, cat_bench.py, graph_bench.py) share in reading
their command lines."""
import argparse
import os


def count(text):
    """A whole number of at least 1 (an argparse type)."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, found {text!r}")
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, found {v}")
    return v


def add_build(ap):
    """The optional BUILD_DIR positional."""
    ap.add_argument("build", nargs="?", default="build", metavar="BUILD_DIR", help="meson build directory (default: build)")


def ordercheck(ap, build):
    """BUILD_DIR's ordercheck, or a usage error naming where it was looked for."""
    exe = os.path.join(build, "cli", "ordercheck")
    if not os.access(exe, os.X_OK):
        ap.error(f"no ordercheck at {exe}: build first, or name the build directory")
    return exe
