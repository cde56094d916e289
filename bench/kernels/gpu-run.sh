#!/usr/bin/env bash
# What one `run` on the NVIDIA GPU machine does (device time is scarce: everything in one go):
# the searches of bench/kernels/run.sh gpu (of the cases named, default all), the table of all
# cases, then cuBLAS through PyTorch (FP32,
# TF32 off) for the matmul sizes, as a reference. Writes the table, the log and the store to
# $OUT (or ./gpu-out). Carry .gpu-ex (bench/kernels/pack-gpu.sh).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
# A store from an earlier run (PREV_DB, default .gpu-ex/gpu-prev.sqlite) is resumed: its kernels
# are not measured again, and the searches warm-start from them.
prev=${PREV_DB:-$root/.gpu-ex/gpu-prev.sqlite}
[[ -e $prev && ! -e $out/gpu.sqlite ]] && cp "$prev" "$out/gpu.sqlite"
nvidia-smi -L >"$out/device.txt" 2>&1 || true
# The searches of the cases named (default: all), then the table of every case the store holds.
# TABLE_ONLY=1: no searches, the table of what the store holds.
: >"$out/log.txt"
if [[ -z ${TABLE_ONLY:-} ]]; then
  DB=$out/gpu.sqlite SEARCH_ONLY=1 "$root/bench/kernels/run.sh" gpu "$@" 2>"$out/log.txt"
  echo "searches: run.sh exit $?" >>"$out/log.txt"
fi
DB=$out/gpu.sqlite TABLE_ONLY=1 REPEAT=${REPEAT:-10} "$root/bench/kernels/run.sh" gpu >"$out/table.md" 2>>"$out/log.txt"
echo "table: run.sh exit $?" >>"$out/log.txt"
python3 "$root/bench/gpu/cublas_sgemm.py" 1024 4096 8192 8192x8192x2048 2048x2048x8192 >"$out/cublas.txt" 2>&1
cat "$out/device.txt" "$out/table.md" "$out/cublas.txt"; tail -40 "$out/log.txt"
