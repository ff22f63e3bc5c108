#!/usr/bin/env python3
"""Triton's side of the tutorial benchmark (bench/README.md): Triton's own tutorial kernels, run
from the tutorial files themselves, on the cases bench_tutorials (bench/tutorials.cpp) times
TileKit's ports on. bench/compare.py puts the two outputs side by side.

    python3 bench/tutorials.py [--tutorials DIR] [--only 03,06]
    python3 bench/tutorials.py --show-filter     which top-level statements each file keeps

DIR (default bench/.triton-tutorials, not in git) holds python/tutorials/NN-*.py of a Triton
release and SOURCE.txt, which says which commit they come from.

Output: first {"meta": {...}} (triton, torch, GPU, tutorial source), then one JSON object per case
on stdout: {"tutorial", "case", "impl": "triton", "ms", "metric" ("GB/s" or "TFLOP/s"), "value",
"config", "check"} ("check": "ok", "wrong" or "-" where nothing is compared), or {"tutorial",
"case", "impl", "ms": null, "note"} for a case that could not run (file missing, load failure,
hardware the tutorial needs); a failed case does not stop the others.

Loading a tutorial runs none of its demo, test or benchmark code: the file is parsed with ast and
only these top-level statements run, each on its own, in a fresh module (not "__main__"):
  - imports, function and class definitions (with their decorators: jit, autotune, perf_report);
  - assignments to names, unless the value makes a torch tensor (torch.rand, torch.empty, ...),
    launches a kernel (kernel[grid](...)) or reads a name that a dropped statement binds or
    fills (x = torch.rand(...) drops output = add(x, y) with it);
  - an if or try made only of statements kept by these rules (06's choice of pipeline depths, 05's
    optional apex import), as a whole; never `if __name__ == "__main__"`.
Everything else (expressions, for, while, with, assert, other if blocks) is dropped. Kept lines keep
their line numbers, so triton.jit reads each kernel's source from the tutorial file. A kept
statement that fails (an optional import such as tabulate or pytest) is skipped and reported on
stderr; a case whose wrapper is then missing reports it in its note.

Timing: triton.testing.do_bench with its default warmup and rep, the median (return_mode
"median"); tutorial 11 through triton.testing.do_bench_cudagraph with rep=100, as it does. Every
autotuned kernel forgets its tuned configs before each case, so each case tunes for its own shape
(the tutorials' keys leave out some arguments, e.g. 06's causal stage and 08's matrix sizes);
"config" is the config the autotuner chose, or the variant that was fastest where the tutorial
times several (warp specialization in 06 forward and 09).
"""

import argparse
import ast
import json
import math
import os
import re
import sys
import types

try:
    import torch
    import triton
    import triton.testing
    from triton.runtime.autotuner import Autotuner
except ImportError:  # --show-filter needs neither
    torch = triton = Autotuner = None

DEFAULT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".triton-tutorials")

# torch calls that make a tensor, and so device work, at import
TENSOR_FACTORIES = frozenset({
    "arange", "as_tensor", "empty", "empty_like", "empty_strided", "eye", "from_numpy", "full",
    "full_like", "linspace", "logspace", "manual_seed", "normal", "ones", "ones_like", "rand",
    "rand_like", "randint", "randint_like", "randn", "randn_like", "randperm", "tensor", "zeros",
    "zeros_like"
})
# methods that fill a container in place: a dropped `for` that appends to a list drops its readers
MUTATORS = frozenset({"append", "extend", "insert", "update", "add", "pop", "remove", "clear",
                      "setdefault"})


# --- loading a tutorial without its demo code -------------------------------------------------


