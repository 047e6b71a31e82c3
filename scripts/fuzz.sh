#!/bin/sh
# fuzz.sh: build the libFuzzer targets (clang, +ASan/UBSan) and fuzz each for
# SECONDS (default 60), seeded from tests/data: tests/fuzz/fuzz_parse.c (TTIR
# parser/verifier/printer), tests/fuzz/fuzz_run.c (parse, verify and execute
# the kernel on small buffers), tests/fuzz/fuzz_fx.c (TK fx traces: parse,
# lower, and the lowering must verify), tests/fuzz/fuzz_reply.c (batch-adapter
# reply lines, conformance/conform_reply.c) and tests/fuzz/fuzz_suite.c (the YAML
# suite loader, seeded from the shipped suites). FUZZ_TARGETS picks some. Exits non-zero on any crash, leak, timeout or
# OOM and prints the reproducer. Usage: scripts/fuzz.sh [SECONDS]
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
targets=${FUZZ_TARGETS:-fuzz_parse fuzz_run fuzz_fx fuzz_reply fuzz_suite}
want() { case " $targets " in *" $1 "*) return 0 ;; esac; return 1; }
CFL="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# shellcheck disable=SC2086
want fuzz_parse && clang $CFL -I"$work/cfg" -I"$top/ir" "$top"/ir/*.c "$top/tests/fuzz/fuzz_parse.c" -o "$work/fuzz_parse" -lyaml -lm
# shellcheck disable=SC2086
want fuzz_fx && clang $CFL -I"$work/cfg" -I"$top/ir" "$top"/ir/*.c "$top/tests/fuzz/fuzz_fx.c" -o "$work/fuzz_fx" -lyaml -lm
run_srcs=$(ls "$top"/interp/*.c) # the ttref program's main is in cli/
# libquadmath is GCC's: give clang its header (alone, not GCC's whole include dir) and library
mkdir -p "$work/qinc"
for h in quadmath.h quadmath_weak.h; do ln -sf "$(gcc -print-file-name=include)/$h" "$work/qinc/$h"; done
qlib=$(dirname "$(gcc -print-file-name=libquadmath.so)")
# shellcheck disable=SC2086
want fuzz_run && clang $CFL -I"$work/cfg" -I"$work/qinc" -I"$top/ir" -I"$top/interp" "$top"/ir/*.c $run_srcs "$top/tests/fuzz/fuzz_run.c" \
  -o "$work/fuzz_run" -L"$qlib" -lyaml -lquadmath -lm
# the batch-adapter reply classifier (pure C, no libraries)
# shellcheck disable=SC2086
want fuzz_reply && clang $CFL -I"$work/cfg" -I"$top/conformance" "$top/conformance/conform_reply.c" "$top/tests/fuzz/fuzz_reply.c" \
  -o "$work/fuzz_reply"
conf_srcs=$(ls "$top"/conformance/*.c)
# shellcheck disable=SC2086
want fuzz_suite && clang $CFL -I"$work/cfg" -I"$work/qinc" -I"$top/ir" -I"$top/interp" -I"$top/conformance" \
  -DFUZZ_SUITE_DIR="\"$top/conformance/suite/core\"" "$top"/ir/*.c $run_srcs $conf_srcs \
  "$top/tests/fuzz/fuzz_suite.c" -o "$work/fuzz_suite" -L"$qlib" -lyaml -lgsl -lgslcblas -lquadmath -lm
# suite seeds and a dictionary of every case-file key
mkdir -p "$work/corpus_fuzz_suite"
for f in "$top"/conformance/suite/*/*.yaml "$top"/tests/data/suite*/*.yaml; do
  [ -f "$f" ] && cp "$f" "$work/corpus_fuzz_suite/seed_$(basename "$(dirname "$f")")_$(basename "$f")"
done
sed -n 's/^X([A-Z_0-9]*, *\("[^"]*"\)).*/\1/p' "$top/conformance/conform_key_list.h" > "$work/suite.dict"
printf '"---"\n"{"\n"["\n": "\n"- "\n"&a"\n"*a"\n"!!str"\n"0x"\n".inf"\n' >> "$work/suite.dict"
# seeds: every .ttir under tests/data/ttir and the Triton corpus kernels
for f in "$top"/tests/data/ttir/*.ttir "$top"/tests/data/ttir/*/*.ttir \
         "$top"/tests/data/corpus/*/*/kernel.ttir; do
  [ -f "$f" ] || continue
  rel=${f#"$top"/tests/data/}
  cp "$f" "$work/corpus/seed_$(echo "$rel" | tr '/' '_')"
done
# seeds of fuzz_fx: the traces of tests/data/fx and the traced suite
mkdir -p "$work/corpus_fuzz_fx"
for f in "$top"/tests/data/fx/*.fx "$top"/conformance/suite/traced/kernels/*.fx; do
  if [ -f "$f" ]; then cp "$f" "$work/corpus_fuzz_fx/seed_$(basename "$(dirname "$f")")_$(basename "$f")"; fi
done
fork=""
[ "${FUZZ_JOBS:-1}" -gt 1 ] && fork="-fork=$FUZZ_JOBS"
echo "fuzz: $(ls "$work/corpus" | wc -l) TTIR and $(ls "$work/corpus_fuzz_fx" | wc -l) fx inputs, ${secs}s per target"
status=0
mkdir -p "$work/corpus_fuzz_reply"
for w in ok unsupported error okay; do # reply seeds: "DIR\nLINE"
  printf '/r/work/a/v\n%s /r/work/a/v why' "$w" >"$work/corpus_fuzz_reply/seed_$w"
done
printf '/r/work/a/v\nok /r/work/b/v' >"$work/corpus_fuzz_reply/seed_other"
# the TTIR dictionary: every mnemonic of ir/ir_op_list.h, every predicate of ir/ir_pred_list.h,
# then tests/fuzz/ttir.dict
{ sed -n 's/^X([A-Z_0-9]*, *\("[a-z_.0-9]*"\).*/\1/p' "$top/ir/ir_op_list.h"
  sed -n 's/^CMP[IF]([A-Z]*, *\("[a-z]*"\).*/\1/p' "$top/ir/ir_pred_list.h"
  cat "$top/tests/fuzz/ttir.dict"; } | awk '/^#/ || !seen[$0]++' >"$work/ttir.dict"
