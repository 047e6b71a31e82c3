#!/bin/sh
# Hostile file-system tests (TAP; docs/security.md, Files and paths): case
# names and variant keys that are not one safe path component are refused at
# suite load; the harness never follows a symbolic link in a report, golden or
# --out directory and never writes or deletes outside the directory chosen;
# suites read no file outside the suite directory unless --allow-outside-suite;
# output file name collisions are refused. Every test checks that nothing
# outside the chosen directories changed (a snapshot of the sandbox before and
# after) as well as the exit code and the message.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
DATA=${TTREF_TEST_DATA:-tests/data}
DATA=$(cd "$DATA" && pwd)
tl_tmpdir test_paths_sh; T=$tmp
echo "1..66"

# snap DIR [EXCLUDED-SUBPATH]: a listing of every entry under DIR (type, link
# target, content hash), excluding one subtree (the directory ttref may write).
snap() {
  (cd "$1" && find . ${2:+-path "./$2" -prune -o} -print | LC_ALL=C sort | while IFS= read -r f; do
    if [ -L "$f" ]; then echo "L $f -> $(readlink "$f")"
    elif [ -d "$f" ]; then echo "D $f"
    else echo "F $f $(cksum <"$f")"; fi
  done)
}
# run_case DESC CODE PATTERN SANDBOX EXCLUDED -- command...: runs the command
# in the sandbox, checks its exit code, that stderr/stdout match PATTERN and
# that the sandbox outside EXCLUDED is unchanged.
run_case() {
  desc=$1; code=$2; pat=$3; box=$4; excl=$5; shift 6
  snap "$box" "$excl" >"$T/before"
  (cd "$box" && "$@") >"$T/out" 2>"$T/err"
  rc=$?
  snap "$box" "$excl" >"$T/after"
  why=
  [ "$rc" -eq "$code" ] || why="exit $rc, expected $code; $(head -c 600 "$T/err")"
  [ -z "$why" ] && [ -n "$pat" ] && ! grep -q -- "$pat" "$T/err" "$T/out" && why="no '$pat' in: $(head -c 600 "$T/err")"
  [ -z "$why" ] && ! cmp -s "$T/before" "$T/after" && why="changed outside the chosen directory: $(diff "$T/before" "$T/after" | head -n 6)"
  if [ -z "$why" ]; then ok "$desc"; else notok "$desc" "$why"; fi
}

# a small valid suite case (vadd, 16 elements) in directory $1 with name $2 and variant $3
KERNEL=$DATA/ttir/vadd_f32.ttir
mkcase() {
  mkdir -p "$1/kernels"
  cp "$KERNEL" "$1/kernels/vadd.ttir"
  {
    [ -n "$2" ] && printf "name: %s\n" "$2"
    echo "kernel: ${4:-kernels/vadd.ttir}"
    echo "grid: 1"
    echo "args:"
    echo "  x_ptr: {shape: [16], input: ${5:-{gen: arange, start: 0, step: 1\}}}"
    echo "  y_ptr: {shape: [16], input: {gen: fill, value: 2}}"
    echo "  o_ptr: {shape: [16]}"
    echo "  n: 16"
    echo "outputs:"
    echo "  o_ptr: exact"
    if [ -n "$3" ]; then
      echo "specializations:"
      printf "  - {variant_key: %s}\n" "$3"
    fi
  } >"$1/case.yaml"
}
# a sandbox: $T/NAME/{outside/victim.txt, p/sibling.txt, p/suite}
mkbox() {
  rm -rf "$T/$1"
  mkdir -p "$T/$1/outside/sub" "$T/$1/p"
  echo victim >"$T/$1/outside/victim.txt"
  echo keep >"$T/$1/outside/sub/keep.txt"
  echo sibling >"$T/$1/p/sibling.txt"
  B=$T/$1
}

# ---- 1. names that are not one safe path component -------------------------------
# (each as case name and as variant key; YAML double-quoted escapes make the bytes)
i=0
for nm in '".."' '"."' '"a/b"' '"../x"' '".hidden"' '""' '"a\tb"' '"a\x01b"' '"a\0b"' '"a b"'; do
  i=$((i + 1))
  mkbox n$i
  mkcase "$B/p/suite" "$nm" ""
  run_case "case name $nm is refused at suite load (conform)" 2 "error: .*name" "$B" "p/R" -- \
    "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
  mkcase "$B/p/suite" "" "$nm"
  run_case "variant_key $nm is refused at suite load (golden)" 2 "error: .*variant_key" "$B" "p/G" -- \
    "$BIN" golden p/suite --out p/G
