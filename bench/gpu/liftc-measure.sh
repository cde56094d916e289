# Sourced by the SGEMM scripts: `measure PROGRAM SIZES [liftc run args...]` runs a kernel through
# `liftc run` (validated against OpenBLAS's sgemm) and prints "median ms | TFLOP/s | validation"
# for a Markdown row, or the end of liftc's output when it did not run. Expects $liftc and
# $device; appends liftc's whole output to $LOG when set; REPEAT (default 10).
measure() {
  local program=$1 size=$2 out ms gf val
  shift 2
  out=$("$liftc" run "$program" --device "$device" --size "$size" --repeat "${REPEAT:-10}" \
    --reference sgemm --interp-budget 0 "$@" 2>&1)
  [[ -n ${LOG:-} ]] && printf '== %s %s\n%s\n' "$program" "$size" "$out" >>"$LOG"
  ms=$(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$out")
  gf=$(sed -n 's/^throughput: *\([0-9.e+-]*\) GFLOP\/s.*/\1/p' <<<"$out")
  [[ -n $gf ]] && gf=$(awk -v g="$gf" 'BEGIN { printf "%.1f", g / 1000 }')
  val=$(sed -n 's/^validation: *//p' <<<"$out" | cut -c1-60)
  [[ -z $ms ]] && val=$(tail -3 <<<"$out" | tr '\n' ' ' | cut -c1-200)
  printf '%s | %s | %s' "${ms:--}" "${gf:--}" "$val"
}
