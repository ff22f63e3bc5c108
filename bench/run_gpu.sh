#!/usr/bin/env bash
# The side-by-side benchmarks on a GPU machine (bench/README.md): TileKit (bundle/bench_gpu),
# Triton and PyTorch (bench/peers.py) in one run, then one Markdown table per benchmark
# (bench/compare.py). Run from the directory that holds bench/ and bundle/, where bundle/ has
# bench_gpu and libtilekit_backend.so:
#
#   bash bench/run_gpu.sh            results in $OUT (default: ./bench_out)
#
# Writes tilekit.jsonl, peers.jsonl (the JSON lines), tilekit.log, peers.log (tables, every
# configuration tried, errors) and compare.md (printed last).
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
grep -i "failed\|mismatch" "$out/tilekit.log" "$out/peers.log" "$out/tilekit.jsonl" \
  "$out/peers.jsonl" || true

echo
"$python" "$here/bench/compare.py" "$out/tilekit.jsonl" "$out/peers.jsonl" | tee "$out/compare.md"
[ $rc_tk -eq 0 ] && [ $rc_peers -eq 0 ]
