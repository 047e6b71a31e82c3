#!/bin/sh
# The public API as an outside program sees it: `make install prefix=TMP`, then a
# program written only against ttref.h (tests/api/vadd_api.c) is built with
# `pkg-config --define-variable=prefix=TMP --cflags --libs ttref` and run; the
# installed libttref.so exports only ttref_* symbols. TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
S=${TTREF_SRCDIR:-.}
B=$(cd "$(dirname "$T")" && pwd)
K=${TTREF_TEST_DATA:-tests/data}/ttir/vadd_f32.ttir
# an --enable-asan library needs the ASan runtime loaded first in the programs that use it
san_env=$(tl_san_env "$B/.libs/libttref.so")
tl_tmpdir api
TL_ERR_TAIL=1; TL_ERR_LINES=8 # failures show the end of $tmp/err
P=$tmp/prefix
if make -C "$B" install prefix="$P" >"$tmp/err" 2>&1; then ok "make install prefix=TMP"; else no "make install prefix=TMP"; echo "1..$n"; exit 1; fi
PC=$(find "$P" -name ttref.pc | head -n 1)
if [ -n "$PC" ] && [ -f "$P/include/ttref.h" ] && [ -f "$P/include/ttref_option_list.h" ]; then ok "ttref.h, ttref_option_list.h and ttref.pc are installed"; else echo "missing files" >"$tmp/err"; no "ttref.h, ttref_option_list.h and ttref.pc are installed"; fi
export PKG_CONFIG_PATH="$(dirname "$PC")"
# a --disable-shared build installs only libttref.a: link it with its private libraries (and the
# sanitizer runtimes its objects need)
static=; sanflags=
if [ -z "$(find "$P" -name 'libttref.so*' | head -n 1)" ]; then
  static=--static
  a=$(find "$P" -name libttref.a | head -n 1)
  if nm "$a" 2>/dev/null | grep -q '__asan_report'; then sanflags="$sanflags -fsanitize=address"; fi
  if nm "$a" 2>/dev/null | grep -q '__ubsan_handle'; then sanflags="$sanflags -fsanitize=undefined"; fi
fi
flags=$(pkg-config $static --define-variable=prefix="$P" --cflags --libs ttref 2>"$tmp/err")
case "$flags" in *"-I$P/include"*"-lttref"*) ok "pkg-config points into the prefix" ;; *) echo "flags: $flags" >>"$tmp/err"; no "pkg-config points into the prefix" ;; esac
libdir=$(pkg-config --define-variable=prefix="$P" --variable=libdir ttref)
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic $sanflags -o "$tmp/vadd_api" "$S/tests/api/vadd_api.c" $flags -Wl,-rpath,"$libdir" >"$tmp/err" 2>&1; then
  ok "a program written against ttref.h builds with -std=c11 -pedantic -Werror"
else no "a program written against ttref.h builds with -std=c11 -pedantic -Werror"; fi
if command -v c++ >/dev/null 2>&1; then
  printf '#include <ttref.h>\nint main() { ttref_error e; return ttref_kernel_load(nullptr, nullptr, &e) != nullptr; }\n' >"$tmp/cxx.cc"
  if c++ -Wall -Werror $sanflags -o "$tmp/cxx" "$tmp/cxx.cc" $flags -Wl,-rpath,"$libdir" >"$tmp/err" 2>&1 && env $san_env "$tmp/cxx"; then ok "ttref.h works from C++"; else no "ttref.h works from C++"; fi
fi
# the program prints its own TAP lines; renumber them into ours
env $san_env "$tmp/vadd_api" "$K" >"$tmp/out" 2>"$tmp/err"; rc=$?
grep '^ok ' "$tmp/out" | sed 's/^ok [0-9]* - //' >"$tmp/oks"
while IFS= read -r l; do ok "vadd_api: $l"; done <"$tmp/oks"
if grep -q '^not ok' "$tmp/out" || [ "$rc" -ne 0 ]; then cat "$tmp/out" >>"$tmp/err"; no "vadd_api: every check passes (exit $rc)"; fi
grep '^# ' "$tmp/out" | tail -n 1
if [ "$(wc -l <"$tmp/oks")" -eq 8 ]; then ok "vadd_api ran all 8 checks"; else cat "$tmp/out" >"$tmp/err"; no "vadd_api ran all 8 checks"; fi
# `ttref run` is written only against ttref.h: cli/cli_run.c built against the installed prefix
# alone (no source headers, only the exported symbols) runs a launch like the ttref program
printf '#include "cli_run.h"\nint main(int argc, char **argv) { return cli_cmd_run(argc - 1, argv + 1, NULL); }\n' >"$tmp/run_main.c"
D=${TTREF_TEST_DATA:-tests/data}/corpus/triton-3.6-h100/vadd_f32
RA="--grid 98 --arg x_ptr=@$D/x_ptr.in.npy --arg y_ptr=@$D/y_ptr.in.npy --arg o_ptr=@$D/o_ptr.in.npy --arg n=100003 --precise --stats"
if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror $sanflags -I"$S/cli" -o "$tmp/run_api" "$tmp/run_main.c" "$S/cli/cli_run.c" $flags -Wl,-rpath,"$libdir" >"$tmp/err" 2>&1; then
  ok "cli/cli_run.c (ttref run) builds against the installed ttref.h and libttref alone"
else no "cli/cli_run.c (ttref run) builds against the installed ttref.h and libttref alone"; fi
same_runs() {
  # shellcheck disable=SC2086
  env $san_env "$tmp/run_api" run "$K" $RA --out "$tmp/ra" >"$tmp/err" 2>"$tmp/ra.err" && "$T" run "$K" $RA --out "$tmp/rb" 2>"$tmp/rb.err" || return 1
  cmp "$tmp/ra.err" "$tmp/rb.err" >>"$tmp/err" 2>&1 && grep -q '^stats: programs 98,' "$tmp/ra.err" || return 1
  for f in o_ptr.npy o_ptr.precise.npy o_ptr.bound.npy; do cmp "$tmp/ra/$f" "$tmp/rb/$f" >>"$tmp/err" 2>&1 || return 1; done
}
if same_runs; then ok "... and writes the same outputs, precise values, bounds and --stats line as the ttref program"
else no "... and writes the same outputs, precise values, bounds and --stats line as the ttref program"; fi
so=$(find "$P" -name 'libttref.so*' -type f | head -n 1)
if [ -z "$so" ]; then ok "libttref.so exports only ttref_* symbols # SKIP built with --disable-shared"; echo "1..$n"; [ "$fail" -eq 0 ]; exit; fi
others=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^ttref_' | grep -v '^$')
if [ -n "$so" ] && [ -z "$others" ] && nm -D --defined-only "$so" | grep -q ' ttref_launch_run$'; then ok "libttref.so exports only ttref_* symbols"
else echo "other exports: $others" >"$tmp/err"; no "libttref.so exports only ttref_* symbols"; fi
echo "1..$n"
[ "$fail" -eq 0 ]
