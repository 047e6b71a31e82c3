#!/bin/sh
# Integration tests of `ttref conform --localize` (TAP): a backend that is
# wrong in one op (fault:perturb:OP) fails, and localisation names that op and
# its kernel.ttir line, through masked loads, 2-D dots in k-loops, loop-carried
# values and reductions; a wrong store is "not in a probed value"; a correct
# backend triggers no localisation; the finding reaches journal, report.md,
# report.html and junit.xml.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SUITE=$SRC/conformance/suite/core
tl_tmpdir test_localize_sh; T=$tmp
# field ID KEY: the JSON string KEY of the journal record of item ID in directory $3
field() { grep -F "\"id\": \"$1\"" "$3/journal.jsonl" | sed -n "s/.*\"$2\": \"\\([^\"]*\\)\".*/\\1/p"; }
echo "1..11"

# localise OP FILTER DIR: run fault:perturb:OP with --localize on the items FILTER selects
localise() {
  "$BIN" conform "$SUITE" --backend "fault:perturb:$1" --localize --filter "$2" --report-dir "$T/$3" -j 2 --no-progress \
    >"$T/$3.out" 2>"$T/$3.err"
}

localise math.exp '^softmax_f32' exp
check "a wrong math.exp fails softmax and is localised to math.exp at its kernel.ttir line" \
  "[ \"\$(field 'softmax_f32[default]' localized_op '$T/exp')\" = math.exp ] &&
   field 'softmax_f32[default]' localized_at '$T/exp' | grep -q 'softmax_f32.ttir:32:'" "$(tail -3 "$T/exp.err")"
check "the finding says the op's own operands agreed" \
  "field 'softmax_f32[default]' localized '$T/exp' | grep -q 'operands agree bit for bit'"

localise tt.dot '^matmul_f32_ieee' dot
check "a wrong tt.dot in a k-loop with masked loads (2-D probes) is localised to tt.dot" \
  "[ \"\$(field 'matmul_f32_ieee[default]' localized_op '$T/dot')\" = tt.dot ]" "$(tail -3 "$T/dot.err")"

localise arith.addf '^cf_for_i32' loop
check "a wrong loop-carried arith.addf is localised to it, not to a later iteration's consumer" \
  "[ \"\$(field 'cf_for_i32[default]' localized_op '$T/loop')\" = arith.addf ] &&
   field 'cf_for_i32[default]' localized '$T/loop' | grep -q 'operands agree bit for bit'" "$(tail -3 "$T/loop.err")"

localise arith.addf '^reduce_sum_f32_ax1' red
check "a wrong addf inside a reduce combiner is localised to the tt.reduce" \
  "[ \"\$(field 'reduce_sum_f32_ax1[default]' localized_op '$T/red')\" = tt.reduce ]" "$(tail -3 "$T/red.err")"

localise arith.mulf '^layernorm_f16' ln
check "layernorm: a wrong arith.mulf is localised to the first mulf, with an upstream reduce agreeing" \
  "[ \"\$(field 'layernorm_f16[default]' localized_op '$T/ln')\" = arith.mulf ]" "$(tail -3 "$T/ln.err")"

"$BIN" conform "$SUITE" --backend fault:flip-lsb --localize --filter '^vadd_f32' --report-dir "$T/drop" -j 2 --no-progress \
  >/dev/null 2>"$T/drop.err"
check "a backend that computes every value right but stores wrong bits (fault:flip-lsb): no probed value diverges" \
  "[ \$? -eq 1 ] && field 'vadd_f32[n=4000]' localized '$T/drop' | grep -q 'no probed value diverges' &&
   [ -z \"\$(field 'vadd_f32[n=4000]' localized_op '$T/drop')\" ]" "$(tail -3 "$T/drop.err")"

"$BIN" conform "$SUITE" --backend reference --localize --filter '^(softmax_f32|vadd_f32|cf_for)' --report-dir "$T/ref" -j 2 \
  --no-progress >/dev/null 2>&1
check "the reference backend passes with --localize and nothing is localised" \
  "[ \$? -eq 0 ] && ! grep -q '\"localized\": \"[^\"]' '$T/ref/journal.jsonl' && [ -z \"\$(find '$T/ref' -name localize)\" ]"

"$BIN" conform "$SUITE" --backend fault:perturb:math.exp --filter '^softmax_f32' --report-dir "$T/nol" -j 2 --no-progress >/dev/null 2>&1
check "without --localize a FAIL is not localised" \
  "[ \$? -eq 1 ] && [ -z \"\$(field 'softmax_f32[default]' localized '$T/nol')\" ]"

check "report.md, report.html and junit.xml carry the finding" \
  "grep -q '## Localisation' '$T/exp/report.md' && grep -q 'first divergent op: math.exp' '$T/exp/report.md' &&
   grep -q 'localised:</b> first divergent op: math.exp' '$T/exp/report.html' &&
   grep -q 'first divergent op: math.exp' '$T/exp/junit.xml'"

"$BIN" conform "$SUITE" --backend fault:perturb:math.nope --report-dir "$T/bad" --no-progress >/dev/null 2>"$T/bad.err"
check "fault:perturb with an unknown op is refused (exit 2, named)" \
  "[ \$? -eq 2 ] && grep -q \"unknown op 'math.nope'\" '$T/bad.err'" "$(cat "$T/bad.err")"

[ "$fail" -eq 0 ]
