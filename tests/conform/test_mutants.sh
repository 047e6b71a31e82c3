#!/bin/sh
# Integration tests of `ttref conform --mutants` (TAP): built-in mutant
# backends (conformance/conform_mutant_list.h) are killed by the items that
# target them, a mutant the selected items cannot show is reported
# unexercised, one whose changes the compliance mode accepts survives, the
# score gates the exit code (4) and the results reach mutants.json/.md and
# the journal; bad options are usage errors.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SUITE=$SRC/conformance/suite/core
tl_tmpdir test_mutants_sh; T=$tmp
# mut DIR NAME KEY: the JSON value of KEY in mutant NAME's result of DIR/mutants.json (lists on their own lines)
mut() {
  awk -v n="{\"name\": \"$2\"" -v k="\"$3\": " '
    index($0, "{\"name\": ") { on = index($0, n) > 0 }
    on && index($0, k) {
      s = substr($0, index($0, k) + length(k))
      if (substr(s, 1, 1) == "[") sub(/\}?,?$/, "", s); else sub(/[,}].*$/, "", s)
      print s
      exit
    }' "$1/mutants.json"
}
echo "1..16"

rows=$(grep -c '^X(' "$SRC/conformance/conform_mutant_list.h")
"$BIN" conform --list-mutants >"$T/list.txt"
check "--list-mutants prints one line per row of conform_mutant_list.h (>= 20 mutants)" \
  "[ $rows -ge 20 ] && [ \$(wc -l <'$T/list.txt') -eq $rows ] && grep -q '^extsi-as-extui  *arith.extsi  *sign extension' '$T/list.txt'"

LIST=cmpi-signed-as-unsigned,cmpf-ordered-as-unordered,cmpf-une-as-one,remsi-as-remui,scan-reverse-ignored,atomic-cas-cmp-val-swapped
SEL='^(int_cmp_i32|mut_cmpf_nan_f32|mut_remsi_neg_i32|mut_scan_rev_f32|vadd_f32)'
"$BIN" conform "$SUITE" --mutants "$LIST" --filter "$SEL" --report-dir "$T/m" -j 2 --no-progress >"$T/m.out" 2>"$T/m.err"
rc=$?
check "a mutant run of 6 mutants on 6 items exits 0 without --min-score and prints the score" \
  "[ $rc -eq 0 ] && grep -q 'mutation score: 5 of 6 mutants killed (83.3%; 5 by an item that targets them), 0 survived, 1 unexercised' '$T/m.out'" \
  "rc=$rc $(cat "$T/m.out" "$T/m.err" | tail -5)"
