#!/usr/bin/env python3
"""What a user's translation unit pays for TileKit at build time.

Compiles, in one run and alternating between them, translation units that hold:

  baseline     only the standard (and Boost.Hana) headers that <tk/tk.hpp> includes
  include      #include <tk/tk.hpp> alone
  one_kernel   examples/from_triton/01-vector-add.cpp: one kernel defined, traced and launched
  bare_kernel  one kernel defined and launched on the interpreter, without the examples' harness
  ten_kernels  ten different kernels defined and launched in one file (generated here)

with each compiler given (g++ -O2, clang++ -O2, nvcc -O2 on a .cu copy), and prints the best
user + system time of each and its ratio to the baseline of the same compiler. The last three
again with TK_SEPARATE_COMPILATION (the headers' declarations only: docs/build-cost.md), plus
`implementation`, the one file such a program compiles the bodies in. A benchmark, not a
test: compare versions in one run, on a quiet machine (see docs/build-cost.md).

    python3 bench/build_cost.py [--reps N] [--compilers g++-12,clang++-22,nvcc] [--trace DIR]

--trace DIR also compiles one_kernel and ten_kernels with clang's -ftime-trace and writes the
traces (Chrome trace JSON, open in chrome://tracing or Perfetto) and a summary of the top
template instantiations and source files to DIR.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "include")
EXAMPLES = os.path.join(ROOT, "examples")


def tk_standard_headers():
    """The headers outside TileKit that its public headers include (POSIX ones where a header
    chooses between POSIX and Windows), sorted."""
    found = set()
    for directory, _, files in os.walk(os.path.join(INCLUDE, "tk")):
        for name in files:
            with open(os.path.join(directory, name)) as f:
                for line in f:
                    m = re.match(r"\s*#\s*include\s*<([^>]+)>", line)
                    if m and not m.group(1).startswith("tk/"):
                        found.add(m.group(1))
    windows = {"io.h", "direct.h", "process.h", "windows.h"}
    return sorted(found - windows)


# Ten kernels of one signature and different bodies, as a file of fused elementwise and row
# kernels would hold; each is launched once on the interpreter.
TEN_KERNELS = [
    ("add", "tk::load(x + o, m) + tk::load(y + o, m)"),
    ("mul", "tk::load(x + o, m) * tk::load(y + o, m)"),
    ("relu", "tk::maximum(tk::load(x + o, m), 0.0f)"),
    ("axpy", "2.0f * tk::load(x + o, m) + tk::load(y + o, m)"),
    ("clamp", "tk::minimum(tk::maximum(tk::load(x + o, m), -1.0f), 1.0f)"),
    ("select", "tk::where(tk::load(x + o, m) > tk::load(y + o, m), tk::load(x + o, m), 0.0f)"),
    ("exp", "tk::exp(tk::load(x + o, m) - tk::load(y + o, m))"),
    ("sigmoid", "1.0f / (1.0f + tk::exp(-tk::load(x + o, m)))"),
    ("rowsum", "tk::load(x + o, m) * tk::sum(tk::load(y + o, m, 0.0f), 0)"),
    ("rowmax", "tk::load(x + o, m) - tk::max(tk::load(y + o, m, -tk::inf<float>()), 0)"),
]


def kernels_source(kernels):
    out = ["#include <tk/tk.hpp>", "#include <vector>", ""]
    for name, body in kernels:
        out.append(
            f'inline auto k_{name} = tk::jit("{name}", [](tk::ptr<float> out, '
            "tk::ptr<const float> x, tk::ptr<const float> y, tk::i32 n, "
            "tk::constant<int> BLOCK) {\n"
            "  auto o = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);\n"
            "  auto m = o < n;\n"
            f"  tk::store(out + o, {body}, m);\n"
            "});")
    out += ["", "int main() {", "  const int n = 1000;",
            "  std::vector<float> x(n, 1.0f), y(n, 2.0f), out(n);",
            "  const tk::launch_options on_cpu{.backend = tk::backend::interpreter};"]
    for name, _ in kernels:
        out.append(f"  k_{name}.launch(tk::grid(tk::cdiv(n, 1024)), on_cpu, out.data(), x.data(), "
                   "y.data(), n, tk::constant(1024));")
    out += ["  return out[0] > 0 ? 0 : 1;", "}", ""]
    return "\n".join(out)


def write_units(directory):
    units = {}
    headers = tk_standard_headers()
    units["baseline"] = "".join(f"#include <{h}>\n" for h in headers) + "int main() {}\n"
    units["include"] = "#include <tk/tk.hpp>\nint main() {}\n"
    with open(os.path.join(EXAMPLES, "from_triton", "01-vector-add.cpp")) as f:
        units["one_kernel"] = f.read()
    units["bare_kernel"] = kernels_source(TEN_KERNELS[:1])
    units["ten_kernels"] = kernels_source(TEN_KERNELS)
    units["implementation"] = "#include <tk/implementation.hpp>\n"
    paths = {}
    for name, text in units.items():
        for ext in (".cpp", ".cu"):
            path = os.path.join(directory, name + ext)
            with open(path, "w") as f:
                f.write(text)
        paths[name] = os.path.join(directory, name)
    return paths, headers


# What is measured: (column, unit, whether with TK_SEPARATE_COMPILATION).
COLUMNS = [("baseline", "baseline", False), ("include", "include", False),
           ("one_kernel", "one_kernel", False), ("ten_kernels", "ten_kernels", False),
           ("include sep.", "include", True), ("one_kernel sep.", "one_kernel", True),
           ("ten_kernels sep.", "ten_kernels", True), ("bare_kernel sep.", "bare_kernel", True),
           ("implementation", "implementation", True)]


def command(compiler, base, extra=()):
    includes = ["-I", INCLUDE, "-I", EXAMPLES]
    if os.path.basename(compiler).startswith("nvcc"):
        return [compiler, "-std=c++20", "-O2", "-c", base + ".cu", "-o", os.devnull, *includes,
                *extra]
    return [compiler, "-std=c++20", "-O2", "-c", base + ".cpp", "-o", os.devnull, *includes,
            *extra]


def cpu_seconds(cmd):
    """User + system seconds of the children `cmd` ran as."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-4000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def summarize_trace(path, top=12):
    """The top template instantiations and sources of a -ftime-trace file, by total time."""
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    lines = []
    for kind in ("Total InstantiateFunction", "Total InstantiateClass", "Total Source",
                 "Total CodeGen Function", "Total Frontend", "Total Backend",
                 "Total OptFunction"):
        for e in events:
            if e.get("name") == kind:
                lines.append(f"{kind[6:]:22s} {e['dur'] / 1e3:8.0f} ms ({e['args']['count']} events)")
    # Sources are nested begin/end pairs: a header's time includes what it includes.
    sources, stack = {}, []
    for e in sorted((e for e in events if e.get("name") == "Source"), key=lambda e: e["ts"]):
        if e["ph"] == "b":
            stack.append((e["args"]["detail"], e["ts"]))
        elif stack:
            detail, start = stack.pop()
            if "/tk/" in detail:
                sources[detail] = sources.get(detail, 0) + e["ts"] - start
    for kind, by in (("InstantiateFunction", None), ("OptFunction", None),
                     ("Source (TileKit headers, with what they include)", sources)):
        if by is None:
            by = {}
            for e in events:
                if e.get("name") == kind and e.get("ph") == "X":
                    detail = e.get("args", {}).get("detail", "")
                    by[detail] = by.get(detail, 0) + e["dur"]
        lines.append(f"top {kind}:")
        for detail, dur in sorted(by.items(), key=lambda kv: -kv[1])[:top]:
            lines.append(f"  {dur / 1e3:8.1f} ms  {detail[:150]}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--compilers", default="g++-12,clang++-22,nvcc")
    parser.add_argument("--trace", metavar="DIR")
    args = parser.parse_args()
    compilers = []
    for c in args.compilers.split(","):
        path = shutil.which(c) or (shutil.which(os.path.join("/usr/local/cuda/bin", c)))
        if path:
            compilers.append(path)
        else:
            print(f"{c}: not found, skipped", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="tk_build_cost_") as tmp:
        paths, headers = write_units(tmp)
        print("baseline headers: " + " ".join(headers), file=sys.stderr)
        best = {}
        for rep in range(args.reps):
            for compiler in compilers:
                for column, unit, separate in COLUMNS:  # alternating: each once per round
                    extra = ["-DTK_SEPARATE_COMPILATION"] if separate else []
                    t = cpu_seconds(command(compiler, paths[unit], extra))
                    key = (os.path.basename(compiler), column)
                    best[key] = min(best.get(key, t), t)
                    print(f"  round {rep + 1}: {key[0]:11s} {column:16s} {t:6.2f} s",
                          file=sys.stderr)
        names = [column for column, _, _ in COLUMNS]
        print(f"| compiler | {' | '.join(names)} |")
        print("|---|" + "---:|" * len(names))
        for compiler in compilers:
            c = os.path.basename(compiler)
            base = best[(c, "baseline")]
            cells = [f"{best[(c, 'baseline')]:.2f} s"] + [
                f"{best[(c, n)]:.2f} s ({best[(c, n)] / base:.1f}×)" for n in names[1:]]
            print(f"| {c} | " + " | ".join(cells) + " |")
        if args.trace:
            clang = shutil.which("clang++-22") or shutil.which("clang++")
            os.makedirs(args.trace, exist_ok=True)
            for name, separate in (("one_kernel", False), ("ten_kernels", False),
                                   ("one_kernel", True)):
                obj = os.path.join(tmp, name + ".o")
                cmd = command(clang, paths[name],
                              ["-ftime-trace"] + (["-DTK_SEPARATE_COMPILATION"] if separate else []))
                cmd[cmd.index(os.devnull)] = obj
                subprocess.run(cmd, check=True)
                label = name + ("_separate" if separate else "")
                trace = os.path.join(args.trace, label + ".json")
                shutil.copy(os.path.join(tmp, name + ".json"), trace)
                summary = summarize_trace(trace)
                with open(os.path.join(args.trace, label + ".txt"), "w") as f:
                    f.write(summary + "\n")
                print(f"\n{label} (clang -ftime-trace):\n{summary}")


if __name__ == "__main__":
    main()