def root_name(node):
    """The name at the root of an attribute chain (torch for torch.cuda.is_available), or None."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def eager_work(node):
    """Whether evaluating node launches a kernel (f[grid](...)) or makes a torch tensor."""
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        if isinstance(sub.func, ast.Subscript):
            return True
        if (isinstance(sub.func, ast.Attribute) and sub.func.attr in TENSOR_FACTORIES
                and root_name(sub.func) == "torch"):
            return True
    return False


def outside_defs(node):
    """node and the nodes under it, not descending into a function, class or lambda (whose body
    runs only when called) or a comprehension (whose names are its own)."""
    yield node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
                         ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return
    for child in ast.iter_child_nodes(node):
        yield from outside_defs(child)


def read_names(node):
    """The names node reads, including those read later by lambdas in it."""
    return {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name)
            and isinstance(sub.ctx, ast.Load)}


def bound_names(node):
    """The names node binds or fills in place (x = ..., for x in ..., x.append(...), x[i] = ...,
    def x, import x)."""
    names = set()
    for sub in outside_defs(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, (ast.Subscript, ast.Attribute)) and isinstance(sub.ctx, ast.Store):
            if root_name(sub.value):
                names.add(root_name(sub.value))
        elif (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
              and sub.func.attr in MUTATORS and isinstance(sub.func.value, ast.Name)):
            names.add(sub.func.value.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(sub.name)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in sub.names)
    return names


def is_main_guard(stmt):
    """Whether stmt is `if __name__ == "__main__":`."""
    test = stmt.test
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
            and test.left.id == "__name__" and len(test.comparators) == 1
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def simple_targets(targets):
    """Whether every assignment target is a name, or a tuple or list of names."""
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            if not all(isinstance(e, ast.Name) for e in target.elts):
                return False
        elif not isinstance(target, ast.Name):
            return False
    return True


def judge(stmt, dropped):
    """(keep, reason) for one statement under the rules of the module docstring; dropped holds
    the names that dropped statements bind."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True, "import"
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return True, "definition"
    if isinstance(stmt, ast.Pass):
        return True, "pass"
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if not simple_targets(targets):
            return False, "assigns to more than names"
        if stmt.value is None:
            return True, "annotation"
        if eager_work(stmt.value):
            return False, "makes a tensor or launches a kernel"
        used = read_names(stmt.value) & dropped
        if used:
            return False, "reads " + ", ".join(sorted(used)) + " of a dropped statement"
        return True, "assignment"
    if isinstance(stmt, ast.If):
        if is_main_guard(stmt):
            return False, "__main__ block"
        if eager_work(stmt.test) or read_names(stmt.test) & dropped:
            return False, "condition does work or reads a dropped name"
        return judge_block(stmt.body + stmt.orelse, dropped, "if")
    if isinstance(stmt, ast.Try):
        body = stmt.body + stmt.orelse + stmt.finalbody
        for handler in stmt.handlers:
            body = body + handler.body
        return judge_block(body, dropped, "try")
    return False, "top-level " + type(stmt).__name__.lower()


def judge_block(body, dropped, kind):
    """Keeps an if or try block only when every statement in it would be kept."""
    inner = set(dropped)
    for stmt in body:
        keep, reason = judge(stmt, inner)
        if not keep:
            return False, f"{kind} block holding a dropped statement (line {stmt.lineno}: {reason})"
    return True, kind + " block of kept statements"


def filter_module(tree):
    """[(stmt, keep, reason)] for the top-level statements of a parsed tutorial."""
    plan, dropped = [], set()
    for stmt in tree.body:
        keep, reason = judge(stmt, dropped)
        if not keep:
            dropped |= bound_names(stmt)
        plan.append((stmt, keep, reason))
    return plan


