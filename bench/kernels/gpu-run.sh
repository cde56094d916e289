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
python3 - >"$out/cublas.txt" 2>&1 <<'PY'
import time
try:
    import torch
except Exception as e:
    print("no torch:", e); raise SystemExit
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
for n in (1024, 4096, 8192):
    a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
    for _ in range(3): torch.mm(a, b)
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        t = time.perf_counter(); torch.mm(a, b); torch.cuda.synchronize(); ts.append(time.perf_counter() - t)
    ts.sort(); m = ts[len(ts) // 2]
    print(f"cuBLAS sgemm n={n}: {m*1e3:.3f} ms, {2*n**3/m/1e12:.1f} TFLOP/s")
PY
cat "$out/device.txt" "$out/table.md" "$out/cublas.txt"; tail -40 "$out/log.txt"
