#!/bin/sh
# Integration tests of `ttref conform`, `ttref golden` and `ttref report`
# (TAP): the reference passes the core suite, fault backends fail, crash and
# hang without stopping the run, a SIGKILL'd run resumes with exactly one
# result per case, shards merge, reports are well formed, goldens verify, and
# C plugin backends (tests/conform/plugin_*.c, built here with $CC) load once
# per worker, crash or hang into verdicts, and are refused with a clear error
# for a wrong ABI version or a missing entry symbol.
# make check runs the whole core suite once (the reference run) and the other whole-suite runs
# (stored goldens, SIGKILL and --resume, shards, the C plugin) on a fixed sample of it, $SAMPLE;
# make check-full (TTREF_CHECK_FULL=1) runs those on the whole suite too.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SUITE=$SRC/conformance/suite/core
GOLDEN=$SRC/golden/core
tl_tmpdir test_conform_sh; T=$tmp
count() { grep -c "\"verdict\": \"$2\"" "$1/journal.jsonl"; }
ids() { sed 's/^{"id": "\([^"]*\)".*/\1/' "$1/journal.jsonl" | sort; }
echo "1..33"
SAMPLE='^(float_|int_|cast_|dot_f16|vadd)'
case ${TTREF_CHECK_FULL:-} in "" | 0) ;; *) SAMPLE='^' ;; esac

# the number of case x specialization items of the suite
"$BIN" conform "$SUITE" --backend reference --report-dir "$T/ref" -j 2 --no-progress >"$T/ref.out" 2>"$T/ref.err"
rc=$?
N=$(wc -l <"$T/ref/journal.jsonl")
check "reference backend passes the core suite (exit 0)" "[ $rc -eq 0 ]" "$(tail -3 "$T/ref.err")"
check "core suite has at least 40 items ($N)" "[ $N -ge 40 ]"
# the items of the sample (all N in the full tier) and what the checks below call them
NS=$(ids "$T/ref" | grep -cE "$SAMPLE")
if [ "$NS" -eq "$N" ]; then WHAT="the core suite"; else WHAT="the core suite's sample ($NS of $N items)"; fi
check "reference: every item PASS or QUALITY_WARNING" \
  "[ \$((\$(count "$T/ref" PASS) + \$(count "$T/ref" QUALITY_WARNING))) -eq $N ]"
check "summary line says N passed, 0 failed" "grep -q '^$N passed, 0 failed' '$T/ref.out'"
# junit.xml must validate against the JUnit schema (tests/data/schema/junit.xsd);
# scripts/setup.sh installs xmllint (libxml2-utils), so these checks only SKIP
# on machines set up otherwise.  xmllint exits 3 on a validity error.
XSD=$SRC/tests/data/schema/junit.xsd
HAVE_XMLLINT=false
command -v xmllint >/dev/null 2>&1 && HAVE_XMLLINT=true
validate() { xmllint --noout --schema "$XSD" "$1" >/dev/null 2>"$1.xsd.err"; }
if $HAVE_XMLLINT; then
  validate "$T/ref/junit.xml"
  rc=$?
  check "junit.xml validates against the JUnit schema" "[ $rc -eq 0 ]" "xmllint exit $rc: $(head -3 "$T/ref/junit.xml.xsd.err")"
  # negative control: the same report without the testsuite's required name must be rejected
  sed 's/<testsuite name="[^"]*"/<testsuite/' "$T/ref/junit.xml" >"$T/noname.xml"
  validate "$T/noname.xml"
  rc=$?
  check "the schema rejects a junit.xml whose testsuite has no name" \
    "[ $rc -eq 3 ] && grep -q \"Element 'testsuite': The attribute 'name' is required\" '$T/noname.xml.xsd.err'" \
    "xmllint exit $rc: $(head -3 "$T/noname.xml.xsd.err")"
else
  check "junit.xml validates against the JUnit schema # SKIP no xmllint" "true"
  check "the schema rejects a junit.xml whose testsuite has no name # SKIP no xmllint" "true"
fi
check "report.html has the results table and the op x dtype matrix" \
  "grep -q '<table id=\"results\">' '$T/ref/report.html' && grep -q '<table id=\"matrix\">' '$T/ref/report.html' && grep -q '<svg' '$T/ref/report.html'"
check "results.tap has a plan and N ok lines" \
  "head -1 '$T/ref/results.tap' | grep -q '^1\\.\\.$N\$' && [ \$(grep -c '^ok ' '$T/ref/results.tap') -eq $N ]"
