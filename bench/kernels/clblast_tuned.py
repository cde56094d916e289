"""The best parameters of a CLBlast tuner's run as a `--clblast-tuned` file for bench_kernels
(bench/kernels/clblast-tune.sh): reads the tuner's JSON files (clblast_FAMILY_32.json, one per
kernel it tuned) in WORK and prints, per kernel, a comment with its best time and a line
`KERNEL NAME=VALUE ...` with the kernel name clblast::OverrideParameters takes.

Usage: clblast_tuned.py WORK ROUTINE M N SECONDS STATUS COMMAND
  ROUTINE xgemm (M = N = K, TFLOP/s) or xgemv (M x N, GB/s as the tuner counts them)
Exit status 1 when no kernel has results."""
import json
import os
import sys

# The tuners' kernel families and the kernels of CLBlast's database they tune.
KERNELS = {
    "xgemm": [("xgemm", "Xgemm")],
    "xgemv": [("xgemv", "Xgemv"), ("xgemv_fast", "XgemvFast"), ("xgemv_fast_rot", "XgemvFastRot")],
}


def rate(routine, m, n, ms):
    if routine == "xgemm":
        return f"{2.0 * m * m * m / (ms * 1e-3) / 1e12:.1f} TFLOP/s"
    return f"{4.0 * (m * n + 2 * m + n) / (ms * 1e-3) / 1e9:.1f} GB/s"


def main(argv):
    work, routine, m, n, seconds, status, command = argv[1:8]
    m, n = int(m), int(n)
    header, lines, missing = None, [], []
    for family, kernel in KERNELS[routine]:
        path = os.path.join(work, f"clblast_{family}_32.json")
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            missing.append(f"{kernel} ({type(e).__name__})")
            continue
        results = [r for r in d.get("results", []) if r.get("time", 0) > 0 and r.get("parameters")]
        if not results:
            missing.append(f"{kernel} (no results)")
            continue
        best = min(results, key=lambda r: r["time"])
        if header is None:
            header = f"# {d.get('device', '?')} ({d.get('device_vendor', '?')}), {command}: {seconds} s, exit {status}"
        params = " ".join(f"{k}={v}" for k, v in sorted(best["parameters"].items()) if k != "PRECISION")
        lines.append(
            f"# {kernel}: best {best['time']:.3f} ms = {rate(routine, m, n, best['time'])} "
            f"(kernel time, {len(results)} configurations, {os.path.basename(path)})"
        )
        lines.append(f"{kernel} {params}")
    if header is None:
        print(f"# {command}: exit {status} after {seconds} s: no results" + "".join(f"; {x}" for x in missing))
        return 1
    print(header)
    if missing:
        print("# not tuned: " + ", ".join(missing))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
