#!/usr/bin/env bash
# Tunes CLBlast's kernels for the device with CLBlast's own tuners (Debian's clblast-utils,
# packed into .gpu-ex by pack-gpu.sh) at one size, and writes the best parameters as a
# `--clblast-tuned` file for bench_kernels: a line `KERNEL NAME=VALUE ...` per kernel the tuner
# tunes, with the kernel names of clblast::OverrideParameters, and a comment saying the device,
# the size, the tuner's time and its best figures. Keep the file in bench/kernels/clblast-tuned/
# (one per device kind).
#   xgemm: clblast_tuner_xgemm at SIZE³ (M x N x K), the kernel Xgemm.
#   xgemv: clblast_tuner_xgemv at M x N, its three kernels Xgemv (the general one), XgemvFast
#          and XgemvFastRot (CLBlast's routine takes a fast one where the sizes allow it; a
#          row-major A without transposition is the rotated case).
#
# Usage (on the GPU machine, .gpu-ex carried):
#   bench/kernels/clblast-tune.sh [xgemm] SIZE [FRACTION]   writes $OUT/clblast-tuned-SIZE.txt
#   bench/kernels/clblast-tune.sh xgemv MxN [FRACTION]       writes $OUT/clblast-tuned-xgemv-MxN.txt
#   e.g. bench/kernels/clblast-tune.sh 4096 0.002;  bench/kernels/clblast-tune.sh xgemv 16384x16384
# FRACTION: the tuner's -fraction (xgemm default 0.002; xgemv default 1, all of its about a
# hundred configurations). TUNE_TIMEOUT (seconds, default none): the tuner is stopped then, and
# the kernels it finished are written; for xgemm, whose tuner writes nothing before its end, the
# fastest configurations that validated are read from its log (clblast_tuned.py). Exit status 1
# when no kernel was tuned.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
routine=xgemm
[[ ${1:-} == xgemm || ${1:-} == xgemv ]] && { routine=$1; shift; }
size=${1:?usage: clblast-tune.sh [xgemm|xgemv] SIZE|MxN [FRACTION]}
pack=$root/.gpu-ex
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
if [[ $routine == xgemm ]]; then
  [[ $size =~ ^[0-9]+$ ]] || { echo "clblast-tune.sh: xgemm takes one size, got '$size'" >&2; exit 2; }
  fraction=${2:-0.002}
  m=$size n=$size
  args=(-m "$size" -n "$size" -k "$size")
  name=$size
else
  [[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "clblast-tune.sh: xgemv takes MxN, got '$size'" >&2; exit 2; }
  fraction=${2:-1}
  m=${size%x*} n=${size#*x}
  args=(-m "$m" -n "$n")
  name=xgemv-$size
fi
tuner=$pack/clblast_tuner_$routine
[[ -x $tuner ]] || tuner=$(command -v "clblast_tuner_$routine")
[[ -x $tuner ]] || { echo "clblast-tune.sh: no clblast_tuner_$routine (pack-gpu.sh packs it)" >&2; exit 2; }
command=(clblast_tuner_"$routine" "${args[@]}" -precision 32 -fraction "$fraction")
limit=()
[[ -n ${TUNE_TIMEOUT:-} ]] && limit=(timeout "$TUNE_TIMEOUT")
work=$(mktemp -d)
start=$(date +%s)
(cd "$work" && "${limit[@]}" "$tuner" "${command[@]:1}") >"$out/clblast-tuner-$name.log" 2>&1
status=$?
seconds=$(($(date +%s) - start))
TUNER_DEVICE=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) \
  python3 "$root/bench/kernels/clblast_tuned.py" "$work" "$routine" "$m" "$n" "$seconds" "$status" \
  "${command[*]}" "$out/clblast-tuner-$name.log" >"$out/clblast-tuned-$name.txt"
result=$?
cat "$out/clblast-tuned-$name.txt"
rm -rf "$work"
exit $result