check "stored goldens verify: $WHAT" "'$BIN' golden '$SUITE' --verify '$GOLDEN' --filter '$SAMPLE' >/dev/null 2>'$T/verify.err'"

"$BIN" conform "$SUITE" --backend reference --golden "$GOLDEN" --filter "$SAMPLE" --report-dir "$T/gold" -j 2 --no-progress >/dev/null 2>&1
check "judging against stored goldens passes too: $WHAT" "[ \$? -eq 0 ] && [ \$(wc -l <'$T/gold/journal.jsonl') -eq $NS ]"

SUB='^(float_|int_|cast_|dot_f16_16|vadd)'
"$BIN" conform "$SUITE" --backend fault:flip-lsb --filter "$SUB" --report-dir "$T/flip" -j 2 --no-progress >/dev/null 2>&1
rc=$?
check "fault:flip-lsb fails exact float cases and the run completes" \
  "[ $rc -eq 1 ] && [ \$(count '$T/flip' FAIL) -ge 8 ] && grep -q '\"id\": \"float_add\\[f32\\]\", \"case\": \"float_add\".*\"verdict\": \"FAIL\"' '$T/flip/journal.jsonl' && [ \$(count '$T/flip' CRASH) -eq 0 ]"
check "fault:flip-lsb leaves integer cases passing" "grep -q '\"id\": \"int_add_i32\\[default\\]\".*\"verdict\": \"PASS\"' '$T/flip/journal.jsonl'"
M=$(wc -l <"$T/flip/journal.jsonl")
"$BIN" conform "$SUITE" --backend fault:crash --filter "$SUB" --report-dir "$T/crash" -j 2 --no-progress >/dev/null 2>&1
check "fault:crash gives CRASH for every item" "[ \$? -eq 1 ] && [ \$(count '$T/crash' CRASH) -eq $M ]"
if $HAVE_XMLLINT; then
  validate "$T/flip/junit.xml"
  rc=$?
  check "failing run: junit.xml validates, has <failure type=\"FAIL\"> and as many as its failures count" \
    "[ $rc -eq 0 ] && grep -q '<failure message=\"FAIL: [^\"]' '$T/flip/junit.xml' && grep -q '<failure [^>]* type=\"FAIL\">' '$T/flip/junit.xml' && [ \$(grep -c '<failure ' '$T/flip/junit.xml') -eq \$(sed -n 's/^  <testsuite .* failures=\"\\([0-9]*\\)\".*/\\1/p' '$T/flip/junit.xml') ]" \
    "xmllint exit $rc: $(head -3 "$T/flip/junit.xml.xsd.err")"
  validate "$T/crash/junit.xml"
  rc=$?
  check "crashing run: junit.xml validates and has one <error type=\"CRASH\"> per item" \
    "[ $rc -eq 0 ] && [ \$(grep -c '<error [^>]* type=\"CRASH\">' '$T/crash/junit.xml') -eq $M ]" \
    "xmllint exit $rc: $(head -3 "$T/crash/junit.xml.xsd.err")"
else
  check "failing run: junit.xml validates and has <failure> elements # SKIP no xmllint" "true"
  check "crashing run: junit.xml validates and has <error> elements # SKIP no xmllint" "true"
fi
"$BIN" conform "$SUITE" --backend fault:hang --filter '^int_(add|mul)' --timeout 1 --report-dir "$T/hang" -j 2 --no-progress >/dev/null 2>&1
check "fault:hang gives TIMEOUT and the run completes" "[ \$? -eq 1 ] && [ \$(count '$T/hang' TIMEOUT) -eq 2 ]"
ERRS=0
for k in truncate none bad-shape exit-error; do
  "$BIN" conform "$SUITE" --backend fault:$k --filter '^(vadd|int_add)' --report-dir "$T/$k" -j 2 --no-progress >/dev/null 2>&1
  [ "$(count "$T/$k" ERROR)" -eq 4 ] || ERRS=$((ERRS + 1))
done
check "truncated, missing, mis-shaped outputs and a failing exit give ERROR" "[ $ERRS -eq 0 ]"

cat >"$T/cfg.yaml" <<'CFG'
backend: flaky-gpu
capabilities: {tf32: false}
expected_failures:
  - {case: 'float_add', reason: 'https://example.invalid/issues/1'}
  - {case: 'int_add_i32', reason: 'https://example.invalid/issues/2'}