def load_tutorial(path):
    """The tutorial at path as a module, with only its kept statements run, and a list of the kept
    statements that failed."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    plan = filter_module(ast.parse(source, filename=path))
    stem = os.path.splitext(os.path.basename(path))[0]
    name = "triton_tutorial_" + re.sub(r"\W", "_", stem)
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    failed = []
    for stmt, keep, _ in plan:
        if not keep:
            continue
        code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
        try:
            exec(code, module.__dict__)
        except Exception as e:  # an optional import, or a demo helper this GPU lacks
            failed.append(f"line {stmt.lineno}: {type(e).__name__}: {e}")
    return module, failed


def show_filter(directory):
    """Prints, per tutorial file, the top-level statements kept and dropped (no GPU needed)."""
    for stem, _ in TUTORIALS:
        path = os.path.join(directory, stem + ".py")
        if not os.path.exists(path):
            print(f"{stem}: missing")
            continue
        with open(path, encoding="utf-8") as f:
            source = f.read()
        plan = filter_module(ast.parse(source, filename=path))
        kept = [s for s, keep, _ in plan if keep]
        names = sorted(n for s in kept if not isinstance(s, (ast.Import, ast.ImportFrom))
                       for n in bound_names(s))
        print(f"{stem}: keeps {len(kept)} of {len(plan)} statements; defines {', '.join(names)}")
        for stmt, keep, reason in plan:
            if keep and reason in ("import", "definition"):
                continue
            text = ast.get_source_segment(source, stmt).splitlines()[0][:60]
            print(f"  {'keep' if keep else 'drop'} {stmt.lineno:4d} {text:<60} {reason}")


# --- timing and records -----------------------------------------------------------------------


class Unsupported(Exception):
    """The tutorial needs hardware this machine lacks."""


def emit(record):
    print(json.dumps(record), flush=True)


def median_ms(fn, grad_to_none=None):
    """do_bench with its default warmup and rep: the median in ms."""
    return triton.testing.do_bench(fn, grad_to_none=grad_to_none, return_mode="median")


def median_ms_cudagraph(fn, rep=100):
    """do_bench_cudagraph as tutorial 11 calls it: the median in ms."""
    return triton.testing.do_bench_cudagraph(fn, rep=rep, return_mode="median")


def verdict(ok):
    return "ok" if ok else "wrong"


def fresh_autotuning(module):
    """Forgets the tuned configs of every autotuned kernel of module."""
    for obj in list(vars(module).values()):
        if isinstance(obj, Autotuner):
            obj.cache.clear()


def tuned_config(kernel):
    """The config kernel's autotuner chose last, as text ("" when none)."""
    cfg = getattr(kernel, "best_config", None)
    if cfg is None:
        return ""
    parts = [f"{k}={v}" for k, v in cfg.kwargs.items()]
    return " ".join(parts + [f"w{cfg.num_warps}", f"s{cfg.num_stages}"])


def require(module, *names):
    """The module's attributes names; a missing one is an error naming it."""
    missing = [n for n in names if not hasattr(module, n)]
    if missing:
        raise LookupError("tutorial defines no " + ", ".join(missing))
    return [getattr(module, n) for n in names]


def fail(tutorial, case, note):
    emit({"tutorial": tutorial, "case": case, "impl": "triton", "ms": None,
          "note": " ".join(str(note).split())[:300]})


def run_case(tutorial, case, metric, work, measure):
    """Runs measure() -> (ms, check, config) and prints its record; work is bytes (GB/s) or
    floating-point operations (TFLOP/s). A failure prints a record with ms null instead."""
    try:
        ms, check, config = measure()
        value = work / ms * 1e-6 if metric == "GB/s" else work / ms * 1e-9
        emit({"tutorial": tutorial, "case": case, "impl": "triton", "ms": round(ms, 5),
              "metric": metric, "value": round(value, 2), "config": config, "check": check})
    except Exception as e:
        fail(tutorial, case, f"{type(e).__name__}: {e}")
    finally:
        try:
            torch.cuda.synchronize()
            torch.cuda.empty_cache()
        except Exception:
            pass


