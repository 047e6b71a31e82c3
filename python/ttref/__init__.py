"""ttref: run Triton TTIR kernels on the CPU with exact, documented semantics.

A ctypes binding of libttref's public C API (ttref.h); needs only numpy.

    import numpy as np, ttref
    out = ttref.run("vadd.ttir", 4, {"x_ptr": x, "y_ptr": y, "o_ptr": np.zeros_like(x), "n": 4096})
    v = ttref.compare(out["o_ptr"], expected, "ulp", ulp=1)

Pointer arguments take numpy arrays (copied: your arrays are never written); bf16 and fp8
buffers travel as raw bits (uint16 / uint8; `decode` turns them into float64). Scalars take
Python ints, floats, bools or literal strings. Errors raise `Error` (`KernelFault` for a fault
of the kernel, `BadInput` for bad kernels, arguments or options) with the located message.
Library: $TTREF_LIB, else the one installed with this package, else the loader's search path;
`compare` also loads libttref_conform (the judge), from $TTREF_CONFORM_LIB or next to libttref.
"""
import ctypes
import ctypes.util
import os
import shutil

import numpy as np

__all__ = ["Error", "KernelFault", "BadInput", "Kernel", "Verdict", "run", "compare", "decode", "version"]


class Error(Exception):
    """A ttref call failed; str(e) is the located message ("file:line:col: error: ...")."""

    def __init__(self, message, status="error", note=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.note = note


class KernelFault(Error):
    """The kernel faulted (out-of-bounds access, failed assert, max_steps, race)."""


class BadInput(Error):
    """A bad kernel, argument, literal, option or mode."""


# ---- the library ---------------------------------------------------------------------------

def _installed():
    try:
        from . import _install  # written by `make install`
        return _install
    except ImportError:
        return None


def _find_library():
    env = os.environ.get("TTREF_LIB")
    if env:
        return env
    inst = _installed()
    if inst:
        for name in ("libttref.so.0", "libttref.so", "libttref.dylib"):
            p = os.path.join(inst.LIBDIR, name)
            if os.path.exists(p):
                return p
    found = ctypes.util.find_library("ttref")
    if found:
        return found
    raise ImportError("ttref: cannot find libttref (set TTREF_LIB to the path of libttref.so)")


def _find_conform_library(lib):
    """libttref_conform (ttref_compare) for the libttref at `lib`: the same name with
    libttref_conform for libttref, in the same folder, else the loader's search path."""
    env = os.environ.get("TTREF_CONFORM_LIB")
    if env:
        return env
    d, b = os.path.split(lib)
    p = os.path.join(d, b.replace("libttref", "libttref_conform", 1))
    if not d or os.path.exists(p):
        return p
    found = ctypes.util.find_library("ttref_conform")
    if found:
        return found
    raise Error("ttref: cannot find libttref_conform next to %s (set TTREF_CONFORM_LIB)" % lib)


def _find_binary():
    env = os.environ.get("TTREF_BIN")
    if env:
        return env
    inst = _installed()
    if inst and os.path.exists(os.path.join(inst.BINDIR, "ttref")):
        return os.path.join(inst.BINDIR, "ttref")
    found = shutil.which("ttref")
    if found:
        return found
    raise Error("ttref: cannot find the ttref program (set TTREF_BIN)")


class _Loc(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char_p), ("line", ctypes.c_int), ("col", ctypes.c_int)]


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("loc", _Loc), ("msg", ctypes.c_char * 512), ("note", ctypes.c_char * 512)]


class _Verdict(ctypes.Structure):
    _fields_ = [("pass_", ctypes.c_int), ("quality_warning", ctypes.c_int), ("worst_index", ctypes.c_int64),
                ("worst_got", ctypes.c_double), ("worst_ref", ctypes.c_double), ("worst_bound", ctypes.c_double),
                ("worst_err", ctypes.c_double), ("max_ratio", ctypes.c_double), ("mean_ulp", ctypes.c_double),
                ("max_ulp", ctypes.c_double), ("reason", ctypes.c_char * 256)]


