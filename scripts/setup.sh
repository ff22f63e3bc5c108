#!/usr/bin/env bash
# Installs TileKit's build/test dependencies on Debian 12 (bookworm).
#
# Idempotent: when everything is present it only runs one dpkg-query and
# returns in well under a second. As root it runs `apt-get update` once and
# `apt-get install -y` for whatever is missing; otherwise it prints the exact
# command to run and exits 1.
#
# The CUDA toolkit is only reported, never required.
set -euo pipefail

# Debian packages we need (dpkg-query checks these).
PACKAGES=(
  # header-only dependencies of tk::frontend
  libboost-dev librange-v3-dev
  # tests (g++-mingw-w64-x86-64-posix: headers.mingw, the Windows code paths)
  catch2 clang-22 clang-format-22 g++-mingw-w64-x86-64-posix
  # MLIR backend (lib/, tk-opt, lit tests) and IR checks
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 libzstd-dev
  # libFuzzer for tests/fuzz (clang-22 -fsanitize=fuzzer)
  libclang-rt-22-dev
  # build tools
  ninja-build ccache gdb
)
# Tools that may also come from elsewhere (e.g. pyenv's python3); installed
# from Debian only when no usable one is on PATH.
TOOLS=(g++ git python3)
MIN_CMAKE=3.25

missing=()

# One dpkg-query for all packages; an unknown package is reported on stderr.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${PACKAGES[@]}" 2>/dev/null || true)
for pkg in "${PACKAGES[@]}"; do
  # Whole-line fixed-string match: names like g++-mingw-... are not regexes.
  if ! grep -qxF -- "${pkg} ii " <<<"$installed"; then
    missing+=("$pkg")
  fi
done

for tool in "${TOOLS[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done

version_ge() { # version_ge A B: A >= B
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}
cmake_version=""
if command -v cmake >/dev/null 2>&1; then
  cmake_version=$(cmake --version | head -n1 | awk '{print $3}')
fi
if [ -z "$cmake_version" ] || ! version_ge "$cmake_version" "$MIN_CMAKE"; then
  missing+=(cmake)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: missing: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: not root; please run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # Wait (up to 10 min) for another apt/dpkg run instead of failing on the lock.
  apt_opts=(-o DPkg::Lock::Timeout=600)
  apt-get "${apt_opts[@]}" update -qq
  apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${missing[@]}"
  if command -v cmake >/dev/null 2>&1; then
    cmake_version=$(cmake --version | head -n1 | awk '{print $3}')
  fi
  if [ -z "$cmake_version" ] || ! version_ge "$cmake_version" "$MIN_CMAKE"; then
    echo "setup: cmake >= $MIN_CMAKE required, found '${cmake_version:-none}' ($(command -v cmake || true))" >&2
    exit 1
  fi
fi

# --- report ---------------------------------------------------------------
cuda=""
for candidate in "${CUDA_PATH:-}" /usr/local/cuda; do
  if [ -n "$candidate" ] && [ -x "$candidate/bin/nvcc" ]; then
    cuda="$candidate"
    break
  fi
done
if [ -z "$cuda" ] && command -v nvcc >/dev/null 2>&1; then
  cuda=$(dirname "$(dirname "$(command -v nvcc)")")
fi
if [ -n "$cuda" ]; then
  cuda_version=$("$cuda/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -n1)
  cuda_msg="CUDA ${cuda_version:-?} at $cuda"
else
  cuda_msg="CUDA toolkit not found (optional; GPU tests will be skipped)"
fi
echo "setup: OK -- cmake $cmake_version, $(g++ -dumpfullversion 2>/dev/null | sed 's/^/g++ /'), ${cuda_msg}"
