#!/bin/sh
# Trustworthy verdicts (issue 16, TAP): an `ftz: true` config is judged against
# a flushed reference and --ftz keeps a bitcast's bits; config entries and
# --filter share one pattern language and an entry or filter matching nothing
# is an error; `report merge` checks shard completeness and identity; --resume
# refuses another backend; exact-mode FAILs report the true worst element;
# goldens are self-contained; docs/cli.md matches --help; reports hold no
# absolute path; report.html starts with the findings.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SRC=$(cd "$SRC" && pwd)
SUITE=$SRC/conformance/suite/core
tl_tmpdir test_verdicts_sh; T=$tmp
verdict() { grep -F "\"id\": \"$2\"" "$1/journal.jsonl" | sed -n 's/.*"verdict": "\([A-Z_]*\)".*/\1/p'; }


# ---- 1. FTZ: a flushing backend (ttref run --ftz as an adapter) ----
cat >"$T/ftz.sh" <<ADAPT
#!/bin/sh
exec "$BIN" run --launch "\$1/case.yaml" --ftz --out "\$1/outputs"
ADAPT
chmod +x "$T/ftz.sh"
printf 'backend: ftz-gpu\ncapabilities: {ftz: true}\n' >"$T/ftz.yaml"
FTZSEL='^(cast_f16_f32|bitcast_f32_i32)\['
"$BIN" conform "$SUITE" --backend "$T/ftz.sh" --filter "$FTZSEL" --report-dir "$T/f0" -j 2 --no-progress >/dev/null 2>&1
check "an FTZ backend without 'ftz: true' FAILs cast_f16_f32 (subnormal inputs)" "[ \"\$(verdict '$T/f0' 'cast_f16_f32[default]')\" = FAIL ]"
"$BIN" conform "$SUITE" --backend "$T/ftz.sh" --config "$T/ftz.yaml" --filter "$FTZSEL" --report-dir "$T/f1" -j 2 --no-progress >"$T/f1.out" 2>&1
check "with 'ftz: true' cast_f16_f32 is judged against the flushed reference and PASSes" \
  "[ \"\$(verdict '$T/f1' 'cast_f16_f32[default]')\" = PASS ]" "$(tail -3 "$T/f1.out")"
check "--ftz does not flush a load feeding a bitcast (bitcast_f32_i32 PASSes)" \
  "[ \"\$(verdict '$T/f1' 'bitcast_f32_i32[default]')\" = PASS ]"
"$BIN" conform "$SUITE" --backend fault:flip-lsb --config "$T/ftz.yaml" --filter '^cast_f16_f32\[' --report-dir "$T/f2" -j 2 --no-progress >/dev/null 2>&1
check "'ftz: true' still FAILs a wrong backend" "[ \"\$(verdict '$T/f2' 'cast_f16_f32[default]')\" = FAIL ]"

# ---- 2. one pattern language; entries matching nothing are errors ----
cat >"$T/xf.yaml" <<'CFG'
backend: flaky
expected_failures:
  - {case: 'float_add[f32]', reason: 'https://example.invalid/1'}
  - {case: 'int_add_*', reason: 'https://example.invalid/2'}
CFG
"$BIN" conform "$SUITE" --backend fault:flip-lsb --config "$T/xf.yaml" --filter 'float_add[f32]' --report-dir "$T/x1" -j 2 --no-progress >/dev/null 2>&1
rc=$?
check "a report id 'float_add[f32]' in expected_failures matches that item (XFAIL, exit 0)" \
  "[ $rc -eq 0 ] && [ \"\$(verdict '$T/x1' 'float_add[f32]')\" = XFAIL ] && [ \$(wc -l <'$T/x1/journal.jsonl') -eq 1 ]"
check "an exact-mode FAIL records a finite measure (max_ratio 1: the flipped bit is 1 ulp), not nan/null" \
  "grep -q '1 ulp apart' '$T/x1/journal.jsonl' && grep -q '\"max_ratio\": 1[,}]' '$T/x1/journal.jsonl'"
printf 'backend: typo\nexpected_failures:\n  - {case: "float_add[f32]", reason: r}\n  - {case: "flaot_add*", reason: r}\n' >"$T/typo.yaml"
"$BIN" conform "$SUITE" --backend reference --config "$T/typo.yaml" --filter 'float_add[f32]' --report-dir "$T/x2" --no-progress >/dev/null 2>"$T/x2.err"
rc=$?
check "an expected_failures entry matching no item is an error at its line (exit 2)" \
  "[ $rc -eq 2 ] && grep -q \"typo.yaml:4:5: error: expected_failures entry 'flaot_add\\*' matches no item\" '$T/x2.err'" "rc $rc: $(cat "$T/x2.err")"
