#!/bin/sh
# Laptop debugging (docs/debugging.md): --dump/--dump-dir/--trace, --trap, --check-uninit,
# @new: buffers, located undefined-behaviour reports (--strict/--quiet) and one launch
# format, on shipped corpus kernels and deliberately broken copies of them
# (tests/data/ttir/debug). Expected values come from numpy, never typed by hand. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
DATA=${TTREF_TEST_DATA:-tests/data}
C=$DATA/corpus/triton-3.6-h100
G=$DATA/corpus/triton-3.6-h100-gen
B=$DATA/ttir/debug
PY=$(tl_python)
tl_tmpdir dbg
# expect CODE PATTERN DESCRIPTION -- command...   (PATTERN searched in stdout and stderr)
# check DESCRIPTION -- python code reading $tmp (argv[1]) and the data dirs (argv[2])
check() {
  desc=$1; shift 2
  if "$PY" -c "$1" "$tmp" "$DATA" >"$tmp/err" 2>&1; then ok "$desc"; else no "$desc"; fi
}

V=$C/vadd_f32
VA="--grid 98 --arg x_ptr=@$V/x_ptr.in.npy --arg y_ptr=@$V/y_ptr.in.npy --arg n=100003"
VO="--arg o_ptr=@$V/o_ptr.in.npy"

# ---- --dump -------------------------------------------------------------------------------------
expect 0 "" "--dump by Python name and TTIR name runs" -- "$T" run "$V/kernel.ttir" $VA $VO --dump 'offs@1[0:4]' --dump 'x@3[5:9]' --dump '%m_3@97[672:677]'
cp "$tmp/out" "$tmp/dump.txt"
check "--dump prints tt.print lines whose values equal numpy's offs, x and mask" -- '
import numpy as np, sys
t, d = sys.argv[1], sys.argv[2]
x = np.load(d + "/corpus/triton-3.6-h100/vadd_f32/x_ptr.in.npy")
want = ["pid (1, 0, 0) idx (%d) offs: %d" % (i, 1 * 1024 + i) for i in range(4)]
want += ["pid (3, 0, 0) idx (%d) x: %f" % (i, float(x[3 * 1024 + i])) for i in range(5, 9)]
want += ["pid (97, 0, 0) idx (%d) %%m_3: %d" % (i, int(97 * 1024 + i < 100003)) for i in range(672, 677)]
got = open(t + "/dump.txt").read().splitlines()
assert got == want, (got, want)
'
expect 2 "note: use a TTIR name" "--dump of an unknown name is a usage error listing the Python names" -- "$T" run "$V/kernel.ttir" $VA $VO --dump nope
expect 2 "offs, m, x, y" "... and the list names the kernel's Python names" -- "$T" run "$V/kernel.ttir" $VA $VO --dump nope
expect 2 "bad lanes" "--dump with bad lanes is a usage error" -- "$T" run "$V/kernel.ttir" $VA $VO --dump 'x[3:1]'
expect 2 "bad program id" "--dump with a bad program id is a usage error" -- "$T" run "$V/kernel.ttir" $VA $VO --dump 'x@a'

