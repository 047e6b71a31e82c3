#!/bin/sh
# docs/examples/rope against an installed temporary prefix: `make install prefix=TMP`, goldens
# by dispatch key with the installed `ttref golden --library` (bit-identical regeneration,
# --verify, drift, located manifest errors), the C wrapper's CMocka test built with
# `pkg-config --cflags --libs ttref cmocka`, and the Python example with the installed
# package. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
S=${TTREF_SRCDIR:-.}
B=$(cd "$(dirname "$T")" && pwd)
E=$S/docs/examples/rope
tl_tmpdir rope
TL_ERR_TAIL=1; TL_ERR_LINES=12 # failures show the end of $tmp/err
san_env=$(tl_san_env "$B/.libs/libttref.so")
P=$tmp/prefix
if make -C "$B" install prefix="$P" >"$tmp/err" 2>&1; then ok "make install prefix=TMP"; else no "make install prefix=TMP"; echo "1..$n"; exit 1; fi
TT=$P/bin/ttref
# expect CODE PATTERN DESCRIPTION -- command...
expect 0 "index.json" "golden --library writes the rope goldens" -- env $san_env "$TT" golden --library "$E/MANIFEST.yaml" --out "$tmp/g1"
expect 0 "" "a second generation" -- env $san_env "$TT" golden --library "$E/MANIFEST.yaml" --out "$tmp/g2"
if diff -r "$tmp/g1" "$tmp/g2" >"$tmp/err" 2>&1; then ok "regeneration is bit-identical"; else no "regeneration is bit-identical"; fi
nfiles=$(find "$tmp/g1" -name '*.npy' | wc -l)
if [ "$nfiles" -eq 10 ] && [ -f "$tmp/g1/rope/hd64_bf16/inputs/x_ptr.npy" ] && [ -f "$tmp/g1/rope/hd128_bf16/outputs/o_ptr.npy" ]; then
  ok "DIR/KERNEL/VARIANT_KEY/{inputs,outputs}/*.npy for both variants"
else find "$tmp/g1" >"$tmp/err"; no "DIR/KERNEL/VARIANT_KEY/{inputs,outputs}/*.npy for both variants"; fi
if grep -q '^"head_dim=64,dtype=bf16": {"dispatch": {"head_dim": 64, "dtype": "bf16"}, "kernel": "rope", "variant_key": "hd64_bf16"' "$tmp/g1/index.json" \
   && grep -q '^"head_dim=128,dtype=bf16": ' "$tmp/g1/index.json"; then ok "index.json is keyed by the dispatch values"
