#!/usr/bin/env bash
# Runs the low-level examples with liftc on an OpenCL device and prints a Markdown table:
# on the NVIDIA GPU machine (with .gpu/ from bench/gpu/run.sh carried along), or here on
# PoCL. For each example: `liftc run --small` (validated by the interpreter), then a timed run
# at the profile's sizes, validated as `liftc run` does by default (the interpreter where the
# work is small enough, OpenBLAS for the BLAS-like examples, else "not validated"); on the GPU
# profile the interpreter is skipped (--interp-budget 0): its sizes are beyond it anyway.
#
# Usage: bench/gpu/device.sh [gpu|cpu] [DEVICE]
#   gpu (default): GPU-sized problems, device "nvidia" (OCL_ICD_VENDORS set up for the NVIDIA
#                  driver when /usr/lib/libnvidia-opencl.so.1 exists and none is set)
#   cpu:           problems sized for a 2-core PoCL device, device "cpu"
# Environment: LIFTC (default .gpu/liftc, else build-run/app/liftc), LIFT_TIME_LIMIT (seconds
# after which remaining examples are skipped; default 240), REPEAT (timed runs; default 10).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
profile=${1:-gpu}
case $profile in
  gpu) device=${2:-nvidia} ;;
  cpu) device=${2:-cpu} ;;
  *) echo "usage: $0 [gpu|cpu] [DEVICE]" >&2; exit 2 ;;
esac
limit=${LIFT_TIME_LIMIT:-240}
repeat=${REPEAT:-10}

if [[ -d $root/.gpu/lib ]]; then export LD_LIBRARY_PATH=$root/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}; fi
if [[ -z ${OCL_ICD_VENDORS:-} && -e /usr/lib/libnvidia-opencl.so.1 ]]; then
  mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  [[ -e /etc/OpenCL/vendors/pocl.icd ]] && cp /etc/OpenCL/vendors/pocl.icd /tmp/icd/
  export OCL_ICD_VENDORS=/tmp/icd
fi
liftc=${LIFTC:-}
if [[ -z $liftc ]]; then
  for c in "$root/.gpu/liftc" "$root/build-run/app/liftc" "$root/build/app/liftc"; do
    [[ -x $c ]] && { liftc=$c; break; }
  done
fi
[[ -x $liftc ]] || { echo "no liftc (run bench/gpu/run.sh, or set LIFTC)" >&2; exit 2; }

# Sizes of the timed runs, per profile.
sizes() {
  local name=$1
  if [[ $profile == gpu ]]; then
    case $name in
      matmul) echo M=4096,N=4096,K=4096 ;;
      matmul_best | matmul_expert) echo M=1024,N=1024,K=512 ;;  # 2048 x 2048 matrices
      gemv) echo M=8192,N=8192 ;;
      dot | asum | reduce) echo N=262144 ;;                     # 2^25 elements
      vecmult) echo N=8388608 ;;                                # 2^25 floats
      stencil3) echo N=33554432 ;;
      transpose) echo M=8192,N=8192 ;;
      *) echo "" ;;
    esac
  else
    case $name in
      matmul) echo M=512,N=512,K=512 ;;
      matmul_best | matmul_expert) echo M=256,N=256,K=128 ;;  # 512 x 512 matrices
      gemv) echo M=2048,N=2048 ;;
      dot | asum | reduce) echo N=8192 ;;                     # 2^20 elements
      vecmult) echo N=262144 ;;                               # 2^20 floats
      stencil3) echo N=1048576 ;;
      transpose) echo M=1024,N=1024 ;;
      *) echo "" ;;
    esac
  fi
}

field() { sed -n "s/^$1: *//p" <<<"$2" | head -1; }

echo "## liftc devices"
echo '```'
"$liftc" devices --brief
echo '```'
echo
echo "liftc run at the sizes below, device '$device', $repeat timed runs after 1 warm-up;"
echo "times are profiling-event medians (min-max); 'small' is a run at the smallest valid sizes"
echo "checked against the interpreter."
echo
echo "| example | sizes | NDRange global / local | median ms | min-max ms | throughput | validation | small |"
echo "|---|---|---|---|---|---|---|---|"
start=$SECONDS
status=0
for file in "$root"/resources/examples/lowlevel/*.lift; do
  name=$(basename "$file" .lift)
  if ((SECONDS - start > limit)); then
    echo "| $name | skipped (time limit ${limit}s) | | | | | | |"
    continue
  fi
  small=$("$liftc" run "$file" --device "$device" --small --repeat 1 2>&1)
  rc=$?
  if ((rc == 0)) && grep -q '^validation: ok against' <<<"$small"; then small_v=valid
  else small_v="exit $rc"; status=1; fi
  sz=$(sizes "$name")
  # On the GPU machine the interpreter would only spend device time: OpenBLAS or nothing.
  budget=()
  [[ $profile == gpu ]] && budget=(--interp-budget 0)
  out=$("$liftc" run "$file" --device "$device" ${sz:+--size "$sz"} --repeat "$repeat" "${budget[@]}" \
        --timeout 60 2>&1)
  rc=$?
  if ((rc != 0 && rc != 1)); then
    echo "| $name | $sz | | | | | error (exit $rc): $(tail -1 <<<"$out" | tr '|' '/') | $small_v |"
    status=1
    continue
  fi
  nd=$(field ndrange "$out" | sed 's/^global //; s/, local / \/ /; s/chosen by the device/auto/')
  t=$(field time "$out")
  median=$(sed -n 's/^median \([0-9.]*\) ms.*/\1/p' <<<"$t")
  minmax=$(sed -n 's/.*(min \([0-9.]*\), max \([0-9.]*\);.*/\1-\2/p' <<<"$t")
  tp=$(field throughput "$out" | sed 's/ (.*//')
  v=$(field validation "$out")
  case $v in
    "ok against OpenBLAS"*) v="ok: OpenBLAS $(sed -n 's/^ok against OpenBLAS \([a-z]*\).*/\1/p' <<<"$v"), max rel. err. $(sed -n 's/.*max relative error \([^)]*\)).*/\1/p' <<<"$v")" ;;
    "ok against the interpreter"*) v="ok: interpreter" ;;
    "not validated"*) v="not validated (too large for the interpreter)" ;;
    *) v="WRONG: $v"; status=1 ;;
  esac
  echo "| $name | $sz | $nd | $median | $minmax | $tp | $v | $small_v |"
done
echo
echo "total: $((SECONDS - start)) s"
exit $status