M=$C/matmul_f32_ieee
MA="--grid 3,4 --arg a_ptr=@$M/a_ptr.in.npy --arg b_ptr=@$M/b_ptr.in.npy --arg c_ptr=@$M/c_ptr.in.npy --arg M=130 --arg N=97 --arg K=200 --arg sam=200 --arg sbk=97 --arg scm=97"
expect 0 "" "--dump-dir writes .npy per value, program and loop iteration" -- "$T" run "$M/kernel.ttir" $MA --dump 'acc@1,2' --dump-dir "$tmp/dd" --out "$tmp/mm"
check "the loop's acc per iteration ends equal to the stored C block; iterations are 0..K/BK-1" -- '
import numpy as np, sys, glob, os, re
t = sys.argv[1]
c = np.load(t + "/mm/c_ptr.npy")
fin = [f for f in glob.glob(t + "/dd/acc.*.npy") if ".it" not in f]
its = sorted(glob.glob(t + "/dd/acc.*.it*.npy"), key=lambda f: int(re.search(r"\.it(\d+)\.npy", f).group(1)))
assert len(fin) == 1 and len(its) > 1, (fin, its)
nums = [int(re.search(r"\.it(\d+)\.npy", f).group(1)) for f in its]
assert nums == list(range(len(its))), nums
a = np.load(fin[0]); last = np.load(its[-1])
assert a.dtype == np.float32 and a.ndim == 2, (a.dtype, a.shape)
bm, bn = a.shape
blk = c[1 * bm:2 * bm, 2 * bn:3 * bn]
assert np.array_equal(a[:blk.shape[0], :blk.shape[1]], blk) and np.array_equal(a, last)
assert all("pid1-2-0" in os.path.basename(f) for f in its + fin)
'
expect 2 "File exists" "--dump-dir never overwrites a file" -- "$T" run "$M/kernel.ttir" $MA --dump 'acc@1,2' --dump-dir "$tmp/dd"
mkdir -p "$tmp/dl"; echo keep >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/dl/x.pid0-0-0.npy"
expect 2 "cannot create" "--dump-dir does not write through a symlink" -- "$T" run "$V/kernel.ttir" $VA $VO --dump 'x@0' --dump-dir "$tmp/dl"
if [ "$(cat "$tmp/victim")" = keep ]; then ok "the symlink's target is untouched"; else echo "victim changed" >"$tmp/err"; no "the symlink's target is untouched"; fi
expect 2 "needs at least one --dump" "--dump-dir without --dump is a usage error" -- "$T" run "$V/kernel.ttir" $VA $VO --dump-dir "$tmp/dd2"

# ---- --trace ------------------------------------------------------------------------------------
expect 0 "" "--trace-pids 1 runs" -- "$T" run "$V/kernel.ttir" $VA $VO --trace-pids 1
cp "$tmp/out" "$tmp/trace.txt"
check "--trace: one line per op result of pid 1 only, with min/max of offs and x+y as numpy computes" -- '
import numpy as np, sys, re
t, d = sys.argv[1], sys.argv[2]
v = d + "/corpus/triton-3.6-h100/vadd_f32/"
lines = open(t + "/trace.txt").read().splitlines()
ttir = open(v + "kernel.ttir").read()
nres = len(re.findall(r"^\s+%\S+ = ", ttir, re.M))
assert len(lines) == nres and all(l.startswith("trace pid (1, 0, 0) ") for l in lines), (len(lines), nres)
offs = [l for l in lines if " %offs_2 " in l][0]
assert " min 1024 max 2047 " in offs and "kernel.ttir:" in offs and "(offs)" in offs, offs
x = np.load(v + "x_ptr.in.npy")[1024:2048]; y = np.load(v + "y_ptr.in.npy")[1024:2048]
s = (x + y).astype(np.float32)
add = [l for l in lines if "arith.addf" in l][0]
m = re.search(r"min (\S+) max (\S+) nan 0 inf 0 \[(\S+),", add)
assert m and np.float32(m.group(1)) == s.min() and np.float32(m.group(2)) == s.max(), add
assert np.float32(m.group(3)) == s[0], add
'

