"""ttref.triton: run @triton.jit kernels on ttref, on the CPU, with no GPU, driver or ptxas.

    import ttref.triton; ttref.triton.enable()        # or TTREF_TRITON=1 in the environment
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)   # unchanged Triton code

Each launch compiles the kernel with Triton's own front end for a target (default CUDA sm90)
up to the TTIR stage only, caches the TTIR by source, specialisation, constexprs and options,
binds torch CPU tensors or numpy arrays as buffers in place (views of one storage share one
ttref allocation, pointer = storage base + offset, so strides, storage offsets and aliasing are
exact), binds scalars by the TTIR's argument names (Triton specialises constexprs, 1-valued
ints and None away) and runs the launch on ttref. Faults raise ttref.KernelFault with ttref's
located message and the Python source line. docs/triton.md.

Triton and torch are imported only when a launch needs them; the pure helpers (plan_buffers,
map_arguments, eval_grid, cache_key, run_ttir) need only numpy.
"""
import ctypes
import hashlib
import inspect
import json
import linecache
import os
import re
import sys
import threading

import numpy as np

from . import (BadInput, Error, Kernel, KernelFault, _Err, _P, _Z, _check, _lib, _literal, _grid, _raise)

__all__ = ["enable", "disable", "enabled", "plan_buffers", "map_arguments", "eval_grid", "cache_key", "run_ttir",
           "parse_target", "TTIRKernel", "CPUDriver"]

_lib.ttref_launch_buffer_at.restype = ctypes.c_int
_lib.ttref_launch_buffer_at.argtypes = [_P, ctypes.c_char_p, _P, _Z, _Z, ctypes.POINTER(_Err)]
try:
    _libc = ctypes.CDLL(None)
    _libc.fflush.argtypes = [ctypes.c_void_p]
except (OSError, AttributeError):  # pragma: no cover
    _libc = None


# ---- pure parts: buffers, arguments, grids, cache keys -----------------------------------------

def _np_extent(a):
    """(storage lo, storage hi, data pointer) of numpy array `a`: the storage is the root array
    its views come from, or the whole buffer a root wrapping foreign memory was made from
    (np.frombuffer of a bytearray, an mmap, ...), so arrays over one buffer share a storage."""
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    try:
        from numpy.lib.array_utils import byte_bounds
    except ImportError:  # numpy < 2
        byte_bounds = np.byte_bounds
    lo, hi = byte_bounds(root) if root.size else (root.__array_interface__["data"][0],) * 2
    if root.base is not None:  # foreign memory (np.frombuffer, mmap, ctypes): the whole exporting buffer
        try:
            whole = np.frombuffer(memoryview(root.base).cast("B"), np.uint8)
            wlo = whole.__array_interface__["data"][0]
            if whole.size and wlo <= lo and hi <= wlo + whole.size:
                lo, hi = wlo, wlo + whole.size
        except (TypeError, ValueError, BufferError):
            pass
    return lo, hi, a.__array_interface__["data"][0]


def _torch_extent(t):
    st = t.untyped_storage()
    lo = st.data_ptr()
    return lo, lo + st.nbytes(), t.data_ptr()


def unwrap_tensor(v):
    """Triton's TensorWrapper (`triton.reinterpret(t, tl.uint32)`, which Triton's tests use for
    unsigned and fp8 buffers): its base tensor, whose memory the kernel reads; anything else as is."""
    base = getattr(v, "base", None)
    if base is not None and not hasattr(v, "untyped_storage") and hasattr(base, "untyped_storage") \
            and hasattr(v, "data_ptr") and hasattr(v, "dtype"):
        return base
    return v


def extent(x):
    """(lo, hi, ptr) of a tensor-like argument: numpy arrays, torch tensors (their untyped
    storage), or objects with data_ptr() and nbytes_storage (tests)."""
    if isinstance(x, _NpArg):
        x = x.array
    if isinstance(x, np.ndarray):
        return _np_extent(x)
    if hasattr(x, "untyped_storage"):
        return _torch_extent(x)
    if hasattr(x, "ttref_extent"):
        return x.ttref_extent()
    raise BadInput("error: cannot bind a %s as a buffer (give a torch CPU tensor or a numpy array)" % type(x).__name__)


