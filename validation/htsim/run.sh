#!/bin/sh
# htsim's cost per link transmission against the number of flows on the benchmark dumbbell
# (docs/forwarding.md, *Many flows*): builds dumbbell_flows.cpp against htsim and runs
# 1 flow (2 s and 10 s) and 100, 1000 and 10 000 flows (10 s), ROUNDS rounds (default 3),
# one process at a time, the cases interleaved; one line per run on stdout.
#
#   validation/htsim/run.sh [ROUNDS] > runs.txt
#
# HTSIM: a checkout of github.com/Broadcom/csg-htsim (default: cloned into .htsim at commit
# d6bfbe6, the sources of validation/htsim/dumbbell-flows.json). Its own Makefile
# builds sim/libhtsim.a with its own flags (-O2), which the driver is compiled with too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
HTSIM=${HTSIM:-$here/.htsim}
if [ ! -d "$HTSIM/sim" ]; then
    git clone -q https://github.com/Broadcom/csg-htsim "$HTSIM"
    git -C "$HTSIM" checkout -q d6bfbe6c2decae4921f2151bf4bc21057538057f
fi
make -s -C "$HTSIM/sim" libhtsim.a
flags="-Wall -std=c++11 -g -Wsign-compare -Wuninitialized -O2"
g++ $flags -I"$HTSIM/sim" -o "$here/.dumbbell_flows" "$here/dumbbell_flows.cpp" "$HTSIM/sim/libhtsim.a"
for round in $(seq "${1:-3}"); do
    for case in "1 2" "1 10" "100 10" "1000 10" "10000 10"; do
        set -- $case
        echo "round=$round $("$here/.dumbbell_flows" "$1" "$2" big 2>&1 >/dev/null | grep RESULT)"
    done
done
