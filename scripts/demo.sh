#!/bin/sh
# The main job on the built-in default: run every shipped real-GPU kernel case
# (tests/data/corpus) under ttref and compare with the H100's outputs, printing
# one result line per kernel and a summary.
set -eu
cd "$(dirname "$0")/.."
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
TTREF_BIN="$(pwd)/ttref" "$PY" tests/corpus/check_corpus.py tests/data/corpus | awk '
  /^ok/     { printf "PASS  %s\n", $4; p++ }
  /^not ok/ { printf "FAIL  %s\n", $5; f++ }
  /^#/      { print "      " substr($0, 3) }
  END       { printf "%d passed, %d failed\n", p, f; exit f > 0 }'
