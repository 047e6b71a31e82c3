"""Plain-assert tests of ttref.triton's and ttref.capture's pure parts (no Triton, torch or GPU):
buffer planning and exact aliasing of numpy views, TTIR-name argument binding, grids, cache
keys, fault messages, the TTREF_TRITON import hook and autotune config choice (against a stub
`triton` package), and captured launches written as a suite that `ttref conform` replays.
Run by tests/python/test_triton_bind.sh. Expected values come from numpy or the C engine."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import ttref
import ttref.capture as cap
import ttref.triton as tt

DATA = os.environ.get("TTREF_TEST_DATA", "tests/data")
BIN = os.environ.get("TTREF_BIN", "./ttref")
VADD = os.path.join(DATA, "ttir", "vadd_f32.ttir")
CORPUS = os.path.join(DATA, "corpus", "triton-3.6-h100")
N = 4096
TMP = tempfile.mkdtemp(prefix="ttref-tri-")


def raises(cls, fn, *want):
    try:
        fn()
    except cls as e:
        for w in want:
            assert w in str(e), (w, str(e))
        return e
    raise AssertionError("%s not raised" % cls.__name__)


def test_plan_buffers():
    # two disjoint storages, a third argument inside the first, one touching the second's end
    views = [("a", 1000, 2000, 1000), ("b", 3000, 3100, 3040), ("c", 1000, 2000, 1500), ("d", 3100, 3200, 3100)]
    st, b = tt.plan_buffers(views)
    assert st == [(1000, 2000), (3000, 3100), (3100, 3200)], st
    assert b == {"a": (0, 0), "c": (0, 500), "b": (1, 40), "d": (2, 0)}, b
    # overlapping ranges of different roots merge into one storage
    st, b = tt.plan_buffers([("x", 0x100, 0x200, 0x180), ("y", 0x1f0, 0x300, 0x1f0)])
    assert st == [(0x100, 0x300)] and b == {"x": (0, 0x80), "y": (0, 0xf0)}
    raises(ttref.BadInput, lambda: tt.plan_buffers([("z", 10, 20, 30)]), "'z'", "outside its storage")


def test_numpy_extents():
    root = np.zeros((8, 16), np.float32)
    lo, hi, p = tt.extent(root[2:, 3:5])
    assert hi - lo == root.nbytes and p - lo == (2 * 16 + 3) * 4
    lo2, hi2, p2 = tt.extent(root.T[1])  # a strided view of the same root
    assert (lo2, hi2) == (lo, hi) and p2 - lo == 4
    raises(ttref.BadInput, lambda: tt.extent([1, 2]), "cannot bind a list")


def test_views_alias_exactly():
    k = ttref.Kernel(VADD)
    rng = np.random.default_rng(3)
    st = rng.uniform(-8, 8, 3 * N).astype(np.float32)
    y = rng.uniform(-8, 8, N).astype(np.float32)
    want = st.copy()
    want[2 * N:] = want[N:2 * N] + y
    tt.run_ttir(k, (4,), {"x_ptr": st[N:2 * N], "y_ptr": y, "o_ptr": st[2 * N:], "n": N, "BLOCK": 1024})
    assert np.array_equal(st, want)
    # in place: x and o are one view
    tt.run_ttir(k, (4,), {"x_ptr": st[N:2 * N], "y_ptr": y, "o_ptr": st[N:2 * N], "n": N}, check_races=True)
    want[N:2 * N] = want[N:2 * N] + y
    assert np.array_equal(st, want)
    # a kernel may read past its view inside the storage, as on the GPU
    o = np.zeros(2 * N, np.float32)
    yy = np.concatenate([y, y])
    tt.run_ttir(k, (8,), {"x_ptr": st[:N], "y_ptr": yy, "o_ptr": o, "n": 2 * N})
    assert np.array_equal(o, want[:2 * N] + yy)
    # past the storage is a fault with ttref's located message and the Python location
    e = raises(ttref.KernelFault, lambda: tt.run_ttir(k, (8,), {"x_ptr": st[2 * N:], "y_ptr": yy, "o_ptr": o, "n": 2 * N}),
               "out-of-bounds", "'tt.load'", "pid (4, 0, 0) lane 0", "python: kernels.py:")


def test_strided_rows():
    d = os.path.join(CORPUS, "softmax_f32")
    k = ttref.Kernel(os.path.join(d, "kernel.ttir"))
    x = np.load(os.path.join(d, "x_ptr.in.npy"))
    rows, cols = x.shape
    xs = np.full((rows, cols + 19), np.float32(7.5))
    xs[:, :cols] = x
    os_ = np.full((rows, cols + 19), np.float32(-3.0))
    tt.run_ttir(k, rows, {"x_ptr": xs[:, :cols], "o_ptr": os_[:, :cols], "stride": cols + 19, "ncols": cols, "BLOCK": 1024})
    ref = ttref.run(os.path.join(d, "kernel.ttir"), rows, {"x_ptr": x, "o_ptr": np.zeros_like(x), "stride": cols,
                                                         "ncols": cols})["o_ptr"]
    assert np.array_equal(os_[:, :cols], ref)  # bit-identical to the contiguous launch
    assert np.all(os_[:, cols:] == np.float32(-3.0))  # the padding is never written
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    assert np.allclose(ref, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=0)


def test_device_print_and_assert():
    gen = os.path.join(DATA, "corpus", "triton-3.6-h100-gen")
    k = ttref.Kernel(os.path.join(gen, "cf_device_assert", "kernel.ttir"))
    x = np.load(os.path.join(gen, "cf_device_assert", "x_ptr.in.npy"))
    x[37] = -1e30  # program 1, lane 5 fails tl.device_assert(x >= ...)
    raises(ttref.KernelFault, lambda: tt.run_ttir(k, (4,), {"x_ptr": x, "o_ptr": np.zeros(128, np.float32), "n": 100,
                                                           "lo": 0, "hi": 4, "MODE": "device_assert", "BLOCK": 32}),
           "kernel.ttir:44:5: error: device assertion failed: 'x too small'", "pid (1, 0, 0) lane 5",
           "python: ", "gen_corpus.py:1382:39")
    # tl.device_print: ttref's lines are the H100's (stdout.txt), in order with Python's own prints
    d = os.path.join(gen, "cf_device_print")
    code = ("import sys, numpy as np, ttref, ttref.triton as tt\n"
            "print('before')\n"
            "tt.run_ttir(ttref.Kernel(sys.argv[1] + '/kernel.ttir'), (1,), {'x_ptr': np.load(sys.argv[1] + '/x_ptr.in.npy'),"
            " 'o_ptr': np.zeros(128, np.float32), 'n': 4, 'lo': 0, 'hi': 4})\n"
            "print('after')\n")
    out = subprocess.run([sys.executable, "-c", code, d], capture_output=True, text=True)
    lines = out.stdout.splitlines()
    gpu = open(os.path.join(d, "stdout.txt")).read().splitlines()
    assert lines[0] == "before" and lines[-1] == "after", out.stdout + out.stderr
    assert set(lines[1:-1]) == set(gpu) and len(lines) == 7, (lines, sorted(set(gpu)))  # the GPU repeats per thread


def test_map_arguments():
    k = ttref.Kernel(VADD)
    x = np.zeros(4, np.float32)
    # constexprs and specialised-away arguments (1-valued ints, None) are not in the TTIR
    bufs, scal = tt.map_arguments(k.args, {"x_ptr": x, "y_ptr": x, "o_ptr": x, "n": 4, "BLOCK": 1024,
                                           "stride": 1, "bias": None})
    assert [n for n, _ in bufs] == ["x_ptr", "y_ptr", "o_ptr"] and scal == [("n", 4)]
    raises(ttref.BadInput, lambda: tt.map_arguments(k.args, {"x_ptr": x, "y_ptr": x, "o_ptr": x}),
           "TTIR argument 'n' is not a parameter")
    raises(ttref.BadInput, lambda: tt.map_arguments(k.args, {"x_ptr": 3, "y_ptr": x, "o_ptr": x, "n": 1}),
           "'x_ptr' is a !tt.ptr<f32>")


def test_grid_and_target():
    meta = {"n": 5000, "BLOCK": 1024}
    assert tt.eval_grid(lambda m: ((m["n"] + m["BLOCK"] - 1) // m["BLOCK"],), meta) == (5, 1, 1)
    assert tt.eval_grid((3, 2), meta) == (3, 2, 1) and tt.eval_grid(7, meta) == (7, 1, 1)
    raises(ttref.BadInput, lambda: tt.eval_grid((1, 2, 3, 4), meta), "grid")
    assert tt.parse_target(None) == ("cuda", 90, 32) and tt.parse_target("cuda:80") == ("cuda", 80, 32)
    assert tt.parse_target("hip:gfx942") == ("hip", "gfx942", 64)
    raises(ttref.BadInput, lambda: tt.parse_target("cuda:sm90"), "bad target")


def test_cache_key():
    base = ("abc", [("*fp32", "D"), ("i32", None)], {(2,): 1024}, {"num_warps": 4, "debug": False}, "cuda:90")
    k0 = tt.cache_key(*base)
    assert k0 == tt.cache_key(*base) and len(k0) == 64
    changed = [("abd",) + base[1:], (base[0], [("*fp32", None), ("i32", None)]) + base[2:],
               base[:2] + ({(2,): 512},) + base[3:], base[:3] + ({"num_warps": 8, "debug": False},) + base[4:],
               base[:4] + ("cuda:80",)]
    keys = {tt.cache_key(*c) for c in changed}
    assert len(keys) == len(changed) and k0 not in keys
    # stable across processes (no id()s or hash randomisation)
    code = "import ttref.triton as t; print(t.cache_key(*%r))" % (base,)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="77"))
    assert out.stdout.strip() == k0, out.stderr


def test_source_line():
    src = os.path.join(TMP, "kern.py")
    with open(src, "w") as f:
        f.write("def k():\n    x = tl.load(p + offs)\n")
    s = tt.source_line("k.ttir:9:5: error: out-of-bounds\nnote: at %s:2:16" % src)
    assert s == "%s:2:16: x = tl.load(p + offs)" % src, s
    assert tt.source_line("no location") is None


STUB = '''
class JITFunction:
    def run(self, *a, **k): return "triton"
class Autotuner:
    def run(self, *a, **k): return "triton"
'''


def stub_triton():
    root = os.path.join(TMP, "stub")
    os.makedirs(os.path.join(root, "triton", "runtime"), exist_ok=True)
    for f, text in (("triton/__init__.py", "from . import runtime\n"), ("triton/runtime/__init__.py", "from . import jit, autotuner\n"),
                    ("triton/runtime/jit.py", STUB), ("triton/runtime/autotuner.py", STUB)):
        with open(os.path.join(root, f), "w") as fh:
            fh.write(text)
    return root


def test_env_hook_and_autotune():
    root = stub_triton()
    site = os.path.join(TMP, "site")
    os.makedirs(site, exist_ok=True)
    pth = os.path.join(os.environ.get("TTREF_SRCDIR", "."), "python", "ttref_triton.pth")
    shutil.copy(pth, site)
    code = ("import site, sys; site.addsitedir(%r); import triton, ttref.triton as t; "
            "print(triton.runtime.jit.JITFunction.run is t._jit_run, triton.runtime.autotuner.Autotuner.run is t._autotune_run)"
            % site)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    for val, want in (("1", "True True"), ("0", "False False")):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(env, TTREF_TRITON=val))
        assert out.stdout.strip() == want, (val, out.stdout, out.stderr)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(env, TTREF_TRITON="1", TRITON_INTERPRET="1"))
    assert "exclusive" in out.stderr, out.stderr

    class Config:
        def __init__(self, b):
            self.kwargs, self.num_warps, self.num_stages, self.pre_hook = {"BLOCK": b}, 4, 2, None

        def all_kwargs(self):
            return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages}

    class Fn:
        def run(self, *a, **k):
            return a, k

    class Tuner:
        arg_names = ["x", "n"]
        configs = [Config(64), Config(128), Config(256)]
        fn = Fn()

    t = Tuner()
    old = os.environ.pop("TTREF_TRITON_CONFIG", None)
    try:
        a, k = tt._autotune_run(t, "X", 10, grid=(1,), warmup=False)
        assert k == {"grid": (1,), "warmup": False, "BLOCK": 64, "num_warps": 4, "num_stages": 2} and a == ("X", 10)
        os.environ["TTREF_TRITON_CONFIG"] = "2"
        a, k = tt._autotune_run(t, "X", 10, grid=(1,), warmup=False)
        assert k["BLOCK"] == 256 and t.best_config is Tuner.configs[2]
        os.environ["TTREF_TRITON_CONFIG"] = "3"
        raises(ttref.BadInput, lambda: tt._autotune_run(t, "X", 10, grid=(1,), warmup=False), "config 3 of 3")
        # prune_configs_by's early_config_prune runs first (with the bound arguments); the index
        # picks among what it keeps
        seen = []

        def prune(configs, nargs, **kw):
            seen.append((nargs, sorted(kw)))
            return [c for c in configs if c.kwargs["BLOCK"] <= nargs["n"] * 16]
        t.early_config_prune = prune
        os.environ["TTREF_TRITON_CONFIG"] = "1"
        a, k = tt._autotune_run(t, "X", 10, grid=(1,), warmup=False)
        assert k["BLOCK"] == 128 and seen == [({"x": "X", "n": 10}, ["grid", "warmup"])], (k, seen)
        raises(ttref.BadInput, lambda: tt._autotune_run(t, "X", 5, grid=(1,), warmup=False), "config 1 of 1")
        t.early_config_prune = lambda configs, nargs: []  # the older two-argument form
        raises(ttref.BadInput, lambda: tt._autotune_run(t, "X", 5, grid=(1,), warmup=False), "left no config")
    finally:
        os.environ.pop("TTREF_TRITON_CONFIG", None)
        if old is not None:
            os.environ["TTREF_TRITON_CONFIG"] = old


FAKE = {
    "triton/__init__.py": "import os\n__version__ = os.environ.get('FAKE_TRITON_VERSION', 'fake')\n"
                          "from . import runtime, compiler, backends\n",
    "triton/runtime/__init__.py": "from . import jit, autotuner\nfrom .driver import driver\n",  # as Triton's
    "triton/runtime/driver.py": """