# ---- --trap -------------------------------------------------------------------------------------
S=$C/softmax_f32
"$PY" -c "
import numpy as np, sys
x = np.load(sys.argv[1] + '/x_ptr.in.npy').copy(); x[2, 5] = 100.0  # exp(100) overflows f32
np.save(sys.argv[2] + '/big.npy', x)" "$S" "$tmp"
SA="--grid 300 --arg x_ptr=@$tmp/big.npy --arg o_ptr=@$S/o_ptr.in.npy --arg stride=781 --arg ncols=781"
line_of() { grep -n -- "$2" "$1" | head -n 1 | cut -d: -f1; }
L_EXP=$(line_of "$B/nan_source.ttir" "%e = math.exp"); L_DIV=$(line_of "$B/nan_source.ttir" "= arith.divf")
expect 1 "nan_source.ttir:$L_EXP:5: error: infinity created by 'math.exp' from operands without NaN or infinity (--trap): pid (2, 0, 0) lane 5 (5)" \
  "--trap inf names math.exp, its line, program and lane of the planted 100.0" -- "$T" run "$B/nan_source.ttir" $SA --trap inf
expect 1 "note: in kernel source kernels.py:22:15 (e)" "... and the kernel-source line and Python name" -- "$T" run "$B/nan_source.ttir" $SA --trap inf
expect 1 "nan_source.ttir:$L_DIV:5: error: NaN created by 'arith.divf' from operands without NaN (--trap): pid (2, 0, 0) lane 5 (5)" \
  "--trap nan names the inf/inf division" -- "$T" run "$B/nan_source.ttir" $SA --trap nan
expect 1 "math.exp" "--trap nan,inf stops at the first of both (math.exp)" -- "$T" run "$B/nan_source.ttir" $SA --trap nan,inf
expect 0 "" "the shipped softmax (other=-inf, max subtracted) does not trap on the same input" -- "$T" run "$S/kernel.ttir" $SA --trap nan,inf
expect 0 "" "without --trap the broken kernel runs" -- "$T" run "$B/nan_source.ttir" $SA
expect 2 "--trap takes nan, inf" "--trap with a bad kind is a usage error" -- "$T" run "$S/kernel.ttir" $SA --trap zero

# ---- --check-uninit -----------------------------------------------------------------------------
SB="--grid 300 --arg x_ptr=@$S/x_ptr.in.npy --arg o_ptr=@$S/o_ptr.in.npy --arg stride=781 --arg ncols=781"
L_LD=$(line_of "$B/uninit_read.ttir" "%x_5 = tt.load"); L_RED=$(line_of "$B/uninit_read.ttir" '%x_6 = "tt.reduce"')
expect 1 "uninit_read.ttir:$L_RED:5: error: undefined value reduced in 'tt.reduce' (--check-uninit): pid (0, 0, 0) lane 781 (781); it comes from a masked-off lane of 'tt.load' at " \
  "--check-uninit: a masked load without other reaching tt.reduce, with the first masked lane" -- "$T" run "$B/uninit_read.ttir" $SB --check-uninit
expect 1 "uninit_read.ttir:$L_LD:5, kernel source kernels.py:20:16 (x), which has no \`other\`" "... naming the origin load" -- "$T" run "$B/uninit_read.ttir" $SB --check-uninit
expect 0 "" "the shipped softmax passes --check-uninit" -- "$T" run "$S/kernel.ttir" $SB --check-uninit
expect 0 "" "the shipped vadd (masked loads without other, masked store) passes --check-uninit" -- "$T" run "$V/kernel.ttir" $VA $VO --check-uninit
L_ACC=$(line_of "$B/uninit_buffer.ttir" "%acc = tt.load"); L_ST=$(line_of "$B/uninit_buffer.ttir" "tt.store")
expect 1 "uninit_buffer.ttir:$L_ST:5: error: undefined value stored to memory in 'tt.store' (--check-uninit): pid (0, 0, 0) lane 0 (0); it comes from 'tt.load' at " \
  "--check-uninit: reading an @new: buffer before any write is reported at the store" -- "$T" run "$B/uninit_buffer.ttir" $VA --arg 'o_ptr=@new:f32[100003]' --check-uninit