done
# the original reproducer: name .. with variant .. (deleted p/sibling.txt, wrote p/inputs)
mkbox dd
mkcase "$B/p/suite" '".."' ""
sed -i 's/^specializations.*//' "$B/p/suite/case.yaml"
printf 'specializations:\n  - {variant_key: ".."}\n' >>"$B/p/suite/case.yaml"
run_case "name .. variant .. : nothing next to the report dir is touched" 2 "case name '..'" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress --keep-work
# golden --out a/p/G with name ..: deleted every file in a/
mkbox gd
mkdir -p "$B/a/p"; echo a >"$B/a/file.txt"
mkcase "$B/suite" '".."' '".."'
run_case "golden --out a/p/G with name/variant ..: files in a/ survive" 2 "case name '..'" "$B" "a/p/G" -- \
  "$BIN" golden suite --out a/p/G
# a case file whose stem is not a safe name needs a name: key
mkbox st
mkcase "$B/p/suite" "" ""
mv "$B/p/suite/case.yaml" "$B/p/suite/a b.yaml"
run_case "a case file stem that is no safe name is refused" 2 "case name 'a b'" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress

# ---- 2. symbolic links in the report, golden and --out directories ----------------
# each report file (and the journal, run.json, work/) as a link to a file outside
for f in results.json report.html junit.xml results.tap report.md journal.jsonl run.json; do
  mkbox r_$f
  mkcase "$B/p/suite" "" ""
  mkdir -p "$B/p/R"
  ln -s ../../outside/victim.txt "$B/p/R/$f"
  run_case "R/$f -> outside: refused (exit 2), the target is not written" 2 "symbolic link" "$B" "p/R" -- \
    "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
done
mkbox rwork
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R" "$B/outside/case/default"
echo doomed >"$B/outside/case/default/file.txt"
ln -s ../../outside "$B/p/R/work"
run_case "R/work -> ../outside: refused, nothing under outside/ deleted" 2 "symbolic link" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
mkbox rcase
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R/work" "$B/outside/default"
echo doomed >"$B/outside/default/file.txt"
ln -s ../../../outside "$B/p/R/work/case"
run_case "R/work/CASE -> outside: the item is not staged there (ERROR), outside intact" 1 "symbolic link" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
# a process adapter (docs/adapter-protocol.md) that answers --version and copies the reference's output
mkbox rver
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo sh-adapter 1; exit 0; }\ncp ref/o_ptr.npy outputs/o_ptr.npy\n' >"$B/p/adapter.sh"
chmod +x "$B/p/adapter.sh"
ln -s ../../outside/victim.txt "$B/p/R/.version.tmp"
run_case "R/.version.tmp -> outside: the adapter's version probe does not write through it" 0 "1 passed" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend p/adapter.sh --report-dir p/R -j 1 --no-progress
if grep -q '"backend_version": "sh-adapter 1"' "$B/p/R/run.json"; then ok "  ... and run.json records the adapter's version"; else notok "  ... and run.json records the adapter's version" "$(cat "$B/p/R/run.json")"; fi
# --localize after an adapter left CASE_DIR/localize as a link: the probe passes do not go there
mkbox rloc
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R" "$B/outside/pass0"
echo keep >"$B/outside/pass0/keep.txt"
printf '#!/bin/sh\n[ "$1" = --version ] && exit 0\ncp inputs/o_ptr.npy outputs/o_ptr.npy\n[ -e localize ] || ln -s "%s/outside" localize\n' "$B" >"$B/p/wrong.sh"
chmod +x "$B/p/wrong.sh"
run_case "--localize with CASE_DIR/localize -> outside (left by the adapter): not followed" 1 "not localised: .*symbolic link" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend p/wrong.sh --report-dir p/R -j 1 --no-progress --localize
# --resume with a linked journal: neither read nor appended to
mkbox rres
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R"
ln -s ../../outside/victim.txt "$B/p/R/journal.jsonl"
run_case "--resume with R/journal.jsonl -> outside: refused" 2 "symbolic link" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress --resume
# a FIFO where a report file goes: refused at once, no hang
mkbox rfifo
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/R"
mkfifo "$B/p/R/report.md"
run_case "R/report.md a FIFO: refused as not a regular file (no hang)" 2 "not a regular file" "$B" "p/R" -- \
  timeout 60 "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
# a report directory reached through a link the user names is fine (the user chose it)
mkbox ruser
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/real"
ln -s real "$B/p/R"
run_case "a report dir named through the user's own symlink works" 0 "1 passed" "$B" "p/real" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
# report merge --out with a linked journal
mkbox merge
mkcase "$B/p/suite" "" ""
(cd "$B" && "$BIN" conform p/suite --backend reference --report-dir p/R1 -j 1 --no-progress >/dev/null 2>&1)
mkdir -p "$B/p/M"
ln -s ../../outside/victim.txt "$B/p/M/journal.jsonl"
run_case "report merge --out M with M/journal.jsonl -> outside: refused" 2 "symbolic link" "$B" "p/M" -- \
  "$BIN" report merge p/R1 --out p/M
