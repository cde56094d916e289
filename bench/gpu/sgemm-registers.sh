#!/usr/bin/env bash
# Registers, spills and local memory of the kernels the code generator makes of tiled low-level
# matmul programs (at 4096³: sizes in tiles M=N=32, K=256), and of bench/gpu/sgemm/tiled.cl, as
# NVIDIA's compiler reports them (cl_build_info -cl-nv-verbose; .gpu-ex carried). Occupancy
# follows from the registers: 256 work-items of 128 registers leave room for two work-groups
# per SM, of more than 128 for one.
#
# Usage: bench/gpu/sgemm-registers.sh PROGRAM.lift...
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/device-env.sh"
work=$(mktemp -d)
for p in "$@"; do
  echo "== $p"
  "$pack/liftc" compile "$p" --size M=32,N=32,K=256 >"$work/k.cl" && "$pack/cl_build_info" "$work/k.cl" -cl-nv-verbose | grep "Used\|spill"
done
printf '#define TY 16\n#define TK 16\n#define PREFETCH 1\n#define PADA 4\n' >"$work/t.cl"
cat "$root/bench/gpu/sgemm/tiled.cl" >>"$work/t.cl"
echo "== tiled.cl TY=16 TK=16 PREFETCH=1 PADA=4"
"$pack/cl_build_info" "$work/t.cl" -cl-nv-verbose | grep "Used\|spill"
rm -rf "$work"
