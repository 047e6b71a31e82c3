#!/bin/sh
# test_cputime.sh: a LOG_COMPILER for `make check` that records each test's CPU time (user and
# system seconds of the test and every process it waited for) and wall time, one line a test:
#   make -j1 check LOG_COMPILER="$PWD/scripts/test_cputime.sh" TTREF_CPU_LOG="$PWD/cpu.txt"
#   sort -rn cpu.txt          # CPU SECONDS, USER, SYS, WALL, TEST; the heaviest first
# CPU time does not depend on the machine's load the way wall time does (docs/HACKING.md, Tests).
log=${TTREF_CPU_LOG:-test-cputime.txt}
[ $# -ge 1 ] || { echo "usage: $0 TEST [ARGS...]" >&2; exit 2; }
case $log in /*) ;; *) log=$(pwd)/$log ;; esac
start=$(mktemp "${TMPDIR:-/tmp}/ttref-cputime.XXXXXX") || exit 99
# /usr/bin/time (GNU) when present; otherwise the shell's `times` around a child shell
if [ -x /usr/bin/time ] && /usr/bin/time -f '%U' true >/dev/null 2>&1; then
  /usr/bin/time -o "$start" -f '%U %S %e' "$@"
  rc=$?
  # a non-zero exit adds a "Command exited with non-zero status" line first
  read -r u s e <<EOF
$(tail -n 1 "$start")
EOF
else
  t0=$(date +%s)
  "$@"
  rc=$?
  times >"$start"
  # `times`: shell user/sys, then children user/sys, as 0m1.234s
  read -r u s <<EOF
$(tail -n 1 "$start" | sed 's/\([0-9]*\)m\([0-9.]*\)s/\1 \2/g' | awk '{printf "%.2f %.2f", $1 * 60 + $2, $3 * 60 + $4}')
EOF
  e=$(($(date +%s) - t0))
fi
rm -f "$start"
awk -v u="$u" -v s="$s" -v e="$e" -v t="$1" 'BEGIN { printf "%7.2f %7.2f %7.2f %7.2f %s\n", u + s, u, s, e, t }' >>"$log"
exit $rc
