#!/bin/sh
# Vendor ops through the plugin path: tests/vendor/ops_acme.c is built here as a shared object
# and loaded with --ops (run, check, fmt, conform, golden; TTREF_OPS): outputs against a numpy
# oracle, located errors for bad use, an unknown vendor op without the plugin. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
S=${TTREF_SRCDIR:-.}
D=${TTREF_TEST_DATA:-tests/data}/vendor
K=$D/suite/kernels/acme.ttir
tl_tmpdir vendor
# expect CODE PATTERN DESCRIPTION -- command...
PY=$(tl_numpy)
[ -n "$PY" ] || PY=python3 # the numpy checks then fail with "No module named 'numpy'"
CC=${CC:-cc}
PLUG="-shared -fPIC -std=c11 -Wall -Wextra -Werror -I$S/ir"
P=$tmp/ops_acme.so
if $CC $PLUG -o "$P" "$S/tests/vendor/ops_acme.c" 2>"$tmp/err" &&
   $CC $PLUG -DNO_ENTRY -o "$tmp/noentry.so" "$S/tests/vendor/ops_acme.c" 2>>"$tmp/err" &&
   $CC $PLUG -DBAD_INIT -o "$tmp/badinit.so" "$S/tests/vendor/ops_acme.c" 2>>"$tmp/err"; then
  ok "the ops plugins build against ttref.h alone"
else no "the ops plugins build against ttref.h alone"; echo "1..$n"; exit 1; fi

# without the plugin: a located error naming the op and the way out
expect 2 "acme.ttir:17:10: error: unknown op \"acme.scaled_add\" (not a built-in op; a vendor op needs its registry or plugin: --ops PLUGIN.so)" \
  "an unknown vendor op without the plugin is a located error" -- "$T" check "$K"
expect 0 "" "check --ops accepts the vendor ops" -- "$T" check --ops "$P" "$K"
expect 0 "" "check --ops=PLUGIN works too" -- "$T" check "$K" --ops="$P"
expect 0 "" "TTREF_OPS loads the plugin for any command" -- env TTREF_OPS="$P" "$T" check "$K"
"$T" fmt --ops "$P" "$K" >"$tmp/f1.ttir" 2>"$tmp/err" && "$T" fmt --ops "$P" "$tmp/f1.ttir" >"$tmp/f2.ttir" 2>>"$tmp/err"
if cmp -s "$tmp/f1.ttir" "$tmp/f2.ttir" && grep -q '"acme.scaled_add"(%x, %y) {alpha = 5.000000e-01 : f32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>' "$tmp/f1.ttir"
then ok "fmt prints vendor ops in generic form and is idempotent"; else no "fmt prints vendor ops in generic form and is idempotent"; fi

# run: outputs against numpy
"$PY" - "$tmp" <<'PY' 2>"$tmp/err"
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(7)
np.save(f"{d}/x.npy", r.uniform(-4, 4, 64).astype(np.float32))
np.save(f"{d}/y.npy", r.uniform(-4, 4, 64).astype(np.float32))
np.save(f"{d}/k.npy", r.integers(1, 1 << 30, 64).astype(np.int32))
for name, dt in (("o", np.float32), ("m", np.int8), ("r", np.float32), ("l", np.int32)):
    np.save(f"{d}/{name}.npy", np.zeros(64, dt))