class _Stats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int64) for n in ("programs", "ub_div_zero", "ub_div_overflow", "ub_shift",
                                               "ub_fptoi", "ub_masked_other", "ub_poison", "races")]


_lib_path = _find_library()
_lib = ctypes.CDLL(_lib_path)
_P, _S, _I, _Z = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
_E = ctypes.POINTER(_Err)
_DP = ctypes.POINTER(ctypes.POINTER(ctypes.c_double))
for _name, _res, _args in [
    ("ttref_version", _S, []),
    ("ttref_status_str", _S, [_I]),
    ("ttref_kernel_load", _P, [_S, _S, _E]),
    ("ttref_kernel_parse", _P, [_S, _Z, _S, _S, _E]),
    ("ttref_kernel_free", None, [_P]),
    ("ttref_kernel_name", _S, [_P]),
    ("ttref_kernel_nargs", _I, [_P]),
    ("ttref_kernel_arg_name", _S, [_P, _I]),
    ("ttref_kernel_arg_kind", _I, [_P, _I]),
    ("ttref_kernel_arg_type", _S, [_P, _I]),
    ("ttref_kernel_arg_elem_bytes", _I, [_P, _I]),
    ("ttref_kernel_arg_index", _I, [_P, _S]),
    ("ttref_option_lookup", _I, [_S]),
    ("ttref_launch_new", _P, [_P, _E]),
    ("ttref_launch_buffer", _I, [_P, _S, _P, _Z, _E]),
    ("ttref_launch_scalar", _I, [_P, _S, _S, _E]),
    ("ttref_launch_set", _I, [_P, _I, ctypes.c_int64, _E]),
    ("ttref_launch_run", _I, [_P, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32, _E]),
    ("ttref_launch_precise", _I, [_P, _S, _DP, _DP, ctypes.POINTER(_Z), _E]),
    ("ttref_launch_stats", _I, [_P, ctypes.POINTER(_Stats), _E]),
    ("ttref_launch_stat", ctypes.c_int64, [_P, _I]),
    ("ttref_launch_free", None, [_P]),
    ("ttref_kernel_load_fx", _P, [_S, _P, _E]),
    ("ttref_kernel_load_ex", _P, [_S, _S, _P, _E]),
    ("ttref_kernel_parse_ex", _P, [_S, _Z, _S, _S, _P, _E]),
    ("ttref_registry_new", _P, [_E]),
    ("ttref_registry_load", _I, [_P, _S, _E]),
    ("ttref_registry_free", None, [_P]),
]:
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args

_conform_lib = None


def _conform():
    """libttref_conform, loaded on first use (ttref_compare lives in the harness's library)."""
    global _conform_lib
    if _conform_lib is None:
        try:
            lib = ctypes.CDLL(_find_conform_library(_lib_path))
        except OSError as e:
            raise Error("ttref: cannot load libttref_conform: %s (set TTREF_CONFORM_LIB)" % e) from None
        lib.ttref_compare.restype = _I
        lib.ttref_compare.argtypes = [_S, _S, _P, _P, _Z, _P, _P, _S, ctypes.POINTER(_Verdict), _E]
        _conform_lib = lib
    return _conform_lib

_STATUS = {}
for _i in range(64):
    _s = _lib.ttref_status_str(_i).decode()
    if _s == "<invalid>":
        break
    _STATUS[_i] = _s
_FAULT = [k for k, v in _STATUS.items() if v == "kernel fault"][0]
_BAD = {k for k, v in _STATUS.items() if v in ("usage error", "syntax error", "verification failed", "bad input",
                                                "i/o error", "unsupported construct")}


