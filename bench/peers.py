#!/usr/bin/env python3
"""The peers' side of the side-by-side benchmarks (bench/README.md): Triton kernels written as in
the Triton tutorials, and PyTorch eager, on the workloads bench_gpu runs through TileKit's runtime.

One JSON object per line on stdout ({"bench", "shape", "impl", "ms", "gbps", "bytes", "config",
"check"}, or "ms"/"us" alone for cold compile and launch overhead), a readable table on stderr.
bench/compare.py puts this beside bench_gpu's output.

Timing matches bench_gpu: CUDA events on the current stream around each run, median of 20 after
3 warm-up runs; every buffer is 512 MiB or more, far beyond the L2 cache. Inputs are random.

    python3 bench/peers.py            all benchmarks but matmul
    python3 bench/peers.py --matmul   matmul only: the Triton tutorial's kernel (its autotune
                                      configs swept by hand), in this process (wgmma on Hopper)
                                      and in a child with DISABLE_MMA_V3=1 (mma.sync), and
                                      torch.matmul (cuBLAS; torch._int_mm for int8,
                                      torch._scaled_mm with unit scales for fp8); TFLOP/s,
                                      bounded by TK_BENCH_MATMUL_SECONDS (default 300) per process
    python3 bench/peers.py --attention  flash attention forward, bf16 B4 H32 S4096 D128, causal and
                                      not: a Triton kernel written as the fused-attention tutorial's
                                      forward (two stages, exp2, pointer loads), the same through
                                      host tensor descriptors as the tutorial writes it for Hopper
                                      ("triton descriptor", sm_90+), their block sizes, warps and
                                      stages swept by hand, and
                                      torch.nn.functional.scaled_dot_product_attention; TFLOP/s
    python3 bench/peers.py --matmul-descriptor  Triton's tutorial kernel, the same through tensor
                                      descriptors ("triton descriptor", sm_90+: B given N x K,
                                      descriptors made on the device), its persistent form
                                      ("triton persistent") and torch, for the dtypes
                                      of TK_BENCH_MATMUL_DTYPES (set it to fp16,bf16,fp8)
    python3 bench/peers.py --cold-compile  only the cold compile: a fresh process's first call
                                      of each kernel bench_gpu --cold-compile launches, with an
                                      empty TRITON_CACHE_DIR and with a warm one, median of
                                      TK_BENCH_COLD_REPS (default 5) processes each
    python3 bench/peers.py --w4a16  the int4-weight matmul of examples/kernels/w4a16_matmul.hpp in
                                      Triton, the tutorial's f16 matmul on the same weights
                                      dequantized and torch.matmul, L2 cleared before each run
    python3 bench/peers.py --sampling  top-k / top-p sampling of examples/kernels/sampling.hpp in
                                      Triton (tl.topk on packed i64 keys) and the same draw in
                                      PyTorch eager
    python3 bench/peers.py --cold NAME  (internal) one first call of the cold kernel NAME
    python3 bench/peers.py --matmul-child  (internal) the Triton matmuls alone, as "triton mma.sync"
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl

try:  # host-encoded tensor maps, as the fused-attention tutorial uses on Hopper
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:  # an older Triton: the descriptor peer is left out
    TensorDescriptor = None

GIB = 1 << 30
VECTOR_BLOCK = 1024
COLD_N = 1 << 20
LAUNCHES = 20000


# --- Triton kernels, as in the tutorials ------------------------------------------------------


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def fused_chain_kernel(a_ptr, b_ptr, c_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # out = (a * b + c) * sigmoid(a), as bench_gpu's fused_chain.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    c = tl.load(c_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, (a * b + c) * tl.sigmoid(a), mask=mask)


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    row = tl.load(input_ptrs, mask=col_offsets < n_cols, other=-float("inf"))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    tl.store(output_row_start_ptr + col_offsets, softmax_output, mask=col_offsets < n_cols)


@triton.jit
def layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Mean.
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Variance.
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize and apply the linear transformation.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                  ACC_INT32: tl.constexpr):
    """The tutorial's matmul (03-matrix-multiplication), with an i32 accumulator for int8."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    if ACC_INT32:
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32)
    else:
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        if ACC_INT32:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0)
        else:  # a float zero: Triton casts no int32 block to fp8
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        # tl.dot's out_dtype defaults to float32; an i32 accumulator needs it said.
        accumulator = tl.dot(a, b, accumulator, out_dtype=accumulator.dtype)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_bias_relu_kernel(c_ptr, a_ptr, b_ptr, bias_ptr, M, N, K, stride_am, stride_bk,
                            stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """C = relu(A B + bias), every edge masked: bench_gpu's matmul_bias_relu."""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    first_pid_m = pid // num_pid_in_group * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr):
    """The tutorial's matmul through tensor descriptors (09-persistent-matmul's descriptor
    kernel, not persistent): A M x K, B N x K (K contiguous), C M x N, all row-major."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_SIZE_K)):
        a = a_desc.load([pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K])
        b = b_desc.load([pid_n * BLOCK_SIZE_N, k * BLOCK_SIZE_K])
        accumulator = tl.dot(a, b.T, accumulator)
    c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N],
                 accumulator.to(c_desc.dtype))


@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr):
    """matmul_descriptor_kernel as a persistent kernel (09-persistent-matmul's descriptor kernel
    without its flattened loops): one program per SM at most, each walking tiles pid,
    pid + num_programs, ..."""
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1],
                                       block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N])
    for tile in range(tl.program_id(0), num_pid_m * num_pid_n, tl.num_programs(0)):
        group_id = tile // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + ((tile % num_pid_in_group) % group_size_m)
        pid_n = (tile % num_pid_in_group) // group_size_m
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(tl.cdiv(K, BLOCK_SIZE_K)):
            a = a_desc.load([pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K])
            b = b_desc.load([pid_n * BLOCK_SIZE_N, k * BLOCK_SIZE_K])
            accumulator = tl.dot(a, b.T, accumulator)
        c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N],
                     accumulator.to(c_desc.dtype))


def _cfg(m, n, k, g, stages, warps):
    return {"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g,
            "num_stages": stages, "num_warps": warps}


# The tutorial's get_cuda_autotune_config(): the fp16 list (also used for bf16 and tf32) and its
# fp8 list (8-bit inputs, used for int8). bench_gpu sweeps the first ones for TileKit.
MATMUL_CONFIGS = [
    _cfg(128, 256, 64, 8, 3, 8), _cfg(64, 256, 32, 8, 4, 4), _cfg(128, 128, 32, 8, 4, 4),
    _cfg(128, 64, 32, 8, 4, 4), _cfg(64, 128, 32, 8, 4, 4), _cfg(128, 32, 32, 8, 4, 4),
    _cfg(64, 32, 32, 8, 5, 2), _cfg(32, 64, 32, 8, 5, 2),
]
MATMUL_CONFIGS_8BIT = [
    _cfg(128, 256, 128, 8, 3, 8), _cfg(256, 128, 128, 8, 3, 8), _cfg(256, 64, 128, 8, 4, 4),
    _cfg(64, 256, 128, 8, 4, 4), _cfg(128, 128, 128, 8, 4, 4), _cfg(128, 64, 64, 8, 4, 4),
    _cfg(64, 128, 64, 8, 4, 4), _cfg(128, 32, 64, 8, 4, 4),
]
MATMUL_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 8192, 512)]
MATMUL_DTYPES = ["fp16", "bf16", "tf32", "int8", "fp8"]


# --- Measuring and reporting ------------------------------------------------------------------

copy_gbps = 0.0


def median_ms(fn, warmup=3, reps=20, before=None):
    """Median milliseconds of fn(), each run timed with CUDA events on the current stream;
    before(), when given, runs ahead of each timed run, outside the events."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    times = []
    for start, stop in zip(starts, stops):
        if before is not None:
            before()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def emit(record):
    print(json.dumps(record), flush=True)


def report(bench, shape, impl, ms, nbytes, config="", check="-"):
    gbps = nbytes / ms / 1e6
    emit({"bench": bench, "shape": shape, "impl": impl, "ms": round(ms, 5), "gbps": round(gbps, 1),
          "bytes": nbytes, "config": config, "check": check})
    of_copy = 100 * gbps / copy_gbps if copy_gbps else 0.0
    print(f"| {bench:<12} | {shape:<24} | {impl:<8} | {ms:9.4f} | {gbps:7.1f} | {of_copy:5.1f}% "
          f"| {config:<22} | {check}", file=sys.stderr, flush=True)


def report_time(bench, shape, impl, unit, value, config=""):
    emit({"bench": bench, "shape": shape, "impl": impl, unit: round(value, 4), "config": config})
    print(f"| {bench:<14} | {shape:<34} | {impl:<8} | {value:10.3f} {unit} | {config}",
          file=sys.stderr, flush=True)


def verdict(ok):
    return "ok" if ok else "MISMATCH"


def best_of(configs, run, label):
    """The fastest of configs (each a dict of launch parameters) as (ms, config)."""
    best = None
    for cfg in configs:
        ms = median_ms(lambda: run(cfg))
        print(f"  {label}, {cfg}: {ms:.4f} ms", file=sys.stderr, flush=True)
        if best is None or ms < best[0]:
            best = (ms, cfg)
    return best


def config_text(cfg):
    return " ".join(f"{'BLOCK' if k == 'BLOCK_SIZE' else k.replace('num_', '')}={v}"
                    for k, v in cfg.items())


def guarded(fn):
    """Runs one benchmark; a failure is reported and the others still run."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - report and go on
        print(f"{fn.__name__} failed: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    torch.cuda.empty_cache()


# --- The benchmarks ---------------------------------------------------------------------------


def rand(shape, lo, hi, dtype=torch.float32):
    return (torch.rand(shape, device="cuda", dtype=torch.float32) * (hi - lo) + lo).to(dtype)


def bench_copy():
    global copy_gbps
    src = rand(GIB // 4, -4, 4)
    dst = torch.empty_like(src)
    ms = median_ms(lambda: dst.copy_(src))
    copy_gbps = 2 * GIB / ms / 1e6
    report("copy", "1 GiB", "torch", ms, 2 * GIB, "Tensor.copy_")


def bench_vector_add():
    n = 1 << 28
    x, y = rand(n, -4, 4), rand(n, -4, 4)
    out = torch.empty_like(x)
    grid = (triton.cdiv(n, VECTOR_BLOCK),)
    ms = median_ms(lambda: add_kernel[grid](x, y, out, n, BLOCK_SIZE=VECTOR_BLOCK))
    want = x + y
    report("vector_add", "2^28 f32", "triton", ms, 12 * n, f"BLOCK={VECTOR_BLOCK} warps=4",
           verdict(torch.equal(out, want)))
    ms = median_ms(lambda: torch.add(x, y, out=out))
    report("vector_add", "2^28 f32", "torch", ms, 12 * n, "torch.add(out=)",
           verdict(torch.equal(out, want)))


def bench_fused_chain():
    n = 1 << 28
    a, b, c = rand(n, -4, 4), rand(n, -4, 4), rand(n, -4, 4)
    out = torch.empty_like(a)
    grid = (triton.cdiv(n, VECTOR_BLOCK),)
    ms = median_ms(lambda: fused_chain_kernel[grid](a, b, c, out, n, BLOCK_SIZE=VECTOR_BLOCK))
    want = (a * b + c) * torch.sigmoid(a)
    ok = torch.allclose(out, want, atol=1e-4, rtol=1e-4)
    report("fused_chain", "2^28 f32", "triton", ms, 16 * n, f"BLOCK={VECTOR_BLOCK} warps=4",
           verdict(ok))
    del want, out
    res = {}

    def eager():
        res["out"] = (a * b + c) * torch.sigmoid(a)

    ms = median_ms(eager)
    report("fused_chain", "2^28 f32", "torch", ms, 16 * n, "eager, 4 kernels", "-")


def bench_softmax():
    for cols in (1024, 4096, 16384):
        rows = (GIB // 4) // cols
        x = rand((rows, cols), -8, 8)
        out = torch.empty_like(x)
        block = triton.next_power_of_2(cols)

        def run(cfg):
            softmax_kernel[(rows,)](out, x, x.stride(0), out.stride(0), cols, **cfg)

        configs = [{"BLOCK_SIZE": block, "num_warps": w} for w in (4, 8, 16)]
        ms, cfg = best_of(configs, run, f"triton softmax {cols} cols")
        run(cfg)
        want = torch.softmax(x, dim=-1)
        ok = torch.allclose(out, want, atol=1e-6, rtol=1e-4)
        shape = f"{rows}x{cols} f32"
        report("softmax", shape, "triton", ms, 2 * GIB, config_text(cfg), verdict(ok))
        del want
        ms = median_ms(lambda: torch.softmax(x, dim=-1))
        report("softmax", shape, "torch", ms, 2 * GIB, "torch.softmax", "-")
        del x, out
        torch.cuda.empty_cache()


def bench_layernorm():
    eps = 1e-5
    for cols in (1024, 4096, 8192):
        rows = (GIB // 2 // 2) // cols  # 512 MiB of f16
        x = rand((rows, cols), -4, 6, torch.float16)
        w = rand(cols, 0.5, 1.5, torch.float16)
        b = rand(cols, -1, 1, torch.float16)
        y = torch.empty_like(x)
        mean = torch.empty(rows, dtype=torch.float32, device="cuda")
        rstd = torch.empty(rows, dtype=torch.float32, device="cuda")

        def run(cfg):
            layer_norm_fwd_fused[(rows,)](x, y, w, b, mean, rstd, x.stride(0), cols, eps, **cfg)

        # The tutorial's choice (BLOCK_SIZE = next_pow2(N) up to 64 KiB of data, num_warps =
        # min(max(BLOCK_SIZE // 256, 1), 8)) is one of these; bench_gpu tries the same set.
        configs = [{"BLOCK_SIZE": blk, "num_warps": wp}
                   for blk in (1024, 2048, 4096, 8192) if blk <= cols for wp in (4, 8, 16)]
        ms, cfg = best_of(configs, run, f"triton layernorm {cols} cols")
        run(cfg)
        want = torch.nn.functional.layer_norm(x, (cols,), w, b, eps)
        ok = torch.allclose(y, want, atol=1e-2, rtol=1e-2)
        nbytes = 2 * 2 * rows * cols
        shape = f"{rows}x{cols} f16"
        report("layernorm", shape, "triton", ms, nbytes, config_text(cfg), verdict(ok))
        del want
        ms = median_ms(lambda: torch.nn.functional.layer_norm(x, (cols,), w, b, eps))
        report("layernorm", shape, "torch", ms, nbytes, "F.layer_norm", "-")
        del x, y
        torch.cuda.empty_cache()


def bench_launch_overhead():
    n = VECTOR_BLOCK
    x, y = rand(n, -1, 1), rand(n, -1, 1)
    out = torch.empty_like(x)

    def host_us(launch_once):
        for _ in range(500):
            launch_once()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(LAUNCHES):
            launch_once()
        us = (time.perf_counter() - start) * 1e6 / LAUNCHES
        torch.cuda.synchronize()
        return us

    def triton_once():
        add_kernel[(1,)](x, y, out, n, BLOCK_SIZE=VECTOR_BLOCK)

    def torch_once():
        torch.add(x, y, out=out)

    # Alternate, twice each, and keep each one's best, as bench_gpu does.
    tri = min(host_us(triton_once), host_us(triton_once))
    tor = min(host_us(torch_once), host_us(torch_once))
    config = f"{LAUNCHES} launches, no sync, best of 2"
    report_time("launch_overhead", "vector_add 1 block (1024 f32)", "triton", "us", tri, config)
    report_time("launch_overhead", "vector_add 1 block (1024 f32)", "torch", "us", tor,
                config + " (torch.add)")


def matmul_inputs(dtype, M, N, K):
    if dtype == "int8":
        a = torch.randint(-128, 128, (M, K), device="cuda", dtype=torch.int8)
        b = torch.randint(-128, 128, (K, N), device="cuda", dtype=torch.int8)
        return a, b, torch.empty((M, N), device="cuda", dtype=torch.int32)
    if dtype == "fp8":
        # e4m3 into f16, B transposed (K contiguous), as the tutorial passes fp8 on Hopper.
        a = rand((M, K), -1, 1, torch.float16).to(torch.float8_e4m3fn)
        b = rand((N, K), -1, 1, torch.float16).to(torch.float8_e4m3fn).T
        return a, b, torch.empty((M, N), device="cuda", dtype=torch.float16)
    t = {"fp16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32}[dtype]
    a, b = rand((M, K), -1, 1, t), rand((K, N), -1, 1, t)
    return a, b, torch.empty((M, N), device="cuda", dtype=t)


def matmul_check(dtype, a, b, c):
    """64 sampled elements of c against a float64 product of the same rows and columns."""
    gen = torch.Generator(device="cpu").manual_seed(12345)
    rows = torch.randint(0, a.shape[0], (64,), generator=gen).cuda()
    cols = torch.randint(0, b.shape[1], (64,), generator=gen).cuda()
    x, y = a[rows].double(), b[:, cols].double()
    want = (x * y.t()).sum(dim=1)
    scale = (x.abs() * y.t().abs()).sum(dim=1)
    got = c[rows, cols].double()
    if dtype == "int8":
        tol = torch.zeros_like(want)
    elif dtype == "tf32":
        tol = scale * 2.0 ** -8
    elif dtype == "fp8":  # exact products, added with fewer bits than f32, an f16 result
        tol = want.abs() * 2.0 ** -10 + scale * 2.0 ** -12
    else:
        tol = want.abs() * (2.0 ** -8 if dtype == "bf16" else 2.0 ** -10) + scale * 2.0 ** -20
    bad = int(((got - want).abs() > tol).sum())
    return "ok" if bad == 0 else f"MISMATCH ({bad} of 64 sampled)"


def report_matmul(dtype, shape, impl, ms, config, check):
    M, N, K = shape
    tflops = 2.0 * M * N * K / ms / 1e9
    name = f"{M}x{N}x{K} {dtype}"
    emit({"bench": "matmul", "shape": name, "impl": impl, "ms": round(ms, 4),
          "tflops": round(tflops, 2), "config": config, "check": check})
    unit = "TOP/s" if dtype == "int8" else "TFLOP/s"
    print(f"| matmul | {name:<22} | {impl:<16} | {ms:9.3f} ms | {tflops:7.1f} {unit} | {config} "
          f"| {check}", file=sys.stderr, flush=True)


def adaptive_ms(fn):
    """One timed run, then up to 10 more (about 2 s of runs): big matmuls on slow paths stay short."""
    first = median_ms(fn, warmup=1, reps=1)
    reps = int(min(10, max(1, 2000 / max(first, 1e-3))))
    return median_ms(fn, warmup=1, reps=reps) if reps > 1 else first


def matmul_dtypes():
    """MATMUL_DTYPES, limited to TK_BENCH_MATMUL_DTYPES (e.g. "tf32,int8") when that is set."""
    wanted = [d for d in os.environ.get("TK_BENCH_MATMUL_DTYPES", "").split(",") if d]
    return [d for d in MATMUL_DTYPES if not wanted or d in wanted]


def bench_matmul_triton(impl, deadline):
    for shape in MATMUL_SHAPES:
        for dtype in matmul_dtypes():
            M, N, K = shape
            a, b, c = matmul_inputs(dtype, M, N, K)
            configs = MATMUL_CONFIGS_8BIT if dtype in ("int8", "fp8") else MATMUL_CONFIGS

            def run(cfg):
                grid = (triton.cdiv(M, cfg["BLOCK_SIZE_M"]) * triton.cdiv(N, cfg["BLOCK_SIZE_N"]),)
                matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                    b.stride(1), c.stride(0), c.stride(1),
                                    ACC_INT32=dtype == "int8", **cfg)

            best = None
            for cfg in configs:
                if time.monotonic() > deadline:
                    print(f"  matmul {dtype} {shape} {impl}: out of time, skipping {cfg}",
                          file=sys.stderr, flush=True)
                    continue
                try:
                    ms = adaptive_ms(lambda: run(cfg))
                except Exception as e:  # noqa: BLE001 - e.g. out of shared memory
                    cause = f" (cause: {e.__cause__!r})" if e.__cause__ else ""
                    print(f"  matmul {dtype} {shape} {impl}, {cfg}: {type(e).__name__}: {e}{cause}",
                          file=sys.stderr, flush=True)
                    continue
                print(f"  matmul {dtype} {shape} {impl}, {config_text(cfg)}: {ms:.3f} ms",
                      file=sys.stderr, flush=True)
                if best is None or ms < best[0]:
                    best = (ms, cfg)
            if best is None:
                continue
            c.zero_()
            run(best[1])
            report_matmul(dtype, shape, impl, best[0], config_text(best[1]),
                          matmul_check(dtype, a, b, c))
            del a, b, c
            torch.cuda.empty_cache()


def bench_matmul_triton_descriptor(deadline, persistent=False):
    """matmul_descriptor_kernel ("triton descriptor"), or matmul_persistent_kernel ("triton
    persistent"), for fp16, bf16 and fp8 (sm_90 and newer), B given N x K; the descriptors are
    made on the device, in memory from triton.set_allocator."""
    if torch.cuda.get_device_capability()[0] < 9:
        return
    impl = "triton persistent" if persistent else "triton descriptor"
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device="cuda"))
    for shape in MATMUL_SHAPES:
        for dtype in [d for d in matmul_dtypes() if d in ("fp16", "bf16", "fp8")]:
            M, N, K = shape
            a, b, c = matmul_inputs(dtype, M, N, K)
            if dtype != "fp8":  # B N x K, K contiguous
                b = b.t().contiguous().t()
            b_nk = b.t()
            assert b_nk.is_contiguous()
            configs = MATMUL_CONFIGS_8BIT if dtype == "fp8" else MATMUL_CONFIGS

            def run(cfg):
                tiles = triton.cdiv(M, cfg["BLOCK_SIZE_M"]) * triton.cdiv(N, cfg["BLOCK_SIZE_N"])
                if persistent:
                    sms = torch.cuda.get_device_properties("cuda").multi_processor_count
                    matmul_persistent_kernel[(min(sms, tiles),)](a, b_nk, c, M, N, K, **cfg)
                else:
                    matmul_descriptor_kernel[(tiles,)](a, b_nk, c, M, N, K, **cfg)

            best = None
            for cfg in configs:
                if time.monotonic() > deadline:
                    continue
                try:
                    ms = adaptive_ms(lambda: run(cfg))
                except Exception as e:  # noqa: BLE001 - e.g. out of shared memory
                    print(f"  matmul {dtype} {shape} {impl}, {cfg}: "
                          f"{type(e).__name__}: {e}", file=sys.stderr, flush=True)
                    continue
                print(f"  matmul {dtype} {shape} {impl}, {config_text(cfg)}: "
                      f"{ms:.3f} ms", file=sys.stderr, flush=True)
                if best is None or ms < best[0]:
                    best = (ms, cfg)
            if best is None:
                continue
            c.zero_()
            run(best[1])
            report_matmul(dtype, shape, impl, best[0], config_text(best[1]),
                          matmul_check(dtype, a, b, c))
            del a, b, b_nk, c
            torch.cuda.empty_cache()


def bench_matmul_padded():
    """matmul_bias_relu_kernel at 4096^3 f16, leading dimensions K + pad and N + pad (pad 0, 1,
    8: rows 16-byte aligned but no stride divisible by 16, and 64), bench_gpu --matmul-padded's
    configs."""
    M = N = K = 4096
    configs = [(64, 64, 32, 8, 3, 4), (128, 128, 64, 8, 3, 8), (128, 256, 64, 8, 3, 8)]
    for pad in (0, 1, 8, 64):
        a = torch.randn((M, K + pad), device="cuda", dtype=torch.float16)
        b = torch.randn((K, N + pad), device="cuda", dtype=torch.float16)
        c = torch.empty((M, N + pad), device="cuda", dtype=torch.float16)
        bias = torch.randn((N,), device="cuda", dtype=torch.float16)
        want = torch.relu(a[:, :K].float() @ b[:, :N].float() + bias.float())
        for bm, bn, bk, group, stages, warps in configs:
            def run():
                grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
                matmul_bias_relu_kernel[grid](c, a, b, bias, M, N, K, a.stride(0), b.stride(0),
                                              c.stride(0), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                              GROUP_M=group, num_stages=stages, num_warps=warps)
            config = (f"BM={bm} BN={bn} BK={bk} G={group} stages={stages} warps={warps}")
            c.zero_()
            run()
            got = c[:, :N].float()
            check = "ok" if torch.allclose(got, want, atol=0.05, rtol=1e-2) else "MISMATCH"
            ms = median_ms(run)
            emit({"bench": "matmul_padded",
                  "shape": f"4096^3 f16 pad {pad}, {bm}x{bn}x{bk} w{warps} s{stages}", "impl": "triton",
                  "ms": round(ms, 4), "tflops": round(2 * M * N * K / ms / 1e9, 2),
                  "config": config, "check": check})
            print(f"| matmul_padded | pad {pad} | {config} | {ms:.3f} ms | "
                  f"{2 * M * N * K / ms / 1e9:.1f} TFLOP/s | {check}", file=sys.stderr, flush=True)
        del a, b, c
        torch.cuda.empty_cache()


def bench_matmul_torch():
    torch.backends.cuda.matmul.allow_tf32 = True  # tf32: cuBLAS's TF32 tensor cores
    for shape in MATMUL_SHAPES:
        for dtype in matmul_dtypes():
            M, N, K = shape
            a, b, c = matmul_inputs(dtype, M, N, K)
            if dtype == "int8":
                if not hasattr(torch, "_int_mm"):
                    print("  torch._int_mm: not in this torch", file=sys.stderr, flush=True)
                    continue
                what = "torch._int_mm"

                def fn():
                    torch._int_mm(a, b, out=c)
            elif dtype == "fp8":
                what = "torch._scaled_mm"
                one = torch.ones((), device="cuda", dtype=torch.float32)

                def fn():
                    torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float16,
                                     out=c)
            else:
                what = "torch.matmul"

                def fn():
                    torch.matmul(a, b, out=c)
            try:
                ms = adaptive_ms(fn)
            except Exception as e:  # noqa: BLE001
                print(f"  matmul {dtype} {shape} torch: {type(e).__name__}: {e}", file=sys.stderr,
                      flush=True)
                continue
            fn()
            report_matmul(dtype, shape, "torch", ms, what, matmul_check(dtype, a, b, c))
            del a, b, c
            torch.cuda.empty_cache()


@triton.jit
def attention_inner(acc, l_i, m_i, q, k_base, v_base, lo, hi, offs_m, offs_n, offs_d, qk_scale,
                    HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, DIAGONAL: tl.constexpr):
    """Key blocks [lo, hi): the online softmax of the fused-attention tutorial's forward."""
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        k = tl.load(k_base + cols[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, k)
        if DIAGONAL:
            keep = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(keep, 0, -1.0e6)
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attention_kernel(Q, K, V, O, sm_scale, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """Contiguous [Z, H, N_CTX, HEAD_DIM] tensors, N_CTX a multiple of BLOCK_M and BLOCK_N."""
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = start_m * BLOCK_M if CAUSAL else N_CTX
    acc, l_i, m_i = attention_inner(acc, l_i, m_i, q, K + base, V + base, 0, hi, offs_m, offs_n,
                                    offs_d, qk_scale, HEAD_DIM, BLOCK_N, False)
    if CAUSAL:
        acc, l_i, m_i = attention_inner(acc, l_i, m_i, q, K + base, V + base, start_m * BLOCK_M,
                                        (start_m + 1) * BLOCK_M, offs_m, offs_n, offs_d, qk_scale,
                                        HEAD_DIM, BLOCK_N, True)
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(O.dtype.element_ty))


@triton.jit
def attention_descriptor_inner(acc, l_i, m_i, q, desc_k, desc_v, head_row, lo, hi, offs_m, offs_n,
                               qk_scale, BLOCK_N: tl.constexpr, DIAGONAL: tl.constexpr):
    """attention_inner through tensor descriptors, as the tutorial's forward on Hopper."""
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([head_row + start_n, 0]).T
        qk = tl.dot(q, k)
        if DIAGONAL:
            keep = offs_m[:, None] >= (start_n + offs_n)[None, :]
            qk = qk * qk_scale + tl.where(keep, 0, -1.0e6)
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_new[:, None]
        else:
            m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_new[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([head_row + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attention_descriptor_kernel(desc_q, desc_k, desc_v, desc_o, sm_scale, N_CTX,
                                HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                                BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """attention_kernel on [Z * H * N_CTX, HEAD_DIM] host tensor descriptors."""
    start_m = tl.program_id(0)
    head_row = tl.program_id(1) * N_CTX
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    q = desc_q.load([head_row + start_m * BLOCK_M, 0])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = start_m * BLOCK_M if CAUSAL else N_CTX
    acc, l_i, m_i = attention_descriptor_inner(acc, l_i, m_i, q, desc_k, desc_v, head_row, 0, hi,
                                               offs_m, offs_n, qk_scale, BLOCK_N, False)
    if CAUSAL:
        acc, l_i, m_i = attention_descriptor_inner(acc, l_i, m_i, q, desc_k, desc_v, head_row,
                                                   start_m * BLOCK_M, (start_m + 1) * BLOCK_M,
                                                   offs_m, offs_n, qk_scale, BLOCK_N, True)
    acc = acc / l_i[:, None]
    desc_o.store([head_row + start_m * BLOCK_M, 0], acc.to(desc_o.dtype))


def bench_attention():
    Z, H, S, D = 4, 32, 4096, 128
    configs = [dict(BLOCK_M=m, BLOCK_N=n, num_warps=w, num_stages=st) for m, n, w, st in (
        (128, 64, 8, 3), (128, 64, 8, 2), (128, 128, 8, 2), (128, 128, 8, 3), (128, 32, 8, 3),
        (128, 64, 4, 3), (64, 64, 4, 3), (128, 64, 4, 4), (64, 128, 4, 3))]
    print("| bench | shape | impl | ms | TFLOP/s | config | check", file=sys.stderr, flush=True)
    for causal in (False, True):
        shape = f"B{Z} H{H} S{S} D{D} bf16" + (" causal" if causal else "")
        q, k, v = (rand((Z, H, S, D), -1, 1, torch.bfloat16) for _ in range(3))
        sm_scale = 1.0 / D ** 0.5
        flops = 4.0 * Z * H * S * S * D * (0.5 if causal else 1.0)
        want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
        o = torch.empty_like(q)

        def emit_attention(impl, ms, config, check):
            tflops = flops / ms / 1e9
            emit({"bench": "attention", "shape": shape, "impl": impl, "ms": round(ms, 4),
                  "tflops": round(tflops, 2), "config": config, "check": check})
            print(f"| attention | {shape:<28} | {impl:<10} | {ms:9.3f} ms | {tflops:7.1f} TFLOP/s "
                  f"| {config} | {check}", file=sys.stderr, flush=True)

        def run(cfg):
            grid = (triton.cdiv(S, cfg["BLOCK_M"]), Z * H)
            attention_kernel[grid](q, k, v, o, sm_scale, S, HEAD_DIM=D, CAUSAL=causal, **cfg)

        def run_descriptor(cfg):
            rows, bm, bn = Z * H * S, cfg["BLOCK_M"], cfg["BLOCK_N"]
            descs = [TensorDescriptor(x, shape=[rows, D], strides=[D, 1], block_shape=[b, D])
                     for x, b in ((q, bm), (k, bn), (v, bn), (o, bm))]
            grid = (triton.cdiv(S, bm), Z * H)
            attention_descriptor_kernel[grid](*descs, sm_scale, S, HEAD_DIM=D, CAUSAL=causal,
                                              **cfg)

        impls = [("triton", run)]
        if TensorDescriptor is not None and torch.cuda.get_device_capability()[0] >= 9:
            impls.append(("triton descriptor", run_descriptor))
        for impl, launch in impls:
            best = None
            for cfg in configs:
                # The diagonal loop steps BLOCK_N through BLOCK_M rows: with BLOCK_N > BLOCK_M it
                # reads past the sequence (an illegal address on the H200, which ends the
                # process's CUDA context). TileKit's kernel refuses such blocks the same way.
                if causal and cfg["BLOCK_M"] % cfg["BLOCK_N"] != 0:
                    continue
                try:
                    ms = median_ms(lambda: launch(cfg))
                except Exception as e:  # noqa: BLE001 - a config that does not fit is skipped
                    print(f"  attention {shape} {impl}, {cfg}: {type(e).__name__}: {e}",
                          file=sys.stderr, flush=True)
                    continue
                print(f"  attention {shape} {impl}, {config_text(cfg)}: {ms:.3f} ms, "
                      f"{flops / ms / 1e9:.1f} TFLOP/s", file=sys.stderr, flush=True)
                if best is None or ms < best[0]:
                    best = (ms, cfg)
            if best:
                o.fill_(float("nan"))
                launch(best[1])
                err = (o.float() - want.float()).abs().max().item()
                emit_attention(impl, best[0], config_text(best[1]),
                               verdict(err <= 2e-2) + f" (max |error| {err:.2g} vs SDPA)")
        ms = median_ms(lambda: torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal))
        emit_attention("torch sdpa", ms, "scaled_dot_product_attention", "-")
        del q, k, v, o, want
        torch.cuda.empty_cache()


# --- Decoder kernels (--w4a16, --sampling): the same kernels as examples/kernels/ ---------------


@triton.jit
def w4a16_kernel(c_ptr, a_ptr, w_ptr, scales_ptr, M, N, K, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                 G: tl.constexpr):
    """examples/kernels/w4a16_matmul.hpp: int4 weights N x K/2 (low nibble first), f16 scales
    K/G x N, unpacked with shifts and tl.interleave into the tensor-core dot."""
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = tl.swizzle2d(pid // num_pid_n, pid % num_pid_n, tl.cdiv(M, BLOCK_M), num_pid_n,
                                GROUP_M)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    a_ptrs = a_ptr + offs_m[:, None] * K + tl.arange(0, BLOCK_K)[None, :]
    w_ptrs = w_ptr + offs_n[:, None] * (K // 2) + tl.arange(0, BLOCK_K // 2)[None, :]
    s_ptrs = scales_ptr + offs_n
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        a = tl.load(a_ptrs)
        packed = tl.load(w_ptrs)
        low = (packed << 4) >> 4
        high = packed >> 4
        nibbles = tl.interleave(low, high)
        scale = tl.load(s_ptrs + (k * BLOCK_K // G) * N)
        w = nibbles.to(tl.float16) * scale[:, None]
        acc = tl.dot(a, tl.trans(w), acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K // 2
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptr + offs_cm[:, None] * N + offs_cn[None, :], acc.to(tl.float16), mask=c_mask)


# bench_gpu's w4a16_configs: (BLOCK_M, BLOCK_N, BLOCK_K, stages, warps).
W4A16_CONFIGS = [(16, 32, 128, 4, 4), (16, 64, 128, 4, 4), (16, 128, 128, 4, 4),
                 (32, 64, 128, 4, 4), (64, 128, 64, 4, 4), (128, 128, 64, 3, 8),
                 (128, 256, 64, 3, 8), (128, 128, 128, 3, 8)]

_flush = None


def median_ms_cold_l2(fn, warmup=2, reps=20):
    """median_ms with a 256 MiB buffer overwritten before each timed run (outside the events), as
    bench_gpu's tk::do_bench(clear_l2) and triton.testing.do_bench do."""
    global _flush
    if _flush is None:
        _flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    return median_ms(fn, warmup, reps, before=_flush.zero_)


def report_product(bench, shape, impl, ms, ops, nbytes, config, check):
    emit({"bench": bench, "shape": shape, "impl": impl, "ms": round(ms, 5),
          "tflops": round(ops / ms / 1e9, 2), "gbps": round(nbytes / ms / 1e6, 1),
          "config": config, "check": check})
    print(f"| {bench:<8} | {shape:<30} | {impl:<14} | {ms:9.4f} ms | {ops / ms / 1e9:7.1f} "
          f"TFLOP/s | {nbytes / ms / 1e6:7.1f} GB/s | {config} | {check}", file=sys.stderr,
          flush=True)


def bench_w4a16():
    """Triton's side of bench_gpu --w4a16: the W4A16 kernel, the tutorial's f16 matmul on the same
    weights dequantized (B given N x K) and torch.matmul (cuBLAS), N = K = 8192, M = 16, 128,
    4096, L2 cleared before each run."""
    N = K = 8192
    G = 128
    w = torch.randint(-128, 128, (N, K // 2), dtype=torch.int8, device="cuda")
    scales = rand((K // G, N), 0.005, 0.02, torch.float16)
    low = ((w.to(torch.int32) << 28) >> 28)
    high = ((w.to(torch.int32) << 24) >> 28)
    q = torch.stack((low, high), dim=2).reshape(N, K)
    wf = (q.to(torch.float16) * scales.t().repeat_interleave(G, dim=1)).contiguous()  # N x K
    for M in (16, 128, 4096):
        shape = f"M={M} N=8192 K=8192 G=128"
        ops = 2.0 * M * N * K
        a = rand((M, K), -1, 1, torch.float16)
        want = (a.float() @ wf.float().t())
        for impl in ("triton w4a16", "triton f16", "torch f16"):
            c = torch.empty((M, N), dtype=torch.float16, device="cuda")
            if impl == "torch f16":
                wt = wf.t()

                def run(_cfg, c=c, a=a, wt=wt):
                    torch.matmul(a, wt, out=c)
                configs = [None]
            else:
                def run(cfg, c=c, a=a, impl=impl, M=M):
                    bm, bn, bk, stages, warps = cfg
                    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
                    if impl == "triton w4a16":
                        w4a16_kernel[grid](c, a, w, scales, M, N, K, BLOCK_M=bm, BLOCK_N=bn,
                                           BLOCK_K=bk, GROUP_M=8, G=G, num_stages=stages,
                                           num_warps=warps)
                    else:
                        matmul_kernel[grid](a, wf, c, M, N, K, K, 1, 1, K, N, 1, BLOCK_SIZE_M=bm,
                                            BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
                                            ACC_INT32=False, num_stages=stages, num_warps=warps)
                configs = [cfg for cfg in W4A16_CONFIGS if cfg[0] <= 2 * M or cfg[0] <= 16]
            best = None
            for cfg in configs:
                try:
                    ms = median_ms_cold_l2(lambda: run(cfg))
                except Exception as e:  # noqa: BLE001 - a config that fails to compile
                    print(f"  {shape} {impl}, {cfg}: failed: {e}", file=sys.stderr, flush=True)
                    continue
                print(f"  {shape} {impl}, {cfg}: {ms:.4f} ms", file=sys.stderr, flush=True)
                if best is None or ms < best[0]:
                    best = (ms, cfg)
            if best is None:
                continue
            c.fill_(float("nan"))
            run(best[1])
            torch.cuda.synchronize()
            bad = int((~torch.isclose(c.float(), want, rtol=1 / 512, atol=1e-2)).sum())
            check = "ok" if bad == 0 else f"MISMATCH ({bad} elements)"
            nbytes = 2.0 * M * K + 2.0 * M * N + (
                w.numel() + 2.0 * scales.numel() if impl == "triton w4a16" else 2.0 * N * K)
            cfg = best[1]
            config = ("cuBLAS" if cfg is None else
                      f"BM={cfg[0]} BN={cfg[1]} BK={cfg[2]} stages={cfg[3]} warps={cfg[4]}")
            report_product("w4a16", shape, impl, best[0], ops, nbytes, config, check)


@triton.jit
def sample_top_k_top_p_kernel(tokens_ptr, logits_ptr, uniform_ptr, V, temperature, top_p,
                              BLOCK_V: tl.constexpr, K: tl.constexpr):
    """examples/kernels/sampling.hpp: the K largest (logit, index) keys packed in i64 by tl.topk
    per chunk of the vocabulary, then top-p over them and one draw per row."""
    row = tl.program_id(0)
    row_logits = logits_ptr + row.to(tl.int64) * V
    best = tl.full((K,), -9223372036854775808, tl.int64)
    for chunk in range(0, tl.cdiv(V, BLOCK_V)):
        offs = chunk * BLOCK_V + tl.arange(0, BLOCK_V)
        x = tl.load(row_logits + offs, mask=offs < V, other=float("-inf"))
        bits = x.to(tl.int32, bitcast=True)
        ordered = bits ^ ((bits >> 31) & 0x7FFFFFFF)
        low = (~offs).to(tl.uint32, bitcast=True).to(tl.int64)
        keys = (ordered.to(tl.int64) << 32) | low
        best = tl.topk(tl.cat(best, tl.topk(keys, K), can_reorder=True), K)
    high = (best >> 32).to(tl.int32)
    values = (high ^ ((high >> 31) & 0x7FFFFFFF)).to(tl.float32, bitcast=True)
    ids = ~best.to(tl.int32)
    p = tl.exp((values - tl.max(values, 0)) / temperature)
    p = p / tl.sum(p, 0)
    kept = tl.where(tl.cumsum(p, 0) - p < top_p, p, 0.0)
    running = tl.cumsum(kept, 0)
    target = tl.load(uniform_ptr + row) * tl.sum(kept, 0)
    last = tl.sum((kept > 0.0).to(tl.int32), 0) - 1
    pick = tl.minimum(tl.sum((running <= target).to(tl.int32), 0), last)
    tl.store(tokens_ptr + row, tl.sum(tl.where(tl.arange(0, K) == pick, ids, 0), 0))


def torch_sample(logits, uniform, k, temperature, top_p):
    """The same draw in PyTorch eager: topk, softmax, cumsum, the top-p mask, searchsorted."""
    values, ids = torch.topk(logits, k, dim=1)
    p = torch.softmax(values / temperature, dim=1)
    kept = torch.where(torch.cumsum(p, 1) - p < top_p, p, 0.0)
    running = torch.cumsum(kept, 1)
    target = uniform[:, None] * running[:, -1:]
    pick = torch.minimum(torch.searchsorted(running, target, right=True).squeeze(1),
                         (kept > 0).sum(1) - 1)
    return ids.gather(1, pick[:, None]).squeeze(1).to(torch.int32)


def bench_sampling():
    """Triton's side of bench_gpu --sampling: the same kernel, best BLOCK_V and warps, and the
    same draw in PyTorch eager; 64 and 512 rows of 128256 f32 logits, top_k 64, top_p 0.9,
    temperature 0.7."""
    if not hasattr(tl, "topk"):
        print("bench_sampling: this Triton has no tl.topk", file=sys.stderr)
        return
    V, K, temperature, top_p = 128256, 64, 0.7, 0.9
    for rows in (64, 512):
        shape = f"{rows}x{V} k=64 p=0.9"
        logits = 3.0 * (torch.rand((rows, V), device="cuda") * 4 - 2) / 2
        uniform = torch.rand(rows, device="cuda")
        want = torch_sample(logits, uniform, K, temperature, top_p)
        tokens = torch.empty(rows, dtype=torch.int32, device="cuda")

        def run(cfg):
            sample_top_k_top_p_kernel[(rows,)](tokens, logits, uniform, V, temperature, top_p,
                                               BLOCK_V=cfg[0], K=K, num_warps=cfg[1])
        best = None
        for cfg in [(b, w) for b in (1024, 2048, 4096) for w in (4, 8, 16)]:
            try:
                ms = median_ms_cold_l2(lambda: run(cfg))
            except Exception as e:  # noqa: BLE001 - a config that fails to compile
                print(f"  sampling {shape} {cfg}: failed: {e}", file=sys.stderr, flush=True)
                continue
            print(f"  sampling {shape} BLOCK_V={cfg[0]} warps={cfg[1]}: {ms:.4f} ms",
                  file=sys.stderr, flush=True)
            if best is None or ms < best[0]:
                best = (ms, cfg)
        nbytes = rows * V * 4.0
        if best is not None:
            tokens.fill_(-1)
            run(best[1])
            differ = int((tokens != want).sum())
            check = (f"MISMATCH ({differ} of {rows} rows)" if differ * 100 > rows else
                     f"ok ({differ} rows at a boundary)" if differ else "ok")
            report("sampling", shape, "triton", best[0], nbytes,
                   f"BLOCK_V={best[1][0]} warps={best[1][1]}", check)
        ms = median_ms_cold_l2(lambda: torch_sample(logits, uniform, K, temperature, top_p))
        report("sampling", shape, "torch", ms, nbytes, "topk+softmax+cumsum", "reference")


def matmul_budget():
    return time.monotonic() + float(os.environ.get("TK_BENCH_MATMUL_SECONDS") or 300)


def matmul_main():
    """Triton with wgmma (this process), Triton with mma.sync (a child, DISABLE_MMA_V3=1), torch."""
    deadline = matmul_budget()
    print("| bench | shape | impl | ms | TFLOP/s | config | check", file=sys.stderr, flush=True)
    guarded(lambda: bench_matmul_triton("triton", deadline))
    guarded(lambda: bench_matmul_triton_descriptor(deadline))
    guarded(bench_matmul_torch)
    env = dict(os.environ, DISABLE_MMA_V3="1")
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--matmul-child"], env=env,
                          capture_output=True, text=True, timeout=900)
    sys.stdout.write(proc.stdout)
    sys.stdout.flush()
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        print(f"peers.py --matmul-child failed ({proc.returncode})", file=sys.stderr, flush=True)
    return 0


def cold_vector_add():
    x, y = rand(COLD_N, -1, 1), rand(COLD_N, -1, 1)
    out = torch.empty_like(x)
    torch.cuda.synchronize()
    start = time.perf_counter()
    add_kernel[(triton.cdiv(COLD_N, VECTOR_BLOCK),)](x, y, out, COLD_N, BLOCK_SIZE=VECTOR_BLOCK)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3, torch.equal(out, x + y)


COLD_MM = 1024
COLD_MATMUL_CONFIG = _cfg(128, 256, 64, 8, 3, 8)


def cold_matmul(descriptor):
    a, b, c = matmul_inputs("fp16", COLD_MM, COLD_MM, COLD_MM)
    cfg = COLD_MATMUL_CONFIG
    grid = (triton.cdiv(COLD_MM, cfg["BLOCK_SIZE_M"]) * triton.cdiv(COLD_MM, cfg["BLOCK_SIZE_N"]),)
    if descriptor:
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                     device="cuda"))
        b = b.t().contiguous().t()  # N x K, K contiguous
    torch.cuda.synchronize()
    start = time.perf_counter()
    if descriptor:
        matmul_descriptor_kernel[grid](a, b.t(), c, COLD_MM, COLD_MM, COLD_MM, **cfg)
    else:
        matmul_kernel[grid](a, b, c, COLD_MM, COLD_MM, COLD_MM, a.stride(0), a.stride(1),
                            b.stride(0), b.stride(1), c.stride(0), c.stride(1), ACC_INT32=False,
                            **cfg)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3
    return ms, matmul_check("fp16", a, b, c) == "ok"


COLD_HEADS, COLD_SEQ, COLD_DIM = 2, 1024, 128


def cold_attention(descriptor, causal):
    q, k, v = (rand((1, COLD_HEADS, COLD_SEQ, COLD_DIM), -1, 1, torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q)
    sm_scale = 1.0 / COLD_DIM ** 0.5
    bm, bn, warps = (64, 64, 4) if causal else (128, 128, 8)
    cfg = dict(BLOCK_M=bm, BLOCK_N=bn, num_warps=warps, num_stages=3)
    grid = (triton.cdiv(COLD_SEQ, bm), COLD_HEADS)
    torch.cuda.synchronize()
    start = time.perf_counter()
    if descriptor:
        rows = COLD_HEADS * COLD_SEQ
        descs = [TensorDescriptor(x, shape=[rows, COLD_DIM], strides=[COLD_DIM, 1],
                                  block_shape=[b, COLD_DIM])
                 for x, b in ((q, bm), (k, bn), (v, bn), (o, bm))]
        attention_descriptor_kernel[grid](*descs, sm_scale, COLD_SEQ, HEAD_DIM=COLD_DIM,
                                          CAUSAL=causal, **cfg)
    else:
        attention_kernel[grid](q, k, v, o, sm_scale, COLD_SEQ, HEAD_DIM=COLD_DIM, CAUSAL=causal,
                               **cfg)
    torch.cuda.synchronize()
    ms = (time.perf_counter() - start) * 1e3
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    return ms, (o.float() - want.float()).abs().max().item() <= 2e-2


# The kernels of the cold-compile benchmark, as bench_gpu names them: name, config, first launch
# (milliseconds from the call to the synchronize, and whether the result is right).
COLD_KERNELS = [
    ("vector_add 2^20", "BLOCK 1024", cold_vector_add),
    ("matmul f16 1024^3", "BM=128 BN=256 BK=64 G=8 stages=3 warps=8",
     lambda: cold_matmul(False)),
    ("matmul_descriptor f16 1024^3", "BM=128 BN=256 BK=64 G=8 stages=3 warps=8",
     lambda: cold_matmul(True)),
    ("attention bf16 H2 S1024 D128", "BM=128 BN=128 warps=8 stages=3",
     lambda: cold_attention(False, False)),
    ("attention_descriptor bf16 H2 S1024 D128", "BM=128 BN=128 warps=8 stages=3",
     lambda: cold_attention(True, False)),
    ("attention_descriptor bf16 H2 S1024 D128 causal", "BM=64 BN=64 warps=4 stages=3",
     lambda: cold_attention(True, True)),
]


def bench_cold():
    """Each cold kernel in fresh processes, TK_BENCH_COLD_REPS (default 5) with an empty
    TRITON_CACHE_DIR each, then as many with the cache the first filled: the first call (in
    process, call to synchronize) and the whole process (with import torch); medians."""
    reps = max(1, min(100, int(os.environ.get("TK_BENCH_COLD_REPS", "5"))))
    for name, config, _ in COLD_KERNELS:
        if "descriptor" in name and (TensorDescriptor is None
                                     or torch.cuda.get_device_capability()[0] < 9):
            continue
        warm = None
        try:
            for what in ("empty cache", "warm disk cache"):
                walls, firsts = [], []
                for _ in range(reps):
                    cache = warm if what == "warm disk cache" else tempfile.mkdtemp(
                        prefix="triton_bench_cold_")
                    env = dict(os.environ, TRITON_CACHE_DIR=cache)
                    start = time.perf_counter()
                    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--cold",
                                           name], env=env, capture_output=True, text=True,
                                          timeout=300)
                    wall = (time.perf_counter() - start) * 1e3
                    if what == "empty cache" and warm is None and proc.returncode == 0:
                        warm = cache
                    elif what == "empty cache":
                        shutil.rmtree(cache, ignore_errors=True)
                    if proc.returncode != 0:
                        print(f"peers.py --cold {name!r} failed ({proc.returncode}):\n"
                              f"{proc.stdout}{proc.stderr}", file=sys.stderr, flush=True)
                        continue
                    walls.append(wall)
                    firsts.append(float(proc.stdout.split()[0]))
                if not walls:
                    continue
                shape = f"{name}, {what}"
                report_time("cold_compile", shape + ": first launch", "triton", "ms",
                            sorted(firsts)[len(firsts) // 2],
                            f"{config}; median of {len(walls)} processes; in process, call to "
                            "synchronize")
                report_time("cold_compile", shape + ": whole process", "triton", "ms",
                            sorted(walls)[len(walls) // 2],
                            f"{config}; spawn to exit (incl. import torch)")
        finally:
            if warm:
                shutil.rmtree(warm, ignore_errors=True)


def cold_main(name):
    for kernel, _, first_launch in COLD_KERNELS:
        if kernel == name:
            ms, ok = first_launch()
            print(f"{ms:.4f} {verdict(ok)}", flush=True)
            return 0 if ok else 1
    print(f"peers.py --cold: no kernel named {name!r}", file=sys.stderr)
    return 2


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--cold":
        return cold_main(sys.argv[2])
    if not torch.cuda.is_available():
        print("SKIPPED: no CUDA device for torch", file=sys.stderr)
        return 77
    if len(sys.argv) > 1 and sys.argv[1] == "--matmul":
        return matmul_main()
    if len(sys.argv) > 1 and sys.argv[1] == "--matmul-descriptor":
        deadline = matmul_budget()
        guarded(lambda: bench_matmul_triton("triton", deadline))
        guarded(lambda: bench_matmul_triton_descriptor(deadline))
        guarded(lambda: bench_matmul_triton_descriptor(deadline, persistent=True))
        guarded(bench_matmul_torch)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--matmul-padded":
        guarded(bench_matmul_padded)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--attention":
        guarded(bench_attention)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--w4a16":
        guarded(bench_w4a16)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--sampling":
        guarded(bench_sampling)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--cold-compile":
        guarded(bench_cold)
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--matmul-child":
        bench_matmul_triton("triton mma.sync", matmul_budget())
        return 0
    print(f"{torch.cuda.get_device_name()}; torch {torch.__version__}, triton {triton.__version__}",
          file=sys.stderr)
    print("| bench | shape | impl | ms | GB/s | of copy | config | check", file=sys.stderr)
    for bench in (bench_copy, bench_vector_add, bench_fused_chain, bench_softmax, bench_layernorm,
                  bench_launch_overhead, bench_cold):
        guarded(bench)
    return 0


if __name__ == "__main__":
    sys.exit(main())
