#!/bin/sh
# Tests of `ttref coverage` (TAP): every executable op of ir/ir_op_list.h has an
# item in the shipped suites or an entry with a reason in
# conformance/coverage_allow.txt, and no entry is stale; the ops the matrix
# counts as covered are exactly the mnemonics found in the suites' kernels
# (an independent grep); cells name their items; bad allow-lists and options
# are errors. The kernel suite (scripts/gen_kernel_suite.py) passes on the
# reference backend, every case with at least two specializations.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
ALLOW=$SRC/conformance/coverage_allow.txt
tl_tmpdir test_coverage_sh; T=$tmp
echo "1..8"

SUITES=
for d in "$SRC"/conformance/suite/*/; do
  ls "$d"*.yaml >/dev/null 2>&1 && SUITES="$SUITES ${d%/}"
done
# shellcheck disable=SC2086
"$BIN" coverage $SUITES --allow "$ALLOW" --check -o "$T/cov.md" 2>"$T/check.err"
rc=$?
check "every executable op has an item in the shipped suites or a reasoned allow-list entry, none stale" \
  "[ $rc -eq 0 ] && [ ! -s '$T/check.err' ]" "$(cat "$T/check.err")"

# shellcheck disable=SC2086
"$BIN" coverage $SUITES --check -o "$T/noallow.md" 2>"$T/noallow.err"
rc=$?
listed=$(grep -v '^ *#' "$ALLOW" | awk 'NF {print $1}' | sort)
named=$(sed -n 's/^coverage: executable op \([^ ]*\) has no item.*/\1/p' "$T/noallow.err" | sort)
if [ -n "$listed" ]; then
  check "without the allow-list --check fails (exit 1) and names exactly the allow-listed ops" \
    "[ $rc -eq 1 ] && [ -n '$named' ] && [ \"\$listed\" = \"\$named\" ]" "rc=$rc"
else # the allow-list is empty: every executable op has an item, with or without it
  check "with an empty allow-list, --check without it passes (exit 0) and names no op" \
    "[ $rc -eq 0 ] && [ -z '$named' ]" "rc=$rc $(head -c 300 "$T/noallow.err")"
fi

# independent oracle: mnemonics in the TTIR kernels the case files name (comment lines skipped), for
# the suites of TTIR kernels (traced .fx kernels are lowered by ttref itself)
TTIR_SUITES=
for s in $SUITES; do
  grep -q '^ *kernel: .*\.fx *$' "$s"/*.yaml || TTIR_SUITES="$TTIR_SUITES $s"
done
# shellcheck disable=SC2086
"$BIN" coverage $TTIR_SUITES -o "$T/cov_ttir.md" 2>/dev/null
for s in $TTIR_SUITES; do
  sed -n 's/^kernel: *//p; s/^ *kernel: *//p' "$s"/*.yaml | sort -u | (cd "$s" && tr '\n' '\0' | xargs -0 cat --)
done | grep -v '^ *//' >"$T/kernels.txt"
ops=$(sed -n 's/^X([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' "$SRC/ir/ir_op_list.h")
: >"$T/grep.txt"
for o in $ops; do
  e=$(printf '%s' "$o" | sed 's/\./\\./g')
  grep -Eq "(^|[^A-Za-z0-9_.\"])\"?$e\"?([^A-Za-z0-9_.]|\$)" "$T/kernels.txt" && echo "$o" >>"$T/grep.txt"
done
sed -n 's/^| `\([^`]*\)` | \([0-9][0-9]*\) | .*/\1 \2/p' "$T/cov_ttir.md" | awk '$2 > 0 {print $1}' | sort >"$T/matrix.txt"
sort -o "$T/grep.txt" "$T/grep.txt"
check "the ops the matrix counts as covered are the mnemonics grep finds in the suites' kernels" \
  "[ -s '$T/matrix.txt' ] && cmp -s '$T/matrix.txt' '$T/grep.txt'" "$(diff "$T/matrix.txt" "$T/grep.txt" | head -5)"

check "cells name the items covering them (floordivsi i32, atomic add i32, cmpf une f32, tf32 dot)" \
  "grep '^| \`arith.floordivsi\` | i32 | - | ' '$T/cov.md' | grep -q '\`core/mut_floordiv_i32\[default\]\`' &&
   grep '^| \`tt.atomic_rmw\` | i32 | atomic_rmw_op=add | ' '$T/cov.md' | grep -q 'core/atomic_add_i32\[default\]' &&
   grep '^| \`arith.cmpf\` | f32 | predicate=une | ' '$T/cov.md' | grep -q 'core/mut_cmpf_nan_f32' &&
   grep -q '^| \`tt.dot\` | f32->f32 | inputPrecision=tf32 | ' '$T/cov.md'"

check "uncovered expected cells are listed (no i8 cmpi, no bf16 maximumf in core)" \
  "grep '^| \`arith.cmpi\` | ' '$T/cov.md' | head -1 | grep -q 'i8' &&
   grep -q '^| \`arith.maximumf\` | [^|]*bf16' '$T/cov.md'"

printf 'tt.load   covered, so this entry is stale\nno.such_op   a reason\narith.subi\n' >"$T/bad_allow.txt"
# shellcheck disable=SC2086
"$BIN" coverage $SUITES --allow "$T/bad_allow.txt" --check -o /dev/null 2>"$T/bad.err"
rc=$?
check "a stale entry, an unknown op and an entry without reason fail --check, each named" \
  "[ $rc -eq 1 ] && grep -q 'tt.load is covered by [0-9]* item(s): remove it' '$T/bad.err' &&
   grep -q \"bad_allow.txt:2: 'no.such_op' is not an op\" '$T/bad.err' && grep -q 'bad_allow.txt:3: arith.subi needs a reason' '$T/bad.err'" \
  "rc=$rc $(cat "$T/bad.err" | head -3)"

"$BIN" coverage "$T/no-such-suite" >/dev/null 2>"$T/e1"
rc1=$?
"$BIN" coverage >/dev/null 2>"$T/e2"
rc2=$?
check "a missing suite and no suite at all are input errors (exit 2)" "[ $rc1 -eq 2 ] && [ -s '$T/e1' ] && [ $rc2 -eq 2 ]" "$rc1 $rc2"

K=$SRC/conformance/suite/kernels
"$BIN" conform "$K" --backend reference --report-dir "$T/kernels" -j 2 --no-progress >"$T/kernels.out" 2>&1
rc=$?
few=$(for f in "$K"/*.yaml; do [ "$(grep -c '^  - variant_key:' "$f")" -ge 2 ] || echo "$f"; done)
check "the kernel suite passes on the reference backend; every case has >= 2 specializations" \
  "[ $rc -eq 0 ] && grep -q '^[0-9]* passed, 0 failed' '$T/kernels.out' && [ -z '$few' ] && [ \$(ls '$K'/*.yaml | wc -l) -ge 15 ]" \
  "rc=$rc few=$few $(tail -3 "$T/kernels.out")"

[ $fail -eq 0 ]
