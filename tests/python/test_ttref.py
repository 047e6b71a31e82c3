"""Plain-assert tests of the ttref Python package (no pytest needed): run by
tests/python/test_python.sh against the built libttref with Debian's python3-numpy.
Expected values come from numpy's own float arithmetic or from the C engine itself."""
import os
import subprocess
import sys

import numpy as np

import ttref

DATA = os.environ.get("TTREF_TEST_DATA", "tests/data")
SRC = os.environ.get("TTREF_SRCDIR", ".")
VADD = os.path.join(DATA, "ttir", "vadd_f32.ttir")
CAST = os.path.join(SRC, "conformance", "suite", "core", "kernels", "cast_f8e5m2_f32.ttir")
N = 4096


def inputs():
    rng = np.random.default_rng(7)
    x = rng.uniform(-4, 4, N).astype(np.float32)
    y = rng.uniform(-4, 4, N).astype(np.float32)
    return x, y


def raises(cls, fn, *want):
    try:
        fn()
    except cls as e:
        for w in want:
            assert w in str(e) or w in e.note, (w, str(e), e.note)
        return e
    raise AssertionError("%s not raised" % cls.__name__)


def test_run_vadd_then_fault():
    x, y = inputs()
    out = ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(N, np.float32), "n": N})
    assert set(out) == {"x_ptr", "y_ptr", "o_ptr"}
    assert out["o_ptr"].dtype == np.float32 and out["o_ptr"].shape == (N,)
    assert np.array_equal(out["o_ptr"].view(np.uint32), (x + y).view(np.uint32))  # numpy's f32 add is correctly rounded
    # the second launch runs n past the buffers: a located kernel fault
    e = raises(ttref.Error, lambda: ttref.run(VADD, 5, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(N, np.float32),
                                                         "n": 5000}),
               "vadd_f32.ttir:18:5: error: out-of-bounds", "'tt.load'", "pid (4, 0, 0) lane 0")
    assert isinstance(e, ttref.KernelFault) and e.status == "kernel fault"


def test_kernel_reuse_and_signature():
    x, y = inputs()
    k = ttref.Kernel(VADD)
    assert k.name == "vadd"
    assert [(a.name, a.kind, a.dtype) for a in k.args] == [
        ("x_ptr", "pointer", "f32"), ("y_ptr", "pointer", "f32"), ("o_ptr", "pointer", "f32"), ("n", "scalar", "i32")]
    x0 = x.copy()
    o = np.full((64, 64), -1, np.float32)  # any shape: the buffer is its bytes, the output keeps the shape
    r1 = k.run(4, {"x_ptr": x, "y_ptr": y, "o_ptr": o, "n": 1000})
    r2 = k.run((2, 1), {"0": x, "%y_ptr": y, 2: o, "n": 2048}, threads=2)  # positions and %names
    assert np.array_equal(x, x0) and (o == -1).all()  # the caller's arrays are not written
    assert r1["o_ptr"].shape == (64, 64)
    flat = r1["o_ptr"].reshape(-1)
    assert np.array_equal(flat[:1000], x[:1000] + y[:1000]) and (flat[1000:] == -1).all()
    assert np.array_equal(r2["o_ptr"].reshape(-1)[:2048], x[:2048] + y[:2048])
    assert k.stats["programs"] == 2
    k.close()
    raises(ttref.BadInput, lambda: k.run(1, {}), "closed")


def test_threads_bit_identical():
    x, y = inputs()
    args = {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(N, np.float32), "n": N}
    a = ttref.run(VADD, 4, args, threads=1)["o_ptr"]
    b = ttref.run(VADD, 4, args, threads=2)["o_ptr"]
    assert a.tobytes() == b.tobytes()


