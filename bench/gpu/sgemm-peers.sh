# Sourced by the SGEMM scripts: `sgemm_peers STORE SHAPE...` measures the peers at each shape
# (MxNxK) on the NVIDIA GPU — CLBlast's defaults and CLBlast tuned (clblast-tuned/, the
# file of the GPU's kind: clblast_tuned_file in device-env.sh; through
# bench_kernels, which also shows whatever kernel STORE holds for the shape) and cuBLAS (PyTorch,
# FP32, TF32 off) — and writes peers.md and cublas.txt to $out. Expects $root, $pack and $out.
sgemm_peers() {
  local store=$1 s m n k args=()
  shift
  for s in "$@"; do
    IFS=x read -r m n k <<<"$s"
    args+=(--case "matmul-$s:$root/resources/examples/matmul.lift:M=$m,N=$n,K=$k:sgemm")
  done
  "$pack/bench_kernels" --db "$store" --device nvidia --repeat "${REPEAT:-10}" \
    --clblast-tuned "$(clblast_tuned_file)" "${args[@]}" | tee "$out/peers.md"
  python3 "$root/bench/gpu/cublas_sgemm.py" "$@" 2>&1 | tee "$out/cublas.txt"
}
