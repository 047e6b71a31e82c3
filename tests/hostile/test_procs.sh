#!/bin/sh
# Hostile adapters, outputs and disks (TAP; issue #17, processes and disks):
# FIFO / symlinked / oversized outputs and FIFO suite files never hang the
# harness; batch adapters that print stray lines, answer twice or send huge
# lines stay in sync and are restarted after a protocol error; adapters that
# start setsid daemons leave no process behind; a full disk (ulimit -f) stops
# the run with exit 2 and no verdict, no torn journal line, no partial
# golden or merged report, and --resume finishes it. Every step runs under
# `timeout`, so a regression fails instead of hanging. KEEP=1 keeps the
# work directory for inspection.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
tl_tmpdir test_procs_sh; T=$tmp
HOLDER=
tl_cleanup() { # run at exit by tests/lib.sh, before the work directory goes
  # never leave a process behind, even when a check failed
  for f in "$T"/pids*; do
    [ -f "$f" ] && while read -r p; do kill -9 "$p" 2>/dev/null; done <"$f"
  done
  [ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null
}
count() { grep -c "\"verdict\": \"$2\"" "$1/journal.jsonl" 2>/dev/null; }
alive() { # how many pids listed in file $1 still run (zombies excluded)
  k=0
  [ -f "$1" ] || { echo 0; return; }
  while read -r p; do
    s=$(sed -n 's/^[0-9]* (.*) \(.\).*/\1/p' "/proc/$p/stat" 2>/dev/null)
    [ -n "$s" ] && [ "$s" != Z ] && k=$((k + 1))
  done <"$1"
  echo $k
}
echo "1..33"

# a small suite: five copies of a 256-element vadd (inputs < 1 KB each)
mkdir -p "$T/suite/kernels"
cp "$SRC/conformance/suite/core/kernels/vadd_f16.ttir" "$T/suite/kernels/"
# vadd_case FILE DESCRIPTION KERNEL GRID N: a case adding two uniform inputs of N elements, judged exactly
vadd_case() {
  cat >"$1" <<EOF
description: "$2"
kernel: kernels/$3
op: elementwise
grid: [$4, 1, 1]
args:
  x_ptr: {shape: [$5], input: {gen: uniform, seed: 1, range: [-4, 4]}}
  y_ptr: {shape: [$5], input: {gen: uniform, seed: 2, range: [-4, 4]}}
  o_ptr: {shape: [$5]}
  n: $5
outputs:
  o_ptr: {mode: exact}
EOF
}
for c in a b c d e; do vadd_case "$T/suite/vadd_$c.yaml" "vadd $c" vadd_f16.ttir 1 256; done
conform() { # conform REPORT BACKEND [options...]: bounded by timeout(1)
  r=$1 b=$2
  shift 2
  timeout -k 2 40 "$BIN" conform "$T/suite" --backend "$b" --report-dir "$T/$r" -j 1 --no-progress --timeout 8 "$@" \
    >"$T/$r.out" 2>"$T/$r.err"
}
adapter() { # adapter NAME BODY: a one-shot adapter (sh) in the case directory
  printf '#!/bin/sh\n[ "$1" = --version ] && { echo hostile 1; exit 0; }\ncd "$1" || exit 1\n%s\n' "$2" >"$T/$1"
  chmod +x "$T/$1"
}

# ---- outputs that are not regular files ------------------------------------------------------
adapter fifo.sh 'mkfifo outputs/o_ptr.npy; exit 0'
conform fifo "$T/fifo.sh" --filter '^vadd_a'
rc=$?
check "a FIFO output is an ERROR naming the file, no hang (exit $rc)" \
  "[ $rc -eq 1 ] && [ \$(count '$T/fifo' ERROR) -eq 1 ] && grep -q 'outputs/o_ptr.npy.*not a regular file' '$T/fifo/journal.jsonl'" \
  "$(cat "$T/fifo.err" | head -3)"

adapter stdin.sh 'ln -s /dev/stdin outputs/o_ptr.npy; exit 0'
mkfifo "$T/held"
sleep 60 >"$T/held" &
HOLDER=$!
conform stdin "$T/stdin.sh" --filter '^vadd_a' <"$T/held"
rc=$?
kill "$HOLDER" 2>/dev/null
HOLDER=
check "an output symlinked to /dev/stdin is an ERROR, no hang (exit $rc)" \
  "[ $rc -eq 1 ] && [ \$(count '$T/stdin' ERROR) -eq 1 ] && grep -q 'outputs/o_ptr.npy.*symbolic link' '$T/stdin/journal.jsonl'" \
  "$(head -3 "$T/stdin.err")"

# a header that claims 2.4 GB (a sparse file of that size): refused from the header
adapter huge.sh 'head -c 128 inputs/o_ptr.npy | sed "s/(256,), }      /(1200000000,), }/" >outputs/o_ptr.npy
truncate -s 2400000128 outputs/o_ptr.npy; exit 0'
conform huge "$T/huge.sh" --filter '^vadd_a'
rc=$?
check "an output whose header claims 2.4 GB is refused from its header (exit $rc)" \
  "[ $rc -eq 1 ] && grep -q 'outputs/o_ptr.npy.*2400000000 bytes.*expected 512' '$T/huge/journal.jsonl'" \
  "$(grep -o '"reason": "[^"]*"' "$T/huge/journal.jsonl" 2>/dev/null | head -2; head -3 "$T/huge.err")"

# ---- suite files that are not regular files --------------------------------------------------
mkdir -p "$T/fsuite/kernels"
cp "$T/suite/vadd_a.yaml" "$T/fsuite/"
cp "$T/suite/kernels/vadd_f16.ttir" "$T/fsuite/kernels/"
mkfifo "$T/fsuite/evil.yaml"
timeout -k 2 20 "$BIN" conform "$T/fsuite" --backend reference --report-dir "$T/fs" --no-progress >/dev/null 2>"$T/fs.err"
rc=$?
check "a FIFO *.yaml in a suite is refused, no hang (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'evil.yaml.*not a regular file' '$T/fs.err'" "$(head -3 "$T/fs.err")"
rm "$T/fsuite/evil.yaml"
sed 's|kernels/vadd_f16.ttir|kernels/fifo.ttir|' "$T/suite/vadd_a.yaml" >"$T/fsuite/vadd_a.yaml"
mkfifo "$T/fsuite/kernels/fifo.ttir"
timeout -k 2 20 "$BIN" golden "$T/fsuite" --out "$T/fsg" >/dev/null 2>"$T/fsk.err"
rc=$?
check "a FIFO kernel file in a suite is refused, no hang (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'fifo.ttir.*not a regular file' '$T/fsk.err'" "$(head -3 "$T/fsk.err")"

mkfifo "$T/cfg.yaml"
timeout -k 2 20 "$BIN" conform "$T/suite" --backend reference --config "$T/cfg.yaml" --report-dir "$T/fc" --no-progress \
  >/dev/null 2>"$T/fc.err"
rc=$?
check "a FIFO --config is refused, no hang (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'cfg.yaml.*not a regular file' '$T/fc.err'" "$(head -3 "$T/fc.err")"
timeout -k 2 30 "$BIN" golden "$T/suite" --out "$T/fg" --filter '^vadd_a' >/dev/null 2>&1
rm -f "$T/fg/vadd_a/default/o_ptr.npy"
mkfifo "$T/fg/vadd_a/default/o_ptr.npy"
timeout -k 2 20 "$BIN" conform "$T/suite" --backend reference --golden "$T/fg" --filter '^vadd_a' --report-dir "$T/fgr" \
  --no-progress >/dev/null 2>"$T/fgr.err"
rc=$?
check "a FIFO in a golden directory is refused, no hang (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'o_ptr.npy' '$T/fgr.err'" "$(head -3 "$T/fgr.err")"

# ---- batch adapters that lose sync -------------------------------------------------------------
# item 1: a stray stdout line first; item 2: two replies; item 3: a 100 KB line after the reply
cat >"$T/chatty.sh" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo chatty 1; exit 0; }
i=0
while read -r d; do
  i=$((i + 1))
  cp "$d/ref/o_ptr.npy" "$d/outputs/o_ptr.npy"
  echo "stderr of item $i" >&2
  [ $i -eq 1 ] && echo "stray line from the adapter"
  echo "ok $d"
  [ $i -eq 2 ] && echo "ok $d"
  [ $i -eq 3 ] && { head -c 100000 /dev/zero | tr '\0' x; echo; }
done
EOF
chmod +x "$T/chatty.sh"
conform chatty "batch:$T/chatty.sh"
rc=$?
check "stray, doubled and 100 KB lines: every item still PASS (exit $rc)" \
  "[ $rc -eq 0 ] && [ \$(count '$T/chatty' PASS) -eq 5 ]" "$(head -5 "$T/chatty.err")"
check "non-protocol lines and stderr are in work/batch-worker-0.log" \
  "grep -q 'stray line from the adapter' '$T/chatty/work/batch-worker-0.log' && grep -q 'stderr of item 3' '$T/chatty/work/batch-worker-0.log'"

# a reply with an unknown word for the case in flight: ERROR, then a fresh adapter
cat >"$T/bogus.sh" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo bogus 1; exit 0; }
echo \$\$ >>"$T/starts"
i=0
while read -r d; do
  i=\$((i + 1))
  cp "\$d/ref/o_ptr.npy" "\$d/outputs/o_ptr.npy"
  if [ ! -f "$T/bogus.once" ]; then touch "$T/bogus.once"; echo "okay \$d"; else echo "ok \$d"; fi
