#!/usr/bin/env bash
# The dot product of issue 16 on one GPU: bench_skelcl's dot (the library's ZipReduce, one fused
# kernel, against the plain OpenCL version of skelcl/programs/DotProduct.h) on N floats (default
# 2^26), first with the kernel the library generates, then after a search of ZipReduce's
# high-level program at that size (`liftc explore`, BUDGET) with the best kernel it stored. Each
# run prints the plain version's line, the ratio (the library's speed over the plain version's,
# host to host and kernels only; the target is >= 0.9x) and the library's line.
# Usage: bench/gpu/skelcl-dot.sh     (carry .gpu-ex with liftc and bench_skelcl; Env: N, DEVICE,
# REPEAT, BUDGET (default 120s), OUT)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
liftc=${LIFTC:-$pack/liftc}
bench=${BENCH_SKELCL:-$pack/bench_skelcl}
n=${N:-67108864}
device=${DEVICE:-0}
nvidia-smi -L 2>/dev/null
echo "== the library's generated kernel"
"$bench" dot --size "$n" --device "$device" --repeat "${REPEAT:-10}"
program=$out/skelcl-dot.lift
db=$out/skelcl-dot.sqlite
rm -f "$db"
"$bench" dot --lift-program >"$program"
echo "== liftc explore of ZipReduce's program (${BUDGET:-120s}, N=$n)"
"$liftc" explore "$program" --device "$device" --size "N=$n" --budget "${BUDGET:-120s}" --db "$db" --quiet \
  >"$out/skelcl-dot-explore.txt" 2>&1
tail -3 "$out/skelcl-dot-explore.txt"
echo "== the best stored kernel"
"$bench" dot --size "$n" --device "$device" --repeat "${REPEAT:-10}" --store "$db"
