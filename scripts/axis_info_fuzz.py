#!/usr/bin/env python3
"""Random soundness check of the AxisInfo analysis (lib/Analysis/AxisInfo.cpp, docs/backend.md).

Generates small random kernels of i32 index arithmetic on 1-D and 2-D blocks (make_range, splat,
expand_dims, broadcast, trans, reshape, arith binary ops, cmpi, select), runs
`tk-opt -tk-test-print-axis-info`, evaluates each kernel on random arguments (multiples of 16
where the argument carries tk.divisibility) and checks every claimed contiguity, divisibility,
constancy and constant. Kernels whose values overflow i32 are skipped (the analysis assumes index
arithmetic does not overflow).

    python3 scripts/axis_info_fuzz.py build/ci/bin/tk-opt [first_seed] [last_seed]
"""
import itertools
import random
import re
import subprocess
import sys
import tempfile

M32 = 1 << 32
def s32(x):
    x %= M32
    return x - M32 if x >= (1 << 31) else x
def u32(x): return x % M32
def cdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
def crem(a, b): return a - b * cdiv(a, b)

BIN = ['addi','subi','muli','divui','divsi','remui','remsi','andi','ori','xori','shli','shrui','shrsi',
       'minsi','maxsi','minui','maxui']
CMP = ['slt','sge','sgt','sle','ult','uge','ugt','ule','eq','ne']
def evalbin(op, a, b):
    if op == 'addi': return a + b
    if op == 'subi': return a - b
    if op == 'muli': return a * b
    if op == 'divui': return s32(u32(a) // u32(b))
    if op == 'divsi': return cdiv(a, b)
    if op == 'remui': return s32(u32(a) % u32(b))
    if op == 'remsi': return crem(a, b)
    if op == 'andi': return s32(a & b)
    if op == 'ori': return s32(a | b)
    if op == 'xori': return s32(a ^ b)
    if op == 'shli': return a << b
    if op == 'shrui': return s32(u32(a) >> b)
    if op == 'shrsi': return a >> b
    if op == 'minsi': return min(a, b)
    if op == 'maxsi': return max(a, b)
    if op == 'minui': return s32(min(u32(a), u32(b)))
    if op == 'maxui': return s32(max(u32(a), u32(b)))
def evalcmp(p, a, b):
    ua, ub = u32(a), u32(b)
    return int({'slt':a<b,'sge':a>=b,'sgt':a>b,'sle':a<=b,'ult':ua<ub,'uge':ua>=ub,'ugt':ua>ub,'ule':ua<=ub,'eq':a==b,'ne':a!=b}[p])

def ty(shape, e='i32'): return 'tensor<' + 'x'.join(map(str, shape)) + f'x{e}>'
def idx(shape):
    return list(itertools.product(*[range(s) for s in shape]))
def gen(seed):
    rng = random.Random(seed)
    lines = []; vals = []
    argdiv = [rng.choice([True, False]) for _ in range(3)]
    lines.append('func.func @f(' + ', '.join(f'%a{i}: i32' + (' {tk.divisibility = 16 : i32}' if argdiv[i] else '') for i in range(3)) + ') {')
    pool = {}  # (shape, kind) -> list of (name, fn)
    cnt = [0]
    def new(text, shape, kind, fn):
        name = f'%v{cnt[0]}'; cnt[0] += 1
        lines.append(f'  {name} = {text}')
        vals.append((name, shape, kind, fn, len(lines)))
        pool.setdefault((shape, kind), []).append((name, fn))
        return name
    shapes1 = [(4,), (8,)]
    for _ in range(rng.randint(8, 20)):
        r = rng.random()
        keys = [k for k in pool if k[1] == 'i32']
        if r < 0.12 or not keys:
            n = rng.choice([4, 8]); start = rng.choice([0, 0, 8, 16, 4, -8, 3])
            new(f'"tk.make_range"() <{{end = {start+n} : i32, start = {start} : i32}}> : () -> {ty((n,))}', (n,), 'i32',
                lambda env, s=start, n=n: [s + i for i in range(n)])
            continue
        if r < 0.2:
            a = rng.randrange(3); sh = rng.choice([(4,), (8,), (4, 8), (4, 1), (1, 8)])
            n = 1
            for s in sh: n *= s
            new(f'"tk.splat"(%a{a}) : (i32) -> {ty(sh)}', sh, 'i32', lambda env, a=a, n=n: [env[a]] * n)
            continue
        if r < 0.3:
            cands = [k for k in keys if len(k[0]) == 1]
            if cands:
                k = rng.choice(cands); (an, af) = rng.choice(pool[k]); n = k[0][0]; ax = rng.randrange(2)
                sh = (1, n) if ax == 0 else (n, 1)
                new(f'"tk.expand_dims"({an}) <{{axis = {ax} : i32}}> : ({ty(k[0])}) -> {ty(sh)}', sh, 'i32', af)
            continue
        if r < 0.38:
            cands = [k for k in keys if k[0] in ((4, 1), (1, 8))]
            if cands:
                k = rng.choice(cands); (an, af) = rng.choice(pool[k])
                if k[0] == (4, 1):
                    fn = lambda env, af=af: [af(env)[i] for i in range(4) for j in range(8)]
                else:
                    fn = lambda env, af=af: [af(env)[j] for i in range(4) for j in range(8)]
                new(f'"tk.broadcast"({an}) : ({ty(k[0])}) -> {ty((4, 8))}', (4, 8), 'i32', fn)
            continue
        if r < 0.43:
            cands = [k for k in keys if k[0] == (4, 8)]
            if cands:
                k = rng.choice(cands); (an, af) = rng.choice(pool[k])
                if rng.random() < 0.5:
                    new(f'"tk.trans"({an}) <{{order = array<i32: 1, 0>}}> : ({ty((4, 8))}) -> {ty((8, 4))}', (8, 4), 'i32',
                        lambda env, af=af: [af(env)[i * 8 + j] for j in range(8) for i in range(4)])
                else:
                    new(f'"tk.reshape"({an}) : ({ty((4, 8))}) -> {ty((32,))}', (32,), 'i32', af)
            continue
        if r < 0.47:
            cands = [k for k in keys if k[0] in ((1, 8), (4, 1))]
            if cands:
                k = rng.choice(cands); (an, af) = rng.choice(pool[k]); n = k[0][0] * k[0][1]
                new(f'"tk.reshape"({an}) : ({ty(k[0])}) -> {ty((n,))}', (n,), 'i32', af)
            continue
        k = rng.choice(keys); sh = k[0]; (an, af) = rng.choice(pool[k]); n = len(af([0, 0, 0]))
        if r < 0.8:
            op = rng.choice(BIN)
            if op in ('divui','divsi','remui','remsi','shli','shrui','shrsi'):
                c = rng.choice([1, 2, 4, 8, 16, 3, 12]) if op[0] in 'dr' else rng.choice([0, 1, 2, 3])
                bn = new(f'arith.constant dense<{c}> : {ty(sh)}', sh, 'i32', lambda env, c=c, n=n: [c] * n)
                bf = pool[(sh, 'i32')][-1][1]
            else:
                (bn, bf) = rng.choice(pool[k])
            new(f'arith.{op} {an}, {bn} : {ty(sh)}', sh, 'i32', lambda env, op=op, af=af, bf=bf: [evalbin(op, x, y) for x, y in zip(af(env), bf(env))])
        elif r < 0.92:
            p = rng.choice(CMP); (bn, bf) = rng.choice(pool[k])
            new(f'arith.cmpi {p}, {an}, {bn} : {ty(sh)}', sh, 'i1', lambda env, p=p, af=af, bf=bf: [evalcmp(p, x, y) for x, y in zip(af(env), bf(env))])
        elif (sh, 'i1') in pool:
            (cn, cf) = rng.choice(pool[(sh, 'i1')]); (bn, bf) = rng.choice(pool[k])
            new(f'arith.select {cn}, {an}, {bn} : {ty(sh, "i1")}, {ty(sh)}', sh, 'i32', lambda env, cf=cf, af=af, bf=bf: [x if c else y for c, x, y in zip(cf(env), af(env), bf(env))])
    lines.append('  func.return'); lines.append('}')
    return '\n'.join(lines) + '\n', vals, argdiv, rng

rx = re.compile(r':(\d+):\d+: remark: contiguity = \[([\d, ]+)\], divisibility = \[([\d, ]+)\], constancy = \[([\d, ]+)\], constant_value = (\S+)')
def check(seed):
    text, vals, argdiv, rng = gen(seed)
    with tempfile.NamedTemporaryFile('w', suffix='.mlir') as f:
        f.write(text)
        f.flush()
        out = subprocess.run([TKOPT, f.name, '-tk-test-print-axis-info', '-mlir-print-op-on-diagnostic=false', '-o', '/dev/null'],
                             capture_output=True, text=True)
    if out.returncode != 0:
        print('tk-opt failed', seed, out.stderr[:3000], text); return False
    facts = {}
    for m in rx.finditer(out.stderr):
        facts[int(m.group(1))] = tuple([int(x) for x in m.group(i).split(', ')] for i in (2, 3, 4)) + (m.group(5),)
    for trial in range(20):
        env = [rng.randrange(-300, 300) * (16 if argdiv[i] else 1) for i in range(3)]
        for (name, shape, kind, fn, line) in vals:
            v = fn(env)
            if any(abs(x) >= (1 << 31) for x in v): return True
            C, D, K, cv = facts[line]
            strides = [1] * len(shape)
            for d in range(len(shape) - 2, -1, -1): strides[d] = strides[d + 1] * shape[d + 1]
            at = lambda ix: v[sum(i * s for i, s in zip(ix, strides))]
            bad = None
            for d in range(len(shape)):
                for ix in idx(shape):
                    i = ix[d]
                    if i % C[d] == 0:
                        x0 = at(ix)
                        if (D[d] < M32 and x0 % D[d]) or (D[d] >= M32 and x0 % M32): bad = f'div dim {d} at {ix}'
                    if (i + 1) % C[d] != 0 and i + 1 < shape[d]:
                        nx = list(ix); nx[d] += 1
                        if s32(at(ix) + 1) != at(tuple(nx)): bad = f'contig dim {d} at {ix}'
                    if (i + 1) % K[d] != 0 and i + 1 < shape[d]:
                        nx = list(ix); nx[d] += 1
                        if at(ix) != at(tuple(nx)): bad = f'const dim {d} at {ix}'
            if cv != '<none>' and any(x != int(cv) for x in v): bad = 'constant'
            if bad:
                print(f'UNSOUND seed={seed} {name} line {line} {C} {D} {K}: {bad}\n values={v}\n env={env}\n{text}')
                return False
    return True


def main():
    global TKOPT
    TKOPT = sys.argv[1]
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    last = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    failures = sum(not check(seed) for seed in range(first, last))
    print(f"axis_info_fuzz: seeds {first}..{last - 1}: {failures} unsound")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