def fastest(variants, kernel):
    """Times each of [(label, fn)] and returns the fastest as (ms, config): its label and the
    config kernel's autotuner chose for it."""
    results = []
    for label, fn in variants:
        ms = median_ms(fn)
        config = f"{label} {tuned_config(kernel)}".strip()
        print(f"  {config}: {ms:.4f} ms", file=sys.stderr, flush=True)
        results.append((ms, config))
    return min(results)


# --- the cases: each tutorial yields (case, metric, work, measure(module)) ---------------------


def vector_add():
    """01: the tutorial's add(x, y), f32, 12 bytes per element."""
    for n in (2**20, 2**24, 2**27):

        def measure(mod, n=n):
            add, = require(mod, "add")
            x = torch.rand(n, device="cuda")
            y = torch.rand(n, device="cuda")
            check = verdict(torch.equal(add(x, y), x + y))
            return median_ms(lambda: add(x, y)), check, "BLOCK_SIZE=1024"

        yield f"n={n}", "GB/s", 12 * n, measure


def fused_softmax():
    """02: the tutorial's softmax(x), f32 rows, read and written once."""
    M = 4096
    for N in (1024, 4096, 8192):

        def measure(mod, N=N):
            softmax, = require(mod, "softmax")
            x = torch.randn(M, N, device="cuda")
            check = verdict(torch.allclose(softmax(x), torch.softmax(x, axis=1)))
            return median_ms(lambda: softmax(x)), check, ""

        yield f"{M}x{N}", "GB/s", 2 * M * N * 4, measure


def matrix_multiplication():
    """03: the tutorial's matmul(a, b, activation=""), f16, A M x K and B K x N row-major;
    checked against torch.matmul (then leaky ReLU) with atol 1e-2 (the tutorial's) and rtol 1e-2."""
    for n, activation in ((1024, ""), (4096, ""), (4096, "leaky_relu")):

        def measure(mod, n=n, activation=activation):
            matmul, kernel = require(mod, "matmul", "matmul_kernel")
            fresh_autotuning(mod)
            a = torch.randn((n, n), device="cuda", dtype=torch.float16)
            b = torch.randn((n, n), device="cuda", dtype=torch.float16)
            ref = torch.matmul(a, b)
            if activation == "leaky_relu":
                ref = torch.nn.functional.leaky_relu(ref.float(), 0.01).half()
            check = verdict(torch.allclose(matmul(a, b, activation=activation), ref, atol=1e-2,
                                           rtol=1e-2))
            ms = median_ms(lambda: matmul(a, b, activation=activation))
            return ms, check, tuned_config(kernel)

        case = f"{n}x{n}x{n}" + (" " + activation if activation else "")
        yield case, "TFLOP/s", 2 * n**3, measure


def low_memory_dropout():
    """04: the tutorial's seeded_dropout(x, p, seed), f32, 8 bytes per element; checked: every
    output 0 or x / (1 - p), the kept fraction within 1% of 1 - p, the same seed the same mask."""
    n, p, seed = 2**24, 0.5, 123

    def measure(mod):
        seeded_dropout, = require(mod, "seeded_dropout")
        x = torch.randn(n, device="cuda")
        out = seeded_dropout(x, p, seed)
        kept = out != 0
        ok = (torch.allclose(out[kept], x[kept] / (1 - p))
              and abs(kept.float().mean().item() - (1 - p)) < 0.01
              and torch.equal(out, seeded_dropout(x, p, seed)))
        return median_ms(lambda: seeded_dropout(x, p, seed)), verdict(ok), "BLOCK_SIZE=1024"

    yield f"n={n} seeded", "GB/s", 8 * n, measure


