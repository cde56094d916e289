"""torch.cumsum and a device copy of n floats on the GPU machine through PyTorch: the median of 20
timed calls (after 3 warm-ups) each, in ms and in GB/s counted as bench_skelcl's scan counts
(8n bytes: the input read once, the result written once). The peers that bench/gpu/scan.sh
prints next to the library's scan."""
import sys
import time

try:
    import torch
except Exception as e:  # the machine without PyTorch: say so, do not fail the run
    print("no torch:", e)
    raise SystemExit


def median_ms(f):
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(20):
        t = time.perf_counter()
        f()
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2] * 1e3


n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 26
x = torch.rand(n, device="cuda")
y = torch.empty_like(x)
for name, f in (("torch.cumsum", lambda: torch.cumsum(x, 0, out=y)), ("copy", lambda: y.copy_(x))):
    ms = median_ms(f)
    print(f"{name} {n}: {ms:.3f} ms, {8 * n / ms / 1e6:.1f} GB/s")
