"""cuBLAS's SGEMV, SDOT and a sum of absolute values on the GPU machine through PyTorch, the peers
that bench/gpu/gemv-peers.sh puts next to the explorer's kernels (issue 15): for each shape MxN
(row-major A, single precision) torch.mv (y = A x) and torch.addmv (y' = 1.5 A x + 0.5 y, BLAS
sgemv as bench_kernels runs it) and a device copy of the matrix's bytes as the bandwidth
reference; for N1 floats (--n1, default 2^26) torch.dot, torch.sum(torch.abs(x)) (the issue's
reference for asum), torch.linalg.vector_norm(x, 1) (one fused reduction) and a copy of x.
Each is timed with CUDA events: 3 warm-ups, then the median of --repeat calls (default 20).
Prints `NAME SIZE: MS ms, GBS GB/s` a line; GB/s counts the bytes each reads and writes once
(sgemv 4(MN + N + 2M), mv 4(MN + N + M), dot 8 N1, asum 4 N1, a copy 2 x its bytes).

Usage: torch_mv.py [--n1 N] [--repeat R] MxN ..."""
import argparse
import sys

try:
    import torch
except Exception as e:  # the machine without PyTorch: say so, do not fail the run
    print("no torch:", e)
    raise SystemExit

if not torch.cuda.is_available():
    print("no torch: CUDA is not available")
    raise SystemExit


def median_ms(f, repeat):
    for _ in range(3):
        f()
    torch.cuda.synchronize()
    ts = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        f()
        end.record()
        end.synchronize()
        ts.append(start.elapsed_time(end))
    ts.sort()
    return ts[len(ts) // 2] if len(ts) % 2 else 0.5 * (ts[len(ts) // 2 - 1] + ts[len(ts) // 2])


def report(name, size, ms, nbytes):
    print(f"{name} {size}: {ms:.4f} ms, {nbytes / ms / 1e6:.1f} GB/s", flush=True)


def shape(text):
    m, n = text.split("x")
    return int(m), int(n)


p = argparse.ArgumentParser(description="cuBLAS SGEMV, SDOT and asum through PyTorch")
p.add_argument("--n1", type=int, default=1 << 26, help="floats of dot and asum (0: none)")
p.add_argument("--repeat", type=int, default=20)
p.add_argument("shapes", nargs="*", type=shape, help="MxN")
args = p.parse_args()
torch.backends.cuda.matmul.allow_tf32 = False
print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}")
for m, n in args.shapes:
    size = f"{m}x{n}"
    a = torch.rand(m, n, device="cuda") * 2 - 1
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.rand(m, device="cuda") * 2 - 1
    out = torch.empty_like(y)
    report("torch.mv", size, median_ms(lambda: torch.mv(a, x, out=out), args.repeat), 4.0 * (m * n + n + m))
    report(
        "torch.addmv",
        size,
        median_ms(lambda: torch.addmv(y, a, x, beta=0.5, alpha=1.5, out=out), args.repeat),
        4.0 * (m * n + n + 2 * m),
    )
    b = torch.empty_like(a)
    report("copy", size, median_ms(lambda: b.copy_(a), args.repeat), 8.0 * m * n)
    del a, b, x, y, out
    torch.cuda.empty_cache()
n = args.n1
if n > 0:
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.rand(n, device="cuda") * 2 - 1
    report("torch.dot", n, median_ms(lambda: torch.dot(x, y), args.repeat), 8.0 * n)
    report("torch.sum(abs)", n, median_ms(lambda: torch.sum(torch.abs(x)), args.repeat), 4.0 * n)
    report("torch.vector_norm(1)", n, median_ms(lambda: torch.linalg.vector_norm(x, 1), args.repeat), 4.0 * n)
    c = torch.empty_like(x)
    report("copy", n, median_ms(lambda: c.copy_(x), args.repeat), 8.0 * n)
sys.stdout.flush()
