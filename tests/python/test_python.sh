#!/bin/sh
# The ttref Python package: tests/python/test_ttref.py (plain asserts) against the
# built libttref, then the package as `make install prefix=TMP` installs it (found
# through its install record, no TTREF_LIB), and `python3 -m ttref`. Needs python3
# with numpy (Debian: python3-numpy). TAP output.
. "${TTREF_SRCDIR:-.}/tests/lib.sh"
S=${TTREF_SRCDIR:-.}
tl_pylib
tl_tmpdir py
TL_ERR_TAIL=1; TL_ERR_LINES=12 # failures show the end of $tmp/err
# an --enable-asan library needs the ASan runtime loaded first in the programs that use it
san_env=$(tl_san_env "$lib")
# the vendor-ops plugin of tests/vendor (test_vendor_ops_plugin)
${CC:-cc} -shared -fPIC -I"$S/ir" -o "$tmp/ops_acme.so" "$S/tests/vendor/ops_acme.c" 2>"$tmp/err" || no "the ops plugin builds"
env $san_env TTREF_LIB=$lib TTREF_TEST_OPS="$tmp/ops_acme.so" PYTHONPATH=$S/python "$PY" "$S/tests/python/test_ttref.py" >"$tmp/out" 2>"$tmp/err"; rc=$?
tl_relay "built tree" test_ttref.py
P=$tmp/prefix
if make -C "$B" install prefix="$P" >"$tmp/err" 2>&1; then ok "make install prefix=TMP"; else no "make install prefix=TMP"; echo "1..$n"; exit 1; fi
init=$(find "$P" -path '*/ttref/__init__.py' | head -n 1)
if [ -n "$init" ] && [ -f "$(dirname "$init")/__main__.py" ] && [ -f "$(dirname "$init")/_install.py" ]; then
  ok "the package is installed into the prefix's python path"
else echo "no package under the prefix" >"$tmp/err"; no "the package is installed into the prefix's python path"; fi
site=$(dirname "$(dirname "$init")")
cat >"$tmp/use.py" <<'PYEOF'
import sys, numpy as np, ttref
x = np.arange(4096, dtype=np.float32); y = np.float32(0.5) - x
out = ttref.run(sys.argv[1], 4, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(4096, np.float32), "n": 4096})
assert np.array_equal(out["o_ptr"], x + y)
try:
    ttref.run(sys.argv[1], 5, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(4096, np.float32), "n": 5000})
    raise SystemExit("no error on the second launch")
except ttref.Error as e:
    print(e)
PYEOF
if env -u TTREF_LIB -u TTREF_BIN $san_env PYTHONPATH="$site" "$PY" "$tmp/use.py" "${TTREF_TEST_DATA:-tests/data}/ttir/vadd_f32.ttir" >"$tmp/out" 2>"$tmp/err" \
   && grep -q "vadd_f32.ttir:18:5: error: out-of-bounds" "$tmp/out"; then
  ok "installed package: ttref.run sums, then ttref.Error on n past the buffers"
else cat "$tmp/out" >>"$tmp/err"; no "installed package: ttref.run sums, then ttref.Error on n past the buffers"; fi
if (cd "$tmp" && env -u TTREF_LIB -u TTREF_BIN $san_env PYTHONPATH="$site" "$PY" -m ttref version) >"$tmp/out" 2>"$tmp/err" && grep -q "^ttref " "$tmp/out"; then
  ok "python3 -m ttref runs the installed CLI"
else no "python3 -m ttref runs the installed CLI"; fi
echo "1..$n"
[ "$fail" -eq 0 ]
