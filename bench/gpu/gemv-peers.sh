#!/usr/bin/env bash
# Issue 15's GEMV, dot and asum targets on the NVIDIA GPU in one call of the device tool (carry
# .gpu-ex from bench/kernels/pack-gpu.sh; about 7-8 minutes with the defaults):
#  1. the explorer's search from resources/examples/gemv.lift at 001's three shapes (M x N,
#     single precision, y' = alpha A x + beta y, A row-major: 16384x16384, 1024x262144,
#     262144x1024) and from dot.lift and asum.lift at 2^26 floats, all into one store;
#  2. CLBlast's own tuner of its GEMV kernels, clblast_tuner_xgemv (bench/kernels/clblast-tune.sh
#     xgemv), at TUNE_SHAPES;
#  3. bench_kernels: the store's best kernel of each case (validated, timed as a whole, dot and
#     asum finished on the device) next to CLBlast's defaults, and CLBlast tuned (the tuner's
#     Xgemv/XgemvFast/XgemvFastRot parameters through clblast::OverrideParameters), and the
#     OpenCL copy kernel's bandwidth at the matrix's bytes;
#  4. cuBLAS through PyTorch (bench/gpu/torch_mv.py: torch.mv, torch.dot, asum as torch.sum(abs))
#     and a CUDA copy of the same bytes;
#  5. the short table (bench/gpu/gemv_peers_table.py): ms, GB/s and the ratios of the targets.
# Writes everything to $OUT (default gpu-out/gemv-peers): searches.txt, log.txt, peers.md, torch.txt,
# summary.md, times.txt, the tuner's logs and files (clblast-tuned-xgemv.txt: all shapes'), the
# store gemv-peers.sqlite.
#
# Usage: bench/gpu/gemv-peers.sh
# Environment: GEMV_BUDGET (seconds of search per GEMV shape, default 40), LEVEL1_BUDGET (per
# dot and asum, default 25), GEMV_SHAPES (default "16384x16384 1024x262144 262144x1024"; empty: none),
# LEVEL1_N (default 67108864), TUNE_SHAPES (default 16384x16384; CLBlast's database keeps one
# parameter set a device for all sizes; with several shapes, each one's set is an alternative,
# e.g. "16384x16384 1024x262144": CLBlast takes its fast kernels only where M is a multiple of
# WGS*WPT, which a set tuned at the square may miss at M=1024), TUNE_TIMEOUT (seconds a tuning,
# default 150: the kernels the tuner finished by then count), CLBLAST_TUNED (a --clblast-tuned
# file: no tuning), DB (a store to resume: its kernels are not measured again and the searches
# warm-start from them), REPEAT (timed runs, default 20), DEVICE (default nvidia), COPY_MB
# (default the largest matrix's MiB), LIFTC, BENCH (the executables; default the pack's, else
# build/'s).
# On the development machine (PoCL; clblast_tuner_xgemv on the PATH, or no CLBlast tuned), e.g.:
#   DEVICE=cpu GEMV_SHAPES="256x512 64x4096 4096x64" LEVEL1_N=65536 GEMV_BUDGET=10 \
#   LEVEL1_BUDGET=10 TUNE_SHAPES=128x128 TUNE_TIMEOUT=30 bench/gpu/gemv-peers.sh
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out/gemv-peers}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
device=${DEVICE:-nvidia}
shapes=${GEMV_SHAPES-16384x16384 1024x262144 262144x1024}  # empty: dot and asum only
n1=${LEVEL1_N:-67108864}
gemvBudget=${GEMV_BUDGET:-40}
gemvBudget=${gemvBudget%s}
level1Budget=${LEVEL1_BUDGET:-25}
level1Budget=${level1Budget%s}
tuneShapes=${TUNE_SHAPES:-16384x16384}
repeat=${REPEAT:-20}
ex=$root/resources/examples
db=$out/gemv-peers.sqlite
pick() {
  for c in "$@"; do [[ -x $c ]] && { echo "$c"; return; }; done
}
liftc=${LIFTC:-$(pick "$pack/liftc" "$root/build/app/liftc")}
bench=${BENCH:-$(pick "$pack/bench_kernels" "$root/build/bench/kernels/bench_kernels")}
[[ -x $liftc && -x $bench ]] || { echo "gemv-peers: no liftc or bench_kernels (pack-gpu.sh, or LIFTC and BENCH)" >&2; exit 2; }
for s in $shapes $tuneShapes; do
  [[ $s =~ ^[0-9]+x[0-9]+$ ]] || { echo "gemv-peers: a shape is MxN, got '$s'" >&2; exit 2; }
