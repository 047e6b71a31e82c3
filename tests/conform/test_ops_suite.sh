#!/bin/sh
# The op conformance suite (conformance/suite/ops, TAP): a sample of its items
# (one shard in 6; the whole suite under make check-full) passes against the reference backend; every executable op of
# ir/ir_op_list.h appears in one of its kernels; the suite is big enough; wrong
# backends are caught (a perturbed op, a dropped store); the H100 backend config
# names real items (an expected failure that passes on the reference is XPASS).
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SUITE=$SRC/conformance/suite/ops
CONFIG=$SRC/conformance/backends/triton-3.6-h100.yaml
tl_tmpdir test_ops_suite_sh; T=$tmp
echo "1..9"

# a sample of the suite passes against the reference; `make check-full` (TTREF_CHECK_FULL=1) runs
# the whole suite (also `ttref conform conformance/suite/ops`)
shard="--shard ${TTREF_OPS_SHARD:-0/6}"; what="a shard of the op suite"; least=250
case ${TTREF_CHECK_FULL:-} in "" | 0) ;; *) shard=; what="the whole op suite"; least=2000 ;; esac
"$BIN" conform "$SUITE" --backend reference -j 2 $shard --report-dir "$T/ref" \
  --no-progress >"$T/ref.out" 2>&1
rc=$?
last=$(tail -1 "$T/ref.out")
check "$what passes against the reference backend (exit 0)" "[ $rc -eq 0 ]" "$last"
npass=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, 0 failed.*/\1/p')
check "$what holds more than $least items, all passing ($npass)" "[ \"\${npass:-0}\" -gt $least ]" "$last"

# every executable op of ir_op_list.h is used by some kernel of the suite
missing=""
awk 1 "$SUITE"/kernels/*.ttir >"$T/kernels.ttir" # one file: one grep per op instead of one per op and kernel
for op in $(sed -n 's/^X([A-Z_0-9]*, *"\([a-z_.0-9]*\)".*/\1/p' "$SRC/ir/ir_op_list.h"); do
  grep -q "X([A-Z_0-9]*, *\"$op\".*IR_F_UNSUPPORTED" "$SRC/ir/ir_op_list.h" && continue
  grep -q -E "(^|[ =(\"])$op([ \"(]|\$)" "$T/kernels.ttir" || missing="$missing $op"
done
check "every executable op of ir/ir_op_list.h appears in an op-suite kernel" "[ -z \"$missing\" ]" "missing:$missing"

# size: >= 800 cases, >= 2000 items (case x specialization)
ncase=$(ls "$SUITE"/*.yaml | wc -l)
nitem=$(cat "$SUITE"/*.yaml | grep -c '^  - variant_key:')
check "the suite has >= 800 cases and >= 2000 items ($ncase, $nitem)" "[ $ncase -ge 800 ] && [ $nitem -ge 2000 ]"

# every case whose kernel Triton 3.6 cannot run says why, and is listed
nunsup=$(grep -l 'gpu-unsupported' "$SUITE"/*.yaml | wc -l)
nlist=$(grep -c . "$SUITE/gpu_unsupported.txt")
check "gpu-unsupported cases carry a reason and are all listed ($nunsup)" \
  "[ $nunsup -gt 0 ] && [ $nunsup -eq $nlist ] && ! grep -l 'gpu-unsupported' \"$SUITE\"/*.yaml | xargs grep -L 'gpu-unsupported on Triton 3.6/H100: [A-Za-z]' | grep -q ."

# teeth: a backend with a wrong arith.negf / math.tanh / dropped stores fails the items that use them
"$BIN" conform "$SUITE" --backend fault:perturb:arith.negf --filter '^negf_' -j 2 --report-dir "$T/negf" --no-progress \
  >"$T/negf.out" 2>&1
check "a perturbed arith.negf fails every negf item" \
  "tail -1 '$T/negf.out' | grep -q '^0 passed, [1-9][0-9]* failed'" "$(tail -1 "$T/negf.out")"
"$BIN" conform "$SUITE" --backend fault:perturb:math.tanh --filter '^math_tanh_f(32|64)\[edge\]' -j 2 --report-dir "$T/tanh" \
  --no-progress >"$T/tanh.out" 2>&1
check "a perturbed math.tanh fails the tanh edge items" "tail -1 '$T/tanh.out' | grep -q '^0 passed, 2 failed'" "$(tail -1 "$T/tanh.out")"
"$BIN" conform "$SUITE" --backend fault:drop-store --filter '^(int_shrui_i32|cmpf_u_f32|atomic_add_u32_acq_rel_gpu)\[' -j 2 \
  --report-dir "$T/drop" --no-progress >"$T/drop.out" 2>&1
check "a backend that drops the last store fails integer, compare and atomic items" \
  "tail -1 '$T/drop.out' | grep -q '^0 passed, [1-9][0-9]* failed'" "$(tail -1 "$T/drop.out")"

# the H100 config's expected failures match real items: on the reference they pass, so they are XPASS
"$BIN" conform "$SUITE" --backend reference --config "$CONFIG" --filter '^int_div_i8\[|^float_mod_f32\[edge\]' -j 2 \
  --report-dir "$T/cfg" --no-progress >"$T/cfg.out" 2>&1
rc=$?
check "the H100 backend config loads and its entries name real items (2 XPASS on the reference, exit 1)" \
  "[ $rc -eq 1 ] && tail -1 '$T/cfg.out' | grep -q 'XPASS 2'" "$(tail -1 "$T/cfg.out")"