def plan_buffers(views):
    """Group buffer arguments into storages. `views` is a list of (name, lo, hi, ptr): the
    storage byte range [lo, hi) the argument lives in and its data pointer. Overlapping ranges
    merge into one storage, so arguments that alias share one ttref allocation. Returns
    (storages, binding): storages a list of (lo, hi) sorted by lo; binding maps each name to
    (storage index, byte offset of ptr in it). O(n log n)."""
    order = sorted(range(len(views)), key=lambda i: (views[i][1], views[i][2]))
    storages, which = [], {}
    for i in order:
        name, lo, hi, ptr = views[i]
        if not lo <= ptr <= hi:
            raise BadInput("error: buffer '%s': data pointer 0x%x is outside its storage [0x%x, 0x%x)" % (name, ptr, lo, hi))
        if storages and lo < storages[-1][1] or (storages and lo == storages[-1][0]):
            slo, shi = storages[-1]
            storages[-1] = (slo, max(shi, hi))
        else:
            storages.append((lo, hi))
        which[name] = len(storages) - 1
    binding = {name: (which[name], ptr - storages[which[name]][0]) for name, lo, hi, ptr in views}
    return storages, binding


def map_arguments(kernel_args, params):
    """Bind a TTIR signature to a launch's Python arguments. `kernel_args`: the TTIR arguments
    (ttref.Arg: name, kind, dtype); `params`: name -> value of every Python parameter (Triton's
    bound arguments, constexprs included). Arguments Triton specialised away (constexprs,
    1-valued ints, None) are simply not in the TTIR. Returns (buffers, scalars): lists of
    (name, value) in TTIR order. Raises BadInput naming the argument."""
    buffers, scalars = [], []
    for a in kernel_args:
        if a.name not in params:
            raise BadInput("error: TTIR argument '%s' is not a parameter of the Python kernel (%s)"
                           % (a.name, ", ".join(params)))
        v = params[a.name]
        if a.kind == "pointer":
            if v is None or isinstance(v, (bool, int, float)):
                raise BadInput("error: argument '%s' is a !tt.ptr<%s> in the TTIR but %r was passed" % (a.name, a.dtype, v))
            buffers.append((a.name, unwrap_tensor(v)))
        elif a.kind == "scalar":
            if hasattr(v, "value") and not isinstance(v, (np.ndarray, np.generic)):
                v = v.value  # tl.constexpr
            scalars.append((a.name, v))
        else:
            raise BadInput("error: argument '%s' has a type ttref cannot bind from Python (tensor descriptor?)" % a.name)
    return buffers, scalars


def eval_grid(grid, meta):
    """The launch grid (x, y, z) of Triton's `grid`: an int, a tuple of 1-3 ints, or a callable
    of META (the launch's bound arguments, constexprs included) returning one of those."""
    g = grid(meta) if callable(grid) else grid
    if isinstance(g, (list, tuple)):
        g = tuple(int(v.value if hasattr(v, "value") else v) for v in g)
    return _grid(g)


