#!/usr/bin/env bash
# Hand variants of the best SGEMM kernel's K-tile loop (issue 14, session 25): the explorer's best
# kernel (bench/gpu/derived/vectorized-local.sh at 64:64:16:4:4:4, `--unroll 16 --vector-local-loads
# --prefetch`) at each shape (base), and the same changed by bench/gpu/sgemm_step_variants.py
# (VARIANTS: async and asyncl, the next tiles by NVIDIA's cp.async; u1, u2, the loop's unrolling;
# split2, split4, split2u2, split4u2, the step cut into parts with the next tiles' loads and
# stores dealt out over them; that script says how), and tiles2, the pack's liftc with
# `--unroll-tiles 2`. Each is timed by `liftc run --kernel` (median of REPEAT) in ROUNDS rounds,
# all in turn each round; ptxas's register count from cl_build_info. At these sizes, constants in
# the kernel, liftc checks only that every output element was written (its log says so).
#
# Usage: bench/gpu/sgemm-step-variants.sh   (carry .gpu-ex; env SHAPES "MxNxK ..." (default 4096³),
#        VARIANTS "base async asyncl", RUN_OPTIONS (more `liftc run` options, e.g.
#        "--max-registers 128": the register count shown is then the uncapped one), REPEAT 10,
#        ROUNDS 2; a table on stdout and in
#        $OUT/step-variants.md)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
shapes=${SHAPES:-4096x4096x4096}
variants=${VARIANTS:-base async asyncl}
switches=(--unroll 16 --vector-local-loads --prefetch)

for s in $shapes; do
  IFS=x read -r m n k <<<"$s"
  derive_vectorized_local "$m" "$n" "$k" 64:64:16:4:4:4 "$tmp/$s.lift" >/dev/null || exit 2
  "$liftc" compile "$tmp/$s.lift" "${switches[@]}" >"$tmp/$s-base.cl" || exit 2
  "$liftc" compile "$tmp/$s.lift" "${switches[@]}" --unroll-tiles 2 >"$tmp/$s-tiles2.cl" || exit 2
  for v in $variants; do
    [[ $v == base || $v == tiles2 ]] || python3 "$root/bench/gpu/sgemm_step_variants.py" "$tmp/$s-base.cl" "$tmp/$s-$v.cl" "$v" || exit 2
  done
done

nvidia-smi -L 2>/dev/null
declare -A times regs
for round in $(seq "${ROUNDS:-2}"); do
  for s in $shapes; do
    for v in $variants; do
      { echo "// sgemm-step-variants $s $v $$ $round"; cat "$tmp/$s-$v.cl"; } >"$tmp/run.cl"
      if [[ $round == 1 ]]; then
        regs[$s-$v]=$("$pack/cl_build_info" "$tmp/run.cl" -cl-nv-verbose 2>&1 | tee "$out/build-$s-$v.log" |
          grep -o 'Used [0-9]* registers' | head -1 | grep -o '[0-9]*')
      fi
      timeout 300 "$liftc" run "$tmp/$s.lift" --device nvidia "${switches[@]}" ${RUN_OPTIONS:-} --kernel "$tmp/run.cl" \
        --repeat "${REPEAT:-10}" >"$out/run-$s-$v-$round.log" 2>&1
      ms=$(sed -n 's/^time: *median \([0-9.]*\) ms.*/\1/p' "$out/run-$s-$v-$round.log")
      if [[ -z $ms ]]; then
        ms=failed
      elif grep -qi 'mismatch\|wrong' "$out/run-$s-$v-$round.log"; then
        ms="$ms(invalid)"
      fi
      times[$s-$v]="${times[$s-$v]:-}${times[$s-$v]:+ }$ms"
    done
  done
done
{
  echo "| shape | kernel | registers | ms, each round |"
  echo "|---|---|---|---|"
  for s in $shapes; do
    for v in $variants; do echo "| $s | $v | ${regs[$s-$v]:-?} | ${times[$s-$v]} |"; done
  done
} | tee "$out/step-variants.md"
