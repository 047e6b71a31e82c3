# tests/lib.sh: helpers shared by the TAP shell tests under tests/ (sourced, not run).
# A test starts with
#   . "${TTREF_SRCDIR:-.}/tests/lib.sh"
# (make check exports TTREF_SRCDIR, TTREF_BIN and TTREF_TEST_DATA, also in out-of-tree and
# distcheck builds) and then uses: ok/no/notok/check/expect to print TAP lines, tl_tmpdir for
# a scratch directory removed at exit, tl_python/tl_numpy to find python3, tl_san_env for the
# sanitizer runtime a --enable-asan library needs, tl_abs for absolute program paths and
# tl_done to print the plan (for tests that print it last) and exit 1 when anything failed;
# tl_pylib and tl_relay for the tests of the python package.

TTREF_SRCDIR=${TTREF_SRCDIR:-.}
TTREF_TEST_DATA=${TTREF_TEST_DATA:-$TTREF_SRCDIR/tests/data}
n=0
fail=0
tmp=

# ---- TAP lines --------------------------------------------------------------------------
# ok DESC: a passing test
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# no DESC: a failing test; the first $TL_ERR_LINES (8) lines of $tmp/err follow as comments (the
# last ones when TL_ERR_TAIL is set)
no() {
  n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"
  if [ -n "$tmp" ] && [ -f "$tmp/err" ]; then
    if [ -n "${TL_ERR_TAIL:-}" ]; then sed 's/^/# /' "$tmp/err" | tail -n "${TL_ERR_LINES:-8}"
    else sed 's/^/# /' "$tmp/err" | head -n "${TL_ERR_LINES:-8}"; fi
  fi
  return 0
}
# notok DESC [DETAIL]: a failing test with its detail as comments
notok() {
  n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"
  [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/# /' | head -n "${TL_ERR_LINES:-8}"
  return 0
}
# check DESC SHELL-CONDITION [DETAIL]: ok when the condition (eval'd) holds
check() { if eval "$2"; then ok "$1"; else notok "$1" "${3:-}"; fi; }
# expect CODE PATTERN DESC -- command...: the command exits CODE and PATTERN (grep, may be
# empty) occurs in its stdout or stderr, saved as $tmp/out and $tmp/err. It runs under
# `timeout $TMO` when TMO is set, so a hang fails instead of stopping the suite.
expect() {
  _code=$1; _pat=$2; _desc=$3; shift 4
  if [ -n "${TMO:-}" ]; then timeout "$TMO" "$@" >"$tmp/out" 2>"$tmp/err"; else "$@" >"$tmp/out" 2>"$tmp/err"; fi
  _rc=$?
  if [ "$_rc" -ne "$_code" ]; then echo "exit $_rc, expected $_code" >>"$tmp/err"; no "$_desc"; return 0; fi
  if [ -n "$_pat" ] && ! grep -q -- "$_pat" "$tmp/err" "$tmp/out"; then echo "missing '$_pat'" >>"$tmp/err"; no "$_desc"; return 0; fi
  ok "$_desc"
}
# tl_done: print the plan "1..N" (for tests that did not print it first) and exit 1 on failure
tl_done() { echo "1..$n"; [ "$fail" -eq 0 ]; exit $?; }

# ---- scratch directory ------------------------------------------------------------------
# tl_tmpdir NAME: $tmp = a new directory under $TMPDIR (or /tmp), removed at exit (kept when
# KEEP is set). A test with more to clean defines tl_cleanup, run first at exit.
tl_exit() {
  command -v tl_cleanup >/dev/null 2>&1 && tl_cleanup
  if [ -n "${KEEP:-}" ]; then echo "# kept $tmp" >&2; elif [ -n "$tmp" ]; then rm -rf "$tmp"; fi
}
tl_tmpdir() {
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/ttref-$1.XXXXXX") || { echo "Bail out! mktemp -d failed"; exit 1; }
  trap tl_exit EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# ---- programs ---------------------------------------------------------------------------
# tl_abs PATH: PATH made absolute when it names a directory (./ttref -> /abs/ttref)
tl_abs() {
  case $1 in /*) echo "$1" ;; */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;; *) echo "$1" ;; esac
}
# tl_python: prints the python3 to use ($PYTHON, /usr/bin/python3, then python3 from PATH)
tl_python() {
  for _p in "${PYTHON:-}" /usr/bin/python3 python3; do
    [ -n "$_p" ] && command -v "$_p" >/dev/null 2>&1 && { echo "$_p"; return 0; }
  done
  echo python3
}
# tl_numpy: prints a python3 that imports numpy; fails (prints nothing) when there is none
tl_numpy() {
  for _p in "${PYTHON:-}" /usr/bin/python3 python3; do
    if [ -n "$_p" ] && "$_p" -c 'import numpy' >/dev/null 2>&1; then echo "$_p"; return 0; fi
  done
  return 1
}
# tl_san_env LIB: prints the environment assignments a program loading LIB from python (or any
# program not built with the sanitizers) needs when LIB was built with --enable-asan: the ASan
# runtime preloaded, leak checks off (the interpreter itself leaks). Empty otherwise.
tl_san_env() {
  if nm -D "$1" 2>/dev/null | grep -q ' __asan_init'; then
    echo "LD_PRELOAD=$(${CC:-cc} -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0"
  fi
}

# ---- the python package -----------------------------------------------------------------
# tl_pylib: sets PY (a python3 with numpy), B (the folder of $TTREF_BIN) and lib (B's
# .libs/libttref.so); prints a TAP skip plan and exits 0 when either is missing
tl_pylib() {
  B=$(cd "$(dirname "${TTREF_BIN:-./ttref}")" && pwd)
  PY=$(tl_numpy)
  if [ -z "$PY" ]; then echo "1..0 # SKIP no python3 with numpy (apt-get install python3-numpy)"; exit 0; fi
  lib=$B/.libs/libttref.so
  if [ ! -f "$lib" ]; then echo "1..0 # SKIP libttref was built without shared libraries (--disable-shared)"; exit 0; fi
}
# tl_relay WHAT NAME: the "ok"/"not ok" lines of $tmp/out (a script's TAP-style output) as this
# test's own, each prefixed "WHAT: "; an exit status $rc other than 0 without a "not ok" line
# fails as "NAME exited $rc"
tl_relay() {
  grep '^ok ' "$tmp/out" | sed 's/^ok [0-9]* - //' >"$tmp/oks"
  while IFS= read -r _l; do ok "$1: $_l"; done <"$tmp/oks"
  grep '^not ok ' "$tmp/out" | sed 's/^not ok [0-9]* - //' >"$tmp/nos"
  while IFS= read -r _l; do echo "$_l" >"$tmp/err"; no "$1: $_l"; done <"$tmp/nos"
  if [ "$rc" -ne 0 ] && [ ! -s "$tmp/nos" ]; then no "$2 exited $rc"; fi
}