done
EOF
chmod +x "$T/bogus.sh"
conform bogus "batch:$T/bogus.sh"
rc=$?
check "a protocol error is one ERROR and the adapter is restarted (exit $rc)" \
  "[ $rc -eq 1 ] && [ \$(count '$T/bogus' ERROR) -eq 1 ] && [ \$(count '$T/bogus' PASS) -eq 4 ] && [ \$(wc -l <'$T/starts') -eq 2 ]" \
  "$(head -5 "$T/bogus.err")"
log=$(sed -n 's/.*(log: \([^)]*\)).*/\1/p' "$T/bogus.err" | head -1)
check "the ERROR names a log that exists ($log)" \
  "[ -n '$log' ] && case '$log' in */batch-worker-0.log) true;; *) false;; esac && [ -f '$log' ]"

# a batch adapter that hangs on item 1: TIMEOUT, restarted, the rest PASS
cat >"$T/slow.sh" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo slow 1; exit 0; }
while read -r d; do
  if [ ! -f "$T/slow.once" ]; then touch "$T/slow.once"; sleep 30; fi
  cp "\$d/ref/o_ptr.npy" "\$d/outputs/o_ptr.npy"
  echo "ok \$d"
done
EOF
chmod +x "$T/slow.sh"
conform slow "batch:$T/slow.sh" --timeout 1
rc=$?
check "a hung batch adapter is TIMEOUT once and the rest PASS (exit $rc)" \
  "[ \$(count '$T/slow' TIMEOUT) -eq 1 ] && [ \$(count '$T/slow' PASS) -eq 4 ]" "$(head -5 "$T/slow.err")"