PY
A="--arg x_ptr=@$tmp/x.npy --arg y_ptr=@$tmp/y.npy --arg o_ptr=@$tmp/o.npy --arg m_ptr=@$tmp/m.npy --arg r_ptr=@$tmp/r.npy --arg k_ptr=@$tmp/k.npy --arg l_ptr=@$tmp/l.npy"
# shellcheck disable=SC2086
expect 0 "" "run --ops runs a kernel with four vendor ops" -- "$T" run --ops "$P" "$K" --grid 4 $A --out "$tmp/o1"
"$PY" - "$tmp" <<'PY' >"$tmp/err" 2>&1
import sys, numpy as np
d = sys.argv[1]
x, y, k = (np.load(f"{d}/{n}.npy") for n in "xyk")
o, m, r, l = (np.load(f"{d}/o1/{n}_ptr.npy") for n in "omrl")
assert np.array_equal(o.view(np.uint32), (x + np.float32(0.5) * y).view(np.uint32)), "scaled_add"
assert np.array_equal(m, (x > y).astype(np.int8)), "gt"
assert np.array_equal(r, x.reshape(4, 16)[:, ::-1].reshape(64)), "rev"
assert np.array_equal(l, np.array([int(v).bit_length() - 1 for v in k], np.int32)), "ilog2"
PY
if [ $? -eq 0 ]; then ok "elementwise (float, i1, int) and whole-tensor vendor ops match numpy bit for bit"; else no "elementwise (float, i1, int) and whole-tensor vendor ops match numpy bit for bit"; fi
# shellcheck disable=SC2086
"$T" run --ops "$P" "$K" --grid 4 $A --out "$tmp/o2" --threads 2 >/dev/null 2>&1
if cmp -s "$tmp/o1/o_ptr.npy" "$tmp/o2/o_ptr.npy" && cmp -s "$tmp/o1/r_ptr.npy" "$tmp/o2/r_ptr.npy"; then ok "outputs are identical for 1 and 2 threads"
else echo differs >"$tmp/err"; no "outputs are identical for 1 and 2 threads"; fi
# shellcheck disable=SC2086
expect 0 "" "run --precise with vendor ops" -- "$T" run --ops "$P" "$K" --grid 4 $A --out "$tmp/o3" --precise
if [ -f "$tmp/o3/o_ptr.precise.npy" ] && [ -f "$tmp/o3/o_ptr.bound.npy" ]; then ok "--precise writes values and bounds of vendor-op outputs"; else no "--precise writes values and bounds of vendor-op outputs"; fi
# shellcheck disable=SC2086
expect 0 "acme.ttir:26:5 acme.rev %rv : tensor<16xf32>" "--trace names vendor ops by their registered name" -- "$T" run --ops "$P" "$K" --grid 4 $A --trace-pids 1
# a fault in a vendor op: ilog2 of 0
"$PY" -c "import numpy as np, sys; k = np.ones(64, np.int32); k[37] = 0; np.save(sys.argv[1], k)" "$tmp/k0.npy"
# shellcheck disable=SC2086
expect 1 "acme.ttir:33:5: error: vendor op failed in 'acme.ilog2': pid (2, 0, 0) lane 5" \
  "a failing elementwise callback is a kernel fault naming the op, program and lane" -- "$T" run --ops "$P" "$K" --grid 4 $(echo "$A" | sed "s|@$tmp/k.npy|@$tmp/k0.npy|")

# bad use: located verifier errors
bad() { # bad LINE-REPLACEMENT PATTERN DESCRIPTION
  sed "$1" "$K" >"$tmp/bad.ttir"
  expect 2 "$2" "$3" -- "$T" check --ops "$P" "$tmp/bad.ttir"
}
bad 's|"acme.scaled_add"(%x, %y) {alpha = 5.000000e-01 : f32} : (tensor<16xf32>, tensor<16xf32>)|"acme.scaled_add"(%x) : (tensor<16xf32>)|' \
  "bad.ttir:17:5: error: 'acme.scaled_add' op expected 2 operands, but found 1" "wrong arity is a located verifier error"
bad 's|%m = "acme.gt"(%x, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>|%m = "acme.gt"(%x, %offs) : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xi1>|' \
  "error: 'acme.gt' op operands must have one element type, not f32 and i32" "the vendor's verifier rule rejects mixed types with its message"
