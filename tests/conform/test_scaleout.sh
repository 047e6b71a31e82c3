#!/bin/sh
# Tests of the scale-out recipes of docs/scale-out.md (TAP): a run sharded 4
# ways with GNU parallel, with the Slurm array script and with the Kubernetes
# Indexed Job's command, each merged with `ttref report merge`, gives the same
# verdicts as one unsharded run; shards are disjoint and complete. A sharded
# --mutants run merges to the unsharded mutation score. The GNU
# parallel test is skipped only when `parallel` is not installed.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
BIN=$(tl_abs "${TTREF_BIN:-./ttref}")
SRC=${TTREF_SRCDIR:-.}
CORE=$SRC/conformance/suite/core
tl_tmpdir test_scaleout_sh; T=$tmp
# verdicts DIR: "id verdict raw_verdict" per journal record, sorted
verdicts() {
  sed 's/.*"id": "\([^"]*\)".*"verdict": "\([A-Z_]*\)", "raw_verdict": "\([A-Z_]*\)".*/\1 \2 \3/' "$1/journal.jsonl" | sort
}
echo "1..7"

# a small suite (12 cases, 15 items, integer and float outputs) copied from core
S=$T/suite
mkdir -p "$S/kernels"
for c in vadd_f32 int_add_i32 float_add cast_f32_f16 math_exp_f32 reduce_sum_f32_ax1 int_cmp_i32 dot_f32_ieee \
         softmax_f32 float_max_nan_f32 cat_unordered_f32 atomic_add_i32; do
  cp "$CORE/$c.yaml" "$S/"
  sed -n 's/^ *kernel: *//p' "$CORE/$c.yaml" | while read -r k; do cp "$CORE/$k" "$S/$k"; done
done
BACKEND=fault:flip-lsb # ints pass, floats fail: both verdicts must survive sharding
"$BIN" conform "$S" --backend $BACKEND --report-dir "$T/single" -j 2 --no-progress >"$T/single.out" 2>&1
verdicts "$T/single" >"$T/single.v"
total=$(wc -l <"$T/single.v")
check "the unsharded run judges all 15 items of the 12 cases, with PASS and FAIL verdicts" \
  "[ $total -eq 15 ] && grep -q ' PASS PASS\$' '$T/single.v' && grep -q ' FAIL FAIL\$' '$T/single.v'" "$(cat "$T/single.out" | tail -3)"

if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 -q "$BIN" conform "$S" --backend $BACKEND --shard '{}/4' --report-dir "$T/par/shard-{}" -j 1 \
    --no-progress ::: 0 1 2 3 >"$T/par.out" 2>&1
  "$BIN" report merge "$T"/par/shard-* --out "$T/par/merged" >>"$T/par.out" 2>&1
  rc=$?
  verdicts "$T/par/merged" >"$T/par.v"
  per=0
  for i in 0 1 2 3; do per=$((per + $(wc -l <"$T/par/shard-$i/journal.jsonl"))); done
  check "GNU parallel, 4 shards: disjoint shards, and the merged verdicts equal the unsharded run's" \
    "[ $rc -eq 1 ] && [ $per -eq $total ] && cmp -s '$T/single.v' '$T/par.v' && [ -s '$T/par/merged/results.json' ]" \
    "rc=$rc per=$per $(diff "$T/single.v" "$T/par.v" | head -3) $(tail -3 "$T/par.out")"
else
  n=$((n + 1)); echo "ok $n # SKIP GNU parallel is not installed (Debian package parallel)"
fi

for i in 0 1 2 3; do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 SLURM_CPUS_PER_TASK=1 SUITE=$S BACKEND=$BACKEND OUT=$T/slurm TTREF=$BIN \
    bash "$SRC/scripts/scale-out/slurm_array.sbatch" >>"$T/slurm.out" 2>&1
done
"$BIN" report merge "$T"/slurm/shard-* --out "$T/slurm/merged" >>"$T/slurm.out" 2>&1
verdicts "$T/slurm/merged" >"$T/slurm.v"
check "the Slurm array script (tasks 0-3 of 4) merges to the unsharded run's verdicts" \
  "cmp -s '$T/single.v' '$T/slurm.v' && [ -d '$T/slurm/shard-3' ]" "$(tail -3 "$T/slurm.out")"

