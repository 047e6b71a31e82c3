#!/bin/sh
# Smoke test of `make bench` (scripts/bench/bench.py) on tiny sizes: it runs, prints a well-formed
# table with every kernel checked against its plain-C baseline, and a wrong ttref result is caught
# (a wrapper that perturbs arith.divf makes softmax's check fail). No timing is judged. Also checks
# `ttref run --time`: one phase line on stderr, outputs unchanged. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
S=${TTREF_SRCDIR:-.}
D=${TTREF_TEST_DATA:-tests/data}/corpus/triton-3.6-h100/vadd_f32
tl_tmpdir bench
if ! command -v python3 >/dev/null 2>&1 || ! command -v "${CC:-cc}" >/dev/null 2>&1; then
  echo "1..0 # SKIP needs python3 and a C compiler"; exit 0
fi
echo "1..6"
run() { "$T" run "$D/kernel.ttir" --grid 98 --arg "x_ptr=@$D/x_ptr.in.npy" --arg "y_ptr=@$D/y_ptr.in.npy" \
  --arg "o_ptr=@$D/o_ptr.in.npy" --arg n=100003 "$@"; }

run --out "$tmp/a" 2>"$tmp/err" && run --time --out "$tmp/b" 2>"$tmp/time" && cp "$tmp/time" "$tmp/err" &&
  [ "$(grep -c '^time: parse [0-9.]* s, bind [0-9.]* s, run [0-9.]* s, write [0-9.]* s, total [0-9.]* s$' "$tmp/time")" = 1 ] &&
  ok "run --time prints one phase line" || no "run --time prints one phase line"
cmp -s "$tmp/a/o_ptr.npy" "$tmp/b/o_ptr.npy" && ok "--time leaves the outputs unchanged" || no "--time leaves the outputs unchanged"

python3 "$S/scripts/bench/bench.py" --ttref "$T" --tiny --reps 1 --md "$tmp/t.md" >"$tmp/out" 2>"$tmp/err" &&
  ok "bench.py --tiny runs, every check ok (exit 0)" || no "bench.py --tiny runs, every check ok (exit 0)"
# the table: header, separator, one row per kernel, every row with the header's cell count
awk -F'|' '/^\|/ { if (!h) h = NF; else if (NF != h) bad = 1; r++ } END { exit !(r == 14 && h == 17 && !bad) }' "$tmp/t.md" &&
  ok "a well-formed table of 12 kernels" || { cp "$tmp/t.md" "$tmp/err"; no "a well-formed table of 12 kernels"; }
[ "$(grep -c '| ok |$' "$tmp/t.md")" = 12 ] && ok "every kernel matches its C baseline" ||
  { cp "$tmp/t.md" "$tmp/err"; no "every kernel matches its C baseline"; }

printf '#!/bin/sh\nexec "%s" "$@" --inject-fault arith.divf\n' "$T" >"$tmp/bad"
chmod +x "$tmp/bad"
python3 "$S/scripts/bench/bench.py" --ttref "$tmp/bad" --tiny --reps 1 --only softmax >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && grep -q '| FAIL: cmp: .*o_ptr.npy\[' "$tmp/out" && ok "a perturbed divf fails softmax's baseline check (exit 1)" ||
  { cat "$tmp/out" >>"$tmp/err"; no "a perturbed divf fails softmax's baseline check (exit 1)"; }
exit $((fail > 0))
