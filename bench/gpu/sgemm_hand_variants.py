#!/usr/bin/env python3
"""Hand-made variants of the explorer's best SGEMM kernel (issue 14, session 19): each a small
change to the OpenCL the code generator printed for the vectorized-local derivation
(bench/gpu/derived/vectorized-local.derivation.in at 64:64:16:4:4:4, `--unroll 16
--vector-local-loads --prefetch`), to ask whether any change the generator could make would
speed the kernel up. bench/gpu/sgemm-hand-variants.sh validates each against the interpreter at a
small size and times it at a large one.

Usage: sgemm_hand_variants.py KERNEL.cl N OUT_PREFIX       (N: the size the kernel was made for)
       sgemm_hand_variants.py --single KERNEL.cl OUT.cl   (only the one-buffer form)
Writes OUT_PREFIX-NAME.cl for every variant of VARIANTS.
"""
import re
import sys

VARIANTS = ["base", "bvec", "bvec4", "unroll2", "warp8x4", "clamp", "areg", "colmajor", "bfirst", "single", "apad",
            "async", "apad-async"]


def single(src):
    """One local buffer per tile and a second barrier before the prefetched tiles are stored."""
    s = src.replace("*(i%2)", "*0").replace("*((i + 1)%2)", "*0")
    s = s.replace("// stored into the other buffers",
                  "barrier(CLK_LOCAL_MEM_FENCE);\n        // stored into the other buffers")
    s = re.sub(r"local float4 tmp1\[(\d+)\]", lambda m: f"local float4 tmp1[{int(m.group(1)) // 2}]", s)
    return re.sub(r"local float tmp2\[(\d+)\]", lambda m: f"local float tmp2[{int(m.group(1)) // 2}]", s)


def a_padded(src):
    """The A tile's rows of 16 float4 laid 17 apart: the two rows a warp reads at once (work-items of
    two l_id_1) start in other banks, where 16 apart put them in the same four."""
    def index(m):
        e = m.group(1).replace("1024*", "1088*").replace("16*l_id_1", "17*l_id_1")
        e = re.sub(r"\+ (256|512|768)\b", lambda k: f"+ {int(k.group(1)) * 17 // 16}", e)
        return f"tmp1[{e}]"
    s = re.sub(r"tmp1\[([^\]]*)\]", index, src.replace("local float4 tmp1[2048];", "local float4 tmp1[2176];"))
    assert "tmp1[2176]" in s and "17*l_id_1" in s, "the A tile of 64 x 16 float4, two buffers"
    return s


ASYNC_COPY = (
    "inline void cp_async4(local float* dst, const global float* src) {\n"
    '  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"((uint)(size_t)dst), "l"(src) : "memory");\n'
    "}\n\n")


def async_copy(src):
    """The next tiles copied by cp.async (PTX, sm_80 and later, through inline assembly) straight into
    the other local buffers, instead of loaded into registers and stored after the computation; the
    copies are waited for before the barrier that ends the K step."""
    stores = dict((m.group(3), (m.group(1), m.group(2))) for m in
                  re.finditer(r"(tmp[12])\[([^\]]*)\] = (pf\d+);", src))
    assert len(stores) == 8, "the eight prefetched values and their stores"
    s = src
    for pf, (tile, idx) in stores.items():
        s = s.replace(f"{tile}[{idx}] = {pf};", ";")
        m = re.search(rf"{pf} = (.*);\n", s)
        loads = re.findall(r"([AB])\[([^\]]*)\]", m.group(1))
        copies = " ".join(f"cp_async4(d_ + {k}, {g} + {e});" for k, (g, e) in enumerate(loads))
        s = s.replace(m.group(0), f"{{ local float* d_ = (local float*)&{tile}[{idx}]; {copies} }}\n")
        s = re.sub(rf"float4? {pf};\n\s*", "", s)
    s = s.replace("// stored into the other buffers",
                  '// the copies waited for\n        asm volatile("cp.async.wait_all;" ::: "memory");')
    return s.replace("\nkernel ", "\n" + ASYNC_COPY + "kernel ", 1)


def block(s, first, last):
    """Where the block of the work-items' statements from `first` to `last` starts and ends."""
    lo = s.index(first)
    start = s.rfind("{\n            int l_id_1 = get_local_id(1);", 0, lo)
    end = s.index("}\n          }", s.index(last, lo)) + len("}\n          }")
    return start, end


