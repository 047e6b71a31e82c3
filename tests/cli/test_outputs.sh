#!/bin/sh
# `ttref run --out DIR --outputs NAME,...` writes only the named buffers, byte-identical to a full
# --out; bad names are one-line errors (exit 2). Inputs of 64 KiB or more are mapped copy-on-write
# (npy_read_map): a kernel storing into an input never changes the file, and --out into the
# inputs' own directory (the same files, or hard links to them) rewrites them safely. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
D=${TTREF_TEST_DATA:-tests/data}/corpus/triton-3.6-h100/vadd_f32
tl_tmpdir outputs
K=$D/kernel.ttir
run() { "$T" run "$K" --grid 98 --arg n=100003 "$@"; }
ARGS="--arg x_ptr=@$D/x_ptr.in.npy --arg y_ptr=@$D/y_ptr.in.npy --arg o_ptr=@$D/o_ptr.in.npy"
only_files() { # DIR FILE...: DIR holds exactly these files
  _d=$1; shift
  [ "$(ls "$_d" | tr '\n' ' ')" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')" ]
}

# shellcheck disable=SC2086
run $ARGS --out "$tmp/all" >"$tmp/out" 2>"$tmp/err"
check "a full --out writes every pointer argument" 'only_files "$tmp/all" o_ptr.npy x_ptr.npy y_ptr.npy' "$(ls "$tmp/all")"
check "the full --out's result is the GPU's" 'cmp -s "$tmp/all/o_ptr.npy" "$D/o_ptr.gpu.npy"'
# shellcheck disable=SC2086
expect 0 "" "--outputs o_ptr runs" -- run $ARGS --out "$tmp/o" --outputs o_ptr
check "--outputs o_ptr writes only o_ptr.npy" 'only_files "$tmp/o" o_ptr.npy' "$(ls "$tmp/o")"
check "--outputs o_ptr's file equals the full --out's byte for byte" 'cmp -s "$tmp/o/o_ptr.npy" "$tmp/all/o_ptr.npy"'
# shellcheck disable=SC2086
expect 0 "" "--outputs by %name and 0-based position, repeated" -- run $ARGS --out "$tmp/p" --outputs %o_ptr --outputs 0
check "... writes x_ptr.npy and o_ptr.npy" 'only_files "$tmp/p" o_ptr.npy x_ptr.npy' "$(ls "$tmp/p")"
check "... x_ptr.npy equals the full --out's" 'cmp -s "$tmp/p/x_ptr.npy" "$tmp/all/x_ptr.npy" && cmp -s "$tmp/p/o_ptr.npy" "$tmp/all/o_ptr.npy"'
# shellcheck disable=SC2086
expect 0 "" "--outputs with a list and a repeat" -- run $ARGS --out "$tmp/l" --outputs y_ptr,o_ptr,y_ptr --threads 2
check "... writes y_ptr.npy and o_ptr.npy, the same bytes on 2 threads" 'only_files "$tmp/l" o_ptr.npy y_ptr.npy && cmp -s "$tmp/l/o_ptr.npy" "$tmp/all/o_ptr.npy"' "$(ls "$tmp/l")"
expect 0 "" "--outputs with --launch" -- "$T" run --launch "$D" --out "$tmp/lf" --outputs o_ptr
check "... writes only o_ptr.npy, the GPU's bytes" 'only_files "$tmp/lf" o_ptr.npy && cmp -s "$tmp/lf/o_ptr.npy" "$D/o_ptr.gpu.npy"' "$(ls "$tmp/lf")"

# shellcheck disable=SC2086
expect 2 "error: output 'z_ptr' is not an argument of the kernel (pointer arguments: x_ptr, y_ptr, o_ptr)" \
  "an unknown name is an error naming the pointer arguments" -- run $ARGS --out "$tmp/bad1" --outputs o_ptr,z_ptr
check "... on one line, before anything is written" '[ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/bad1" ]' "$(cat "$tmp/err")"
# shellcheck disable=SC2086
expect 2 "error: output 'n' is not a pointer argument" "a scalar argument is not an output" -- run $ARGS --out "$tmp/bad2" --outputs n
# shellcheck disable=SC2086
expect 2 "error: output '7' is not an argument" "a position past the arguments" -- run $ARGS --out "$tmp/bad3" --outputs 7
# shellcheck disable=SC2086
expect 2 "error: --outputs 'o_ptr,,x_ptr': empty name" "an empty name in the list" -- run $ARGS --out "$tmp/bad4" --outputs o_ptr,,x_ptr
# shellcheck disable=SC2086
expect 2 "error: --outputs needs --out DIR" "--outputs without --out" -- run $ARGS --outputs o_ptr

# --precise writes NAME.precise.npy and NAME.bound.npy of the named buffers only
# shellcheck disable=SC2086
expect 0 "" "--precise with --outputs" -- run $ARGS --out "$tmp/pr" --outputs o_ptr --precise
check "... writes o_ptr's three files only" 'only_files "$tmp/pr" o_ptr.npy o_ptr.precise.npy o_ptr.bound.npy' "$(ls "$tmp/pr")"
# shellcheck disable=SC2086
run $ARGS --out "$tmp/prall" --precise >/dev/null 2>&1
check "... the same bytes as a full --precise --out" 'cmp -s "$tmp/pr/o_ptr.precise.npy" "$tmp/prall/o_ptr.precise.npy" && cmp -s "$tmp/pr/o_ptr.bound.npy" "$tmp/prall/o_ptr.bound.npy"'

# Mapped inputs (each of these files is 400 KB, over NPY_MAP_MIN)
mkdir "$tmp/in"
for b in x y o; do cp "$D/${b}_ptr.in.npy" "$tmp/in/${b}_ptr.npy"; done
cp "$tmp/in/o_ptr.npy" "$tmp/o_before.npy"
IN="--arg x_ptr=@$tmp/in/x_ptr.npy --arg y_ptr=@$tmp/in/y_ptr.npy --arg o_ptr=@$tmp/in/o_ptr.npy"
# shellcheck disable=SC2086
expect 0 "" "a kernel storing into a mapped input" -- run $IN --out "$tmp/m1"
check "... leaves the input file unchanged" 'cmp -s "$tmp/in/o_ptr.npy" "$tmp/o_before.npy"'
check "... and writes the GPU's result" 'cmp -s "$tmp/m1/o_ptr.npy" "$D/o_ptr.gpu.npy"'
# shellcheck disable=SC2086
expect 0 "" "--out into the inputs' own directory (rewrites the mapped files)" -- run $IN --out "$tmp/in"
check "... the rewritten files are the full --out's" 'cmp -s "$tmp/in/o_ptr.npy" "$tmp/all/o_ptr.npy" && cmp -s "$tmp/in/x_ptr.npy" "$tmp/all/x_ptr.npy" && cmp -s "$tmp/in/y_ptr.npy" "$tmp/all/y_ptr.npy"'
# o_ptr reads the file x_ptr's output rewrites first, and x_ptr the one o_ptr's output rewrites
mkdir "$tmp/sw"
cp "$D/o_ptr.in.npy" "$tmp/sw/x_ptr.npy"
cp "$D/x_ptr.in.npy" "$tmp/sw/o_ptr.npy"
expect 0 "" "inputs bound to each other's output files" -- run --arg "x_ptr=@$tmp/sw/o_ptr.npy" --arg "y_ptr=@$D/y_ptr.in.npy" --arg "o_ptr=@$tmp/sw/x_ptr.npy" --out "$tmp/sw"
check "... the files hold the right buffers" 'cmp -s "$tmp/sw/o_ptr.npy" "$tmp/all/o_ptr.npy" && cmp -s "$tmp/sw/x_ptr.npy" "$tmp/all/x_ptr.npy"'
# an output file that is a hard link to an input of another name
mkdir "$tmp/hl" "$tmp/hlsrc"
cp "$D/x_ptr.in.npy" "$tmp/hlsrc/data.npy"
ln "$tmp/hlsrc/data.npy" "$tmp/hl/o_ptr.npy"
expect 0 "" "an output file hard-linked to a mapped input" -- run --arg "x_ptr=@$tmp/hlsrc/data.npy" --arg "y_ptr=@$D/y_ptr.in.npy" --arg "o_ptr=@$D/o_ptr.in.npy" --out "$tmp/hl"
check "... both buffers are written right" 'cmp -s "$tmp/hl/o_ptr.npy" "$tmp/all/o_ptr.npy" && cmp -s "$tmp/hl/x_ptr.npy" "$tmp/all/x_ptr.npy"'
# --outputs leaves an unnamed mapped input's file alone even when it is in DIR
cp "$D/o_ptr.in.npy" "$tmp/o_again.npy"
mkdir "$tmp/keep"
for b in x y o; do cp "$D/${b}_ptr.in.npy" "$tmp/keep/${b}_ptr.npy"; done
expect 0 "" "--outputs o_ptr into the inputs' directory" -- run --arg "x_ptr=@$tmp/keep/x_ptr.npy" --arg "y_ptr=@$tmp/keep/y_ptr.npy" --arg "o_ptr=@$tmp/keep/o_ptr.npy" --out "$tmp/keep" --outputs o_ptr
check "... rewrites o_ptr.npy and leaves x_ptr.npy as it was" 'cmp -s "$tmp/keep/o_ptr.npy" "$tmp/all/o_ptr.npy" && cmp -s "$tmp/keep/x_ptr.npy" "$D/x_ptr.in.npy"'

# Racing programs on a mapped input: the parallel run's snapshot is the file's own bytes (a second,
# read-only mapping); programs re-run in order from it give o[0] = 5 + 64, as on one thread
cat >"$tmp/inc.ttir" <<'EOF'
module {
  tt.func public @inc(%o: !tt.ptr<f32>) {
    %v = tt.load %o : !tt.ptr<f32>
    %c = arith.constant 1.000000e+00 : f32
    %w = arith.addf %v, %c : f32
    tt.store %o, %w : !tt.ptr<f32>
    tt.return
  }
}
EOF
PY=$(tl_python)
"$PY" - "$tmp/inc.npy" <<'PY'
import struct, sys
n = 32768  # 128 KiB: mapped
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
h += " " * (128 - 10 - len(h) - 1) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode() + struct.pack("<%df" % n, *([5.0] + [0.0] * (n - 1))))
PY
cp "$tmp/inc.npy" "$tmp/inc_before.npy"
expect 0 "" "racing read-modify-write programs on a mapped input, 2 threads (raced and re-run in order where OpenMP is built in)" -- "$T" run "$tmp/inc.ttir" --grid 64 --arg "o=@$tmp/inc.npy" --out "$tmp/inc2" --threads 2
expect 0 "" "... and on 1 thread" -- "$T" run "$tmp/inc.ttir" --grid 64 --arg "o=@$tmp/inc.npy" --out "$tmp/inc1" --threads 1
first_f32() { "$PY" -c 'import struct, sys; print(struct.unpack("<f", open(sys.argv[1], "rb").read()[128:132])[0])' "$1"; }
check "... o[0] = 5 + 64 both ways, the same bytes, the input unchanged" \
  '[ "$(first_f32 "$tmp/inc2/o.npy")" = 69.0 ] && cmp -s "$tmp/inc1/o.npy" "$tmp/inc2/o.npy" && cmp -s "$tmp/inc.npy" "$tmp/inc_before.npy"' "$(first_f32 "$tmp/inc2/o.npy")"