def _raise(err, status=None):
    code = err.code if status is None else status
    msg = err.msg.decode(errors="replace") or "error: " + _STATUS.get(code, "failure")
    cls = KernelFault if code == _FAULT else BadInput if code in _BAD else Error
    raise cls(msg, _STATUS.get(code, "error"), err.note.decode(errors="replace"))


def _check(status, err):
    if status != 0:
        _raise(err, status)


def version():
    """The library's version string."""
    return _lib.ttref_version().decode()


# ---- bf16 / fp8 raw bits ---------------------------------------------------------------------

# name: (exponent bits, mantissa bits, bias, NaN encoding) as in interp/fp_format_list.h
_FP8 = {"f8E4M3FN": (4, 3, 7, "fn"), "f8E5M2": (5, 2, 15, "ieee"),
        "f8E4M3FNUZ": (4, 3, 8, "fnuz"), "f8E5M2FNUZ": (5, 2, 16, "fnuz")}


def _fp8_table(name):
    eb, mb, bias, nan = _FP8[name]
    c = np.arange(256, dtype=np.int64)
    s = np.where(c >> 7, -1.0, 1.0)
    e = (c >> mb) & ((1 << eb) - 1)
    f = (c & ((1 << mb) - 1)).astype(np.float64)
    v = np.where(e == 0, np.ldexp(f, 1 - bias - mb), np.ldexp(1.0 + f / (1 << mb), e - bias)) * s
    emax, fmax = (1 << eb) - 1, (1 << mb) - 1
    if nan == "ieee":
        v = np.where((e == emax) & (f == 0), s * np.inf, v)
        v = np.where((e == emax) & (f != 0), np.nan, v)
    elif nan == "fn":
        v = np.where((e == emax) & (f == fmax), np.nan, v)
    else:
        v = np.where(c == 0x80, np.nan, v)
    return v


def decode(bits, dtype):
    """The float64 values of raw-bit array `bits` of ttref dtype `dtype`
    ("bf16", "f16", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ"; "f32"/"f64" pass through)."""
    a = np.asarray(bits)
    with np.errstate(invalid="ignore"):  # signaling NaNs widen quietly
        if dtype == "bf16":
            return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        if dtype == "f16":
            return a.astype(np.uint16).view(np.float16).astype(np.float64)
        if dtype in ("f32", "f64"):
            return a.astype(np.float64)
    if dtype in _FP8:
        return _fp8_table(dtype)[a.astype(np.uint8)]
    raise BadInput("error: decode: unknown dtype '%s'" % dtype)


# numpy dtype -> ttref dtype when the caller does not say
_NP2TT = {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
          np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
          np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16", np.dtype(np.uint32): "u32",
          np.dtype(np.uint64): "u64", np.dtype(np.bool_): "bool"}


# ---- kernels and launches ----------------------------------------------------------------------

def _literal(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, str):
        return v
    raise BadInput("error: scalar argument of Python type %s: give an int, float, bool or literal string"
                   % type(v).__name__)


def _grid(grid):
    g = (grid,) if isinstance(grid, (int, np.integer)) else tuple(grid)
    if not 1 <= len(g) <= 3 or any(int(x) < 0 for x in g):
        raise BadInput("error: grid must be an int or 1 to 3 non-negative ints, not %r" % (grid,))
    g = tuple(int(x) for x in g) + (1,) * (3 - len(g))
    if any(x >= 2 ** 31 for x in g):
        raise BadInput("error: grid %r: each dimension must be below 2^31" % (grid,))
    return g


class Arg:
    """One kernel argument: name, kind ("pointer", "scalar", "other"), dtype (element type of a
    pointer, type of a scalar) and elem_bytes."""

    def __init__(self, name, kind, dtype, elem_bytes):
        self.name, self.kind, self.dtype, self.elem_bytes = name, kind, dtype, elem_bytes

    def __repr__(self):
        return "Arg(%r, %r, %r)" % (self.name, self.kind, self.dtype)