def layer_norm():
    """05: the tutorial's layer_norm (LayerNorm.apply), f16, forward and backward as its benchmark
    times them (backward: y.backward(dy, retain_graph=True), grad_to_none=[x]), but with
    do_bench's default rep where it passes rep=500; checked against
    torch.nn.functional.layer_norm, atol 1e-2 (the tutorial's), rtol 1e-2 for dw and db."""
    M, eps = 4096, 1e-5
    for N in (1024, 4096, 8192):

        def inputs(N):
            w_shape = (N, )
            weight = torch.rand(w_shape, dtype=torch.float16, device="cuda", requires_grad=True)
            bias = torch.rand(w_shape, dtype=torch.float16, device="cuda", requires_grad=True)
            x = -2.3 + 0.5 * torch.randn((M, N), dtype=torch.float16, device="cuda")
            dy = .1 * torch.randn_like(x)
            x.requires_grad_(True)
            return w_shape, weight, bias, x, dy

        def forward(mod, N=N):
            fn, = require(mod, "layer_norm")
            w_shape, weight, bias, x, _ = inputs(N)
            y = fn(x, w_shape, weight, bias, eps)
            ref = torch.nn.functional.layer_norm(x, w_shape, weight, bias, eps)
            check = verdict(torch.allclose(y, ref, atol=1e-2, rtol=0))
            return median_ms(lambda: fn(x, w_shape, weight, bias, eps)), check, ""

        def backward(mod, N=N):
            fn, = require(mod, "layer_norm")
            w_shape, weight, bias, x, dy = inputs(N)
            grads = []
            for y in (fn(x, w_shape, weight, bias, eps),
                      torch.nn.functional.layer_norm(x, w_shape, weight, bias, eps)):
                y.backward(dy, retain_graph=True)
                grads.append([t.grad.clone() for t in (x, weight, bias)])
                x.grad = weight.grad = bias.grad = None
            (dx, dw, db), (rdx, rdw, rdb) = grads
            check = verdict(torch.allclose(dx, rdx, atol=1e-2, rtol=0)
                            and torch.allclose(dw, rdw, atol=1e-2, rtol=1e-2)
                            and torch.allclose(db, rdb, atol=1e-2, rtol=1e-2))
            y = fn(x, w_shape, weight, bias, eps)
            ms = median_ms(lambda: y.backward(dy, retain_graph=True), grad_to_none=[x])
            return ms, check, ""

        yield f"{M}x{N} forward", "GB/s", 2 * M * N * 2, forward
        yield f"{M}x{N} backward", "GB/s", 3 * M * N * 2, backward


def fused_attention():
    """06: the tutorial's attention(q, k, v, causal, sm_scale, warp_specialize), f16 [B, H, S, D],
    sm_scale 1/sqrt(D); forward with the warp-specialization settings its benchmark times (both on
    Hopper without causal masking, and on Blackwell; the faster is reported), backward (its
    o.backward(do, retain_graph=True)) without. Checked against
    torch.nn.functional.scaled_dot_product_attention: atol 1e-2 (the tutorial's), and rtol 1e-2
    for the gradients."""
    B, H, S = 4, 32, 4096
    for D in (64, 128):
        for causal in (False, True):
            for mode in ("fwd", "bwd"):

                def measure(mod, D=D, causal=causal, mode=mode):
                    attention, kernel, is_hopper, is_blackwell = require(
                        mod, "attention", "_attn_fwd", "is_hopper", "is_blackwell")
                    fresh_autotuning(mod)
                    sm_scale = 1.0 / math.sqrt(D)
                    q, k, v = (torch.randn((B, H, S, D), dtype=torch.float16, device="cuda",
                                           requires_grad=True) for _ in range(3))
                    sdpa = torch.nn.functional.scaled_dot_product_attention
                    if mode == "fwd":
                        ws = is_blackwell() or (is_hopper() and not causal)
                        variants = [(f"warp_specialize={w}",
                                     lambda w=w: attention(q, k, v, causal, sm_scale, w))
                                    for w in ([False, True] if ws else [False])]
                        with torch.no_grad():
                            ref = sdpa(q, k, v, is_causal=causal, scale=sm_scale)
                            ok = all(torch.allclose(fn(), ref, atol=1e-2, rtol=0)
                                     for _, fn in variants)
                        del ref
                        ms, config = fastest(variants, kernel)
                        return ms, verdict(ok), config
                    do = torch.randn_like(q)
                    grads = []
                    for o in (attention(q, k, v, causal, sm_scale, False),
                              sdpa(q, k, v, is_causal=causal, scale=sm_scale)):
                        o.backward(do, retain_graph=True)
                        grads.append([t.grad.clone() for t in (q, k, v)])
                        q.grad = k.grad = v.grad = None
                    check = verdict(all(torch.allclose(g, r, atol=1e-2, rtol=1e-2)
                                        for g, r in zip(*grads)))
                    del grads
                    o = attention(q, k, v, causal, sm_scale, False)
                    ms = median_ms(lambda: o.backward(do, retain_graph=True))
                    return ms, check, "warp_specialize=False"

                flops = 2 * (2.0 * B * H * S * S * D)
                if causal:
                    flops *= 0.5
                if mode == "bwd":
                    flops *= 2.5
                case = f"D={D} {'causal' if causal else 'full'} {mode}"
                yield case, "TFLOP/s", flops, measure


