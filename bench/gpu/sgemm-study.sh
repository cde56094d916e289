#!/usr/bin/env bash
# One GPU run of the SGEMM study (issue 14): the hand-written shapes of sgemm-shapes.sh at 4096³,
# then the peers at every matmul size of the GPU profile — CLBlast's defaults, CLBlast tuned
# (clblast-tuned/, bench_kernels --clblast-tuned) and cuBLAS (PyTorch, FP32, TF32 off) — and
# whatever kernel the store STORE holds for each size (default: none, then "ours" is empty).
# Prints the tables; writes them to $OUT. Carry .gpu-ex (bench/kernels/pack-gpu.sh).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
pack=$root/.gpu-ex
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
nvidia-smi -L | tee "$out/device.txt"
echo "== hand-written shapes (4096³)"
"$root/bench/gpu/sgemm-shapes.sh" nvidia | tee "$out/shapes.md"
echo "== peers"
ex=$root/resources/examples/matmul.lift
args=()
for s in 1024x1024x1024 4096x4096x4096 8192x8192x8192 8192x8192x2048 2048x2048x8192; do
  IFS=x read -r m n k <<<"$s"
  args+=(--case "matmul-$s:$ex:M=$m,N=$n,K=$k:sgemm")
done
"$pack/bench_kernels" --db "${STORE:-$out/none.sqlite}" --device nvidia --repeat "${REPEAT:-10}" \
  --clblast-tuned "$root/bench/kernels/clblast-tuned/nvidia-h100.txt" "${args[@]}" | tee "$out/peers.md"
python3 - <<'PY' 2>&1 | tee "$out/cublas.txt"
import time
import torch
torch.backends.cuda.matmul.allow_tf32 = False
for m, n, k in ((1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 2048), (2048, 2048, 8192)):
    a = torch.randn(m, k, device="cuda"); b = torch.randn(k, n, device="cuda")
    for _ in range(3): torch.mm(a, b)
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        t = time.perf_counter(); torch.mm(a, b); torch.cuda.synchronize(); ts.append(time.perf_counter() - t)
    ts.sort(); t = ts[len(ts) // 2]
    print(f"cuBLAS sgemm {m}x{n}x{k}: {t*1e3:.3f} ms, {2*m*n*k/t/1e12:.1f} TFLOP/s")
PY
