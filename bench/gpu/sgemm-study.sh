#!/usr/bin/env bash
# One GPU run of the SGEMM study (issue 14): the hand-written shapes of sgemm-shapes.sh at 4096³,
# then the peers at every matmul size of the GPU profile — CLBlast's defaults, CLBlast tuned
# (clblast-tuned/, bench_kernels --clblast-tuned) and cuBLAS (PyTorch, FP32, TF32 off) — and
# whatever kernel the store STORE holds for each size (default: none, then "ours" is empty).
# Prints the tables; writes them to $OUT. Carry .gpu-ex (bench/kernels/pack-gpu.sh).
# SHAPES_ONLY=1: the shapes only; PEERS_ONLY=1: the peers only.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
nvidia-smi -L | tee "$out/device.txt"
if [[ -z ${PEERS_ONLY:-} ]]; then
  echo "== hand-written shapes (4096³)"
  "$root/bench/gpu/sgemm-shapes.sh" nvidia | tee "$out/shapes.md"
fi
[[ -n ${SHAPES_ONLY:-} ]] && exit 0
echo "== peers"
ex=$root/resources/examples/matmul.lift
args=()
for s in 1024x1024x1024 4096x4096x4096 8192x8192x8192 8192x8192x2048 2048x2048x8192; do
  IFS=x read -r m n k <<<"$s"
  args+=(--case "matmul-$s:$ex:M=$m,N=$n,K=$k:sgemm")
done
"$pack/bench_kernels" --db "${STORE:-$out/none.sqlite}" --device nvidia --repeat "${REPEAT:-10}" \
  --clblast-tuned "$root/bench/kernels/clblast-tuned/nvidia-h100.txt" "${args[@]}" | tee "$out/peers.md"
python3 "$root/bench/gpu/cublas_sgemm.py" 1024 4096 8192 8192x8192x2048 2048x2048x8192 2>&1 | tee "$out/cublas.txt"