printf 'backend: typo\nskip:\n  - {case: "nosuchcase", reason: r}\n' >"$T/skip.yaml"
"$BIN" conform "$SUITE" --backend reference --config "$T/skip.yaml" --filter 'float_add[f32]' --report-dir "$T/x3" --no-progress >/dev/null 2>"$T/x3.err"
check "a skip entry matching no item is an error too" "[ \$? -eq 2 ] && grep -q \"skip entry 'nosuchcase' matches no item\" '$T/x3.err'"
"$BIN" conform "$SUITE" --backend reference --filter 'int_add_*' --report-dir "$T/x4" -j 2 --no-progress >/dev/null 2>&1
check "--filter takes the same glob (int_add_* selects only int_add_ cases)" \
  "[ \$? -eq 0 ] && [ \$(wc -l <'$T/x4/journal.jsonl') -ge 1 ] && ! grep -v '\"id\": \"int_add_' '$T/x4/journal.jsonl' | grep -q ."

# ---- 6. a filter matching nothing, a missing --backend ----
"$BIN" conform "$SUITE" --backend reference --filter '^no_such_case' --report-dir "$T/e1" --no-progress >"$T/e1.out" 2>"$T/e1.err"
rc=$?
check "--filter matching nothing exits 2 with a clear error" \
  "[ $rc -eq 2 ] && grep -q \"^error: --filter '^no_such_case' matches none of the [0-9]* items\" '$T/e1.err'" "rc $rc: $(cat "$T/e1.err")"
"$BIN" conform "$SUITE" --report-dir "$T/e2" >/dev/null 2>"$T/e2.err"
rc=$?
check "leaving out --backend says so (exit 2)" "[ $rc -eq 2 ] && head -1 '$T/e2.err' | grep -q '^error: missing --backend'" "$(head -2 "$T/e2.err")"
"$BIN" golden "$SUITE" >/dev/null 2>"$T/e3.err"
rc=$?
"$BIN" report merge "$T/e1" >/dev/null 2>"$T/e4.err"
rc2=$?
check "golden without --out/--verify and report merge without --out say what is missing (exit 2)" \
  "[ $rc -eq 2 ] && [ $rc2 -eq 2 ] && head -1 '$T/e3.err' | grep -q '^error: missing --out DIR or --verify DIR' && head -1 '$T/e4.err' | grep -q '^error: missing --out DIR'"
"$BIN" golden "$SUITE" --out "$T/g0" --filter 'nothing*' >/dev/null 2>"$T/g0.err"
check "golden --filter matching nothing exits 2 too" "[ \$? -eq 2 ] && grep -q 'matches no item' '$T/g0.err'"

# ---- 3. report merge: completeness and identity ----
MSEL='^(float_add|int_add_i32)\['
for i in 0 1 2; do
  "$BIN" conform "$SUITE" --backend reference --filter "$MSEL" --shard $i/3 --report-dir "$T/s$i" -j 2 --no-progress >/dev/null 2>&1
done
"$BIN" conform "$SUITE" --backend fault:flip-lsb --filter "$MSEL" --shard 2/3 --report-dir "$T/sf" -j 2 --no-progress >/dev/null 2>&1
"$BIN" report merge "$T/s0" "$T/s1" "$T/s2" --out "$T/deep/m0" >/dev/null 2>"$T/m0.err"
rc=$?
check "merging shards 0,1,2 of 3 works and the header says all 3 shards, not 'shard 0/3'" \
  "[ $rc -eq 0 ] && grep -q 'shard all 3 of 3 (merged)' '$T/deep/m0/report.md' && ! grep -q 'shard 0/3' '$T/deep/m0/report.md'" "$(cat "$T/m0.err")"
check "the merged run.json names the suite relative to the merged directory" \
  "[ \"\$(cd '$T/deep/m0' && cd \"\$(sed -n 's/.*\"suite\": \"\\([^\"]*\\)\".*/\\1/p' run.json)\" && pwd)\" = '$SUITE' ]"
