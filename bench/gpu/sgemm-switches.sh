#!/usr/bin/env bash
# The code generator's tuning switches (CompileOptions::vectorLocalLoads, innerLoopUnroll,
# doubleBuffering) on lowered SGEMM programs, measured on the NVIDIA GPU: each program with six
# combinations (off, --unroll 8, --vector-local-loads, both, and the last two with
# --double-buffer), one line each. The default programs are the explorer's best kernels of a
# 4096³ search on an H200 (session 6), lowered for 4096³ (bench/gpu/derived/h200-4096/, the
# store's derivations applied to matmul.lift with constant sizes), timed without a reference:
# with constant sizes the OpenBLAS binding cannot be checked at small sizes (codegen::bindBlas
# refuses); tst_codegen_run checks the switches against the interpreter, and the explorer
# validates every kernel it measures.
# Usage: bench/gpu/sgemm-switches.sh [PROGRAM.lift ...]   (carry .gpu-ex)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/device-env.sh"
liftc=${LIFTC:-$pack/liftc}
d=$root/bench/gpu/derived/h200-4096
programs=("$@")
[[ ${#programs[@]} -eq 0 ]] && programs=("$d"/kernel{160,17,67,155,22}.lift)
nvidia-smi -L 2>/dev/null
printf '| program | switches | median ms | GFLOP/s | validation |\n|---|---|---|---|---|\n'
for p in "${programs[@]}"; do
  ref=${REF:-none}
  for sw in "" "--unroll 8" "--vector-local-loads" "--vector-local-loads --unroll 8" "--unroll 8 --double-buffer" \
    "--vector-local-loads --unroll 8 --double-buffer"; do
    # shellcheck disable=SC2086
    out=$(timeout 120 "$liftc" run "$p" --device nvidia --repeat "${REPEAT:-20}" --reference "$ref" \
      --interp-budget 0 $sw 2>&1)
    ms=$(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$out")
    gf=$(sed -n 's/^throughput: *\([0-9.e+-]*\) GFLOP.*/\1/p' <<<"$out")
    val=$(sed -n 's/^validation: *//p' <<<"$out" | cut -c1-50)
    [[ -z $ms ]] && val=$(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-120)
    printf '| %s | %s | %s | %s | %s |\n' "$(basename "$p" .lift)" "${sw:-off}" "${ms:--}" "${gf:--}" "$val"
  done
done