check "signed-as-unsigned cmpi is caught by int_cmp_i32, which targets it" \
  "[ \"\$(mut '$T/m' cmpi-signed-as-unsigned caught)\" = '[\"int_cmp_i32[default]\"]' ] &&
   [ \"\$(mut '$T/m' cmpi-signed-as-unsigned killed_by_target)\" = true ]" "$(mut "$T/m" cmpi-signed-as-unsigned caught)"
check "ordered-as-unordered and une-as-one cmpf are killed by the NaN case mut_cmpf_nan_f32 only" \
  "[ \"\$(mut '$T/m' cmpf-ordered-as-unordered caught)\" = '[\"mut_cmpf_nan_f32[default]\"]' ] &&
   [ \"\$(mut '$T/m' cmpf-une-as-one status)\" = '\"killed\"' ]"
check "remsi-as-remui and scan-reverse-ignored are killed by their targeting cases" \
  "[ \"\$(mut '$T/m' remsi-as-remui caught)\" = '[\"mut_remsi_neg_i32[default]\"]' ] &&
   [ \"\$(mut '$T/m' scan-reverse-ignored caught)\" = '[\"mut_scan_rev_f32[default]\"]' ] &&
   [ \"\$(mut '$T/m' scan-reverse-ignored targeted_by)\" = '[\"mut_scan_rev_f32[default]\"]' ]"
check "a mutant no selected kernel can show (atomic_cas) is unexercised: applied 0, changed nothing" \
  "[ \"\$(mut '$T/m' atomic-cas-cmp-val-swapped status)\" = '\"unexercised\"' ] &&
   [ \"\$(mut '$T/m' atomic-cas-cmp-val-swapped applied)\" = 0 ] && [ \"\$(mut '$T/m' atomic-cas-cmp-val-swapped changed)\" = '[]' ] &&
   grep -q 'unexercised atomic-cas-cmp-val-swapped' '$T/m.out'"
check "items without the targeted op are not counted as changed (vadd_f32 has no remsi)" \
  "! mut '$T/m' remsi-as-remui changed | grep -q vadd"
check "mutants.md has the table row and the per-mutant sections; the journal carries one code per mutant" \
  "grep -q '^| \`atomic-cas-cmp-val-swapped\` | tt.atomic_cas | unexercised | 0 | 0 | 0 |' '$T/m/mutants.md' &&
   grep -q '^### \`remsi-as-remui\` (killed)' '$T/m/mutants.md' &&
   grep -F '\"id\": \"int_cmp_i32[default]\"' '$T/m/journal.jsonl' | grep -q '\"mutants\": \"K-----\"'"

"$BIN" conform "$SUITE" --mutants "$LIST" --filter "$SEL" --report-dir "$T/m" --resume --min-score 0.9 -j 2 --no-progress \
  >"$T/r.out" 2>&1
rc=$?
check "--resume re-reports from the journal; a score below --min-score exits 4" \
  "[ $rc -eq 4 ] && grep -q 'resuming: 6 of 6' '$T/r.out' && grep -q 'mutation score: 5 of 6' '$T/r.out'" "rc=$rc $(tail -3 "$T/r.out")"
"$BIN" conform "$SUITE" --mutants="$LIST" --filter "$SEL" --report-dir "$T/m" --resume --min-score 0.8 -j 2 --no-progress >/dev/null 2>&1
check "a score at or above --min-score exits 0 (--mutants=LIST form)" "[ \$? -eq 0 ]"

"$BIN" conform "$SUITE" --mutants ftz,truncf-rtz --filter '^(float_max_nan_f32|rope_bf16)' --report-dir "$T/s" -j 2 --no-progress \
  >"$T/s.out" 2>&1
check "mutants whose changes the compliance modes accept survive (ftz under allow_ftz, truncf-rtz within bf16 ULP bounds)" \
  "[ \"\$(mut '$T/s' ftz status)\" = '\"survived\"' ] && [ \"\$(mut '$T/s' ftz changed)\" = '[\"float_max_nan_f32[default]\"]' ] &&
   [ \"\$(mut '$T/s' ftz caught)\" = '[]' ] && [ \"\$(mut '$T/s' truncf-rtz status)\" = '\"survived\"' ]" "$(cat "$T/s.out")"

"$BIN" conform "$SUITE" --filter '^int_cmp_i32' --backend reference --report-dir "$T/plain" -j 1 --no-progress >/dev/null 2>&1
check "a run without --mutants writes no mutant codes and no mutants.json" \
  "! grep -q '\"mutants\"' '$T/plain/journal.jsonl' && [ ! -e '$T/plain/mutants.json' ]"

K=$SUITE/kernels/int_cmp_i32.ttir
"$BIN" run "$K" --mutant no-such-mutant --grid 1 >/dev/null 2>"$T/e1"
rc1=$?
"$BIN" conform "$SUITE" --mutants no-such-mutant,ftz --report-dir "$T/e" >/dev/null 2>"$T/e2"
rc2=$?
check "an unknown mutant is a usage error (exit 2) in run and conform" \
  "[ $rc1 -eq 2 ] && grep -q \"unknown mutant 'no-such-mutant'\" '$T/e1' && [ $rc2 -eq 2 ] && grep -q \"unknown mutant 'no-such-mutant'\" '$T/e2'" \
  "$rc1 $rc2 $(cat "$T/e1" "$T/e2")"
"$BIN" conform "$SUITE" --backend fault:flip-lsb --mutants --report-dir "$T/e" >/dev/null 2>"$T/e3"
rc3=$?
"$BIN" conform "$SUITE" --backend reference --min-score 0.5 --report-dir "$T/e" >/dev/null 2>"$T/e4"
rc4=$?
check "--mutants with another backend and --min-score without --mutants are usage errors" \
  "[ $rc3 -eq 2 ] && grep -q 'mutants of the reference backend' '$T/e3' && [ $rc4 -eq 2 ] && grep -q 'needs --mutants' '$T/e4'" \
  "$rc3 $rc4 $(cat "$T/e3" "$T/e4")"

TTREF_BIN=$BIN "$BIN" conform "$SUITE" --backend "$SRC/tests/conform/wide_acc_adapter.sh" --filter '^dot_f16_acc_f16_' \
  --report-dir "$T/wide" --keep-work -j 2 --no-progress >"$T/wide.out" 2>&1
rc=$?
check "an f16-accumulator dot computed with f32 partial sums (one rounding) passes the f16 bound (S3, S5)" \
  "[ $rc -eq 0 ] && grep -q '^2 passed, 0 failed' '$T/wide.out'" "$(tail -4 "$T/wide.out")"
check "... and its outputs differ from the reference's per-step f16 rounding: the bound covers both orders" \
  "! cmp -s '$T/wide/work/dot_f16_acc_f16_s3/default/outputs/o_ptr.npy' '$T/wide/work/dot_f16_acc_f16_s3/default/ref/o_ptr.npy' &&
   ! cmp -s '$T/wide/work/dot_f16_acc_f16_s5/default/outputs/o_ptr.npy' '$T/wide/work/dot_f16_acc_f16_s5/default/ref/o_ptr.npy'"

[ $fail -eq 0 ]