# A parallel run first makes a large mapped input that a store may write private, page by page on
# disjoint stretches (interp_mem_prefault): o[i] = 2 o[i] in place over 4 MiB gives the 1-thread
# bytes, and the file is not changed
cat >"$tmp/dbl.ttir" <<'EOF'
module {
  tt.func public @dbl(%o: !tt.ptr<f32>) {
    %pid = tt.get_program_id x : i32
    %c = arith.constant 1024 : i32
    %b = arith.muli %pid, %c : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %bs = tt.splat %b : i32 -> tensor<1024xi32>
    %i = arith.addi %bs, %r : tensor<1024xi32>
    %p = tt.splat %o : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %pa = tt.addptr %p, %i : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %v = tt.load %pa : tensor<1024x!tt.ptr<f32>>
    %two = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %w = arith.mulf %v, %two : tensor<1024xf32>
    tt.store %pa, %w : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
EOF
"$PY" - "$tmp/big.npy" <<'PY'
import struct, sys
n = 1 << 20  # 4 MiB: mapped, and prefaulted before a parallel run
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
h += " " * (128 - 10 - len(h) - 1) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode() + struct.pack("<%df" % n, *range(n)))
PY
cp "$tmp/big.npy" "$tmp/big_before.npy"
expect 0 "" "in-place stores into a 4 MiB mapped input, 4 threads" -- "$T" run "$tmp/dbl.ttir" --grid 1024 --arg "o=@$tmp/big.npy" --out "$tmp/big4" --threads 4
expect 0 "" "... and on 1 thread" -- "$T" run "$tmp/dbl.ttir" --grid 1024 --arg "o=@$tmp/big.npy" --out "$tmp/big1" --threads 1
f32_at() { "$PY" -c 'import struct, sys; print(struct.unpack("<f", open(sys.argv[1], "rb").read()[128 + 4 * int(sys.argv[2]):][:4])[0])' "$1" "$2"; }
check "... o[i] = 2i (first, middle, last), the same bytes both ways, the input file unchanged" \
  '[ "$(f32_at "$tmp/big4/o.npy" 0)" = 0.0 ] && [ "$(f32_at "$tmp/big4/o.npy" 777777)" = 1555554.0 ] &&
   [ "$(f32_at "$tmp/big4/o.npy" 1048575)" = 2097150.0 ] && cmp -s "$tmp/big1/o.npy" "$tmp/big4/o.npy" &&
   cmp -s "$tmp/big.npy" "$tmp/big_before.npy"' "$(f32_at "$tmp/big4/o.npy" 777777)"

echo "1..$n"
[ "$fail" -eq 0 ]
