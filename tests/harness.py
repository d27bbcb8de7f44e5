# SPDX-License-Identifier: MIT
"""What the end-to-end test scripts share: running ordercheck, counting checks, the closing line."""
import subprocess
import sys

_counts = {"passed": 0, "failed": 0}


def runner(exe):
    """A function that runs `exe ARGS...` and returns (exit code, stdout, stderr)."""
    def run(*args, env=None, timeout=300):
        p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr
    return run


def expect(name, cond, detail=""):
    """One check: counted, and printed with DETAIL when it fails."""
    if cond:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print(f"FAIL {name}: {str(detail)[:2000]}")


def finish():
    """Prints the counts (the line ordercheck.sh sums) and exits 1 if a check failed."""
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
