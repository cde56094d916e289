#!/usr/bin/env bash
# Would any change the code generator could make speed up the explorer's best SGEMM kernel?
# (issue 14, session 19). The kernel of bench/gpu/derived/vectorized-local.derivation.in at
# 64:64:16:4:4:4 with `--unroll 16 --vector-local-loads --prefetch` (the explorer's best at every
# large shape), changed by hand (bench/gpu/sgemm_hand_variants.py: B copied as float4, the K-tile
# loop unrolled twice, warps of 8 x 4, no guard on the prefetch, another order of the
# multiply-adds, one local buffer with two barriers; session 20: A's tile padded, cp.async copies),
# and the same derivation at other tile, block
# and K-tile sizes in one local buffer (the 48 KiB a work-group may have on NVIDIA hold two
# buffers of 256 x 16 and 16 x 64, not of 256 x 16 and 16 x 128). Each variant is made at SMALL
# and at SIZE; the SMALL one is validated against the interpreter on the GPU, the SIZE one timed by
# `liftc run --kernel` (median of REPEAT) in ROUNDS rounds, all variants in turn each round.
#
# Usage: bench/gpu/sgemm-hand-variants.sh   (carry .gpu-ex; env SIZE 4096, SMALL 256, REPEAT 20,
#        ROUNDS 3, DEVICE nvidia; HAND, SPECS and PLAIN: which hand variants, other TX:TY:K:X:Y:W
#        shapes and K tiles without prefetch to make, each a space-separated list, all by default;
#        CAPS "R ...": each SPECS variant also built with at most R registers, `--max-registers R`,
#        named TAG@R; the table on stdout and in $OUT/hand-variants.md)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
size=${SIZE:-4096}
small=${SMALL:-256}
device=${DEVICE:-nvidia}

# The derivation's program at n and the kernel of TX:TY:K:X:Y:W with the switches; $tmp/p-TAG-n.lift.
kernel() { # n spec tag switches...
  local n=$1 spec=$2 tag=$3
  shift 3
  derive_vectorized_local "$n" "$n" "$n" "$spec" "$tmp/p-$tag-$n.lift" >/dev/null &&
    "$liftc" compile "$tmp/p-$tag-$n.lift" "$@" >"$tmp/$tag-$n.cl"
}

names=()
for n in "$small" "$size"; do
  kernel "$n" 64:64:16:4:4:4 best --unroll 16 --vector-local-loads --prefetch || exit 2
  python3 "$root/bench/gpu/sgemm_hand_variants.py" "$tmp/best-$n.cl" "$n" "$tmp/v" || exit 2
  for v in ${HAND:-base bvec bvec4 unroll2 warp8x4 clamp areg colmajor bfirst single apad async apad-async}; do
    mv "$tmp/v-$v.cl" "$tmp/$v-$n.cl" && cp "$tmp/p-best-$n.lift" "$tmp/p-$v-$n.lift"
    [[ $n == "$small" ]] && names+=("$v")
  done
  # Other tile (TX x TY of 4 x 4 rows and columns), K-tile and register-block sizes, one buffer.
  for spec in ${SPECS-64:128:16:4:8:4 64:64:16:4:8:4 64:128:16:4:4:4 32:128:32:2:8:4 32:128:16:4:4:4}; do
    IFS=: read -r _ _ k _ _ _ <<<"$spec"
    tag=${spec//:/-}
    kernel "$n" "$spec" "$tag" --unroll "$k" --vector-local-loads --prefetch || continue
    python3 "$root/bench/gpu/sgemm_hand_variants.py" --single "$tmp/$tag-$n.cl" "$tmp/$tag-single-$n.cl"
    cp "$tmp/p-$tag-$n.lift" "$tmp/p-$tag-single-$n.lift"
    [[ $n == "$small" ]] && names+=("$tag" "$tag-single")
    for cap in ${CAPS:-}; do [[ $n == "$small" ]] && names+=("$tag@$cap" "$tag-single@$cap"); done
  done
  # Without the prefetch (one buffer, plain copies), K tiles of 16 and 32.
  for spec in ${PLAIN-64:64:16:4:4:4 64:64:32:4:4:4}; do
    IFS=: read -r _ _ k _ _ _ <<<"$spec"
    tag=plain-k$k
    kernel "$n" "$spec" "$tag" --unroll "$k" --vector-local-loads && [[ $n == "$small" ]] && names+=("$tag")
  done
done

nvidia-smi -L
declare -A valid regs times
# A variant's kernel (TAG of TAG@R) and its register cap (R, or 0).
file() { echo "${1%@*}"; }
cap() { [[ $1 == *@* ]] && echo "${1#*@}" || echo 0; }
for v in "${names[@]}"; do
  f=$(file "$v")
  r=$(timeout 120 "$liftc" run "$tmp/p-$f-$small.lift" --device "$device" --kernel "$tmp/$f-$small.cl" \
    --max-registers "$(cap "$v")" --repeat 1 --reference interpreter 2>&1)
  valid[$v]=$(sed -n 's/^validation: *\(.*\) (max.*/\1/p' <<<"$r")
  [[ -z ${valid[$v]} ]] && valid[$v]="failed: $(grep -m1 -i error <<<"$r" | cut -c1-80)"
  directive=()
  [[ $(cap "$v") != 0 ]] && directive=(--ptx-directive ".maxnreg $(cap "$v")")
  # A comment naming the variant, so that the driver builds each anew and prints ptxas's lines.
  { echo "// $v $$"; cat "$tmp/$f-$size.cl"; } >"$tmp/info.cl"
  info=$("$pack/cl_build_info" "${directive[@]}" "$tmp/info.cl" -cl-nv-verbose 2>&1)
  regs[$v]=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' <<<"$info" | tail -1)
  spill=$(sed -n 's/.* \([0-9]*\) bytes spill stores, \([0-9]*\) bytes spill loads.*/\1\/\2/p' <<<"$info" | tail -1)
  [[ -n $spill && $spill != 0/0 ]] && regs[$v]+=" (spills $spill B)"
done
for _ in $(seq "${ROUNDS:-3}"); do
  for v in "${names[@]}"; do
    f=$(file "$v")
    [[ -f $tmp/$f-$size.cl ]] || continue
    r=$(timeout 120 "$liftc" run "$tmp/p-$f-$size.lift" --device "$device" --kernel "$tmp/$f-$size.cl" \
      --max-registers "$(cap "$v")" --repeat "${REPEAT:-20}" --reference none 2>&1)
    times[$v]+=" $(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$r")"
  done
done
{
  printf '| variant (%s³) | valid at %s³ | registers | ms, each round | TFLOP/s (median round) |\n' "$size" "$small"
  printf '|---|---|---|---|---|\n'
  for v in "${names[@]}"; do
    ms=${times[$v]:-}
    med=$(tr ' ' '\n' <<<"$ms" | grep . | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
    tf=$([[ -n $med ]] && awk -v m="$med" -v n="$size" 'BEGIN{printf "%.1f", 2*n*n*n/m/1e9}')
    printf '| %s | %s | %s |%s | %s |\n' "$v" "${valid[$v]}" "${regs[$v]:-?}" "${ms:- -}" "${tf:--}"
  done
} | tee "$out/hand-variants.md"