def extern_functions():
    """07: the tutorial's asin_kernel[grid](x, y, n, BLOCK_SIZE=1024) (libdevice asin), f32 x
    uniform in [-1, 1]; checked against torch.asin."""
    n = 2**24

    def measure(mod):
        kernel, = require(mod, "asin_kernel")
        x = torch.rand(n, device="cuda") * 2 - 1
        y = torch.empty_like(x)
        grid = (triton.cdiv(n, 1024), )
        run = lambda: kernel[grid](x, y, n, BLOCK_SIZE=1024)
        run()
        check = verdict(torch.allclose(y, torch.asin(x), atol=1e-6, rtol=1e-5))
        return median_ms(run), check, "BLOCK_SIZE=1024"

    yield f"n={n} asin", "GB/s", 8 * n, measure


def grouped_gemm():
    """08: a group of 4 f16 N x N x N products through the tutorial's grouped_matmul_kernel,
    timed as its benchmark does: triton_perf_fn on device pointer tables built once (its
    group_gemm_fn also builds and uploads the tables on every call); checked with group_gemm_fn
    against torch.matmul, the tutorial's atol and rtol 1e-2."""
    G = 4
    for N in (512, 1024, 2048):

        def measure(mod, N=N):
            perf_fn, gemm_fn, kernel = require(mod, "triton_perf_fn", "group_gemm_fn",
                                               "grouped_matmul_kernel")
            fresh_autotuning(mod)
            group_a = [torch.rand((N, N), device="cuda", dtype=torch.float16) for _ in range(G)]
            group_b = [torch.rand((N, N), device="cuda", dtype=torch.float16) for _ in range(G)]
            group_c = [torch.empty((N, N), device="cuda", dtype=torch.float16) for _ in range(G)]
            check = verdict(all(
                torch.allclose(c, torch.matmul(a, b), atol=1e-2, rtol=1e-2)
                for a, b, c in zip(group_a, group_b, gemm_fn(group_a, group_b))))
            ptrs = [torch.tensor([t.data_ptr() for t in group], device="cuda")
                    for group in (group_a, group_b, group_c)]
            sizes = torch.tensor([N] * 3 * G, dtype=torch.int32, device="cuda")
            lds = torch.tensor([N] * 3 * G, dtype=torch.int32, device="cuda")
            ms = median_ms(lambda: perf_fn(*ptrs, sizes, lds, G))
            return ms, check, tuned_config(kernel)

        yield f"{G}x{N}x{N}x{N}", "TFLOP/s", G * 2 * N**3, measure