# the Indexed Job's container command, with its /reports volume replaced by a temporary directory
cmd=$(sed -n 's/^ *- \(exec ttref conform .*\)$/\1/p' "$SRC/scripts/scale-out/k8s_indexed_job.yaml" | sed "s|/reports|$T/k8s|g")
mkdir -p "$T/bin" "$T/k8s"
ln -s "$BIN" "$T/bin/ttref"
for i in 0 1 2 3; do
  JOB_COMPLETION_INDEX=$i SHARDS=4 SUITE=$S BACKEND=$BACKEND PATH=$T/bin:$PATH sh -c "$cmd" >>"$T/k8s.out" 2>&1
done
"$BIN" report merge "$T"/k8s/shard-* --out "$T/k8s/merged" >>"$T/k8s.out" 2>&1
verdicts "$T/k8s/merged" >"$T/k8s.v"
check "the Kubernetes Indexed Job command (indices 0-3 of 4) merges to the unsharded run's verdicts" \
  "[ -n \"\$cmd\" ] && cmp -s '$T/single.v' '$T/k8s.v'" "cmd=$cmd $(tail -3 "$T/k8s.out")"

# a pod restarted after its shard finished resumes from the journal and runs nothing again
JOB_COMPLETION_INDEX=2 SHARDS=4 SUITE=$S BACKEND=$BACKEND PATH=$T/bin:$PATH sh -c "$cmd" >"$T/k8s.again" 2>&1
check "a retried Indexed Job pod resumes its shard (--resume) without rerunning it" \
  "grep -q 'resuming: [0-9]* of [0-9]* items already journaled' '$T/k8s.again'" "$(cat "$T/k8s.again")"

LIST=cmpi-signed-as-unsigned,cmpf-une-as-one,remsi-as-remui,scan-reverse-ignored,atomic-cas-cmp-val-swapped
SEL='^(int_cmp_i32|mut_cmpf_nan_f32|mut_remsi_neg_i32|mut_scan_rev_f32|vadd_f32)'
"$BIN" conform "$CORE" --mutants "$LIST" --filter "$SEL" --report-dir "$T/mu" -j 2 --no-progress >"$T/mu.out" 2>&1
for i in 0 1 2; do
  "$BIN" conform "$CORE" --mutants "$LIST" --filter "$SEL" --shard $i/3 --report-dir "$T/mus/shard-$i" -j 1 --no-progress \
    >/dev/null 2>&1
done
"$BIN" report merge "$T"/mus/shard-* --out "$T/mus/merged" >"$T/mus.out" 2>&1
rc=$?
one=$(grep '^mutation score:' "$T/mu.out")
merged=$(grep '^mutation score:' "$T/mus.out")
check "a --mutants run in 3 shards merges to the unsharded mutation score and mutants.json" \
  "[ $rc -eq 0 ] && [ -n \"\$one\" ] && [ \"\$one\" = \"\$merged\" ] && grep -q '\"killed\": 4, ' '$T/mus/merged/mutants.json' &&
   cmp -s '$T/mu/mutants.list' '$T/mus/merged/mutants.list'" "rc=$rc one=$one merged=$merged"
# the same suite, filter and backend, shard 1 of 3 without --mutants: only the mode differs
"$BIN" conform "$CORE" --backend reference --filter "$SEL" --shard 1/3 --report-dir "$T/plain-1" -j 1 --no-progress >/dev/null 2>&1
"$BIN" report merge "$T/mus/shard-0" "$T/plain-1" "$T/mus/shard-2" --out "$T/mixed" >/dev/null 2>"$T/mixed.err"
rc=$?
check "merging a --mutants shard with a plain shard is an input error (exit 2)" \
  "[ $rc -eq 2 ] && grep -q 'is not a --mutants run' '$T/mixed.err'" "rc=$rc $(cat "$T/mixed.err")"

[ $fail -eq 0 ]