else cp "$tmp/g1/index.json" "$tmp/err"; no "index.json is keyed by the dispatch values"; fi
expect 0 "match" "--verify: the goldens match a fresh run" -- env $san_env "$TT" golden --library "$E/MANIFEST.yaml" --verify "$tmp/g1"
printf 'x' >>"$tmp/g2/rope/hd128_bf16/outputs/o_ptr.npy"
rm "$tmp/g2/rope/hd64_bf16/inputs/cos_ptr.npy"
expect 1 "drift: rope/hd128_bf16/outputs/o_ptr.npy differs" "--verify names a changed golden" -- env $san_env "$TT" golden --library "$E/MANIFEST.yaml" --verify "$tmp/g2"
if grep -q "drift: rope/hd64_bf16/inputs/cos_ptr.npy is missing" "$tmp/err"; then ok "--verify names a missing input"; else no "--verify names a missing input"; fi
# located errors in manifests
bad() { # DESCRIPTION PATTERN, for the manifest in $tmp/bad.yaml
  expect 2 "$2" "$1" -- env $san_env "$TT" golden --library "$tmp/bad.yaml" --out "$tmp/g3"
}
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: %s/rope_case.yaml}\nvariants:\n  - {variant_key: hd64_bf16, dispatch: {head_dim: 64}}\n  - {variant_key: hd128_bf16, dispatch: {head_dim: 64}}\n' "$E" >"$tmp/bad.yaml"
bad "two variants with one dispatch key" "bad.yaml:6:41: error: dispatch key head_dim=64 is already taken by variant rope/hd64_bf16"
printf 'library: r\ndispatch: [{name: head_dim, type: float}]\nkernels: {rope: %s/rope_case.yaml}\nvariants: []\n' "$E" >"$tmp/bad.yaml"
bad "an unknown field type" "bad.yaml:2:12: error: unknown field type 'float'"
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: %s/rope_case.yaml}\nvariants:\n  - {variant_key: hd96, dispatch: {head_dim: 96}}\n' "$E" >"$tmp/bad.yaml"
bad "a variant the case does not have" "bad.yaml:5:19: error: case 'rope' has no specialization 'hd96'"
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: %s/rope_case.yaml}\nvariants:\n  - {variant_key: hd64_bf16, dispatch: {head_dim: 6x4}}\n' "$E" >"$tmp/bad.yaml"
bad "a value of the wrong type" "bad.yaml:5:51: error: head_dim must be an integer"
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: %s/rope_case.yaml}\nvariants:\n  - {variant_key: hd64_bf16, dispatch: {head_dim: 64, dtype: bf16}}\n' "$E" >"$tmp/bad.yaml"
bad "a value for no field" "bad.yaml:5:55: error: 'dtype' is not a dispatch field"
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: nope.yaml}\nvariants: []\n' >"$tmp/bad.yaml"
bad "a missing case file" "bad.yaml:3:17: error: case file 'nope.yaml' not found"
printf 'library: r\ndispach: []\n' >"$tmp/bad.yaml"
bad "an unknown key" "bad.yaml:2:1: error: unknown key 'dispach'"
# a variant whose reference run faults (x_ptr too small for T = 40 rows) names the variant, exit 1
cp -R "$E/kernels" "$tmp/" # a case reads kernels inside its own directory only (docs/security.md)
sed -e 's|x_ptr: {shape: \[40, 64\]|x_ptr: {shape: [8, 64]|' "$E/rope_case.yaml" >"$tmp/short_case.yaml"
printf 'library: r\ndispatch: [{name: head_dim, type: int}]\nkernels: {rope: short_case.yaml}\nvariants:\n  - {variant_key: hd64_bf16, dispatch: {head_dim: 64}}\n' >"$tmp/bad.yaml"
expect 1 "while generating variant rope/hd64_bf16 (dispatch head_dim=64)" "a reference run that faults names the op and the variant (exit 1)" -- env $san_env "$TT" golden --library "$tmp/bad.yaml" --out "$tmp/g5"
if grep -q "rope_hd64_bf16.ttir:[0-9]*:[0-9]*: error: out-of-bounds" "$tmp/err"; then ok "... located in the kernel"; else no "... located in the kernel"; fi
expect 2 "usage" "--library with a suite is a usage error" -- "$TT" golden "$S/conformance/suite/core" --library "$E/MANIFEST.yaml" --out "$tmp/g4"
# the C wrapper's CMocka test, built against the installed prefix
export PKG_CONFIG_PATH="$P/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
static=; sanflags=
if [ -z "$(find "$P" -name 'libttref.so*' | head -n 1)" ]; then # --disable-shared: libttref.a and its private libraries
  static=--static
  a=$(find "$P" -name libttref.a | head -n 1)
  if nm "$a" 2>/dev/null | grep -q '__asan_report'; then sanflags="$sanflags -fsanitize=address"; fi
  if nm "$a" 2>/dev/null | grep -q '__ubsan_handle'; then sanflags="$sanflags -fsanitize=undefined"; fi
fi
flags=$(pkg-config $static --define-variable=prefix="$P" --cflags --libs ttref cmocka 2>"$tmp/err")
if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $sanflags -I"$E" -o "$tmp/test_rope" "$E/test_rope.c" "$E/rope.c" $flags -Wl,-rpath,"$P/lib" >"$tmp/err" 2>&1; then
  ok "the rope example builds with pkg-config --cflags --libs ttref cmocka"
  env $san_env CMOCKA_MESSAGE_OUTPUT=TAP "$tmp/test_rope" "$tmp/g1" >"$tmp/out" 2>"$tmp/err"; rc=$?
  grep '^ok ' "$tmp/out" | sed 's/^ok [0-9]* - //' >"$tmp/oks"
  while IFS= read -r l; do ok "C: $l"; done <"$tmp/oks"
  if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/oks")" -ne 3 ]; then cat "$tmp/out" >>"$tmp/err"; no "C: every rope test passes (exit $rc)"; fi
else no "the rope example builds with pkg-config --cflags --libs ttref cmocka"; fi
# the same in Python with the installed package
PY=$(tl_numpy)
init=$(find "$P" -path '*/ttref/__init__.py' | head -n 1)
if [ -n "$static" ]; then
  ok "Python: the rope example # SKIP libttref was built without shared libraries (--disable-shared)"
elif [ -n "$PY" ] && [ -n "$init" ]; then
  env -u TTREF_LIB -u TTREF_BIN $san_env PYTHONPATH="$(dirname "$(dirname "$init")")" "$PY" "$E/test_rope.py" "$tmp/g1" >"$tmp/out" 2>"$tmp/err"; rc=$?
  grep '^ok ' "$tmp/out" | sed 's/^ok [0-9]* - //' >"$tmp/oks"
  while IFS= read -r l; do ok "Python: $l"; done <"$tmp/oks"
  if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/oks")" -ne 4 ]; then cat "$tmp/out" >>"$tmp/err"; no "Python: every rope test passes (exit $rc)"; fi
else echo "no python3 with numpy, or no installed package" >"$tmp/err"; no "Python: the rope example runs"; fi
echo "1..$n"
[ "$fail" -eq 0 ]