def persistent_matmul():
    """09: f16 8192 x 8192 x 4096. "persistent": the tutorial's matmul_persistent(a, b), B K x N
    row-major (its benchmark passes an N x K matrix transposed); "descriptor persistent": its
    matmul_descriptor_persistent(a, b, warp_specialize), B N x K row-major as the tutorial passes
    it, with and without warp specialization where it supports it (the faster is reported).
    Checked against torch.matmul with the tutorial's atol 1.0."""
    M, N, K = 8192, 8192, 4096
    for descriptor in (False, True):

        def measure(mod, descriptor=descriptor):
            fresh_autotuning(mod)
            a = torch.randn((M, K), device="cuda", dtype=torch.float16)
            if not descriptor:
                matmul, kernel = require(mod, "matmul_persistent", "matmul_kernel_persistent")
                b = torch.randn((K, N), device="cuda", dtype=torch.float16)
                check = verdict(torch.allclose(matmul(a, b), torch.matmul(a, b), atol=1.0))
                return median_ms(lambda: matmul(a, b)), check, tuned_config(kernel)
            matmul, kernel, has_ws = require(mod, "matmul_descriptor_persistent",
                                             "matmul_kernel_descriptor_persistent",
                                             "HAS_WARP_SPECIALIZE")
            if not getattr(mod, "HAS_TENSOR_DESC", False):
                raise Unsupported("tensor descriptors need compute capability 9 or more")
            bt = torch.randn((N, K), device="cuda", dtype=torch.float16)
            variants = [(f"warp_specialize={ws}", lambda ws=ws: matmul(a, bt, ws))
                        for ws in ([False, True] if has_ws else [False])]
            ref = torch.matmul(a, bt.T)
            ok = all(torch.allclose(fn(), ref, atol=1.0) for _, fn in variants)
            del ref
            ms, config = fastest(variants, kernel)
            return ms, verdict(ok), config

        case = f"{M}x{N}x{K} " + ("descriptor persistent" if descriptor else "persistent")
        yield case, "TFLOP/s", 2 * M * N * K, measure


def block_scaled_matmul():
    """10: mxfp8 8192^3 through the tutorial's initialize_block_scaled and block_scaled_matmul
    (f16 output); its kernel needs compute capability 10 (tcgen05 scaled MMA). Checked against
    the tutorial's reference with its atol and rtol 1e-3."""
    M = N = K = 8192

    def measure(mod):
        init, matmul, supported = require(mod, "initialize_block_scaled", "block_scaled_matmul",
                                          "supports_block_scaling")
        major, minor = torch.cuda.get_device_capability()
        if major != 10 or not supported():
            raise Unsupported("the tutorial's block-scaled kernel needs compute capability 10; "
                              f"this GPU is {major}.{minor}")
        a_desc, a_scale, b_desc, b_scale, rep_m, rep_n, rep_k, configs, ref = init(
            M, N, K, "mxfp8", compute_reference=True)
        run = lambda: matmul(a_desc, a_scale, b_desc, b_scale, torch.float16, M, N, K, rep_m, rep_n,
                             rep_k, configs)
        check = verdict(torch.allclose(run().float(), ref, atol=1e-3, rtol=1e-3))
        del ref
        config = (f"{configs['BLOCK_SIZE_M']}x{configs['BLOCK_SIZE_N']}x{configs['BLOCK_SIZE_K']}"
                  f" s{configs['num_stages']}")
        return median_ms(run), check, config

    yield f"{M}x{N}x{K} mxfp8", "TFLOP/s", 2 * M * N * K, measure


def programmatic_dependent_launch():
    """11: the tutorial's add(x, y, launch_pdl), f32, 12 bytes per element, timed as it does with
    do_bench_cudagraph (rep 100)."""
    for n in (2**23, 2**25, 2**27):
        for pdl in (True, False):

            def measure(mod, n=n, pdl=pdl):
                add, supports_pdl = require(mod, "add", "supports_pdl")
                if pdl and not supports_pdl():
                    raise Unsupported("PDL needs compute capability 9 or more")
                x = torch.rand(n, device="cuda")
                y = torch.rand(n, device="cuda")
                check = verdict(torch.equal(add(x, y, pdl), x + y))
                return median_ms_cudagraph(lambda: add(x, y, pdl)), check, f"launch_pdl={pdl}"

            yield f"n={n} {'pdl' if pdl else 'plain'}", "GB/s", 12 * n, measure