done
[[ $gemvBudget =~ ^[0-9]+$ && $level1Budget =~ ^[0-9]+$ ]] || { echo "gemv-peers: budgets are seconds" >&2; exit 2; }
export LIFT_LIFTC=$liftc
[[ -n ${DB:-} && -e $DB && ! -e $db ]] && cp "$DB" "$db"
: >"$out/log.txt"
: >"$out/searches.txt"
: >"$out/times.txt"
nvidia-smi -L >"$out/device.txt" 2>&1 || echo "no nvidia-smi (device $device)" >"$out/device.txt"
cat "$out/device.txt"
took() { # PHASE START: the seconds since START, to times.txt
  echo "$1: $((SECONDS - $2)) s" | tee -a "$out/times.txt"
}

# The cases: NAME FILE SIZES ROUTINE BUDGET.
cases=()
for s in $shapes; do
  cases+=("gemv-$s $ex/gemv.lift M=${s%x*},N=${s#*x} sgemv $gemvBudget")
done
cases+=("dot-$n1 $ex/dot.lift N=$n1 sdot $level1Budget" "asum-$n1 $ex/asum.lift N=$n1 sasum $level1Budget")

# 1. The searches (a search that overruns its budget by 90 s is stopped).
start=$SECONDS
args=()
for c in "${cases[@]}"; do
  read -r name file sizes routine budget <<<"$c"
  echo "== $name: liftc explore $(basename "$file") --size $sizes --budget ${budget}s" | tee -a "$out/searches.txt"
  timeout $((budget + 90)) "$liftc" explore "$file" --size "$sizes" --budget "${budget}s" --strategy evolution \
    --device "$device" --db "$db" --quiet --top 1 2>>"$out/log.txt" | sed -n '1,2p;/^1 /p' | tee -a "$out/searches.txt"
  echo "$name: liftc explore exit ${PIPESTATUS[0]}" >>"$out/log.txt"
  args+=(--case "$name:$file:$sizes:$routine")
done
took searches $start

# 2. CLBlast's tuner of Xgemv, XgemvFast and XgemvFastRot, at each of TUNE_SHAPES: one file, the
# parameter sets of several shapes being alternatives (bench_kernels measures each combination).
start=$SECONDS
tuned=${CLBLAST_TUNED:-}
if [[ -z $tuned ]]; then
  tuned=$out/clblast-tuned-xgemv.txt
  : >"$tuned"
  for s in $tuneShapes; do
    echo "== clblast_tuner_xgemv at $s (at most ${TUNE_TIMEOUT:-150} s)"
    OUT=$out TUNE_TIMEOUT=${TUNE_TIMEOUT:-150} bash "$root/bench/kernels/clblast-tune.sh" xgemv "$s"
    echo "clblast-tune.sh xgemv $s exit $?" >>"$out/log.txt"
    cat "$out/clblast-tuned-xgemv-$s.txt" >>"$tuned" 2>/dev/null
  done
  grep -q '^Xgemv' "$tuned" || tuned=
fi
took "CLBlast tuning" $start

# 3. Ours next to CLBlast (defaults and tuned) and the OpenCL copy.
start=$SECONDS
copyMb=${COPY_MB:-0}
if ((copyMb == 0)); then
  for s in $shapes; do
    mb=$((${s%x*} * ${s#*x} * 4 >> 20))
    ((mb > copyMb)) && copyMb=$mb
  done
  # Without GEMV shapes: the bytes dot reads (two vectors of n1 floats).
  ((copyMb > 0)) || copyMb=$(((n1 * 8 >> 20) > 0 ? n1 * 8 >> 20 : 1))
fi
tunedArgs=()
[[ -n $tuned ]] && tunedArgs=(--clblast-tuned "$tuned")
echo "== bench_kernels ($repeat timed runs each; copy of $copyMb MiB${tuned:+; CLBlast tuned: $tuned})"
"$bench" --db "$db" --device "$device" --repeat "$repeat" --copy-mb "$copyMb" "${tunedArgs[@]}" "${args[@]}" \
  2>>"$out/log.txt" | tee "$out/peers.md"
echo "bench_kernels exit ${PIPESTATUS[0]}" >>"$out/log.txt"
took "bench_kernels" $start

# 4. cuBLAS (PyTorch) and a CUDA copy.
start=$SECONDS
echo "== cuBLAS through PyTorch"
# shellcheck disable=SC2086  # the shapes are words
python3 "$root/bench/gpu/torch_mv.py" --n1 "$n1" --repeat "$repeat" $shapes 2>&1 | tee "$out/torch.txt"
took "torch" $start

# 5. The table.
echo
echo "== GEMV, dot and asum against the peers (issue 15)"
python3 "$root/bench/gpu/gemv_peers_table.py" "$out/peers.md" "$out/torch.txt" | tee "$out/summary.md"
echo
cat "$out/times.txt"
echo "total: $SECONDS s"