bad 's|-> tensor<16xi1>|-> tensor<16xf32>|; s|%m8 = arith.extui %m : tensor<16xi1>|%m8 = arith.fptoui %m : tensor<16xf32>|' \
  "bad.ttir:21:5: error: 'acme.gt' op result type 'tensor<16xf32>' does not match the type its operands give, 'tensor<16xi1>'" "a result type other than the rule's is a located error"
bad 's|%l = "acme.ilog2"(%k) : (tensor<16xi32>) -> tensor<16xi32>|%l = "acme.ilog2"(%k) : (tensor<16xi32>) -> tensor<16xi64>|; s|tt.store %la, %l : tensor<16x!tt.ptr<i32>>|tt.store %la, %k : tensor<16x!tt.ptr<i32>>|' \
  "error: 'acme.ilog2' op requires the same type for all operands and results" "the default rule wants one type for operands and result"
bad 's|%rv = "acme.rev"(%x) : (tensor<16xf32>) -> tensor<16xf32>|%rv = "acme.rev"(%c16) : (i32) -> i32|; s|tt.store %ra, %rv|tt.store %ra, %x|' \
  "error: 'acme.rev' op operand must be a 1-D tensor, not rank 0" "a whole-tensor op's rule is applied"
bad 's|"acme.scaled_add"(%x, %y) {alpha = 5.000000e-01 : f32} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>|"acme.scaled_add"(%xa, %ya) : (tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>) -> tensor<16xf32>|' \
  "error: 'acme.scaled_add' op vendor ops take and give ints, floats and tensors of them, but operand #0 is 'tensor<16x!tt.ptr<f32>>'" "pointer operands are refused"
bad 's|%o = "acme.scaled_add"(%x, %y) {alpha = 5.000000e-01 : f32}|%o = acme.scaled_add(%x, %y)|' \
  "bad.ttir:17:10: error: unknown op 'acme.scaled_add': write vendor ops in generic form" "the custom form of a vendor op is refused with a hint"

for c in run check fmt conform golden; do
  expect 0 "--ops PLUGIN.so" "$c --help documents --ops" -- "$T" $c --help
done

TA=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
KA=$(cd "$(dirname "$K")" && pwd)/$(basename "$K")
expect 0 "" "a plugin path without '/' is a file in the current directory" -- sh -c 'cd "$1" && "$2" check --ops ops_acme.so "$3"' sh "$tmp" "$TA" "$KA"
expect 2 "cannot load ops plugin ops_acme.so" "... and is never searched for in the library path" -- env LD_LIBRARY_PATH="$tmp" "$TA" check --ops ops_acme.so "$KA"

# plugin problems
expect 2 "error: cannot load ops plugin $tmp/nope.so" "a missing plugin is a usage error" -- "$T" check --ops "$tmp/nope.so" "$K"
expect 2 "has no entry symbol 'ttref_ops_init'" "a plugin without ttref_ops_init is refused" -- "$T" check --ops "$tmp/noentry.so" "$K"
expect 2 "badinit.so: ttref_registry_add: 'acme.rev' is already registered" "a failing entry is refused with its message" -- "$T" check --ops "$tmp/badinit.so" "$K"
expect 2 "error: --ops needs a PLUGIN.so path" "--ops without a path" -- "$T" check "$K" --ops
expect 0 "" "the same plugin twice (TTREF_OPS and --ops) loads once" -- env TTREF_OPS="$P" "$T" check --ops "$P" "$K"

