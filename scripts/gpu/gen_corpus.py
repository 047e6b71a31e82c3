#!/usr/bin/env python3
"""Generate the real-GPU regression corpus for ttref (Triton 3.6, NVIDIA H100).

Usage: python3 scripts/gpu/gen_corpus.py --out DIR [--only SUBSTRING] [--jobs N] [--deadline S]

For each case this writes DIR/<case>/:
  kernel.ttir      compiled.asm["ttir"] of the CompiledKernel returned by `kernel[grid](...)`
  case.json        name, kernel, grid [x,y,z], args (Python order), constexprs, num_warps, unordered
  NAME.in.npy      each pointer argument's buffer before the launch
  NAME.gpu.npy     the same buffer after the launch (read back from the GPU)
  stdout.txt       (device_print cases only) what the kernel printed

Element dtypes in case.json: i1 (np.bool_), i8, i16, i32, i64, f16, f32, f64 (native numpy),
bf16 (np.uint16 raw bits), f8e4m3 / f8e5m2 (np.uint8 raw bits; torch float8_e4m3fn /
float8_e5m2, Triton fp8e4nv / fp8e5). Unsigned data has no dtype of its own: buffers are
stored with the signed name of the same width (i8..i64) and the kernel reinterprets them
with `x.to(tl.uintN, bitcast=True)`; TTIR integers are signless anyway.
Scalar args: i32 / i64 (Python ints; Triton picks i64 when the value does not fit in i32) and
f32 (Python floats). Constexprs, and int args equal to 1, are not in the TTIR signature.
`unordered: true` marks cases whose output order depends on scheduling (compare each output
buffer as a sorted multiset).

Every case runs in its own try/except; failures go to DIR/FAILURES.txt (case + last line of the
exception). With --jobs N (default 12) the cases are spread round-robin over N worker
processes (compiles are CPU bound); each case is written to a temp dir and renamed when complete.
Inputs are deterministic (seeded per case name).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import traceback
import zlib

import numpy as np

try:
    import torch
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice
except Exception as _e:  # allow `--help` / syntax checks on a machine without triton
    print("gen_corpus: cannot import triton/torch:", _e, file=sys.stderr)
    raise

# ----------------------------------------------------------------------------- dtypes
# name -> (numpy storage dtype, torch dtype used on the GPU, view dtype for storage or None)
DT = {
    "i1": (np.bool_, torch.bool, None),
    "i8": (np.int8, torch.int8, None),
    "i16": (np.int16, torch.int16, None),
    "i32": (np.int32, torch.int32, None),
    "i64": (np.int64, torch.int64, None),
    "f16": (np.float16, torch.float16, None),
    "bf16": (np.uint16, torch.bfloat16, torch.int16),
    "f32": (np.float32, torch.float32, None),
    "f64": (np.float64, torch.float64, None),
    "f8e4m3": (np.uint8, torch.float8_e4m3fn, torch.uint8),
    "f8e5m2": (np.uint8, torch.float8_e5m2, torch.uint8),
}
INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
TL_DT = {
    "i1": tl.int1, "i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64,
    "u8": tl.uint8, "u16": tl.uint16, "u32": tl.uint32, "u64": tl.uint64,
    "f16": tl.float16, "bf16": tl.bfloat16, "f32": tl.float32, "f64": tl.float64,
    "f8e4m3": tl.float8e4nv, "f8e5m2": tl.float8e5,
}
UNS = {"i8": tl.uint8, "i16": tl.uint16, "i32": tl.uint32, "i64": tl.uint64}


class Buf:
    """A pointer argument: numpy storage array + dtype name."""

    def __init__(self, arr, dt):
        self.arr = np.ascontiguousarray(np.asarray(arr).astype(DT[dt][0], copy=False))
        self.dt = dt


class Scalar:
    def __init__(self, value, dt):
        self.value = value
        self.dt = dt


def to_torch(b):
    st, tt, view = DT[b.dt]
    a = b.arr
    if b.dt == "bf16":
        t = torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    elif b.dt.startswith("f8"):
        t = torch.from_numpy(a.copy()).view(tt)
    else:
        t = torch.from_numpy(a.copy())
    return t.cuda()


def from_torch(t, dt):
    t = t.detach().cpu()
    if dt == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16).copy()
    if dt.startswith("f8"):
        return t.view(torch.uint8).numpy().copy()
    return t.numpy().copy()


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


# ----------------------------------------------------------------------------- input data
def f32_to_bf16_bits(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u >> 16) & 1) + 0x7FFF
    out = ((u + r) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, np.float32))
    out[nan] = 0x7FC0
    return out


def bf16_bits_to_f32(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


FSPECIAL = {
    "f16": [np.nan, np.inf, -np.inf, 0.0, -0.0, 6e-8, -6e-8, 1e-5, 65504.0, -65504.0, 1.0, -1.0, 0.5, 3.0],
    "f32": [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -3e-44, 1e-39, 3.4028235e38, -3.4028235e38,
            1.1754944e-38, 1.0, -1.0, 0.5, 3.0],
    "f64": [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -1e-310, 1.7976931348623157e308,
            2.2250738585072014e-308, 1.0, -1.0, 0.5, 3.0],
}
BF16_SPECIAL_BITS = [0x7FC0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x0001, 0x8005, 0x0070, 0x7F7F, 0xFF7F,
                     0x3F80, 0xBF80, 0x3F00, 0x4040]


def fvals(dt, n, rng, scale=4.0, special=True, lo=None, hi=None):
    """n float values of dtype dt (storage form), special values at the front."""
    if lo is not None:
        base = rng.uniform(lo, hi, n)
    else:
        base = rng.standard_normal(n) * scale
    if dt == "bf16":
        bits = f32_to_bf16_bits(base.astype(np.float32))
        if special:
            k = min(n, len(BF16_SPECIAL_BITS))
            bits[:k] = BF16_SPECIAL_BITS[:k]
        return bits
    a = base.astype(DT[dt][0])
    if special:
        sp = np.array(FSPECIAL[dt], dtype=DT[dt][0])
        k = min(n, len(sp))
        a[:k] = sp[:k]
    return a


def ivals(dt, n, rng, special=True, lo=None, hi=None):
    bits = INT_BITS[dt]
    info = np.iinfo(DT[dt][0])
    if lo is None:
        if bits <= 16:
            a = rng.integers(info.min, info.max, n, endpoint=True)
        else:
            a = np.where(rng.random(n) < 0.5, rng.integers(-1000, 1000, n),
                         rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64))
    else:
        a = rng.integers(lo, hi, n, endpoint=True)
    a = a.astype(DT[dt][0])
    if special:
        sp = np.array([info.min, info.max, 0, -1, 1, info.min + 1, info.max - 1, 2, -2, 7], dtype=DT[dt][0])
        k = min(n, len(sp))
        a[:k] = sp[:k]
    return a


def vals(dt, n, rng, **kw):
    if dt in INT_BITS:
        return ivals(dt, n, rng, **kw)
    if dt == "i1":
        return rng.random(n) < 0.5
    if dt.startswith("f8"):
        a = rng.integers(0, 256, n).astype(np.uint8)
        if dt == "f8e4m3":
            a[:6] = [0x7F, 0x00, 0x80, 0x01, 0x7E, 0xFE]  # NaN, +0, -0, denormal, max, -max
        else:
            a[:7] = [0x7E, 0x7C, 0xFC, 0x00, 0x80, 0x01, 0x7B]  # NaN, inf, -inf, 0, -0, denorm, max
        return a
    return fvals(dt, n, rng, **kw)


def zeros(dt, shape):
    return np.zeros(shape, DT[dt][0])


def fill(dt, shape, v=0):
    """a sentinel-filled output buffer (so unwritten lanes are visible)"""
    if dt == "bf16":
        return np.full(shape, f32_to_bf16_bits(np.float32(v)), np.uint16)
    if dt.startswith("f8"):
        return np.zeros(shape, np.uint8)
    return np.full(shape, v, DT[dt][0])


# ----------------------------------------------------------------------------- registry
CASES = []  # (name, thunk)


def add(name, kernel, grid, args, constexprs=None, num_warps=4, unordered=False, capture=False,
        launch_kw=None):
    """Register a case. args: list of (name, Buf|Scalar) in the kernel's Python order."""
    CASES.append((name, dict(kernel=kernel, grid=grid, args=args, constexprs=constexprs or {},
                             num_warps=num_warps, unordered=unordered, capture=capture,
                             launch_kw=launch_kw or {})))


