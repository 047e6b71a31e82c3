#!/bin/sh
# Traced kernels (TK fx traces) through the CLI (TAP): check/fmt/run of the softmax,
# tiled GEMM and fused-attention traces in both spellings and with CRLF, sizes the
# traces were not written for (symbols from --sym or from .npy shapes) checked against
# numpy, --dtype and --oob, out-of-bounds faults naming the fx node, malformed traces
# (exit 2 with file:line:col), the traced conformance suite against ttref and against the
# independent numpy reference (scripts/traced_ref.py), and --localize naming fx nodes.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
case $T in /*) ;; */*) T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T") ;; esac
D=${TTREF_TEST_DATA:-tests/data}/fx
SRC=${TTREF_SRCDIR:-.}
PY=$(tl_python)
tl_tmpdir fx
# expect CODE PATTERN DESCRIPTION -- command...
check() { if eval "$2" >"$tmp/err" 2>&1; then ok "$1"; else no "$1"; fi; }
np() { s=$1; shift; "$PY" -c "import numpy as np, sys
$s" "$@"; }
echo "1..66"

# ---- check / fmt ------------------------------------------------------------------------
expect 0 "" "check softmax.fx (SymIndex∈, short targets)" -- "$T" check "$D/softmax.fx"
expect 0 "" "check gemm.fx (SymIndexE, qualified targets, [num_users=N], region [root] after its body)" -- "$T" check "$D/gemm.fx"
expect 0 "" "check attention.fx (.of(f16), comments, kwargs on a continuation line)" -- "$T" check "$D/attention.fx"
expect 0 "" "fmt --probes instruments a traced kernel" -- "$T" fmt "$D/softmax.fx" --sym M=4 --sym K=16 --probes -o "$tmp/probed.ttir"
expect 0 "" "the instrumented lowering verifies" -- "$T" check "$tmp/probed.ttir"
expect 0 "" "check with --sym lowers and verifies" -- "$T" check "$D/attention.fx" --sym BATCH=1 --sym N_HEADS=2 --sym N_CTX=64 --sym D_HEAD=16 --sym BLOCK_M=16 --sym BLOCK_N=32
expect 0 "" "fmt prints the lowering, located at the fx nodes" -- "$T" fmt "$D/softmax.fx" --sym M=4 --sym K=16 -o "$tmp/sm.ttir"
grep -q 'loc("vector_max"(' "$tmp/sm.ttir" && grep -q '"softmax.fx":6:5' "$tmp/sm.ttir" >"$tmp/err" 2>&1 && ok "fmt -o writes the TTIR with fx node locations" || no "fmt -o writes the TTIR with fx node locations"
expect 0 "" "the printed lowering re-parses with ttref check" -- "$T" check "$tmp/sm.ttir"
"$T" fmt "$tmp/sm.ttir" >"$tmp/sm2.ttir" 2>"$tmp/err"
check "fmt of the lowering is idempotent" "cmp '$tmp/sm.ttir' '$tmp/sm2.ttir'"
mkdir -p "$tmp/crlf" "$tmp/ascii"
sed 's/$/\r/' "$D/softmax.fx" >"$tmp/crlf/softmax.fx"
"$T" fmt "$tmp/crlf/softmax.fx" --sym M=4 --sym K=16 >"$tmp/crlf.ttir" 2>"$tmp/err"
check "a CRLF trace lowers to the same TTIR" "cmp '$tmp/sm.ttir' '$tmp/crlf.ttir'"
sed -e 's/SymIndex∈/SymIndexE/' -e 's/InputBuffer\[/Input[/' -e 's/OutputBuffer\[/Output[/' \
    -e 's/target=thread_program_id\]/target=shark_turbine.kernel.lang.prims.program_id]/' \
    -e 's/target=kernel_buffer_load\]/target=shark_turbine.kernel.ops.memory.kernel_buffer_load]/' \
    -e 's/target=sub\]/target=operator.sub]/' -e 's/target=truediv\]/target=operator.truediv]/' \
    -e '/ : /!s/ = call_function/ : [num_users=1] = call_function/' "$D/softmax.fx" >"$tmp/ascii/softmax.fx"
"$T" fmt "$tmp/ascii/softmax.fx" --sym M=4 --sym K=16 >"$tmp/ascii.ttir" 2>"$tmp/err"
check "the ASCII spelling (SymIndexE, Input[...], qualified targets, num_users) lowers to the same TTIR" "cmp '$tmp/sm.ttir' '$tmp/ascii.ttir'"
expect 2 "symbol 'M' is not bound (give --sym M=VALUE)" "fmt without --sym names the unbound symbol" -- "$T" fmt "$D/softmax.fx" --sym K=16

# ---- run on sizes the traces were not written for ------------------------------------------------
np "r = np.random.RandomState(7)
np.save(sys.argv[1] + '/x.npy', r.uniform(-6, 6, (5, 32)).astype(np.float32))
np.save(sys.argv[1] + '/y.npy', np.zeros((5, 32), np.float32))
np.save(sys.argv[1] + '/x16.npy', r.uniform(-6, 6, (5, 32)).astype(np.float16))
np.save(sys.argv[1] + '/y16.npy', np.zeros((5, 32), np.float16))
np.save(sys.argv[1] + '/a.npy', r.uniform(-2, 2, (48, 80)).astype(np.float32))
np.save(sys.argv[1] + '/b.npy', r.uniform(-2, 2, (80, 32)).astype(np.float32))
np.save(sys.argv[1] + '/c.npy', np.zeros((48, 32), np.float32))
for q in 'QKV': np.save(sys.argv[1] + '/' + q + '.npy', r.uniform(-1, 1, (1, 3, 32, 8)).astype(np.float16))
np.save(sys.argv[1] + '/O.npy', np.zeros((1, 3, 32, 8), np.float32))
np.save(sys.argv[1] + '/x100.npy', r.uniform(-6, 6, (5, 100)).astype(np.float32))
np.save(sys.argv[1] + '/y100.npy', np.zeros((5, 100), np.float32))
np.save(sys.argv[1] + '/a2.npy', r.uniform(-2, 2, (40, 50)).astype(np.float32))
np.save(sys.argv[1] + '/b2.npy', r.uniform(-2, 2, (50, 24)).astype(np.float32))
np.save(sys.argv[1] + '/c2.npy', np.zeros((40, 24), np.float32))" "$tmp" 2>"$tmp/err" || no "numpy makes the inputs"
# softmax as TK defines it: max and sum start from 0
SMREF="x = np.load(sys.argv[1]).astype(np.float64); y = np.load(sys.argv[2]).astype(np.float64)
m = np.maximum(x.max(1, keepdims=True), 0); e = np.exp2(x - m); r = e / e.sum(1, keepdims=True)
err = np.abs(y - r).max(); print(err); sys.exit(0 if err < float(sys.argv[3]) else 1)"
expect 0 "" "run softmax.fx with M, K taken from the .npy shape (5 x 32)" -- "$T" run "$D/softmax.fx" --grid 5 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy" --out "$tmp/o1"
check "softmax output matches numpy (TK semantics) on 5 x 32" "np \"\$SMREF\" '$tmp/x.npy' '$tmp/o1/output.npy' 1e-6"
expect 0 "" "run softmax.fx on rows of 100 (vectors padded to 128 lanes inside)" -- "$T" run "$D/softmax.fx" --grid 5 --arg "input=@$tmp/x100.npy" --arg "output=@$tmp/y100.npy" --out "$tmp/o100"
check "the 5 x 100 softmax matches numpy" "np \"\$SMREF\" '$tmp/x100.npy' '$tmp/o100/output.npy' 1e-6"
expect 0 "" "run gemm.fx with 20 x 10 and 10 x 12 tiles (padded k lanes add 0)" -- "$T" run "$D/gemm.fx" --sym BLOCK_N=20 --sym BLOCK_M=12 --sym BLOCK_K=10 --grid 2,2 --arg "A=@$tmp/a2.npy" --arg "B=@$tmp/b2.npy" --arg "output=@$tmp/c2.npy" --out "$tmp/o8"
check "the odd-tiled gemm matches numpy" "np 'a = np.load(sys.argv[1]).astype(float); b = np.load(sys.argv[2]).astype(float); c = np.load(sys.argv[3])
sys.exit(0 if np.abs(c - a @ b).max() < 1e-4 else 1)' '$tmp/a2.npy' '$tmp/b2.npy' '$tmp/o8/output.npy'"
expect 0 "" "run the ASCII-spelled softmax with --sym" -- "$T" run "$tmp/ascii/softmax.fx" --sym M=5 --sym K=32 --grid 5 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy" --out "$tmp/o2"
check "both spellings give the same bits" "cmp '$tmp/o1/output.npy' '$tmp/o2/output.npy'"
expect 0 "" "run softmax with --dtype input=f16 --dtype output=f16" -- "$T" run "$D/softmax.fx" --dtype input=f16 --dtype output=f16 --grid 5 --arg "input=@$tmp/x16.npy" --arg "output=@$tmp/y16.npy" --out "$tmp/o3"
check "the f16 softmax writes f16 and matches numpy to f16 precision" "np \"\$SMREF\" '$tmp/x16.npy' '$tmp/o3/output.npy' 2e-3 && np 'sys.exit(0 if np.load(sys.argv[1]).dtype == np.float16 else 1)' '$tmp/o3/output.npy'"
expect 2 "buffer input is f32, but" "an f16 .npy for an f32 buffer is refused, suggesting --dtype" -- "$T" run "$D/softmax.fx" --grid 5 --arg "input=@$tmp/x16.npy" --arg "output=@$tmp/y.npy"
expect 2 "softmax.fx:2:5: error: buffer input:" "a .npy of the wrong shape is refused at the placeholder" -- "$T" run "$D/softmax.fx" --sym M=4 --grid 4 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy"
expect 1 "softmax.fx:5:5: error: device assertion failed: 'kernel_buffer_load: out-of-bounds read of buffer input" "a load past the buffer faults at the fx node (exit 1)" -- "$T" run "$D/softmax.fx" --grid 6 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy"
grep -q "(kernel_buffer_load)" "$tmp/err" && ok "the fault names the node" || no "the fault names the node"
expect 0 "" "--oob zero reads 0 and skips stores past the buffer (older TK)" -- "$T" run "$D/softmax.fx" --oob zero --grid 6 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy" --out "$tmp/o4"
check "--oob zero leaves the in-bounds rows as before" "cmp '$tmp/o1/output.npy' '$tmp/o4/output.npy'"
expect 0 "" "run gemm.fx on 48 x 80 x 32 (grid 3 x 2)" -- "$T" run "$D/gemm.fx" --sym BLOCK_N=16 --sym BLOCK_M=16 --sym BLOCK_K=16 --grid 3,2 --arg "A=@$tmp/a.npy" --arg "B=@$tmp/b.npy" --arg "output=@$tmp/c.npy" --out "$tmp/o5"
check "gemm matches numpy" "np 'a = np.load(sys.argv[1]).astype(float); b = np.load(sys.argv[2]).astype(float); c = np.load(sys.argv[3])
sys.exit(0 if np.abs(c - a @ b).max() < 1e-4 else 1)' '$tmp/a.npy' '$tmp/b.npy' '$tmp/o5/output.npy'"
expect 0 "" "run attention.fx on BATCH 1, N_HEADS 3, N_CTX 32, D_HEAD 8" -- "$T" run "$D/attention.fx" --sym BLOCK_M=16 --sym BLOCK_N=16 --grid 2,3 --arg "Q=@$tmp/Q.npy" --arg "K=@$tmp/K.npy" --arg "V=@$tmp/V.npy" --arg "O=@$tmp/O.npy" --out "$tmp/o6"
check "attention matches numpy" "np 'q, k, v = [np.load(sys.argv[i]).astype(float) for i in (1, 2, 3)]; o = np.load(sys.argv[4])
s = q @ k.transpose(0, 1, 3, 2); p = np.exp2(s - s.max(-1, keepdims=True)); r = (p @ v) / p.sum(-1, keepdims=True)
sys.exit(0 if np.abs(o - r).max() < 2e-3 else 1)' '$tmp/Q.npy' '$tmp/K.npy' '$tmp/V.npy' '$tmp/o6/O.npy'"
"$T" run "$D/attention.fx" --sym BLOCK_M=16 --sym BLOCK_N=16 --grid 2,3 --arg "Q=@$tmp/Q.npy" --arg "K=@$tmp/K.npy" --arg "V=@$tmp/V.npy" --arg "O=@$tmp/O.npy" --out "$tmp/o6t" --threads 1 >/dev/null 2>"$tmp/err"
check "attention outputs are bit-identical on 1 and on all threads" "cmp '$tmp/o6/O.npy' '$tmp/o6t/O.npy'"
expect 0 "" "--precise writes binary64 companions for a traced kernel" -- "$T" run "$D/softmax.fx" --grid 5 --arg "input=@$tmp/x.npy" --arg "output=@$tmp/y.npy" --out "$tmp/o7" --precise
[ -s "$tmp/o7/output.precise.npy" ] && [ -s "$tmp/o7/output.bound.npy" ] && ok "precise and bound files exist" || { echo missing >"$tmp/err"; no "precise and bound files exist"; }

# ---- bad options and malformed traces: one located line, exit 2 ---------------------------------
expect 2 "expected NAME=INTEGER" "--sym without a value" -- "$T" run "$D/softmax.fx" --sym M --grid 1
expect 2 "expected error or zero" "--oob with a bad policy" -- "$T" run "$D/softmax.fx" --oob maybe --grid 1
expect 2 "no kernel buffer named 'nope'" "--dtype of an unknown buffer" -- "$T" fmt "$D/softmax.fx" --sym M=4 --sym K=8 --dtype nope=f16
expect 2 "are for traced kernels" "--sym on a TTIR kernel" -- "$T" fmt "$tmp/sm.ttir" --sym M=4
bad() { # bad NAME 'TEXT' PATTERN DESCRIPTION [extra args]
  printf "$2" >"$tmp/$1.fx"; name=$1; pat=$3; desc=$4; shift 4
  expect 2 "$name.fx:$pat" "$desc" -- "$T" check "$tmp/$name.fx" "$@"
}
H='region_0:graph():\n    %%x : InputBuffer[M] = placeholder[target=x]\n'
bad b1 "$H"'    %%y = call_function[target=nope](args = (%%x,))\n    return None\n' "3:31: error: unknown call_function target 'nope'" "an unknown target"
bad b2 "$H"'    %%y = call_function[target=exp2](args = (%%z,))\n' "3:45: error: '%z' is not defined in region_0" "an undefined node"
bad b3 "$H"'    %%y = call_function[target=exp2](args = (%%x,)\n' "4:1: error: expected ',' or ')', found end of file" "an unclosed parenthesis"
bad b4 "$H"'    %%y = call_function[target=exp2](args = (%%x, %%x))\n' "3:31: error: exp2 takes 1 argument, got 2" "a wrong argument count"
bad b5 "$H"'    return None\nregion_1:graph():\n    return None\n' "4:1: error: two root regions" "two regions that are no loop body"
bad b6 "$H"'    %%f = call_function[target=for_loop](args = (0, 4, 1, []), kwargs = {subgraph: region_0})\n' "3:83: error: region 'region_0' uses itself" "a loop body that is its own region"
bad b7 "$H"'    %%y = call_function[target=exp2](args = (%%x,))\n    %%y = call_function[target=exp2](args = (%%x,))\n' "4:5: error: node '%y' is defined twice" "a node defined twice"
bad b8 "$H"'    %%y \001 = call_function[target=exp2](args = (%%x,))\n' "3:8: error: unexpected character" "a control character"
bad b9 "$H"'    %%y = call_function[target=exp2](args = (%%x,)) \303\251\n' "3:51: error: unexpected non-ASCII character" "a non-ASCII character"
bad b10 "$H"'    %%y = get_attr[target=w]\n' "3:10: error: unsupported node kind 'get_attr'" "a get_attr node"
bad b11 'region_0:graph():\n    %%x = placeholder[target=x]\n    return None\n' "2:5: error: placeholder %x has no buffer type" "a root placeholder without a buffer type (with --sym)" --sym M=4
bad b12 "$H"'    %%k = call_function[target=kernel_buffer_load](args = (%%x, (0,), (0,)))\n    return None\n' "3:5: error: vector shape (0,) of %k has an empty dimension" "an empty vector (with --sym)" --sym M=8
bad b13 "$H"'    %%k = call_function[target=kernel_buffer_load](args = (%%x, (0, 0), (8,)))\n    return None\n' "3:63: error: multi_index has 2 indices, but buffer x has rank 1" "a multi_index of the wrong rank (with --sym)" --sym M=8
bad b14 'region_0:graph():\n    %%i = placeholder[target=i]\n    return (%%i,)\nregion_1:graph():\n    %%x : InputBuffer[M] = placeholder[target=x]\n    %%c = call_function[target=vector_constant](args = ((8,), f32, 0.0))\n    %%f = call_function[target=for_loop](args = (0, 4, 1, [%%c]), kwargs = {subgraph: region_0, implicit_capture: []})\n    return None\n' "7:31: error: loop body region_0 has 1 placeholders, but for_loop passes 2" "a loop body with too few placeholders (with --sym)" --sym M=8
bad b15 'region_0:graph():\n    %%i = placeholder[target=i]\n    %%a = placeholder[target=a]\n    return (%%i,)\nregion_1:graph():\n    %%x : InputBuffer[M] = placeholder[target=x]\n    %%c = call_function[target=vector_constant](args = ((8,), f32, 0.0))\n    %%f = call_function[target=for_loop](args = (0, 4, 1, [%%c]), kwargs = {subgraph: region_0, implicit_capture: []})\n    return None\n' "4:13: error: loop value 0 has a different type than its init_arg" "a loop body yielding the wrong type (with --sym)" --sym M=8
printf "$H"'    %%y = call_function[target=exp2](args = (%%x,))\000\n' >"$tmp/b16.fx"
expect 2 "b16.fx:3:50: error: NUL byte" "a NUL byte" -- "$T" check "$tmp/b16.fx"
"$PY" -c "print('region_0:graph():\n    %y = call_function[target=exp2](args = (' + '(' * 5000 + '1' + ')' * 5000 + ',))')" >"$tmp/b17.fx"
expect 2 "b17.fx:2:.*nesting deeper than 200" "5000 nested parentheses: an error, not a stack overflow" -- "$T" check "$tmp/b17.fx"
: >"$tmp/b18.fx"
expect 2 "b18.fx:1:1: error: no graph" "an empty trace" -- "$T" check "$tmp/b18.fx"

# ---- the traced conformance suite --------------------------------------------------------------
S=$SRC/conformance/suite/traced
"$T" conform "$S" --backend reference --report-dir "$tmp/r1" -j 2 --no-progress >"$tmp/out" 2>"$tmp/err"
check "the traced suite passes with the reference backend" "[ $? -eq 0 ] && grep -q '^42 passed, 0 failed' '$tmp/err' '$tmp/out'"
expect 0 "" "the shipped goldens (golden/traced) match the traced suite" -- "$T" golden "$S" --verify "$SRC/golden/traced"
printf '#!/bin/sh\nexec %s %s/scripts/traced_ref.py "$@"\n' "$PY" "$SRC" >"$tmp/numpy_ref.sh"; chmod +x "$tmp/numpy_ref.sh"
"$T" conform "$S" --backend "batch:$tmp/numpy_ref.sh" --golden "$SRC/golden/traced" --report-dir "$tmp/r2" -j 2 --no-progress >"$tmp/out" 2>"$tmp/err"
check "an independent numpy reference (scripts/traced_ref.py) passes every traced item against ttref's goldens" "[ $? -eq 0 ] && grep -q '^42 passed, 0 failed' '$tmp/err' '$tmp/out'"
"$T" conform "$S" --backend fault:flip-lsb --filter '^softmax' --keep-work --report-dir "$tmp/r3" -j 1 --no-progress >/dev/null 2>&1
W=$(find "$tmp/r3/work" -name case.yaml | head -n 1); W=$(dirname "$W")
check "a traced case is staged as kernel.fx + kernel.ttir" "[ -s '$W/kernel.fx' ] && [ -s '$W/kernel.ttir' ] && grep -q '^traced: kernel.fx' '$W/case.yaml' && '$T' check '$W/kernel.ttir'"
field() { grep -F "\"id\": \"$1\"" "$3/journal.jsonl" | sed -n "s/.*\"$2\": \"\\([^\"]*\\)\".*/\\1/p"; }
loc() { # loc OP FILTER ID EXPECTED-AT DESCRIPTION
  "$T" conform "$S" --backend "fault:perturb:$1" --localize --filter "$2" --report-dir "$tmp/l$n" -j 2 --no-progress >/dev/null 2>"$tmp/err"
  at=$(field "$3" localized_at "$tmp/l$n")
  echo "localized_at: $at" >>"$tmp/err"
  case $at in "$4"*) ok "$5" ;; *) no "$5" ;; esac
}
loc arith.divf '^softmax' 'softmax_f32[default]' 'softmax.fx:10:5 (truediv)' "--localize names the perturbed fx node (truediv in softmax)"
loc tt.dot '^gemm' 'gemm_f32[default]' 'gemm.fx:11:5 (vector_dot)' "--localize names vector_dot inside the for_loop body of the GEMM"
loc math.exp2 '^attention' 'attention_f16[default]' 'attention.fx:21:5 (exp2)' "--localize names the first exp2 of the fused-attention loop"
loc arith.mulf '^binary_float' 'binary_float[f32]' 'binary_float.fx:18:5 (mul)' "--localize names the first operator.mul of the broadcasting case"

[ "$fail" -eq 0 ]