# suites: conform and golden with --ops, and through a process adapter (a ttref child)
expect 2 "unknown op \"acme.scaled_add\"" "conform without the plugin names the unknown op" -- "$T" conform "$D/suite" --backend reference --report-dir "$tmp/r0" --no-progress
expect 0 "1 passed, 0 failed" "conform --ops judges a suite case using vendor ops" -- "$T" conform "$D/suite" --ops "$P" --backend reference --report-dir "$tmp/r1" --no-progress
expect 0 "1 passed, 0 failed" "a process adapter (ttref run child) gets the plugin through TTREF_OPS" -- env TTREF_BIN="$(cd "$(dirname "$T")" && pwd)/$(basename "$T")" "$T" conform "$D/suite" --ops "$P" --backend "$S/scripts/adapters/ttref_adapter.py" --report-dir "$tmp/r2" --no-progress
"$T" golden "$D/suite" --ops "$P" --out "$tmp/g1" >/dev/null 2>"$tmp/err" && "$T" golden "$D/suite" --ops "$P" --out "$tmp/g2" >/dev/null 2>>"$tmp/err"
if [ $? -eq 0 ] && diff -r "$tmp/g1" "$tmp/g2" >>"$tmp/err" 2>&1 && [ -n "$(find "$tmp/g1" -name 'l_ptr*.npy')" ]; then ok "golden --ops writes goldens, bit-identical when regenerated"
else no "golden --ops writes goldens, bit-identical when regenerated"; fi
expect 0 "" "golden --verify --ops recomputes them" -- "$T" golden "$D/suite" --ops "$P" --verify "$tmp/g1"


# --localize and --mutants on kernels with vendor ops
field() { grep -F "\"id\": \"$1\"" "$3/journal.jsonl" | sed -n "s/.*\"$2\": \"\\([^\"]*\\)\".*/\\1/p"; }
expect 2 "fault:perturb: unknown op 'acme.nope'" "fault:perturb of an op no plugin registers is a usage error" -- \
  "$T" conform "$D/suite" --ops "$P" --backend fault:perturb:acme.nope --report-dir "$tmp/l0" --no-progress
expect 2 "unknown op \"acme.scaled_add\"" "... and a suite with vendor ops, perturbed, without its plugin" -- \
  "$T" conform "$D/suite" --backend fault:perturb:acme.scaled_add --report-dir "$tmp/l0" --no-progress
for v in "acme.scaled_add 17" "acme.rev 26"; do
  op=${v% *}; line=${v#* }
  expect 1 "first divergent op: $op at " "conform --localize names a wrong vendor op ($op) as the first divergent op" -- \
    "$T" conform "$D/suite" --ops "$P" --backend "fault:perturb:$op" --localize --report-dir "$tmp/l-$op" --no-progress
  if [ "$(field 'acme[default]' localized_op "$tmp/l-$op")" = "$op" ] && field 'acme[default]' localized_at "$tmp/l-$op" | grep -q "acme.ttir:$line:5" &&
     field 'acme[default]' localized "$tmp/l-$op" | grep -q 'operands agree bit for bit'
  then ok "... in the journal with its registered name, its kernel line and agreeing operands"
  else field 'acme[default]' localized "$tmp/l-$op" >"$tmp/err"; no "... in the journal with its registered name, its kernel line and agreeing operands"; fi
done
M=$D/mutants
expect 1 "first divergent op: acme.scaled_add at " "--localize through masked loads into a vendor op" -- \
  "$T" conform "$M" --ops "$P" --backend fault:perturb:acme.scaled_add --localize --report-dir "$tmp/l3" --no-progress
# --inject-fault OP (the perturbing backend's `ttref run`) takes vendor ops: o = fl32((x + 0.5 y)(1 + 2^-6))
# shellcheck disable=SC2086
expect 0 "" "run --inject-fault takes a vendor op" -- "$T" run --ops "$P" "$K" --grid 4 $A --out "$tmp/o4" --inject-fault acme.scaled_add
"$PY" - "$tmp" <<'PY' >"$tmp/err" 2>&1
import sys, numpy as np
d = sys.argv[1]
ref, got = np.load(f"{d}/o1/o_ptr.npy"), np.load(f"{d}/o4/o_ptr.npy")
want = np.where(ref == 0, np.float32(2.0**-6), (ref.astype(np.float64) * (1 + 2.0**-6)).astype(np.float32))
assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), "perturbed scaled_add"
assert np.array_equal(np.load(f"{d}/o4/r_ptr.npy"), np.load(f"{d}/o1/r_ptr.npy")), "other ops untouched"
PY
if [ $? -eq 0 ]; then ok "... growing only that op's results by 2^-6, rounded once (numpy)"; else no "... growing only that op's results by 2^-6, rounded once (numpy)"; fi
expect 2 "unknown op 'acme.scaled_add'" "... while a vendor op without its plugin is unknown" -- "$T" run "${TTREF_TEST_DATA:-tests/data}/ttir/vadd_f32.ttir" --grid 1 --inject-fault acme.scaled_add
expect 0 "" "conform --mutants judges the built-in mutants on a suite whose kernels use vendor ops" -- \
  "$T" conform "$M" --ops "$P" --mutants --report-dir "$tmp/mu" --no-progress
