#!/usr/bin/env bash
# Test bundle.relocated (cmake/TkBundle.cmake): the bundle works after being moved. Copies
# <bundle dir> to a fresh temporary directory and there
#  - runs run-tests.sh --interpreter from another working directory: the examples on the
#    interpreter, and tk_find_backend, which must load the copied lib/libtilekit_backend.so;
#  - checks that every program linking the backend resolves it to the copy (ldd) through an RPATH
#    of $ORIGIN/../lib, and runs one (exit 0, or 77 without a GPU);
#  - checks the size limit and that the binaries are stripped.
# Skips (77) while the bundle is missing, or <stamp> (touched when it was assembled) is older than
# any of <built file>s: build the target `bundle` (scripts/test.sh does).
#
#   relocated.sh <bundle dir> <stamp> <max MiB> <built file>...
set -uo pipefail

bundle=$1 stamp=$2 max_mib=$3
shift 3
if [ ! -x "$bundle/run-tests.sh" ] || [ ! -e "$stamp" ]; then
  echo "SKIPPED: no bundle in $bundle; build it with: cmake --build <build dir> --target bundle"
  exit 77
fi
for built in "$@"; do
  if [ ! -e "$built" ] || [ "$built" -nt "$stamp" ]; then
    echo "SKIPPED: the bundle in $bundle is older than $built; rebuild it with:" \
      "cmake --build <build dir> --target bundle"
    exit 77
  fi
done

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tk-bundle-relocated.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
copy="$scratch/moved/tilekit"
mkdir -p "$scratch/moved" "$scratch/cwd"
cp -a "$bundle" "$copy" || exit 1
# Nothing may come from the build tree or the environment.
unset LD_LIBRARY_PATH TK_BACKEND_LIBRARY TK_INTERPRET TK_REQUIRE_GPU TK_CACHE_DIR

echo "== run-tests.sh --interpreter in $copy"
(cd "$scratch/cwd" && "$copy/run-tests.sh" --interpreter) | tee "$scratch/run.log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || fail "run-tests.sh --interpreter exited with $status"
grep -q '^PASS  backend.load ' "$scratch/run.log" || fail "tk_find_backend did not pass"
grep -q '^PASS  example\..*\.interpreter ' "$scratch/run.log" || fail "no example passed"

echo "== programs linking the backend"
linked=()
for program in "$copy"/bin/*; do
  deps=$(ldd "$program" 2> /dev/null) || continue
  grep -q 'libtilekit_backend\.so' <<< "$deps" || continue
  linked+=("$program")
  resolved=$(awk '/libtilekit_backend\.so/ { print $3 }' <<< "$deps")
  if [ "$(readlink -f "$resolved")" = "$(readlink -f "$copy/lib/libtilekit_backend.so")" ]; then
    echo "ok    ${program#"$copy"/} -> $resolved"
  else
    fail "${program#"$copy"/} resolves libtilekit_backend.so to '$resolved', not the bundle's"
  fi
  if command -v readelf > /dev/null; then
    rpath=$(readelf -d "$program" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
    # shellcheck disable=SC2016 # a literal $ORIGIN
    [ "$rpath" = '$ORIGIN/../lib' ] || fail "${program#"$copy"/} has RPATH '$rpath'"
  fi
done
[ "${#linked[@]}" -gt 0 ] || fail "no bundled program links libtilekit_backend.so"

# One of them, run: the dynamic loader must find the library before main (exit 127 otherwise).
for program in "${linked[@]}"; do
  case "$(basename "$program")" in
    tk_backend_gpu_test) args=("$copy/share/tilekit/tests/backend/inputs") ;;
    tk_e2e_gpu) args=() ;;
    *) continue ;;
  esac
  echo "== $(basename "$program") ${args[*]}"
  (cd "$scratch/cwd" && TK_REQUIRE_GPU=1 TK_CACHE_DIR="$scratch/cache" "$program" "${args[@]}")
  status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 77 ] || fail "$(basename "$program") exited with $status"
  break
done

echo "== size and symbols"
kib=$(du -sk "$copy" | cut -f1)
echo "bundle: $kib KiB (limit $max_mib MiB)"
[ "$kib" -le $((max_mib * 1024)) ] || fail "the bundle is $kib KiB, above $max_mib MiB"
if command -v readelf > /dev/null; then
  for file in "$copy"/bin/* "$copy"/lib/*.so; do
    if readelf -S "$file" 2> /dev/null | grep -q -e '\.symtab' -e '\.debug_info'; then
      fail "${file#"$copy"/} is not stripped"
    fi
  done
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "the bundle works after being moved"
