#!/usr/bin/env bash
# Usage: run_gdb.sh <debug_kernel executable> <debug_kernel.cpp> <tools/gdb/tilekit.py>
# Breaks inside the kernel lambda for program instance 1 and checks what gdb prints.
set -euo pipefail
exe=$1 src=$2 printers=$3
if ! command -v gdb >/dev/null; then
  echo "SKIPPED: gdb is not installed"
  exit 77
fi
line=$(grep -n 'gdb-break-here' "$src" | cut -d: -f1)
out=$(gdb -q -batch -nx \
  -ex "source $printers" \
  -ex "break $(basename "$src"):$line if \$tk_scalar(pid) == 1" \
  -ex run -ex "print pid" -ex "print x" -ex "print offs" -ex continue \
  "$exe" 2>&1)
echo "$out"
expect() {
  if ! grep -qF -- "$1" <<<"$out"; then
    echo "FAILED: gdb output lacks: $1"
    exit 1
  fi
}
expect 'tk block i32 [] = {1}'
expect 'tk block f32 [8] = {8, 9, 10, 11, 12, 13, 14, 15}'
expect 'tk block i32 [8] = {8, 9, 10, 11, 12, 13, 14, 15}'
expect 'out[9] = 18'
echo "PASSED: gdb stopped in program instance 1 and showed its blocks"