def test_bad_input():
    x, y = inputs()
    o = np.zeros(N, np.float32)
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"z_ptr": x}), "unknown kernel argument 'z_ptr'")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": o, "n": "12abc"}),
           "bad literal for i32 'n'")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": o, "n": 2 ** 40}),
           "bad literal")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x.astype(np.float64), "y_ptr": y, "o_ptr": o, "n": 1}),
           "element size mismatch")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "n": 1}),
           "kernel argument 'o_ptr' is not bound")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": 3, "n": 1}), "numpy array")
    raises(ttref.BadInput, lambda: ttref.run(VADD, (1, 2, 3, 4), {}), "grid")
    raises(ttref.BadInput, lambda: ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": o, "n": 1}, threads=-2),
           "threads")
    raises(ttref.BadInput, lambda: ttref.Kernel("no/such.ttir"), "no/such.ttir")
    raises(ttref.BadInput, lambda: ttref.Kernel(VADD, function="nope"), "nope")
    bad = "module {\n  tt.func public @k() {\n    %0 = arith.bogus : i32\n  }\n}\n"
    raises(ttref.BadInput, lambda: ttref.Kernel(bad), "<string>:3:")


def test_precise():
    x, y = inputs()
    out = ttref.run(VADD, 4, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(N, np.float32), "n": N}, precise=True)
    want = x.astype(np.float64) + y.astype(np.float64)
    assert np.array_equal(out["o_ptr.precise"], want)
    assert (out["o_ptr.bound"] >= np.abs(want)).all()
    # a precise reference lets compare judge in ulps of the exact value
    v = ttref.compare(out["o_ptr"], out["o_ptr"], "ulp", precise=out["o_ptr.precise"], ulp=0.5)
    assert v.passed
    # judged against the precise value, a result one f32 step off the rounded sum exceeds half an ulp
    off = out["o_ptr"].copy()
    off.view(np.uint32)[7] += 1
    v = ttref.compare(off, out["o_ptr"], "ulp", precise=out["o_ptr.precise"], ulp=0.5)
    assert not v and v.worst["flat_index"] == 7


def test_compare():
    x, y = inputs()
    ref = (x + y).reshape(64, 64)
    got = ref.copy()
    v = ttref.compare(got, ref, "exact")
    assert v and v.passed and v.reason == ""
    got.view(np.uint32)[3, 5] += 2  # two ulps off
    v = ttref.compare(got, ref, "exact")
    assert not v and v.worst["index"] == (3, 5) and v.worst["flat_index"] == 3 * 64 + 5 and v.reason
    assert v.worst["got"] == float(got[3, 5]) and v.worst["ref"] == float(ref[3, 5])
    assert not ttref.compare(got, ref, "ulp", ulp=1)
    assert ttref.compare(got, ref, "ulp", ulp=2, allow_ftz=True)
    bits = np.array([0x3F80, 0x4000], np.uint16)
    assert not ttref.compare(bits + np.array([1, 0], np.uint16), bits, "exact", dtype="bf16")
    raises(ttref.BadInput, lambda: ttref.compare(got, ref, "close"), "unknown compliance mode 'close'")
    raises(ttref.BadInput, lambda: ttref.compare(got, ref, "ulp", ulps=2), "ulps")
    raises(ttref.BadInput, lambda: ttref.compare(got, ref, "reduce", k=4), "precise")
    raises(ttref.BadInput, lambda: ttref.compare(got, ref[:2], "exact"), "ref is")
    raises(ttref.BadInput, lambda: ttref.compare(got.astype(np.complex64), ref.astype(np.complex64), "exact"), "dtype=")


def test_decode():
    np.seterr(invalid="ignore")  # widening signaling NaNs
    codes16 = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    assert np.array_equal(ttref.decode(codes16, "f16"), codes16.view(np.float16).astype(np.float64), equal_nan=True)
    assert np.array_equal(ttref.decode(codes16, "bf16"),
                          (codes16.astype(np.uint32) << 16).view(np.float32).astype(np.float64), equal_nan=True)
    # fp8: the engine's own extf (every code through a cast kernel) is the oracle
    text = open(CAST).read()
    codes = np.arange(256, dtype=np.uint8)
    for fmt in ("f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", "f8E5M2FNUZ"):
        out = ttref.run(text.replace("f8E5M2", fmt), 4, {"x_ptr": codes, "o_ptr": np.zeros(256, np.float32), "n": 256})
        want = out["o_ptr"].astype(np.float64)
        got = ttref.decode(codes, fmt)
        assert np.array_equal(got, want, equal_nan=True), fmt
        assert np.array_equal(np.signbit(got[~np.isnan(got)]), np.signbit(want[~np.isnan(want)])), fmt
    raises(ttref.BadInput, lambda: ttref.decode(codes, "f7"), "f7")


