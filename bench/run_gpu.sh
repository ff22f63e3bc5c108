#!/usr/bin/env bash
# The side-by-side benchmarks on a GPU machine (bench/README.md): TileKit (bundle/bench_gpu),
# Triton and PyTorch (bench/peers.py) in one run, then one Markdown table per benchmark
# (bench/compare.py). Run from the directory that holds bench/ and bundle/, where bundle/ has
# bench_gpu and libtilekit_backend.so:
#
#   bash bench/run_gpu.sh            results in $OUT (default: ./bench_out)
#
# Writes tilekit.jsonl, peers.jsonl (the JSON lines), tilekit.log, peers.log (tables, every
# configuration tried, errors), the same for matmul (*_matmul.*; TK_BENCH_MATMUL=0 skips it) and
# compare.md (printed last).
set -u
here=$PWD
out=${OUT:-$here/bench_out}
mkdir -p "$out"
python=${PYTHON:-python3}

# Fresh, empty compile caches, so that no kernel comes from an earlier run.
cache=$(mktemp -d "${TMPDIR:-/tmp}/tk_bench_cache.XXXXXX")
triton_cache=$(mktemp -d "${TMPDIR:-/tmp}/triton_bench_cache.XXXXXX")
trap 'rm -rf "$cache" "$triton_cache"' EXIT

if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
    --format=csv,noheader > "$out/gpu.txt" 2>&1
  cat "$out/gpu.txt"
fi

exe=$here/bundle/bench_gpu lib=$here/bundle
if [ ! -x "$exe" ] && [ -x "$here/bundle/bin/bench_gpu" ]; then
  exe=$here/bundle/bin/bench_gpu lib=$here/bundle/lib
fi
echo "== TileKit ($exe)"
start=$(date +%s)
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  TK_BACKEND_LIBRARY="$lib/libtilekit_backend.so" TK_CACHE_DIR="$cache" \
  timeout 220 "$exe" > "$out/tilekit.jsonl" 2> "$out/tilekit.log"
rc_tk=$?
echo "bench_gpu: exit $rc_tk after $(( $(date +%s) - start )) s"
[ $rc_tk -eq 0 ] || tail -n 20 "$out/tilekit.log" "$out/tilekit.jsonl"

echo "== Triton and PyTorch (bench/peers.py)"
start=$(date +%s)
TRITON_CACHE_DIR="$triton_cache" timeout 220 "$python" "$here/bench/peers.py" \
  > "$out/peers.jsonl" 2> "$out/peers.log"
rc_peers=$?
echo "peers.py: exit $rc_peers after $(( $(date +%s) - start )) s"
[ $rc_peers -eq 0 ] || tail -n 20 "$out/peers.log"

# Matmul (fp16, bf16, tf32, int8 at 4096^3, 8192^3, 8192x8192x512), each side in its own run with
# its own time limit: every config is a fresh compile and the big shapes take seconds per launch
# on a slow path. Each side stops sweeping after TK_BENCH_MATMUL_SECONDS (default 300); the
# timeout leaves room for the last config and the checks. TK_BENCH_MATMUL=0 skips them.
rc_mm=0
if [ "${TK_BENCH_MATMUL:-1}" != 0 ]; then
  echo "== matmul: TileKit (bench_gpu --matmul)"
  start=$(date +%s)
  LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    TK_BACKEND_LIBRARY="$lib/libtilekit_backend.so" TK_CACHE_DIR="$cache" \
    timeout 420 "$exe" --matmul > "$out/tilekit_matmul.jsonl" 2> "$out/tilekit_matmul.log"
  rc=$?
  echo "bench_gpu --matmul: exit $rc after $(( $(date +%s) - start )) s"
  [ $rc -eq 0 ] || { rc_mm=$rc; tail -n 20 "$out/tilekit_matmul.log"; }
  echo "== matmul: Triton (wgmma, and mma.sync in a child) and torch (peers.py --matmul)"
  start=$(date +%s)
  TRITON_CACHE_DIR="$triton_cache" timeout 900 "$python" "$here/bench/peers.py" --matmul \
    > "$out/peers_matmul.jsonl" 2> "$out/peers_matmul.log"
  rc=$?
  echo "peers.py --matmul: exit $rc after $(( $(date +%s) - start )) s"
  [ $rc -eq 0 ] || { rc_mm=$rc; tail -n 20 "$out/peers_matmul.log"; }
  # The same fused matmul with padded leading dimensions (K + 8: rows 16-byte aligned, no
  # stride divisible by 16), one config per row, both sides.
  LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    TK_BACKEND_LIBRARY="$lib/libtilekit_backend.so" TK_CACHE_DIR="$cache" \
    timeout 200 "$exe" --matmul-padded >> "$out/tilekit_matmul.jsonl" 2>> "$out/tilekit_matmul.log"
  TRITON_CACHE_DIR="$triton_cache" timeout 300 "$python" "$here/bench/peers.py" --matmul-padded \
    >> "$out/peers_matmul.jsonl" 2>> "$out/peers_matmul.log"
fi
touch "$out/tilekit_matmul.jsonl" "$out/peers_matmul.jsonl"
grep -i "failed\|mismatch" "$out"/*.log "$out"/*.jsonl || true

echo
"$python" "$here/bench/compare.py" "$out/tilekit.jsonl" "$out/peers.jsonl" \
  "$out/tilekit_matmul.jsonl" "$out/peers_matmul.jsonl" | tee "$out/compare.md"
[ $rc_tk -eq 0 ] && [ $rc_peers -eq 0 ] && [ $rc_mm -eq 0 ]