import os
class _Gpu:
    def get_current_target(self):
        from triton.backends.compiler import GPUTarget
        return GPUTarget("cuda", 80, 32)
def _create_driver():
    if os.environ.get("FAKE_GPU"):
        return _Gpu()
    raise RuntimeError("0 active drivers ([]). There should only be one.")
class DriverConfig:  # Triton 3.6's: the default driver is made on first use
    def __init__(self):
        self._default = self._active = None
    @property
    def default(self):
        if self._default is None:
            self._default = _create_driver()
        return self._default
    @property
    def active(self):
        if self._active is None:
            self._active = self.default
        return self._active
    def set_active(self, d): self._active = d
    def reset_active(self): self._active = self.default
driver = DriverConfig()
""",
    "triton/runtime/autotuner.py": "class Autotuner:\n    def run(self, *a, **k): raise RuntimeError('0 active drivers')\n",
    "triton/runtime/jit.py": """
import inspect
class KernelParam:
    def __init__(self, num, name, constexpr):
        self.num, self.name, self.is_constexpr = num, name, constexpr
class JITFunction:
    def __init__(self, fn, ttir):
        self.fn, self.ttir, self.signature, self.debug, self.pre_run_hooks = fn, ttir, inspect.signature(fn), None, []
        self.params = [KernelParam(i, n, p.annotation == "constexpr") for i, (n, p) in enumerate(self.signature.parameters.items())]
        self.cache_key = "srchash"
    def __getitem__(self, grid):
        return lambda *a, **k: self.run(*a, grid=grid, warmup=False, **k)
    def run(self, *a, **k):
        raise RuntimeError("0 active drivers")
