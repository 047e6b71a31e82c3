#!/bin/sh
# fuzz.sh: build tests/fuzz/fuzz_parse.c with clang's libFuzzer (+ASan/UBSan)
# and fuzz the TTIR parser/verifier/printer for SECONDS (default 60), seeded
# from tests/data. Exits non-zero on any crash, leak, timeout or OOM and
# prints the reproducer. Usage: scripts/fuzz.sh [SECONDS]
# Env: FUZZ_WORK (work dir, kept; default a fresh /var/tmp dir, removed on
# success), FUZZ_JOBS (>1: libFuzzer -fork=N), FUZZ_ARGS (extra flags).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
if ! command -v clang >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
  else
    echo "fuzz: clang not found (apt-get install clang)" >&2
    exit 2
  fi
fi
if [ -n "${FUZZ_WORK:-}" ]; then
  work=$FUZZ_WORK
  keep=1
else
  work=$(mktemp -d /var/tmp/ttref-fuzz.XXXXXX)
  keep=0
fi
rm -rf "$work/artifacts"
mkdir -p "$work/cfg" "$work/corpus" "$work/artifacts"
echo '#define PACKAGE_VERSION "0.1.0"' > "$work/cfg/config.h"
clang -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined -I"$work/cfg" -I"$top/ir" \
  "$top"/ir/*.c "$top/tests/fuzz/fuzz_parse.c" -o "$work/fuzz_parse" -lm
# seeds: every .ttir under tests/data/ttir and the Triton corpus kernels
for f in "$top"/tests/data/ttir/*.ttir "$top"/tests/data/ttir/*/*.ttir \
         "$top"/tests/data/corpus/*/*/kernel.ttir; do
  [ -f "$f" ] || continue
  rel=${f#"$top"/tests/data/}
  cp "$f" "$work/corpus/seed_$(echo "$rel" | tr '/' '_')"
done
fork=""
[ "${FUZZ_JOBS:-1}" -gt 1 ] && fork="-fork=$FUZZ_JOBS"
echo "fuzz: $(ls "$work/corpus" | wc -l) inputs in $work/corpus, ${secs}s"
rc=0
# shellcheck disable=SC2086
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$work/fuzz_parse" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -dict="$top/tests/fuzz/ttir.dict" -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
  $fork ${FUZZ_ARGS:-} "$work/corpus" > "$work/fuzz.log" 2>&1 || rc=$?
tail -n 40 "$work/fuzz.log"
found=$(ls "$work/artifacts" 2>/dev/null | wc -l)
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
  for a in "$work"/artifacts/*; do
    [ -f "$a" ] && echo "fuzz: reproducer: $a (replay: $work/fuzz_parse $a)"
  done
  echo "fuzz: FAILED (exit $rc); work dir kept: $work" >&2
  exit 1
fi
echo "fuzz: no crash in ${secs}s"
[ "$keep" = 1 ] || rm -rf "$work"
