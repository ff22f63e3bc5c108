#!/usr/bin/env bash
# A bad toolchain and a poisoned disk cache on a GPU machine, through the bundle's examples: each
# case runs `vector_add` (TK_REQUIRE_GPU=1) with TK_DEBUG=1 and checks that it computes the right
# answer on the GPU and that the log says what happened. Run from anywhere:
#
#   toolchain_misuse.sh <bundle dir>      exits 1 if a case failed; one line per case
set -uo pipefail
bundle=$(cd "${1:?usage: toolchain_misuse.sh <bundle dir>}" && pwd -P) || exit 2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tk-misuse.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
export TK_BACKEND_LIBRARY="$bundle/lib/libtilekit_backend.so" TK_REQUIRE_GPU=1 TK_DEBUG=1
failed=0

fake() { # fake <name> <body>: an executable ptxas stand-in
  printf '#!/bin/sh\n%s\n' "$2" > "$scratch/$1" && chmod +x "$scratch/$1"
}
fake garbage 'for a; do case $p in -o) echo garbage > "$a";; esac; p=$a; done; exit 0'
fake nothing 'exit 0'
fake segv 'kill -SEGV $$'
fake hang 'sleep 600'

# run <case> <text> [VAR=value ...]: vector_add on the cache CACHE; the log must hold <text>, or
# must not hold it when <text> starts with "!".
run() {
  local name=$1 expect=$2
  shift 2
  local log="$scratch/$name.log"
  env TK_CACHE_DIR="$CACHE" "$@" timeout 120 "$bundle/bin/01-vector-add" > "$log" 2>&1
  local rc=$?
  local found=1
  case $expect in
    !*) grep -q -- "${expect#!}" "$log" && found=0 ;;
    *) grep -q -- "$expect" "$log" || found=0 ;;
  esac
  if [ $rc -eq 0 ] && grep -q "on GPU (.*OK$" "$log" && [ $found -eq 1 ]; then
    echo "PASS $name"
  else
    echo "FAIL $name (exit $rc)"
    sed 's/^/    /' "$log"
    failed=1
  fi
  [ -n "${VERBOSE:-}" ] && sed 's/^/    /' "$log"
}

CACHE="$scratch/cache1"
run "ptxas writes garbage: falls back, nothing cached as a cubin" "wrote an invalid cubin" \
  TK_PTXAS="$scratch/garbage" TK_NVJITLINK=0
run "then the real toolchain: another key, compiled by ptxas" "cubin by ptxas"
run "and again: a disk-cache hit (nothing compiled)" "!cubin by"
CACHE="$scratch/cache2"
run "ptxas writes nothing" "wrote no cubin" TK_PTXAS="$scratch/nothing" TK_NVJITLINK=0
run "ptxas killed by SIGSEGV: the signal is named" "signal 11 (SIGSEGV)" \
  TK_PTXAS="$scratch/segv" TK_NVJITLINK=0
run "ptxas hangs: killed after TK_PTXAS_TIMEOUT" "did not finish within 2 s" \
  TK_PTXAS="$scratch/hang" TK_PTXAS_TIMEOUT=2 TK_NVJITLINK=0

# Every entry of a cache, its binary replaced by a damaged ELF image under a valid checksum (what
# an older TileKit stored from a bad ptxas): the launch deletes it and compiles again.
CACHE="$scratch/cache3"
run "a clean compile fills the cache" "cubin by ptxas"
python3 "$(dirname "${BASH_SOURCE[0]}")/poison_cache.py" "$CACHE" || failed=1
run "a poisoned entry is deleted and compiled again" "deleting it and compiling again"
run "and the new entry is a hit" "!cubin by"
exit $failed
