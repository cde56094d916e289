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
source "$root/bench/gpu/sgemm-peers.sh"
sgemm_peers "${STORE:-$out/none.sqlite}" 1024x1024x1024 4096x4096x4096 8192x8192x8192 8192x8192x2048 2048x2048x8192
