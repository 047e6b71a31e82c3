#!/bin/sh
# Per-op execution vectors (TAP): every elementwise op of ir/ir_op_list.h runs on the special
# values of each dtype (+-0, NaN, +-inf, subnormals, max finite, ties, integer MIN/MAX, shift
# amounts at the width) and matches an independent oracle (tests/ops/opvec.py: exact rationals,
# Python integers, numpy); then every executable op of the table, elementwise or not, parses,
# prints (the printed kernel checks again) and executes: one op-suite kernel using it
# (conformance/suite/ops) runs on the reference backend: its `edge` specialization (special values)
# where it has one, else `data`, else its first (the whole suite runs in make check-full).
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=$TTREF_SRCDIR
SUITE=$SRC/conformance/suite/ops
tl_tmpdir opvec
PY=$(tl_numpy) || { echo "1..0 # SKIP no python3 with numpy (apt-get install python3-numpy)"; exit 0; }

# ---- the vectors: opvec.py prints its own TAP lines; renumber them into ours -------------------
"$PY" "$SRC/tests/ops/opvec.py" "$BIN" "$tmp/vec" "$SRC/ir/ir_op_list.h" >"$tmp/vec.out" 2>"$tmp/err"; rc=$?
while IFS= read -r l; do
  case $l in
    "ok "*) ok "${l#ok * - }" ;;
    "not ok "*) notok "${l#not ok * - }" ;;
    "# "*) echo "$l" ;;
  esac
done <"$tmp/vec.out"
check "opvec.py ran to its plan (exit $rc)" "[ $rc -eq 0 ] && tail -n 1 '$tmp/vec.out' | grep -q '^1\.\.[0-9]'" "$(tail -n 5 "$tmp/err")"

# ---- every executable op: one op-suite kernel using it parses, prints and executes -------------
# the executable mnemonics (not IR_F_UNSUPPORTED; vendor ops have tests/vendor)
ops=$(sed -n 's/^X([A-Z_0-9]*, *"\([a-z_.0-9]*\)".*/\1/p' "$SRC/ir/ir_op_list.h" | while read -r op; do
  grep -q "X([A-Z_0-9]*, *\"$op\".*IR_F_UNSUPPORTED" "$SRC/ir/ir_op_list.h" || echo "$op"; done)
# a small set of kernels using them all (greedy cover: the kernel using the most ops not yet used)
"$PY" - "$SUITE/kernels" $ops >"$tmp/cover" 2>"$tmp/err" <<'PY'
import os, re, sys
d, ops = sys.argv[1], sys.argv[2:]
uses, opset = {}, set(ops)
# an op occurs where a whole run of [a-z_.0-9] follows start of line, ' ', '=', '(' or '"' and is
# followed by ' ', '"', '(' or end of line: one scan per file finds every such run
word = re.compile(r'(?:^|(?<=[ =("]))[a-z_.0-9]+(?=[ "(]|$)', re.M)
for f in sorted(os.listdir(d)):
    if f.endswith(".ttir"):
        uses[f[:-5]] = set(word.findall(open(os.path.join(d, f)).read())) & opset
left, pick = set(ops), []
while True:
    best = max(uses, key=lambda c: (len(uses[c] & left), c))
    if not uses[best] & left:
        break
    pick.append(best)
    left -= uses[best]
print(" ".join(pick))
# one specialization per kernel: edge (special values), else data, else the first
items = []
for c in pick:
    keys = re.findall(r"variant_key:\s*(\S+)", open(os.path.join(os.path.dirname(d), c + ".yaml")).read())
    k = "edge" if "edge" in keys else "data" if "data" in keys else keys[0]
    items.append(re.escape(c) + r"\[" + re.escape(k) + r"\]")
print("|".join(items))
print(" ".join(sorted(left)))
PY
cases=$(sed -n 1p "$tmp/cover"); missing=$(sed -n 3p "$tmp/cover"); items=$(sed -n 2p "$tmp/cover")
nops=$(echo $ops | wc -w)
check "every executable op of ir_op_list.h ($nops) has an op-suite kernel" "[ -z '$missing' ] && [ $nops -gt 100 ]" "missing:$missing"
bad=
for c in $cases; do
  "$BIN" fmt "$SUITE/kernels/$c.ttir" -o "$tmp/p.ttir" >"$tmp/err" 2>&1 && "$BIN" check "$tmp/p.ttir" >>"$tmp/err" 2>&1 ||
    bad="$bad $c"
done
check "the kernels using them parse, verify, print and the printed text verifies again" "[ -z '$bad' ]" "failed:$bad"
"$BIN" conform "$SUITE" --backend reference --filter "^($items)\$" -j 2 --no-progress --report-dir "$tmp/rep" \
  >"$tmp/conform.out" 2>"$tmp/err"; rc=$?
last=$(tail -n 1 "$tmp/conform.out")
ncases=$(echo $cases | wc -w)
nitems=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')
check "those $ncases kernels execute: one specialization of each passes on the reference (exit 0)" \
  "[ $rc -eq 0 ] && [ \"\${nitems:-0}\" -eq $ncases ]" "$last $(tail -n 3 "$tmp/err")"
tl_done
