#!/usr/bin/env python3
"""Puts the side-by-side benchmarks' JSON lines together (bench/README.md):

    python3 bench/compare.py tilekit.jsonl peers.jsonl [more.jsonl ...]

prints one Markdown table per benchmark. Bandwidth benchmarks: GB/s of TileKit, Triton and
PyTorch, each as % of the device copy measured in the same process (TileKit against bench_gpu's
cuMemcpyDtoD, Triton and PyTorch against peers.py's Tensor.copy_), and the ratios TileKit/Triton
and TileKit/PyTorch (above 1: TileKit is faster). Cold compile and launch overhead: the times and
the ratios (below 1: TileKit takes less time). Matmul: TFLOP/s of TileKit at the GPU's own target
and lowered for sm_80 (mma.sync), Triton with wgmma and with mma.sync (DISABLE_MMA_V3=1) and
torch (cuBLAS), and the ratios TileKit/Triton wgmma, TileKit sm_80/Triton mma.sync and
TileKit/torch (above 1: TileKit is faster), with each result's sampled check. Triton's tutorials
(bench_tutorials beside tutorials.py): each case's GB/s or TFLOP/s and the ratio TileKit/Triton.
Lines that are not JSON objects are ignored; when a
(bench, shape, impl) appears twice, the last one counts. Standard library only.
"""

import json
import sys

BANDWIDTH = ("vector_add", "fused_chain", "softmax", "layernorm")
TITLES = {
    "copy": "Device-to-device copy, 1 GiB (the ceiling; bytes read + written)",
    "vector_add": "Vector add, f32 (12 B per element)",
    "fused_chain": "Fused elementwise chain out = (a*b + c) * sigmoid(a), f32 (16 B per element)",
    "softmax": "Softmax, f32 rows, 1 GiB input (read + write)",
    "layernorm": "Layernorm forward, f16, 512 MiB input (read + write)",
    "cold_compile": "Cold compile + first launch (vector add, fresh process)",
    "launch_overhead": "Host time per launch of a tiny cached kernel",
    "matmul": "Matmul C = A B, row-major (TFLOP/s; TOP/s for int8; best config of each)",
    "matmul_padded": "Matmul with bias and ReLU, every edge masked, 4096^3 f16, leading dimensions "
                     "K + pad and N + pad (TFLOP/s; one config per row, the same in both)",
    "w4a16": "W4A16 matmul: int4 weights with f16 scales per 128 k, beside the f16 matmul of the "
             "same weights dequantized (ms, L2 cleared before each run; best config of each)",
    "sampling": "Top-k / top-p sampling over f32 logits, k 64 (ms, L2 cleared before each run)",
    "attention": "Flash attention forward, [B, H, S, D] (TFLOP/s, 4 B H S^2 D, half when causal; "
                 "best config of each)",
}
# The copy each implementation's % is taken against: the one measured in its own process.
COPY_OF = {"tilekit": "cuMemcpyDtoD", "triton": "torch", "torch": "torch"}


def load(paths):
    records = {}
    order = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    r = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(r, dict) and {"tutorial", "case", "impl"} <= r.keys():
                    # Triton's tutorials (bench_tutorials, tutorials.py): as a bench of its own.
                    r = dict(r, bench="tutorials", shape=r["tutorial"] + " | " + r["case"])
                if not isinstance(r, dict) or not {"bench", "shape", "impl"} <= r.keys():
                    continue
                key = (r["bench"], r["shape"], r["impl"])
                if key not in records:
                    order.append(key)
                records[key] = r
    return records, order


def shapes_of(order, bench):
    seen = []
    for b, shape, _ in order:
        if b == bench and shape not in seen:
            seen.append(shape)
    return seen


def fmt(value, spec, missing="—"):
    return missing if value is None else format(value, spec)


def ratio(a, b):
    return a / b if a is not None and b else None


def field(records, bench, shape, impl, name):
    r = records.get((bench, shape, impl))
    v = r.get(name) if r else None
    return v if isinstance(v, (int, float)) else None