class _FxOptions(ctypes.Structure):
    _fields_ = [("syms", ctypes.POINTER(_S)), ("nsyms", _I), ("dtypes", ctypes.POINTER(_S)), ("ndtypes", _I),
                ("oob_zero", _I)]


def _strings(pairs):
    items = [("%s=%s" % (k, v)).encode() for k, v in (pairs or {}).items()]
    return (_S * max(len(items), 1))(*items), len(items)


class Kernel:
    """A loaded, verified kernel, for repeated launches.

    `kernel` is a .ttir path, TTIR text or a traced kernel (.fx path); `function` the tt.func to
    launch (default: the first public one). Traced kernels take `syms` ({"M": 64}: every shape
    symbol), `dtypes` ({"x": "f16"}: buffer element types) and `oob` ("error" or "zero"), as
    `ttref run --sym/--dtype/--oob`. `ops` is a list of vendor-ops plugins (.so; docs/api.md)."""

    def __init__(self, kernel, function=None, *, syms=None, dtypes=None, oob=None, ops=None):
        self._k = self._reg = None
        err = _Err()
        fn = function.encode() if function else None
        text = kernel.decode() if isinstance(kernel, bytes) else str(kernel)
        if ops:
            self._reg = _lib.ttref_registry_new(ctypes.byref(err))
            if not self._reg:
                _raise(err)
            for path in [ops] if isinstance(ops, (str, bytes, os.PathLike)) else ops:
                st = _lib.ttref_registry_load(self._reg, os.fsencode(path), ctypes.byref(err))
                if st != 0:
                    self.close()
                    _raise(err, st)
        traced = syms is not None or dtypes is not None or oob is not None or text.endswith(".fx")
        if oob not in (None, "error", "zero"):
            self.close()
            raise BadInput("error: oob must be 'error' or 'zero', not %r" % (oob,))
        if traced:
            if ops:
                self.close()
                raise BadInput("error: vendor ops are for TTIR kernels, not traced ones")
            sa, ns = _strings(syms)
            da, nd = _strings(dtypes)
            opts = _FxOptions(sa, ns, da, nd, 1 if oob == "zero" else 0)
            self._k = _lib.ttref_kernel_load_fx(os.fsencode(text), ctypes.byref(opts), ctypes.byref(err))
        elif "tt.func" in text and not os.path.exists(text):
            raw = text.encode()
            self._k = _lib.ttref_kernel_parse_ex(raw, len(raw), b"<string>", fn, self._reg, ctypes.byref(err))
        else:
            self._k = _lib.ttref_kernel_load_ex(os.fsencode(text), fn, self._reg, ctypes.byref(err))
        if not self._k:
            self.close()
            _raise(err)
        kinds = {0: "scalar", 1: "pointer", 2: "other"}
        self.name = _lib.ttref_kernel_name(self._k).decode()
        self.args = []
        for i in range(_lib.ttref_kernel_nargs(self._k)):
            t = _lib.ttref_kernel_arg_type(self._k, i)
            self.args.append(Arg(_lib.ttref_kernel_arg_name(self._k, i).decode(),
                                 kinds[_lib.ttref_kernel_arg_kind(self._k, i)],
                                 t.decode() if t else None, _lib.ttref_kernel_arg_elem_bytes(self._k, i)))

    def close(self):
        if getattr(self, "_k", None):
            _lib.ttref_kernel_free(self._k)
            self._k = None
        if getattr(self, "_reg", None):  # after the kernel, which borrows its op definitions
            _lib.ttref_registry_free(self._reg)
            self._reg = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _arg(self, name):
        i = _lib.ttref_kernel_arg_index(self._k, str(name).encode())
        if i < 0:
            raise BadInput("error: unknown kernel argument '%s' (kernel @%s takes %s)"
                           % (name, self.name, ", ".join(a.name for a in self.args)))
        return self.args[i]

    def run(self, grid, args, *, threads=None, precise=False, ftz=False, contract=False, check_races=False,
            max_steps=None, trap=None, check_uninit=False, ub=None):
        """Run one launch. `args` maps argument names (or 0-based positions) to numpy arrays
        (pointers) or scalars. Returns {name: array} with every pointer argument's buffer after
        the launch (input dtype and shape); with precise=True also "NAME.precise" and
        "NAME.bound" (float64) for float buffers. trap ("nan", "inf", "nan,inf"), check_uninit
        and ub (None: counted only; "warn", "strict", "quiet") are `ttref run`'s --trap,
        --check-uninit and UB reports (docs/debugging.md). Raises KernelFault / BadInput."""
        if self._k is None:
            raise BadInput("error: the kernel was closed")
        gx, gy, gz = _grid(grid)
        err = _Err()
        launch = _lib.ttref_launch_new(self._k, ctypes.byref(err))
        if not launch:
            _raise(err)
        try:
            out = {}
            for key, val in args.items():
                a = self._arg(key)
                if a.kind == "pointer":
                    if not isinstance(val, np.ndarray):
                        raise BadInput("error: pointer argument '%s' needs a numpy array" % a.name)
                    buf = np.array(val, copy=True, order="C")
                    if buf.dtype.itemsize != a.elem_bytes:
                        raise BadInput("error: element size mismatch: argument %s points to %s (%d bytes) but the "
                                       "array has dtype %s (%d bytes)%s" % (
                                           a.name, a.dtype, a.elem_bytes, buf.dtype, buf.dtype.itemsize,
                                           "; bf16/fp8 buffers are raw bits (uint16/uint8)"
                                           if a.dtype in _FP8 or a.dtype == "bf16" else ""))
                    out[a.name] = buf
                    _check(_lib.ttref_launch_buffer(launch, a.name.encode(), buf.ctypes.data_as(_P) if buf.size else None,
                                                    buf.nbytes, ctypes.byref(err)), err)
                else:
                    _check(_lib.ttref_launch_scalar(launch, a.name.encode(), _literal(val).encode(),
                                                    ctypes.byref(err)), err)
            traps, ubs = {None: 0, "nan": 1, "inf": 2, "nan,inf": 3, "inf,nan": 3}, {None: 0, "warn": 1, "strict": 2, "quiet": 3}
            if trap not in traps or ub not in ubs:
                raise BadInput("error: trap takes nan, inf or nan,inf and ub warn, strict or quiet, not %r / %r" % (trap, ub))
            for name, value in (("threads", threads or 0), ("precise", precise), ("ftz", ftz),
                                ("contract", contract), ("check_races", check_races), ("max_steps", max_steps or 0),
                                ("trap", traps[trap]), ("check_uninit", check_uninit), ("ub", ubs[ub])):
                _check(_lib.ttref_launch_set(launch, _lib.ttref_option_lookup(name.encode()), int(value),
                                             ctypes.byref(err)), err)
            _check(_lib.ttref_launch_run(launch, gx, gy, gz, ctypes.byref(err)), err)
            stats = _Stats()
            _lib.ttref_launch_stats(launch, ctypes.byref(stats), None)
            self.stats = {n: getattr(stats, n) for n, _ in _Stats._fields_}
            self.stats["ub_overflow"] = _lib.ttref_launch_stat(launch, 8)  # TTREF_STAT_OVERFLOW (API 2)
            if precise:
                for name, buf in list(out.items()):
                    a = self._arg(name)
                    if not (a.dtype.startswith("f") or a.dtype == "bf16"):
                        continue
                    pv, pb, n = ctypes.POINTER(ctypes.c_double)(), ctypes.POINTER(ctypes.c_double)(), _Z()
                    _check(_lib.ttref_launch_precise(launch, name.encode(), ctypes.byref(pv), ctypes.byref(pb),
                                                     ctypes.byref(n), ctypes.byref(err)), err)
                    for sfx, p in ((".precise", pv), (".bound", pb)):
                        arr = np.ctypeslib.as_array(p, shape=(n.value,)).copy() if n.value else np.zeros(0)
                        out[name + sfx] = arr.reshape(buf.shape)
            return out
        finally:
            _lib.ttref_launch_free(launch)


