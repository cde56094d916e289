"""The best SGEMM kernel's next tiles copied by the GPU's asynchronous copy instead of through
registers (issue 14, session 25): bench/gpu/sgemm-async-copy.sh.

usage: sgemm_async_copy.py KERNEL.cl OUT.cl [r|l]

KERNEL.cl is a kernel of `--prefetch`: its K-tile loop loads the next tiles into private values
pf1, pf2, ... before the computation and stores each into the other local buffer after it. Here
each of those loads becomes NVIDIA's `cp.async` of 4 bytes, from the global element straight into
the local element its store would have written, issued where the load was; the stores go, and the
loop's barrier waits for the copies first (`cp.async.wait_all`). Inline PTX: NVIDIA only (sm_80 and
later). The local address goes to the PTX as a 32-bit register (r) or a 64-bit one (l).
"""
import re
import sys

HELPERS = '''inline void cp_async4(local float* dst, const global float* src) {{
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "{reg}"(({cast})dst), "l"(src) : "memory");
}}
inline void cp_async_wait_all(void) {{ asm volatile("cp.async.wait_all;" ::: "memory"); }}

'''


def transform(src, reg):
    stores = {pf: dst for dst, pf in re.findall(r'^\s*(tmp\d+\[[^;]*\]) = (pf\d+);$', src, re.M)}
    if not stores:
        sys.exit('sgemm_async_copy.py: no prefetch stores (a kernel of --prefetch?)')
    out = []
    for line in src.split('\n'):
        indent = line[:len(line) - len(line.lstrip())]
        m = re.match(r'^\s*(pf\d+) = (.*);$', line)
        if m and m.group(1) in stores:
            pf, value = m.groups()
            dst = stores[pf]
            loads = re.findall(r'[A-Za-z_]\w*\[[^\]]*\]', value)
            if value.startswith('(float4)('):
                if len(loads) != 4:
                    sys.exit(f'sgemm_async_copy.py: cannot split {value}')
                for c, load in enumerate(loads):
                    out.append(f'{indent}cp_async4((local float*)&{dst} + {c}, &{load});')
            else:
                if len(loads) != 1:
                    sys.exit(f'sgemm_async_copy.py: cannot copy {value}')
                out.append(f'{indent}cp_async4(&{dst}, &{loads[0]});')
            continue
        m = re.match(r'^\s*(tmp\d+\[[^;]*\]) = (pf\d+);$', line)
        if m and m.group(2) in stores:
            continue
        if re.match(r'^\s*float4? pf\d+;$', line):
            continue
        if line.strip() == '// stored into the other buffers':
            out.append(f'{indent}cp_async_wait_all();')
            continue
        out.append(line)
    text = '\n'.join(out)
    cast = 'uint)(ulong' if reg == 'r' else 'ulong'
    helpers = HELPERS.format(reg=reg, cast=cast)
    first = text.index('\nkernel ')
    return text[:first + 1] + helpers + text[first + 1:]


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    reg = sys.argv[3] if len(sys.argv) == 4 else 'r'
    with open(sys.argv[1]) as f:
        src = f.read()
    with open(sys.argv[2], 'w') as f:
        f.write(transform(src, reg))


if __name__ == '__main__':
    main()