def cache_key(source_hash, signature, constexprs, options, target):
    """Key of one compiled TTIR: the kernel source (with its dependencies' hash), the
    specialisation (types, alignment and value keys), the constexprs, the compile options and
    the target. Stable across processes (sha256 of a canonical JSON)."""
    def canon(v):
        if isinstance(v, dict):
            return {str(k): canon(x) for k, x in sorted(v.items(), key=lambda kv: str(kv[0]))}
        if isinstance(v, (list, tuple)):
            return [canon(x) for x in v]
        if isinstance(v, (int, float, bool, str)) or v is None:
            return v
        return repr(v)
    blob = json.dumps([source_hash, canon(signature), canon(constexprs), canon(options), str(target)], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def parse_target(spec):
    """'cuda:90' (default), 'cuda:80', 'hip:gfx942' or 'hip:gfx942:64' -> (backend, arch, warp_size)."""
    parts = (spec or "cuda:90").split(":")
    backend = parts[0]
    if backend not in ("cuda", "hip") or len(parts) < 2 or len(parts) > 3:
        raise BadInput("error: bad target '%s' (cuda:ARCH such as cuda:90, or hip:GFX[:WARP])" % spec)
    if backend == "cuda":
        if not parts[1].isdigit():
            raise BadInput("error: bad target '%s': the CUDA arch is a number (cuda:90)" % spec)
        return ("cuda", int(parts[1]), int(parts[2]) if len(parts) > 2 else 32)
    return ("hip", parts[1], int(parts[2]) if len(parts) > 2 else 64)


_SRCLOC = re.compile(r"([^\s:'\"()]+\.py):(\d+):(\d+)")


def source_line(message):
    """'FILE.py:LINE:COL' of the last Python location named in a ttref message, with that
    source line (linecache), or None."""
    found = _SRCLOC.findall(message)
    if not found:
        return None
    path, line, col = found[-1]
    text = linecache.getline(path, int(line)).rstrip()
    return "%s:%s:%s%s" % (path, line, col, (": " + text.strip()) if text else "")


def _flush_c_stdout():
    if _libc is not None:
        _libc.fflush(None)


def run_ttir(kernel, grid, params, *, threads=None, check_races=False, max_steps=None):
    """Run ttref.Kernel `kernel` over `grid` with the Python arguments `params` (name -> value),
    binding buffers in place by storage and offset (plan_buffers) and scalars by TTIR name
    (map_arguments). Raises KernelFault / BadInput with ttref's message; for a fault the
    message ends with the Python source line."""
    buffers, scalars = map_arguments(kernel.args, params)
    gx, gy, gz = _grid(grid)
    staged = {}  # device storage base -> (device storage, its one host copy), for non-CPU torch tensors
    views = []
    for name, v in buffers:
        if hasattr(v, "device") and getattr(v.device, "type", "cpu") != "cpu" and hasattr(v, "untyped_storage"):
            st = v.untyped_storage()
            key = (getattr(v.device, "type", "?"), getattr(v.device, "index", None), st.data_ptr())
            if key not in staged:  # views of one device storage share one host copy, so they alias on ttref too
                staged[key] = (st, st.cpu())
            host = staged[key][1]
            lo = host.data_ptr()
            views.append((name, lo, lo + host.nbytes(), lo + (v.data_ptr() - st.data_ptr())))
        else:
            lo, hi, ptr = extent(v)
            views.append((name, lo, hi, ptr))
    dev = sorted((k[:2], st.data_ptr(), st.data_ptr() + st.nbytes()) for k, (st, _) in staged.items())
    for (d1, _, hi1), (d2, lo2, _) in zip(dev, dev[1:]):
        if d1 == d2 and lo2 < hi1:
            raise BadInput("error: two device storages of the arguments overlap in device memory; ttref cannot alias "
                           "their host copies (move the tensors to the CPU)")
    storages, binding = plan_buffers(views)
    err = _Err()
    launch = _lib.ttref_launch_new(kernel._k, ctypes.byref(err))
    if not launch:
        _raise(err)
    try:
        for name, _ in buffers:
            s, off = binding[name]
            lo, hi = storages[s]
            _check(_lib.ttref_launch_buffer_at(launch, name.encode(), ctypes.c_void_p(lo) if hi > lo else None,
                                               hi - lo, off, ctypes.byref(err)), err)
        for name, v in scalars:
            _check(_lib.ttref_launch_scalar(launch, name.encode(), _literal(v).encode(), ctypes.byref(err)), err)
        for opt, value in (("threads", threads or 0), ("check_races", check_races), ("max_steps", max_steps or 0)):
            _check(_lib.ttref_launch_set(launch, _lib.ttref_option_lookup(opt.encode()), int(value),
                                         ctypes.byref(err)), err)
        sys.stdout.flush()
        st = _lib.ttref_launch_run(launch, gx, gy, gz, ctypes.byref(err))
        _flush_c_stdout()
        if st != 0:
            try:
                _raise(err, st)
            except KernelFault as e:
                src = source_line(e.message + "\n" + e.note)
                msg = e.message + ("\n" + e.note if e.note else "") + ("\npython: " + src if src else "")
                raise KernelFault(msg, e.status, e.note) from None
    finally:
        _lib.ttref_launch_free(launch)
        for st, host in staged.values():
            st.copy_(host)


# ---- Triton -------------------------------------------------------------------------------------

GPU_ARTIFACT = "ttref.triton stops at TTIR"


class _Asm(dict):
    """CompiledKernel.asm with only "ttir": asking for a GPU stage (ptx, cubin, ttgir, llir)
    raises a KeyError that says why, which tests that inspect the generated code report."""

    def __missing__(self, key):
        raise KeyError("%s: no %r on the CPU (a GPU compilation stage; run the test on the GPU to check it)"
                       % (GPU_ARTIFACT, key))


class TTIRKernel:
    """What a patched launch returns in place of Triton's CompiledKernel: name, asm["ttir"],
    the ttref.Kernel, the TTIR file, the constexprs and the signature it was compiled for."""

    def __init__(self, name, ttir, path, kernel, signature, constexprs):
        self.name, self.asm, self.path, self.kernel = name, _Asm(ttir=ttir), path, kernel
        self.signature, self.constexprs = signature, constexprs
        self.metadata = {"name": name, "target": _state.get("target")}


class _NpArg:
    """A numpy array as Triton's specialiser sees a tensor (data_ptr, dtype)."""

    def __init__(self, array):
        self.array = array
        self.dtype = array.dtype

    def data_ptr(self):
        return self.array.__array_interface__["data"][0]


_state = {}
_lock = threading.Lock()


def _env_config():
    v = os.environ.get("TTREF_TRITON_CONFIG")
    return int(v) if v not in (None, "") else None


def _cache_dir():
    d = _state.get("cache_dir") or os.environ.get("TTREF_TRITON_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "ttref", "triton")
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        import tempfile
        d = os.path.join(tempfile.gettempdir(), "ttref-triton-%d" % os.getuid())
        os.makedirs(d, exist_ok=True)
    return d


def _paths_if(vals, pred):
    try:
        from triton._utils import find_paths_if
        return find_paths_if(vals, pred)
    except ImportError:  # flat fallback
        return [(i,) for i, v in enumerate(vals) if pred((i,), v)]


def _get_path(vals, path):
    try:
        from triton._utils import get_iterable_path
        return get_iterable_path(vals, path)
    except ImportError:
        for p in path:
            vals = vals[p]
        return vals


def _backend():
    b = _state.get("backend")
    if b is None:
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import make_backend
        kind, arch, warp = parse_target(_state.get("target"))
        target = GPUTarget(kind, arch, warp)
        b = (target, make_backend(target))
        _state["backend"] = b
    return b


def _to_ttir(jitfn, signature, constexprs, attrs, options):
    """Triton's front end up to the TTIR stage, as triton.compile runs it, for the target."""
    from triton._C.libtriton import ir
    from triton.compiler.compiler import ASTSource
    target, backend = _backend()
    src = ASTSource(jitfn, signature, constexprs, attrs)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    codegen_fns = backend.get_codegen_implementation(options)
    module_map = backend.get_module_map()
    if len(inspect.signature(src.make_ir).parameters) >= 5:
        module = src.make_ir(target, options, codegen_fns, module_map, context)
    else:
        module = src.make_ir(options, codegen_fns, module_map, context)
    stages = {}
    if len(inspect.signature(backend.add_stages).parameters) >= 3:
        lang = getattr(src, "language", None)
        if lang is None:
            from triton.backends.compiler import Language
            lang = Language.TRITON
        backend.add_stages(stages, options, lang)
    else:
        backend.add_stages(stages, options)
    metadata = {"hash": "ttref", "target": target, **options.__dict__}
    module = stages["ttir"](module, metadata)
    return str(module)


def _fingerprint():
    """What else decides the TTIR of one key: the Triton version and the environment variables
    Triton itself lets invalidate its cache (TRITON_*), so the disk cache follows Triton's."""
    f = _state.get("fingerprint")
    if f is None:
        import triton
        try:
            from triton._C.libtriton import get_cache_invalidating_env_vars
            env = get_cache_invalidating_env_vars()
        except (ImportError, AttributeError):
            env = {k: v for k, v in os.environ.items() if k.startswith("TRITON_")}
        f = json.dumps([getattr(triton, "__version__", "?"), sorted(env.items())])
        _state["fingerprint"] = f
    return f


def _binder(jitfn):
    b = jitfn.__dict__.get("_ttref_binder")
    if b is None:
        from triton.runtime.jit import create_function_from_signature
        b = create_function_from_signature(jitfn.signature, jitfn.params, _backend()[1])
        jitfn.__dict__["_ttref_binder"] = b
    return b


def _wrap(v):
    return _NpArg(v) if isinstance(v, np.ndarray) else v


def _unwrap(v):
    return v.array if isinstance(v, _NpArg) else v


def _jit_run(self, *args, grid, warmup, **kwargs):
    """JITFunction.run on ttref: compile to TTIR (cached), bind, run."""
    try:
        from triton import knobs
        dbg = knobs.runtime.debug
    except (ImportError, AttributeError):
        dbg = os.environ.get("TRITON_DEBUG", "0") == "1"
    kwargs["debug"] = kwargs.get("debug", self.debug) or dbg
    for hook in getattr(self, "pre_run_hooks", []):
        hook(*args, **kwargs)
    args = tuple(_wrap(a) for a in args)
    kwargs = {k: _wrap(v) for k, v in kwargs.items()}
    target, backend = _backend()
    bound_args, specialization, options = _binder(self)(*args, **kwargs)
    sigkeys = [p.name for p in self.params]
    sigvals = [s[0] for s in specialization]
    signature = dict(zip(sigkeys, sigvals))
    cpaths = _paths_if(sigvals, lambda _, v: v == "constexpr")
    constexprs = {p: _get_path(list(bound_args.values()), p) for p in cpaths}
    key = cache_key(self.cache_key, specialization, constexprs, options, "%s|%s" % (_state.get("target"), _fingerprint()))
    cache = self.__dict__.setdefault("_ttref_cache", {})
    k = cache.get(key)
    if k is None:
        opts = backend.parse_options(kwargs)
        for kw in kwargs:
            if kw not in opts.__dict__ and kw not in sigkeys:
                raise KeyError("Keyword argument %s was specified but unrecognised" % kw)
        name = self.fn.__name__
        path = os.path.join(_cache_dir(), "%s-%s.ttir" % (name, key[:16]))
        ttir = None
        if os.path.isfile(path):  # compiled by an earlier process: same key, same TTIR
            with open(path) as f:
                ttir = f.read()
        if not ttir:
            attrvals = [s[1] for s in specialization]
            apaths = _paths_if(attrvals, lambda _, x: isinstance(x, str))
            attrs = {p: backend.parse_attr(_get_path(attrvals, p)) for p in apaths}
            with _lock:
                ttir = _to_ttir(self, signature, constexprs, attrs, opts)
            tmp = "%s.%d.tmp" % (path, os.getpid())
            with open(tmp, "w") as f:
                f.write(ttir)
            os.replace(tmp, path)  # readers never see a partial file
        m = re.search(r"\btt\.func\s+public\s+@([\w.$-]+)", ttir)  # Triton names the kernel by fn.repr (jit's repr=)
        k = TTIRKernel(m.group(1) if m else name, ttir, path, Kernel(path), signature, constexprs)
        cache[key] = k
    if warmup:
        return k
    meta = {n: _unwrap(v) for n, v in bound_args.items()}
    g = eval_grid(grid, meta)
    run_ttir(k.kernel, g, meta, threads=_state.get("threads"), check_races=_state.get("check_races", False),
             max_steps=_state.get("max_steps"))
    return k


def _autotune_run(self, *args, **kwargs):
    """Autotuner.run on ttref: no benchmarking; the config chosen by enable(config=) or
    TTREF_TRITON_CONFIG (default 0), indexing the configs left by the autotuner's
    early_config_prune (prune_configs_by) when it has one."""
    self.nargs = dict(zip(self.arg_names, args))
    configs = list(self.configs)
    prune = getattr(self, "early_config_prune", None)
    if prune and len(configs) > 1:  # as Triton prunes before benchmarking (its perf_model is not run)
        ps = inspect.signature(prune).parameters.values()
        takes_kw = any(p.kind == p.VAR_KEYWORD for p in ps)
        configs = list(prune(self.configs, self.nargs, **kwargs) if takes_kw else prune(self.configs, self.nargs))
        if not configs:
            raise BadInput("error: the autotuner's early_config_prune left no config")
    idx = _state.get("config")
    if idx is None:
        idx = _env_config() or 0
    if not 0 <= idx < len(configs):
        raise BadInput("error: autotune config %d of %d (TTREF_TRITON_CONFIG)" % (idx, len(configs)))
    config = configs[idx]
    self.best_config = config
    ckw = config.all_kwargs() if hasattr(config, "all_kwargs") else {**config.kwargs, "num_warps": config.num_warps,
                                                                       "num_stages": config.num_stages}
    if config.pre_hook is not None:
        config.pre_hook({**self.nargs, **kwargs, **ckw})
    return self.fn.run(*args, **kwargs, **ckw)


class CPUDriver:
    """Triton's active driver when no GPU driver is active (the GPU hidden, a laptop): host code
    that asks it what it runs on (`triton.runtime.driver.active.get_active_torch_device()`,
    `get_current_target()`, as the tutorials and Triton's tests do at import) gets the CPU and
    the ttref target instead of "0 active drivers". Anything else needs a GPU and is refused by
    name (an AttributeError, so hasattr() probes still work)."""

    def __init__(self, target):
        self.target = parse_target(target)

    def is_active(self):
        return True

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget
        return GPUTarget(*self.target)

    def get_active_torch_device(self):
        try:
            import torch
            return torch.device("cpu")
        except ImportError:
            return "cpu"

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_capability(self, device=0):
        kind, arch, _ = self.target
        return (arch // 10, arch % 10) if kind == "cuda" else (9, 4)

    @property
    def utils(self):
        return _TargetUtils(self.target)

    def __getattr__(self, name):
        raise AttributeError("triton.runtime.driver.active.%s needs a GPU: ttref's CPU driver (TTREF_TRITON, no GPU "
                             "driver active) answers get_current_target, get_active_torch_device, get_current_device, "
                             "get_current_stream and get_device_capability" % name)


# Per-target limits host code reads to pick configs (Triton's tests skip blocks that would not fit
# in shared memory): the documented figures of the GPU the target names, not of this CPU.
_TARGET_PROPS = {
    ("cuda", 90): {"max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 132, "warpSize": 32,
                   "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 5120},
    ("cuda", 80): {"max_shared_mem": 166912, "max_num_regs": 65536, "multiprocessor_count": 108, "warpSize": 32,
                   "sm_clock_rate": 1410000, "mem_clock_rate": 1593000, "mem_bus_width": 5120},
}


class _TargetUtils:
    """CPUDriver.utils: get_device_properties answers for the target (H100 for cuda:90, A100 for
    cuda:80); anything else needs a GPU."""

    def __init__(self, target):
        self.target = target

    def get_device_properties(self, device=0):
        props = _TARGET_PROPS.get(tuple(self.target[:2]))
        if props is None:
            raise AttributeError("triton.runtime.driver.active.utils.get_device_properties: ttref knows no device "
                                 "properties for target %s:%s" % tuple(self.target[:2]))
        return dict(props)

    def __getattr__(self, name):
        raise AttributeError("triton.runtime.driver.active.utils.%s needs a GPU: ttref's CPU driver answers "
                             "utils.get_device_properties only" % name)


def _driver_config():
    """Triton's DriverConfig (triton.runtime.driver.driver; `triton.runtime.driver` itself is
    that object once triton.runtime is imported, so go through the module), or None."""
    import importlib
    try:
        return getattr(importlib.import_module("triton.runtime.driver"), "driver", None)
    except ImportError:
        return None


class _DriverChoice:
    """Triton's active driver under ttref.triton: the GPU driver when one is active, else
    CPUDriver, chosen on first use, so enable() neither initialises CUDA nor imports torch."""

    def __init__(self, holder, orig, target):
        self._holder, self._orig, self._cpu, self._chosen = holder, orig, CPUDriver(target), None

    def _choose(self):
        if self._chosen is None:
            try:
                d = self._orig if self._orig is not None else self._holder.default
                d.get_current_target()
                self._chosen = d
            except Exception:  # noqa: BLE001 - "0 active drivers", no torch, a broken driver: the CPU
                self._chosen = self._cpu
        return self._chosen

    def __getattr__(self, name):
        return getattr(self._choose(), name)


def _install_driver():
    """Put _DriverChoice in as Triton's active driver; True if it did (a Triton with a
    DriverConfig: triton.runtime.driver.driver)."""
    holder = _driver_config()
    if holder is None:
        return False
    if isinstance(getattr(type(holder), "active", None), property):
        _state["driver_orig"] = None  # Triton 3.2+: the active driver is made on first use; set_active(None) restores that
    else:
        _state["driver_orig"] = holder.active  # older Triton: a lazy proxy, not initialised by this
    choice = _DriverChoice(holder, _state["driver_orig"], _state["target"])
    if hasattr(holder, "set_active"):
        holder.set_active(choice)
    else:
        holder.active = choice
    return True


def _patch_torch_cuda(torch):
    """With no CUDA device (the GPU hidden, a laptop), `torch.cuda.get_device_capability()` and
    `get_device_name()` answer for ttref's target instead of raising "No CUDA GPUs are
    available": host code that picks a code path by the device's capability (Triton's own tests
    do at import, `supports_tma()`) takes the path of the target the kernels are compiled for.
    Nothing changes where a CUDA device exists. Undone by disable()."""
    cuda = getattr(torch, "cuda", None)
    if cuda is None or _state.get("torch_cuda_orig") is not None:
        return
    try:
        if cuda.is_available():
            return
    except Exception:  # noqa: BLE001 - a broken CUDA install counts as none
        pass
    _state["torch_cuda_orig"] = (cuda, cuda.get_device_capability, cuda.get_device_name)

    def get_device_capability(device=None):
        kind, arch, _ = parse_target(_state["target"])
        return (arch // 10, arch % 10) if kind == "cuda" else (9, 4)

    def get_device_name(device=None):
        return "ttref CPU (%s)" % _state["target"]
    cuda.get_device_capability, cuda.get_device_name = get_device_capability, get_device_name


def _unpatch_torch_cuda():
    orig = _state.pop("torch_cuda_orig", None)
    if orig is not None:
        cuda, orig_cap, orig_name = orig
        cuda.get_device_capability, cuda.get_device_name = orig_cap, orig_name


def enabled():
    return bool(_state.get("on"))


def enable(target=None, config=None, threads=None, check_races=False, max_steps=None, cache_dir=None):
    """Route every Triton launch of this process through ttref. `target`: 'cuda:90' (default,
    or $TTREF_TRITON_TARGET), 'cuda:80', 'hip:gfx942'; `config`: index of the autotune config
    to run (default $TTREF_TRITON_CONFIG or 0); `threads`, `check_races`, `max_steps`: ttref
    launch options; `cache_dir`: where compiled .ttir files go (default $TTREF_TRITON_CACHE or
    ~/.cache/ttref/triton)."""
    import triton.runtime.jit as jit
    from triton.runtime import autotuner
    if os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
        raise BadInput("error: TTREF_TRITON and TRITON_INTERPRET=1 are exclusive (unset TRITON_INTERPRET)")
    _state.update(target=target or os.environ.get("TTREF_TRITON_TARGET") or "cuda:90", config=config,
                  threads=threads if threads is not None else int(os.environ.get("TTREF_TRITON_THREADS", "0") or 0),
                  check_races=check_races, max_steps=max_steps, cache_dir=cache_dir, backend=None, fingerprint=None)
    parse_target(_state["target"])
    if not _state.get("on"):
        _state["orig"] = (jit.JITFunction.run, autotuner.Autotuner.run)
        jit.JITFunction.run = _jit_run
        autotuner.Autotuner.run = _autotune_run
        _state["on"] = True
        _state["driver"] = _install_driver()
        if "torch" in sys.modules:  # enable() imports no torch; the pytest plugin patches after importing it
            _patch_torch_cuda(sys.modules["torch"])
    elif _state.get("driver"):
        holder = _driver_config()
        if holder is not None and isinstance(holder.active, _DriverChoice):
            holder.active._cpu.target = parse_target(_state["target"])  # a new target for the CPU driver


def disable():
    """Give Triton its own launcher back."""
    if _state.get("on"):
        import triton.runtime.jit as jit
        from triton.runtime import autotuner
        jit.JITFunction.run, autotuner.Autotuner.run = _state["orig"]
        _state["on"] = False
        _unpatch_torch_cuda()
        if _state.pop("driver", False):
            holder, orig = _driver_config(), _state.pop("driver_orig", None)
            if holder is not None and hasattr(holder, "set_active"):
                holder.set_active(orig)
            elif holder is not None:
                holder.active = orig


class _ImportHook:
    """TTREF_TRITON=1: enable() as soon as `triton` has been imported (installed by ttref_triton.pth)."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "triton":
            return None
        import importlib.machinery
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        orig_exec = loader.exec_module

        def exec_module(module):
            orig_exec(module)
            enable()
        loader.exec_module = exec_module
        return spec


def install_import_hook():
    if "triton" in sys.modules:
        enable()
    elif not any(isinstance(h, _ImportHook) for h in sys.meta_path):
        sys.meta_path.insert(0, _ImportHook())
