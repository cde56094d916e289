#!/usr/bin/env bash
# The scan of issue 16 on one GPU: bench_skelcl's scan of N floats (default 2^26) in each form
# (work-groups: coalesced tiles in one pass with decoupled look-back, work-groups-multi-pass: the
# tiles' totals first, chunks: a work-item a chunk; kernels only, the input already on
# the device), next to torch.cumsum and a device copy of the same n floats measured in the same
# run (bench/gpu/torch_cumsum.py), and the work-group form's kernels against both (into a new
# output each run, and into an existing one: no device allocation, as torch.cumsum's caching
# allocator gives it; and a new output each run from an input that has been on the device for a
# while, as torch.cumsum is timed): the issue's
# targets are >= 70 % of the copy's bandwidth and >= 0.8x torch.cumsum.
# Usage: bench/gpu/scan.sh     (carry .gpu-ex with bench_skelcl; Env: N, DEVICE, REPEAT, CHECK:
# entries of every run's result compared with the host's, default 1000)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/device-env.sh"
bench=${BENCH_SKELCL:-$pack/bench_skelcl}
n=${N:-67108864}
nvidia-smi -L 2>/dev/null
declare -A kernels intos residents
for form in work-groups work-groups-multi-pass chunks; do
  lines=$("$bench" scan --size "$n" --device "${DEVICE:-0}" --scan-form "$form" --repeat "${REPEAT:-10}" \
    --check "${CHECK:-1000}" 2>&1)
  line=$(tail -1 <<<"$lines")
  echo "bench_skelcl scan --scan-form $form: $line"
  read -r _ _ _ _ _ k _ _ rk _ check _ _ into _ <<<"$line"
  kernels[$form]=$k
  intos[$form]=$into
  residents[$form]=$(sed -n 's/^scan-resident .*the input on the devices: \([0-9.]*\) ms.*/\1/p' <<<"$lines")
  echo "  kernels $k ms ($rk GB/s; a new output each run, right after the upload), ${residents[$form]} ms a new output" \
    "each run from an input on the device, $into ms into an existing output, check $check"
done
peers=$(python3 "$root/bench/gpu/torch_cumsum.py" "$n")
echo "$peers"
cumsum=$(sed -n 's/^torch.cumsum [0-9]*: \([0-9.]*\) ms.*/\1/p' <<<"$peers")
copy=$(sed -n 's/^copy [0-9]*: \([0-9.]*\) ms.*/\1/p' <<<"$peers")
for form in work-groups work-groups-multi-pass; do
  for what in kernels residents intos; do
    declare -n times=$what
    wg=${times[$form]}
    label="a new output each run, right after the upload"
    [[ $what == residents ]] && label="a new output each run, the input on the device"
    [[ $what == intos ]] && label="into an existing output"
    if [[ $wg =~ ^[0-9.]+$ && $cumsum =~ ^[0-9.]+$ && $copy =~ ^[0-9.]+$ ]]; then
      python3 -c "print(f'$form, $label: {$copy / $wg * 100:.0f} % of the copy bandwidth (target 70 %), {$cumsum / $wg:.2f}x torch.cumsum (target 0.8x)')"
    fi
  done
done
