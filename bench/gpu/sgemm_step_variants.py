"""Hand variants of the best SGEMM kernel's K-tile loop (issue 14, session 25), for
bench/gpu/sgemm-step-variants.sh.

usage: sgemm_step_variants.py KERNEL.cl OUT.cl VARIANT

KERNEL.cl is a kernel of `--prefetch`: its K-tile loop loads the next tiles into private values
pf1, pf2, ... before the computation and stores each into the other local buffer after it.
  async, asyncl: each of those loads becomes NVIDIA's `cp.async` of 4 bytes, from the global
      element straight into the local element its store would have written, issued where the
      load was; the stores go, and the loop's barrier waits for the copies first
      (`cp.async.wait_all`). Inline PTX: NVIDIA only (sm_80 and later). The local address goes to
      the PTX as a 32-bit register (async) or a 64-bit one (asyncl).
  u1, u2: `#pragma unroll 1` or `2` on the K-tile loop (the compiler's choice otherwise).
  split2, split4 (and split2u2, split4u2 with `#pragma unroll 2` on the K-tile loop): the
      computation of a step is cut into 2 or 4 parts along k, and the next tiles' loads and
      stores with it: part p loads its share of the next tiles before it computes and stores
      them into the other buffer after, so fewer prefetched values are live at once. The other
      buffer was last read before the previous step's barrier, so storing into it mid-step is
      safe.
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
        sys.exit('sgemm_step_variants.py: no prefetch stores (a kernel of --prefetch?)')
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
                    sys.exit(f'sgemm_step_variants.py: cannot split {value}')
                for c, load in enumerate(loads):
                    out.append(f'{indent}cp_async4((local float*)&{dst} + {c}, &{load});')
            else:
                if len(loads) != 1:
                    sys.exit(f'sgemm_step_variants.py: cannot copy {value}')
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


def unroll(src, factor):
    loop = re.search(r'^( *)for \(int i = 0; i < \d+; i \+= 1\) \{$', src, re.M)
    if not loop:
        sys.exit('sgemm_step_variants.py: no K-tile loop')
    return src[:loop.start()] + f'{loop.group(1)}#pragma unroll {factor}\n' + src[loop.start():]


def statements(body, target):
    """Each `pfN = ...;` (target 'load') or `... = pfN;` (target 'store') of the loop body, as
    a block of its own with the l_id_1 and l_id it was written under, keyed by N."""
    found = {}
    lid1 = lid0 = None
    for line in body.split('\n'):
        t = line.strip()
        m = re.match(r'^int l_id_1 = (.*);$', t)
        if m:
            lid1 = m.group(1)
        m = re.match(r'^int l_id = (.*);$', t)
        if m:
            lid0 = m.group(1)
        m = re.match(r'^pf(\d+) = .*;$', t) if target == 'load' else re.match(r'^.* = pf(\d+);$', t)
        if m:
            found[int(m.group(1))] = f'{{ int l_id_1 = {lid1}; int l_id = {lid0}; {t} }}'
    return found


def split(src, parts):
    head = src.index('// the next tiles, loaded into registers')
    compute = src.index('// mapLcl1', head)
    stored = src.index('// stored into the other buffers', compute)
    end = src.index('barrier(CLK_LOCAL_MEM_FENCE);', stored)
    loads = statements(src[head:compute], 'load')
    stores = statements(src[stored:end], 'store')
    if not loads or sorted(loads) != sorted(stores):
        sys.exit('sgemm_step_variants.py: the loads and stores of the next tiles do not match')
    decls = '\n'.join(l for l in src[head:compute].split('\n') if re.match(r'^\s*float4? pf\d+;$', l))
    loop = re.search(r'for \(int j = 0; j < (\d+); j \+= 1\) \{', src[compute:stored])
    steps = int(loop.group(1))
    if steps % parts:
        sys.exit(f'sgemm_step_variants.py: {steps} k steps do not split into {parts}')
    # The pf values of A (float4) and of B (float), each dealt out over the parts in order.
    kinds = {}
    for n in sorted(loads):
        kind = re.search(rf'float4? pf{n};', decls).group(0).split()[0]
        kinds.setdefault(kind, []).append(n)
    share = [[] for _ in range(parts)]
    for ns in kinds.values():
        if len(ns) % parts:
            sys.exit(f'sgemm_step_variants.py: {len(ns)} loads do not split into {parts}')
        per = len(ns) // parts
        for p in range(parts):
            share[p] += ns[p * per:(p + 1) * per]
    block = src[compute:stored]
    out = [decls]
    for p in range(parts):
        lo, hi = p * steps // parts, (p + 1) * steps // parts
        out += [loads[n] for n in share[p]]
        out.append(block.replace(loop.group(0), f'for (int j = {lo}; j < {hi}; j += 1) {{')
                   .replace(f'#pragma unroll {steps}', f'#pragma unroll {hi - lo}'))
        out += [stores[n] for n in share[p]]
    return src[:head] + '\n'.join(out) + '\n' + src[end:]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    variant = sys.argv[3]
    with open(sys.argv[1]) as f:
        src = f.read()
    if variant in ('async', 'asyncl'):
        text = transform(src, 'r' if variant == 'async' else 'l')
    elif variant in ('u1', 'u2'):
        text = unroll(src, variant[1])
    elif re.fullmatch(r'split[24](u2)?', variant):
        text = split(src, int(variant[5]))
        if variant.endswith('u2'):
            text = unroll(text, 2)
    else:
        sys.exit(f'sgemm_step_variants.py: unknown variant {variant}')
    with open(sys.argv[2], 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
