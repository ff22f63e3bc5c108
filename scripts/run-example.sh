#!/usr/bin/env bash
# Builds and runs one TileKit example (default: 02-fused-softmax) with the `dev` preset.
#   bash scripts/run-example.sh [name] [args...]
# An example's name is its file's name without ".cpp": 01-vector-add ... 11-programmatic-dependent-
# launch, Triton's tutorials in examples/from_triton/ (see examples/CMakeLists.txt).
# The script does not set TK_INTERPRET: the example itself decides whether to
# run on the GPU or in the interpreter, and says which.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
name="${1:-02-fused-softmax}"
[ $# -gt 0 ] && shift
jobs="${TK_JOBS:-2}"

if ! compgen -G "examples/*/$name.cpp" >/dev/null; then
  echo "run-example: no such example '$name' (no examples/*/$name.cpp)" >&2
  available=()
  for f in examples/*/*.cpp; do
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
