#!/bin/sh
# scripts/scoreboard.py (TAP): report directories of several suites become one scoreboard JSON
# whose totals are the sum of the runs', with every item, repo-relative paths and the same
# verdicts as each results.json; bad input is one line and exit 2.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=$(tl_abs "${TTREF_BIN:-./ttref}")
S=$TTREF_SRCDIR
PY=$(tl_python)
if [ -z "$PY" ]; then echo "1..0 # SKIP no python3"; exit 0; fi
tl_tmpdir scoreboard
mkdir -p "$tmp/deep/er"
# runs from a report directory deep elsewhere: the recorded paths climb out of it
"$T" conform "$S/conformance/suite/core" --backend reference --filter 'float_*' --report-dir "$tmp/deep/er/core" -j 2 --no-progress >/dev/null 2>&1
"$T" conform "$S/conformance/suite/kernels" --backend fault:flip-lsb --filter 'vector_add*' --report-dir "$tmp/deep/er/kernels" -j 2 --no-progress >/dev/null 2>&1
"$PY" "$S/scripts/scoreboard.py" --root "$S" --out "$tmp/sb.json" --md "$tmp/sb.md" "$tmp/deep/er/core" "$tmp/deep/er/kernels" >"$tmp/out" 2>"$tmp/err"
check "two suites combine" "[ $? -eq 0 ] && [ -s '$tmp/sb.json' ] && grep -q '2 suites' '$tmp/out'"
"$PY" - "$tmp" <<'PYEOF' >"$tmp/check" 2>&1
import json, sys
d = sys.argv[1]
b = json.load(open(d + "/sb.json"))
runs = [json.load(open(d + "/deep/er/%s/results.json" % s)) for s in ("core", "kernels")]
assert b["format"] == "ttref-scoreboard" and len(b["suites"]) == 2
assert b["totals"]["total"] == sum(r["summary"]["total"] for r in runs) > 0
assert b["totals"]["FAIL"] == sum(r["summary"]["FAIL"] for r in runs) > 0   # the flipped bits fail
for s, r in zip(b["suites"], runs):
    assert [(x["id"], x["verdict"]) for x in s["results"]] == [(x["id"], x["verdict"]) for x in r["results"]]
assert [s["suite"] for s in b["suites"]] == ["conformance/suite/core", "conformance/suite/kernels"], b["suites"]
assert all("/" + "tmp" not in json.dumps(s["suite"]) and ".." not in s["suite"] for s in b["suites"])
print("fine")
PYEOF
check "totals, items and verdicts equal the runs', paths repo-relative" "grep -q '^fine' '$tmp/check'" "$(cat "$tmp/check")"
check "the summary lists every failing item" "grep -q 'FAIL' '$tmp/sb.md' && [ \$(grep -c '^| .*\\]. | FAIL |' '$tmp/sb.md') -eq \$(grep -c '\"verdict\": \"FAIL\"' '$tmp/deep/er/kernels/results.json') ]"
"$PY" "$S/scripts/scoreboard.py" --root "$S" --out "$tmp/x.json" "$tmp/deep/er/core" "$tmp/deep/er/core" >"$tmp/out" 2>"$tmp/err"
check "a suite given twice with the same items is refused" "[ $? -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'appears twice' '$tmp/err'"
"$T" conform "$S/conformance/suite/core" --backend reference --filter 'int_*' --report-dir "$tmp/deep/er/core2" -j 2 --no-progress >/dev/null 2>&1
"$PY" "$S/scripts/scoreboard.py" --root "$S" --out "$tmp/m.json" "$tmp/deep/er/core" "$tmp/deep/er/core2" >"$tmp/out" 2>"$tmp/err"
"$PY" - "$tmp" <<'PYEOF' >"$tmp/check2" 2>&1
import json, sys
d = sys.argv[1]
b = json.load(open(d + "/m.json"))
r1, r2 = (json.load(open(d + "/deep/er/%s/results.json" % s)) for s in ("core", "core2"))
s = b["suites"]
assert len(s) == 1 and len(s[0]["results"]) == len(r1["results"]) + len(r2["results"]) > len(r1["results"])
assert b["totals"]["total"] == s[0]["summary"]["total"] == r1["summary"]["total"] + r2["summary"]["total"]
assert s[0]["later_runs"][0]["items"] == len(r2["results"])
print("fine")
PYEOF
check "a later run of new items of the same suite is merged" "grep -q '^fine' '$tmp/check2'" "$(cat "$tmp/check2")"
mkdir "$tmp/bad"; echo '{"format": "x"' >"$tmp/bad/results.json"; echo '{}' >"$tmp/bad/run.json"
"$PY" "$S/scripts/scoreboard.py" --out "$tmp/x.json" "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
check "a malformed results.json is one line, exit 2" "[ $? -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'not JSON' '$tmp/err'"
"$PY" "$S/scripts/scoreboard.py" --out "$tmp/x.json" "$tmp/none" >"$tmp/out" 2>"$tmp/err"
check "a missing report directory is one line, exit 2" "[ $? -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'cannot read' '$tmp/err'"
tl_done
