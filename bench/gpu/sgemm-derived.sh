#!/usr/bin/env bash
# One GPU run for issue 14's derived SGEMM kernels, with the peers in the same run:
#  derived  the kernels of bench/gpu/tiled-derivation.sh's derivations from matmul.lift (tile,
#           K tile, register block, block layout, column runs: VARIANTS) and the hand-written
#           lowlevel/matmul_tiled_gpu_8x8.lift at SHAPES, then CLBlast's defaults, CLBlast tuned
#           (clblast-tuned/) and cuBLAS (PyTorch, FP32) at the same shapes;
#  switches bench/gpu/sgemm-switches.sh: the code generator's tuning switches on stored kernels;
#  explore  `liftc explore` from resources/examples/matmul.lift alone, BUDGET per shape of
#           EXPLORE_SHAPES (MxNxK, or MxNxK:BUDGET), with STRATEGY (default liftc's, three-phase),
#           its best kernels and their derivations;
#  peers    CLBlast's defaults, CLBlast tuned and cuBLAS at EXPLORE_SHAPES, in one table with the
#           best kernel the explore part stored for each shape (measured again there).
#           (LANES=G on a host with G GPUs: up to G shapes searched at once, one GPU each);
# Usage: bench/gpu/sgemm-derived.sh [derived] [switches] [explore] [peers]
#        (default: derived explore; carry .gpu-ex)
# Writes the tables to $OUT (default gpu-out/).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
nvidia-smi -L | tee "$out/device.txt"
parts=${*:-derived explore}
shapes=${SHAPES:-"1024x1024x1024 4096x4096x4096"}

if [[ $parts == *derived* ]]; then
  tmp=$(mktemp -d)
  specs=()
  for v in ${VARIANTS:-128:16:8:8 128:16:8:8:strided:4 128:16:8:8:contiguous 64:16:4:4 64:16:4:4:strided:4 128:8:8:8:strided:4}; do
    IFS=: read -r t k bx by b w <<<"$v"
    f=$tmp/tiled${t}-k${k}-${bx}x${by}${b:+-$b}${w:+-w$w}.derivation
    "$root/bench/gpu/tiled-derivation.sh" "$t" "$k" "$bx" "$by" "${b:-strided}" "${w:-1}" >"$f"
    specs+=("$f:$t:$k")
  done
  echo "== derived kernels"
  SHAPES=$shapes "$root/bench/gpu/sgemm-generated.sh" nvidia "${specs[@]}" \
    "$root/resources/examples/lowlevel/matmul_tiled_gpu_8x8.lift" | tee "$out/derived.md"
  echo "== peers"
  source "$root/bench/gpu/sgemm-peers.sh"
  sgemm_peers "$tmp/none.sqlite" $shapes
  rm -rf "$tmp"
fi

if [[ $parts == *switches* ]]; then
  echo "== the code generator's switches"
  "$root/bench/gpu/sgemm-switches.sh" | tee "$out/switches.md"
fi

explore_shapes=()
for e in ${EXPLORE_SHAPES:-4096x4096x4096}; do explore_shapes+=("${e%%:*}"); done

if [[ $parts == *explore* ]]; then
  # LANES > 1 (a host with several GPUs): the shapes are searched at once, shape j on GPU j % LANES
  # (at most LANES at a time), each search on a GPU of its own.
  lanes=${LANES:-1}
  j=0
  for e in ${EXPLORE_SHAPES:-4096x4096x4096}; do
    s=${e%%:*}
    budget=${BUDGET:-3m}
    [[ $e == *:* ]] && budget=${e#*:}
    IFS=x read -r m n k <<<"$s"
    device=nvidia
    ((lanes > 1)) && device=$((j % lanes))
    echo "== explore matmul.lift at $s ($budget, device $device${STRATEGY:+, $STRATEGY})"
    search=("$pack/liftc" explore "$root/resources/examples/matmul.lift" --device "$device" --size "M=$m,N=$n,K=$k"
      --budget "$budget" --db "$out/explore-$s.sqlite" --top 5 ${STRATEGY:+--strategy "$STRATEGY"})
    if ((lanes > 1)); then
      "${search[@]}" >"$out/explore-$s.txt" 2>&1 &
      (((j + 1) % lanes == 0)) && wait
    else
      "${search[@]}" 2>&1 | grep -v '^\[' | tee "$out/explore-$s.txt"
    fi
    j=$((j + 1))
  done
  wait
  ((lanes > 1)) && for e in ${EXPLORE_SHAPES:-4096x4096x4096}; do grep -v '^\[' "$out/explore-${e%%:*}.txt" | tail -8; done
  # Each search's time to 50/90/95/100 % of its best, here: the call may not bring every store back.
  for s in "${explore_shapes[@]}"; do
    [[ -f $out/explore-$s.sqlite ]] && python3 "$root/bench/kernels/time_to_best.py" "$out/explore-$s.sqlite"
  done | tee "$out/time-to-best.txt"
fi

if [[ $parts == *peers* ]]; then
  echo "== peers, with the explorer's best kernels"
  stores=()
  for s in "${explore_shapes[@]}"; do [[ -f $out/explore-$s.sqlite ]] && stores+=("$out/explore-$s.sqlite"); done
  merged=$out/explored.sqlite
  rm -f "$merged"
  if [[ ${#stores[@]} -gt 0 ]]; then
    "$pack/liftc" results --merge "${stores[@]}" -o "$merged" >/dev/null
  fi
  source "$root/bench/gpu/sgemm-peers.sh"
  sgemm_peers "$merged" "${explore_shapes[@]}"
fi
