#!/bin/sh
# ttref.triton and ttref.capture without Triton, torch or a GPU: tests/python/test_triton_bind.py
# and test_run_test_core.py (plain asserts) against the built libttref, then the installed package: ttref_triton.pth sits
# in the prefix's python path and routes a stub `triton` through ttref under TTREF_TRITON=1.
# Needs python3 with numpy (Debian: python3-numpy). TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
T=${TTREF_BIN:-./ttref}
S=${TTREF_SRCDIR:-.}
tl_pylib
tl_tmpdir tri
TL_ERR_TAIL=1; TL_ERR_LINES=12 # failures show the end of $tmp/err
san_env=$(tl_san_env "$lib")
# test_run_test_core.py: the GPU test_core sample runner's pure and replay parts (scripts/gpu)
for f in test_triton_bind test_run_test_core; do
  env $san_env TTREF_LIB=$lib TTREF_BIN="$T" PYTHONPATH=$S/python "$PY" "$S/tests/python/$f.py" >"$tmp/out" 2>"$tmp/err"; rc=$?
  tl_relay "built tree" "$f.py"
done
P=$tmp/prefix
if make -C "$B" install prefix="$P" >"$tmp/err" 2>&1; then ok "make install prefix=TMP"; else no "make install prefix=TMP"; echo "1..$n"; exit 1; fi
init=$(find "$P" -path '*/ttref/triton.py' | head -n 1)
site=$(dirname "$(dirname "$init")")
if [ -n "$init" ] && [ -f "$site/ttref/capture.py" ] && [ -f "$site/ttref_triton.pth" ]; then
  ok "triton.py, capture.py and ttref_triton.pth are installed into the prefix's python path"
else echo "missing under $site" >"$tmp/err"; no "triton.py, capture.py and ttref_triton.pth are installed into the prefix's python path"; fi
# a stub triton package: TTREF_TRITON=1 through the installed .pth (site.addsitedir runs it)
mkdir -p "$tmp/stub/triton/runtime"
echo 'from . import runtime' >"$tmp/stub/triton/__init__.py"
echo 'from . import jit, autotuner' >"$tmp/stub/triton/runtime/__init__.py"
printf 'class JITFunction:\n    def run(self): pass\n' >"$tmp/stub/triton/runtime/jit.py"
printf 'class Autotuner:\n    def run(self): pass\n' >"$tmp/stub/triton/runtime/autotuner.py"
code="import site; site.addsitedir('$site'); import triton, ttref.triton as t; print(t.enabled(), triton.runtime.jit.JITFunction.run is t._jit_run)"
if out=$(env -u TTREF_LIB -u TTREF_BIN $san_env TTREF_TRITON=1 PYTHONPATH="$tmp/stub" "$PY" -c "$code" 2>"$tmp/err") && [ "$out" = "True True" ]; then
  ok "installed: TTREF_TRITON=1 patches Triton's launcher when triton is imported"
else echo "got: $out" >>"$tmp/err"; no "installed: TTREF_TRITON=1 patches Triton's launcher when triton is imported"; fi
code="import site; site.addsitedir('$site'); import triton, sys; print('ttref.triton' in sys.modules)"
if out=$(env -u TTREF_LIB -u TTREF_BIN $san_env PYTHONPATH="$tmp/stub" "$PY" -c "$code" 2>"$tmp/err") && [ "$out" = "False" ]; then
  ok "installed: without TTREF_TRITON the .pth imports nothing"
else echo "got: $out" >>"$tmp/err"; no "installed: without TTREF_TRITON the .pth imports nothing"; fi
echo "1..$n"
[ "$fail" -eq 0 ]
