#!/bin/sh
# Hostile-input tests of ttref's limits (TAP; docs/security.md):
# --max-steps stops loops made only of terminators; every numeric option of
# every subcommand takes only a strict in-range number (exit 2, "error: --OPT:");
# racing programs give bit-identical outputs for any --threads with one warning;
# address arithmetic that overflows 64 bits faults instead of wrapping onto
# other rows; .npy strings with NUL, YAML streams with two documents and
# duplicate launch-file keys are refused with a location; report-write
# failures name their reason.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
case $T in /*) ;; */*) T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T") ;; esac
DATA=${TTREF_TEST_DATA:-tests/data}
SRC=${TTREF_SRCDIR:-.}
V=$DATA/corpus/triton-3.6-h100/vadd_f32
tl_tmpdir limits
# expect CODE PATTERN DESCRIPTION -- command... (TMO seconds at most, default 60: a hang fails)
TMO=${TMO:-60} # every expect runs under timeout: a hang fails
# npy FILE DESCR COUNT [BYTE]: a 1-D .npy of COUNT elements of 4 bytes (python3 without numpy)
npy() {
  python3 - "$@" <<'PY'
import sys
path, descr, count = sys.argv[1], sys.argv[2].replace("\\0", "\0"), int(sys.argv[3])
d = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
h = (d + " " * (64 - (10 + len(d) + 1) % 64) + "\n").encode()
open(path, "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + b"\0" * 4 * count)
PY
}
npy "$tmp/z1.npy" '<i4' 1
npy "$tmp/f8.npy" '<f4' 8
RUNV="run $V/kernel.ttir --grid 98 --arg x_ptr=@$V/x_ptr.in.npy --arg y_ptr=@$V/y_ptr.in.npy --arg o_ptr=@$V/o_ptr.in.npy --arg n=100003"

# ---- 1. --max-steps counts every op, terminators and loop iterations included
for k in loop_cf_br loop_empty_for loop_cond_while; do
  for th in 1 2; do
    expect 1 "$k.ttir:[0-9]*:[0-9]*: error: the program executed more than 100000 ops (--max-steps)" \
      "--max-steps stops $k (a loop of terminators only), --threads $th" -- \
      "$T" run "$DATA/ttir/$k.ttir" --grid 2 --arg "o=@$tmp/z1.npy" --max-steps 100000 --threads "$th"
  done
done
expect 0 "" "--max-steps 10000 lets vadd_f32 finish" -- "$T" $RUNV --max-steps 10000

# ---- 2. strict numbers for every numeric option
for v in 2abc "" inf nan 1e400 0 -1 257 100000 " 2" 0x10 2.0; do
  expect 2 "error: --threads: " "run --threads '$v' is refused" -- "$T" $RUNV --threads "$v"
done
expect 0 "" "run --threads 256 runs" -- "$T" $RUNV --threads 256
expect 0 "" "OMP_NUM_THREADS=100000 is capped at 256 threads (20000 programs)" -- \
  env OMP_NUM_THREADS=100000 "$T" run "$V/kernel.ttir" --grid 20000 --arg "x_ptr=@$V/x_ptr.in.npy" \
  --arg "y_ptr=@$V/y_ptr.in.npy" --arg "o_ptr=@$V/o_ptr.in.npy" --arg n=100003
for v in 99999999999999999999 0 -5 1e3 "" 12abc inf; do
  expect 2 "error: --max-steps: " "run --max-steps '$v' is refused" -- "$T" $RUNV --max-steps "$v"
done
for v in 2abc "" -1 2147483648 1,2,3,4 "1,,2" 1e3 99999999999999999999; do
  expect 2 "error: --grid: " "run --grid '$v' is refused" -- "$T" run "$V/kernel.ttir" --grid "$v"
done
SUITE=$tmp/suite
mkdir -p "$SUITE/kernels"
cp "$SRC/conformance/suite/core/binary_op0.yaml" "$SUITE/"
cp "$SRC/conformance/suite/core/kernels/binary_op0.ttir" "$SUITE/kernels/"
for v in 0 257 2abc "" 1e1; do
  expect 2 "error: -j: " "conform -j '$v' is refused" -- "$T" conform "$SUITE" --backend reference --report-dir "$tmp/rd" -j "$v"
done
expect 2 "error: -j: " "conform -j2abc is refused" -- "$T" conform "$SUITE" --backend reference --report-dir "$tmp/rd" -j2abc
expect 2 "error: --jobs: " "conform --jobs -3 is refused" -- "$T" conform "$SUITE" --backend reference --report-dir "$tmp/rd" --jobs -3
for v in inf nan 1e400 -1 0 "" 1s 0x10 100000; do
  expect 2 "error: --timeout: " "conform --timeout '$v' is refused" -- "$T" conform "$SUITE" --backend reference --report-dir "$tmp/rd" --timeout "$v"
done
for v in 2/2 1/0 a/b 1/2x 1 -1/2 "/2" 0/99999999999999999999; do
  expect 2 "error: --shard: " "conform --shard '$v' is refused" -- "$T" conform "$SUITE" --backend reference --report-dir "$tmp/rd" --shard "$v"
done
printf 'kernel: %s/kernel.ttir\ngrid: 98\nthreads: 100000\n' "$(cd "$V" && pwd)" >"$tmp/threads.yaml"
expect 2 "threads.yaml:3:10: error: threads must be an integer in \[1, 256\]" "launch file threads: 100000 is refused, located" -- "$T" run --launch "$tmp/threads.yaml"
printf 'kernel: %s/kernel.ttir\ngrid: 2abc\n' "$(cd "$V" && pwd)" >"$tmp/grid.yaml"
expect 2 "grid.yaml:2:7: error: grid must be" "launch file grid: 2abc is refused, located" -- "$T" run --launch "$tmp/grid.yaml"

# ---- 3. racing programs: identical bytes for any thread count, one warning
R=$DATA/ttir/race_rmw.ttir
same=1
for th in 1 2 4; do
  for r in 1 2 3; do
    "$T" run "$R" --grid 200 --arg "o=@$tmp/z1.npy" --threads "$th" --out "$tmp/race.$th.$r" 2>"$tmp/race.$th.$r.err" || same=0
    cmp -s "$tmp/race.1.1/o.npy" "$tmp/race.$th.$r/o.npy" || same=0
  done
done
if [ "$same" = 1 ]; then ok "a racing read-modify-write kernel gives identical bytes for --threads 1, 2, 4 (3 runs each)"
else echo "outputs differ" >"$tmp/err"; no "a racing read-modify-write kernel gives identical bytes for --threads 1, 2, 4 (3 runs each)"; fi
if [ -z "${TTREF_OPENMP-x}" ]; then # built without OpenMP (make check sets it empty): one thread, programs in order, nothing races
  if [ ! -s "$tmp/race.2.1.err" ]; then ok "without OpenMP the racing kernel runs in program order and prints no race warning"
  else cp "$tmp/race.2.1.err" "$tmp/err"; no "without OpenMP the racing kernel runs in program order and prints no race warning"; fi
elif [ "$(grep -c '^warning: programs of this launch race' "$tmp/race.2.1.err")" = 1 ] && [ "$(wc -l <"$tmp/race.2.1.err")" -eq 1 ]; then
  ok "the racing kernel prints exactly one warning with --threads 2"
else cp "$tmp/race.2.1.err" "$tmp/err"; no "the racing kernel prints exactly one warning with --threads 2"; fi
expect 0 "" "a race-free kernel prints no race warning with --threads 2" -- "$T" $RUNV --threads 2
if [ -s "$tmp/err" ]; then no "a race-free kernel prints nothing on stderr"; else ok "a race-free kernel prints nothing on stderr"; fi
expect 1 "data race in 'tt.load'" "--check-races still faults on the racing kernel" -- "$T" run "$R" --grid 200 --arg "o=@$tmp/z1.npy" --check-races
cat >"$tmp/race_ww.ttir" <<'EOF'
module {
  tt.func public @k(%o: !tt.ptr<i32>) {
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %op = tt.splat %o : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
    %oa = tt.addptr %op, %r : tensor<4x!tt.ptr<i32>>, tensor<4xi32>
    %v = tt.splat %pid : i32 -> tensor<4xi32>
    tt.store %oa, %v : tensor<4x!tt.ptr<i32>>
    tt.return
  }
}
EOF
npy "$tmp/z4.npy" '<i4' 4
"$T" run "$tmp/race_ww.ttir" --grid 300 --arg "o=@$tmp/z4.npy" --threads 1 --out "$tmp/ww1" 2>/dev/null
"$T" run "$tmp/race_ww.ttir" --grid 300 --arg "o=@$tmp/z4.npy" --threads 4 --out "$tmp/ww4" 2>/dev/null
if cmp -s "$tmp/ww1/o.npy" "$tmp/ww4/o.npy"; then ok "write-write races end as in program order for --threads 1 and 4"
else echo "differ" >"$tmp/err"; no "write-write races end as in program order for --threads 1 and 4"; fi

# ---- 4. address arithmetic that overflows 64 bits faults
expect 1 "overflow_addptr.ttir:8:5: error: the address overflowed 64 bits in 'tt.addptr': pid (0, 0, 0) lane 1" \
  "tt.addptr with offset -2^63 x 4 faults (release builds wrapped it onto element 0)" -- \
  "$T" run "$DATA/ttir/overflow_addptr.ttir" --grid 1 --arg "x=@$tmp/f8.npy" --arg "o=@$tmp/f8.npy"
for s in 4611686018427387904 9223372036854775807; do
  expect 1 "overflow_block_ptr.ttir:8:5: error: the address overflowed 64 bits in 'tt.load'" \
    "a block pointer with stride $s faults (rows aliased before)" -- \
    "$T" run "$DATA/ttir/overflow_block_ptr.ttir" --grid 1 --arg "x=@$tmp/f8.npy" --arg "o=@$tmp/f8.npy" --arg "stride=$s"
done
expect 1 "overflow_descriptor.ttir:9:5: error: the address overflowed 64 bits in 'tt.descriptor_load'" \
  "a tensor descriptor with stride 2^62 faults (rows aliased before)" -- \
  "$T" run "$DATA/ttir/overflow_descriptor.ttir" --grid 1 --arg "x=@$tmp/f8.npy" --arg "o=@$tmp/f8.npy" --arg "stride=4611686018427387904"
expect 0 "" "the same descriptor with stride 4 runs" -- \
  "$T" run "$DATA/ttir/overflow_descriptor.ttir" --grid 1 --arg "x=@$tmp/f8.npy" --arg "o=@$tmp/f8.npy" --arg "stride=4"
expect 0 "" "the same block pointer with stride 4 runs" -- \
  "$T" run "$DATA/ttir/overflow_block_ptr.ttir" --grid 1 --arg "x=@$tmp/f8.npy" --arg "o=@$tmp/f8.npy" --arg "stride=4"

# ---- 5. .npy and YAML corners
npy "$tmp/nul.npy" '<f4\0' 1
expect 2 "nul.npy: malformed header: control character" ".npy descr '<f4\\\\0' is refused" -- \
  "$T" run "$V/kernel.ttir" --grid 1 --arg "x_ptr=@$tmp/nul.npy" --arg "y_ptr=@$tmp/nul.npy" --arg "o_ptr=@$tmp/nul.npy" --arg n=1
A=$(cd "$V" && pwd)
printf 'kernel: %s/kernel.ttir\ngrid: 1\nargs:\n  x_ptr: "@%s/x_ptr.in.npy"\n  y_ptr: "@%s/y_ptr.in.npy"\n  o_ptr: "@%s/o_ptr.in.npy"\n  n: 10\n' "$A" "$A" "$A" "$A" >"$tmp/one.yaml"
expect 0 "" "a one-document launch file runs" -- "$T" run --launch "$tmp/one.yaml"
{ cat "$tmp/one.yaml"; printf -- '---\ngrid: 5\n'; } >"$tmp/two.yaml"
expect 2 "two.yaml:8:1: error: a launch file holds one YAML document" "a launch file with two YAML documents is refused, located" -- "$T" run --launch "$tmp/two.yaml"
{ head -n 2 "$tmp/one.yaml"; printf 'grid: 2\n'; tail -n +3 "$tmp/one.yaml"; } >"$tmp/dup.yaml"
expect 2 "dup.yaml:3:1: error: duplicate key: grid" "a launch file with a duplicate key is refused, located" -- "$T" run --launch "$tmp/dup.yaml"
{ head -n 4 "$tmp/one.yaml"; sed -n 4p "$tmp/one.yaml"; tail -n +5 "$tmp/one.yaml"; } >"$tmp/dupa.yaml"
expect 2 "dupa.yaml:5:3: error: duplicate argument: x_ptr" "a launch file naming an argument twice is refused, located" -- "$T" run --launch "$tmp/dupa.yaml"
expect 0 "" "the one-case suite loads and its golden is written" -- "$T" golden "$SUITE" --out "$tmp/g1"
L=$(($(wc -l <"$SUITE/binary_op0.yaml") + 1))
printf -- '---\nname: second\n' >>"$SUITE/binary_op0.yaml"
expect 2 "binary_op0.yaml:$L:1: error: a YAML file here holds one document" "a suite case with two YAML documents is refused, located" -- "$T" golden "$SUITE" --out "$tmp/g2"
cp "$SRC/conformance/suite/core/binary_op0.yaml" "$SUITE/"
printf 'grid: [1, 1, 1]\n' >>"$SUITE/binary_op0.yaml"
expect 2 "binary_op0.yaml:$L:1: error: duplicate key 'grid'" "a suite case with a duplicate key is refused, located" -- "$T" golden "$SUITE" --out "$tmp/g3"
python3 - "$SUITE/binary_op0.yaml" <<'PY'
import sys
# 200000 distinct argument names in one mapping, then a duplicate: the check must not be quadratic
src = open(sys.argv[1]).read().replace("grid: [1, 1, 1]\n", "")
keys = "".join("  k%d: 1\n" % i for i in range(200000)) + "  k7: 2\n"
open(sys.argv[1], "w").write(src.replace("args:\n", "args:\n" + keys))
PY
TMO=20 expect 2 "binary_op0.yaml:[0-9]*:3: error: duplicate key 'k7'" "a duplicate among 200000 keys is found quickly (not in quadratic time)" -- "$T" golden "$SUITE" --out "$tmp/g4"

# ---- 6. a report that cannot be written says why (strerror)
cp "$SRC/conformance/suite/core/binary_op0.yaml" "$SUITE/"
"$T" conform "$SUITE" --backend reference --report-dir "$tmp/rep" -j 1 --no-progress >/dev/null 2>&1
mkdir -p "$tmp/merged/journal.jsonl"
expect 2 "journal.jsonl.*\(Is a directory\|not a regular file\)" "report merge names the reason the merged journal cannot be written" -- \
  "$T" report merge "$tmp/rep" --out "$tmp/merged"

echo "1..$n"
[ "$fail" -eq 0 ]