expect 1 "uninit_buffer.ttir:$L_ACC:5, kernel source kernels.py:13:31 reading 'o_ptr' before anything was written there" "... naming the load and the buffer" -- "$T" run "$B/uninit_buffer.ttir" $VA --arg 'o_ptr=@new:f32[100003]' --check-uninit
expect 0 "" "the shipped vadd writing an @new: buffer passes --check-uninit" -- "$T" run "$V/kernel.ttir" $VA --arg 'o_ptr=@new:f32[100003]' --check-uninit --out "$tmp/vn"
if cmp -s "$tmp/vn/o_ptr.npy" "$V/o_ptr.gpu.npy"; then ok "... and its output equals the GPU's bit for bit"; else echo differs >"$tmp/err"; no "... and its output equals the GPU's bit for bit"; fi
expect 0 "" "--check-uninit: a mask and(m, f(undefined)) is defined where m is false (atomic_fmax_f32)" -- "$T" run --launch "$G/atomic_fmax_f32" --check-uninit
expect 0 "" "--check-uninit: tt.map_elementwise keeps definedness per lane (cf_map_elementwise)" -- "$T" run --launch "$G/cf_map_elementwise" --check-uninit
expect 1 "undefined value stored to memory in 'tt.store' (--check-uninit): pid (1, 0, 0) lane 36 (36)" \
  "--check-uninit: copy_masked_f8e4m3 stores masked-off lanes without a mask (zero only on NVIDIA)" -- "$T" run --launch "$G/copy_masked_f8e4m3" --check-uninit
expect 2 "bad fresh buffer" "@new: with the wrong dtype is a usage error" -- "$T" run "$V/kernel.ttir" $VA --arg 'o_ptr=@new:f16[100003]'
expect 2 "bad shape" "@new: with a bad shape is a usage error" -- "$T" run "$V/kernel.ttir" $VA --arg 'o_ptr=@new:f32[12x]'

# ---- undefined behaviour --------------------------------------------------------------------------
I=$G/int_div_i32
IA="--grid 4 --arg x_ptr=@$I/x_ptr.in.npy --arg o_ptr=@$I/o_ptr.in.npy --arg n=200"
expect 0 "int div by zero 56" "the shipped int_div_i32 divides masked-off lanes by 0 (counted in --stats) ..." -- "$T" run "$I/kernel.ttir" $IA --arg "y_ptr=@$I/y_ptr.in.npy" --stats
if grep -q warning "$tmp/err"; then no "... but warns about none (masked lanes excluded)"; else ok "... but warns about none (masked lanes excluded)"; fi
L_DZ=$(line_of "$B/div_zero.ttir" "= arith.divsi")
expect 0 "div_zero.ttir:$L_DZ:5: warning: integer division by zero in 'arith.divsi': pid (0, 0, 0) lane 0 (0); in kernel source gen_corpus.py:915:21 (r)" \
  "division by the index: a located warning with op, line, program, lane and source" -- "$T" run "$B/div_zero.ttir" $IA --arg "y_ptr=@$I/y_ptr.in.npy"
expect 1 "div_zero.ttir:$L_DZ:5: error: undefined behaviour (--strict): integer division by zero in 'arith.divsi': pid (0, 0, 0) lane 0 (0)" \
  "--strict makes it a fault (exit 1)" -- "$T" run "$B/div_zero.ttir" $IA --arg "y_ptr=@$I/y_ptr.in.npy" --strict