def create_function_from_signature(sig, params, backend):
    def binder(*args, **kwargs):
        b = sig.bind(*args, **{k: v for k, v in kwargs.items() if k in sig.parameters})
        b.apply_defaults()
        spec = []
        for p in params:
            v = b.arguments[p.name]
            if p.is_constexpr or v is None or (isinstance(v, int) and v == 1):
                spec.append(("constexpr", v))
            else:
                spec.append(("i32", "D" if v % 16 == 0 else None) if isinstance(v, int) else ("*fp32", "D"))
        return dict(b.arguments), spec, {k: v for k, v in kwargs.items() if k not in sig.parameters}
    return binder
""",
    "triton/backends/__init__.py": "from . import compiler\n",
    "triton/backends/compiler.py": """
class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size
class Language:
    TRITON = "triton"
""",
    "triton/compiler/__init__.py": "from . import compiler\n",
    "triton/compiler/compiler.py": """
COMPILES = []
class Options:
    def __init__(self, kw):
        self.num_warps, self.debug = kw.get("num_warps", 4), kw.get("debug", False)
class Module:
    def __init__(self, text): self.text = text
    def __str__(self): return self.text
class Backend:
    def __init__(self, target): self.target = target
    def parse_options(self, kw): return Options(kw)
    def load_dialects(self, ctx): pass
    def get_codegen_implementation(self, options): return {}
    def get_module_map(self): return {}
    def parse_attr(self, desc): return [["tt.divisibility", 16]] if desc == "D" else []
    def add_stages(self, stages, options, language):
        assert language == "triton"
        stages["ttir"] = lambda mod, metadata: mod
def make_backend(target):
    assert (target.backend, target.arch, target.warp_size) == ("cuda", 90, 32), target.__dict__
    return Backend(target)
class ASTSource:
    def __init__(self, fn, signature, constexprs, attrs):
        self.fn, self.signature, self.constexprs, self.attrs = fn, signature, constexprs, attrs
    def make_ir(self, target, options, codegen_fns, module_map, context):
        COMPILES.append((dict(self.signature), dict(self.constexprs), dict(self.attrs), options.num_warps))
        return Module(self.fn.ttir)