# ---- orphans ------------------------------------------------------------------------------------
adapter daemon.sh "setsid sleep 1000 >/dev/null 2>&1 &
echo \$! >>'$T/pids1'
( setsid sleep 1001 >/dev/null 2>&1 & echo \$! >>'$T/pids1' )
cp ref/o_ptr.npy outputs/o_ptr.npy"
conform daemon "$T/daemon.sh"
rc=$?
check "one-shot adapter with setsid daemons: every item PASS (exit $rc)" "[ $rc -eq 0 ] && [ \$(count '$T/daemon' PASS) -eq 5 ]"
check "no setsid daemon of a one-shot adapter is left ($(wc -l <"$T/pids1") started)" \
  "[ \$(wc -l <'$T/pids1') -eq 10 ] && [ \$(alive '$T/pids1') -eq 0 ]"

cat >"$T/bdaemon.sh" <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo bdaemon 1; exit 0; }
while read -r d; do
  setsid sleep 1002 >/dev/null 2>&1 &
  echo \$! >>"$T/pids2"
  ( setsid sleep 1003 >/dev/null 2>&1 & echo \$! >>"$T/pids2" )
  cp "\$d/ref/o_ptr.npy" "\$d/outputs/o_ptr.npy"
  echo "ok \$d"
done
EOF
chmod +x "$T/bdaemon.sh"
conform bdaemon "batch:$T/bdaemon.sh" -j 2
rc=$?
check "batch adapter with setsid daemons: every item PASS (exit $rc)" "[ $rc -eq 0 ] && [ \$(count '$T/bdaemon' PASS) -eq 5 ]"
check "no setsid daemon of a batch adapter is left ($(wc -l <"$T/pids2") started)" \
  "[ \$(wc -l <'$T/pids2') -eq 10 ] && [ \$(alive '$T/pids2') -eq 0 ]"

