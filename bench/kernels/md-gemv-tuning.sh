#!/usr/bin/env bash
# Time to 95 % of the best when tuning md_gemv (issue 15, part 4; seed 001 reports 2 s on a CPU
# and 7 s on a GPU): searches of resources/examples/md_gemv.lift, each strategy with several
# seeds, every kernel stored with the seconds since its search started, then
# bench/kernels/time_to_best.py prints when each search first reached 50, 90, 95 and 100 % of the
# best any of them found. docs/PERFORMANCE.md, "md_gemv: time to 95 % of the best".
#
# Usage: bench/kernels/md-gemv-tuning.sh [cpu|gpu]
#   cpu (default): PoCL on this machine, M=K=4096 (001's 2^14 x 2^14 needs 1 GiB per matrix)
#   gpu:           the NVIDIA GPU machine (carry .gpu-ex/ from bench/kernels/pack-gpu.sh), 2^14 x 2^14
# Environment: SIZE (e.g. M=1024,K=262144), BUDGET (per search, default 30s), SEEDS (default
# "1 2 3"), STRATEGIES (default "evolution three-phase"), OUT (the stores and the table; default
# ./md-gemv-tuning), LIFTC, PACK (gpu: the packed folder, default .gpu-ex), DEVICE, EXPLORE_ARGS
# (more options of `liftc explore`, e.g. "--first-guesses 0 --no-reference-cache").
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
profile=${1:-cpu}
case $profile in
  cpu) device=${DEVICE:-cpu}; size=${SIZE:-M=4096,K=4096} ;;
  gpu) device=${DEVICE:-nvidia}; size=${SIZE:-M=16384,K=16384} ;;
  *) echo "usage: $0 [cpu|gpu]" >&2; exit 2 ;;
esac
budget=${BUDGET:-30s}
out=${OUT:-$PWD/md-gemv-tuning}
mkdir -p "$out"
pack=${PACK:-$root/.gpu-ex}
[[ $pack == /* ]] || pack=$root/$pack
if [[ $profile == gpu ]]; then
  source "$root/bench/gpu/device-env.sh"
  liftc=${LIFTC:-$pack/liftc}
else
  liftc=${LIFTC:-$root/build/app/liftc}
fi
[[ -x $liftc ]] || { echo "no liftc at $liftc (build it, or set LIFTC)" >&2; exit 2; }

for strategy in ${STRATEGIES:-evolution three-phase}; do
  for seed in ${SEEDS:-1 2 3}; do
    db=$out/ttb-md_gemv-$strategy-$seed.sqlite
    rm -f "$db"
    "$liftc" explore "$root/resources/examples/md_gemv.lift" --device "$device" --size "$size" \
      --budget "$budget" --strategy "$strategy" --seed "$seed" --db "$db" --top 1 ${EXPLORE_ARGS:-} \
      >>"$out/log.txt" 2>&1
    echo "$strategy seed $seed: exit $?" >>"$out/log.txt"
  done
done
python3 "$root/bench/kernels/time_to_best.py" "$out"/ttb-md_gemv-*.sqlite | tee "$out/table.md"