# golden --out G with a linked case directory and a linked MANIFEST
mkbox gcase
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/G" "$B/outside/default"
echo doomed >"$B/outside/default/o_ptr.npy"
ln -s ../../outside "$B/p/G/case"
run_case "golden: G/CASE -> outside: G is rebuilt whole, the link removed as a link, outside intact" 0 "" "$B" "p/G" -- \
  "$BIN" golden p/suite --out p/G
if [ ! -L "$B/p/G/case" ] && [ -f "$B/p/G/MANIFEST" ]; then ok "golden: the rebuilt G holds no link and has a MANIFEST"; else notok "golden: the rebuilt G holds no link and has a MANIFEST" "G/case is still a link or no MANIFEST"; fi
mkbox gman
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/G"
ln -s ../../outside/victim.txt "$B/p/G/MANIFEST"
run_case "golden: G/MANIFEST -> outside: replaced by a regular MANIFEST, the target untouched" 0 "" "$B" "p/G" -- \
  "$BIN" golden p/suite --out p/G
if [ -f "$B/p/G/MANIFEST" ] && [ ! -L "$B/p/G/MANIFEST" ]; then ok "golden: G/MANIFEST is now a regular file"; else notok "golden: G/MANIFEST is now a regular file" "still a link"; fi
# a golden MANIFEST naming a file outside the golden directory: refused, not read
mkbox gesc
mkcase "$B/p/suite" "" ""
(cd "$B" && "$BIN" golden p/suite --out p/G >/dev/null 2>&1)
h=0000000000000000000000000000000000000000000000000000000000000000
printf 'file %s  ../../outside/victim.txt\n' "$h" >>"$B/p/G/MANIFEST"
run_case "conform --golden G with a MANIFEST path out of G: refused" 2 "leaves the golden directory" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress --golden p/G
run_case "golden --verify G with a MANIFEST path out of G: refused" 2 "leaves the golden directory" "$B" "p/G" -- \
  "$BIN" golden p/suite --verify p/G
# ttref run --out D with D/NAME.npy (and D/NAME.precise.npy) linked outside
mkbox runout
for a in x y o; do cp "$DATA/corpus/triton-3.6-h100/vadd_f32/${a}_ptr.in.npy" "$B/p/$a.npy"; done
mkdir -p "$B/p/D"
ln -s ../../outside/victim.txt "$B/p/D/o_ptr.npy"
RUN="$BIN run $KERNEL --grid 98 --arg x_ptr=@p/x.npy --arg y_ptr=@p/y.npy --arg o_ptr=@p/o.npy --arg n=100003 --out p/D"
run_case "run --out D with D/o_ptr.npy -> outside: refused (exit 2), target intact" 2 "symbolic link" "$B" "p/D" -- $RUN
rm "$B/p/D/o_ptr.npy"
ln -s ../../outside/victim.txt "$B/p/D/o_ptr.precise.npy"
run_case "run --precise --out D with D/o_ptr.precise.npy -> outside: refused" 2 "symbolic link" "$B" "p/D" -- $RUN --precise
rm "$B/p/D/o_ptr.precise.npy"
run_case "run --out D into a clean D works" 0 "" "$B" "p/D" -- $RUN --precise
# the same through a launch file's out: key
rm -rf "$B/p/D"; mkdir -p "$B/p/D"
ln -s ../../outside/victim.txt "$B/p/D/x_ptr.npy"
printf 'kernel: %s\ngrid: [98]\nargs: {x_ptr: "@x.npy", y_ptr: "@y.npy", o_ptr: "@o.npy", n: 100003}\nout: D\n' "$KERNEL" >"$B/p/launch.yaml"
run_case "run --launch with out: D and D/x_ptr.npy -> outside: refused" 2 "symbolic link" "$B" "p/D" -- "$BIN" run --launch p/launch.yaml

# ---- 3. suites read only inside the suite directory -------------------------------
# a secret outside the suite: its content must never appear in a message
mkbox rd
mkcase "$B/p/suite" "" ""
printf 'SECRET-LINE-1 do not print\n' >"$B/outside/secret.ttir"
cp "$KERNEL" "$B/outside/vadd.ttir"
for k in "$B/outside/secret.ttir" ../../outside/secret.ttir; do
  mkcase "$B/p/suite" "" "" "$k"
  run_case "kernel: $(echo "$k" | sed "s|$T|T|") outside the suite is refused without reading it" 2 "outside the suite" "$B" "p/R" -- \
    "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
  if grep -q SECRET "$T/err" "$T/out"; then notok "  ... and the message does not show the file's content"; else ok "  ... and the message does not show the file's content"; fi