"$BIN" report merge "$T/s0" "$T/s2" --out "$T/m1" >/dev/null 2>"$T/m1.err"
check "a missing shard is refused, naming it (exit 2)" "[ \$? -eq 2 ] && grep -q 'incomplete: 2 of 3 shards, missing 1/3' '$T/m1.err'" "$(cat "$T/m1.err")"
"$BIN" report merge "$T/s0" "$T/s1" "$T/s1" "$T/s2" --out "$T/m2" >/dev/null 2>"$T/m2.err"
check "a duplicated shard is refused" "[ \$? -eq 2 ] && grep -q 'shard 1/3 is given twice' '$T/m2.err'" "$(cat "$T/m2.err")"
"$BIN" report merge "$T/s0" "$T/s1" "$T/sf" --out "$T/m3" >/dev/null 2>"$T/m3.err"
check "shards of different backends are refused" "[ \$? -eq 2 ] && grep -q \"backend differs: 'reference'.*'fault:flip-lsb'\" '$T/m3.err'" "$(cat "$T/m3.err")"
cp -r "$T/s2" "$T/sv"
sed 's/"ttref_version": "[^"]*"/"ttref_version": "0.0.0-other"/' "$T/s2/run.json" >"$T/sv/run.json"
"$BIN" report merge "$T/s0" "$T/s1" "$T/sv" --out "$T/m4" >/dev/null 2>"$T/m4.err"
check "shards of different ttref versions are refused" "[ \$? -eq 2 ] && grep -q 'ttref version differs' '$T/m4.err'" "$(cat "$T/m4.err")"
printf 'backend: other\n' >"$T/other.yaml"
"$BIN" conform "$SUITE" --backend reference --config "$T/other.yaml" --filter "$MSEL" --shard 2/3 --report-dir "$T/sc" -j 2 --no-progress >/dev/null 2>&1
"$BIN" report merge "$T/s0" "$T/s1" "$T/sc" --out "$T/m5" >/dev/null 2>"$T/m5.err"
check "shards of different configs are refused" "[ \$? -eq 2 ] && grep -q 'config differs' '$T/m5.err'" "$(cat "$T/m5.err")"
"$BIN" conform "$SRC/conformance/suite/ops" --backend reference --filter 'int_add_i32*' --shard 2/3 --report-dir "$T/so" -j 2 --no-progress >/dev/null 2>&1
"$BIN" report merge "$T/s0" "$T/s1" "$T/so" --out "$T/m7" >/dev/null 2>"$T/m7.err"
check "shards of different suites are refused" "[ \$? -eq 2 ] && grep -q \"suite differs: 'core'.*'ops'\" '$T/m7.err'" "$(cat "$T/m7.err")"
"$BIN" report merge "$T/s0" "$T/s1" "$T/sf" --out "$T/m6" --allow-mixed >/dev/null 2>"$T/m6.err"
check "--allow-mixed merges and labels the mix in run.json, report.md and report.html" \
  "grep -q '\"mixed\": \"backend differs' '$T/m6/run.json' && grep -q '^\*\*Mixed run\*\*' '$T/m6/report.md' && grep -q '<th>mixed run</th>' '$T/m6/report.html'"

# ---- 4. --resume identity; never replace a journal without --force ----
"$BIN" conform "$SUITE" --backend reference --filter "$MSEL" --report-dir "$T/r" -j 2 --no-progress >/dev/null 2>&1
cp "$T/r/journal.jsonl" "$T/r.journal"
"$BIN" conform "$SUITE" --backend fault:flip-lsb --filter "$MSEL" --report-dir "$T/r" --resume -j 2 --no-progress >/dev/null 2>"$T/r1.err"
check "--resume with another backend is refused (exit 2) and the journal is untouched" \
  "[ \$? -eq 2 ] && grep -q \"journal in .* is of backend 'reference', not 'fault:flip-lsb'\" '$T/r1.err' && cmp -s '$T/r/journal.jsonl' '$T/r.journal'" "$(cat "$T/r1.err")"
"$BIN" conform "$SUITE" --backend reference --config "$T/other.yaml" --filter "$MSEL" --report-dir "$T/r" --resume -j 2 --no-progress >/dev/null 2>"$T/r2.err"
check "--resume with another config is refused" "[ \$? -eq 2 ] && grep -q 'is of config' '$T/r2.err'" "$(cat "$T/r2.err")"
"$BIN" conform "$SRC/conformance/suite/ops" --backend reference --filter 'int_add_i32*' --report-dir "$T/r" --resume -j 2 --no-progress >/dev/null 2>"$T/r3.err"
check "--resume with another suite is refused" "[ \$? -eq 2 ] && grep -q 'is of suite' '$T/r3.err'" "$(cat "$T/r3.err")"
"$BIN" conform "$SUITE" --backend reference --filter "$MSEL" --report-dir "$T/r" -j 2 --no-progress >/dev/null 2>"$T/r4.err"
check "a run without --resume into a directory holding a journal is refused (exit 2), the journal kept" \
  "[ \$? -eq 2 ] && grep -q 'already holds a journal.jsonl' '$T/r4.err' && cmp -s '$T/r/journal.jsonl' '$T/r.journal'" "$(cat "$T/r4.err")"
