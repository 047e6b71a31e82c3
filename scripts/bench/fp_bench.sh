#!/bin/sh
# Rounding hot-path benchmark (fp_round_to f16/bf16), compiled with -O2 against interp/fp_round.c.
set -eu
cd "$(dirname "$0")/../.."
d=$(mktemp -d "${TMPDIR:-/tmp}/fpb.XXXXXX"); trap 'rm -rf "$d"' EXIT
echo '#define PACKAGE_VERSION "bench"' > "$d/config.h"
cc -std=gnu11 -O2 -I"$d" -Iir -Iinterp scripts/bench/fp_bench.c interp/fp_round.c -o "$d/fp_bench" -lm
"$d/fp_bench"