expect 0 "" "--quiet hides it" -- "$T" run "$B/div_zero.ttir" $IA --arg "y_ptr=@$I/y_ptr.in.npy" --quiet
if [ -s "$tmp/err" ]; then no "... (nothing on stderr)"; else ok "... (nothing on stderr)"; fi
"$PY" -c "
import numpy as np, sys
y = np.load(sys.argv[1] + '/y_ptr.in.npy').copy(); y[::3] = 0; np.save(sys.argv[2] + '/y0.npy', y)
print(int((y == 0).sum()))" "$I" "$tmp" >"$tmp/nzero"
expect 0 "more undefined-behaviour cases not shown" "many cases: the first 10, then a count" -- "$T" run "$I/kernel.ttir" $IA --arg "y_ptr=@$tmp/y0.npy"
cp "$tmp/err" "$tmp/many.txt"
check "... the 10 shown are the first zero lanes in program order and the count covers the rest" -- '
import numpy as np, sys, re
t, d = sys.argv[1], sys.argv[2]
y = np.load(t + "/y0.npy"); z = np.flatnonzero(y == 0)
err = open(t + "/many.txt").read().splitlines()
w = [l for l in err if ": warning: integer division by zero" in l]
got = [int(re.search(r"pid \((\d+), 0, 0\) lane (\d+)", l).group(1)) * 64 + int(re.search(r"lane (\d+)", l).group(1)) for l in w]
assert got == list(z[:10]), (got, z[:10])
more = [l for l in err if "more undefined-behaviour" in l][0]
assert int(more.split()[1]) == len(z) - 10, more
'
expect 0 "" "the same warnings with 1 thread ..." -- "$T" run "$I/kernel.ttir" $IA --arg "y_ptr=@$tmp/y0.npy" --threads 1
cp "$tmp/err" "$tmp/w1"
expect 0 "" "... and with 4 threads" -- "$T" run "$I/kernel.ttir" $IA --arg "y_ptr=@$tmp/y0.npy" --threads 4
if cmp -s "$tmp/err" "$tmp/w1"; then ok "UB warnings do not depend on the thread count"; else no "UB warnings do not depend on the thread count"; fi
"$PY" -c "
import numpy as np, sys
x = np.full(200, 70000, np.int32); x[1::2] = 3; np.save(sys.argv[1] + '/xo.npy', x); np.save(sys.argv[1] + '/yo.npy', x)" "$tmp"
L_MUL=$(line_of "$B/nsw_overflow.ttir" "overflow<nsw>")
expect 0 "nsw_overflow.ttir:$L_MUL:5: warning: integer overflow of an op marked nsw/nuw in 'arith.muli': pid (0, 0, 0) lane 0 (0)" \
  "arith.muli overflow<nsw> that overflows: a located warning" -- "$T" run "$B/nsw_overflow.ttir" --grid 4 --arg "x_ptr=@$tmp/xo.npy" --arg "y_ptr=@$tmp/yo.npy" --arg "o_ptr=@$I/o_ptr.in.npy" --arg n=200 --stats
expect 0 "nsw/nuw overflow 100" "... counted in --stats for the 100 overflowing lanes" -- "$T" run "$B/nsw_overflow.ttir" --grid 4 --arg "x_ptr=@$tmp/xo.npy" --arg "y_ptr=@$tmp/yo.npy" --arg "o_ptr=@$I/o_ptr.in.npy" --arg n=200 --stats

# ---- faults of the other broken kernels ------------------------------------------------------------
L=$(line_of "$B/oob_index.ttir" "tt.store")
expect 1 "oob_index.ttir:$L:5: error: out-of-bounds access of 4 bytes at o_ptr+400012 (allocation 'o_ptr' has 400012 bytes) in 'tt.store': pid (97, 0, 0) lane 674 (674)" \
  "off-by-one store index: op, line, program, lane and allocation" -- "$T" run "$B/oob_index.ttir" $VA $VO
L=$(line_of "$B/wrong_mask.ttir" "%x_5 = tt.load")
expect 1 "wrong_mask.ttir:$L:5: error: out-of-bounds access of 4 bytes at x_ptr+400012 (allocation 'x_ptr' has 400012 bytes) in 'tt.load': pid (97, 0, 0) lane 675 (675)" \
  "mask offs <= n: the load one past the end is named" -- "$T" run "$B/wrong_mask.ttir" $VA $VO
