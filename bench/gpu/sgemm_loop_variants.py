"""Hand variants of the best SGEMM kernel's K-tile loop (issue 14, session 24), for
bench/gpu/sgemm-loop-variants.sh: what a branch in the loop, a bound or a start unknown to the
compiler, and the stream-K kernel's parts cost.

usage: sgemm_loop_variants.py KERNEL.cl OUT_DIR NAME...  (writes OUT_DIR/NAME.cl for each NAME)

KERNEL.cl is a kernel of the generator before session 24: its prefetching loop
`for (int i = 0; i < 256; i += 1)` guards the next tiles' loads and stores with
`if (i + 1 < 256)`; a stream-K kernel's shared steps loop to `sk_n`.
  plain kernel:  dyn (the bound a run-time value), off (the K index offset by a run-time 0),
                 dynoff, dynclamp (dyn without the guards, the next index clamped), dynu1 and
                 baseu1 (`#pragma unroll 1`), peel and dynpeel (the last step after the loop),
                 lo (the loop starts at a run-time 0), lo2 (the buffer index from the start),
                 lo3 (`i & 1` for `i % 2`)
  stream-K:      clamp (the shared steps without the guards, the next index clamped), and with
                 `+`: tail (the whole tiles' work-groups return at once), dp (the shared ones do),
                 nofix (no count, no sums of parts: each part written out), nostore (no parts
                 stored either), e.g. clamp+tail+nofix
"""
import re
import sys

RUNTIME_ZERO = '(int)(get_num_groups(2) - 1)'  # 0, but not to the compiler


def declare(s, line):
    return s.replace('      int wg_id = get_group_id(0);\n', '      int wg_id = get_group_id(0);\n' + line + '\n', 1)


def dyn(s):
    s = declare(s, f'      int kt = 256 + {RUNTIME_ZERO};')
    return s.replace('i < 256;', 'i < kt;', 1).replace('i + 1 < 256)', 'i + 1 < kt)')


def off(s):
    s = declare(s, f'      int k0 = {RUNTIME_ZERO};')
    return s.replace('16*i + ', '16*(i + k0) + ').replace('65536*i + ', '65536*(i + k0) + ')


def dynoff(s):
    s = declare(s, f'      int k0 = {RUNTIME_ZERO};\n      int kt = 256 + k0;')
    s = s.replace('i < 256;', 'i < kt;', 1).replace('i + 1 < 256)', 'i + 1 < kt)')
    return s.replace('16*i + ', '16*(i + k0) + ').replace('65536*i + ', '65536*(i + k0) + ')


def unroll1(s, bound):
    loop = f'      for (int i = 0; i < {bound}; i += 1) {{'
    return s.replace(loop, '      #pragma unroll 1\n' + loop, 1)


def dynclamp(s):
    s = dyn(s)
    s = s.replace('      for (int i = 0; i < kt; i += 1) {',
                  '      for (int i = 0; i < kt; i += 1) {\n        int ib = min(i, kt - 2);', 1)
    s = s.replace('        if (i + 1 < kt) {', '        {')
    return s.replace('16*i + ', '16*ib + ').replace('65536*i + ', '65536*ib + ')


def peel(s):
    lines = s.split('\n')
    start = next(i for i, l in enumerate(lines) if re.match(r'\s*for \(int i = 0; i < (\w+); i \+= 1\) \{', l))
    bound = re.match(r'\s*for \(int i = 0; i < (\w+);', lines[start]).group(1)
    depth = 0
    for end in range(start, len(lines)):
        depth += lines[end].count('{') - lines[end].count('}')
        if depth == 0:
            break
    body = lines[start + 1:end]
    ind = re.match(r'(\s*)', lines[start]).group(1)
    return '\n'.join(lines[:start] + [f'{ind}for (int i = 0; i < {bound} - 1; i += 1) {{'] + body +
                     [f'{ind}}}', f'{ind}{{', f'{ind}  int i = {bound} - 1;'] + body + [f'{ind}}}'] +
                     lines[end + 1:])


def lo(s):
    s = declare(s, f'      int lo = {RUNTIME_ZERO};')
    return s.replace('for (int i = 0; i < 256;', 'for (int i = lo; i < 256;', 1)


def lo2(s):
    return lo(s).replace('(i%2)', '((i - lo)%2)').replace('((i + 1)%2)', '((i - lo + 1)%2)')


def lo3(s):
    return lo(s).replace('(i%2)', '(i & 1)').replace('((i + 1)%2)', '((i + 1) & 1)')


def sk_clamp(s):
    s = s.replace('for (int i = 0; i < sk_n; i += 1) {',
                  'for (int i = 0; i < sk_n; i += 1) {\n          int ib = min(i, sk_n - 2);')
    s = s.replace('if (i + 1 < sk_n) {', '{')
    s = s.replace('16*(i + sk_k0 + 1)', '16*(ib + sk_k0 + 1)').replace('65536*(i + sk_k0 + 1)', '65536*(ib + sk_k0 + 1)')
    return s.replace('16*i + 16*sk_k0 +', '16*ib + 16*sk_k0 +')


def sk_parts(s, opts):
    whole = re.search(r'if \(get_group_id\(0\) < (\d+)\) \{', s).group(1)
    if 'tail' in opts:
        s = s.replace('  {\n', f'  {{\n  if (get_group_id(0) < {whole}) return;\n', 1)
    if 'dp' in opts:
        s = s.replace('  {\n', f'  {{\n  if (get_group_id(0) >= {whole}) return;\n', 1)
    if 'nofix' in opts:
        s = s.replace('        mem_fence(CLK_GLOBAL_MEM_FENCE);\n        barrier(CLK_GLOBAL_MEM_FENCE);\n', '')
        s = re.sub(r'sk_arrived1\[0\] = atomic_inc\(&sk_count1\[sk_tile\]\);', 'sk_arrived1[0] = 0;', s)
        s = s.replace('if (sk_arrived1[0] == sk_last - sk_first) {', 'if (1) {')
        s = s.replace('for (int sk_r = sk_first; sk_r <= sk_last;', 'for (int sk_r = sk_first; sk_r < sk_first;')
    if 'nostore' in opts:
        s = re.sub(r'\n *sk_part1\[32768\*sk_g[^\n]*', '', s)
    return s


PLAIN = {
    'dyn': dyn, 'off': off, 'dynoff': dynoff, 'dynclamp': dynclamp,
    'dynu1': lambda s: unroll1(dyn(s), 'kt'), 'baseu1': lambda s: unroll1(s, '256'),
    'peel': peel, 'dynpeel': lambda s: peel(dyn(s)), 'lo': lo, 'lo2': lo2, 'lo3': lo3,
}


def variant(source, name):
    if name in PLAIN:
        return PLAIN[name](source)
    parts = name.split('+')
    s = sk_clamp(source) if parts[0] == 'clamp' else source
    return sk_parts(s, parts[1:] if parts[0] in ('clamp', 'sk') else parts)


if __name__ == '__main__':
    source = open(sys.argv[1]).read()
    for name in sys.argv[3:]:
        with open(f'{sys.argv[2]}/{name}.cl', 'w') as f:
            f.write(variant(source, name))
