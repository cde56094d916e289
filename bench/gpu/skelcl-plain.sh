#!/usr/bin/env bash
# Issue 16, item 3: every SkelCL program of seed 000 on one GPU against its hand-written OpenCL +
# host version (skelcl/programs/), with bench_skelcl (bench/skelcl/README.md): blur 16384², the
# Mandelbrot image 8192², the prefix sum of 2^26 floats, matrix multiplication 4096³ (and 8192³
# when 4096³ took less than MATMUL_BIG_IF seconds, searched from the 4096³ search's store) and the
# Manhattan distances 4096³, each with --repeat 5. AllPairs' own kernel (matmul, manhattan) is
# the naive nest, so those cases run again after a short `liftc explore` of the case's high-level
# program (`bench_skelcl CASE --lift-program`) at that size, with `--store`: the library then takes the best kernel the
# search stored (the dot product's figures: bench/gpu/skelcl-dot.sh). Prints a table of the
# library's and the plain version's times (host to host: uploads, kernels, downloads; kernels:
# the inputs on the device, the output left there) and the library's speed over the plain
# version's (> 1: faster; the issue's target: >= 0.9x); every result checked (a WRONG in the
# table: the case's exit status was not 0). About 5 minutes on an H100.
# Usage: bench/gpu/skelcl-plain.sh     (carry .gpu-ex with liftc and bench_skelcl)
# Env: DEVICE (default 0), REPEAT (5), BUDGET (the search per AllPairs case, default 60s); the
# sizes BLUR (16384), MANDELBROT (8192), SCAN (67108864), MATMUL (4096), MATMUL_BIG (8192; 0:
# never), MATMUL_BIG_IF (seconds, default 8: 8192³ is 8x the work), MANHATTAN (4096); SEARCH
# (the cases searched, default "matmul manhattan"); OUT (default gpu-out/); LIFTC, BENCH_SKELCL
# (default: the pack's). On a CPU device, small: OUT=/tmp/o LIFTC=build/app/liftc
# BENCH_SKELCL=build/bench/skelcl/bench_skelcl BLUR=300 MANDELBROT=300 SCAN=100000 MATMUL=64
# MATMUL_BIG=96 MANHATTAN=64 BUDGET=15s REPEAT=2 bash bench/gpu/skelcl-plain.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
liftc=${LIFTC:-$pack/liftc}
bench=${BENCH_SKELCL:-$pack/bench_skelcl}
device=${DEVICE:-0}
repeat=${REPEAT:-5}
budget=${BUDGET:-60s}
search=${SEARCH:-matmul manhattan}
table=$out/skelcl-plain.md
status=0
nvidia-smi -L 2>/dev/null | tee "$out/device.txt"
printf '| case | size | library kernel | library total ms | plain total ms | host to host | library kernels ms | plain kernels ms | kernels | check |\n|---|---|---|---|---|---|---|---|---|---|\n' >"$table"

# run CASE SIZE [STORE]: bench_skelcl's three lines into $out, a row of the table.
run() {
  local kase=$1 size=$2 store=${3:-} log rc
  log=$out/skelcl-plain-$kase-$size${store:+-stored}.txt
  echo "== $kase $size${store:+ (stored kernels of $store)}"
  "$bench" "$kase" --size "$size" --device "$device" --repeat "$repeat" ${store:+--store "$store"} >"$log" 2>&1
  rc=$?
  cat "$log"
  ((rc == 0)) || status=1
  awk -v kase="$kase" -v size="$size" -v rc="$rc" '
    $1 == kase "-plain" { pt = $4; pk = $6; pc = $11 }
    $1 == kase "-ratio" { which = ($0 ~ /stored kernel/) ? "stored " $NF : "own" }
    $1 == kase { lt = $4; lk = $6; lc = $11 }
    END {
      if (lt == "" || pt == "") { printf "| %s | %s | - | - | - | - | - | - | - | FAILED (exit %s) |\n", kase, size, rc; exit }
      printf "| %s | %s | %s | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx | %s |\n", kase, size, which, lt, pt, pt / lt,
             lk, pk, pk / lk, (pc == "ok" && lc == "ok" && rc == 0) ? "ok" : "WRONG (plain " pc ", library " lc ")"
    }' "$log" >>"$table"
}

# searched CASE SIZE [FROM]: a search of the case's program at SIZE³ (N, M, D) into a store (a copy
# of the store FROM when given, whose kernels of another size the evolution starts from), the case
# again with it. The search checks matmul's kernels against OpenBLAS's sgemm; manhattan's are too
# large for the interpreter and not checked by the search, but bench_skelcl checks the result of
# the kernel it takes, as every result.
searched() {
  local kase=$1 size=$2 from=${3:-} program db reference=auto
  [[ $kase == matmul ]] && reference=sgemm
  program=$out/skelcl-plain-$kase.lift
  db=$out/skelcl-plain-$kase-$size.sqlite
  rm -f "$db"
  [[ -n $from && -f $from ]] && cp "$from" "$db"
  "$bench" "$kase" --lift-program >"$program"
  echo "== liftc explore of $kase's AllPairs program ($budget, N=M=D=$size${from:+, starting from $(basename "$from")})"
  "$liftc" explore "$program" --device "$device" --size "N=$size,M=$size,D=$size" --budget "$budget" --db "$db" \
    --reference "$reference" --quiet >"$out/skelcl-plain-$kase-$size-explore.txt" 2>&1
  tail -3 "$out/skelcl-plain-$kase-$size-explore.txt" | cut -c1-160
  run "$kase" "$size" "$db"
}

run blur "${BLUR:-16384}"
run mandelbrot "${MANDELBROT:-8192}"
run scan "${SCAN:-67108864}"
start=$SECONDS
run matmul "${MATMUL:-4096}"
matmul_s=$((SECONDS - start))
[[ " $search " == *" matmul "* ]] && searched matmul "${MATMUL:-4096}"
run manhattan "${MANHATTAN:-4096}"
[[ " $search " == *" manhattan "* ]] && searched manhattan "${MANHATTAN:-4096}"
big=${MATMUL_BIG:-8192}
if ((big > 0)); then
  if ((matmul_s < ${MATMUL_BIG_IF:-8})); then
    run matmul "$big"
    [[ " $search " == *" matmul "* ]] && searched matmul "$big" "$out/skelcl-plain-matmul-${MATMUL:-4096}.sqlite"
  else
    echo "== matmul $big left out: matmul ${MATMUL:-4096} took ${matmul_s} s (MATMUL_BIG_IF=${MATMUL_BIG_IF:-8})"
  fi
fi
echo
echo "== the library against plain OpenCL on one GPU (device $device; host to host and kernels: the library's speed over the plain version's)"
cat "$table"
exit $status
