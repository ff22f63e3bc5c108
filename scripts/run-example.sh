#!/usr/bin/env bash
# Builds and runs one TileKit example (default: softmax) with the `dev` preset.
#   bash scripts/run-example.sh [name] [args...]
# Examples: vector_add, softmax, layernorm, layernorm_backward, dropout, matmul, attention (see
# examples/CMakeLists.txt).
# The script does not set TK_INTERPRET: the example itself decides whether to
# run on the GPU or in the interpreter, and says which.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
name="${1:-softmax}"
[ $# -gt 0 ] && shift
jobs="${TK_JOBS:-2}"

if [ ! -f "examples/$name.cpp" ]; then
  echo "run-example: no such example '$name' (examples/$name.cpp not found)" >&2
  available=()
  for f in examples/*.cpp; do
    [ -e "$f" ] && available+=("$(basename "$f" .cpp)")
  done
  echo "run-example: available: ${available[*]:-(none yet)}" >&2
  exit 2
fi

bash scripts/setup.sh
# Configure quietly; show CMake's output only if it fails.
if ! configure_log=$(cmake --preset dev 2>&1); then
  echo "$configure_log" >&2
  exit 1
fi
cmake --build --preset dev -j "$jobs" --target "tk_example_$name"

echo "== running build/dev/examples/$name${*:+ $*}"
exec "build/dev/examples/$name" "$@"
