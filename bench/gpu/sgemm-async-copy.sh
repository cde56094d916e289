#!/usr/bin/env bash
# The best SGEMM kernel with its next tiles copied by NVIDIA's asynchronous copy (`cp.async`,
# inline PTX) instead of through registers (issue 14, session 25): the explorer's best kernel
# (bench/gpu/derived/vectorized-local.sh at 64:64:16:4:4:4, `--unroll 16 --vector-local-loads
# --prefetch`) at each shape, and the same changed by bench/gpu/sgemm_async_copy.py with the local
# address as a 32-bit (async) or 64-bit (asyncl) register. Each is validated and timed by
# `liftc run --kernel` (against OpenBLAS; median of REPEAT) in ROUNDS rounds, all in turn each
# round; ptxas's register count from cl_build_info.
#
# Usage: bench/gpu/sgemm-async-copy.sh   (carry .gpu-ex; env SHAPES "MxNxK ..." (default 4096³),
#        VARIANTS "base async asyncl", REPEAT 10, ROUNDS 2; a table on stdout and in
#        $OUT/async-copy.md)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/device-env.sh"
source "$root/bench/gpu/derived/vectorized-local.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
liftc=$pack/liftc
shapes=${SHAPES:-4096x4096x4096}
variants=${VARIANTS:-base async asyncl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
switches=(--unroll 16 --vector-local-loads --prefetch)

for s in $shapes; do
  IFS=x read -r m n k <<<"$s"
  derive_vectorized_local "$m" "$n" "$k" 64:64:16:4:4:4 "$tmp/$s.lift" >/dev/null || exit 2
  "$liftc" compile "$tmp/$s.lift" "${switches[@]}" >"$tmp/$s-base.cl" || exit 2
  python3 "$root/bench/gpu/sgemm_async_copy.py" "$tmp/$s-base.cl" "$tmp/$s-async.cl" r || exit 2
  python3 "$root/bench/gpu/sgemm_async_copy.py" "$tmp/$s-base.cl" "$tmp/$s-asyncl.cl" l || exit 2
done

nvidia-smi -L 2>/dev/null
declare -A times regs
for round in $(seq "${ROUNDS:-2}"); do
  for s in $shapes; do
    for v in $variants; do
      { echo "// sgemm-async-copy $s $v $$ $round"; cat "$tmp/$s-$v.cl"; } >"$tmp/run.cl"
      if [[ $round == 1 ]]; then
        regs[$s-$v]=$("$pack/cl_build_info" "$tmp/run.cl" -cl-nv-verbose 2>&1 | tee "$out/build-$s-$v.log" |
          grep -o 'Used [0-9]* registers' | head -1 | grep -o '[0-9]*')
      fi
      timeout 300 "$liftc" run "$tmp/$s.lift" --device nvidia "${switches[@]}" --kernel "$tmp/run.cl" \
        --repeat "${REPEAT:-10}" >"$out/run-$s-$v-$round.log" 2>&1
      ms=$(sed -n 's/^time: *median \([0-9.]*\) ms.*/\1/p' "$out/run-$s-$v-$round.log")
      grep -qi 'mismatch\|wrong\|error' "$out/run-$s-$v-$round.log" && ms="${ms:-}(invalid)"
      times[$s-$v]="${times[$s-$v]:-}${times[$s-$v]:+ }${ms:-failed}"
    done
  done
done
{
  echo "| shape | kernel | registers | ms, each round |"
  echo "|---|---|---|---|"
  for s in $shapes; do
    for v in $variants; do echo "| $s | $v | ${regs[$s-$v]:-?} | ${times[$s-$v]} |"; done
  done
} | tee "$out/async-copy.md"