def test_module_runs_cli():
    r = subprocess.run([sys.executable, "-m", "ttref", "version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ttref " + ttref.version(), (r.stdout, r.stderr)
    r = subprocess.run([sys.executable, "-m", "ttref", "check", VADD], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


SOFTMAX = os.path.join(DATA, "fx", "softmax.fx")


def softmax_tk(x):
    """softmax as TK defines it (max and sum start from 0), in float64"""
    x = x.astype(np.float64)
    e = np.exp2(x - np.maximum(x.max(1, keepdims=True), 0))
    return e / e.sum(1, keepdims=True)


def test_traced_kernel_syms_dtypes():
    x = np.random.default_rng(3).uniform(-6, 6, (5, 32)).astype(np.float32)
    out = ttref.run(SOFTMAX, 5, {"input": x, "output": np.zeros_like(x)}, syms={"M": 5, "K": 32})
    assert out["output"].shape == (5, 32) and np.abs(out["output"] - softmax_tk(x)).max() < 1e-6
    with ttref.Kernel(SOFTMAX, syms={"M": 5, "K": 32}, dtypes={"input": "f16", "output": "f16"}) as k:
        assert [(a.name, a.dtype) for a in k.args] == [("input", "f16"), ("output", "f16")], k.args
        x16 = x.astype(np.float16)
        o16 = k.run(5, {"input": x16, "output": np.zeros_like(x16)}, threads=2)["output"]
        assert o16.dtype == np.float16 and np.abs(o16.astype(np.float64) - softmax_tk(x16)).max() < 2e-3
    raises(ttref.BadInput, lambda: ttref.Kernel(SOFTMAX, syms={"K": 32}), "symbol 'M' is not bound")
    raises(ttref.BadInput, lambda: ttref.Kernel(SOFTMAX), "symbol")  # a .fx path without syms
    raises(ttref.BadInput, lambda: ttref.Kernel(SOFTMAX, syms={"M": 5, "K": 32}, oob="maybe"), "oob must be")
    raises(ttref.BadInput, lambda: ttref.Kernel(VADD, syms={"M": 5}), "not a traced kernel")


def test_launch_options_max_steps_and_races():
    w = os.path.join(DATA, "ttir", "infinite_while.ttir")
    raises(ttref.KernelFault, lambda: ttref.run(w, 2, {"o": np.zeros(64, np.int32), "s": 5}, max_steps=5000),
           "more than 5000 ops")
    out = ttref.run(w, 2, {"o": np.zeros(64, np.int32), "s": 0}, max_steps=5000, threads=1)
    assert out["o"].dtype == np.int32
    # both programs store to o[0]: check_races makes that a fault naming the op and the programs
    raises(ttref.KernelFault, lambda: ttref.run(w, 2, {"o": np.zeros(64, np.int32), "s": 0}, check_races=True),
           "data race in 'tt.store': pid (1, 0, 0)")
    raises(ttref.BadInput, lambda: ttref.run(w, 2, {"o": np.zeros(64, np.int32), "s": 0}, max_steps=-1))


def test_vendor_ops_plugin():
    plugin = os.environ.get("TTREF_TEST_OPS")
    assert plugin, "TTREF_TEST_OPS (the ops plugin test_python.sh builds) is not set"
    acme = os.path.join(DATA, "vendor", "suite", "kernels", "acme.ttir")
    rng = np.random.default_rng(5)
    x, y = (rng.uniform(-4, 4, 64).astype(np.float32) for _ in range(2))
    k = rng.integers(1, 1 << 30, 64).astype(np.int32)
    args = {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros(64, np.float32), "m_ptr": np.zeros(64, np.int8),
            "r_ptr": np.zeros(64, np.float32), "k_ptr": k, "l_ptr": np.zeros(64, np.int32)}
    raises(ttref.BadInput, lambda: ttref.run(acme, 4, args), 'unknown op "acme.scaled_add"')
    out = ttref.run(acme, 4, args, ops=[plugin])
    assert np.array_equal(out["o_ptr"], x + np.float32(0.5) * y)
    assert np.array_equal(out["m_ptr"], (x > y).astype(np.int8))
    assert np.array_equal(out["r_ptr"], x.reshape(4, 16)[:, ::-1].reshape(64))
    assert np.array_equal(out["l_ptr"], np.array([int(v).bit_length() - 1 for v in k], np.int32))
    k0 = k.copy()
    k0[3] = -1
    raises(ttref.KernelFault, lambda: ttref.run(acme, 4, dict(args, k_ptr=k0), ops=plugin),
           "vendor op failed in 'acme.ilog2': pid (0, 0, 0) lane 3")
    raises(ttref.BadInput, lambda: ttref.run(acme, 4, args, ops=["/nonexistent/ops.so"]), "cannot load ops plugin")



def test_debug_options():
    """trap, ub and check_uninit reach the launch (API 2): 0/0 and x/0 in lane 3 of 16."""
    def k(t, body):  # a 16-lane kernel of element type t: %y = body(%x) stored to o_ptr
        return ("module {\n  tt.func public @k(%x_ptr: !tt.ptr<T>, %o_ptr: !tt.ptr<T>) {\n"
                "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>\n"
                "    %xp = tt.splat %x_ptr : !tt.ptr<T> -> tensor<16x!tt.ptr<T>>\n"
                "    %xa = tt.addptr %xp, %r : tensor<16x!tt.ptr<T>>, tensor<16xi32>\n"
                "    %x = tt.load %xa : tensor<16x!tt.ptr<T>>\n    " + body + "\n"
                "    %op = tt.splat %o_ptr : !tt.ptr<T> -> tensor<16x!tt.ptr<T>>\n"
                "    %oa = tt.addptr %op, %r : tensor<16x!tt.ptr<T>>, tensor<16xi32>\n"
                "    tt.store %oa, %y : tensor<16x!tt.ptr<T>>\n    tt.return\n  }\n}\n").replace("T", t)
    xf = np.ones(16, np.float32)
    xf[3] = 0
    nan_k = k("f32", "%y = arith.divf %x, %x : tensor<16xf32>")
    out = ttref.run(nan_k, 1, {"x_ptr": xf, "o_ptr": np.zeros(16, np.float32)})
    assert np.isnan(out["o_ptr"][3]) and (out["o_ptr"][:3] == 1).all()
    raises(ttref.KernelFault, lambda: ttref.run(nan_k, 1, {"x_ptr": xf, "o_ptr": np.zeros(16, np.float32)}, trap="nan"),
           "NaN created by 'arith.divf'", "lane 3")
    ttref.run(nan_k, 1, {"x_ptr": xf, "o_ptr": np.zeros(16, np.float32)}, trap="inf")  # no inf made
    raises(ttref.BadInput, lambda: ttref.run(nan_k, 1, {"x_ptr": xf, "o_ptr": xf}, trap="zero"), "trap takes")
    xi = np.full(16, 7, np.int32)
    xi[3] = 0
    div_k = k("i32", "%y = arith.divsi %x, %x : tensor<16xi32>")
    kk = ttref.Kernel(div_k)
    kk.run(1, {"x_ptr": xi, "o_ptr": np.zeros(16, np.int32)}, ub="quiet")
    assert kk.stats["ub_div_zero"] == 1 and kk.stats["ub_overflow"] == 0
    raises(ttref.KernelFault, lambda: kk.run(1, {"x_ptr": xi, "o_ptr": np.zeros(16, np.int32)}, ub="strict"),
           "integer division by zero")
    kk.close()


if __name__ == "__main__":
    only = sys.argv[1:]
    n = 0
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn) and (not only or name in only):
            n += 1
            try:
                fn()
                print("ok %d - %s" % (n, name))
            except Exception as e:  # report every test, then fail
                failed += 1
                print("not ok %d - %s: %s: %s" % (n, name, type(e).__name__, e))
    print("1..%d" % n)
    sys.exit(1 if failed else 0)