L=$(line_of "$B/race.ttir" "tt.store")
expect 1 "race.ttir:$L:5: error: data race in 'tt.store': pid (1, 0, 0) writes o_ptr+0 which pid (0, 0, 0) wrote, without atomics; lane 0 (0)" \
  "store without the pid offset: --check-races names both programs" -- "$T" run "$B/race.ttir" $VA $VO --check-races

# ---- one launch format ---------------------------------------------------------------------------
expect 0 "" "run --launch CORPUS_DIR/case.json (kernel: function name, list args, specialised-away args skipped)" -- "$T" run --launch "$M/case.json" --out "$tmp/lj"
if cmp -s "$tmp/lj/c_ptr.npy" "$tmp/mm/c_ptr.npy"; then ok "... equals the explicit --arg run"; else echo differs >"$tmp/err"; no "... equals the explicit --arg run"; fi
expect 0 "" "run --launch CORPUS_DIR (a case directory)" -- "$T" run --launch "$C/vadd_f16" --out "$tmp/ld"
if cmp -s "$tmp/ld/o_ptr.npy" "$C/vadd_f16/o_ptr.gpu.npy"; then ok "... output equals the GPU's"; else echo differs >"$tmp/err"; no "... output equals the GPU's"; fi
"$T" conform "${TTREF_SRCDIR:-.}/conformance/suite/core" --backend fault:flip-lsb --filter '^cast_f16_f32' --report-dir "$tmp/cr" -j 1 --no-progress >/dev/null 2>&1
cy=$(find "$tmp/cr/work" -name case.yaml | head -n 1)
if [ -n "$cy" ]; then ok "a FAIL keeps its staged case directory"; else echo "no case.yaml under work/" >"$tmp/err"; no "a FAIL keeps its staged case directory"; fi
expect 0 "" "run --launch DIR/case.yaml replays the harness's staged case" -- "$T" run --launch "$cy" --out "$tmp/lh"
cd_=$(dirname "$cy")
expect 0 "" "... the same launch with explicit arguments" -- "$T" run "$cd_/kernel.ttir" --grid 3 --arg "x_ptr=@$cd_/inputs/x_ptr.npy" --arg "o_ptr=@$cd_/inputs/o_ptr.npy" --arg n=150 --out "$tmp/lh2"
if cmp -s "$tmp/lh/o_ptr.npy" "$tmp/lh2/o_ptr.npy"; then ok "... gives the same output"; else echo differs >"$tmp/err"; no "... gives the same output"; fi
printf 'kernel: k.ttir\nargs:\n  - {name: x, kind: ptr}\n' >"$tmp/l5.yaml"
expect 2 "l5.yaml:3:5: error: pointer argument needs file:" "list args: a pointer without file is a located error" -- "$T" run --launch "$tmp/l5.yaml"
printf 'args:\n  - {name: x, bogus: 1}\n' >"$tmp/l6.yaml"
expect 2 "l6.yaml:2:15: error: unknown key in argument: bogus" "list args: an unknown key is a located error" -- "$T" run --launch "$tmp/l6.yaml"
printf 'name: "a"\nnum_warps: 4\ngrid: [1]\n' >"$tmp/l7.yaml"
expect 2 "launch file has no 'kernel' (and no kernel.ttir beside it)" "a descriptor without kernel and without kernel.ttir is an error" -- "$T" run --launch "$tmp/l7.yaml"

expect 2 "error: no grid: give --grid" "run without --grid is an error, not a one-program run" -- "$T" run "$V/kernel.ttir" --arg "x_ptr=@$V/x_ptr.in.npy" --arg "y_ptr=@$V/y_ptr.in.npy" $VO --arg n=100003
printf 'kernel: %s\nargs:\n  n: 3\n' "$(cd "$V" && pwd)/kernel.ttir" >"$tmp/l8.yaml"
expect 2 "error: no grid" "... also from a launch file without grid:" -- "$T" run --launch "$tmp/l8.yaml"

echo "1..$n"
[ "$fail" -eq 0 ]
