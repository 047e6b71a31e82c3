#!/bin/sh
# CLI integration tests: exit codes and one-line errors for good and malformed
# launches (missing/unknown/duplicated args, bad literals, truncated or hostile
# .npy files, element-size mismatch, out-of-bounds kernels). TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
D=${TTREF_TEST_DATA:-tests/data}/corpus/triton-3.6-h100/vadd_f32
tl_tmpdir cli
# expect CODE PATTERN DESCRIPTION -- command...
K=$D/kernel.ttir
X="x_ptr=@$D/x_ptr.in.npy"; Y="y_ptr=@$D/y_ptr.in.npy"; O="o_ptr=@$D/o_ptr.in.npy"

expect 2 "usage" "no command" -- "$T"
expect 0 "ttref 0.1.0" "version" -- "$T" version
expect 0 "usage: ttref run" "run --help" -- "$T" run --help
expect 0 "usage: ttref check" "check --help" -- "$T" check --help
expect 0 "usage: ttref fmt" "fmt --help" -- "$T" fmt --help
expect 2 "unknown command" "unknown command" -- "$T" frobnicate
expect 2 "error" "check of a missing file" -- "$T" check "$tmp/nope.ttir"
expect 0 "" "check of a real kernel" -- "$T" check "$K"
expect 0 "" "run vadd_f32" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O" --arg n=100003 --out "$tmp/o1"
if cmp -s "$tmp/o1/o_ptr.npy" "$D/o_ptr.gpu.npy"; then ok "vadd_f32 output equals the GPU bit for bit"; else echo "differs" >"$tmp/err"; no "vadd_f32 output equals the GPU bit for bit"; fi
expect 0 "" "bind by position and %name" -- "$T" run "$K" --grid 98 --arg "0=@$D/x_ptr.in.npy" --arg "%y_ptr=@$D/y_ptr.in.npy" --arg "$O" --arg 3=100003
expect 2 "more than 1099511627776 programs" "a grid of 8e27 programs is refused, not attempted" -- "$T" run "$K" --grid 2000000000,2000000000,2000000000 --arg "$X" --arg "$Y" --arg "$O" --arg n=100003
W=${TTREF_TEST_DATA:-tests/data}/ttir/infinite_while.ttir
WO="o=@$tmp/w_i32.npy" # infinite_while stores i32: an int32 buffer (a float one is a dtype mismatch)
PY=$(tl_python)
"$PY" -c "import numpy as np, sys; np.save(sys.argv[1], np.zeros(100003, np.int32))" "$tmp/w_i32.npy"
expect 1 "infinite_while.ttir:5:7: error: the program executed more than 5000 ops (--max-steps)" "--max-steps stops a kernel that never terminates, naming the op" -- "$T" run "$W" --grid 2 --arg "$WO" --arg s=5 --max-steps 5000
expect 0 "" "--max-steps does not disturb a kernel that ends in time" -- "$T" run "$W" --grid 2 --arg "$WO" --arg s=0 --max-steps 5000
expect 2 "error: --max-steps: '12abc' is not an integer" "--max-steps with garbage is a usage error" -- "$T" run "$W" --grid 2 --arg "$WO" --arg s=5 --max-steps 12abc
expect 2 "error: --max-steps: 0 is out of range" "--max-steps 0 is a usage error" -- "$T" run "$W" --grid 2 --arg "$WO" --arg s=5 --max-steps 0
expect 2 "error: --inject-fault: unknown op 'math.nope'" "--inject-fault with an unknown op is a usage error" -- "$T" run "$W" --grid 2 --arg "$WO" --arg s=5 --inject-fault math.nope
expect 2 "binary_garbage.ttir:2:1: error:" "fmt --probes on binary garbage is a located error" -- "$T" fmt "${TTREF_TEST_DATA:-tests/data}/ttir/bad/binary_garbage.ttir" --probes
expect 2 "missing kernel argument 'n'" "missing argument" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O"
expect 2 "kernel signature" "missing argument prints the signature" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O"
expect 2 "unknown kernel argument 'zz'" "unknown argument" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O" --arg n=1 --arg zz=3
expect 2 "bound twice" "duplicated argument" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O" --arg n=1 --arg n=2
expect 2 "bad literal" "bad integer literal" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O" --arg n=12abc
expect 2 "bad literal" "out-of-range literal" -- "$T" run "$K" --grid 98 --arg "$X" --arg "$Y" --arg "$O" --arg n=4294967296
expect 2 "error: --grid: '9x' is not an integer" "bad grid" -- "$T" run "$K" --grid 9x --arg "$X" --arg "$Y" --arg "$O" --arg n=1
PY=$(tl_python)
"$PY" - "$tmp" <<'PY'
import numpy as np, sys, os
t = sys.argv[1]
np.save(os.path.join(t, "f64.npy"), np.zeros(100003, np.float64))
raw = open(os.path.join(os.environ.get("TTREF_TEST_DATA", "tests/data"), "corpus/triton-3.6-h100/vadd_f32/x_ptr.in.npy"), "rb").read()
open(os.path.join(t, "trunc.npy"), "wb").write(raw[:1000])
hdr = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }"
hdr += b" " * (118 - len(hdr)) + b"\n"
open(os.path.join(t, "huge.npy"), "wb").write(b"\x93NUMPY\x01\x00" + len(hdr).to_bytes(2, "little") + hdr + b"\0" * 64)
open(os.path.join(t, "garbage.npy"), "wb").write(os.urandom(300))
np.save(os.path.join(t, "small.npy"), np.zeros(10, np.float32))
PY
expect 2 "element size mismatch" "f64 file for an f32 pointer" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/f64.npy" --arg "$Y" --arg "$O" --arg n=1
expect 2 "trunc.npy" "truncated .npy" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/trunc.npy" --arg "$Y" --arg "$O" --arg n=1
expect 2 "huge.npy" "npy header claiming 2^40 elements" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/huge.npy" --arg "$Y" --arg "$O" --arg n=1
expect 2 "garbage.npy" "binary garbage .npy" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/garbage.npy" --arg "$Y" --arg "$O" --arg n=1
expect 1 "out-of-bounds access" "too-small buffer faults with exit 1" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/small.npy" --arg "$Y" --arg "$O" --arg n=100003
expect 1 "allocation 'x_ptr' has 40 bytes" "fault names the allocation and its size" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/small.npy" --arg "$Y" --arg "$O" --arg n=100003
expect 1 "note: in kernel source" "fault names the kernel source" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/small.npy" --arg "$Y" --arg "$O" --arg n=100003
absD=$(cd "$D" && pwd)
cat >"$tmp/launch.yaml" <<LAUNCH
kernel: $absD/kernel.ttir
grid: [98]
args:
  x_ptr: "@$absD/x_ptr.in.npy"
  y_ptr: "@$absD/y_ptr.in.npy"
  o_ptr: "@$absD/o_ptr.in.npy"
  n: 100003