CFG
"$BIN" conform "$SUITE" --backend fault:flip-lsb --config "$T/cfg.yaml" --filter '^(float_add|int_add_i32|dot_f32_tf32)' \
  --report-dir "$T/xf" -j 2 --no-progress >/dev/null 2>&1
rc=$?
check "config: expected failures become XFAIL, a passing one XPASS (exit 1), tf32 cases SKIP" \
  "[ $rc -eq 1 ] && [ \$(count '$T/xf' XFAIL) -eq 3 ] && [ \$(count '$T/xf' XPASS) -eq 1 ] && [ \$(count '$T/xf' SKIP) -eq 1 ]"

# SIGKILL mid-run, then --resume: exactly one result per item
"$BIN" conform "$SUITE" --backend reference --filter "$SAMPLE" --report-dir "$T/kill" -j 1 --no-progress >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ]; do
  [ -f "$T/kill/journal.jsonl" ] && [ "$(wc -l <"$T/kill/journal.jsonl")" -ge 5 ] && break
  sleep 0.1
  i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(wc -l <"$T/kill/journal.jsonl")
"$BIN" conform "$SUITE" --backend reference --filter "$SAMPLE" --report-dir "$T/kill" -j 2 --resume --no-progress >/dev/null 2>&1
rc=$?
check "killed after $before of $NS items; --resume completes with exit 0" "[ $before -lt $NS ] && [ $rc -eq 0 ]"
check "after --resume: exactly one result per item of $WHAT" \
  "[ \$(ids '$T/kill' | wc -l) -eq $NS ] && [ \$(ids '$T/kill' | uniq | wc -l) -eq $NS ]"

"$BIN" conform "$SUITE" --backend reference --filter "$SAMPLE" --shard 0/2 --report-dir "$T/s0" -j 2 --no-progress >/dev/null 2>&1
"$BIN" conform "$SUITE" --backend reference --filter "$SAMPLE" --shard 1/2 --report-dir "$T/s1" -j 2 --no-progress >/dev/null 2>&1
"$BIN" report merge "$T/s0" "$T/s1" --out "$T/merged" >/dev/null 2>&1
check "shards 0/2 and 1/2 of $WHAT merge into one result per item" \
  "[ \$? -eq 0 ] && [ \$(ids '$T/merged' | uniq | wc -l) -eq $NS ] && [ -s '$T/merged/report.html' ]"

for mode in "" batch:; do
  TTREF_BIN="$BIN" "$BIN" conform "$SUITE" --backend "$mode$SRC/scripts/adapters/ttref_adapter.py" --filter '^(vadd|int_add)' \
    --report-dir "$T/adapter$mode" -j 2 --no-progress >/dev/null 2>&1
  check "process adapter ${mode:-per-case} mode: the example ttref adapter passes" \
    "[ \$? -eq 0 ] && [ \$(count '$T/adapter$mode' PASS) -eq 4 ]"
done

# C plugin backends
CC=${CC:-cc}
PLUG="-shared -fPIC -I$SRC/conformance"
$CC $PLUG -o "$T/plugin_ref.so" "$SRC/tests/conform/plugin_ref.c" 2>"$T/cc.err" &&
  $CC $PLUG -o "$T/plugin_bad.so" "$SRC/tests/conform/plugin_bad.c" 2>>"$T/cc.err" &&
  $CC $PLUG -DBAD_ABI -o "$T/plugin_abi.so" "$SRC/tests/conform/plugin_bad.c" 2>>"$T/cc.err" &&
  $CC $PLUG -DNO_ENTRY -o "$T/plugin_noentry.so" "$SRC/tests/conform/plugin_bad.c" 2>>"$T/cc.err" ||
  echo "# building the test plugins failed: $(head -3 "$T/cc.err")"
TTREF_BIN="$BIN" TTREF_PLUGIN_INIT_LOG="$T/init.log" "$BIN" conform "$SUITE" --backend "plugin:$T/plugin_ref.so" \
  --filter "$SAMPLE" --report-dir "$T/plugin" -j 2 --no-progress >/dev/null 2>"$T/plugin.err"
rc=$?
check "plugin backend (ttref run through the C ABI) passes $WHAT" \
  "[ $rc -eq 0 ] && [ \$((\$(count "$T/plugin" PASS) + \$(count "$T/plugin" QUALITY_WARNING))) -eq $NS ] && grep -q '\"backend_version\": \"plugin_ref 1 ' '$T/plugin/run.json'" \
  "$(tail -3 "$T/plugin.err")"