""",
    "triton/_C/__init__.py": "",
    "triton/_C/libtriton/__init__.py": "class ir:\n    context = object\n    @staticmethod\n    def load_dialects(ctx): pass\n",
}


def test_jit_run_on_a_fake_triton():
    """The launcher glue (binder, specialisation, cache, TTIR stage, grid, binding, faults)
    against a fake `triton` with Triton 3.6's interfaces, the TTIR being the corpus vadd."""
    root = os.path.join(TMP, "fake")
    for f, text in FAKE.items():
        os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
        with open(os.path.join(root, f), "w") as fh:
            fh.write(text)
    code = r"""
import os, sys, numpy as np, ttref, ttref.triton as tt
import triton.runtime.jit as jit, triton.compiler.compiler as cc
def vadd(x_ptr, y_ptr, o_ptr, n, BLOCK: "constexpr", scale=None):
    pass
k = jit.JITFunction(vadd, open(sys.argv[1]).read())
tt.enable(cache_dir=sys.argv[2])
x = np.arange(4096, dtype=np.float32); y = np.float32(0.25) - x * np.float32(3); o = np.zeros(4096, np.float32)
grid = lambda m: ((m["n"] + m["BLOCK"] - 1) // m["BLOCK"],)
r = k[grid](x, y, o, 4096, BLOCK=1024)
assert np.array_equal(o, x + y)
assert r.asm["ttir"].startswith("#loc") and os.path.dirname(r.path) == sys.argv[2] and r.constexprs == {(4,): 1024, (5,): None}
sig, cons, attrs, warps = cc.COMPILES[0]
assert sig == {"x_ptr": "*fp32", "y_ptr": "*fp32", "o_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr", "scale": "constexpr"}, sig
assert attrs == {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]], (2,): [["tt.divisibility", 16]], (3,): [["tt.divisibility", 16]]}, attrs
o[:] = 0
k[(4,)](x, y, o, 4096, BLOCK=1024)
assert np.array_equal(o, x + y) and len(cc.COMPILES) == 1       # cached
k[(4,)](x, y, o, 4096, BLOCK=1024, num_warps=8)
assert len(cc.COMPILES) == 2 and cc.COMPILES[1][3] == 8          # options are part of the key
assert k.run(x, y, o, 4096, grid=(4,), warmup=True, BLOCK=512) is not None and len(cc.COMPILES) == 3
try:
    k[(8,)](x, y, o, 8192, BLOCK=1024)
    raise SystemExit("no fault")
except ttref.KernelFault as e:
    assert "out-of-bounds" in str(e) and "pid (4, 0, 0)" in str(e) and "python: kernels.py:" in str(e), str(e)
try:
    k[(4,)](x, y, o, 4096, BLOCK=1024, bogus=1)
    raise SystemExit("no KeyError")
except KeyError as e:
    assert "bogus" in str(e)
from triton.runtime import driver
t = driver.active.get_current_target()        # the GPU hidden: ttref's CPU driver answers
assert (t.backend, t.arch, t.warp_size) == ("cuda", 90, 32) and str(driver.active.get_active_torch_device()) == "cpu"
assert driver.active.get_device_capability() == (9, 0) and not hasattr(driver.active, "get_benchmarker")
props = driver.active.utils.get_device_properties(0)     # the target's limits (H100 for cuda:90)
assert props["max_shared_mem"] == 232448 and props["multiprocessor_count"] == 132, props
assert not hasattr(driver.active.utils, "load_binary")
try:
    driver.active.get_benchmarker()
    raise SystemExit("no AttributeError")
except AttributeError as e:
    assert "get_benchmarker needs a GPU" in str(e), str(e)
tt.enable(target="cuda:80", cache_dir=sys.argv[2])
assert driver.active.get_current_target().arch == 80
tt.disable()
try:
    driver.active
    raise SystemExit("the CPU driver is still active")
except RuntimeError as e:
    assert "0 active drivers" in str(e)
try:
    k[(4,)](x, y, o, 4096, BLOCK=1024)
except RuntimeError as e:
    assert "active drivers" in str(e)
print("fine")
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    env.pop("TRITON_INTERPRET", None)
    out = subprocess.run([sys.executable, "-c", code, VADD, os.path.join(TMP, "ttir-cache")], capture_output=True,
                         text=True, env=env)
    assert out.stdout.strip() == "fine", out.stdout + out.stderr
    # a later process reuses the compiled TTIR from the cache directory, unless the Triton version
    # or a TRITON_* variable (Triton's cache-invalidating environment) differs
    again = r"""
import sys, numpy as np, ttref.triton as tt
import triton.runtime.jit as jit, triton.compiler.compiler as cc
def vadd(x_ptr, y_ptr, o_ptr, n, BLOCK: "constexpr", scale=None):
    pass
k = jit.JITFunction(vadd, open(sys.argv[1]).read())
tt.enable(cache_dir=sys.argv[2])
x = np.arange(4096, dtype=np.float32); y = np.float32(2) * x; o = np.zeros(4096, np.float32)
k[(4,)](x, y, o, 4096, BLOCK=1024)
assert np.array_equal(o, x + y)
print(len(cc.COMPILES))
"""
    # with a GPU driver active, enable() leaves it alone
    gpu = ("import ttref.triton as tt; from triton.runtime import driver; tt.enable(); made = driver._default is not None; "
           "print(made, driver.active.get_current_target().arch)")
    out = subprocess.run([sys.executable, "-c", gpu], capture_output=True, text=True, env=dict(env, FAKE_GPU="1"))
    assert out.stdout.strip() == "False 80", out.stdout + out.stderr  # chosen on first use, not by enable()
    for extra, want in (({}, "0"), ({"FAKE_TRITON_VERSION": "3.7"}, "1"), ({"TRITON_ALWAYS_COMPILE": "1"}, "1")):
        out = subprocess.run([sys.executable, "-c", again, VADD, os.path.join(TMP, "ttir-cache")], capture_output=True,
                             text=True, env=dict(env, **extra))
        assert out.stdout.strip() == want, (extra, out.stdout + out.stderr)
    assert not [f for f in os.listdir(os.path.join(TMP, "ttir-cache")) if f.endswith(".tmp")]


FAKE_TORCH = '''
import numpy as np
__version__ = "fake"
class _D:
    def __init__(self, name, np_dtype): self.name, self.np = name, np.dtype(np_dtype)
    def __str__(self): return "torch." + self.name
uint8, int16, int32, int64 = (_D(n, n) for n in ("uint8", "int16", "int32", "int64"))
float32, bfloat16 = _D("float32", "float32"), _D("bfloat16", "uint16")
class _Storage:
    def __init__(self, root): self.root = root
    def data_ptr(self): return self.root.__array_interface__["data"][0]
    def nbytes(self): return self.root.nbytes
class Tensor:
    # a strided view of a 1-D numpy root, as torch's storage model has it
    def __init__(self, root, dtype, off, shape, stride):
        self.root, self.dtype, self.off, self.shape, self._stride = root, dtype, off, tuple(shape), tuple(stride)
    def data_ptr(self): return self.root.__array_interface__["data"][0] + self.off * self.root.itemsize
    def untyped_storage(self): return _Storage(self.root)
    def element_size(self): return self.root.itemsize
    def storage_offset(self): return self.off
    def stride(self): return self._stride
    def detach(self): return self
    def cpu(self): return self
    def as_strided(self, shape, stride, off): return Tensor(self.root, self.dtype, off, shape, stride)
    def view(self, dtype): return Tensor(self.root.view(dtype.np), dtype, self.off, self.shape, self._stride)
    def numpy(self):
        return np.lib.stride_tricks.as_strided(self.root[self.off:], self.shape, [s * self.root.itemsize for s in self._stride])
class cuda:
    @staticmethod
    def synchronize(): pass
    @staticmethod
    def is_available(): return False
'''

FAKE_GPU_JIT = '''
import inspect, numpy as np
class Ret:
    def __init__(self, ttir): self.asm = {"ttir": ttir}
class JITFunction:
    def __init__(self, fn, ttir):
        self.fn, self.ttir, self.signature, self.__name__ = fn, ttir, inspect.signature(fn), fn.__name__
    def __getitem__(self, grid):
        return lambda *a, **k: self.run(*a, grid=grid, warmup=False, **k)
    def run(self, *args, grid, warmup, **kwargs):
        # the "GPU": o = x + y over n elements, through the tensors' strided views
        x, y, o, n = args[:4]
        o.numpy()[:n] = x.numpy()[:n] + y.numpy()[:n]
        return Ret(self.ttir)
'''


FAKE_COMPILED = '''
class CompiledKernel:
    def __init__(self, name): self.name = name
    def __getitem__(self, grid):
        return lambda *a, **k: "launched " + self.name
ORIG = CompiledKernel.__getitem__
CompiledKernel.ORIG = ORIG
'''


def test_capture_on_a_fake_gpu():
    """ttref.capture's recording (bound arguments, storage snapshots before/after, grid lambda,
    TTIR names, aliasing reported, benchmark launches skipped) with a fake torch and Triton."""
    root = os.path.join(TMP, "fakegpu")
    for f, text in (("torch/__init__.py", FAKE_TORCH), ("triton/__init__.py", "__version__ = 'fake'\nfrom . import runtime\n"),
                    ("triton/runtime/__init__.py", "from . import jit\n"), ("triton/runtime/jit.py", FAKE_GPU_JIT),
                    ("triton/compiler/__init__.py", ""), ("triton/compiler/compiler.py", FAKE_COMPILED)):
        os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
        with open(os.path.join(root, f), "w") as fh:
            fh.write(text)
    suite = os.path.join(TMP, "capsuite")
    code = r"""
