#!/usr/bin/env bash
# The GPU figures of the open issues' latest work, in one call of the device tool (carry .gpu-ex
# from bench/kernels/pack-gpu.sh, about 8 minutes):
#  scan     issue 16: bench/gpu/scan.sh, the coalesced work-group scan of 2^26 floats next to
#           torch.cumsum and a device copy;
#  mdgemv   issue 15: bench/kernels/md-gemv-tuning.sh gpu, md_gemv's time to 95 % of its best
#           (BUDGET per search, default 20s; SEEDS default "1 2");
#  sgemm    issue 14: `liftc explore` of matmul.lift at 4096³ for 75 s with CLBlast (defaults and
#           tuned) and cuBLAS in the same call (bench/gpu/sgemm-derived.sh explore peers), so a
#           change to the explorer for other devices or programs shows if it costs the GPU.
#  mdgemm   issue 15: `liftc explore` of md_gemm.lift at 4096³ (MDGEMM_BUDGET, default 90s), its
#           best kernel in GFLOP/s to set beside sgemm's (run both parts in one call);
#  skelcldot issue 16: bench/gpu/skelcl-dot.sh (the library's fused dot product against the plain
#           OpenCL one, before and after a search; DOT_BUDGET, default 60s);
#  probes   issue 15: bench/gpu/probe-dot/run.sh, 001's two-kernel dot and asum schema at 2^26
#           floats timed alone by `liftc run` at 512, 1024 and 2048 work-groups.
#  bandwidth the host's state first: the GPU's memory in use (nvidia-smi) and plain OpenCL's copy
#           and sum bandwidth with the input made four ways (cl_bandwidth); below MIN_GBS (default
#           1000) GB/s of copy the OpenCL kernels of this host are slow, and the parts that time
#           bandwidth-bound kernels (level1, probes, scan, scancheck, skelcldot) are skipped.
#  level1   issue 15: dot and asum of 2^26 floats searched from dot.lift and asum.lift
#           (LEVEL1_BUDGET, default 60) and timed next to CLBlast and cuBLAS
#           (bench/gpu/gemv-peers.sh without GEMV shapes, CLBlast tuned from the repo's file).
#  scancheck issue 16: the single-pass scan (bench_skelcl --scan-form work-groups) at sizes that are
#           and are not multiples of its tiles, every run's result checked at CHECK entries.
#  firstkernel issue 15: what a 1 GiB input costs before the first kernel: `liftc run` of the
#           low-level GEMV at 2^14 x 2^14 (OpenBLAS's expected outputs) through the worker and in
#           process, with empty caches (the `host:` line: inputs and expected outputs, total).
#  hostcopies issue 16: why the library's download of the Mandelbrot image (256 MiB, pageable) was
#           slower than the plain version's: cl_host_copies times 256 MiB each way into host memory
#           made nine ways, then bench_skelcl mandelbrot 8192² (MANDELBROT_RUNS times, --repeat 11).
#  trace    issue 15: two 8 s searches of md_gemv at 2^14 x 2^14 (the second reads the first's
#           kept reference) with LIFT_TRACE=1: the timeline of the search, the evaluation and the
#           worker up to the first kernel (core/support/Trace.h).
# Usage: bench/gpu/open-issues.sh [bandwidth] [scan] [scancheck] [mdgemv] [sgemm] [mdgemm] [skelcldot]
#        [probes] [level1] [firstkernel] [trace] [hostcopies]
#        (default: scan mdgemv sgemm; tables to $OUT)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
parts=${*:-scan mdgemv sgemm}
source "$root/bench/gpu/device-env.sh"
if [[ $parts == *bandwidth* ]]; then
  echo "== the host: GPU memory in use, plain OpenCL bandwidth"
  nvidia-smi --query-gpu=name,memory.used,memory.total,clocks.sm,clocks.mem,pstate --format=csv 2>&1
  "$pack/cl_bandwidth" 1024 20 2>&1 | tee "$out/bandwidth.txt"
  copy=$(awk '/^clEnqueueWriteBuffer/ {print int($3)}' "$out/bandwidth.txt")
  if [[ -z $copy || $copy -lt ${MIN_GBS:-1000} ]]; then
    echo "open-issues: plain OpenCL copies at ${copy:-?} GB/s on this host: the bandwidth-bound parts are skipped"
    parts=${parts//level1/}
    parts=${parts//probes/}
    parts=${parts//scancheck/}
    parts=${parts//scan/}
    parts=${parts//skelcldot/}
  fi
fi
if [[ $parts == *hostcopies* ]]; then
  echo "== host memory for downloads and uploads, then the Mandelbrot image (issue 16)"
  "$pack/cl_host_copies" 256 11 2>&1 | tee "$out/host-copies.txt"
  for run in $(seq "${MANDELBROT_RUNS:-2}"); do
    "$pack/bench_skelcl" mandelbrot --size 8192 --device 0 --repeat 11 2>&1 | tail -3
  done
fi
if [[ $parts == *scancheck* ]]; then
  echo "== the single-pass scan checked (issue 16)"
  for n in 67108864 67108861 10000019 1048576 4097 1; do
    "$pack/bench_skelcl" scan --size "$n" --device 0 --scan-form work-groups --repeat 10 \
      --check "${CHECK:-100000}" 2>&1 | tail -1 | sed "s/^/n=$n: /"
  done
fi
if [[ " $parts " == *" scan "* ]]; then
  echo "== scan (issue 16)"
  bash "$root/bench/gpu/scan.sh" 2>&1 | tee "$out/scan.txt"
fi
if [[ $parts == *firstkernel* ]]; then
  echo "== the first kernel's inputs: 2^14 x 2^14 GEMV through the worker and in process (issue 15)"
  for mode in worker in-process; do
    XDG_CACHE_HOME=$(mktemp -d) "$pack/liftc" run "$root/resources/examples/lowlevel/gemv.lift" --device 0 \
      --size M=16384,N=16384 --repeat 5 --reference sgemv $([[ $mode == in-process ]] && echo --in-process) 2>&1 |
      grep -E '^(kernel|host|result):' | sed "s/^/$mode: /"
  done
fi
if [[ $parts == *trace* ]]; then
  echo "== the timeline to the first kernel of md_gemv at 2^14 x 2^14 (issue 15)"
  cache=$(mktemp -d)
  for search in first second; do
    echo "-- $search search"
    LIFT_TRACE=1 XDG_CACHE_HOME=$cache "$pack/liftc" explore "$root/resources/examples/md_gemv.lift" --device 0 \
      --size M=16384,K=16384 --budget 8s --no-resume --db "$cache/t.sqlite" 2>&1 |
      grep -E 'lift-trace|first guesses|expected outputs ready|kernels 1 ' | sed -n '1,/kernels 1 /p' | cut -c1-140
  done
fi
if [[ $parts == *mdgemv* ]]; then
  echo "== md_gemv tuning (issue 15)"
  BUDGET=${BUDGET:-20s} SEEDS=${SEEDS:-1 2} OUT=$out/md-gemv bash "$root/bench/kernels/md-gemv-tuning.sh" gpu 2>&1 |
    tail -20
  rm -f "$out"/md-gemv/*.sqlite
fi
if [[ $parts == *sgemm* ]]; then
  echo "== SGEMM 4096³ from matmul.lift (issue 14)"
  EXPLORE_SHAPES=${EXPLORE_SHAPES:-4096x4096x4096:75s} OUT=$out/sgemm \
    bash "$root/bench/gpu/sgemm-derived.sh" explore peers 2>&1 | tail -12
fi
if [[ $parts == *mdgemm* ]]; then
  echo "== md_gemm 4096³ from md_gemm.lift (issue 15)"
  rm -f "$out/md-gemm.sqlite"
  start=$(date +%s)
  "$pack/liftc" explore "$root/resources/examples/md_gemm.lift" --device 0 --size M=4096,N=4096,K=4096 \
    --budget "${MDGEMM_BUDGET:-90s}" --db "$out/md-gemm.sqlite" --quiet >"$out/md-gemm.txt" 2>&1
  echo "search: $(($(date +%s) - start)) s"
  tail -8 "$out/md-gemm.txt"
  "$pack/liftc" results --db "$out/md-gemm.sqlite" --top 3 2>&1 | tail -5
  python3 - "$out/md-gemm.sqlite" <<'PY'
import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute(
    "select min(median_ms), count(*) from kernels where status = 'ok'").fetchone()
if row[0]:
    print(f"md_gemm 4096^3 best of {row[1]} valid: {row[0]:.3f} ms, {2 * 4096**3 / row[0] / 1e9:.1f} TFLOP/s")
PY
fi
if [[ $parts == *skelcldot* ]]; then
  echo "== SkelCL dot product (issue 16)"
  BUDGET=${DOT_BUDGET:-60s} OUT=$out/skelcl-dot bash "$root/bench/gpu/skelcl-dot.sh" 2>&1 | tail -20
fi
if [[ $parts == *level1* ]]; then
  echo "== dot and asum 2^26 against CLBlast and cuBLAS (issue 15)"
  GEMV_SHAPES= LEVEL1_BUDGET=${LEVEL1_BUDGET:-60} CLBLAST_TUNED=$root/bench/kernels/clblast-tuned/nvidia-h100-xgemv.txt \
    OUT=$out/level1 bash "$root/bench/gpu/gemv-peers.sh" 2>&1 | tail -14
  rm -f "$out"/level1/*.sqlite
fi
if [[ $parts == *probes* ]]; then
  echo "== dot and asum schema probes (issue 15)"
  LIFTC=$pack/liftc DEVICE=0 bash "$root/bench/gpu/probe-dot/run.sh" 2>&1 | grep -E "==|median|rror|FAILED"
fi
