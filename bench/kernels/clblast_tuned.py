"""The best parameters of a CLBlast tuner's run as a `--clblast-tuned` file for bench_kernels
(bench/kernels/clblast-tune.sh): reads the tuner's JSON files (clblast_FAMILY_32.json, one per
kernel it tuned) in WORK and prints, per kernel, a comment with its best time and a line
`KERNEL NAME=VALUE ...` with the kernel name clblast::OverrideParameters takes.

A tuner stopped before its end (clblast-tune.sh's TUNE_TIMEOUT) writes no JSON. Then, given the
tuner's output LOG, its table is read instead: every configuration whose results matched the
reference, of every phase it reached, and the TOP fastest distinct ones are printed (default 4;
bench_kernels measures each line and takes the fastest). Only for a routine of one kernel (xgemm).

Usage: clblast_tuned.py WORK ROUTINE M N SECONDS STATUS COMMAND [LOG]
  ROUTINE xgemm (M = N = K, TFLOP/s) or xgemv (M x N, GB/s as the tuner counts them)
  env TUNER_DEVICE: the device's name for the header when it comes from the log; TOP
Exit status 1 when no kernel has results."""
import json
import os
import re
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


def from_log(log, routine, m, n, seconds, status, command):
    """The lines of a stopped tuner's table, or None when it validated nothing."""
    names, rows, phases = None, [], 0
    with open(log, errors="replace") as f:
        for line in f:
            line = re.sub(r"\x1b\[[0-9;]*m", "", line)
            if line.startswith("* Parameters explored:"):
                names = line.split(":", 1)[1].split()
                phases += 1
            elif names and "results match" in line:
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                values, ms = cells[2].split(), re.match(r"([0-9.]+) ms", cells[6])
                if len(values) == len(names) and ms:
                    rows.append((float(ms.group(1)), tuple(zip(names, values))))
    if not rows:
        return None
    rows.sort()
    kernel = KERNELS[routine][0][1]
    device = os.environ.get("TUNER_DEVICE", "?")
    top = int(os.environ.get("TOP", "4"))
    lines = [f"# {device}, {command}: {seconds} s, exit {status}: stopped before its end, so read from its",
             f"# log: {len(rows)} configurations whose results matched, in {phases} of its phases; the {top} fastest"]
    seen = []
    for ms, params in rows:
        if params in seen:
            continue
        seen.append(params)
        lines.append(f"# {kernel}: {ms:.3f} ms = {rate(routine, m, n, ms)} (kernel time)")
        lines.append(f"{kernel} " + " ".join(f"{k}={v}" for k, v in sorted(params)))
        if len(seen) == top:
            break
    return lines


def main(argv):
    work, routine, m, n, seconds, status, command = argv[1:8]
    log = argv[8] if len(argv) > 8 else None
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
    if header is None and log and len(KERNELS[routine]) == 1:
        logged = from_log(log, routine, m, n, seconds, status, command)
        if logged:
            print("\n".join(logged))
            return 0
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