import sys, numpy as np, torch, ttref.capture as cap
import triton.runtime.jit as jit
def vadd(x_ptr, y_ptr, o_ptr, n, BLOCK: "constexpr"):
    pass
k = jit.JITFunction(vadd, open(sys.argv[1]).read())
st = np.arange(3 * 4096, dtype=np.float32) * np.float32(0.5)
T = lambda off, n: torch.Tensor(st, torch.float32, off, (n,), (1,))
yb = np.linspace(-3, 3, 4096).astype(np.float32)
y = torch.Tensor(yb, torch.float32, 0, (4096,), (1,))
ob = np.zeros(4096 + 7, np.float32)
o = torch.Tensor(ob, torch.float32, 7, (4096,), (1,))      # an offset view
with cap.capture(sys.argv[2]) as c:
    c.test = "t.py::test_one"
    k[lambda m: (m["n"] // m["BLOCK"],)](T(4096, 4096), y, o, 4096, BLOCK=1024)
    def do_bench():
        k[(4,)](T(0, 4096), y, o, 4096, BLOCK=1024)
    do_bench()                                              # not recorded
    k[(4,)](T(0, 4096), y, T(8192, 4096), 4096, BLOCK=1024)  # x and o: two slices of one storage
    k[(4,)](T(4096, 4096), y, T(4096, 4096), 4096, BLOCK=1024)  # in place: x and o are one view
    k[(4,)](T(1, 4096), T(0, 4096), o, 4096, BLOCK=1024)      # x and y overlap, shifted by one element
    other = torch.Tensor(st[16:], torch.float32, 0, (4096,), (1,))  # a second storage inside st's memory
    k[(4,)](T(0, 4096), other, o, 4096, BLOCK=1024)           # refused: distinct storages overlapping
    from triton.compiler.compiler import CompiledKernel
    CompiledKernel("vadd_compiled")[(4,)](T(0, 4096), y, o, 4096)  # a compiled kernel launched directly: reported
from triton.compiler.compiler import CompiledKernel  # stop() gave the compiled-kernel launcher back
assert CompiledKernel("after")[(1,)]() == "launched after" and CompiledKernel.__getitem__ is CompiledKernel.ORIG
print(c.count, c.missed, c.aliased)
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code, VADD, suite], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "4 2 3", out.stdout + out.stderr
    y = open(os.path.join(suite, "vadd_0.yaml")).read()
    assert "grid: [4, 1, 1]" in y and "x_ptr: {shape: [8192], dtype: f32" in y and "o_ptr: {shape: [4096]," in y, y
    xin = np.load(os.path.join(suite, "vadd_0", "x_ptr.in.npy"))
    assert np.array_equal(xin, np.arange(4096, 3 * 4096, dtype=np.float32) * np.float32(0.5))  # view start to storage end
    meta = json.load(open(os.path.join(suite, "vadd_0", "meta.json")))
    assert meta["python_args"]["o_ptr"]["storage_offset"] == 7 and meta["grid"] == [4], meta
    unc = open(os.path.join(suite, "UNCAPTURED.txt")).read()
    assert unc.count("\n") == 2 and "vadd: arguments x_ptr and y_ptr are distinct storages that overlap" in unc, unc
    assert "vadd_compiled: launched as a compiled kernel" in unc, unc
    rc, txt = conform(suite, os.path.join(suite, "replay_gpu.py"))
    assert rc == 0 and "1 passed" in txt, txt
    # the aliased launches: whole storages, each argument at its byte offset, never split into copies
    idx = [json.loads(l) for l in open(os.path.join(suite, "captures.jsonl"))]
    assert [e.get("case") or e.get("aliased") or "-" for e in idx] == ["vadd_0", "vadd_0", "vadd_1", "vadd_2", "-", "-"], idx
    assert all(e["test"] == "t.py::test_one" for e in idx) and "overlap in memory" in idx[4]["uncaptured"], idx
    lj = json.load(open(os.path.join(suite, "aliased", "vadd_0", "launch.json")))
    assert [(a["name"], a.get("storage"), a.get("offset")) for a in lj["args"]] == \
        [("x_ptr", 0, 0), ("y_ptr", 1, 0), ("o_ptr", 0, 8192 * 4), ("n", None, None)], lj["args"]
    assert lj["storages"][0]["nbytes"] == 3 * 4096 * 4
    s0 = np.load(os.path.join(suite, "aliased", "vadd_2", "S0.in.npy"))
    assert s0.dtype == np.uint8 and s0.size == 3 * 4096 * 4
    res = cap.replay_dir(suite)
    assert [(r["case"], r["verdict"]) for r in res] == [("vadd_0", "PASS"), ("vadd_1", "PASS"), ("vadd_2", "PASS")], res
    # a GPU storage that differs from what ttref computes through the shared buffer is caught
    f = os.path.join(suite, "aliased", "vadd_1", "S0.gpu.npy")
    g = np.load(f)
    g.view(np.float32)[4096 + 77] += np.float32(1)
    np.save(f, g)
    r = cap.replay_aliased(os.path.join(suite, "aliased", "vadd_1"))
    assert r["verdict"] == "FAIL" and r["storages"][0]["worst"]["flat_index"] == 4096 + 77, r
    p = subprocess.run([sys.executable, "-m", "ttref.capture", "replay", suite], capture_output=True, text=True)
    assert p.returncode == 1 and "vadd_1: FAIL" in p.stdout and "2 passed, 1 failed" in p.stdout, p.stdout + p.stderr


def corpus_record(case):
    d = os.path.join(CORPUS, case)
    cj = json.load(open(os.path.join(d, "case.json")))
    args = []
    for a in cj["args"]:
        if a["kind"] == "ptr":
            args.append({"name": a["name"], "kind": "ptr", "dtype": a["dtype"],
                         "before": np.load(os.path.join(d, a["name"] + ".in.npy")),
                         "after": np.load(os.path.join(d, a["name"] + ".gpu.npy"))})
        else:
            args.append({"name": a["name"], "kind": "scalar", "value": a["value"]})
    return {"kernel": cj["kernel"], "ttir": open(os.path.join(d, "kernel.ttir")).read(), "grid": cj["grid"],
            "args": args, "meta": {"device": "NVIDIA H100 (corpus)", "triton": "3.6.0"}}


def test_kernel_mode():
    """Captured float outputs of a kernel with one tt.dot outside loops are judged as dot products
    with k = K + 1 (K from the case's own constexprs, e2m1 operands packed two per byte); K loops,
    other kernels and integer outputs keep the default modes."""
    gen = os.path.join(DATA, "corpus", "triton-3.6-h100-gen")
    seen = {"dot_product": 0, "ulp": 0, "exact": 0}
    for case in sorted(c for c in os.listdir(gen) if c.startswith("dot_")):
        cj = json.load(open(os.path.join(gen, case, "case.json")))
        ttir = open(os.path.join(gen, case, "kernel.ttir")).read()
        out_dt = [a["dtype"] for a in cj["args"] if a["name"] == "o_ptr"][0]
        m = cap.kernel_mode(ttir, {"f8e4m3": "f8E4M3FN", "f8e5m2": "f8E5M2"}.get(out_dt, out_dt))
        seen[m["mode"]] += 1
        if out_dt.startswith("i"):
            assert m == {"mode": "exact"}, (case, m)
        elif "scf.for" in ttir:
            assert m == cap.default_mode(out_dt), (case, m)
        else:
            assert m == {"mode": "dot_product", "options": {"k": cj["constexprs"]["K"] + 1, "bias_test": False}}, (case, m)
    assert seen["dot_product"] >= 20 and seen["ulp"] >= 2 and seen["exact"] >= 2, seen
    assert cap.kernel_mode(open(VADD).read(), "f32") == cap.default_mode("f32")
    # outputs compared as multisets exactly where the corpus generator marked the case unordered
    for case in sorted(os.listdir(gen)):
        if os.path.isfile(os.path.join(gen, case, "case.json")):
            cj = json.load(open(os.path.join(gen, case, "case.json")))
            got = cap.kernel_unordered(open(os.path.join(gen, case, "kernel.ttir")).read())
            assert got == bool(cj.get("unordered")), (case, got)
    # the suite written for a dot kernel carries the mode, and the GPU replay config declares FTZ
    suite = os.path.join(TMP, "dotsuite")
    d = os.path.join(gen, "dot_f16_16x16x16")
    cj = json.load(open(os.path.join(d, "case.json")))
    names = {a.name for a in ttref.Kernel(os.path.join(d, "kernel.ttir")).args}
    args = [{"name": a["name"], "kind": "ptr", "dtype": a["dtype"], "before": np.load(os.path.join(d, a["name"] + ".in.npy")),
             "after": np.load(os.path.join(d, a["name"] + ".gpu.npy"))} if a["kind"] == "ptr" else
            {"name": a["name"], "kind": "scalar", "value": a["value"]} for a in cj["args"] if a["name"] in names]
    n = cap.write_case(suite, {"kernel": "dot", "ttir": open(os.path.join(d, "kernel.ttir")).read(), "grid": cj["grid"],
                               "args": args, "meta": {"device": "NVIDIA H100"}})
    assert "o_ptr: {mode: dot_product, options: {k: 17, bias_test: false}}" in open(os.path.join(suite, n + ".yaml")).read()
    cfg = open(os.path.join(suite, "replay_gpu.yml")).read()
    assert "ftz: true" in cfg and 'device: "NVIDIA H100"' in cfg, cfg
    rep = os.path.join(TMP, "dotrep")
    p = subprocess.run([BIN, "conform", suite, "--backend", os.path.join(suite, "replay_gpu.py"), "--config",
                        os.path.join(suite, "replay_gpu.yml"), "--report-dir", rep, "-j", "1", "--no-progress"],
                       capture_output=True, text=True)
    assert p.returncode == 0 and "1 passed" in p.stdout + p.stderr, p.stdout + p.stderr  # the H100's dot within the bound


def conform(suite, backend):
    rep = os.path.join(TMP, "rep-%d" % len(os.listdir(TMP)))
    p = subprocess.run([BIN, "conform", suite, "--backend", backend, "--report-dir", rep, "-j", "1", "--no-progress"],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def test_capture_suite_replays():
    suite = os.path.join(TMP, "captured")
    names = [cap.write_case(suite, corpus_record(c)) for c in ("binary_op0", "int_op0", "rope_bf16")]
    assert names == ["binary_float_0", "int_ops_0", "rope_0"], names
    again = cap.write_case(suite, corpus_record("binary_op0"))
    assert again == "binary_float_1", again
    y = open(os.path.join(suite, "binary_float_0.yaml")).read()
    assert "gen: file" in y and "grid: [9, 1, 1]" in y and "n: 4099" in y and "mode: ulp" in y, y
    assert json.load(open(os.path.join(suite, "binary_float_0", "meta.json")))["triton"] == "3.6.0"
    # bf16 buffers travel as raw bits
    assert np.load(os.path.join(suite, names[2], "o_ptr.gpu.npy")).dtype == np.uint16
    rc, out = conform(suite, "reference")
    assert rc == 0, out
    rc, out = conform(suite, os.path.join(suite, "replay_gpu.py"))
    assert rc == 0, out  # the H100's outputs comply with ttref within the capture modes
    # a wrong recorded GPU output is caught
    f = os.path.join(suite, "int_ops_0", "o_ptr.gpu.npy")
    g = np.load(f)
    g.reshape(-1)[5] += 1
    np.save(f, g)
    rc, out = conform(suite, os.path.join(suite, "replay_gpu.py"))
    assert rc == 1 and "FAIL" in out, out
    # what cannot be captured is reported, not skipped silently
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        cap.note_uncaptured(suite, "k", "arguments a and b share one storage")
    assert "not captured" in str(w[0].message)
    assert open(os.path.join(suite, "UNCAPTURED.txt")).read() == "k: arguments a and b share one storage\n"
    raises(ttref.BadInput, lambda: cap.write_case(suite, {"kernel": "k", "ttir": "", "grid": [1], "args": [
        {"name": "p", "kind": "ptr", "dtype": "c64", "before": np.zeros(1), "after": np.zeros(1)}]}), "dtype c64")


def test_views_of_foreign_memory_and_transpose():
    """numpy arrays that are distinct roots over one buffer (np.frombuffer) overlap in memory and
    are bound as one storage; a transposed view binds at its own data pointer of the same root."""
    k = ttref.Kernel(VADD)
    buf = bytearray(3 * N * 4)
    whole = np.frombuffer(buf, np.float32)
    whole[:] = np.arange(3 * N, dtype=np.float32) * np.float32(0.25)
    want = whole.copy()
    x = np.frombuffer(buf, np.float32, count=N, offset=N * 4)      # a second root, inside the first
    o = np.frombuffer(buf, np.float32, count=N, offset=2 * N * 4)  # a third
    y = np.frombuffer(buf, np.float32, count=N + 1)                # overlaps x by one element
    st, b = tt.plan_buffers([("x", *tt.extent(x)), ("y", *tt.extent(y)), ("o", *tt.extent(o))])
    assert len(st) == 1 and b == {"y": (0, 0), "x": (0, N * 4), "o": (0, 2 * N * 4)}, (st, b)
    tt.run_ttir(k, (4,), {"x_ptr": x, "y_ptr": y, "o_ptr": o, "n": N})
    want[2 * N:] = want[N:2 * N] + want[:N]
    assert np.array_equal(whole, want)
    # in place through two differently strided views of one root: o is the transpose of x
    a = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    ref = a.T.copy()
    tt.run_ttir(k, (4,), {"x_ptr": a.T, "y_ptr": np.zeros(N, np.float32), "o_ptr": a, "n": N})
    assert np.array_equal(a, ref.T)  # the kernel walks the storage linearly from both pointers


class _Dev:
    type, index = "cuda", 0


class _HostStorage:
    def __init__(self, arr):
        self.arr = arr

    def data_ptr(self):
        return self.arr.ctypes.data

    def nbytes(self):
        return self.arr.nbytes


class _DevStorage(_HostStorage):
    """Fake device memory (a numpy array ttref must never touch directly): cpu() counts copies."""
    cpus = 0

    def cpu(self):
        self.cpus += 1
        return _HostStorage(self.arr.copy())

    def copy_(self, host):
        self.arr[...] = host.arr


class _DevTensor:
    device = _Dev()

    def __init__(self, storage, off):
        self.st, self.off = storage, off

    def untyped_storage(self):
        return self.st

    def data_ptr(self):
        return self.st.data_ptr() + self.off * 4


def test_device_tensors_share_one_host_copy():
    """CUDA tensors (GPU visible) are staged through the host once per storage, so two views of
    one device storage still alias on ttref; distinct device storages overlapping are refused."""
    k = ttref.Kernel(VADD)
    dev = _DevStorage(np.arange(2 * N, dtype=np.float32))
    ydev = _DevStorage(np.full(N, np.float32(0.5)))
    want = dev.arr.copy()
    want[N:] = want[:N] + np.float32(0.5)
    tt.run_ttir(k, (4,), {"x_ptr": _DevTensor(dev, 0), "y_ptr": _DevTensor(ydev, 0), "o_ptr": _DevTensor(dev, N), "n": N})
    assert dev.cpus == 1 and ydev.cpus == 1 and np.array_equal(dev.arr, want)
    # reading past the view: o = x[0:N] + y where x and o are one view; y reaches into o's storage
    tt.run_ttir(k, (4,), {"x_ptr": _DevTensor(dev, N), "y_ptr": _DevTensor(dev, 0), "o_ptr": _DevTensor(dev, N), "n": N})
    want[N:] = want[N:] + want[:N]
    assert dev.cpus == 2 and np.array_equal(dev.arr, want)
    inner = _DevStorage(dev.arr[16:])  # a second storage object over the same device memory
    raises(ttref.BadInput, lambda: tt.run_ttir(k, (4,), {"x_ptr": _DevTensor(dev, 0), "y_ptr": _DevTensor(inner, 0),
                                                        "o_ptr": _DevTensor(ydev, 0), "n": N}),
           "overlap in device memory")


def test_aliased_records():
    """write_aliased / replay_aliased without torch: storages as raw bytes, arguments by storage
    and byte offset; the GPU side computed by numpy through the same views."""
    st = (np.arange(3 * N, dtype=np.float32) - N).astype(np.float32)
    after = st.copy()
    after[2 * N:] = st[N:2 * N] + st[:N]  # o = x + y, x = st[N:2N], y = st[0:N], o = st[2N:3N]
    ttir = open(VADD).read()
    rec = {"kernel": "vadd", "ttir": ttir, "grid": [4], "storages": [(st, after)],
           "args": [{"name": "x_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": N * 4},
                    {"name": "y_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": 0},
                    {"name": "o_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": 2 * N * 4},
                    {"name": "n", "kind": "scalar", "value": np.int32(N)}], "meta": {"device": "numpy"}}
    suite = os.path.join(TMP, "aliased-suite")
    assert cap.write_aliased(suite, rec) == "vadd_0" and cap.write_aliased(suite, rec) == "vadd_1"
    r = cap.replay_aliased(os.path.join(suite, "aliased", "vadd_0"))
    assert r["verdict"] == "PASS" and r["storages"][0]["dtype"] == "f32" and r["storages"][0]["mode"] == "ulp", r
    # an output offset that is not a whole number of f32 elements from x's: judged as exact bytes
    bad = dict(rec, name="odd", args=[dict(a) for a in rec["args"]])
    bad["args"][1]["offset"] = 2
    bad["storages"] = [(st, st)]
    cap.write_aliased(suite, bad)
    r = cap.replay_aliased(os.path.join(suite, "aliased", "odd"))
    assert r["storages"][0]["dtype"] == "u8" and r["verdict"] == "FAIL", r
    # ttref cannot load the TTIR: UNSUPPORTED with ttref's located message, not a crash
    cap.write_aliased(suite, dict(rec, name="unsup", ttir=ttir.replace("tt.load", "tt.frobnicate", 1)))
    r = cap.replay_aliased(os.path.join(suite, "aliased", "unsup"))
    assert r["verdict"] == "UNSUPPORTED" and "tt.frobnicate" in r["reason"], r
    # a replay that faults (n past the storage) is an ERROR carrying ttref's message
    cap.write_aliased(suite, dict(rec, name="oob", grid=[8], args=rec["args"][:3] + [
        {"name": "n", "kind": "scalar", "value": 2 * N}]))
    r = cap.replay_aliased(os.path.join(suite, "aliased", "oob"))
    assert r["verdict"] == "ERROR" and "out-of-bounds" in r["reason"], r
    # malformed records are refused with one line, before anything is written
    for change, want in (({"storages": [(st, st[:5])]}, "before the launch"),
                         ({"args": rec["args"][:2] + [dict(rec["args"][2], offset=3 * N * 4 + 4)]}, "outside storage 0"),
                         ({"args": rec["args"][:2] + [dict(rec["args"][2], storage=1)]}, "storage 1 of 1"),
                         ({"storages": [(st, after), (st, after)]}, "2 storages but arguments point into 1"),
                         ({"name": "../x"}, "case name"), ({"grid": [1, 1, 1, 1]}, "1 to 3 dimensions"),
                         ({"args": [dict(rec["args"][0], dtype="c64")]}, "dtype c64")):
        e = raises(ttref.BadInput, lambda: cap.write_aliased(suite, dict(rec, **change)), want)
        assert "\n" not in str(e)
    assert sorted(os.listdir(os.path.join(suite, "aliased"))) == ["odd", "oob", "unsup", "vadd_0", "vadd_1"]
    res = cap.replay_dir(suite)
    assert [r["verdict"] for r in res] == ["FAIL", "ERROR", "UNSUPPORTED", "PASS", "PASS"], res
    # a damaged launch.json is an ERROR naming what does not fit, never a binding out of place
    lj = os.path.join(suite, "aliased", "vadd_1", "launch.json")
    good = open(lj).read()
    for path, val, want in ((("args", 0, "offset"), -4, "offset -4"), (("args", 1, "storage"), 3, "storage 3"),
                            (("args", 2, "kind"), "tensor", "kind 'tensor'"), (("storages", 0, "input"), "nope.npy", "nope.npy")):
        d = json.loads(good)
        d[path[0]][path[1]][path[2]] = val
        with open(lj, "w") as f:
            json.dump(d, f)
        r = cap.replay_aliased(os.path.dirname(lj))
        assert r["verdict"] == "ERROR" and want in r["reason"], (path, r)
    with open(lj, "w") as f:
        f.write(good[:40])
    assert cap.replay_aliased(os.path.dirname(lj))["verdict"] == "ERROR"


def test_torch_cuda_capability_without_gpu():
    """With no CUDA device, torch.cuda answers the capability and name of ttref's target (Triton's
    tests ask at import); with a device it is left alone; disable() restores it."""
    import types

    def raising(*a, **k):
        raise RuntimeError("No CUDA GPUs are available")
    for avail in (False, True):
        cuda = types.SimpleNamespace(is_available=lambda: avail, get_device_capability=raising, get_device_name=raising)
        torch = types.SimpleNamespace(cuda=cuda)
        saved = dict(tt._state)
        try:
            tt._state.update(target="cuda:80")
            tt._state.pop("torch_cuda_orig", None)
            tt._patch_torch_cuda(torch)
            if avail:
                assert cuda.get_device_capability is raising
                continue
            assert cuda.get_device_capability() == (8, 0) and cuda.get_device_capability(0) == (8, 0)
            assert "cuda:80" in cuda.get_device_name()
            tt._state["target"] = "hip:gfx942"
            assert cuda.get_device_capability() == (9, 4)
            tt._unpatch_torch_cuda()
            assert cuda.get_device_capability is raising and cuda.get_device_name is raising
        finally:
            tt._state.clear()
            tt._state.update(saved)


def test_reinterpreted_tensors():
    """Triton's TensorWrapper (triton.reinterpret, how Triton's tests pass unsigned buffers) binds
    its base tensor's memory; a captured u32 argument recorded from an int32 base is written
    with the reinterpreted dtype and the same bits."""
    import types
    base = types.SimpleNamespace(untyped_storage=lambda: None, data_ptr=lambda: 0)
    w = types.SimpleNamespace(base=base, dtype="uint32", data_ptr=lambda: 0)
    assert tt.unwrap_tensor(w) is base and tt.unwrap_tensor(base) is base
    plain = np.zeros(3, np.float32)
    assert tt.unwrap_tensor(plain) is plain
    args = [types.SimpleNamespace(name="x", kind="pointer", dtype="i32")]
    assert tt.map_arguments(args, {"x": w}) == ([("x", base)], [])
    suite = os.path.join(TMP, "reinterp")
    rec = corpus_record("int_op0")
    ptrs = [a for a in rec["args"] if a["kind"] == "ptr" and a["before"].dtype == np.int32]
    assert ptrs, rec["args"]
    ptrs[0]["dtype"] = "u32"
    name = cap.write_case(suite, rec)
    got = np.load(os.path.join(suite, name, ptrs[0]["name"] + ".in.npy"))
    assert got.dtype == np.uint32 and np.array_equal(got.view(np.int32), ptrs[0]["before"].reshape(-1))


if __name__ == "__main__":
    n = fail = 0
    for name, fn in list(globals().items()):
        if name.startswith("test_") and callable(fn):
            n += 1
            try:
                fn()
                print("ok %d - %s" % (n, name))
            except Exception as e:  # noqa: BLE001
                fail += 1
                print("not ok %d - %s: %s: %s" % (n, name, type(e).__name__, e))
    print("1..%d" % n)
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(1 if fail else 0)
