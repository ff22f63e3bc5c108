#!/usr/bin/env bash
# Sets up dependencies, configures and builds with the `ci` preset (and the target `bundle`), and
# runs every CTest test (unit, compile-fail, header checks, examples, format, bundle, ...).
# Extra arguments are passed to ctest, e.g.:
#   bash scripts/test.sh -L unit        # only unit tests
#   bash scripts/test.sh -LE gpu        # everything except GPU tests
# Environment: TK_JOBS (default 2) = parallel build jobs and tests.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
jobs="${TK_JOBS:-2}"
build_dir=build/ci
log="$build_dir/ctest.log"
start=$SECONDS

summary() {
  local status=$1 stage=$2
  echo
  echo "==================== TileKit test summary ===================="
  if [ -f "$log" ] && [ "$stage" = test ]; then
    # "100% tests passed, 0 tests failed out of 12" plus any failed/skipped list
    sed -n -e '/tests passed, .* failed out of/,$p' "$log" | grep -v '^Errors while running CTest' || true
  fi
  if [ "$status" -eq 0 ]; then
    echo "RESULT: PASS ($((SECONDS - start))s)"
  else
    echo "RESULT: FAIL in stage '$stage' (exit $status, $((SECONDS - start))s)"
  fi
  echo "=============================================================="
  exit "$status"
}

echo "== setup"
bash scripts/setup.sh || summary $? setup

echo "== configure (preset ci)"
cmake --preset ci || summary $? configure

echo "== build (preset ci, -j$jobs)"
cmake --build --preset ci -j "$jobs" || summary $? build

# The relocatable bundle (docs/deploy.md), which the test bundle.relocated moves and runs; CTest
# cannot build it itself. Only with the backend, without which there is no bundle.
if grep -q '^TK_BUILD_BACKEND:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  echo "== bundle (preset ci, target bundle)"
  cmake --build --preset ci -j "$jobs" --target bundle || summary $? bundle
fi

echo "== test (preset ci)"
mkdir -p "$build_dir"
rm -f "$log"
ctest --preset ci -j "$jobs" --output-on-failure "$@" 2>&1 | tee "$log"
summary "${PIPESTATUS[0]}" test
