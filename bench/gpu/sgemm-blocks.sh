#!/usr/bin/env bash
# Tile and register-block sizes of the explorer's best SGEMM kernel shape, measured on the GPU:
# bench/gpu/derived/vectorized-local.derivation.in (session 7's best 4096³ kernel: float4 lanes,
# tiles of A and B in local memory, a register block per work-item) with the parameters of each
# VARIANT filled in, derived from matmul.lift specialised to SIZE³, compiled with each switch
# combination of SWITCHES and timed by `liftc run` (no reference: with constant sizes the
# OpenBLAS binding cannot be checked; `check` below validates the same derivations at 256³
# against the interpreter on any device).
#
# VARIANT = TX:TY:K:X:Y:W — tiling x (in float4 rows: 4·TX rows of C) and y (columns), K tile,
# register block x (float4 rows) and y (columns), column runs of W.
#
# Usage: bench/gpu/sgemm-blocks.sh [check]     (carry .gpu-ex; env VARIANTS, SIZE, SWITCHES (one
#        combination a line), DEVICE (default nvidia), LANES, REPEAT, LIFTC)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
[[ -x $liftc ]] || liftc=$root/build/app/liftc
device=${DEVICE:-nvidia}
variants=${VARIANTS:-"64:64:16:4:4:4 64:64:16:4:8:4 64:64:16:8:4:4 32:128:16:2:8:4 32:128:16:4:8:4 32:128:32:2:8:4 64:128:16:4:8:4 32:128:16:4:4:4 64:64:32:4:4:4"}

# derive SIZE TX TY K X Y W -> the path of the derived program
derive() {
  local out=$tmp/v-$1-$2x$3-k$4-$5x$6-w$7.lift
  derive_vectorized_local "$1" "$1" "$1" "$2:$3:$4:$5:$6:$7" "$out" >&2 && echo "$out"
}

if [[ ${1:-} == check ]]; then
  printf '| variant (256³, %s) | validation |\n|---|---|\n' "$device"
  for v in $variants; do
    IFS=: read -r tx ty k x y w <<<"$v"
    if ! p=$(derive 256 "$tx" "$ty" "$k" "$x" "$y" "$w"); then
      printf '| %s | does not derive |\n' "$v"
      continue
    fi
    for sw in "" "--unroll 8 --vector-local-loads --double-buffer"; do
      # shellcheck disable=SC2086
      val=$("$liftc" run "$p" --device "$device" --repeat 1 --reference interpreter $sw 2>&1 | sed -n 's/^validation: *//p')
      printf '| %s %s | %s |\n' "$v" "${sw:-off}" "${val:-failed}"
    done
  done
  exit 0
fi

size=${SIZE:-4096}
switches=${SWITCHES:-"--unroll 8
--unroll 8 --vector-local-loads
--unroll 8 --vector-local-loads --double-buffer"}
# LANES > 1: the variants are spread round-robin over the GPUs 0 .. LANES-1 (one at a time on
# each), for a host with several GPUs; each line names its GPU.
lanes=${LANES:-1}

# measure VARIANT DEVICE: one table line per switch combination
measure() {
  local v=$1 dev=$2 tx ty k x y w p out ms gf
  IFS=: read -r tx ty k x y w <<<"$v"
  if ! p=$(derive "$size" "$tx" "$ty" "$k" "$x" "$y" "$w"); then
    printf '| %s | | does not derive | | %s |\n' "$v" "$dev"
    return
  fi
  while IFS= read -r sw; do
    # shellcheck disable=SC2086
    out=$(timeout 120 "$liftc" run "$p" --device "$dev" --repeat "${REPEAT:-10}" --reference none $sw 2>&1)
    ms=$(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$out")
    gf=$(sed -n 's/^throughput: *\([0-9.e+-]*\) GFLOP.*/\1/p' <<<"$out")
    [[ -z $ms ]] && gf=$(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-120)
    printf '| %s | %s | %s | %s | %s |\n' "$v" "${sw:-off}" "${ms:--}" "${gf:--}" "$dev"
  done <<<"$switches"
}

nvidia-smi -L 2>/dev/null
printf '| variant (%s³) | switches | median ms | GFLOP/s | device |\n|---|---|---|---|---|\n' "$size"
if ((lanes <= 1)); then
  for v in $variants; do measure "$v" "$device"; done
  exit 0
fi
read -r -a list <<<"$variants"
for ((lane = 0; lane < lanes; ++lane)); do
  (
    # Each lane derives into its own folder (derive() writes $tmp/v.derivation).
    tmp=$tmp/lane$lane && mkdir -p "$tmp"
    for ((i = lane; i < ${#list[@]}; i += lanes)); do measure "${list[i]}" "$lane"; done >"$tmp/table.md"
  ) &
done
wait
for ((lane = 0; lane < lanes; ++lane)); do cat "$tmp/lane$lane/table.md"; done