check "the plugin is loaded and initialised once per worker, not per item" \
  "[ \$(wc -l <'$T/init.log') -ge 1 ] && [ \$(wc -l <'$T/init.log') -le 2 ]"
TTREF_TEST_PLUGIN=crash "$BIN" conform "$SUITE" --backend "plugin:$T/plugin_bad.so" --filter '^(vadd|int_add)' \
  --report-dir "$T/pcrash" -j 2 --no-progress >/dev/null 2>&1
check "a crashing plugin gives CRASH, is restarted, and the run completes" \
  "[ \$? -eq 1 ] && [ \$(count '$T/pcrash' CRASH) -eq 3 ] && [ \$(count '$T/pcrash' UNSUPPORTED) -eq 1 ]"
TTREF_TEST_PLUGIN=hang "$BIN" conform "$SUITE" --backend "plugin:$T/plugin_bad.so" --filter '^int_(add|mul)' --timeout 1 \
  --report-dir "$T/phang" -j 2 --no-progress >/dev/null 2>&1
check "a hanging plugin gives TIMEOUT and the run completes" "[ \$? -eq 1 ] && [ \$(count '$T/phang' TIMEOUT) -eq 2 ]"
TTREF_TEST_PLUGIN=init-fail "$BIN" conform "$SUITE" --backend "plugin:$T/plugin_bad.so" --filter '^(vadd|int_add)' \
  --report-dir "$T/pinit" -j 2 --no-progress >/dev/null 2>&1
check "a plugin whose init fails gives ERROR naming init for every item" \
  "[ \$? -eq 1 ] && [ \$(count '$T/pinit' ERROR) -eq 4 ] && [ \$(grep -c 'init returned 7' '$T/pinit/journal.jsonl') -eq 4 ]"
"$BIN" conform "$SUITE" --backend "plugin:$T/plugin_abi.so" --report-dir "$T/pabi" --no-progress >/dev/null 2>"$T/pabi.err"
check "a plugin built for another ABI version is refused with a clear error (exit 2)" \
  "[ \$? -eq 2 ] && grep -q 'ABI version 99, but this ttref supports version 1' '$T/pabi.err'" "$(cat "$T/pabi.err")"
"$BIN" conform "$SUITE" --backend "plugin:$T/plugin_noentry.so" --report-dir "$T/pnoentry" --no-progress >/dev/null 2>"$T/pnoentry.err"
check "a plugin without ttref_backend_get_api is refused with a clear error (exit 2)" \
  "[ \$? -eq 2 ] && grep -q 'does not export ttref_backend_get_api()' '$T/pnoentry.err'" "$(cat "$T/pnoentry.err")"

cp -r "$GOLDEN" "$T/golden"
f=$(ls "$T"/golden/vadd_f16/default/o_ptr.npy)
printf '\001' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null
"$BIN" golden "$SUITE" --verify "$T/golden" --filter '^vadd_f16' >/dev/null 2>"$T/drift.err"
check "golden --verify fails on drift and names the file" \
  "[ \$? -eq 1 ] && grep -q 'vadd_f16/default/o_ptr.npy' '$T/drift.err'"
"$BIN" conform "$SUITE" --backend reference --golden "$T/golden" --filter '^vadd_f16' --report-dir "$T/gdrift" --no-progress >/dev/null 2>"$T/gdrift.err"
check "conform --golden refuses goldens that no longer match their MANIFEST (exit 2, names the file)" \
  "[ \$? -eq 2 ] && grep -q 'do not match their MANIFEST: 1 file(s) changed or missing, first vadd_f16/default/o_ptr.npy' '$T/gdrift.err'" "$(cat "$T/gdrift.err")"
sed -i 's/^semantics-version 1$/semantics-version 0/' "$T/golden/MANIFEST"
"$BIN" conform "$SUITE" --backend reference --golden "$T/golden" --filter '^vadd_f16' --report-dir "$T/gsem" --no-progress >/dev/null 2>"$T/gsem.err"
check "conform --golden refuses goldens made for another semantics version" \
  "[ \$? -eq 2 ] && grep -q 'made for semantics version 0' '$T/gsem.err'" "$(cat "$T/gsem.err")"
[ $fail -eq 0 ]
