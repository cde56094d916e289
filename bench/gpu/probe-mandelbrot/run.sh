#!/usr/bin/env bash
# Why the library's Mandelbrot kernel ran at 0.65-0.68x the hand-written one (issue 16): the
# generated kernel timed alone by `liftc run` (no inputs: mandelbrot.lift), with the runtime's
# work-group shape and with 16 x 16, against two hand edits of it (`--kernel`): `#pragma unroll 1`
# on the escape loop (unroll1.cl), and the iteration bound made a value the compiler cannot fold
# (limit.cl: the loop of the plain version, whose bound is a kernel argument). Medians of 20.
# Usage (GPU machine, .gpu-ex carried): bash bench/gpu/probe-mandelbrot/run.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
source "$root/bench/gpu/device-env.sh"
here=$root/bench/gpu/probe-mandelbrot
liftc=${LIFTC:-$pack/liftc}
time_of() {  # LABEL ARGS...: the median line of liftc run
  local label=$1
  shift
  printf '%-40s ' "$label"
  "$liftc" run "$here/mandelbrot.lift" --device "${DEVICE:-0}" --reference none --repeat 20 "$@" 2>&1 |
    grep -i 'median\|error' | head -1
}
time_of "generated, runtime's work-groups"
time_of "generated, 16 x 16" --local 16,16
time_of "unroll 1, 16 x 16" --global 8192,8192 --local 16,16 --kernel "$here/unroll1.cl"
time_of "bound not constant, 16 x 16" --global 8192,8192 --local 16,16 --kernel "$here/limit.cl"
time_of "bound not constant, runtime's" --kernel "$here/limit.cl"
