#!/usr/bin/env bash
# What a branch in the best SGEMM kernel's K-tile loop costs, and where a stream-K kernel's time
# goes (issue 14, session 24). The explorer's best kernel (bench/gpu/derived/vectorized-local.sh
# at 64:64:16:4:4:4, `--unroll 16 --vector-local-loads --prefetch`) at 4096³ and 8192³ as the
# generator before session 24 made it (BEFORE: a liftc of that generator; its prefetching loop
# guards the next tiles' loads with `if (i + 1 < 256)`), changed by hand
# (bench/gpu/sgemm_loop_variants.py says how), next to the same kernel from the pack's liftc
# (`new`, `new8`) and, with SK, its stream-K kernels and their variants. Each is timed by
# `liftc run --kernel` (median of REPEAT) in ROUNDS rounds, all in turn each round; ptxas's
# register count from cl_build_info. The variants that leave work out (tail, dp) compute wrong
# results on purpose: only their times count.
#
# Usage: BEFORE=.gpu-ex/liftc-before bench/gpu/sgemm-loop-variants.sh   (carry .gpu-ex; env
#        PLAIN "NAME ..." (default every plain variant), SK "NAME ..." (default none; e.g.
#        "sk clamp clamp+tail sk+dp"), SK_GROUPS 264, REPEAT 10, ROUNDS 2; a table on stdout
#        and in $OUT/loop-variants.md)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
before=${BEFORE:?BEFORE: a liftc of the generator before session 24}
groups=${SK_GROUPS:-264}
plain=${PLAIN:-dyn off dynoff dynclamp dynu1 baseu1 peel dynpeel lo lo2 lo3}
sk=${SK:-}
switches=(--unroll 16 --vector-local-loads --prefetch)

names=()
for n in 4096 8192; do
  liftc=$before derive_vectorized_local $n $n $n 64:64:16:4:4:4 "$tmp/p$n.lift" >/dev/null || exit 2
done
"$before" compile "$tmp/p4096.lift" "${switches[@]}" >"$tmp/base.cl" || exit 2
"$before" compile "$tmp/p8192.lift" "${switches[@]}" >"$tmp/base8.cl" || exit 2
"$liftc" compile "$tmp/p4096.lift" "${switches[@]}" >"$tmp/new.cl" || exit 2
"$liftc" compile "$tmp/p8192.lift" "${switches[@]}" >"$tmp/new8.cl" || exit 2
names+=(base new base8 new8)
python3 "$root/bench/gpu/sgemm_loop_variants.py" "$tmp/base.cl" "$tmp" $plain || exit 2
names+=($plain)
if [[ -n $sk ]]; then
  "$before" compile "$tmp/p4096.lift" "${switches[@]}" --stream-k "$groups" >"$tmp/sk-base.cl" || exit 2
  "$before" compile "$tmp/p8192.lift" "${switches[@]}" --stream-k "$groups" >"$tmp/sk8-base.cl" || exit 2
  mkdir -p "$tmp/sk" "$tmp/sk8"
  python3 "$root/bench/gpu/sgemm_loop_variants.py" "$tmp/sk-base.cl" "$tmp/sk" $sk || exit 2
  python3 "$root/bench/gpu/sgemm_loop_variants.py" "$tmp/sk8-base.cl" "$tmp/sk8" $sk || exit 2
  for v in $sk; do
    mv "$tmp/sk/$v.cl" "$tmp/sk-$v.cl" && mv "$tmp/sk8/$v.cl" "$tmp/sk8-$v.cl"
    names+=("sk-$v" "sk8-$v")
  done
fi

nvidia-smi -L 2>/dev/null
declare -A times regs
for round in $(seq "${ROUNDS:-2}"); do
  for v in "${names[@]}"; do
    p=$tmp/p4096.lift
    [[ $v == *8 || $v == sk8-* ]] && p=$tmp/p8192.lift
    opts=()
    [[ $v == sk-* || $v == sk8-* ]] && opts=(--stream-k "$groups")
    { echo "// sgemm-loop-variants $v $$ $round"; cat "$tmp/$v.cl"; } >"$tmp/run.cl"
    if [[ $round == 1 ]]; then
      regs[$v]=$("$pack/cl_build_info" "$tmp/run.cl" -cl-nv-verbose 2>&1 | grep -o 'Used [0-9]* registers' | head -1 | grep -o '[0-9]*')
    fi
    ms=$(timeout 300 "$liftc" run "$p" --device nvidia "${switches[@]}" "${opts[@]}" --kernel "$tmp/run.cl" \
      --repeat "${REPEAT:-10}" 2>&1 | sed -n 's/^time: *median \([0-9.]*\) ms.*/\1/p')
    times[$v]="${times[$v]:-}${times[$v]:+ }${ms:-failed}"
  done
done
{
  echo "| kernel | registers | ms, each round |"
  echo "|---|---|---|"
  for v in "${names[@]}"; do echo "| $v | ${regs[$v]:-?} | ${times[$v]} |"; done
} | tee "$out/loop-variants.md"
