#!/usr/bin/env bash
# How much of the best SGEMM kernel's time is the last, partly filled wave of work-groups? The
# explorer's best kernel (bench/gpu/derived/vectorized-local.derivation.in at 64:64:16:4:4:4,
# `--unroll 16 --vector-local-loads --prefetch`: 256 x 64 tiles of C, two work-groups an SM on an
# H100) timed at shapes whose work-group counts fill the last wave to different degrees. At
# 4096³ it has 1,024 work-groups: 3.88 waves of the 264 an H100 runs at once (132 SMs x 2).
#
# Usage: bench/gpu/sgemm-waves.sh   (carry .gpu-ex; env SHAPES "MxNxK ...", SLOTS 264 (work-groups
#        the device runs at once), REPEAT 20, ROUNDS 3, DEVICE nvidia; a table on stdout)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$root/bench/gpu/sgemm-hand-env.sh"
slots=${SLOTS:-264}
shapes=${SHAPES:-4096x4096x4096 4096x3968x4096 4096x4160x4096 4096x4224x4096 4352x4096x4096 8192x8192x4096 8192x8448x4096}

for s in $shapes; do
  IFS=x read -r m n k <<<"$s"
  derive_vectorized_local "$m" "$n" "$k" 64:64:16:4:4:4 "$tmp/p-$s.lift" >/dev/null ||
    echo "$s: the derivation does not apply"
done
declare -A times
for _ in $(seq "${ROUNDS:-3}"); do
  for s in $shapes; do
    [[ -f $tmp/p-$s.lift ]] || continue
    r=$(timeout 120 "$liftc" run "$tmp/p-$s.lift" --device "${DEVICE:-nvidia}" --unroll 16 --vector-local-loads \
      --prefetch --repeat "${REPEAT:-20}" --reference none 2>&1)
    times[$s]+=" $(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$r")"
  done
done
printf '| M x N x K | work-groups | waves (%s at once) | last wave filled | ms, each round | TFLOP/s (median round) |\n' "$slots"
printf '|---|---|---|---|---|---|\n'
for s in $shapes; do
  IFS=x read -r m n k <<<"$s"
  wgs=$((m / 256 * (n / 64)))
  ms=${times[$s]:-}
  med=$(tr ' ' '\n' <<<"$ms" | grep . | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}')
  awk -v w="$wgs" -v sl="$slots" -v med="$med" -v m="$m" -v n="$n" -v k="$k" -v s="$s" -v ms="$ms" 'BEGIN {
    waves = w / sl; full = int(waves); last = waves - full; if (last == 0) last = 1
    tf = med ? sprintf("%.1f", 2 * m * n * k / med / 1e9) : "-"
    printf "| %s | %d | %.2f | %.0f %% |%s | %s |\n", s, w, waves, 100 * last, ms, tf }'
done
