#!/usr/bin/env bash
# The explorer vs the libraries (docs/PERFORMANCE.md, "Kernels vs libraries"): for every case a
# search from the high-level program (`liftc explore`, one store for all), then bench_kernels
# measures the best kernel of each case next to CLBlast on the same OpenCL device and OpenBLAS
# on the CPU, in turns (round after round, each once untimed and once timed; each ratio the
# median of the rounds'), in one run, and prints a Markdown table.
#
# Usage: bench/kernels/run.sh [cpu|gpu] [CASE...]
#   cpu (default): the 2-core development machine's PoCL device
#   gpu:           the NVIDIA GPU machine (carry .gpu-ex/ from bench/kernels/pack-gpu.sh)
#   CASE:          names of cases to run (default: all of the profile)
# Environment: BUDGET (per search; default 90s, on the GPU per case: 530 s of searches in all), STRATEGY (default evolution),
# DB (default bench-kernels-PROFILE.sqlite; an existing store is resumed), REPEAT (rounds of timed runs,
# default 20), LIFTC, BENCH (the executables), PACK (gpu: the packed folder, default .gpu-ex),
# DEVICE, TABLE_ONLY=1 (no searches: the table of what the store holds), SEARCH_ONLY=1 (no table).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
profile=${1:-cpu}
shift || true
case $profile in
  cpu) device=${DEVICE:-cpu} ;;
  gpu) device=${DEVICE:-nvidia} ;;
  *) echo "usage: $0 [cpu|gpu] [CASE...]" >&2; exit 2 ;;
esac
strategy=${STRATEGY:-evolution}
db=${DB:-$root/bench-kernels-$profile.sqlite}
repeat=${REPEAT:-20}
ex=$root/resources/examples

pack=${PACK:-$root/.gpu-ex}
[[ $pack == /* ]] || pack=$root/$pack
# The pack's libraries and the NVIDIA driver as the ICD; clblast_tuned_file.
[[ $profile == gpu ]] && source "$root/bench/gpu/device-env.sh"
pick() {
  for c in "$@"; do [[ -x $c ]] && { echo "$c"; return; }; done
}
if [[ $profile == gpu ]]; then
  liftc=${LIFTC:-$(pick "$pack/liftc" "$root/build-ex/app/liftc")}
  bench=${BENCH:-$(pick "$pack/bench_kernels" "$root/build-ex/bench/kernels/bench_kernels")}
else
  liftc=${LIFTC:-$(pick "$root/build-ex/app/liftc" "$root/build/app/liftc")}
  bench=${BENCH:-$(pick "$root/build-ex/bench/kernels/bench_kernels" "$root/build/bench/kernels/bench_kernels")}
fi
[[ -x $liftc && -x $bench ]] || { echo "no liftc or bench_kernels (build them, or set LIFTC and BENCH)" >&2; exit 2; }
export LIFT_LIFTC=$liftc

# NAME FILE SIZES ROUTINE [BUDGET] (the search's budget; BUDGET in the environment overrides it)
if [[ $profile == cpu ]]; then
  cases=(
    "matmul-256 $ex/matmul.lift M=256,N=256,K=256 sgemm"
    "matmul-512 $ex/matmul.lift M=512,N=512,K=512 sgemm"
    "matmul-1024 $ex/matmul.lift M=1024,N=1024,K=1024 sgemm"
    "matmul-2048x512x2048 $ex/matmul.lift M=2048,N=2048,K=512 sgemm"
    "matmul-512x2048x512 $ex/matmul.lift M=512,N=512,K=2048 sgemm"
    "gemv-square $ex/gemv.lift M=4096,N=4096 sgemv"
    "gemv-wide $ex/gemv.lift M=1024,N=16384 sgemv"
    "gemv-tall $ex/gemv.lift M=16384,N=1024 sgemv"
    "dot $ex/dot.lift N=16777216 sdot"
    "asum $ex/asum.lift N=16777216 sasum"
    "scal $ex/scal.lift N=16777216 sscal"
  )
else
  cases=(
    "matmul-1024 $ex/matmul.lift M=1024,N=1024,K=1024 sgemm 30s"
    "matmul-4096 $ex/matmul.lift M=4096,N=4096,K=4096 sgemm 80s"
    "matmul-8192 $ex/matmul.lift M=8192,N=8192,K=8192 sgemm 80s"
    "matmul-8192x8192x2048 $ex/matmul.lift M=8192,N=8192,K=2048 sgemm 60s"
    "matmul-2048x2048x8192 $ex/matmul.lift M=2048,N=2048,K=8192 sgemm 60s"
    "gemv-square $ex/gemv.lift M=16384,N=16384 sgemv 40s"
    "gemv-wide $ex/gemv.lift M=4096,N=65536 sgemv 40s"
    "gemv-tall $ex/gemv.lift M=65536,N=4096 sgemv 40s"
    "dot $ex/dot.lift N=67108864 sdot 35s"
    "asum $ex/asum.lift N=67108864 sasum 35s"
    "scal $ex/scal.lift N=67108864 sscal 25s"
  )
fi

selected=("$@")
args=()
for c in "${cases[@]}"; do
  read -r name file sizes routine caseBudget <<<"$c"
  budget=${BUDGET:-${caseBudget:-90s}}
  if ((${#selected[@]})) && [[ ! " ${selected[*]} " == *" $name "* ]]; then continue; fi
  if [[ -z ${TABLE_ONLY:-} ]]; then
  echo "== $name: liftc explore $(basename "$file") --size $sizes --budget $budget --strategy $strategy" >&2
  "$liftc" explore "$file" --size "$sizes" --budget "$budget" --strategy "$strategy" --device "$device" \
    --db "$db" --quiet --top 1 | sed -n '1,2p;/^1 /p' >&2
  fi
  args+=(--case "$name:$file:$sizes:$routine")
done
[[ -n ${SEARCH_ONLY:-} ]] && exit 0
# CLBlast tuned by its own tuner for this device (CLBLAST_TUNED, default on the GPU the file of
# its kind in clblast-tuned/, clblast_tuned_file in bench/gpu/device-env.sh; none on the CPU device).
tunedArgs=()
if [[ $profile == gpu ]]; then
  tuned=$(clblast_tuned_file)
  [[ -e $tuned ]] && tunedArgs=(--clblast-tuned "$tuned")
fi
echo "== bench_kernels ($repeat timed runs each)" >&2
"$bench" --db "$db" --device "$device" --repeat "$repeat" "${tunedArgs[@]}" "${args[@]}"
