"""The short table of bench/gpu/gemv-peers.sh (issue 15's GEMV, dot and asum targets): reads
bench_kernels' output (its table, its `CLBlast tuned` table and the copy bandwidth) and
torch_mv.py's lines, and prints per case ours, cuBLAS (PyTorch), CLBlast's defaults and CLBlast
tuned in ms and GB/s, with the ratios of the targets: ours / X is X's time over ours (above 1:
ours is faster), ours / copy our GB/s over the OpenCL copy kernel's (bench_kernels), ours /
torch copy over a CUDA copy of the matrix's (or vector's) bytes (torch_mv.py). GB/s count the
bytes bench_kernels counts for every column (sgemv 4(MN + N + 2M), dot 8N, asum 4N), so that
they compare as the times do. A missing figure prints `-`.

Usage: gemv_peers_table.py PEERS.md TORCH.txt"""
import re
import sys


def tables(text):
    """The Markdown tables of `text`: a list of lists of dicts (header name -> cell)."""
    out, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            out.append([])
        elif not all(set(c) <= set("-:") for c in cells):
            # The last column (our kernel, parameters) may hold a `|` of its own.
            cells = cells[: len(header) - 1] + [" | ".join(cells[len(header) - 1 :])]
            out[-1].append(dict(zip(header, cells)))
    return out


def number(text):
    m = re.match(r"\s*([0-9.]+)", text or "")
    return float(m.group(1)) if m else 0.0


def sizes(text):
    return dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", text))


def main(argv):
    peers = open(argv[1]).read()
    torch = open(argv[2]).read() if len(argv) > 2 else ""
    copy = re.search(r"copy bandwidth \(.*\): ([0-9.]+) GB/s", peers)
    copy = float(copy.group(1)) if copy else 0.0
    rows, tuned = {}, {}
    for table in tables(peers):
        for r in table:
            if "ours ms" in r:
                rows[r["case"]] = r
            elif "CLBlast tuned ms" in r:
                tuned[r["case"]] = number(r["CLBlast tuned ms"])
    ref = {}  # (name, size) -> ms
    for name, size, ms in re.findall(r"^(\S+) (\d+(?:x\d+)?): ([0-9.]+) ms", torch, re.M):
        ref[(name, size)] = float(ms)
    fmt_x = lambda a, b: f"{a / b:.2f}x" if a > 0 and b > 0 else "-"
    print(f"copy kernel (OpenCL, bench_kernels): {copy:.1f} GB/s" if copy else "copy kernel: -")
    print()
    print(
        "| case | ours ms (GB/s) | cuBLAS / torch ms (GB/s) | CLBlast ms (GB/s) | CLBlast tuned ms (GB/s) | "
        "ours / cuBLAS | ours / CLBlast | ours / CLBlast tuned | ours / copy | ours / torch copy | our kernel |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for case, r in rows.items():
        s = sizes(r.get("sizes", ""))
        ours, clblast = number(r.get("ours ms")), number(r.get("CLBlast ms"))
        routine = case.split("-")[0]
        if "M" in s and "N" in s:  # gemv
            m, n = s["M"], s["N"]
            key = f"{m}x{n}"
            nbytes = 4.0 * (m * n + n + 2 * m)
            cublas = ref.get(("torch.mv", key), 0.0)
            copy_bytes = 8.0 * m * n
        else:
            n = s.get("N", 0)
            key = str(n)
            nbytes = (8.0 if routine == "dot" else 4.0) * n
            if routine == "dot":
                cublas = ref.get(("torch.dot", key), 0.0)
            else:  # asum: the faster of torch's two forms
                forms = [ref.get((f, key), 0.0) for f in ("torch.sum(abs)", "torch.vector_norm(1)")]
                cublas = min((t for t in forms if t > 0), default=0.0)
            copy_bytes = 8.0 * n
        tuned_ms = tuned.get(case, 0.0)
        torch_copy = ref.get(("copy", key), 0.0)
        gbs = lambda ms: nbytes / ms / 1e6 if ms > 0 else 0.0
        cell = lambda ms: f"{ms:.4f} ({gbs(ms):.{0 if gbs(ms) >= 100 else 1}f})" if ms > 0 else "-"
        of_copy = f"{gbs(ours) / copy:.2f}" if ours > 0 and copy > 0 else "-"
        of_torch_copy = f"{gbs(ours) / (copy_bytes / torch_copy / 1e6):.2f}" if ours > 0 and torch_copy > 0 else "-"
        print(
            f"| {case} | {cell(ours)} | {cell(cublas)} | {cell(clblast)} | {cell(tuned_ms)} | "
            f"{fmt_x(cublas, ours)} | {fmt_x(clblast, ours)} | {fmt_x(tuned_ms, ours)} | {of_copy} | "
            f"{of_torch_copy} | {r.get('our kernel', '')} |"
        )
    print()
    print(
        "Targets (issue 15): GEMV ours / cuBLAS >= 1.0x, / CLBlast >= 1.5x, / CLBlast tuned >= 1.0x, "
        "ours / copy >= 0.95; dot and asum ours / CLBlast >= 1.2x. cuBLAS: torch.mv, torch.dot, "
        "the faster of torch.sum(abs) and vector_norm(1) for asum (not cuBLAS)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
