#!/bin/sh
# `ttref golden SUITE --out DIR --hashes-only` (TAP): a MANIFEST of one
# sha256 per item (golden-store hashes), equal to the hash of the item's
# lines in a full golden directory; --verify regenerates and names the
# drifted item; `conform --golden` refuses it; bad combinations are usage errors.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
SUITE=$SRC/conformance/suite/core
SEL='^(int_add_i32|float_add)$'
tl_tmpdir test_golden_hashes_sh; T=$tmp
echo "1..8"

"$BIN" golden "$SUITE" --filter "$SEL" --out "$T/h" --hashes-only >"$T/h.out" 2>&1
rc=$?
check "--hashes-only writes DIR/MANIFEST alone, marked golden-store hashes, one item line per item (4 items)" \
  "[ $rc -eq 0 ] && [ \"\$(ls -A '$T/h')\" = MANIFEST ] && grep -qx 'golden-store hashes' '$T/h/MANIFEST' &&
   [ \$(grep -c '^item [0-9a-f]\{64\}  [a-z0-9_]*/[a-z0-9=_]*\$' '$T/h/MANIFEST') -eq 4 ] && ! grep -q '^\(file\|blob\|input\) ' '$T/h/MANIFEST'" \
  "rc=$rc $(cat "$T/h.out") $(ls -A "$T/h")"

"$BIN" golden "$SUITE" --filter "$SEL" --out "$T/full" >/dev/null 2>&1
ok_hash=1
for item in $(awk '/^item /{print $3}' "$T/h/MANIFEST"); do
  want=$(awk -v p="$item/" '$1 != "blob" && index($3, p) == 1' "$T/full/MANIFEST" | LC_ALL=C sort | sha256sum | cut -c1-64)
  grep -qx "item $want  $item" "$T/h/MANIFEST" || ok_hash=0
done
check "each item hash is the sha256 of the item's sorted lines of a full golden directory (blob lines left out)" "[ $ok_hash -eq 1 ]"

"$BIN" golden "$SUITE" --filter "$SEL" --verify "$T/h" >"$T/v.out" 2>&1
check "--verify of a hashes-only directory regenerates and matches (exit 0)" "[ \$? -eq 0 ] && grep -q 'match' '$T/v.out'" "$(cat "$T/v.out")"

cp -r "$T/h" "$T/bad"
first=$(awk '/^item /{print $3; exit}' "$T/bad/MANIFEST")
sed -i "s/^item \(.\)\(.*  $(echo "$first" | sed 's/[]\/.[]/\\&/g')\)\$/item X\2/" "$T/bad/MANIFEST"
"$BIN" golden "$SUITE" --filter "$SEL" --verify "$T/bad" >"$T/b.out" 2>&1
rc=$?
check "a changed item hash is drift (exit 1) naming the item" \
  "[ $rc -eq 1 ] && grep -q \"drift: $first changed\" '$T/b.out'" "rc=$rc $(cat "$T/b.out")"

grep -v "  $first\$" "$T/h/MANIFEST" >"$T/bad/MANIFEST"
"$BIN" golden "$SUITE" --filter "$SEL" --verify "$T/bad" >"$T/b2.out" 2>&1
rc=$?
check "an item missing from the MANIFEST is drift (new)" "[ $rc -eq 1 ] && grep -q \"drift: $first is new\" '$T/b2.out'" "rc=$rc $(cat "$T/b2.out")"

"$BIN" conform "$SUITE" --filter "$SEL" --golden "$T/h" --backend reference --report-dir "$T/r" --no-progress >"$T/c.out" 2>&1
rc=$?
check "conform --golden refuses a hashes-only directory (exit 2, says how to make the files)" \
  "[ $rc -eq 2 ] && grep -q 'holds hashes only' '$T/c.out'" "rc=$rc $(cat "$T/c.out")"

"$BIN" golden "$SUITE" --verify "$T/h" --hashes-only >"$T/u.out" 2>&1
check "--hashes-only with --verify is a usage error (exit 2)" "[ \$? -eq 2 ] && grep -q 'hashes-only goes with' '$T/u.out'"

mkdir "$T/k" && cp "$SRC/golden/kernels/MANIFEST" "$T/k/" # --verify works in DIR: never in a read-only source tree
"$BIN" golden "$SRC/conformance/suite/kernels" --verify "$T/k" --filter '^vector_add' >"$T/k.out" 2>&1
check "the shipped golden/kernels hashes match the kernel suite (vector_add items)" "[ \$? -eq 0 ]" "$(tail -3 "$T/k.out")"
[ $fail -eq 0 ]