def table(header, rows, align):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    records, order = load(argv[1:])
    if not records:
        print("no benchmark records in " + ", ".join(argv[1:]), file=sys.stderr)
        return 1
    sections = []

    copies = {impl: field(records, "copy", "1 GiB", impl, "gbps") for impl in set(COPY_OF.values())}
    rows = []
    for impl, what in (("cuMemcpyDtoD", "cuMemcpyDtoD (bench_gpu)"),
                       ("torch", "Tensor.copy_ (peers.py)")):
        rows.append([what, fmt(field(records, "copy", "1 GiB", impl, "ms"), ".4f"),
                     fmt(copies.get(impl), ".0f")])
    sections.append(f"### {TITLES['copy']}\n\n" +
                    table(["copy", "ms", "GB/s"], rows, ["---", "---:", "---:"]))

    for bench in BANDWIDTH:
        shapes = shapes_of(order, bench)
        if not shapes:
            continue
        rows = []
        for shape in shapes:
            g = {impl: field(records, bench, shape, impl, "gbps") for impl in COPY_OF}
            pct = {impl: (100 * g[impl] / copies[COPY_OF[impl]]
                          if g[impl] is not None and copies.get(COPY_OF[impl]) else None)
                   for impl in COPY_OF}
            configs = []
            for impl in ("tilekit", "triton"):
                r = records.get((bench, shape, impl))
                if r and r.get("config"):
                    configs.append(f"{impl}: {r['config']}")
            checks = [f"{impl} {records[(bench, shape, impl)].get('check')}"
                      for impl in COPY_OF
                      if (bench, shape, impl) in records
                      and records[(bench, shape, impl)].get("check") not in (None, "-", "ok")]
            rows.append([
                shape,
                fmt(g["tilekit"], ".0f"), fmt(g["triton"], ".0f"), fmt(g["torch"], ".0f"),
                fmt(pct["tilekit"], ".1f"), fmt(pct["triton"], ".1f"), fmt(pct["torch"], ".1f"),
                fmt(ratio(g["tilekit"], g["triton"]), ".3f"),
                fmt(ratio(g["tilekit"], g["torch"]), ".3f"),
                "; ".join(configs + checks),
            ])
        sections.append(f"### {TITLES[bench]}\n\n" + table(
            ["shape", "TileKit GB/s", "Triton GB/s", "PyTorch GB/s", "TileKit % copy",
             "Triton % copy", "PyTorch % copy", "TileKit/Triton", "TileKit/PyTorch", "config"],
            rows, ["---"] + ["---:"] * 8 + ["---"]))

    shapes = shapes_of(order, "cold_compile")
    if shapes:
        rows = []
        for shape in shapes:
            t = {impl: field(records, "cold_compile", shape, impl, "ms")
                 for impl in ("tilekit", "triton")}
            rows.append([shape, fmt(t["tilekit"], ".1f"), fmt(t["triton"], ".1f"),
                         fmt(ratio(t["tilekit"], t["triton"]), ".3f")])
        sections.append(f"### {TITLES['cold_compile']}\n\n" + table(
            ["what", "TileKit ms", "Triton ms", "TileKit/Triton (time)"], rows,
            ["---", "---:", "---:", "---:"]))

    shapes = shapes_of(order, "launch_overhead")
    if shapes:
        rows = []
        for shape in shapes:
            t = {impl: field(records, "launch_overhead", shape, impl, "us")
                 for impl in ("tilekit", "raw cuLaunchKernel", "triton", "torch")}
            rows.append([shape, fmt(t["tilekit"], ".2f"), fmt(t["raw cuLaunchKernel"], ".2f"),
                         fmt(t["triton"], ".2f"), fmt(t["torch"], ".2f"),
                         fmt(ratio(t["tilekit"], t["raw cuLaunchKernel"]), ".3f"),
                         fmt(ratio(t["tilekit"], t["triton"]), ".3f"),
                         fmt(ratio(t["tilekit"], t["torch"]), ".3f")])
        sections.append(f"### {TITLES['launch_overhead']}\n\n" + table(
            ["kernel", "TileKit µs", "raw cuLaunchKernel µs", "Triton µs", "PyTorch µs",
             "TileKit/raw", "TileKit/Triton", "TileKit/PyTorch"], rows,
            ["---"] + ["---:"] * 7))

    shapes = shapes_of(order, "matmul")
    if shapes:
        impls = ("tilekit", "tilekit sm_80", "triton", "triton mma.sync", "torch")
        rows = []
        for shape in shapes:
            t = {impl: field(records, "matmul", shape, impl, "tflops") for impl in impls}
            notes = []
            for impl in impls:
                r = records.get(("matmul", shape, impl))
                if r:
                    notes.append(f"{impl}: {r.get('config', '')} ({r.get('check', '-')})")
            rows.append([shape] + [fmt(t[impl], ".1f") for impl in impls] + [
                fmt(ratio(t["tilekit"], t["triton"]), ".3f"),
                fmt(ratio(t["tilekit sm_80"], t["triton mma.sync"]), ".3f"),
                fmt(ratio(t["tilekit"], t["torch"]), ".3f"),
                "; ".join(notes)])
        sections.append(f"### {TITLES['matmul']}\n\n" + table(
            ["shape", "TileKit", "TileKit sm_80", "Triton wgmma", "Triton mma.sync", "torch",
             "TileKit/Triton wgmma", "TileKit sm_80/Triton mma.sync", "TileKit/torch",
             "configs (checks)"], rows, ["---"] + ["---:"] * 8 + ["---"]))

    shapes = shapes_of(order, "matmul_padded")
    if shapes:
        rows = []
        for shape in shapes:
            tk = field(records, "matmul_padded", shape, "tilekit", "tflops")
            tr = field(records, "matmul_padded", shape, "triton", "tflops")
            checks = "/".join(r.get("check", "-") for impl in ("tilekit", "triton")
                              if (r := records.get(("matmul_padded", shape, impl))))
            rows.append([shape, fmt(tk, ".1f"), fmt(tr, ".1f"), fmt(ratio(tk, tr), ".3f"), checks])
        sections.append(f"### {TITLES['matmul_padded']}\n\n" + table(
            ["shape, config", "TileKit", "Triton", "TileKit/Triton", "checks"], rows,
            ["---", "---:", "---:", "---:", "---"]))

    shapes = shapes_of(order, "attention")
    if shapes:
        # Pointers against pointers, descriptors against descriptors (when both ran).
        impls = ("tilekit", "tilekit descriptor", "triton", "triton descriptor", "torch sdpa")
        rows = []
        for shape in shapes:
            t = {impl: field(records, "attention", shape, impl, "tflops") for impl in impls}
            notes = [f"{impl}: {r.get('config', '')} ({r.get('check', '-')})" for impl in impls
                     if (r := records.get(("attention", shape, impl)))]
            best_tk = max((x for x in (t["tilekit"], t["tilekit descriptor"]) if x is not None),
                          default=None)
            best_triton = max((x for x in (t["triton"], t["triton descriptor"]) if x is not None),
                              default=None)
            rows.append([shape] + [fmt(t[impl], ".1f") for impl in impls] + [
                fmt(ratio(t["tilekit"], t["triton"]), ".3f"),
                fmt(ratio(t["tilekit descriptor"], t["triton descriptor"]), ".3f"),
                fmt(ratio(best_tk, best_triton), ".3f"),
                fmt(ratio(best_tk, t["torch sdpa"]), ".3f"), "; ".join(notes)])
        sections.append(f"### {TITLES['attention']}\n\n" + table(
            ["shape", "TileKit", "TileKit descriptor", "Triton", "Triton descriptor", "SDPA",
             "TileKit/Triton", "descriptor/descriptor", "best/best", "best TileKit/SDPA",
             "configs (checks)"], rows, ["---"] + ["---:"] * 9 + ["---"]))


    shapes = shapes_of(order, "w4a16")
    if shapes:
        impls = ("tilekit w4a16", "triton w4a16", "tilekit f16", "triton f16", "torch f16")
        rows = []
        for shape in shapes:
            t = {impl: field(records, "w4a16", shape, impl, "ms") for impl in impls}
            notes = [f"{impl}: {r.get('config', '')} ({r.get('check', '-')})" for impl in impls
                     if (r := records.get(("w4a16", shape, impl)))]
            rows.append([shape] + [fmt(t[impl], ".4f") for impl in impls] + [
                fmt(ratio(t["triton w4a16"], t["tilekit w4a16"]), ".3f"),
                fmt(ratio(t["tilekit f16"], t["tilekit w4a16"]), ".2f"),
                fmt(ratio(t["torch f16"], t["tilekit w4a16"]), ".2f"), "; ".join(notes)])
        sections.append(f"### {TITLES['w4a16']}\n\n" + table(
            ["shape", "TileKit W4A16", "Triton W4A16", "TileKit f16", "Triton f16", "cuBLAS f16",
             "TileKit/Triton (W4A16)", "f16/W4A16 (TileKit)", "cuBLAS f16/W4A16",
             "configs (checks)"], rows, ["---"] + ["---:"] * 8 + ["---"]))

    shapes = shapes_of(order, "sampling")
    if shapes:
        impls = ("tilekit", "triton", "torch")
        rows = []
        for shape in shapes:
            t = {impl: field(records, "sampling", shape, impl, "ms") for impl in impls}
            notes = [f"{impl}: {r.get('config', '')} ({r.get('check', '-')})" for impl in impls
                     if (r := records.get(("sampling", shape, impl)))]
            rows.append([shape] + [fmt(t[impl], ".4f") for impl in impls] + [
                fmt(ratio(t["triton"], t["tilekit"]), ".3f"),
                fmt(ratio(t["torch"], t["tilekit"]), ".3f"), "; ".join(notes)])
        sections.append(f"### {TITLES['sampling']}\n\n" + table(
            ["shape", "TileKit", "Triton", "PyTorch", "TileKit/Triton (speed)",
             "TileKit/PyTorch (speed)", "configs (checks)"], rows,
            ["---"] + ["---:"] * 5 + ["---"]))

    shapes = shapes_of(order, "tutorials")
    if shapes:
        rows = []
        for shape in shapes:
            tutorial, case = shape.split(" | ", 1)
            tk_rec = records.get(("tutorials", shape, "tilekit")) or {}
            tr_rec = records.get(("tutorials", shape, "triton")) or {}
            metric = tk_rec.get("metric") or tr_rec.get("metric") or ""
            tk_v = field(records, "tutorials", shape, "tilekit", "value")
            tr_v = field(records, "tutorials", shape, "triton", "value")
            notes = [f"{name}: {r.get('config') or r.get('note') or ''}".strip()
                     for name, r in (("TileKit", tk_rec), ("Triton", tr_rec)) if r]
            rows.append([tutorial, case, metric, fmt(tk_v, ".1f"), fmt(tr_v, ".1f"),
                         fmt(ratio(tk_v, tr_v), ".3f"), "; ".join(notes)])
        sections.append("### Triton's tutorials: TileKit's port and Triton's own kernel, same "
                        "cases (median of do_bench, L2 cleared; 11 through a CUDA graph)\n\n" +
                        table(["tutorial", "case", "unit", "TileKit", "Triton",
                               "TileKit/Triton", "configs / notes"], rows,
                              ["---", "---", "---", "---:", "---:", "---:", "---"]))

    print("\n\n".join(sections))
    print("\nGB/s ratios above 1 and time ratios below 1 favour TileKit. % copy: against the copy "
          "measured in the same process (TileKit: cuMemcpyDtoD; Triton, PyTorch: Tensor.copy_).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
