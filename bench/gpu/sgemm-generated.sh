#!/usr/bin/env bash
# The kernels the code generator makes of tiled low-level matmul programs (sizes count tiles: M
# and N of TILE elements, 128 unless the program is given as FILE:TILE, K of KTILE, 16 unless given
# as FILE:TILE:KTILE; a derivation, FILE.derivation, is replayed with `liftc derive` and counts its
# size-multiples likewise) at the SGEMM shapes of issue 14,
# each through `liftc run`, validated against OpenBLAS, one table row per program and shape;
# then bench/gpu/sgemm/tiled.cl (the hand-written reference shape) at 4096³, so that the
# generated kernels are read against it in the same run. Peers: bench/gpu/sgemm-study.sh.
#
# Usage: bench/gpu/sgemm-generated.sh [DEVICE] PROGRAM.lift|PROGRAM.derivation[:TILE[:KTILE]]...
#        (default device: nvidia)
# Environment: LIFTC (default .gpu-ex/liftc, else build/app/liftc), REPEAT (default 10), LOCAL (a
# work-group size X,Y for every program, for derived programs whose copies need more threads),
# SHAPES (default the five shapes below, as MxNxK in elements), LOG (a file for liftc's whole output).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
device=nvidia
[[ $# -gt 0 && $1 != *.lift* && $1 != *.derivation* ]] && device=$1 && shift
pack=$root/.gpu-ex
liftc=${LIFTC:-$pack/liftc}
[[ -x $liftc ]] || liftc=$root/build/app/liftc
source "$root/bench/gpu/device-env.sh"
shapes=${SHAPES:-"1024x1024x1024 4096x4096x4096 8192x8192x8192 8192x8192x2048 2048x2048x8192"}

source "$root/bench/gpu/liftc-measure.sh"

printf '| program | shape | median ms | TFLOP/s | validation |\n|---|---|---|---|---|\n'
local_args=()
[[ -n ${LOCAL:-} ]] && local_args=(--local "$LOCAL")
derived=$(mktemp -d)
for spec in "$@"; do
  IFS=: read -r program tile ktile <<<"$spec"
  tile=${tile:-128} ktile=${ktile:-16}
  name=$(basename "${program%.*}")
  if [[ $program == *.derivation ]]; then
    "$liftc" derive "$program" -o "$derived/$name.lift" || continue
    program=$derived/$name.lift
  fi
  for shape in $shapes; do
    IFS=x read -r m n k <<<"$shape"
    printf '| %s | %s | %s |\n' "$name" "$shape" \
      "$(measure "$program" "M=$((m / tile)),N=$((n / tile)),K=$((k / ktile))" "${local_args[@]}")"
  done
done
rm -rf "$derived"
ref=$(mktemp --suffix=.cl)
printf '#define TY 16\n#define TK 16\n#define PREFETCH 1\n#define PADA 4\n' >"$ref"
cat "$root/bench/gpu/sgemm/tiled.cl" >>"$ref"
printf '| tiled.cl TY=16 TK=16 PREFETCH=1 PADA=4 | 4096x4096x4096 | %s |\n' \
  "$(measure "$root/resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift" M=32,N=32,K=256 --kernel "$ref" --local 16,16)"
rm -f "$ref"