"$BIN" conform "$SUITE" --backend reference --filter "$MSEL" --report-dir "$T/r" --resume -j 2 --no-progress >/dev/null 2>&1
check "--resume with the same backend, config and suite continues" "[ \$? -eq 0 ]"
"$BIN" conform "$SUITE" --backend fault:flip-lsb --filter "$MSEL" --report-dir "$T/r" --force -j 2 --no-progress >/dev/null 2>&1
check "--force replaces the journal" "[ \$? -eq 1 ] && grep -q '\"verdict\": \"FAIL\"' '$T/r/journal.jsonl'"

# ---- 9. no absolute path of this machine in any report ----
"$BIN" conform "$SUITE" --backend fault:exit-error --config "$T/other.yaml" --filter "$MSEL" --report-dir "$T/abs/rep" -j 2 --no-progress >/dev/null 2>&1
"$BIN" conform "$SUITE" --backend "$T/ftz.sh" --config "$T/ftz.yaml" --filter '^cast_f16_f32\[' --report-dir "$T/abs/rep2" -j 2 --no-progress >/dev/null 2>&1
absolute() { grep -l -E "(^|[^.])($T|$SRC)" "$1/run.json" "$1/results.json" "$1/report.md" "$1/report.html" "$1/junit.xml" "$1/results.tap"; }
check "reports hold paths relative to the report directory (run.json, results.json, report.md/html, junit, tap)" \
  "[ -z \"\$(absolute '$T/abs/rep')\" ] && [ -z \"\$(absolute '$T/abs/rep2')\" ] && grep -q 'log: work/float_add/f32/backend.log' '$T/abs/rep/report.md' && grep -q '\"backend_spec\": \"../../ftz.sh\"' '$T/abs/rep2/run.json'" \
  "$(absolute "$T/abs/rep") $(absolute "$T/abs/rep2")"

# ---- 8. docs/cli.md's option reference is the binary's --help ----
sh "$SRC/scripts/gen_cli_doc.sh" "$BIN" "$SRC/docs/cli.md" --check >/dev/null 2>"$T/doc.err"
check "docs/cli.md matches every --help text (scripts/gen_cli_doc.sh --check)" "[ \$? -eq 0 ]" "$(head -12 "$T/doc.err")"
sed 's/^  --resume      keep/  --resume      kept/' "$SRC/docs/cli.md" >"$T/cli.md"
sh "$SRC/scripts/gen_cli_doc.sh" "$BIN" "$T/cli.md" --check >/dev/null 2>"$T/doc2.err"
check "a docs/cli.md that drifted from --help fails the check" "[ \$? -eq 1 ] && grep -q 'drifted' '$T/doc2.err'"

# ---- 7. self-contained goldens: inputs, launch and kernel, content-addressed ----
"$BIN" golden "$SUITE" --out "$T/g" --filter '^(vadd|float_add)' >/dev/null 2>"$T/g.err"
missing=0
for sha in $(sed -n 's/^\(input\|kernel\) \([0-9a-f]*\)  .*/\2/p' "$T/g/MANIFEST"); do
  ls "$T/g/blobs/$sha".* >/dev/null 2>&1 || missing=$((missing + 1))
done
check "every input and kernel MANIFEST lists is written (blobs/SHA.*)" \
  "[ \$(grep -c '^input ' '$T/g/MANIFEST') -gt 0 ] && [ $missing -eq 0 ]" "$missing missing; $(cat "$T/g.err")"
check "identical inputs are stored once (one blob per distinct sha256)" \
  "[ \$(ls '$T/g/blobs' | grep -c '\\.npy\$') -eq \$(sed -n 's/^input \\([0-9a-f]*\\) .*/\\1/p' '$T/g/MANIFEST' | sort -u | wc -l) ]"
