#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what ordercheck needs from Debian 12 packages, only if something is missing.
set -eu

PACKAGES="g++ meson ninja-build pkg-config python3 relacy-dev libboost-graph-dev \
libboost-program-options-dev doctest-dev nlohmann-json3-dev graphviz libmimalloc-dev"
# The HTML report's browser test renders it in Chromium; without it that test is skipped.
if [ "${ORDERCHECK_WITH_CHROMIUM:-0}" = 1 ]; then
    PACKAGES="$PACKAGES chromium"
fi
# Open MPI lets `mpirun -n K ordercheck check ...` spread shards over ranks; without it that
# launch is refused and its test is skipped.
if [ "${ORDERCHECK_WITH_MPI:-0}" = 1 ]; then
    PACKAGES="$PACKAGES libopenmpi-dev openmpi-bin"
fi

# Debian's linux-source-6.1 holds the kernel's tools/memory-model/litmus-tests, which the
# litmus-lkmm-kernel test judges under LKMM against herd7's recorded verdicts; without it that
# test is skipped.
if [ "${ORDERCHECK_WITH_KERNEL_SOURCE:-0}" = 1 ]; then
    PACKAGES="$PACKAGES linux-source-6.1"
fi

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "ordercheck setup: missing Debian packages:$missing" >&2
    echo "run as root (or: sudo apt-get install$missing)" >&2
    exit 2
fi
echo "ordercheck setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
