#!/bin/sh
# The main job on the built-in default:
#  1. every shipped real-GPU kernel case (tests/data/corpus, Triton 3.6 on an H100) runs under
#     ttref and is compared with the GPU's own outputs, one line per kernel;
#  2. the core conformance suite runs against the built-in reference backend and is judged by
#     its compliance modes (reports in demo-report/).
set -eu
cd "$(dirname "$0")/.."
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
echo "== real Triton kernels: ttref vs the H100's outputs"
TTREF_BIN="$(pwd)/ttref" "$PY" tests/corpus/check_corpus.py tests/data/corpus | awk '
  /^ok/ && /# TODO/  { sub(/.*# TODO /, ""); next }
  /^ok/              { p++; next }
  /^not ok/ && /TODO/ { n = $5; sub(/.*known GPU divergence: /, ""); printf "GPU-DIVERGES  %-40s %s\n", n, substr($0, 1, 90); x++; next }
  /^not ok/          { printf "FAIL          %s\n", $5; f++; next }
  /^# /              { if (f) print "              " substr($0, 3) }
  END { printf "%d kernels agree with the GPU, %d known GPU divergences, %d failed\n", p, x, f; exit f > 0 }'
echo "== conformance suite conformance/suite/core on the reference backend"
./ttref conform conformance/suite/core --backend reference --report-dir demo-report --force -j "$(nproc)" 2>/dev/null | tail -n 1
echo "reports: demo-report/report.html, report.md, results.json, junit.xml"