for target in $targets; do
  mkdir -p "$work/corpus_$target"
  dict="$work/ttir.dict"
  if [ "$target" = fuzz_suite ]; then dict="$work/suite.dict"
  elif [ "$target" = fuzz_fx ]; then dict="$top/tests/fuzz/fx.dict"
  elif [ "$target" != fuzz_reply ]; then cp "$work"/corpus/* "$work/corpus_$target/" 2>/dev/null || true
  fi
  rc=0
  # shellcheck disable=SC2086
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$work/$target" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -dict="$dict" -artifact_prefix="$work/artifacts/$target-" -print_final_stats=1 \
    $fork ${FUZZ_ARGS:-} "$work/corpus_$target" > "$work/$target.log" 2>&1 || rc=$?
  echo "== $target"
  tail -n 25 "$work/$target.log"
  found=$(ls "$work/artifacts" 2>/dev/null | grep -c "^$target-" || true)
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    for a in "$work"/artifacts/"$target"-*; do
      [ -f "$a" ] && echo "fuzz: reproducer: $a (replay: $work/$target $a)"
    done
    echo "fuzz: $target FAILED (exit $rc)" >&2
    status=1
  else
    echo "fuzz: $target: no crash in ${secs}s"
  fi
done
if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED; work dir kept: $work" >&2
  exit 1
fi
[ "$keep" = 1 ] || rm -rf "$work"
