"""cuBLAS SGEMM on the GPU machine through PyTorch, FP32 with TF32 off: the median of 10 timed
calls (after 3 warm-ups) for each size given as MxNxK (or N for N x N x N). The peer that
bench/kernels/gpu-run.sh and bench/gpu/sgemm-study.sh print next to our kernels."""
import sys
import time

try:
    import torch
except Exception as e:  # the machine without PyTorch: say so, do not fail the run
    print("no torch:", e)
    raise SystemExit

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
for arg in sys.argv[1:]:
    m, n, k = (int(x) for x in arg.split("x")) if "x" in arg else (int(arg),) * 3
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    for _ in range(3):
        torch.mm(a, b)
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        t = time.perf_counter()
        torch.mm(a, b)
        torch.cuda.synchronize()
        ts.append(time.perf_counter() - t)
    ts.sort()
    t = ts[len(ts) // 2]
    print(f"cuBLAS sgemm {m}x{n}x{k}: {t * 1e3:.3f} ms, {2 * m * n * k / t / 1e12:.1f} TFLOP/s")
