#!/usr/bin/env python3
"""Time-to-best of the searches in result stores (docs/PERFORMANCE.md, "Exploration").

For every search: kernels evaluated, valid, the best GFLOP/s (or GB/s) it found, and the
seconds it took to reach 50 %, 90 %, 95 % and 100 % of the best any search of the same problem
(program, sizes, device) found, and to pass a reference figure (e.g. CLBlast's) if given.

usage: time_to_best.py STORE... [--reference GFLOPS]
"""
import os
import sqlite3
import sys
from collections import defaultdict


def main(argv):
    stores, reference = [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--reference":
            reference = float(argv[i + 1])
            i += 2
        else:
            stores.append(argv[i])
            i += 1
    searches = []
    for path in stores:
        db = sqlite3.connect(path)
        for sid, strategy, seed, sizes, device, program in db.execute(
                "SELECT id, strategy, seed, sizes, device, program FROM searches ORDER BY id"):
            rows = db.execute(
                "SELECT elapsed_s, status, gflops, gbs FROM kernels WHERE search_id=? ORDER BY elapsed_s",
                (sid,)).fetchall()
            searches.append(dict(store=path, id=sid, strategy=strategy, seed=seed, sizes=sizes, device=device,
                                 program=program, rows=rows))
    # The metric: GFLOP/s for compute-bound problems, else GB/s (the larger of the two).
    best = defaultdict(float)
    for s in searches:
        key = (s["program"], s["sizes"], s["device"])
        s["gflops"] = any(r[2] > r[3] for r in s["rows"] if r[1] == "ok")
        for t, status, gf, gb in s["rows"]:
            if status == "ok":
                best[key] = max(best[key], gf if s["gflops"] else gb)
    print("| program | sizes | strategy | seed | kernels | valid | best | to 50 % | to 90 % | to 95 % | to best |"
          + (" to reference |" if reference else ""))
    print("|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if reference else ""))
    for s in searches:
        key = (s["program"], s["sizes"], s["device"])
        top = best[key]
        mine, firsts = 0.0, {}
        for t, status, gf, gb in s["rows"]:
            if status != "ok":
                continue
            v = gf if s["gflops"] else gb
            mine = max(mine, v)
            for name, frac in (("50", 0.5), ("90", 0.9), ("95", 0.95), ("100", 0.999)):
                if name not in firsts and v >= frac * top:
                    firsts[name] = t
            if reference and "ref" not in firsts and v > reference:
                firsts["ref"] = t
        unit = "GFLOP/s" if s["gflops"] else "GB/s"
        fmt = lambda k: f"{firsts[k]:.1f} s" if k in firsts else "-"
        valid = sum(1 for r in s["rows"] if r[1] == "ok")
        line = (f"| {os.path.basename(s['program'])} | {s['sizes']} | {s['strategy']} | {s['seed']} | {len(s['rows'])} | {valid} | "
                f"{mine:.1f} {unit} | {fmt('50')} | {fmt('90')} | {fmt('95')} | {fmt('100')} |")
        if reference:
            line += f" {fmt('ref')} |"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
