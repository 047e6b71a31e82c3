#!/bin/sh
# Interpreter benchmark: wall time of `ttref run` on the heaviest real kernels of the corpus,
# 1 thread and all threads side by side in one run (best of N), plus the parallel speed-up.
# Usage: scripts/bench/run_bench.sh [TTREF] [N]
set -eu
cd "$(dirname "$0")/../.."
T=${1:-./ttref}; N=${2:-3}
C=tests/data/corpus/triton-3.6-h100
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
best() { # best wall seconds of N runs of "$@"
  "$PY" - "$N" "$@" <<'PYB'
import subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
ts = []
for _ in range(n):
    t = time.perf_counter(); subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL); ts.append(time.perf_counter() - t)
print(f"{min(ts):.3f}")
PYB
}
args() { # the --arg list of a corpus case
  "$PY" - "$1" <<'PYA'
import json, re, sys
d = sys.argv[1]; c = json.load(open(f"{d}/case.json")); t = open(f"{d}/kernel.ttir").read()
names = set(re.findall(r"%([\w.$]+)\s*:", re.search(r"tt\.func public @[\w.$]+\((.*?)\)\s*(attributes|\{)", t, re.S).group(1)))
print(" ".join(f"--arg {a['name']}=" + (f"@{d}/{a['file']}" if a["kind"] == "ptr" else repr(a["value"])) for a in c["args"] if a["name"] in names))
print(",".join(map(str, c["grid"])))
PYA
}
printf "%-22s %10s %10s %8s\n" kernel "1 thread" "all" speedup
for k in ${KERNELS:-softmax_f32 matmul_f32_ieee matmul_f16 attn_f16_causal1 layernorm_f16 vadd_f32}; do
  set -- $(args "$C/$k")
  grid=$(eval echo \${$#}); a=$(echo "$@" | sed "s/ $grid\$//")
  t1=$(best "$T" run "$C/$k/kernel.ttir" --grid "$grid" $a --threads 1)
  tn=$(best "$T" run "$C/$k/kernel.ttir" --grid "$grid" $a)
  printf "%-22s %9ss %9ss %7.2fx\n" "$k" "$t1" "$tn" "$(echo "$t1 / $tn" | bc -l)"
done
