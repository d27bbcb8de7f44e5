#!/bin/sh
# SPDX-License-Identifier: MIT
# One entry point: installs missing Debian packages, builds, and runs.
#   ./ordercheck.sh check      build, then `ordercheck check --all` (the verdict table)
#   ./ordercheck.sh test       build, then the test suite
#   ./ordercheck.sh test-sanitize   the same suite in an ASan+UBSan build (build-asan/)
#   ./ordercheck.sh run ARGS   build, then `ordercheck ARGS`
set -eu
cd "$(dirname "$0")"

sh scripts/setup-debian.sh

build() {  # build DIR [meson options...]
    dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        if ! meson setup "$dir" "$@" > "$dir.setup.log" 2>&1; then
            cat "$dir.setup.log" >&2
            echo "ordercheck: meson setup $dir failed" >&2
            exit 2
        fi
    fi
    if ! ninja -C "$dir" > "$dir.build.log" 2>&1; then
        cat "$dir.build.log" >&2
        echo "ordercheck: the build in $dir failed" >&2
        exit 2
    fi
    grep -E 'warning:' "$dir.build.log" >&2 || true
}

summary() {  # summary DIR: the doctest and meson counts as one closing line
    python3 - "$1" <<'PY'
import json, re, sys
passed = failed = skipped = 0
for line in open(sys.argv[1] + "/meson-logs/testlog.json"):
    t = json.loads(line)
    if t["result"] == "SKIP":
        skipped += 1
        continue
    ok = t["result"] == "OK"
    m = re.search(r"test cases:\s*(\d+) \|\s*(\d+) passed \|\s*(\d+) failed", t.get("stdout", ""))
    if m:
        passed += int(m.group(2)); failed += int(m.group(3))
    else:
        passed += ok; failed += not ok
print(f"{sys.argv[1]}: {passed} passed, {failed} failed, {skipped} skipped")
PY
}

cmd=${1:-check}
[ $# -gt 0 ] && shift
case "$cmd" in
check)
    build build
    exec ./build/cli/ordercheck check --all "$@"
    ;;
run)
    build build
    exec ./build/cli/ordercheck "$@"
    ;;
test)
    build build
    meson test -C build --print-errorlogs "$@"
    summary build
    ;;
test-sanitize)
    # The suite under ASan + UBSan. Relacy replaces operator new with malloc (an alloc/dealloc
    # "mismatch" by design) and never frees its fibre stacks (docs/relacy.md, "One exploration per process"), and ASan
    # warns that it cannot follow Relacy's fibre switches; every other check stays on.
    build build-asan -Db_sanitize=address,undefined -Dbuildtype=debugoptimized
    ASAN_OPTIONS=detect_leaks=0:alloc_dealloc_mismatch=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs "$@"
    summary build-asan
    ;;
*)
    echo "usage: ./ordercheck.sh check|test|test-sanitize|run ARGS..." >&2
    exit 2
    ;;
esac
