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
    xs = np.asarray(x, np.float32)
    if xs.ndim == 0:
        return f32_to_bf16_bits(xs.reshape(1))[0]
    u = xs.view(np.uint32).astype(np.uint64)
    s16 = np.uint64(16)
    r = ((u >> s16) & np.uint64(1)) + np.uint64(0x7FFF)
    out = ((u + r) >> s16).astype(np.uint16)
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
    s = [x for x in s if any(c.isalnum() for c in x)]
    return (s[-1].strip() if s else repr(e))[:400]


# ============================================================================= group: programs & shapes
@triton.jit
def grid3d(o_ptr, BLOCK: tl.constexpr):
    px = tl.program_id(0)
    py = tl.program_id(1)
    pz = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (pz * ny + py) * nx + px
    r = tl.arange(0, BLOCK)
    v = tl.where(r == 0, px, tl.where(r == 1, py, tl.where(r == 2, pz, lin * 100 + r)))
    v = tl.where(r == 3, nx, tl.where(r == 4, ny, tl.where(r == 5, nz, v)))
    tl.store(o_ptr + lin * BLOCK + r, v)


@triton.jit
def shape_op(x_ptr, i_ptr, o_ptr, OP: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    if OP == "broadcast":
        row = tl.load(x_ptr + rn)
        col = tl.load(x_ptr + N + rm)
        a = tl.broadcast_to(tl.expand_dims(row, 0), (M, N))
        b = tl.expand_dims(col, 1)
        tl.store(o_ptr + rm[:, None] * N + rn[None, :], a * 2 + b)
    if OP == "reshape":
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        y = tl.reshape(x, (N, M))
        ri = tl.arange(0, N)
        rj = tl.arange(0, M)
        tl.store(o_ptr + ri[:, None] * M + rj[None, :], y + ri[:, None])
    if OP == "reshape3":
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        y = tl.sum(tl.reshape(x, (M, N // 4, 4)), axis=2)
        rk = tl.arange(0, N // 4)
        tl.store(o_ptr + rm[:, None] * (N // 4) + rk[None, :], y)
    if OP == "trans":
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        tl.store(o_ptr + rn[:, None] * M + rm[None, :], tl.trans(x))
    if OP == "permute":
        r2 = tl.arange(0, 4)
        x = tl.load(x_ptr + rm[:, None, None] * (N * 4) + rn[None, :, None] * 4 + r2[None, None, :])
        y = tl.permute(x, (2, 0, 1))  # [4, M, N]
        tl.store(o_ptr + r2[:, None, None] * (M * N) + rm[None, :, None] * N + rn[None, None, :], y)
    if OP == "cat":
        a = tl.load(x_ptr + rn)
        b = tl.load(x_ptr + N + rn)
        c = tl.cat(a, b, can_reorder=True)
        tl.store(o_ptr + tl.arange(0, 2 * N), c)
    if OP == "join":
        a = tl.load(x_ptr + rn)
        b = tl.load(x_ptr + N + rn)
        j = tl.join(a, b)  # [N, 2]
        tl.store(o_ptr + rn[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    if OP == "split":
        x = tl.load(x_ptr + rn[:, None] * 2 + tl.arange(0, 2)[None, :])
        a, b = tl.split(x)
        tl.store(o_ptr + rn, a)
        tl.store(o_ptr + N + rn, b)
    if OP == "gather1":
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        idx = tl.load(i_ptr + rm[:, None] * N + rn[None, :])
        tl.store(o_ptr + rm[:, None] * N + rn[None, :], tl.gather(x, idx, axis=1))
    if OP == "gather0":
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
        idx = tl.load(i_ptr + rm[:, None] * N + rn[None, :])
        tl.store(o_ptr + rm[:, None] * N + rn[None, :], tl.gather(x, idx, axis=0))
    if OP == "histogram":
        x = tl.load(x_ptr + rn)
        tl.store(o_ptr + rm, tl.histogram(x, M))
    if OP == "histogram_mask":
        x = tl.load(x_ptr + rn)
        tl.store(o_ptr + rm, tl.histogram(x, M, mask=(rn % 3) != 0))
    if OP == "one":
        r1 = tl.arange(0, 1)
        x = tl.load(x_ptr + r1)
        y = tl.reshape(x, (1, 1))
        s = tl.sum(y, axis=1)
        tl.store(o_ptr + r1, x * 3 + s)
        tl.store(o_ptr + 1 + r1, tl.max(x, axis=0) + r1.to(x.dtype))
    if OP == "splat":
        s = tl.load(x_ptr + 3)
        v = tl.full((N,), 5, x_ptr.dtype.element_ty)
        tl.store(o_ptr + rn, v + s + tl.zeros((N,), x_ptr.dtype.element_ty))


@group
def g_shapes():
    for g in [(3, 4, 2), (1, 2, 5), (5, 1, 1)]:
        n = g[0] * g[1] * g[2] * 8
        add("grid3d_%dx%dx%d" % g, grid3d, g, [("o_ptr", Buf(fill("i32", n, -7), "i32"))], {"BLOCK": 8})
    M, N = 8, 16
    for op, dt, xs, ish, osh, unord in [
        ("broadcast", "f32", M + N, None, (M, N), False),
        ("broadcast", "i16", M + N, None, (M, N), False),
        ("reshape", "f32", M * N, None, (N, M), False),
        ("reshape3", "i32", M * N, None, (M, N // 4), False),
        ("trans", "f32", M * N, None, (N, M), False),
        ("trans", "bf16", M * N, None, (N, M), False),
        ("permute", "f32", M * N * 4, None, (4, M, N), False),
        ("cat", "f32", 2 * N, None, (2 * N,), True),
        ("join", "f32", 2 * N, None, (N, 2), False),
        ("split", "i32", 2 * N, None, (2, N), False),
        ("gather1", "f32", M * N, N, (M, N), False),
        ("gather0", "f32", M * N, M, (M, N), False),
        ("one", "f32", 4, None, (2,), False),
        ("splat", "i64", 8, None, (N,), False),
    ]:
        rng = rng_for("shape_" + op + dt)
        x = vals(dt, xs, rng, special=False)
        idx = rng.integers(0, ish, M * N).astype(np.int32) if ish else np.zeros(1, np.int32)
        add("shape_%s_%s" % (op, dt), shape_op, (1,),
            [("x_ptr", Buf(x, dt)), ("i_ptr", Buf(idx, "i32")), ("o_ptr", Buf(fill(dt, osh), dt))],
            {"OP": op, "M": M, "N": N}, unordered=unord)
    for op, bins, n in [("histogram", 32, 256), ("histogram_mask", 16, 128), ("histogram", 64, 64)]:
        rng = rng_for(op + str(bins))
        x = rng.integers(0, bins, n).astype(np.int32)
        add("shape_%s_b%d" % (op, bins), shape_op, (1,),
            [("x_ptr", Buf(x, "i32")), ("i_ptr", Buf(np.zeros(1, np.int32), "i32")),
             ("o_ptr", Buf(fill("i32", bins, -1), "i32"))], {"OP": op, "M": bins, "N": n})


# ============================================================================= group: memory
@triton.jit
def copy_masked(x_ptr, o_ptr, n, OTHER: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=OTHER)
    tl.store(o_ptr + offs, v)


@triton.jit
def mem_mode(x_ptr, o_ptr, n, big, stride, MODE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    if MODE == "ca_wb":
        v = tl.load(x_ptr + offs, mask=m, other=-1.0, cache_modifier=".ca")
        tl.store(o_ptr + offs, v * 2, mask=m, cache_modifier=".wb")
    if MODE == "cg_cs":
        v = tl.load(x_ptr + offs, mask=m, cache_modifier=".cg")
        tl.store(o_ptr + offs, v + 1, mask=m, cache_modifier=".cs")
    if MODE == "cv_wt":
        v = tl.load(x_ptr + offs, mask=m, cache_modifier=".cv")
        tl.store(o_ptr + offs, v - 1, mask=m, cache_modifier=".wt")
    if MODE == "evict":
        v = tl.load(x_ptr + offs, mask=m, eviction_policy="evict_last")
        tl.store(o_ptr + offs, v, mask=m, eviction_policy="evict_first")
    if MODE == "volatile":
        v = tl.load(x_ptr + offs, mask=m, other=3.0, volatile=True)
        tl.store(o_ptr + offs, v)
    if MODE == "i64_offsets":
        o64 = offs.to(tl.int64) + (big - 8589934592)
        v = tl.load(x_ptr + o64, mask=m)
        tl.store(o_ptr + o64, v * 3, mask=m)
    if MODE == "i64_scalar_ptr":
        p = x_ptr + (big - 8589934592) + pid * BLOCK
        q = o_ptr + pid.to(tl.int64) * BLOCK
        r = tl.arange(0, BLOCK)
        v = tl.load(p + r, mask=(pid * BLOCK + r) < n)
        tl.store(q + r, v, mask=(pid * BLOCK + r) < n)
    if MODE == "ptr_loop":
        p = x_ptr + pid * BLOCK
        q = o_ptr + pid * BLOCK
        r = tl.arange(0, BLOCK // 4)
        for i in range(4):
            tl.store(q + r, tl.load(p + r) + i)
            p += BLOCK // 4
            q += BLOCK // 4
    if MODE == "reverse":
        v = tl.load(x_ptr + (n - 1 - offs), mask=m)
        tl.store(o_ptr + offs, v, mask=m)
    if MODE == "strided2d":
        r0 = tl.arange(0, 8)
        r1 = tl.arange(0, BLOCK // 8)
        v = tl.load(x_ptr + r0[:, None] * stride + r1[None, :], mask=r1[None, :] < stride - 2, other=0.5)
        tl.store(o_ptr + r1[:, None] * 8 + r0[None, :], tl.trans(v))
    if MODE == "int_to_ptr":
        base = x_ptr.to(tl.int64)
        addr = base + offs.to(tl.int64) * 4
        p = addr.to(tl.pointer_type(tl.float32))
        v = tl.load(p, mask=m)
        tl.store(o_ptr + offs, v, mask=m)
    if MODE == "scalar":
        s = tl.load(x_ptr + pid)
        tl.store(o_ptr + pid, s * 5 + 1)


@group
def g_memory():
    for dt in ["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2"]:
        rng = rng_for("copy" + dt)
        n = 100
        other = None if dt.startswith("f8") else (0 if dt == "i1" else 3)
        add("copy_masked_" + dt, copy_masked, (2,),
            [("x_ptr", Buf(vals(dt, n, rng), dt)), ("o_ptr", Buf(fill(dt, 128), dt)), ("n", Scalar(n, "i32"))],
            {"OTHER": other, "BLOCK": 64})
    for mode in ["ca_wb", "cg_cs", "cv_wt", "evict", "volatile", "i64_offsets", "i64_scalar_ptr", "ptr_loop",
                 "reverse", "strided2d", "int_to_ptr", "scalar"]:
        rng = rng_for("mem" + mode)
        n, B = 100, 32
        x = fvals("f32", 128, rng)
        grid = (4,) if mode != "scalar" else (6,)
        add("mem_" + mode, mem_mode, grid,
            [("x_ptr", Buf(x, "f32")), ("o_ptr", Buf(fill("f32", 128, -9.0), "f32")), ("n", Scalar(n, "i32")),
             ("big", Scalar(8589934592 + 2, "i64")), ("stride", Scalar(13, "i32"))],
            {"MODE": mode, "BLOCK": B})


# ============================================================================= group: atomics
@triton.jit
def atomic_op(x_ptr, buf_ptr, old_ptr, n, OP: tl.constexpr, NSLOT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    uniq = buf_ptr + NSLOT + offs  # one address per lane: returned old values are deterministic
    slot = buf_ptr + offs % NSLOT  # conflicting addresses: only the final memory is deterministic
    if OP == "add":
        old = tl.atomic_add(uniq, v, mask=m)
        tl.atomic_add(slot, v, mask=m)
    if OP == "max":
        old = tl.atomic_max(uniq, v, mask=m)
        tl.atomic_max(slot, v, mask=m)
    if OP == "min":
        old = tl.atomic_min(uniq, v, mask=m)
        tl.atomic_min(slot, v, mask=m)
    if OP == "and":
        old = tl.atomic_and(uniq, v, mask=m)
        tl.atomic_and(slot, v, mask=m)
    if OP == "or":
        old = tl.atomic_or(uniq, v, mask=m)
        tl.atomic_or(slot, v, mask=m)
    if OP == "xor":
        old = tl.atomic_xor(uniq, v, mask=m)
        tl.atomic_xor(slot, v, mask=m)
    if OP == "xchg":
        old = tl.atomic_xchg(uniq, v, mask=m)
        # old values of conflicting exchanges + final slots = initial slots + all written values
        o2 = tl.atomic_xchg(slot, v, mask=m)
        tl.store(buf_ptr + NSLOT + n + offs, o2, mask=m)
    if OP == "add_relaxed_cta":
        old = tl.atomic_add(uniq, v, mask=m, sem="relaxed", scope="cta")
        tl.atomic_add(slot, v, mask=m, sem="release", scope="gpu")
    if OP == "max_acquire_sys":
        old = tl.atomic_max(uniq, v, mask=m, sem="acquire", scope="sys")
        tl.atomic_min(slot, v, mask=m, sem="relaxed")
    if OP == "umax":
        ub = buf_ptr.to(tl.pointer_type(tl.uint32), bitcast=True)
        uv = v.to(tl.uint32, bitcast=True)
        old = tl.atomic_max(ub + NSLOT + offs, uv, mask=m).to(tl.int32, bitcast=True)
        tl.atomic_max(ub + offs % NSLOT, uv, mask=m)
    if OP == "umin":
        ub = buf_ptr.to(tl.pointer_type(tl.uint32), bitcast=True)
        uv = v.to(tl.uint32, bitcast=True)
        old = tl.atomic_min(ub + NSLOT + offs, uv, mask=m).to(tl.int32, bitcast=True)
        tl.atomic_min(ub + offs % NSLOT, uv, mask=m)
    tl.store(old_ptr + offs, old, mask=m)


@triton.jit
def atomic_float(x_ptr, buf_ptr, n, OP: tl.constexpr, NSLOT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    if OP == "fadd":
        tl.atomic_add(buf_ptr + offs % NSLOT, v, mask=m)
    if OP == "fmax":
        tl.atomic_max(buf_ptr + offs % NSLOT, v, mask=m)
    if OP == "fmin":
        tl.atomic_min(buf_ptr + offs % NSLOT, v, mask=m)
    if OP == "fadd_scalar":
        tl.atomic_add(buf_ptr + tl.program_id(0) % NSLOT, 0.5)


@triton.jit
def spin_lock(lock_ptr, cnt_ptr, log_ptr):
    pid = tl.program_id(0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    c = tl.load(cnt_ptr, volatile=True)
    tl.store(cnt_ptr, c + pid + 1)
    t = tl.load(cnt_ptr + 1, volatile=True)
    tl.store(log_ptr + t, pid)  # the order programs took the lock (unordered)
    tl.store(cnt_ptr + 1, t + 1)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, 0)


@group
def g_atomics():
    n, B, NS = 200, 64, 7
    for dt in ["i32", "i64"]:
        for op in ["add", "max", "min", "and", "or", "xor", "xchg"]:
            rng = rng_for("atomic" + op + dt)
            x = ivals(dt, n, rng) if op != "add" else ivals(dt, n, rng, special=False, lo=-1000, hi=1000)
            init = ivals(dt, NS + n + (n if op == "xchg" else 0), rng, lo=-50, hi=50)
            if op == "and":
                init[:] = -1
            add("atomic_%s_%s" % (op, dt), atomic_op, (4,),
                [("x_ptr", Buf(x, dt)), ("buf_ptr", Buf(init, dt)), ("old_ptr", Buf(fill(dt, n, 0), dt)),
                 ("n", Scalar(n, "i32"))], {"OP": op, "NSLOT": NS, "BLOCK": B}, unordered=(op == "xchg"))
    for op in ["add_relaxed_cta", "max_acquire_sys", "umax", "umin"]:
        rng = rng_for("atomic" + op)
        x = ivals("i32", n, rng) if op != "add_relaxed_cta" else ivals("i32", n, rng, lo=-99, hi=99)
        init = ivals("i32", NS + n, rng, lo=-50, hi=50)
        add("atomic_%s_i32" % op, atomic_op, (4,),
            [("x_ptr", Buf(x, "i32")), ("buf_ptr", Buf(init, "i32")), ("old_ptr", Buf(fill("i32", n, 0), "i32")),
             ("n", Scalar(n, "i32"))], {"OP": op, "NSLOT": NS, "BLOCK": B})
    # float adds land where they are aimed whatever the order (only their rounding depends on it, and
    # these sums are exact): compared element by element, not as multisets
    for op, dt, unord in [("fadd", "f32", False), ("fmax", "f32", False), ("fmin", "f32", False),
                          ("fadd_scalar", "f32", False), ("fadd", "f16", False)]:
        rng = rng_for("atomicf" + op + dt)
        x = (rng.integers(-64, 64, n) * 0.25).astype(DT[dt][0])  # exact sums in any order
        if op in ("fmax", "fmin"):
            x = fvals(dt, n, rng, special=False)
            x[:4] = [0.0, -0.0, np.inf, -np.inf]
        init = (rng.integers(-8, 8, NS) * 0.5).astype(DT[dt][0])
        add("atomic_%s_%s" % (op, dt), atomic_float, (4,),
            [("x_ptr", Buf(x, dt)), ("buf_ptr", Buf(init, dt)), ("n", Scalar(n, "i32"))],
            {"OP": op, "NSLOT": NS, "BLOCK": B}, unordered=unord)
    P = 16
    add("atomic_cas_spinlock", spin_lock, (P,),
        [("lock_ptr", Buf(np.zeros(1, np.int32), "i32")), ("cnt_ptr", Buf(np.zeros(2, np.int32), "i32")),
         ("log_ptr", Buf(np.full(P, -1, np.int32), "i32"))], {}, num_warps=1, unordered=True)


# ============================================================================= group: dot
@triton.jit
def dot2d(a_ptr, b_ptr, c_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BK: tl.constexpr,
          PREC: tl.constexpr, ACC: tl.constexpr, ODT: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    if ACC:
        acc = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    else:
        acc = tl.zeros((M, N), ODT)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
        if PREC == "":
            acc = tl.dot(a, b, acc, out_dtype=ODT)
        else:
            acc = tl.dot(a, b, acc, input_precision=PREC, out_dtype=ODT)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def dot2d_plain(a_ptr, b_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], c.to(o_ptr.dtype.element_ty))


@triton.jit
def dot3d(a_ptr, b_ptr, o_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
          PREC: tl.constexpr):
    rb = tl.arange(0, B)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * (M * K) + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * (K * N) + rk[None, :, None] * N + rn[None, None, :])
    c = tl.dot(a, b, input_precision=PREC)
    tl.store(o_ptr + rb[:, None, None] * (M * N) + rm[None, :, None] * N + rn[None, None, :], c)


def dot_input(dt, shape, rng):
    n = int(np.prod(shape))
    if dt in ("i8",):
        return rng.integers(-128, 128, n).astype(np.int8).reshape(shape)
    if dt.startswith("f8"):
        # finite fp8 bit patterns of moderate magnitude
        if dt == "f8e4m3":
            v = rng.integers(0x18, 0x50, n)
        else:
            v = rng.integers(0x20, 0x48, n)
        sign = (rng.random(n) < 0.5).astype(np.int64) << 7
        return (v | sign).astype(np.uint8).reshape(shape)
    if dt == "bf16":
        return f32_to_bf16_bits(rng.uniform(-2, 2, n).astype(np.float32)).reshape(shape)
    return rng.uniform(-2, 2, n).astype(DT[dt][0]).reshape(shape)


@group
def g_dot():
    variants = [
        # name, in dt, M, N, K, BK, PREC, ACC, out dt
        ("f16_16x16x16", "f16", 16, 16, 16, 16, "", False, "f32"),
        ("f16_64x64x32_acc", "f16", 64, 64, 32, 32, "", True, "f32"),
        ("f16_32x32x64_kloop", "f16", 32, 32, 64, 16, "", False, "f32"),
        ("f16_out_f16", "f16", 32, 16, 32, 32, "", False, "f16"),
        ("bf16_32x32x32", "bf16", 32, 32, 32, 32, "", False, "f32"),
        ("bf16_16x64x32_acc", "bf16", 16, 64, 32, 16, "", True, "f32"),
        ("f32_ieee", "f32", 32, 32, 16, 16, "ieee", False, "f32"),
        ("f32_tf32", "f32", 32, 32, 16, 16, "tf32", False, "f32"),
        ("f32_tf32x3", "f32", 32, 32, 16, 16, "tf32x3", False, "f32"),
        ("f32_ieee_acc_kloop", "f32", 16, 32, 32, 16, "ieee", True, "f32"),
        ("f32_tf32_acc", "f32", 64, 32, 32, 32, "tf32", True, "f32"),
        ("f8e4m3_64x64x32", "f8e4m3", 64, 64, 32, 32, "", False, "f32"),
        ("f8e5m2_64x32x64", "f8e5m2", 64, 32, 64, 32, "", False, "f32"),
        ("f8e4m3_acc", "f8e4m3", 64, 16, 32, 32, "", True, "f32"),
        ("i8_32x32x32", "i8", 32, 32, 32, 32, "", False, "i32"),
        ("i8_64x32x64_acc", "i8", 64, 32, 64, 32, "", True, "i32"),
        ("f64_16x16x16", "f64", 16, 16, 16, 16, "ieee", False, "f64"),
    ]
    for name, dt, M, N, K, BK, prec, acc, odt in variants:
        rng = rng_for("dot" + name)
        a = dot_input(dt, (M, K), rng)
        b = dot_input(dt, (K, N), rng)
        if odt == "i32":
            c = rng.integers(-1000, 1000, (M, N)).astype(np.int32)
        else:
            c = rng.uniform(-4, 4, (M, N)).astype(DT[odt][0] if odt != "bf16" else np.float32)
        add("dot_" + name, dot2d, (1,),
            [("a_ptr", Buf(a, dt)), ("b_ptr", Buf(b, dt)), ("c_ptr", Buf(c, odt)), ("o_ptr", Buf(fill(odt, (M, N)), odt))],
            {"M": M, "N": N, "K": K, "BK": BK, "PREC": prec, "ACC": acc, "ODT": TL_DT[odt]})
    for name, dt, odt in [("plain_f16", "f16", "f16"), ("plain_f32_default", "f32", "f32"),
                          ("plain_bf16", "bf16", "bf16")]:
        rng = rng_for("dot" + name)
        a = dot_input(dt, (32, 16), rng)
        b = dot_input(dt, (16, 32), rng)
        add("dot_" + name, dot2d_plain, (1,),
            [("a_ptr", Buf(a, dt)), ("b_ptr", Buf(b, dt)), ("o_ptr", Buf(fill(odt, (32, 32)), odt))],
            {"M": 32, "N": 32, "K": 16})
    for name, dt, prec in [("batched_f16", "f16", "tf32"), ("batched_f32_ieee", "f32", "ieee"),
                           ("batched_f32_tf32", "f32", "tf32")]:
        rng = rng_for("dot" + name)
        Bt, M, N, K = 2, 16, 16, 16
        a = dot_input(dt, (Bt, M, K), rng)
        b = dot_input(dt, (Bt, K, N), rng)
        add("dot_" + name, dot3d, (1,),
            [("a_ptr", Buf(a, dt)), ("b_ptr", Buf(b, dt)), ("o_ptr", Buf(fill("f32", (Bt, M, N)), "f32"))],
            {"B": Bt, "M": M, "N": N, "K": K, "PREC": prec})


# ============================================================================= group: reductions & scans
@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _red(x, idx, AX: tl.constexpr, OP: tl.constexpr, KEEP: tl.constexpr):
    if OP == "sum":
        v = tl.sum(x, axis=AX, keep_dims=KEEP)
        ii = v
    if OP == "max":
        v = tl.max(x, axis=AX, keep_dims=KEEP)
        ii = v
    if OP == "min":
        v = tl.min(x, axis=AX, keep_dims=KEEP)
        ii = v
    if OP == "xor_sum":
        v = tl.xor_sum(x, axis=AX, keep_dims=KEEP)
        ii = v
    if OP == "umax":
        v = tl.max(x.to(tl.uint32, bitcast=True), axis=AX, keep_dims=KEEP).to(tl.int32, bitcast=True)
        ii = v
    if OP == "prod":
        v = tl.reduce(x, AX, _mul_combine, keep_dims=KEEP)
        ii = v
    if OP == "argmax":
        ii = tl.argmax(x, axis=AX, keep_dims=KEEP)
        v = ii
    if OP == "argmin":
        ii = tl.argmin(x, axis=AX, keep_dims=KEEP)
        v = ii
    if OP == "max_idx":
        v, ii = tl.max(x, axis=AX, return_indices=True, keep_dims=KEEP)
    if OP == "tuple":
        v, ii = tl.reduce((x, idx), AX, _argmax_combine, keep_dims=KEEP)
    return v, ii


@triton.jit
def reduce_op(x_ptr, o_ptr, i_ptr, OP: tl.constexpr, AXIS: tl.constexpr, KEEP: tl.constexpr, M: tl.constexpr,
              N: tl.constexpr, HAS_IDX: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    idx = rm[:, None] * N + rn[None, :]
    if AXIS == 0:
        v, ii = _red(x, idx, 0, OP, KEEP)
        if KEEP:
            po = rn[None, :]
        else:
            po = rn
    elif AXIS == 1:
        v, ii = _red(x, idx, 1, OP, KEEP)
        if KEEP:
            po = rm[:, None]
        else:
            po = rm
    else:
        v, ii = _red(x, idx, None, OP, KEEP)
        if KEEP:
            po = tl.arange(0, 1)[:, None]
        else:
            po = 0
    tl.store(o_ptr + po, v)
    if HAS_IDX:
        tl.store(i_ptr + po, ii)


@triton.jit
def scan_op(x_ptr, o_ptr, OP: tl.constexpr, AXIS: tl.constexpr, REV: tl.constexpr, M: tl.constexpr,
            N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    idx = rm[:, None] * N + rn[None, :]
    if OP == "cumsum":
        y = tl.cumsum(x, axis=AXIS, reverse=REV)
    if OP == "cumprod":
        y = tl.cumprod(x, axis=AXIS, reverse=REV)
    if OP == "max":
        y = tl.associative_scan(x, AXIS, _max_combine, reverse=REV)
    if OP == "tuple":
        y, yi = tl.associative_scan((x, idx), AXIS, _argmax_combine, reverse=REV)
        y = y + yi.to(y.dtype)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], y)


@group
def g_reduce():
    M, N = 8, 32
    red = [
        # op, dt, axis (-1 = None), keep, special values in input
        ("sum", "f32", 0, False, False), ("sum", "f32", 1, False, False), ("sum", "f32", -1, False, False),
        ("sum", "f32", 1, True, False), ("sum", "f32", 0, False, True), ("max", "f32", 0, False, True),
        ("max", "f32", 1, True, False), ("min", "f32", 1, False, True), ("min", "f32", -1, False, False),
        ("argmax", "f32", 1, False, False), ("argmin", "f32", 0, False, False),
        ("prod", "f32", 1, False, False), ("tuple", "f32", 1, False, False), ("tuple", "f32", -1, True, False),
        ("max_idx", "f32", 0, False, False), ("max", "f32", -1, True, False),
        ("sum", "i32", 1, False, True), ("max", "i32", 0, False, True), ("min", "i32", -1, False, True),
        ("xor_sum", "i32", 1, False, True), ("xor_sum", "i32", -1, False, True), ("argmax", "i32", 0, False, False),
        ("argmin", "i32", 1, True, False), ("umax", "i32", 1, False, True), ("prod", "i32", 0, False, False),
        ("sum", "i64", 0, False, True), ("xor_sum", "i64", 1, False, True), ("max", "i64", 1, False, True),
        ("sum", "f16", 1, False, False), ("max", "f16", 0, False, True),
        ("sum", "bf16", 1, False, False), ("min", "bf16", 0, False, True),
        ("sum", "f64", -1, False, False), ("max", "f64", 1, False, True),
        ("sum", "i8", 1, False, True), ("max", "i16", 0, False, True), ("sum", "i16", 0, False, False),
    ]
    for op, dt, ax, keep, sp in red:
        rng = rng_for("red" + op + dt + str(ax) + str(keep) + str(sp))
        if op == "prod":
            x = (rng.uniform(0.8, 1.25, M * N) if dt == "f32" else rng.choice([1, 1, 1, -1, 2], M * N))
            x = x.astype(DT[dt][0])
        elif dt in INT_BITS:
            x = ivals(dt, M * N, rng, special=sp, **({} if sp else {"lo": -100, "hi": 100}))
        else:
            x = fvals(dt, M * N, rng, special=sp)
        if sp:
            x = rng.permutation(x)
        x = x.reshape(M, N)
        oshape = {0: (N,), 1: (M,), -1: (1,)}[ax]
        odt = "i32" if (op in ("argmax", "argmin") or (op == "sum" and dt in ("i8", "i16"))) else dt
        has_idx = op in ("max_idx", "tuple")
        add("reduce_%s_%s_ax%s%s%s" % (op, dt, "None" if ax < 0 else ax, "_keep" if keep else "", "_sp" if sp else ""),
            reduce_op, (1,),
            [("x_ptr", Buf(x, dt)), ("o_ptr", Buf(fill(odt, oshape), odt)), ("i_ptr", Buf(fill("i32", oshape, -1), "i32"))],
            {"OP": op, "AXIS": ax, "KEEP": keep, "M": M, "N": N, "HAS_IDX": has_idx})
    scans = [("cumsum", "i32", 1, False), ("cumsum", "f32", 0, False), ("cumsum", "f32", 1, True),
             ("cumprod", "f32", 1, False), ("cumprod", "i32", 0, True), ("max", "f32", 1, False),
             ("max", "i32", 0, True), ("cumsum", "i64", 1, False), ("cumsum", "f16", 1, False),
             ("tuple", "f32", 1, False), ("tuple", "i32", 0, True), ("cumsum", "i8", 0, False)]
    M2, N2 = 4, 16
    for op, dt, ax, rev in scans:
        rng = rng_for("scan" + op + dt + str(ax) + str(rev))
        if op == "cumprod":
            x = (rng.uniform(0.7, 1.4, M2 * N2) if dt == "f32" else rng.choice([1, 1, -1, 2, 3], M2 * N2))
            x = x.astype(DT[dt][0])
        elif dt in INT_BITS:
            x = ivals(dt, M2 * N2, rng, special=(dt != "i8"))
        else:
            x = fvals(dt, M2 * N2, rng, special=False)
        add("scan_%s_%s_ax%d%s" % (op, dt, ax, "_rev" if rev else ""), scan_op, (1,),
            [("x_ptr", Buf(x.reshape(M2, N2), dt)), ("o_ptr", Buf(fill(dt, (M2, N2)), dt))],
            {"OP": op, "AXIS": ax, "REV": rev, "M": M2, "N": N2})


# ============================================================================= group: integer ops
@triton.jit
def int_binop(x_ptr, y_ptr, o_ptr, n, OP: tl.constexpr, UNSIGNED: tl.constexpr, UT: tl.constexpr,
              ST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    if UNSIGNED:
        x = x.to(UT, bitcast=True)
        y = y.to(UT, bitcast=True)
    if OP == "cmp":
        tl.store(o_ptr + offs, x == y, mask=m)
        tl.store(o_ptr + n + offs, x != y, mask=m)
        tl.store(o_ptr + 2 * n + offs, x < y, mask=m)
        tl.store(o_ptr + 3 * n + offs, x <= y, mask=m)
        tl.store(o_ptr + 4 * n + offs, x > y, mask=m)
        tl.store(o_ptr + 5 * n + offs, x >= y, mask=m)
    else:
        if OP == "add":
            r = x + y
        if OP == "sub":
            r = x - y
        if OP == "mul":
            r = x * y
        if OP == "div":
            r = x // y
        if OP == "mod":
            r = x % y
        if OP == "and":
            r = x & y
        if OP == "or":
            r = x | y
        if OP == "xor":
            r = x ^ y
        if OP == "shl":
            r = x << y
        if OP == "shr":
            r = x >> y
        if OP == "min":
            r = tl.minimum(x, y)
        if OP == "max":
            r = tl.maximum(x, y)
        if OP == "where":
            r = tl.where(x > y, x - y, y + 3)
        if OP == "neg":
            r = -x
        if OP == "not":
            r = ~x
        if OP == "abs":
            r = tl.abs(x)
        if OP == "umulhi":
            r = tl.umulhi(x, y)
        if OP == "cdiv":
            r = tl.cdiv(x, y)
        if OP == "scalar_mix":
            r = x * 3 + 7 - (y & 15)
        if UNSIGNED:
            r = r.to(ST, bitcast=True)
        tl.store(o_ptr + offs, r, mask=m)


SIGNED_INT_OPS = ["add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr", "min", "max", "where",
                  "neg", "not", "abs", "scalar_mix"]
UNSIGNED_INT_OPS = ["div", "mod", "shr", "min", "max", "mul", "add"]


def int_inputs(op, dt, uns, rng, n):
    x = ivals(dt, n, rng)
    y = np.roll(ivals(dt, n, rng), 3)
    bits = INT_BITS[dt]
    info = np.iinfo(DT[dt][0])
    if op in ("div", "mod", "cdiv"):
        y[y == 0] = 3
        if not uns:
            y[(x == info.min) & (y == -1)] = -3
        if op == "cdiv":  # cdiv = (x + y - 1) // y: keep it away from overflow
            x = ivals(dt, n, rng, lo=0, hi=min(info.max // 2, 10 ** 6))
            y = ivals(dt, n, rng, special=False, lo=1, hi=min(info.max // 4, 1000))
    if op in ("shl", "shr"):
        y = (y.astype(np.int64) & (bits - 1)).astype(DT[dt][0])
    return x, y


@group
def g_int():
    n, B = 200, 64
    combos = [(op, False) for op in SIGNED_INT_OPS + ["cmp"]] + [(op, True) for op in UNSIGNED_INT_OPS + ["cmp"]]
    for dt in ["i8", "i16", "i32", "i64"]:
        for op, uns in combos:
            rng = rng_for("int" + op + dt + str(uns))
            x, y = int_inputs(op, dt, uns, rng, n)
            odt = "i1" if op == "cmp" else dt
            osh = (6, n) if op == "cmp" else (n,)
            add("int_%s_%s%s" % (op, "u" if uns else "", dt), int_binop, ((n + B - 1) // B,),
                [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("o_ptr", Buf(fill(odt, osh, 0), odt)),
                 ("n", Scalar(n, "i32"))],
                {"OP": op, "UNSIGNED": uns, "UT": UNS[dt], "ST": TL_DT[dt], "BLOCK": B})
    for dt, uns in [("i32", True), ("i64", True), ("i32", False)]:
        for op in (["umulhi"] if uns else ["cdiv"]):
            rng = rng_for("int" + op + dt)
            x, y = int_inputs(op, dt, uns, rng, n)
            add("int_%s_%s%s" % (op, "u" if uns else "", dt), int_binop, ((n + B - 1) // B,),
                [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("o_ptr", Buf(fill(dt, n, 0), dt)),
                 ("n", Scalar(n, "i32"))],
                {"OP": op, "UNSIGNED": uns, "UT": UNS[dt], "ST": TL_DT[dt], "BLOCK": B})


# ============================================================================= group: float ops
@triton.jit
def float_op(x_ptr, y_ptr, z_ptr, o_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    z = tl.load(z_ptr + offs, mask=m)
    if OP == "cmp":
        tl.store(o_ptr + offs, x == y, mask=m)
        tl.store(o_ptr + n + offs, x != y, mask=m)
        tl.store(o_ptr + 2 * n + offs, x < y, mask=m)
        tl.store(o_ptr + 3 * n + offs, x <= y, mask=m)
        tl.store(o_ptr + 4 * n + offs, x > y, mask=m)
        tl.store(o_ptr + 5 * n + offs, x >= y, mask=m)
    else:
        if OP == "add":
            r = x + y
        if OP == "sub":
            r = x - y
        if OP == "mul":
            r = x * y
        if OP == "div":
            r = x / y
        if OP == "mod":
            r = x % y
        if OP == "max":
            r = tl.maximum(x, y)
        if OP == "min":
            r = tl.minimum(x, y)
        if OP == "max_nan":
            r = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
        if OP == "min_nan":
            r = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
        if OP == "clamp":
            r = tl.clamp(x, y, z)
        if OP == "clamp_nan":
            r = tl.clamp(x, y, z, propagate_nan=tl.PropagateNan.ALL)
        if OP == "fma":
            r = tl.fma(x, y, z)
        if OP == "muladd":
            r = x * y + z
        if OP == "neg":
            r = -x
        if OP == "where":
            r = tl.where(x > y, x, z)
        if OP == "scalar_mix":
            r = x * 0.5 + 1.25 - y / 4.0
        tl.store(o_ptr + offs, r, mask=m)


FLOAT_OPS = ["add", "sub", "mul", "div", "mod", "max", "min", "max_nan", "min_nan", "clamp", "clamp_nan",
             "fma", "muladd", "neg", "where", "scalar_mix", "cmp"]


@group
def g_float():
    n, B = 160, 64
    for dt in ["f16", "bf16", "f32", "f64"]:
        for op in FLOAT_OPS:
            rng = rng_for("float" + op + dt)
            x = fvals(dt, n, rng)
            y = np.roll(fvals(dt, n, rng), 5)
            y[:3] = x[:3]  # equal pairs incl. NaN/NaN and inf/inf
            z = fvals(dt, n, rng, special=False)
            if op.startswith("clamp"):
                y = fvals(dt, n, rng, special=False, lo=-3.0, hi=-0.25)
                z = fvals(dt, n, rng, special=False, lo=0.25, hi=3.0)
            x = rng.permutation(x) if op == "where" else x
            odt = "i1" if op == "cmp" else dt
            osh = (6, n) if op == "cmp" else (n,)
            add("float_%s_%s" % (op, dt), float_op, ((n + B - 1) // B,),
                [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("z_ptr", Buf(z, dt)),
                 ("o_ptr", Buf(fill(odt, osh, 0), odt)), ("n", Scalar(n, "i32"))],
                {"OP": op, "BLOCK": B})


# ============================================================================= group: casts
@triton.jit
def cast_op(x_ptr, o_ptr, n, DST: tl.constexpr, ROUND: tl.constexpr, HAS_SRC_U: tl.constexpr, SRC_U: tl.constexpr,
            DST_U: tl.constexpr, BITCAST: tl.constexpr, STORE_T: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if HAS_SRC_U:
        x = x.to(SRC_U, bitcast=True)
    if BITCAST:
        y = x.to(DST, bitcast=True)
    elif ROUND == "":
        y = x.to(DST)
    else:
        y = x.to(DST, fp_downcast_rounding=ROUND)
    if DST_U:
        y = y.to(STORE_T, bitcast=True)
    tl.store(o_ptr + offs, y, mask=m)


def cast_input(src, dst, rng, n):
    """values for src that make src->dst well defined (float->int stays in range)"""
    if src.startswith("u"):
        return ivals("i" + src[1:], n, rng)
    if src in ("f16", "bf16", "f32", "f64") and (dst in INT_BITS or dst.startswith("u")):
        bits = INT_BITS.get(dst, None) or int(dst[1:])
        if dst.startswith("u"):
            lo, hi = 0.0, float(2 ** bits - 1)
        else:
            lo, hi = -float(2 ** (bits - 1)), float(2 ** (bits - 1) - 1)
        if src == "f16":
            lo, hi = max(lo, -60000.0), min(hi, 60000.0)
        hi = min(hi, 1e15)
        lo = max(lo, -1e15)
        v = np.concatenate([rng.uniform(lo * 0.9, hi * 0.9, n // 2), rng.uniform(-20, 20, n - n // 2)])
        v[:8] = [0.0, -0.0, 0.5, -0.5, 1.5, -1.75, 2.5, 1e-6 if not dst.startswith("u") else 3.99]
        if dst.startswith("u"):
            v = np.abs(v)
        if src == "bf16":
            return f32_to_bf16_bits(v.astype(np.float32))
        return v.astype(DT[src][0])
    if src.startswith("f8"):
        return vals(src, n, rng)
    if dst.startswith("f8") and src in ("f16", "bf16", "f32", "f64"):
        v = rng.standard_normal(n) * 40
        if src == "bf16":
            b = f32_to_bf16_bits(v.astype(np.float32))
            b[:6] = [0x7FC0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x4480]  # NaN inf -inf 0 -0 1024
            return b
        a = v.astype(DT[src][0])
        a[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1000.0, 1e-3, 2.0 ** -9]
        return a
    return vals(src, n, rng)


@group
def g_cast():
    n, B = 150, 64
    pairs = []
    for i in ["i8", "i16", "i32", "i64"]:
        for f in ["f16", "bf16", "f32", "f64"]:
            pairs += [(i, f, ""), (f, i, "")]
    for a in ["f16", "bf16", "f32", "f64"]:
        for b in ["f16", "bf16", "f32", "f64"]:
            if a != b:
                pairs.append((a, b, ""))
    pairs += [("f32", "f16", "rtz"), ("f32", "bf16", "rtz"), ("f32", "f16", "rtne"), ("f32", "bf16", "rtne"),
              ("f32", "f8e4m3", "rtne"), ("f32", "f8e5m2", "rtne"), ("f32", "f8e5m2", "rtz"),
              ("f16", "f8e4m3", "rtne"), ("f16", "f8e5m2", "rtne"),
              ("bf16", "f8e4m3", "rtne"), ("bf16", "f8e5m2", "rtne"),
              ("f8e4m3", "f32", ""), ("f8e5m2", "f32", ""), ("f8e4m3", "f16", ""), ("f8e5m2", "f16", ""),
              ("f8e4m3", "bf16", ""), ("f8e5m2", "bf16", ""),
              ("i8", "i32", ""), ("i32", "i8", ""), ("i16", "i64", ""), ("i64", "i16", ""), ("i64", "i32", ""),
              ("i32", "i64", ""), ("u8", "i32", ""), ("u16", "i64", ""), ("u32", "i64", ""), ("i32", "u64", ""),
              ("i1", "i32", ""), ("i32", "i1", ""), ("f32", "i1", ""), ("i1", "f32", ""), ("i1", "f16", ""),
              ("u32", "f32", ""), ("u64", "f32", ""), ("u8", "f16", ""), ("f32", "u32", ""), ("f64", "u64", ""),
              ("f32", "u8", "")]
    for src, dst, rnd in pairs:
        rng = rng_for("cast" + src + dst + rnd)
        s_store = ("i" + src[1:]) if src.startswith("u") else src
        d_store = ("i" + dst[1:]) if dst.startswith("u") else dst
        x = cast_input(src, dst, rng, n)
        add("cast_%s_%s%s" % (src, dst, ("_" + rnd) if rnd else ""), cast_op, ((n + B - 1) // B,),
            [("x_ptr", Buf(x, s_store)), ("o_ptr", Buf(fill(d_store, n, 0), d_store)), ("n", Scalar(n, "i32"))],
            {"DST": TL_DT[dst], "ROUND": rnd, "HAS_SRC_U": src.startswith("u"),
             "SRC_U": TL_DT[src] if src.startswith("u") else tl.int32,
             "DST_U": dst.startswith("u"), "BITCAST": False, "STORE_T": TL_DT[d_store], "BLOCK": B})
    for src, dst in [("f32", "i32"), ("i32", "f32"), ("f16", "i16"), ("bf16", "i16"), ("i64", "f64"), ("f8e4m3", "i8")]:
        rng = rng_for("bitcast" + src + dst)
        x = vals(src, n, rng)
        add("bitcast_%s_%s" % (src, dst), cast_op, ((n + B - 1) // B,),
            [("x_ptr", Buf(x, src)), ("o_ptr", Buf(fill(dst, n, 0), dst)), ("n", Scalar(n, "i32"))],
            {"DST": TL_DT[dst], "ROUND": "", "HAS_SRC_U": False, "SRC_U": tl.int32, "DST_U": False, "BITCAST": True,
             "STORE_T": TL_DT[dst], "BLOCK": B})


# ============================================================================= group: math & libdevice
@triton.jit
def math_op(x_ptr, y_ptr, o_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    if OP == "exp":
        r = tl.exp(x)
    if OP == "exp2":
        r = tl.exp2(x)
    if OP == "log":
        r = tl.log(x)
    if OP == "log2":
        r = tl.log2(x)
    if OP == "sin":
        r = tl.sin(x)
    if OP == "cos":
        r = tl.cos(x)
    if OP == "sqrt":
        r = tl.sqrt(x)
    if OP == "sqrt_rn":
        r = tl.sqrt_rn(x)
    if OP == "rsqrt":
        r = tl.rsqrt(x)
    if OP == "erf":
        r = tl.erf(x)
    if OP == "floor":
        r = tl.floor(x)
    if OP == "ceil":
        r = tl.ceil(x)
    if OP == "abs":
        r = tl.abs(x)
    if OP == "div_rn":
        r = tl.div_rn(x, y)
    if OP == "sigmoid":
        r = tl.sigmoid(x)
    if OP == "softmax":
        r = tl.softmax(x)
    if OP == "ld_tanh":
        r = libdevice.tanh(x)
    if OP == "ld_pow":
        r = libdevice.pow(x, y)
    if OP == "ld_atan2":
        r = libdevice.atan2(x, y)
    if OP == "ld_expm1":
        r = libdevice.expm1(x)
    if OP == "ld_log1p":
        r = libdevice.log1p(x)
    if OP == "ld_cbrt":
        r = libdevice.cbrt(x)
    if OP == "ld_sinh":
        r = libdevice.sinh(x)
    if OP == "ld_acos":
        r = libdevice.acos(x)
    if OP == "ld_asinh":
        r = libdevice.asinh(x)
    if OP == "ld_erfinv":
        r = libdevice.erfinv(x)
    if OP == "ld_hypot":
        r = libdevice.hypot(x, y)
    if OP == "ld_fmod":
        r = libdevice.fmod(x, y)
    if OP == "ld_nextafter":
        r = libdevice.nextafter(x, y)
    if OP == "ld_rint":
        r = libdevice.rint(x)
    if OP == "ld_trunc":
        r = libdevice.trunc(x)
    if OP == "ld_tan":
        r = libdevice.tan(x)
    if OP == "ld_exp10":
        r = libdevice.exp10(x)
    if OP == "ld_fast_expf":
        r = libdevice.fast_expf(x)
    tl.store(o_ptr + offs, r, mask=m)


MATH_OPS = ["exp", "exp2", "log", "log2", "sin", "cos", "sqrt", "sqrt_rn", "rsqrt", "erf", "floor", "ceil", "abs",
            "div_rn", "sigmoid"]
LD_OPS_F32 = ["ld_tanh", "ld_pow", "ld_atan2", "ld_expm1", "ld_log1p", "ld_cbrt", "ld_sinh", "ld_acos", "ld_asinh",
              "ld_erfinv", "ld_hypot", "ld_fmod", "ld_nextafter", "ld_rint", "ld_trunc", "ld_tan", "ld_exp10",
              "ld_fast_expf"]
LD_OPS_F64 = ["ld_tanh", "ld_pow", "ld_atan2", "ld_expm1", "ld_log1p", "ld_cbrt"]


@group
def g_math():
    n, B = 128, 64
    todo = [(op, dt) for dt in ["f32", "f64"] for op in MATH_OPS] + [(op, "f32") for op in LD_OPS_F32] + \
        [(op, "f64") for op in LD_OPS_F64] + [("abs", "i32"), ("abs", "i8"), ("abs", "i64"), ("abs", "f16"),
                                              ("abs", "bf16"), ("softmax", "f32")]
    todo = [(op, dt) for op, dt in todo if not (dt == "f64" and op in ("sqrt_rn", "div_rn"))]  # fp32-only in 3.6
    for op, dt in todo:
        rng = rng_for("math" + op + dt)
        if dt in INT_BITS:
            x, y = ivals(dt, n, rng), ivals(dt, n, rng)
        else:
            x = fvals(dt, n, rng, scale=3.0)
            if op in ("ld_acos", "ld_erfinv"):
                x[20:] = fvals(dt, n - 20, rng, special=False, lo=-1.0, hi=1.0)
            y = np.roll(fvals(dt, n, rng, scale=2.0), 7)
        grid = ((n + B - 1) // B,) if op != "softmax" else (1,)
        blk = B if op != "softmax" else n
        add("math_%s_%s" % (op, dt), math_op, grid,
            [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("o_ptr", Buf(fill(dt, n, 0), dt)), ("n", Scalar(n, "i32"))],
            {"OP": op, "BLOCK": blk})


# ============================================================================= group: control flow & misc
@triton.jit(noinline=True)
def _helper_noinline(x, y):
    return x * y + 1.0


@triton.jit
def _helper_inline(x, k: tl.constexpr):
    return x - k


@triton.jit
def _me_scalar(a, b):
    if a > b:
        r = a - b
    else:
        r = b * 2.0
    return r


@triton.jit
def _me_pack2(a0, a1):
    return a1, a0


@triton.jit
def cf_kernel(x_ptr, o_ptr, n, lo, hi, MODE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    r = tl.arange(0, BLOCK)
    offs = pid * BLOCK + r
    m = offs < n
    if MODE == "static_range":
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in tl.static_range(4):
            acc += tl.load(x_ptr + i * BLOCK + r) * (i + 1)
        tl.store(o_ptr + pid * BLOCK + r, acc)
    if MODE == "for_i32":
        acc = tl.zeros((BLOCK,), tl.float32)
        cnt = 0
        for i in range(lo, hi, 3):
            acc = acc * 0.5 + tl.load(x_ptr + (i % 4) * BLOCK + r)
            cnt += i
        tl.store(o_ptr + pid * BLOCK + r, acc + cnt)
    if MODE == "for_i64":
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in range(lo, hi):
            acc += tl.load(x_ptr + (i - lo) * BLOCK + r)
        tl.store(o_ptr + pid * BLOCK + r, acc)
    if MODE == "for_neg_step":
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in range(7, -1, -2):
            acc = acc * 2.0 + tl.load(x_ptr + (i % 4) * BLOCK + r)
        tl.store(o_ptr + pid * BLOCK + r, acc)
    if MODE == "nested_for":
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in range(0, hi):
            t = tl.zeros((BLOCK,), tl.float32)
            for j in range(i, 4):
                t += tl.load(x_ptr + j * BLOCK + r)
            acc = tl.maximum(acc, t)
        tl.store(o_ptr + pid * BLOCK + r, acc)
    if MODE == "tl_range_unroll":
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in tl.range(0, hi, 1, loop_unroll_factor=2):
            acc += tl.load(x_ptr + (i % 4) * BLOCK + r) * i
        tl.store(o_ptr + pid * BLOCK + r, acc)
    if MODE == "while":
        s = tl.load(x_ptr + pid).to(tl.int32)
        s = tl.abs(s) % 50 + 1
        steps = 0
        while s != 1:
            if s % 2 == 0:
                s = s // 2
            else:
                s = 3 * s + 1
            steps += 1
        tl.store(o_ptr + pid, steps.to(tl.float32))
    if MODE == "if_else":
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        if tl.sum(x) > 0:
            y = x * 2.0
        else:
            y = x - 1.0
        if pid % 2 == 0:
            y = y + 100.0
        tl.store(o_ptr + offs, y, mask=m)
    if MODE == "early_return":
        if pid >= lo:
            return
        x = tl.load(x_ptr + offs, mask=m)
        if pid == 1:
            tl.store(o_ptr + offs, -x, mask=m)
            return
        tl.store(o_ptr + offs, x + 1.0, mask=m)
    if MODE == "noinline_call":
        s = tl.load(x_ptr + pid)
        t = tl.load(x_ptr + 64 + pid)
        tl.store(o_ptr + pid, _helper_noinline(s, _helper_inline(t, 2.0)))
    if MODE == "device_print":
        x = tl.load(x_ptr + tl.arange(0, 4))
        tl.device_print("x=", x)
        tl.device_print("pid ", pid)
        tl.store(o_ptr + tl.arange(0, 4), x)
    if MODE == "device_assert":
        x = tl.load(x_ptr + offs, mask=m, other=1.0)
        tl.device_assert(x >= -1000.0, "x too small")
        tl.device_assert(tl.abs(x) < 1000.0, "masked", mask=m)
        tl.store(o_ptr + offs, x, mask=m)
    if MODE == "assume":
        tl.assume(n > 0)
        tl.assume(pid >= 0)
        tl.assume(lo % 2 == 0)
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(o_ptr + offs, x * lo, mask=m)
    if MODE == "barrier":
        x = tl.load(x_ptr + offs, mask=m)
        tl.store(o_ptr + offs, x, mask=m)
        tl.debug_barrier()
        y = tl.load(o_ptr + pid * BLOCK + (r + 1) % BLOCK)
        tl.debug_barrier()
        tl.store(o_ptr + offs, y + x, mask=m)
    if MODE == "map_elementwise":
        x = tl.load(x_ptr + offs, mask=m)
        y = tl.load(x_ptr + n + offs, mask=m)
        z = tl.map_elementwise(_me_scalar, x, y)
        tl.store(o_ptr + offs, z, mask=m)
    if MODE == "map_elementwise_pack2":
        x = tl.load(x_ptr + offs, mask=m)
        z = tl.map_elementwise(_me_pack2, x, pack=2)
        tl.store(o_ptr + offs, z, mask=m)


@group
def g_cf():
    B = 32
    modes = [
        # mode, grid, n, lo, hi, lo/hi dtype
        ("static_range", 2, 128, 0, 4, "i32"), ("for_i32", 2, 128, 2, 11, "i32"),
        ("for_i64", 2, 128, 8589934592, 8589934592 + 4, "i64"), ("for_neg_step", 1, 128, 0, 4, "i32"),
        ("nested_for", 2, 128, 0, 3, "i32"), ("tl_range_unroll", 1, 128, 0, 7, "i32"), ("while", 16, 128, 0, 4, "i32"),
        ("if_else", 4, 100, 0, 4, "i32"), ("early_return", 4, 100, 3, 4, "i32"),
        ("noinline_call", 4, 100, 0, 4, "i32"), ("device_print", 1, 4, 0, 4, "i32"),
        ("device_assert", 4, 100, 0, 4, "i32"), ("assume", 4, 100, 6, 4, "i32"), ("barrier", 4, 128, 0, 4, "i32"),
    ]
    if hasattr(tl, "map_elementwise"):
        modes += [("map_elementwise", 2, 60, 0, 4, "i32")]
    for mode, g, n, lo, hi, ldt in modes:
        rng = rng_for("cf" + mode)
        x = fvals("f32", 256, rng, special=False)
        if mode == "while":
            x = rng.integers(-200, 200, 256).astype(np.float32)
        add("cf_" + mode, cf_kernel, (g,),
            [("x_ptr", Buf(x, "f32")), ("o_ptr", Buf(fill("f32", 128, -5.0), "f32")), ("n", Scalar(n, "i32")),
             ("lo", Scalar(lo, ldt)), ("hi", Scalar(hi, ldt))],
            {"MODE": mode, "BLOCK": B}, num_warps=(1 if mode == "device_print" else 4),
            capture=(mode == "device_print"), launch_kw=({"debug": True} if mode == "device_assert" else None))


# ============================================================================= group: block pointers & tensor descriptors
@triton.jit
def bp_kernel(x_ptr, o_ptr, p_ptr, M, N, sm, MODE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    GN = tl.num_programs(1) * BN
    pad_offs = (pm * BM + rm)[:, None] * GN + (pn * BN + rn)[None, :]
    bp = tl.make_block_ptr(x_ptr, (M, N), (sm, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    ob = tl.make_block_ptr(o_ptr, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))
    if MODE == "zero":
        v = tl.load(bp, boundary_check=(0, 1), padding_option="zero")
        tl.store(p_ptr + pad_offs, v)
        tl.store(ob, v * 2, boundary_check=(0, 1))
    if MODE == "nan":
        v = tl.load(bp, boundary_check=(0, 1), padding_option="nan")
        tl.store(p_ptr + pad_offs, v)
        tl.store(ob, v + 1, boundary_check=(0, 1))
    if MODE == "check1":
        v = tl.load(bp, boundary_check=(1,), padding_option="zero")
        tl.store(ob, v, boundary_check=(1,))
    if MODE == "advance":
        acc = tl.zeros((BM, BN), tl.float32)
        b2 = tl.make_block_ptr(x_ptr, (M, N), (sm, 1), (pm * BM, 0), (BM, BN), (1, 0))
        for k in range(0, N, BN):
            acc += tl.load(b2, boundary_check=(0, 1), padding_option="zero")
            b2 = tl.advance(b2, (0, BN))
        tl.store(p_ptr + pad_offs, acc)
    if MODE == "oned":
        b1 = tl.make_block_ptr(x_ptr, (M * N,), (1,), (pm * BM * BN,), (BM * BN,), (0,))
        v = tl.load(b1, boundary_check=(0,), padding_option="zero")
        o1 = tl.make_block_ptr(p_ptr, (M * N + 7,), (1,), (pm * BM * BN,), (BM * BN,), (0,))
        tl.store(o1, v - 1, boundary_check=(0,))


@triton.jit
def td_kernel(x_ptr, o_ptr, p_ptr, M, N, MODE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    GN = tl.num_programs(1) * BN
    pad_offs = (pm * BM + rm)[:, None] * GN + (pn * BN + rn)[None, :]
    if MODE == "nan":
        xd = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN], padding_option="nan")
    else:
        xd = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])
    od = tl.make_tensor_descriptor(o_ptr, [M, N], [N, 1], [BM, BN])
    v = xd.load([pm * BM, pn * BN])
    tl.store(p_ptr + pad_offs, v)
    od.store([pm * BM, pn * BN], v * 3)


@group
def g_blockptr():
    M, N, BM, BN = 37, 45, 16, 16
    gm, gn = (M + BM - 1) // BM, (N + BN - 1) // BN
    for mode, dt in [("zero", "f32"), ("nan", "f32"), ("check1", "f32"), ("advance", "f32"), ("oned", "f32"),
                     ("zero", "f16"), ("nan", "bf16")]:
        rng = rng_for("bp" + mode + dt)
        sm = 48
        x = fvals(dt, M * sm, rng, special=False)
        if mode == "check1":  # only dim 1 is checked: keep dim 0 in bounds
            g = (M // BM, gn)
        else:
            g = (gm, gn)
        if mode == "oned":
            g = ((M * N + BM * BN - 1) // (BM * BN), 1)
        psize = max(g[0] * BM * g[1] * BN, M * N + 7)
        add("blockptr_%s_%s" % (mode, dt), bp_kernel, g,
            [("x_ptr", Buf(x, dt)), ("o_ptr", Buf(fill(dt, (M, N), -3.0), dt)),
             ("p_ptr", Buf(fill(dt if mode != "advance" else "f32", psize, -3.0), dt if mode != "advance" else "f32")),
             ("M", Scalar(M, "i32")), ("N", Scalar(N, "i32")), ("sm", Scalar(sm, "i32"))],
            {"MODE": mode, "BM": BM, "BN": BN})
    M, N = 40, 48
    gm, gn = (M + BM - 1) // BM, N // BN + 1
    for mode, dt in [("zero", "f32"), ("nan", "f32"), ("zero", "f16"), ("zero", "i32")]:
        rng = rng_for("td" + mode + dt)
        x = vals(dt, M * N, rng, special=False)
        add("tensordesc_%s_%s" % (mode, dt), td_kernel, (gm, gn),
            [("x_ptr", Buf(x, dt)), ("o_ptr", Buf(fill(dt, (M, N), -3), dt)),
             ("p_ptr", Buf(fill(dt, gm * BM * gn * BN, -3), dt)), ("M", Scalar(M, "i32")), ("N", Scalar(N, "i32"))],
            {"MODE": mode, "BM": BM, "BN": BN})


# ============================================================================= driver
# ============================================================================= group: real-world kernels
# Patterns from Triton's tutorials and python/test/unit/language/test_core.py that the groups
# above do not reach: sort, flip, interleave, philox random numbers and dropout, swizzle2d,
# argmax/argmin with ties and NaN, 3-D keep_dims reductions, reverse cumsum, ravel, and the
# tutorial matmul (grouped ordering, K-remainder masks, multiple_of/max_contiguous hints,
# leaky-relu epilogue), layer norm forward and fused softmax (tl.range over rows).
@triton.jit
def rw_kernel(x_ptr, y_ptr, o_ptr, i_ptr, n, seed, MODE: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    offs2 = rm[:, None] * N + rn[None, :]
    if MODE == "sort":
        tl.store(o_ptr + offs2, tl.sort(tl.load(x_ptr + offs2), dim=1))
    if MODE == "sort_desc":
        tl.store(o_ptr + offs2, tl.sort(tl.load(x_ptr + offs2), dim=1, descending=True))
    if MODE == "sort_i32":
        tl.store(i_ptr + offs2, tl.sort(tl.load(i_ptr + M * N + offs2), dim=1))
    if MODE == "flip":
        tl.store(o_ptr + offs2, tl.flip(tl.load(x_ptr + offs2), 1))
    if MODE == "interleave":
        tl.store(o_ptr + tl.arange(0, 2 * N), tl.interleave(tl.load(x_ptr + rn), tl.load(y_ptr + rn)))
    if MODE == "rand":
        offs = pid * N + rn
        tl.store(o_ptr + offs, tl.rand(seed, offs))
    if MODE == "randint":
        offs = pid * N + rn
        tl.store(i_ptr + offs, tl.randint(seed, offs).to(tl.int32, bitcast=True))
    if MODE == "randn":
        offs = pid * N + rn
        tl.store(o_ptr + offs, tl.randn(seed, offs))
    if MODE == "dropout":
        offs = pid * N + rn
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        keep = tl.rand(seed, offs) > 0.3
        tl.store(o_ptr + offs, tl.where(keep, x / (1 - 0.3), 0.0), mask=mask)
    if MODE == "swizzle":
        i = tl.broadcast_to(rm[:, None], (M, N))
        j = tl.broadcast_to(rn[None, :], (M, N))
        a, b = tl.swizzle2d(i, j, M, N, 3)
        tl.store(i_ptr + offs2, a * N + b)
    if MODE == "argminmax":
        x = tl.load(x_ptr + offs2)
        tl.store(i_ptr + rm, tl.argmax(x, axis=1))
        tl.store(i_ptr + M + rn, tl.argmin(x, axis=0))
        mx, ix = tl.max(x, axis=1, return_indices=True, return_indices_tie_break_left=False)
        tl.store(o_ptr + rm, mx)
        tl.store(i_ptr + M + N + rm, ix)
    if MODE == "reduce3d_keep":
        r4 = tl.arange(0, 4)
        x = tl.load(x_ptr + rm[:, None, None] * N * 4 + rn[None, :, None] * 4 + r4[None, None, :])
        s = tl.sum(x, axis=1, keep_dims=True)
        tl.store(o_ptr + rm[:, None, None] * 4 + r4[None, None, :], s)
        t = tl.max(x, axis=2)
        tl.store(o_ptr + M * 4 + offs2, t)
    if MODE == "cumsum_rev":
        tl.store(o_ptr + offs2, tl.cumsum(tl.load(x_ptr + offs2), axis=1, reverse=True))
    if MODE == "ravel":
        tl.store(o_ptr + tl.arange(0, M * N), tl.ravel(tl.load(x_ptr + offs2)) * 2.0)


@triton.jit
def mm_tutorial(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr,
                BK: tl.constexpr, GM: tl.constexpr, ACT: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    npg = GM * npn
    gid = pid // npg
    fm = gid * GM
    gsm = min(npm - fm, GM)
    pm = fm + ((pid % npg) % gsm)
    pn = (pid % npg) // gsm
    offs_am = (pm * BM + tl.arange(0, BM)) % M
    offs_bn = (pn * BN + tl.arange(0, BN)) % N
    offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BM), BM)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_bn[None, :] * sbn
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    if ACT == "leaky":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c = acc.to(tl.float16)
    offs_cm = pm * BM + tl.arange(0, BM)
    offs_cn = pn * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * offs_cm[:, None] + scn * offs_cn[None, :], c,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def ln_tutorial(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        _mean += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def softmax_tutorial(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr,
                     num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        col = tl.arange(0, BLOCK)
        mask = col < n_cols
        row = tl.load(in_ptr + row_idx * in_stride + col, mask=mask, other=-float("inf"))
        num = tl.exp(row - tl.max(row, axis=0))
        tl.store(out_ptr + row_idx * out_stride + col, num / tl.sum(num, axis=0), mask=mask)


@group
def g_realworld():
    M, N = 8, 16
    for mode, grid, xdt in [("sort", 1, "f32"), ("sort_desc", 1, "f16"), ("sort_i32", 1, "f32"), ("flip", 1, "f32"),
                            ("interleave", 1, "f32"), ("rand", 2, "f32"), ("randint", 2, "f32"), ("randn", 2, "f32"),
                            ("dropout", 2, "f32"), ("swizzle", 1, "f32"), ("argminmax", 1, "f32"),
                            ("reduce3d_keep", 1, "f32"), ("cumsum_rev", 1, "f32"), ("ravel", 1, "bf16")]:
        rng = rng_for("rw_" + mode)
        x = vals(xdt, M * N * 4, rng, special=False)
        if mode == "argminmax":  # ties and a NaN
            x = rng.integers(-3, 4, M * N * 4).astype(np.float32)
            x[5] = np.nan
        ii = rng.integers(-1000, 1000, 2 * M * N).astype(np.int32)
        add("rw_%s_%s" % (mode, xdt), rw_kernel, (grid,),
            [("x_ptr", Buf(x, xdt)), ("y_ptr", Buf(vals(xdt, N, rng, special=False), xdt)),
             ("o_ptr", Buf(fill(xdt, M * N * 4 + 2 * N, -3.0), xdt)), ("i_ptr", Buf(ii, "i32")),
             ("n", Scalar(100, "i32")), ("seed", Scalar(12345, "i32"))],
            {"MODE": mode, "M": M, "N": N})
    for (m, n, k, act, gm) in [(100, 72, 80, "none", 4), (64, 96, 40, "leaky", 2)]:
        rng = rng_for("mm_tut%d" % m)
        a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
        BM = BN = BK = 32
        grid = (-(-m // BM) * -(-n // BN),)
        add("rw_matmul_tutorial_%dx%dx%d_%s" % (m, n, k, act), mm_tutorial, grid,
            [("a_ptr", Buf(a, "f16")), ("b_ptr", Buf(b, "f16")), ("c_ptr", Buf(fill("f16", (m, n), -1.0), "f16")),
             ("M", Scalar(m, "i32")), ("N", Scalar(n, "i32")), ("K", Scalar(k, "i32")),
             ("sam", Scalar(k, "i32")), ("sak", Scalar(1, "i32")), ("sbk", Scalar(n, "i32")), ("sbn", Scalar(1, "i32")),
             ("scm", Scalar(n, "i32")), ("scn", Scalar(1, "i32"))],
            {"BM": BM, "BN": BN, "BK": BK, "GM": gm, "ACT": act})
    rng = rng_for("ln_tut")
    rows, ncol = 6, 300
    add("rw_layernorm_tutorial_f16", ln_tutorial, (rows,),
        [("X", Buf(rng.standard_normal((rows, ncol)).astype(np.float16), "f16")),
         ("Y", Buf(fill("f16", (rows, ncol), -1.0), "f16")),
         ("W", Buf(rng.uniform(0.5, 1.5, ncol).astype(np.float16), "f16")),
         ("B", Buf(rng.uniform(-0.5, 0.5, ncol).astype(np.float16), "f16")),
         ("Mean", Buf(fill("f32", rows, -1.0), "f32")), ("Rstd", Buf(fill("f32", rows, -1.0), "f32")),
         ("stride", Scalar(ncol, "i32")), ("N", Scalar(ncol, "i32")), ("eps", Scalar(1e-5, "f32"))],
        {"BLOCK": 128})
    rng = rng_for("sm_tut")
    rows, ncol = 10, 100
    add("rw_softmax_tutorial_f32", softmax_tutorial, (4,),
        [("out_ptr", Buf(fill("f32", (rows, 128), -1.0), "f32")),
         ("in_ptr", Buf(rng.standard_normal((rows, 128)).astype(np.float32) * 3, "f32")),
         ("in_stride", Scalar(128, "i32")), ("out_stride", Scalar(128, "i32")),
         ("n_rows", Scalar(rows, "i32")), ("n_cols", Scalar(ncol, "i32"))],
        {"BLOCK": 128, "num_stages": 2})


# ============================================================================= group: shipped kernels
# Kernels people ship that the tutorials do not cover (conformance/suite/kernels): RMSnorm,
# SwiGLU, cross-entropy (log-sum-exp minus the target logit) and split-K matmul whose K slices
# meet through atomic adds.
@triton.jit
def ship_rmsnorm(X, Y, W, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.).to(tl.float32)
    tl.store(Y + row * stride + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def ship_swiglu(A, B, O, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(A + offs, mask=m, other=0.).to(tl.float32)
    b = tl.load(B + offs, mask=m, other=0.).to(tl.float32)
    tl.store(O + offs, (a * tl.sigmoid(a) * b).to(O.dtype.element_ty), mask=m)


@triton.jit
def ship_xent(Logits, Target, Loss, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(Logits + row * stride + cols, mask=cols < N, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    t = tl.load(Target + row)
    xt = tl.load(Logits + row * stride + t).to(tl.float32)
    tl.store(Loss + row, lse - xt)


@triton.jit
def ship_splitk(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, SPLIT: tl.constexpr):
    pid = tl.program_id(0)
    pk = tl.program_id(1)
    nn = tl.cdiv(N, BN)
    rm = (pid // nn) * BM + tl.arange(0, BM)
    rn = (pid % nn) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(pk * BK, K, BK * SPLIT):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(A + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.)
        b = tl.load(B + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _ship_attn_block(acc, m_i, l_i, q, K, V, base, start, rm, rd, S, qk_scale, HEAD_D: tl.constexpr,
                     BN: tl.constexpr, CAUSAL: tl.constexpr):
    rn = start + tl.arange(0, BN)
    k = tl.load(K + base + rn[None, :] * HEAD_D + rd[:, None], mask=rn[None, :] < S, other=0.)
    v = tl.load(V + base + rn[:, None] * HEAD_D + rd[None, :], mask=rn[:, None] < S, other=0.)
    qk = tl.dot(q, k) * qk_scale
    valid = rn[None, :] < S
    if CAUSAL:
        valid = valid & (rm[:, None] >= rn[None, :])
    qk = tl.where(valid, qk, -float("inf"))
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    p = tl.math.exp2(qk - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
    return acc, m_new, l_i


@triton.jit
def ship_attn(Q, K, V, O, sm_scale, S, HEAD_D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
              CAUSAL: tl.constexpr, STATIC_BLOCKS: tl.constexpr):
    """Flash-attention forward (online softmax with exp2): key blocks in an scf.for, or unrolled
    with tl.static_range when STATIC_BLOCKS > 0; causal or not."""
    pm = tl.program_id(0)
    base = tl.program_id(1) * S * HEAD_D
    rm = pm * BM + tl.arange(0, BM)
    rd = tl.arange(0, HEAD_D)
    q = tl.load(Q + base + rm[:, None] * HEAD_D + rd[None, :], mask=rm[:, None] < S, other=0.)
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, HEAD_D), tl.float32)
    qk_scale = sm_scale * 1.44269504
    if STATIC_BLOCKS > 0:
        for j in tl.static_range(STATIC_BLOCKS):
            acc, m_i, l_i = _ship_attn_block(acc, m_i, l_i, q, K, V, base, j * BN, rm, rd, S, qk_scale, HEAD_D, BN,
                                             CAUSAL)
    else:
        for start in range(0, S, BN):
            acc, m_i, l_i = _ship_attn_block(acc, m_i, l_i, q, K, V, base, start, rm, rd, S, qk_scale, HEAD_D, BN,
                                             CAUSAL)
    tl.store(O + base + rm[:, None] * HEAD_D + rd[None, :], (acc / l_i[:, None]).to(tl.float16), mask=rm[:, None] < S)


def _half(dt, x):
    return f32_to_bf16_bits(x) if dt == "bf16" else np.asarray(x, DT[dt][0])


@group
def g_shipped():
    for dt in ("f32", "f16"):
        rng = rng_for("ship_rmsnorm_" + dt)
        rows, n = 6, 200
        add("ship_rmsnorm_" + dt, ship_rmsnorm, (rows,),
            [("X", Buf(_half(dt, rng.standard_normal((rows, n)) * 2), dt)), ("Y", Buf(fill(dt, (rows, n), -1.0), dt)),
             ("W", Buf(_half(dt, rng.uniform(0.5, 1.5, n)), dt)),
             ("stride", Scalar(n, "i32")), ("N", Scalar(n, "i32")), ("eps", Scalar(1e-6, "f32"))], {"BLOCK": 256})
    for dt in ("f16", "bf16"):
        rng = rng_for("ship_swiglu_" + dt)
        n = 3000
        add("ship_swiglu_" + dt, ship_swiglu, (-(-n // 1024),),
            [("A", Buf(_half(dt, rng.uniform(-6, 6, n)), dt)), ("B", Buf(_half(dt, rng.uniform(-3, 3, n)), dt)),
             ("O", Buf(fill(dt, n, -1.0), dt)), ("n", Scalar(n, "i32"))], {"BLOCK": 1024})
    rng = rng_for("ship_xent")
    rows, n = 8, 250
    add("ship_xent_f32", ship_xent, (rows,),
        [("Logits", Buf((rng.standard_normal((rows, 256)) * 4).astype(np.float32), "f32")),
         ("Target", Buf(rng.integers(0, n, rows).astype(np.int32), "i32")),
         ("Loss", Buf(fill("f32", rows, -1.0), "f32")), ("stride", Scalar(256, "i32")), ("N", Scalar(n, "i32"))],
        {"BLOCK": 256})
    for causal in (0, 1):
        for static in (0, 4):
            name = "ship_attn_%s_%s_f16" % ("causal" if causal else "full", "static" if static else "loop")
            rng = rng_for(name)
            h, S, D = 2, 100, 64
            q, k, v = (rng.uniform(-1, 1, (h, S, D)).astype(np.float16) for _ in range(3))
            add(name, ship_attn, (-(-S // 32), h),
                [("Q", Buf(q, "f16")), ("K", Buf(k, "f16")), ("V", Buf(v, "f16")), ("O", Buf(fill("f16", (h, S, D), -1.0), "f16")),
                 ("sm_scale", Scalar(0.125, "f32")), ("S", Scalar(S, "i32"))],
                {"HEAD_D": D, "BM": 32, "BN": 32, "CAUSAL": causal, "STATIC_BLOCKS": static})
    for split in (2, 4):
        rng = rng_for("ship_splitk%d" % split)
        m, n, k = 48, 40, 200
        BM = BN = BK = 16
        add("ship_splitk%d_f16" % split, ship_splitk, (-(-m // BM) * -(-n // BN), split),
            [("A", Buf(rng.uniform(-1, 1, (m, k)).astype(np.float16), "f16")),
             ("B", Buf(rng.uniform(-1, 1, (k, n)).astype(np.float16), "f16")),
             ("C", Buf(np.zeros((m, n), np.float32), "f32")),
             ("M", Scalar(m, "i32")), ("N", Scalar(n, "i32")), ("K", Scalar(k, "i32"))],
            {"BM": BM, "BN": BN, "BK": BK, "SPLIT": split})


# ============================================================================= group: benchmark kernels
# Size-generic kernels for make bench's int8-matmul and scan rows (docs/performance.md): every
# program owns its own output tile or row, so a launch is grid-parallel (no two programs store
# to one element), unlike the fixed-size dot_i8_64x32x64_acc and scan_op0 kernels.
@triton.jit
def bench_matmul_i8(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.int32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bench_scan_rows(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=0.0)
    tl.store(o_ptr + row * n + offs, tl.cumsum(x, 0), mask=m)


@group
def g_bench():
    rng = rng_for("bench_matmul_i8")
    m, n, k = 100, 72, 130
    add("bench_matmul_i8", bench_matmul_i8, (-(-m // 64), -(-n // 64)),
        [("a_ptr", Buf(rng.integers(-128, 128, (m, k)).astype(np.int8), "i8")),
         ("b_ptr", Buf(rng.integers(-128, 128, (k, n)).astype(np.int8), "i8")),
         ("c_ptr", Buf(fill("i32", (m, n), -1), "i32")),
         ("M", Scalar(m, "i32")), ("N", Scalar(n, "i32")), ("K", Scalar(k, "i32"))],
        {"BM": 64, "BN": 64, "BK": 32})
    rng = rng_for("bench_scan_rows")
    rows, n = 24, 200
    add("bench_scan_rows_f32", bench_scan_rows, (rows,),
        [("x_ptr", Buf(rng.uniform(-2, 2, (rows, n)).astype(np.float32), "f32")),
         ("o_ptr", Buf(fill("f32", (rows, n), -1.0), "f32")), ("n", Scalar(n, "i32"))],
        {"BLOCK": 256})


# ============================================================================= group: tt.dot_scaled
# Microscaled dot (MX formats, e8m0 scales). Hopper has no MX tensor cores; Triton 3.6 lowers
# dot_scaled there by upcasting the operands with their scales (a real answer to check ttref's
# decoding, packing and scale semantics against).
@triton.jit
def dot_scaled_k(a_ptr, as_ptr, b_ptr, bs_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                 AK: tl.constexpr, BK: tl.constexpr, AF: tl.constexpr, BF: tl.constexpr,
                 HAS_AS: tl.constexpr, HAS_BS: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    ra = tl.arange(0, AK)
    rb = tl.arange(0, BK)
    rs = tl.arange(0, K // 32)
    a = tl.load(a_ptr + rm[:, None] * AK + ra[None, :])
    b = tl.load(b_ptr + rb[:, None] * N + rn[None, :])
    if AF == "e2m1":
        a = a.to(tl.uint8, bitcast=True)
    if BF == "e2m1":
        b = b.to(tl.uint8, bitcast=True)
    if HAS_AS:
        sa = tl.load(as_ptr + rm[:, None] * (K // 32) + rs[None, :]).to(tl.uint8, bitcast=True)
    else:
        sa = None
    if HAS_BS:
        sb = tl.load(bs_ptr + rn[:, None] * (K // 32) + rs[None, :]).to(tl.uint8, bitcast=True)
    else:
        sb = None
    c = tl.dot_scaled(a, sa, AF, b, sb, BF)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], c)


def mx_operand(fmt, rows, cols, rng):
    """(storage array, dtype name) of an MX operand of logical shape rows x cols (e2m1 packs
    two values per byte along cols)."""
    if fmt == "e2m1":
        return rng.integers(0, 256, (rows, cols // 2)).astype(np.uint8), "i8"
    if fmt == "e4m3":
        a = rng.integers(0, 256, (rows, cols)).astype(np.uint8)
        a[(a & 0x7F) == 0x7F] = 0x38  # no NaN
        return a, "f8e4m3"
    if fmt == "e5m2":
        a = rng.integers(0, 256, (rows, cols)).astype(np.uint8)
        a[(a & 0x7C) == 0x7C] = 0x3C  # no inf/NaN
        return a, "f8e5m2"
    if fmt == "bf16":
        return f32_to_bf16_bits(rng.standard_normal((rows, cols)).astype(np.float32)), "bf16"
    return rng.standard_normal((rows, cols)).astype(np.float16), "f16"


@group
def g_dot_scaled():
    M = N = 32
    K = 64
    for af, bf, has_as, has_bs in [("e4m3", "e4m3", True, True), ("e2m1", "e2m1", True, True),
                                   ("e5m2", "e4m3", True, True), ("e2m1", "bf16", True, False),
                                   ("e4m3", "fp16", True, False), ("bf16", "e2m1", False, True)]:
        name = "dot_scaled_%s_%s" % (af, bf)
        rng = rng_for(name)
        a, adt = mx_operand(af, M, K, rng)
        bt, bdt = mx_operand(bf, N, K, rng)
        b = np.ascontiguousarray(bt.T) if bf != "e2m1" else np.ascontiguousarray(
            rng.integers(0, 256, (K // 2, N)).astype(np.uint8))
        if adt == "i8":
            a = a.view(np.int8)
        if bf == "e2m1":
            b = b.view(np.int8)
        sa = rng.integers(120, 135, (M, K // 32)).astype(np.uint8).view(np.int8)
        sb = rng.integers(120, 135, (N, K // 32)).astype(np.uint8).view(np.int8)
        add(name, dot_scaled_k, (1,),
            [("a_ptr", Buf(a, adt)), ("as_ptr", Buf(sa, "i8")), ("b_ptr", Buf(b, bdt if bf != "e2m1" else "i8")),
             ("bs_ptr", Buf(sb, "i8")), ("o_ptr", Buf(fill("f32", (M, N), -1.0), "f32"))],
            {"M": M, "N": N, "K": K, "AK": K // 2 if af == "e2m1" else K, "BK": K // 2 if bf == "e2m1" else K,
             "AF": af, "BF": bf, "HAS_AS": has_as, "HAS_BS": has_bs})


def build_cases(only):
    for g in GROUPS:
        try:
            g()
        except Exception as e:  # a broken group must not kill the others
            CASES.append(("GROUP_" + g.__name__, {"error": last_line(e)}))
    seen = set()
    out = []
    for name, spec in CASES:
        assert name not in seen, "duplicate case name " + name
        seen.add(name)
        if only and only not in name:
            continue
        out.append((name, spec))
    return out


def worker(args, cases):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    k, nsh = (int(v) for v in args.shard.split("/"))
    mine = [c for i, c in enumerate(cases) if i % nsh == k]
    deadline = args.t0 + args.deadline
    failpath = os.path.join(args.out, ".fail.%d" % k)
    failed = set()
    if args.resume and os.path.exists(failpath):
        failed = set(line.split(": ", 1)[0] for line in open(failpath) if line.strip())
    ffile = open(failpath, "a")
    ok, nfail = 0, 0

    def fail(name, err):
        ffile.write("%s: %s\n" % (name, err.replace("\n", " ")))
        ffile.flush()

    for name, spec in mine:
        if args.resume and (name in failed or os.path.isdir(os.path.join(args.out, name))):
            continue
        if time.time() > deadline:
            fail(name, "SKIPPED: generation deadline reached")
            nfail += 1
            continue
        if "error" in spec:
            fail(name, spec["error"])
            nfail += 1
            continue
        t = time.time()
        try:
            run_case(name, spec, args.out)
            ok += 1
            if args.verbose:
                print("ok   %-40s %.1fs" % (name, time.time() - t), flush=True)
        except Exception as e:
            fail(name, last_line(e))
            nfail += 1
            print("FAIL %s: %s" % (name, last_line(e)), flush=True)
            shutil.rmtree(os.path.join(args.out, "." + name + ".tmp"), ignore_errors=True)
            try:
                torch.cuda.synchronize()
                torch.empty(1, device="cuda").fill_(0).cpu()
            except Exception as e2:  # a sticky CUDA error: restart this worker in a fresh process
                print("CUDA context broken after %s (%s): restarting shard %d" % (name, last_line(e2), k), flush=True)
                ffile.close()
                sys.stdout.flush()
                argv = [sys.executable, os.path.abspath(__file__)] + [a for a in sys.argv[1:] if a != "--resume"]
                os.execv(sys.executable, argv + ["--resume"])
    ffile.close()
    print("shard %d/%d: %d ok, %d failed" % (k, nsh, ok, nfail), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--deadline", type=float, default=290.0, help="seconds after start to stop launching cases")
    ap.add_argument("--shard", default="", help=argparse.SUPPRESS)
    ap.add_argument("--t0", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--list", action="store_true", help="list case names and exit")
    args = ap.parse_args()
    if not args.t0:
        args.t0 = time.time()
    cases = build_cases(args.only)
    if args.list:
        for n, _ in cases:
            print(n)
        print(len(cases), "cases")
        return
    os.makedirs(args.out, exist_ok=True)
    if args.shard:
        worker(args, cases)
        return
    jobs = max(1, min(args.jobs, len(cases)))
    print("gen_corpus: %d cases, %d workers, triton %s, torch %s, %s" % (
        len(cases), jobs, triton.__version__, torch.__version__, torch.cuda.get_device_name(0)), flush=True)
    for f in os.listdir(args.out):
        if f.startswith(".fail."):
            os.remove(os.path.join(args.out, f))
    procs = []
    for k in range(jobs):
        cmd = [sys.executable, os.path.abspath(__file__), "--out", args.out, "--only", args.only,
               "--shard", "%d/%d" % (k, jobs), "--t0", repr(args.t0), "--deadline", repr(args.deadline)]
        if args.verbose:
            cmd.append("--verbose")
        procs.append(subprocess.Popen(cmd))
    hard = args.t0 + args.deadline + 25
    for k, p in enumerate(procs):
        try:
            p.wait(timeout=max(1.0, hard - time.time()))
        except subprocess.TimeoutExpired:
            print("worker %d still running at the hard deadline: killing it (pid %d)" % (k, p.pid), flush=True)
            p.kill()
            p.wait()
    fails = {}
    for k in range(jobs):
        fp = os.path.join(args.out, ".fail.%d" % k)
        if os.path.exists(fp):
            for line in open(fp):
                if line.strip():
                    n, _, err = line.partition(": ")
                    fails[n] = err.strip()
            os.remove(fp)
    done = set(d for d in os.listdir(args.out)
               if not d.startswith(".") and os.path.isfile(os.path.join(args.out, d, "case.json")))
    for n, _ in cases:
        if n not in done and n not in fails:
            fails[n] = "MISSING: worker died or was killed before finishing this case"
    for d in os.listdir(args.out):
        if d.startswith(".") and d.endswith(".tmp"):
            shutil.rmtree(os.path.join(args.out, d), ignore_errors=True)
    with open(os.path.join(args.out, "FAILURES.txt"), "w") as f:
        for n in sorted(fails):
            f.write("%s: %s\n" % (n, fails[n]))
    ok = [n for n, _ in cases if n in done]
    groups = {}
    for n in ok:
        groups[n.split("_")[0]] = groups.get(n.split("_")[0], 0) + 1
    print("=" * 70)
    print("per prefix:", ", ".join("%s=%d" % kv for kv in sorted(groups.items())))
    for n in sorted(fails):
        print("FAILED %s: %s" % (n, fails[n]))
    print("SUMMARY: %d cases generated, %d failed, %.0fs" % (len(ok), len(fails), time.time() - args.t0), flush=True)


if __name__ == "__main__":
    main()