def run(kernel, grid, args, *, function=None, threads=None, precise=False, syms=None, dtypes=None, oob=None,
        ops=None, **options):
    """Load `kernel` (path, TTIR text or .fx trace; see Kernel) and run one launch; see Kernel.run."""
    with Kernel(kernel, function, syms=syms, dtypes=dtypes, oob=oob, ops=ops) as k:
        return k.run(grid, args, threads=threads, precise=precise, **options)


# ---- judging -------------------------------------------------------------------------------------

class Verdict:
    """What compare found: passed (also bool(verdict)), quality_warning, worst (None, or a dict with
    index (tuple), flat_index, got, ref, bound, err), max_ratio, mean_ulp, max_ulp, reason."""

    def __init__(self, v, shape):
        self.passed = bool(v.pass_)
        self.quality_warning = bool(v.quality_warning)
        self.worst = None
        if v.worst_index >= 0:
            self.worst = {"index": tuple(int(i) for i in np.unravel_index(v.worst_index, shape)) if shape else (),
                          "flat_index": int(v.worst_index), "got": v.worst_got, "ref": v.worst_ref,
                          "bound": v.worst_bound, "err": v.worst_err}
        self.max_ratio, self.mean_ulp, self.max_ulp = v.max_ratio, v.mean_ulp, v.max_ulp
        self.reason = v.reason.decode(errors="replace")

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return "Verdict(passed=%r, worst=%r%s)" % (self.passed, self.worst,
                                                   ", reason=%r" % self.reason if self.reason else "")


