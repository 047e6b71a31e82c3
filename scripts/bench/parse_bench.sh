#!/bin/sh
# parse_bench.sh: build a ~50 MB TTIR module by replicating the corpus kernels
# (functions and loc aliases renamed per copy) and report parse,
# parse+verify and parse+print throughput (target: parse+verify >= 20 MB/s). Usage: scripts/bench/parse_bench.sh [MB] [CORPUS_DIR]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
mb=${1:-50}
corpus=${2:-$top/tests/data/ttir}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT && echo "work: $work"
cfg="$work/cfg"
mkdir -p "$cfg"
echo '#define PACKAGE_VERSION "bench"' > "$cfg/config.h"
${CC:-gcc} -std=gnu11 -O2 -I"$cfg" -I"$top/ir" "$top/ir/ir.c" "$top/ir/ir_base.c" "$top/ir/ir_lex.c" "$top/ir/ir_vendor.c" \
  "$top"/ir/ir_parse*.c "$top"/ir/ir_print*.c "$top"/ir/ir_verify*.c "$top/scripts/bench/bench_parse.c" -o "$work/bench" -lm
# one copy of every corpus kernel: aliases in a.txt, functions in f.txt
cat "$corpus"/*.ttir > "$work/all.ttir"
size=$(wc -c < "$work/all.ttir")
copies=$(( (mb * 1000 * 1000 + size - 1) / size ))
# the files are concatenated, so alias and function names are renamed per file
# (awk counter) and per copy
awk -v copies="$copies" -v A="$work/a.txt" -v F="$work/f.txt" '
  FNR == 1 { file++ }
  { lines[n++] = $0; fid[n - 1] = file }
  END {
    for (k = 0; k < copies; k++)
      for (i = 0; i < n; i++) {
        s = lines[i]; tag = "_" k "_" fid[i] "_"
        gsub(/#loc/, "#loc" tag, s)
        gsub(/@/, "@c" tag, s)
        if (s ~ /^#/) print s > A
        else if (s !~ /^module/ && s !~ /^} loc/) print s > F
      }
  }' "$corpus"/*.ttir
{ cat "$work/a.txt"; echo 'module {'; cat "$work/f.txt"; echo '}'; } > "$work/big.ttir"
echo "corpus copies: $copies"
"$work/bench" "$work/big.ttir" 3
