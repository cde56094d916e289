#!/usr/bin/env bash
# Why the library's Mandelbrot kernel ran at 0.65-0.68x the hand-written one (issue 16): the
# generated kernel timed alone by `liftc run` (no inputs: mandelbrot.lift), with the runtime's
# work-group shape and with 16 x 16, against two edits of its source made here (`--kernel`):
# `#pragma unroll 1` on the escape loop, and the iteration bound made a value the compiler cannot
# fold (`min(100, R + 100)`: the loop of the plain version, whose bound is a kernel argument).
# Medians of 20.
# Usage (GPU machine, .gpu-ex carried): bash bench/gpu/probe-mandelbrot/run.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
source "$root/bench/gpu/device-env.sh"
here=$root/bench/gpu/probe-mandelbrot
liftc=${LIFTC:-$pack/liftc}
tmp=$(mktemp -d)
"$liftc" compile "$here/mandelbrot.lift" >"$tmp/generated.cl" || exit 1
sed 's/^  while (n < 100/  #pragma unroll 1\n  while (n < 100/' "$tmp/generated.cl" >"$tmp/unroll1.cl"
sed -e 's/int func(int row, int column) {/int func(int row, int column, int limit) {/' \
  -e 's/while (n < 100/while (n < limit/' \
  -e 's/func((gl_id_1 + F - 1), (gl_id))/func((gl_id_1 + F - 1), (gl_id), min(100, R + 100))/' \
  "$tmp/generated.cl" >"$tmp/limit.cl"
time_of() {  # LABEL ARGS...: the median line of liftc run
  local label=$1
  shift
  printf '%-40s ' "$label"
  "$liftc" run "$here/mandelbrot.lift" --device "${DEVICE:-0}" --reference none --repeat 20 "$@" 2>&1 |
    grep -i 'median\|error' | head -1
}
time_of "generated, runtime's work-groups"
time_of "generated, 16 x 16" --local 16,16
time_of "unroll 1, 16 x 16" --global 8192,8192 --local 16,16 --kernel "$tmp/unroll1.cl"
time_of "bound not constant, 16 x 16" --global 8192,8192 --local 16,16 --kernel "$tmp/limit.cl"
time_of "bound not constant, runtime's" --kernel "$tmp/limit.cl"