def compare(got, ref, mode, *, dtype=None, precise=None, bound=None, **options):
    """Judge `got` against the reference `ref` with compliance mode `mode` ("exact", "ulp", "abs",
    "rel", "dot_product", "reduce", "fp_special") exactly as `ttref conform` does. `dtype` is the
    ttref dtype (default from got's numpy dtype; required for bf16/fp8 raw bits); `precise` and
    `bound` are the float64 arrays of a precise run (given `precise`, ulp/abs/rel judge against
    it: the suite option precise=true); options as in a suite case (ulp=2, allow_ftz=True, k=64,
    ...). Returns a Verdict; raises BadInput for bad modes or options."""
    g, r = np.ascontiguousarray(got), np.ascontiguousarray(ref)
    if g.shape != r.shape or g.dtype != r.dtype:
        raise BadInput("error: compare: got is %s%s but ref is %s%s" % (g.dtype, g.shape, r.dtype, r.shape))
    if dtype is None:
        dtype = _NP2TT.get(g.dtype)
        if dtype is None:
            raise BadInput("error: compare: give dtype= for arrays of numpy dtype %s" % g.dtype)
    extra = []
    for a, what in ((precise, "precise"), (bound, "bound")):
        if a is not None:
            a = np.ascontiguousarray(a, dtype=np.float64)
            if a.size != g.size:
                raise BadInput("error: compare: %s has %d elements, got has %d" % (what, a.size, g.size))
        extra.append(a)
    if precise is not None and mode in ("ulp", "abs", "rel"):
        options.setdefault("precise", True)
    opts = ",".join("%s=%s" % (k, ("true" if v else "false") if isinstance(v, bool) else v)
                    for k, v in options.items())
    v, err = _Verdict(), _Err()
    ptr = lambda a: a.ctypes.data_as(_P) if a is not None and a.size else None
    st = _conform().ttref_compare(str(mode).encode(), str(dtype).encode(), ptr(g), ptr(r), g.size, ptr(extra[0]),
                            ptr(extra[1]), opts.encode() if opts else None, ctypes.byref(v), ctypes.byref(err))
    _check(st, err)
    return Verdict(v, g.shape)