TUTORIALS = [
    ("01-vector-add", vector_add),
    ("02-fused-softmax", fused_softmax),
    ("03-matrix-multiplication", matrix_multiplication),
    ("04-low-memory-dropout", low_memory_dropout),
    ("05-layer-norm", layer_norm),
    ("06-fused-attention", fused_attention),
    ("07-extern-functions", extern_functions),
    ("08-grouped-gemm", grouped_gemm),
    ("09-persistent-matmul", persistent_matmul),
    ("10-block-scaled-matmul", block_scaled_matmul),
    ("11-programmatic-dependent-launch", programmatic_dependent_launch),
]


# --- driver -----------------------------------------------------------------------------------


def read_source(directory):
    """SOURCE.txt of the tutorial directory as a dict ("key: value" lines)."""
    info = {}
    try:
        with open(os.path.join(directory, "SOURCE.txt"), encoding="utf-8") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep:
                    info[key.strip()] = value.strip()
    except OSError:
        info["error"] = "no SOURCE.txt in " + directory
    return info


def meta(directory):
    gpu, capability = None, None
    if torch.cuda.is_available():
        gpu = torch.cuda.get_device_name()
        capability = "%d.%d" % torch.cuda.get_device_capability()
    return {"meta": {"triton": triton.__version__, "torch": torch.__version__, "gpu": gpu,
                     "capability": capability, "tutorials": read_source(directory)}}


def run_tutorial(directory, stem, cases):
    """Loads one tutorial and runs its cases; without the file or a GPU, or when it does not
    load, every case gets a record with ms null."""
    path = os.path.join(directory, stem + ".py")
    cases = list(cases())
    note = None
    if not os.path.exists(path):
        note = f"no {stem}.py in {directory}"
    elif not torch.cuda.is_available():
        note = "no CUDA device for torch"
    else:
        print(f"{stem}: loading {path}", file=sys.stderr, flush=True)
        try:
            module, failed = load_tutorial(path)
        except Exception as e:
            note = f"load failed: {type(e).__name__}: {e}"
        else:
            for line in failed:
                print(f"  {stem}: skipped {line}", file=sys.stderr, flush=True)
    for case, metric, work, measure in cases:
        if note is not None:
            fail(stem, case, note)
            continue
        print(f"{stem} {case}", file=sys.stderr, flush=True)
        torch.manual_seed(0)
        run_case(stem, case, metric, work, lambda measure=measure: measure(module))


def parse_args(argv):
    parser = argparse.ArgumentParser(description="Times Triton's own tutorial kernels on the cases "
                                     "of bench/tutorials.cpp; JSON lines on stdout.")
    parser.add_argument("--tutorials", default=DEFAULT_DIR, metavar="DIR",
                        help="directory of the tutorial files (default: %(default)s)")
    parser.add_argument("--only", default="", metavar="NN,NN",
                        help="the tutorials to run by number, e.g. 03,06 (default: all)")
    parser.add_argument("--show-filter", action="store_true",
                        help="print the top-level statements each tutorial keeps and drops, "
                        "then exit (needs neither torch nor triton)")
    return parser.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.show_filter:
        show_filter(args.tutorials)
        return 0
    if torch is None or triton is None:
        print("tutorials.py needs torch and triton", file=sys.stderr)
        return 77
    only = {n.strip().zfill(2) for n in args.only.split(",") if n.strip()}
    emit(meta(args.tutorials))
    for stem, cases in TUTORIALS:
        if only and stem[:2] not in only:
            continue
        run_tutorial(args.tutorials, stem, cases)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
