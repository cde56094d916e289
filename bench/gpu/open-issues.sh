#!/usr/bin/env bash
# The GPU figures of the open issues' latest work, in one call of the device tool (carry .gpu-ex
# from bench/kernels/pack-gpu.sh, about 8 minutes):
#  scan     issue 16: bench/gpu/scan.sh, the coalesced work-group scan of 2^26 floats next to
#           torch.cumsum and a device copy;
#  mdgemv   issue 15: bench/kernels/md-gemv-tuning.sh gpu, md_gemv's time to 95 % of its best
#           (BUDGET per search, default 20s; SEEDS default "1 2");
#  sgemm    issue 14: `liftc explore` of matmul.lift at 4096³ for 75 s with CLBlast (defaults and
#           tuned) and cuBLAS in the same call (bench/gpu/sgemm-derived.sh explore peers), so a
#           change to the explorer for other devices or programs shows if it costs the GPU.
# Usage: bench/gpu/open-issues.sh [scan] [mdgemv] [sgemm]   (default: all; tables to $OUT)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
parts=${*:-scan mdgemv sgemm}
if [[ $parts == *scan* ]]; then
  echo "== scan (issue 16)"
  bash "$root/bench/gpu/scan.sh" 2>&1 | tee "$out/scan.txt"
fi
if [[ $parts == *mdgemv* ]]; then
  echo "== md_gemv tuning (issue 15)"
  BUDGET=${BUDGET:-20s} SEEDS=${SEEDS:-1 2} OUT=$out/md-gemv bash "$root/bench/kernels/md-gemv-tuning.sh" gpu 2>&1 |
    tail -20
  rm -f "$out"/md-gemv/*.sqlite
fi
if [[ $parts == *sgemm* ]]; then
  echo "== SGEMM 4096³ from matmul.lift (issue 14)"
  EXPLORE_SHAPES=${EXPLORE_SHAPES:-4096x4096x4096:75s} OUT=$out/sgemm \
    bash "$root/bench/gpu/sgemm-derived.sh" explore peers 2>&1 | tail -12
fi
