#!/usr/bin/env bash
# Local-memory padding on the GPU (issue 14, CompileOptions::localPadding, `--pad-local N`): the
# hand-written tiled SGEMM programs of resources/examples/lowlevel/ (whose work-items read a tile
# down its columns) and the explorer's best kernel shape (bench/gpu/sgemm-profile.sh's
# vectorized-local derivation, whose work-items read along rows), each at SIZE³ with padding
# PADS, timed by `liftc run` (median of REPEAT) and validated at 256³ on the same device against
# the interpreter.
#
# Usage: bench/gpu/sgemm-padding.sh   (carry .gpu-ex or set pack=.gpu-pf; env SIZE (4096), PADS
#        ("0 1 4"), PROGRAMS, DEVICE (nvidia), REPEAT (10); OUT for the profile's files)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/device-env.sh"
size=${SIZE:-4096}
pads=${PADS:-"0 1 4"}
device=${DEVICE:-nvidia}
repeat=${REPEAT:-10}
programs=${PROGRAMS:-"matmul_tiled_gpu matmul_tiled_gpu_vec matmul_tiled_gpu_8x8 matmul_tiled_gpu_float4"}

nvidia-smi -L 2>/dev/null
printf '| program (%s³) | --pad-local | valid at 256³ | median ms | TFLOP/s |\n|---|---|---|---|---|\n' "$size"
for p in $programs; do
  f=$root/resources/examples/lowlevel/$p.lift
  # Their sizes count tiles: M and N of 64 (8x8: 128) rows or columns of C, K of 16.
  tile=64
  [[ $p == *8x8* ]] && tile=128
  small="M=$((256 / tile)),N=$((256 / tile)),K=16"
  large="M=$((size / tile)),N=$((size / tile)),K=$((size / 16))"
  for pad in $pads; do
    check=$("$pack/liftc" run "$f" --size "$small" --pad-local "$pad" --device "$device" --repeat 1 \
      --reference interpreter --interp-budget 40000000 2>&1 | sed -n 's/^result: *//p')
    out=$("$pack/liftc" run "$f" --size "$large" --pad-local "$pad" --device "$device" \
      --repeat "$repeat" --reference none 2>&1)
    ms=$(sed -n 's/^median: *\([0-9.e+-]*\) ms.*/\1/p; s/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$out" | head -1)
    tf=$(sed -n 's/^throughput: *\([0-9.e+-]*\) GFLOP.*/\1/p' <<<"$out" | head -1)
    [[ -n $tf ]] && tf=$(awk -v g="$tf" 'BEGIN { printf "%.1f", g / 1000 }')
    printf '| %s | %s | %s | %s | %s |\n' "$p" "$pad" "${check:-?}" "${ms:-?}" "${tf:-$(grep -m1 error <<<"$out" | head -c 100)}"
  done
done
# The explorer's best shape (64x64 tiles of float4 rows, K tiles of 16, 16 x 4 per work-item) and
# its 8 x 8 variant with their switches, with and without padding.
switches=""
for pad in $pads; do
  switches+="--unroll 16 --vector-local-loads --prefetch --pad-local $pad"$'\n'
done
VARIANTS=${VARIANTS:-"64:64:16:4:4:4 32:128:16:2:8:4"} SWITCHES=${switches%$'\n'} SIZE=$size \
  bash "$root/bench/gpu/sgemm-profile.sh"