ok_mut=1
for m in cmpi-slt-as-sle store-mask-dropped load-other-dropped; do
  grep -q "^| \`$m\` | [^|]* | killed | 1 | 1 | 1 | yes |" "$tmp/mu/mutants.md" || { ok_mut=0; echo "$m not killed" >"$tmp/err"; }
done
grep -q ' 0 survived' "$tmp/out" || { ok_mut=0; cat "$tmp/out" >"$tmp/err"; }
if [ $ok_mut -eq 1 ]; then ok "... the mask and comparison mutants around the vendor ops are killed by the item that targets them"
else no "... the mask and comparison mutants around the vendor ops are killed by the item that targets them"; fi
expect 2 "unknown op \"acme.scaled_add\"" "conform --mutants without the plugin names the unknown op" -- \
  "$T" conform "$M" --mutants --report-dir "$tmp/mu0" --no-progress
# the mutated reference as `ttref run --mutant` runs it: lanes 60..63, masked off, now written with x = 1, y = 0
"$PY" - "$tmp" <<'PY' 2>"$tmp/err"
import sys, numpy as np
d = sys.argv[1]
r = np.random.default_rng(3)
np.save(f"{d}/mx.npy", r.uniform(-4, 4, 64).astype(np.float32))
np.save(f"{d}/my.npy", r.uniform(-4, 4, 64).astype(np.float32))
np.save(f"{d}/mk.npy", r.integers(1, 1 << 20, 64).astype(np.int32))
np.save(f"{d}/mo.npy", np.zeros(64, np.float32))
np.save(f"{d}/ml.npy", np.zeros(64, np.int32))
PY
MA="--grid 4 --arg x_ptr=@$tmp/mx.npy --arg y_ptr=@$tmp/my.npy --arg o_ptr=@$tmp/mo.npy --arg k_ptr=@$tmp/mk.npy --arg l_ptr=@$tmp/ml.npy --arg n=60"
# shellcheck disable=SC2086
"$T" run --ops "$P" "$M/kernels/masked.ttir" $MA --out "$tmp/m1" >"$tmp/err" 2>&1 &&
  "$T" run --ops "$P" "$M/kernels/masked.ttir" $MA --out "$tmp/m2" --mutant store-mask-dropped >>"$tmp/err" 2>&1 &&
"$PY" - "$tmp" <<'PY' >>"$tmp/err" 2>&1
import sys, numpy as np
d = sys.argv[1]
x, y = np.load(f"{d}/mx.npy"), np.load(f"{d}/my.npy")
want = x + np.float32(0.5) * y
want[60:] = 0
assert np.array_equal(np.load(f"{d}/m1/o_ptr.npy").view(np.uint32), want.view(np.uint32)), "reference"
want[60:] = 1
assert np.array_equal(np.load(f"{d}/m2/o_ptr.npy").view(np.uint32), want.view(np.uint32)), "store-mask-dropped"
PY
if [ $? -eq 0 ]; then ok "run --mutant store-mask-dropped on a vendor-op kernel writes the masked-off lanes (numpy)"
else no "run --mutant store-mask-dropped on a vendor-op kernel writes the masked-off lanes (numpy)"; fi

echo "1..$n"
[ "$fail" -eq 0 ]
