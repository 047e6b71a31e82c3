#!/bin/sh
# wide_acc_adapter.sh: a process adapter (docs/adapter-protocol.md) for tests/conform/test_mutants.sh that
# models hardware keeping wider partial sums: the f16-accumulator tt.dot of the dot_f16_* core cases is
# computed with an f32 accumulator and rounded to f16 once. Needs $TTREF_BIN.
d=$1
[ -f "$d/kernel.ttir" ] || exit 2
sed -e 's|^ *\(%[A-Za-z0-9_]*\) = tt.dot \(%[A-Za-z0-9_]*\), \(%[A-Za-z0-9_]*\), \(%[A-Za-z0-9_]*\), \(inputPrecision = [a-z0-9]*\) : tensor<\([0-9x]*\)xf16> \* tensor<\([0-9x]*\)xf16> -> tensor<\([0-9x]*\)xf16>\(.*\)$|    %ttref_wide_c = arith.extf \4 : tensor<\8xf16> to tensor<\8xf32>\n    %ttref_wide_d = tt.dot \2, \3, %ttref_wide_c, \5 : tensor<\6xf16> * tensor<\7xf16> -> tensor<\8xf32>\n    \1 = arith.truncf %ttref_wide_d : tensor<\8xf32> to tensor<\8xf16>\9|' "$d/kernel.ttir" >"$d/wide.ttir"
grep -q ttref_wide_d "$d/wide.ttir" || exit 3
exec "$TTREF_BIN" run "$d/wide.ttir" --grid 1 --arg "a_ptr=@$d/inputs/a_ptr.npy" --arg "b_ptr=@$d/inputs/b_ptr.npy" \
  --arg "c_ptr=@$d/inputs/c_ptr.npy" --arg "o_ptr=@$d/inputs/o_ptr.npy" --out "$d/outputs"