for f in "$T"/g/blobs/*; do
  b=$(basename "$f"); b=${b%.*}
  [ "$(sha256sum "$f" | cut -c1-64)" = "$b" ] || missing=$((missing + 1))
done
check "blobs are named by the sha256 of their content" "[ $missing -eq 0 ]"
"$BIN" run --launch "$T/g/float_add/f32/case.yaml" --out "$T/replay" >/dev/null 2>"$T/replay.err"
check "a golden item replays from the golden directory alone (case.yaml -> outputs equal the golden)" \
  "[ \$? -eq 0 ] && cmp -s '$T/replay/o_ptr.npy' '$T/g/float_add/f32/o_ptr.npy' && grep -q '^launch .*  float_add/f32/case.yaml\$' '$T/g/MANIFEST' && grep -q '^kernel .*  float_add/f32/kernel.ttir\$' '$T/g/MANIFEST'" \
  "$(cat "$T/replay.err")"
check "the golden directory verifies" "'$BIN' golden '$SUITE' --verify '$T/g' --filter '^(vadd|float_add)' >/dev/null 2>&1"
b=$(ls "$T/g/blobs" | head -1)
printf 'x' >>"$T/g/blobs/$b"
"$BIN" golden "$SUITE" --verify "$T/g" --filter '^(vadd|float_add)' >/dev/null 2>"$T/gv.err"
check "a changed blob is drift" "[ \$? -eq 1 ] && grep -q 'blobs/$b' '$T/gv.err'"

# ---- 10. report.html: the findings first, a readable reason column; kernel paths relative to the suite ----
"$BIN" conform "$SUITE" --backend fault:perturb:math.exp --localize --filter '^(softmax_f32|vadd_f32)\[' --report-dir "$T/h" -j 2 --no-progress >/dev/null 2>&1
H=$T/h/report.html
fl=$(grep -n '<h2 id="findings">' "$H" | cut -d: -f1)
el=$(grep -n '<h2>Environment' "$H" | cut -d: -f1)
check "report.html opens with the findings: the FAIL with its localisation, before every other section" \
  "[ -n '$fl' ] && [ -n '$el' ] && [ '$fl' -lt '$el' ] && sed -n '$fl,${el}p' '$H' | grep -q '<td>softmax_f32\\[default\\]</td><td>FAIL</td>.*math.exp at kernels/softmax_f32.ttir:32:5' && ! sed -n '$fl,${el}p' '$H' | grep -q 'vadd_f32'"
check "report.md lists the findings before its tables" \
  "grep -q '^- \\*\\*FAIL\\*\\* softmax_f32\\[default\\]: .* first divergent op math.exp at kernels/softmax_f32.ttir:32:5' '$T/h/report.md' && [ \$(grep -n '^## Findings' '$T/h/report.md' | cut -d: -f1) -lt \$(grep -n '^| verdict | count |' '$T/h/report.md' | cut -d: -f1) ]"
check "the reason column has a readable width (td.reason min-width, the wide table scrolls)" \
  "grep -q 'td.reason{min-width:32em' '$H' && grep -q '<div class=\"wide\"><table id=\"results\">' '$H' && grep -q '<td class=\"reason\">o_ptr: ulp f32' '$H'"
check "localisations name kernels relative to the suite, not by this machine's path" \
  "! grep -q -E '(^|[^.])$SRC' '$T/h/report.md' '$T/h/results.json' '$H'"
# the shipped kernels carry the compiling machine's Python paths in loc(...): reports show the file name
"$BIN" conform "$SRC/conformance/suite/kernels" --backend fault:perturb:math.exp --localize --filter 'fused_softmax[cols100]' \
  --report-dir "$T/py" -j 2 --no-progress >/dev/null 2>&1
check "Python source locations in localisations carry no directory of the compiling machine" \
  "grep -q '(gen_corpus.py:[0-9]*:[0-9]* (num))' '$T/py/report.md' && ! grep -q '/[a-z]*/[a-z/]*gen_corpus.py' '$T/py/report.md' '$T/py/report.html' '$T/py/results.json'"
# headless Chromium takes seconds: make check-full (TTREF_CHECK_FULL=1) renders, make check skips it
case ${TTREF_CHECK_FULL:-} in "" | 0) render=false ;; *) render=true ;; esac
if ! $render; then
  check "report.html renders in headless Chromium # SKIP the quick tier (make check-full renders it)" "true"
elif command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1; then
  sh "$SRC/tests/conform/render_report.sh" "$T/h" "$T/h.png" >/dev/null 2>"$T/render.err"
  check "report.html renders in headless Chromium" "[ \$? -eq 0 ]" "$(cat "$T/render.err")"
else
  check "report.html renders in headless Chromium # SKIP no chromium" "true"
fi

echo "1..$n"