out: lout
LAUNCH
expect 0 "" "run --launch FILE.yaml" -- "$T" run --launch "$tmp/launch.yaml"
if cmp -s "$tmp/lout/o_ptr.npy" "$D/o_ptr.gpu.npy"; then ok "--launch output (out: relative to the file) equals the GPU"; else echo differs >"$tmp/err"; no "--launch output (out: relative to the file) equals the GPU"; fi
printf 'kernel: k.ttir\ngrid: [1, 2, 3, 4]\n' >"$tmp/l2.yaml"
expect 2 "l2.yaml:2:" "launch file: grid with 4 entries is a located error" -- "$T" run --launch "$tmp/l2.yaml"
printf 'kernel: k.ttir\nbogus: 1\n' >"$tmp/l3.yaml"
expect 2 "l3.yaml:2:1: error: unknown key" "launch file: unknown key is a located error" -- "$T" run --launch "$tmp/l3.yaml"
printf 'kernel: [k\n' >"$tmp/l4.yaml"
expect 2 "l4.yaml:2:1: error: bad YAML" "launch file: malformed YAML is a located error" -- "$T" run --launch "$tmp/l4.yaml"
expect 2 "" "launch file: missing file" -- "$T" run --launch "$tmp/nope.yaml"
M=${TTREF_TEST_DATA:-tests/data}/corpus/triton-3.6-h100/matmul_f32_ieee
expect 0 "" "run --precise writes precise and bound files" -- "$T" run "$M/kernel.ttir" --grid 3,4 --arg "a_ptr=@$M/a_ptr.in.npy" --arg "b_ptr=@$M/b_ptr.in.npy" --arg "c_ptr=@$M/c_ptr.in.npy" --arg M=130 --arg N=97 --arg K=200 --arg sam=200 --arg sbk=97 --arg scm=97 --out "$tmp/pr" --precise
if "$PY" - "$M" "$tmp/pr" >"$tmp/err" 2>&1 <<'PY'
import numpy as np, sys
m, o = sys.argv[1], sys.argv[2]
a = np.load(f"{m}/a_ptr.in.npy").astype(np.float64); b = np.load(f"{m}/b_ptr.in.npy").astype(np.float64)
p = np.load(f"{o}/c_ptr.precise.npy"); bd = np.load(f"{o}/c_ptr.bound.npy"); c = np.load(f"{o}/c_ptr.npy")
assert p.dtype == np.float64 and p.shape == c.shape, (p.dtype, p.shape)
# binary64 dot of 200 f32 products: within 200 * 2^-53 * sum|a b| of the exact value
assert np.all(np.abs(p - a @ b) <= 200 * 2.0**-53 * (np.abs(a) @ np.abs(b))), "precise values"
assert np.allclose(bd, np.abs(a) @ np.abs(b), rtol=1e-13, atol=0), "bound = sum |a_i b_i|"
assert np.all(np.abs(c.astype(np.float64) - p) <= 200 * 2.0**-23 * bd), "f32 result within the dot bound"
PY
then ok "precise values and bounds of a matmul equal binary64 a@b and |a|@|b|"; else no "precise values and bounds of a matmul equal binary64 a@b and |a|@|b|"; fi
expect 2 "needs --out" "--precise without --out" -- "$T" run "$M/kernel.ttir" --grid 1 --arg "a_ptr=@$M/a_ptr.in.npy" --arg "b_ptr=@$M/b_ptr.in.npy" --arg "c_ptr=@$M/c_ptr.in.npy" --arg M=130 --arg N=97 --arg K=200 --arg sam=200 --arg sbk=97 --arg scm=97 --precise
printf 'module {\n  tt.func public @k(%%o: !tt.ptr<i32>) {\n    %%pid = tt.get_program_id x : i32\n    tt.store %%o, %%pid : !tt.ptr<i32>\n    tt.return\n  }\n}\n' >"$tmp/race.ttir"
"$PY" -c "import numpy as np, sys; np.save(sys.argv[1], np.zeros(1, np.int32))" "$tmp/z.npy"
expect 1 "data race in 'tt.store': pid (1, 0, 0) writes o+0 which pid (0, 0, 0) wrote" "--check-races names both programs" -- "$T" run "$tmp/race.ttir" --grid 3 --arg "o=@$tmp/z.npy" --check-races
expect 0 "" "racing kernel without --check-races runs" -- "$T" run "$tmp/race.ttir" --grid 3 --arg "o=@$tmp/z.npy" --out "$tmp/race"
printf 'module {\n  tt.func public @k() {\n    %%0 = tt.bogus_op : i32\n    tt.return\n  }\n}\n' >"$tmp/bad.ttir"
expect 2 "bad.ttir:3:" "unknown op is a located error" -- "$T" check "$tmp/bad.ttir"
head -c 2000 /dev/urandom >"$tmp/rand.ttir"
expect 2 "rand.ttir:" "binary garbage TTIR is a located error" -- "$T" check "$tmp/rand.ttir"
# .npy dtype against the pointee (issue 16): same element size, other type -> exit 2; raw bits of bf16 allowed
printf 'module {\n  tt.func public @k(%%o: !tt.ptr<bf16>) {\n    tt.return\n  }\n}\n' >"$tmp/bf16.ttir"
"$PY" -c "import numpy as np, sys; np.save(sys.argv[1], np.zeros(4, np.float16)); np.save(sys.argv[2], np.zeros(4, np.uint16)); np.save(sys.argv[3], np.arange(100003, dtype=np.int32))" "$tmp/h.npy" "$tmp/u2.npy" "$tmp/i4.npy"
expect 2 "dtype mismatch: .*h.npy holds float data but argument o points to bf16" "float16 data for a bf16 pointer is refused" -- "$T" run "$tmp/bf16.ttir" --grid 1 --arg "o=@$tmp/h.npy"
expect 0 "" "raw bf16 bits as <u2 are accepted" -- "$T" run "$tmp/bf16.ttir" --grid 1 --arg "o=@$tmp/u2.npy"
expect 2 "dtype mismatch: .*i4.npy holds integer data but argument x_ptr points to f32" "int32 data for an f32 pointer is refused" -- "$T" run "$K" --grid 98 --arg "x_ptr=@$tmp/i4.npy" --arg "$Y" --arg "$O" --arg n=100003
echo "1..$n"
[ "$fail" -eq 0 ]
