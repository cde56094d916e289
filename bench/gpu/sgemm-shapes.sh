#!/usr/bin/env bash
# SGEMM shapes at OpenCL level, to learn what code generation must produce before the rules and
# the explorer are asked to find it (as reduction-shapes.sh did for the reductions): the kernel
# the code generator makes of resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift, then
# bench/gpu/sgemm/tiled.cl — the same tiling with the A tile transposed in local memory, float4
# reads of both tiles, fma — over K tiles of 16 and 32, with and without prefetching the next K
# tile into registers and padding of the A tile, with 16 x 16 and 16 x 8 work-items (SHAPES).
# Every kernel runs through `liftc run` (the hand-written ones with --kernel), validated against
# OpenBLAS; one line per shape.
#
# Usage: bench/gpu/sgemm-shapes.sh [DEVICE] [cpu]   (cpu: 512³ for PoCL; default 4096³)
# Environment: LIFTC (default .gpu-ex/liftc, else build/app/liftc), REPEAT (default 10).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
device=${1:-nvidia}
small=${2:-}
pack=$root/.gpu-ex
liftc=${LIFTC:-$pack/liftc}
[[ -x $liftc ]] || liftc=$root/build/app/liftc
source "$root/bench/gpu/device-env.sh"
program=$root/resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift
size=M=32,N=32,K=256  # tiles: 4096³
[[ $small == cpu ]] && size=M=4,N=4,K=32
work=$(mktemp -d)

printf '| shape | median ms | TFLOP/s | validation |\n|---|---|---|---|\n'
source "$root/bench/gpu/liftc-measure.sh"
run_shape() {  # NAME [--kernel FILE ...]
  local name=$1
  shift
  printf '| %s | %s |\n' "$name" "$(measure "$program" "$size" "$@")"
}
run_shape "generated (matmul_tiled_gpu_8x8.lift)"
# SHAPES: lines "TY TK PREFETCH PADA" (default: the sweep below)
shapes=${SHAPES:-"16 16 0 0
16 16 1 4
16 32 1 4
8 16 0 0
8 16 1 4
8 32 0 4
8 32 1 4
8 8 1 4"}
while read -r ty tk prefetch pad; do
  [[ -z $ty ]] && continue
  f=$work/tiled-$ty-$tk-$prefetch-$pad.cl
  printf '#define TY %s\n#define TK %s\n#define PREFETCH %s\n#define PADA %s\n' "$ty" "$tk" "$prefetch" "$pad" >"$f"
  cat "$root/bench/gpu/sgemm/tiled.cl" >>"$f"
  run_shape "tiled.cl TY=$ty TK=$tk PREFETCH=$prefetch PADA=$pad" --kernel "$f" --local 16,"$ty"
done <<<"$shapes"
rm -rf "$work"
