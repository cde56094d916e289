#!/usr/bin/env bash
# What NVIDIA's compiler and the hardware make of the explorer's SGEMM kernel shape (issue 14's
# profile): for each VARIANT of bench/gpu/derived/vectorized-local.derivation.in (TX:TY:K:X:Y:W as
# in sgemm-blocks.sh) and each combination of the code generator's switches, the kernel at SIZE³
# is built by the driver (cl_build_info -cl-nv-verbose: registers, spills), its PTX assembled for
# sm_90 and disassembled (cuobjdump: the static count of FFMA, shared loads and stores, global
# loads, barriers and all instructions), and timed by `liftc run` (median of REPEAT). With NCU=1
# the first variant's kernels also run under Nsight Compute (--clock-control none); on the H100
# of session 9 it profiled no OpenCL kernel ("No kernels were profiled"), so the counts come
# from the disassembly and the timings.
#
# Usage: bench/gpu/sgemm-profile.sh    (carry .gpu-ex; env VARIANTS, SWITCHES (one combination a
#        line), SIZE (4096), DEVICE (nvidia), REPEAT (10), NCU; tables and files to $OUT)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
out=${OUT:-$root/gpu-out}
mkdir -p "$out/profile"
size=${SIZE:-4096}
device=${DEVICE:-nvidia}
variants=${VARIANTS:-"64:64:16:4:4:4 32:128:16:2:8:4 32:64:16:2:4:4 64:64:16:4:8:4"}
switches=${SWITCHES:-"--unroll 8 --vector-local-loads --double-buffer
--unroll 8 --vector-local-loads --prefetch
--unroll 16 --vector-local-loads --prefetch"}
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null | head -1)
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)

count() { grep -cE "$1" "$2" 2>/dev/null || echo 0; }

nvidia-smi -L
printf '| variant (%s³) | switches | registers | spills | FFMA | LDS (.128) | STS | LDG | BAR | instructions | median ms | TFLOP/s |\n' "$size"
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
first=1
for v in $variants; do
  p=$tmp/v-${v//:/-}.lift
  if ! derive_vectorized_local "$size" "$size" "$size" "$v" "$p" >/dev/null 2>"$tmp/err"; then
    printf '| %s | | does not derive: %s |\n' "$v" "$(head -c 100 "$tmp/err")"
    continue
  fi
  n=0
  while IFS= read -r sw; do
    n=$((n + 1))
    tag=${v//:/-}-s$n
    # shellcheck disable=SC2086
    "$liftc" compile "$p" $sw >"$out/profile/$tag.cl" 2>"$tmp/err" || {
      printf '| %s | %s | compile failed: %s |\n' "$v" "$sw" "$(head -c 100 "$tmp/err")"
      continue
    }
    "$pack/cl_build_info" --binary "$tmp/$tag.ptx" "$out/profile/$tag.cl" -cl-nv-verbose >"$out/profile/$tag.build.txt" 2>&1
    regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$out/profile/$tag.build.txt" | head -1)
    spills=$(grep -o '[0-9]* bytes spill stores' "$out/profile/$tag.build.txt" | head -1 | cut -d' ' -f1)
    sass=$out/profile/$tag.sass
    # The driver's binary is the PTX text with a terminating NUL, which ptxas reads as an error.
    [[ -s $tmp/$tag.ptx ]] && tr -d '\000' <"$tmp/$tag.ptx" >"$tmp/$tag.s.ptx" && mv "$tmp/$tag.s.ptx" "$tmp/$tag.ptx"
    arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$tmp/$tag.ptx" 2>/dev/null | head -1)
    if [[ -n $ptxas && -n $cuobjdump && -s $tmp/$tag.ptx ]] &&
      "$ptxas" -arch="${arch:-sm_90}" "$tmp/$tag.ptx" -o "$tmp/$tag.cubin" 2>"$out/profile/$tag.ptxas.txt"; then
      "$cuobjdump" --dump-sass "$tmp/$tag.cubin" >"$sass" 2>/dev/null
    fi
    ffma=$(count 'FFMA' "$sass")
    lds=$(count ' LDS' "$sass")
    lds128=$(count ' LDS\.128' "$sass")
    sts=$(count ' STS' "$sass")
    ldg=$(count ' LDG' "$sass")
    bar=$(count ' BAR' "$sass")
    all=$(count '^ +/\*[0-9a-f]{4}\*/' "$sass")
    # shellcheck disable=SC2086
    res=$(timeout 120 "$liftc" run "$p" --device "$device" --repeat "${REPEAT:-10}" --reference none $sw 2>&1)
    ms=$(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$res")
    gf=$(sed -n 's/^throughput: *\([0-9.e+-]*\) GFLOP.*/\1/p' <<<"$res")
    tf=$([[ -n $gf ]] && awk -v g="$gf" 'BEGIN{printf "%.1f", g/1000}')
    [[ -z $ms ]] && ms="failed: $(tail -1 <<<"$res" | cut -c1-80)"
    printf '| %s | %s | %s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s |\n' "$v" "$sw" "${regs:-?}" \
      "${spills:-?}" "$ffma" "$lds" "$lds128" "$sts" "$ldg" "$bar" "$all" "$ms" "${tf:--}"
    if [[ ${NCU:-} == 1 && $first == 1 && -n $ncu ]]; then
      # shellcheck disable=SC2086
      timeout 300 "$ncu" --clock-control none --target-processes all -k regex:matmul --launch-skip 2 \
        --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
        "$liftc" run "$p" --device "$device" --repeat 3 --reference none $sw >"$out/profile/$tag.ncu.txt" 2>&1
    fi
  done <<<"$switches"
  first=0
done