def b_float4(src, n, aligned):
    """The B tile copied as one float4 a work-item (vload4, or an aligned float4 pointer)."""
    load = (lambda e: f"*(const global float4*)(B + {e})") if aligned else (lambda e: f"vload4(0, B + {e})")
    s = src
    first = re.search(r"for \(int l_id = get_local_id\(0\); l_id < 64; l_id \+= \(int\)get_local_size\(0\)\) \{\n"
                      rf"\s*tmp2\[64\*l_id_1 \+ l_id\] = B\[{n}\*l_id_1 \+ 64\*wg_id \+ l_id\];\n\s*\}}", s)
    assert first, "the first B copy"
    s = s.replace(first.group(0), "{ int l_id = get_local_id(0); ((local float4*)tmp2)[16*l_id_1 + l_id] = "
                  f"{load(f'{n}*l_id_1 + 64*wg_id + 4*l_id')}; }}")
    a, b = block(s, "pf5 = B[", "pf8 = B[")
    s = s[:a] + ("{ int l_id_1 = get_local_id(1); int l_id = get_local_id(0); pf5v = "
                 f"{load(f'{16 * n}*i + {n}*l_id_1 + 64*wg_id + 4*l_id + {16 * n}')}; }}") + s[b:]
    s = s.replace("float pf5;\n", "float4 pf5v;\n")
    for k in (6, 7, 8):
        s = s.replace(f"float pf{k};\n", "")
    a, b = block(s, "tmp2[1024*((i + 1)%2) + 64*l_id_1 + l_id] = pf5;", "= pf8;")
    return s[:a] + ("{ int l_id_1 = get_local_id(1); int l_id = get_local_id(0); "
                    "((local float4*)tmp2)[256*((i + 1)%2) + 16*l_id_1 + l_id] = pf5v; }") + s[b:]


def variants(src, n):
    steps = n // 16
    loop = f"for (int i = 0; i < {steps}; i += 1) {{"
    assert loop in src, "the K-tile loop"
    out = {"base": src, "single": single(src)}
    out["bvec"] = b_float4(src, n, aligned=False)
    out["bvec4"] = b_float4(src, n, aligned=True)
    out["unroll2"] = src.replace(loop, "#pragma unroll 2\n      " + loop)
    # Warps of 8 x 4 work-items instead of 16 x 2 (a permutation of the work-items).
    head = ("void matmul(\n    const global float* restrict A,\n    const global float* restrict B,\n"
            "    global float* restrict out) {\n")
    assert head in src, "the kernel's signature"
    w = src.replace("get_local_id(0)", "LX").replace("get_local_id(1)", "LY")
    out["warp8x4"] = w.replace(head, head + "  const int flat_ = (int)get_local_id(0) + 16*(int)get_local_id(1);\n"
                               "  const int LX = (flat_ & 7) | ((flat_ >> 2) & 8);\n"
                               "  const int LY = ((flat_ >> 3) & 3) | ((flat_ >> 6) << 2);\n")
    # No guard on the prefetch: the last step loads the current tiles again.
    pre_start = src.index("// the next tiles, loaded into registers")
    pre = src[pre_start:src.index("// mapLcl1", pre_start)]
    s = src.replace(pre, pre.replace("// the next tiles, loaded into registers",
                                     f"// the next tiles, loaded into registers\n        int ip = i + 1 < {steps} ? i : i - 1;")
                    .replace("*i +", "*ip +"))
    out["clamp"] = s.replace(f"if (i + 1 < {steps}) {{", "{")
    # The multiply-adds of one j step: A's four float4 in named values first; or column by column.
    lines = re.findall(r"( *)acc1_(\d+) = add_vv4_mult_vs4\(acc1_\d+, (tmp1\[[^\]]*\]), lvec1\.s(\d)\);\n", src)
    assert len(lines) == 16, "the 16 multiply-adds of a j step"
    step = "".join(f"{i}acc1_{a} = add_vv4_mult_vs4(acc1_{a}, {t}, lvec1.s{c});\n" for i, a, t, c in lines)
    ind = lines[0][0]
    operands = list(dict.fromkeys(t for _, _, t, _ in lines))
    named = "".join(f"{ind}float4 areg{k} = {t};\n" for k, t in enumerate(operands))

    def fmas(order):
        return "".join(f"{ind}acc1_{a} = add_vv4_mult_vs4(acc1_{a}, areg{operands.index(t)}, lvec1.s{c});\n"
                       for _, a, t, c in order)

    out["areg"] = src.replace(step, named + fmas(lines))
    out["colmajor"] = src.replace(step, named + fmas(sorted(lines, key=lambda l: (l[3], operands.index(l[2])))))
    # B's prefetch loads issued before A's.
    a, b = block(src, "pf5 = B[", "pf8 = B[")
    s = src[:a] + src[b:]
    first_a = s.index("{\n            int l_id_1 = get_local_id(1);", s.index("// the next tiles"))
    out["bfirst"] = s[:first_a] + src[a:b] + "\n          " + s[first_a:]
    out["apad"] = a_padded(src)
    out["async"] = async_copy(src)
    out["apad-async"] = async_copy(a_padded(src))
    return out


def main(argv):
    if argv[0] == "--single":
        open(argv[2], "w").write(single(open(argv[1]).read()))
        return
    src, n, prefix = open(argv[0]).read(), int(argv[1]), argv[2]
    for name, text in variants(src, n).items():
        open(f"{prefix}-{name}.cl", "w").write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