done
mkcase "$B/p/suite" "" ""
ln -sf ../../../outside/secret.ttir "$B/p/suite/kernels/vadd.ttir"
run_case "a kernel symlinked outside the suite is refused (golden)" 2 "outside the suite" "$B" "p/G" -- \
  "$BIN" golden p/suite --out p/G
if grep -q SECRET "$T/err" "$T/out"; then notok "  ... and the message does not show the file's content"; else ok "  ... and the message does not show the file's content"; fi
ln -sf ../../../outside/vadd.ttir "$B/p/suite/kernels/vadd.ttir"
run_case "--allow-outside-suite lifts it (golden)" 0 "goldens written" "$B" "p/G" -- \
  "$BIN" golden p/suite --out p/G --allow-outside-suite
run_case "--allow-outside-suite lifts it (conform)" 0 "1 passed" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress --allow-outside-suite
# an input file: outside
mkbox rdf
cp "$DATA/corpus/triton-3.6-h100/vadd_f32/x_ptr.in.npy" "$B/outside/x.npy"
mkcase "$B/p/suite" "" "" "" "{gen: file, file: ../../outside/x.npy}"
run_case "input file: outside the suite is refused" 2 "outside the suite" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
# a case file symlinked outside (its first line is a secret)
mkbox rdc
mkdir -p "$B/p/suite"
printf 'SECRET-LINE-2: [\n' >"$B/outside/evil.yaml"
ln -s ../../outside/evil.yaml "$B/p/suite/evil.yaml"
run_case "a case file symlinked outside the suite is refused" 2 "outside the suite" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
if grep -q SECRET "$T/err" "$T/out"; then notok "  ... and the message does not show the file's content"; else ok "  ... and the message does not show the file's content"; fi
# inside the suite: a kernel in a subdirectory via a relative link stays fine
mkbox rdin
mkcase "$B/p/suite" "" ""
mkdir -p "$B/p/suite/other"
mv "$B/p/suite/kernels/vadd.ttir" "$B/p/suite/other/vadd.ttir"
ln -s ../other/vadd.ttir "$B/p/suite/kernels/vadd.ttir"
run_case "a kernel symlinked inside the suite is accepted" 0 "1 passed" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress

# ---- 4. output file name collisions -----------------------------------------------
# kernel arguments %a and %a.precise: with --precise both would write a.precise.npy
mkbox col
cat >"$B/p/k.ttir" <<'TTIR'
module {
  tt.func public @k(%a: !tt.ptr<f32>, %a.precise: !tt.ptr<f32>) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %p = tt.splat %a : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %pa = tt.addptr %p, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %x = tt.load %pa : tensor<4x!tt.ptr<f32>>
    %y = arith.addf %x, %x : tensor<4xf32>
    %q = tt.splat %a.precise : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %qa = tt.addptr %q, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %qa, %y : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
TTIR
mkdir -p "$B/p/suite/kernels"
cp "$B/p/k.ttir" "$B/p/suite/kernels/k.ttir"
cat >"$B/p/suite/col.yaml" <<'YAML'
kernel: kernels/k.ttir
args:
  a: {shape: [4], input: {gen: arange, start: 1, step: 1}}
  a.precise: {shape: [4]}
outputs:
  a: {mode: ulp, options: {ulp: 1, precise: true}}
  a.precise: {mode: ulp, options: {ulp: 1}}
YAML
run_case "golden: outputs a and a.precise collide on a.precise.npy: refused" 2 "collide" "$B" "p/G" -- \
  "$BIN" golden p/suite --out p/G
run_case "conform: the same collision is refused at suite load" 2 "collide" "$B" "p/R" -- \
  "$BIN" conform p/suite --backend reference --report-dir p/R -j 1 --no-progress
# ttref run --precise on the same kernel: a.precise.npy would be written twice
# (a 4 x f32 .npy: v1.0 header padded to 128 bytes, then four 1.0f)
hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
{ printf '\223NUMPY\001\000\166\000'; printf '%-117s\n' "$hdr"; for i in 1 2 3 4; do printf '\000\000\200\077'; done; } >"$B/p/z.npy"
RUNC="$BIN run p/k.ttir --grid 1 --arg a=@p/z.npy --arg a.precise=@p/z.npy --out p/D"
run_case "run --precise --out D: args a and a.precise collide: refused (exit 2)" 2 "collide" "$B" "p/D" -- $RUNC --precise
run_case "run without --precise: no collision, runs" 0 "" "$B" "p/D" -- $RUNC
if [ -f "$B/p/D/a.precise.npy" ] && ! cmp -s "$B/p/D/a.precise.npy" "$B/p/z.npy"; then ok "  ... and a.precise.npy holds the stored values"; else notok "  ... and a.precise.npy holds the stored values"; fi

[ $n -eq 64 ] || echo "# ran $n tests, planned 64"
[ $fail -eq 0 ]