# ---- a full disk (ulimit -f: writes past the limit fail with EFBIG) ---------------------------
# a case whose inputs (400 KB) cannot be staged under a 64 KB file-size limit
mkdir -p "$T/big/kernels"
cp "$SRC/conformance/suite/core/kernels/vadd_f32.ttir" "$T/big/kernels/"
cp "$T/suite/vadd_a.yaml" "$T/big/small.yaml"
cp "$T/suite/kernels/vadd_f16.ttir" "$T/big/kernels/"
vadd_case "$T/big/vbig.yaml" "vadd f32, 100003 elements" vadd_f32.ttir 98 100003
(ulimit -f 128; exec timeout -k 2 60 "$BIN" conform "$T/big" --backend reference --report-dir "$T/disk" -j 1 --no-progress) \
  >"$T/disk.out" 2>"$T/disk.err"
rc=$?
check "staging on a full disk: exit 2 with the errno text (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'File too large' '$T/disk.err'" "$(head -3 "$T/disk.err")"
check "... and no verdict is journaled for the item that hit it" \
  "! grep -q 'vbig' '$T/disk/journal.jsonl' 2>/dev/null"
timeout -k 2 60 "$BIN" conform "$T/big" --backend reference --report-dir "$T/disk" -j 1 --no-progress --resume \
  >"$T/disk2.out" 2>"$T/disk2.err"
rc=$?
check "--resume with space finishes the run: both items PASS (exit $rc)" \
  "[ $rc -eq 0 ] && [ \$(count '$T/disk' PASS) -eq 2 ] && [ \$(wc -l <'$T/disk/journal.jsonl') -eq 2 ]" "$(head -3 "$T/disk2.err")"

# the reference's precise values (8 bytes per f16 element) do not fit: the disk's failure, not an ERROR
mkdir -p "$T/prec/kernels"
cp "$T/suite/kernels/vadd_f16.ttir" "$T/prec/kernels/"
sed 's/256/20000/g; s/grid: \[1, 1, 1\]/grid: [79, 1, 1]/; s/o_ptr: {mode: exact}/o_ptr: {mode: ulp, options: {ulp: 1, precise: true}}/' \
  "$T/suite/vadd_a.yaml" >"$T/prec/p.yaml"
(ulimit -f 128; exec timeout -k 2 60 "$BIN" conform "$T/prec" --backend reference --report-dir "$T/pr" -j 1 --no-progress) \
  >"$T/pr.out" 2>"$T/pr.err"
rc=$?
check "a reference run that fails for lack of space: exit 2, the disk named, no verdict (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'reference run failed, and the disk cannot take the outputs.*File too large' '$T/pr.err' && [ ! -s '$T/pr/journal.jsonl' ]" \
  "$(head -3 "$T/pr.err")"
timeout -k 2 60 "$BIN" conform "$T/prec" --backend reference --report-dir "$T/pr" -j 1 --no-progress --resume >/dev/null 2>"$T/pr2.err"
rc=$?
check "... and with space it passes (exit $rc)" "[ $rc -eq 0 ] && [ \$(count '$T/pr' PASS) -eq 1 ]" "$(head -3 "$T/pr2.err")"

# the journal outgrows the limit: no torn line, exit 2, --resume completes with one record each
(ulimit -f 5; exec timeout -k 2 60 "$BIN" conform "$T/suite" --backend reference --report-dir "$T/jr" -j 1 --no-progress) \
  >"$T/jr.out" 2>"$T/jr.err"
rc=$?
lines=$(wc -l <"$T/jr/journal.jsonl" 2>/dev/null)
check "the journal hits the limit: exit 2 naming the journal and errno ($lines records)" \
  "[ $rc -eq 2 ] && grep -q 'journal.*File too large' '$T/jr.err' && [ '$lines' -lt 5 ]" "$(head -3 "$T/jr.err")"
check "... and its last line is complete (no torn record)" \
  "[ \$(tail -c 1 '$T/jr/journal.jsonl' | od -An -c | tr -d ' ') = '\\n' ] || [ ! -s '$T/jr/journal.jsonl' ]"
timeout -k 2 60 "$BIN" conform "$T/suite" --backend reference --report-dir "$T/jr" -j 1 --no-progress --resume >/dev/null 2>"$T/jr2.err"
rc=$?
check "--resume completes it: 5 records, all PASS (exit $rc)" \
  "[ $rc -eq 0 ] && [ \$(wc -l <'$T/jr/journal.jsonl') -eq 5 ] && [ \$(count '$T/jr' PASS) -eq 5 ]" "$(head -3 "$T/jr2.err")"

