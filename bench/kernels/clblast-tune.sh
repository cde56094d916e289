#!/usr/bin/env bash
# Tunes CLBlast's Xgemm for the device with CLBlast's own tuner (Debian's clblast-utils,
# packed into .gpu-ex by pack-gpu.sh) at one size class, and writes the best parameters as a
# `--clblast-tuned` file for bench_kernels: `Xgemm NAME=VALUE ...` with a comment saying the
# device, the size, the tuner's time and its best figure. Keep the file in
# bench/kernels/clblast-tuned/ (one per device kind).
#
# Usage (on the GPU machine, .gpu-ex carried): bench/kernels/clblast-tune.sh SIZE [FRACTION]
#   e.g. bench/kernels/clblast-tune.sh 4096 0.002     writes $OUT/clblast-tuned-SIZE.txt
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
n=${1:?size}
fraction=${2:-0.002}
pack=$root/.gpu-ex
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
tuner=$pack/clblast_tuner_xgemm
[[ -x $tuner ]] || tuner=$(command -v clblast_tuner_xgemm)
work=$(mktemp -d)
start=$(date +%s)
(cd "$work" && "$tuner" -m "$n" -n "$n" -k "$n" -precision 32 -fraction "$fraction") \
  >"$out/clblast-tuner-$n.log" 2>&1
status=$?
seconds=$(($(date +%s) - start))
python3 - "$work" "$n" "$fraction" "$seconds" "$status" >"$out/clblast-tuned-$n.txt" <<'PY'
import glob, json, sys
work, n, fraction, seconds, status = sys.argv[1:]
best = None
for f in sorted(glob.glob(work + "/clblast_xgemm_*.json")):
    d = json.load(open(f))
    for r in d.get("results", []):
        if best is None or r["time"] < best[0]["time"]:
            best = (r, d, f)
if best is None:
    print(f"# tuner exit {status} after {seconds} s: no results")
    sys.exit(1)
r, d, f = best
flops = 2.0 * int(n) ** 3 / (r["time"] * 1e-3)
print(f"# {d.get('device', '?')} ({d.get('device_vendor', '?')}), clblast_tuner_xgemm -m {n} -n {n} -k {n} "
      f"-precision 32 -fraction {fraction}: {seconds} s; best {r['time']:.3f} ms = {flops / 1e12:.1f} TFLOP/s "
      f"(kernel time, {f.rsplit('/', 1)[-1]})")
params = " ".join(f"{k}={v}" for k, v in sorted(r["parameters"].items()) if k != "PRECISION")
print(f"Xgemm {params}")
PY
cat "$out/clblast-tuned-$n.txt"
rm -rf "$work"