def group(fn):
    """Decorator for a function that registers a group of cases (called lazily by main)."""
    GROUPS.append(fn)
    return fn


GROUPS = []


def jsonable(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return str(v)


def run_case(name, spec, outdir):
    grid = tuple(spec["grid"]) + (1,) * (3 - len(spec["grid"]))
    targs, meta = [], []
    for an, a in spec["args"]:
        if isinstance(a, Buf):
            targs.append(to_torch(a))
            meta.append({"name": an, "kind": "ptr", "dtype": a.dt, "shape": list(a.arr.shape),
                         "file": an + ".in.npy"})
        else:
            targs.append(a.value)
            meta.append({"name": an, "kind": "scalar", "dtype": a.dt, "value": a.value})
    kern = spec["kernel"]
    tmp = os.path.join(outdir, "." + name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    kw = dict(spec["constexprs"])
    kw.update(spec["launch_kw"])
    torch.cuda.synchronize()
    if spec["capture"]:
        sys.stdout.flush()
        saved = os.dup(1)
        fd = os.open(os.path.join(tmp, "stdout.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        try:
            k = kern[grid](*targs, num_warps=spec["num_warps"], **kw)
            torch.cuda.synchronize()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(fd)
            os.close(saved)
    else:
        k = kern[grid](*targs, num_warps=spec["num_warps"], **kw)
        torch.cuda.synchronize()
    with open(os.path.join(tmp, "kernel.ttir"), "w") as f:
        f.write(k.asm["ttir"])
    for (an, a), t in zip(spec["args"], targs):
        if isinstance(a, Buf):
            np.save(os.path.join(tmp, an + ".in.npy"), a.arr)
            np.save(os.path.join(tmp, an + ".gpu.npy"), from_torch(t, a.dt))
    kname = getattr(getattr(kern, "fn", None), "__name__", None) or str(kern)
    cj = {"name": name, "kernel": kname, "grid": list(grid), "args": meta,
          "constexprs": {k2: jsonable(v) for k2, v in spec["constexprs"].items()},
          "unordered": bool(spec["unordered"]), "num_warps": spec["num_warps"]}
    with open(os.path.join(tmp, "case.json"), "w") as f:
        json.dump(cj, f, indent=1)
    final = os.path.join(outdir, name)
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)


def last_line(e):
    s = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()
    return (s[-1] if s else repr(e))[:400]