# a record of a harness error (an older ttref journaled them) is retried by --resume
sed '1s/"verdict": "PASS", "raw_verdict": "PASS"/"verdict": "ERROR", "raw_verdict": "ERROR"/; 1s/"reason": ""/"reason": "harness worker died while running this item"/' \
  "$T/jr/journal.jsonl" >"$T/jr/j2" && mv "$T/jr/j2" "$T/jr/journal.jsonl"
timeout -k 2 60 "$BIN" conform "$T/suite" --backend reference --report-dir "$T/jr" -j 1 --no-progress --resume >/dev/null 2>"$T/jr3.err"
rc=$?
check "--resume retries an item whose record is a harness error (exit $rc)" \
  "[ $rc -eq 0 ] && grep -q 'resuming: 4 of 5' '$T/jr3.err' && [ \$(count '$T/jr' PASS) -eq 5 ]" "$(head -3 "$T/jr3.err")"

# reports and merged journals are replaced whole or not at all
cp "$T/jr/journal.jsonl" "$T/jr.keep"
cp "$T/jr/results.json" "$T/results.keep"
(ulimit -f 5; exec timeout -k 2 60 "$BIN" report merge "$T/jr" --out "$T/jr") >/dev/null 2>"$T/merge.err"
rc=$?
check "report merge into a full disk: exit 2, errno text (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'File too large' '$T/merge.err'" "$(head -3 "$T/merge.err")"
check "... the journal and results.json are unchanged and no temporary file is left" \
  "cmp -s '$T/jr.keep' '$T/jr/journal.jsonl' && cmp -s '$T/results.keep' '$T/jr/results.json' && [ -z \"\$(ls -a '$T/jr' | grep -i tmp)\" ]"

# golden into a full disk: no output directory at all, then a complete one
(ulimit -f 128; exec timeout -k 2 60 "$BIN" golden "$T/big" --out "$T/gold") >/dev/null 2>"$T/gold.err"
rc=$?
check "golden on a full disk: exit 2, errno text, no partial output (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'File too large' '$T/gold.err' && [ ! -e '$T/gold' ] && [ -z \"\$(ls '$T' | grep 'gold\\.tmp')\" ]" \
  "$(head -3 "$T/gold.err"); $(ls "$T" | grep gold)"
timeout -k 2 60 "$BIN" golden "$T/big" --out "$T/gold" >/dev/null 2>"$T/gold2.err"
rc=$?
check "golden with space: complete output that verifies (exit $rc)" \
  "[ $rc -eq 0 ] && '$BIN' golden '$T/big' --verify '$T/gold' >/dev/null 2>&1"

# golden --library likewise: nothing under OUT until it is complete
(ulimit -f 4; exec timeout -k 2 60 "$BIN" golden --library "$SRC/docs/examples/rope/MANIFEST.yaml" --out "$T/lib") \
  >/dev/null 2>"$T/lib.err"
rc=$?
check "golden --library on a full disk: exit 2, errno text, no partial output (exit $rc)" \
  "[ $rc -eq 2 ] && grep -q 'File too large' '$T/lib.err' && [ ! -e '$T/lib' ] && [ -z \"\$(ls '$T' | grep 'lib\\.tmp')\" ]" \
  "$(head -3 "$T/lib.err")"

# ---- the shipped python adapters name a missing module in one line ----------------------------
if command -v python3 >/dev/null 2>&1; then
  mkdir -p "$T/nomod/yaml" "$T/nomod/numpy"
  echo 'raise ImportError("hidden by the test")' >"$T/nomod/yaml/__init__.py"
  echo 'raise ImportError("hidden by the test")' >"$T/nomod/numpy/__init__.py"
  for a in ttref_adapter.py triton_adapter.py; do
    PYTHONPATH="$T/nomod" python3 "$SRC/scripts/adapters/$a" --version >"$T/nomod.out" 2>"$T/nomod.err"
    rc=$?
    check "$a without yaml/numpy: exit 2 with one clear line (exit $rc)" \
      "[ $rc -eq 2 ] && [ \$(wc -l <'$T/nomod.err') -eq 1 ] && grep -q 'needs the python module' '$T/nomod.err'" "$(head -3 "$T/nomod.err")"
  done
else
  check "ttref_adapter.py without yaml/numpy # SKIP no python3" "true"
  check "triton_adapter.py without yaml/numpy # SKIP no python3" "true"
fi

# nothing of ours is left running (the harness's children, the adapters)
check "no process of this test is left" "[ \$(alive '$T/pids1') -eq 0 ] && [ \$(alive '$T/pids2') -eq 0 ]"
[ $fail -eq 0 ]
