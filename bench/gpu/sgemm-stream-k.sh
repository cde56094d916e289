#!/usr/bin/env bash
# Does a stream-K schedule (CompileOptions::streamK, codegen/StreamK.h) win back the partly filled
# last wave of the best SGEMM kernel (issue 14, session 21)? The explorer's best kernel
# (bench/gpu/derived/vectorized-local.derivation.in at 64:64:16:4:4:4, `--unroll 16
# --vector-local-loads --prefetch`) compiled with one work-group a tile and with `--stream-k P`
# for each P of SK_GROUPS, validated against the interpreter at the small shapes of VALIDATE (where
# P exceeds the steps, each tile is summed from many parts; 512³: 16 tiles of 32 steps), then timed at SHAPES by `liftc run`
# (median of REPEAT) in ROUNDS rounds, all kernels in turn each round; cuBLAS (PyTorch, TF32 off)
# in the same call. A configuration P/R also caps the registers at R (`--max-registers R`: `.maxnreg R`
# in the kernel's PTX): the registers and spills columns are ptxas's.
#
# Usage: bench/gpu/sgemm-stream-k.sh   (carry .gpu-ex; env SHAPES "MxNxK ...", SK_GROUPS "P ..." (264:
#        two work-groups on each of an H100's 132 SMs), or CONFIGS "P[/R] ..." (default: 0 and
#        SK_GROUPS), VALIDATE "MxNxK ...", REPEAT 20, ROUNDS 3, DEVICE nvidia, LIFTC (default the
#        pack's liftc: another build of it to compare); a table on stdout
#        and in $OUT/stream-k.md)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
device=${DEVICE:-nvidia}
shapes=${SHAPES:-4096x4096x4096 8192x8192x8192 8192x8192x2048 2048x2048x8192 1024x1024x1024}
groups=${SK_GROUPS:-264 528 132}
switches=(--unroll 16 --vector-local-loads --prefetch)
configs=${CONFIGS:-0 $groups}
# The liftc options of configuration P[/R].
options() { local p=${1%%/*} r=0; [[ $1 == */* ]] && r=${1#*/}; echo "--stream-k $p --max-registers $r"; }

checks=${VALIDATE:-256x256x256 256x512x128 512x256x64 512x512x512}
for s in $shapes $checks; do
  IFS=x read -r m n k <<<"$s"
  derive_vectorized_local "$m" "$n" "$k" 64:64:16:4:4:4 "$tmp/p-$s.lift" >/dev/null ||
    echo "$s: the derivation does not apply"
done
nvidia-smi -L 2>/dev/null
declare -A valid times regs spills
for s in $shapes; do
  [[ -f $tmp/p-$s.lift && -x $pack/cl_build_info ]] || continue
  for p in $configs; do
    cap=()
    [[ $p == */* ]] && cap=(--ptx-directive ".maxnreg ${p#*/}")
    # A comment with the configuration, so that the driver builds each source anew and prints ptxas's lines.
    { echo "// sgemm-stream-k $s $p $$"; "$liftc" compile "$tmp/p-$s.lift" "${switches[@]}" --stream-k "${p%%/*}"; } \
      >"$tmp/k.cl" 2>/dev/null || continue
    info=$("$pack/cl_build_info" "${cap[@]}" "$tmp/k.cl" -cl-nv-verbose 2>&1)
    # With a cap, the second build's (from the PTX) lines are the last.
    regs[$s/$p]=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' <<<"$info" | tail -1)
    spills[$s/$p]=$(sed -n 's/.* \([0-9]*\) bytes spill stores, \([0-9]*\) bytes spill loads.*/\1\/\2/p' <<<"$info" | tail -1)
  done
done
for s in $checks; do
  [[ -f $tmp/p-$s.lift ]] || continue
  for p in $configs; do
    r=$(timeout 300 "$liftc" run "$tmp/p-$s.lift" --device "$device" "${switches[@]}" $(options "$p") \
      --repeat 1 --reference interpreter --interp-budget 300000000 2>&1)
    v=$(sed -n 's/^validation: *\(.*\) (max.*/\1/p' <<<"$r")
    valid[$p]+="${valid[$p]:+, }$s ${v:-failed: $(grep -m1 -i error <<<"$r" | cut -c1-80)}"
  done
done
for round in $(seq "${ROUNDS:-3}"); do
  for s in $shapes; do
    [[ -f $tmp/p-$s.lift ]] || continue
    for p in $configs; do
      r=$(timeout 300 "$liftc" run "$tmp/p-$s.lift" --device "$device" "${switches[@]}" $(options "$p") \
        --repeat "${REPEAT:-20}" --reference none 2>&1)
      times[$s/$p]+=" $(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$r")"
    done
  done
done
python3 "$root/bench/gpu/cublas_sgemm.py" $shapes >"$tmp/cublas.txt" 2>&1
for p in $configs; do echo "validation, $(options "$p"): ${valid[$p]:-}"; done | tee "$out/stream-k.md"
{
  printf '| M x N x K | work-groups | register cap | registers | spill stores/loads (bytes) | ms, each round | TFLOP/s (median round) | / cuBLAS |\n'
  printf '|---|---|---|---|---|---|---|---|\n'
  for s in $shapes; do
    IFS=x read -r m n k <<<"$s"
    cub=$(sed -n "s/^cuBLAS sgemm $s: .*, \([0-9.]*\) TFLOP\/s/\1/p" "$tmp/cublas.txt")
    for p in $configs; do
      ms=${times[$s/$p]:-}
      med=$(tr ' ' '\n' <<<"$ms" | grep . | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
      tf=$([[ -n $med ]] && awk -v t="$med" -v m="$m" -v n="$n" -v k="$k" 'BEGIN{printf "%.1f", 2*m*n*k/t/1e9}')
      ratio=$([[ -n $tf && -n $cub ]] && awk -v a="$tf" -v b="$cub" 'BEGIN{printf "%.3fx", a/b}')
      label=$([[ ${p%%/*} == 0 ]] && echo "one a tile ($((m / 256 * (n / 64))))" || echo "stream-K ${p%%/*}")
      capped=$([[ $p == */* ]] && echo "${p#*/}" || echo "-")
      printf '| %s | %s | %s | %s | %s |%s | %s | %s |\n' "$s" "$label" "$capped" "${regs[$s/$p]:-?}" \
        "${spills[$s/$p]:-?}" "$ms" "${tf:--}" "${ratio:--}"
    done
    printf '| %s | cuBLAS | | | | | %s | |\n' "$s" "${cub:--}"
  done
} | tee -a "$out/stream-k.md"
