#!/usr/bin/env python3
"""opvec.py TTREF WORKDIR OPLIST: per-op execution vectors (TAP).

Every elementwise op of ir/ir_op_list.h (OPLIST) with a numpy / exact-rational oracle is run by
`ttref run` on special values of each dtype it takes (+-0, NaN, +-inf, subnormals, min normal,
max finite, ties, integer MIN/MAX, shift amounts at the width) and compared element by element
with an oracle that shares no code with ttref: exact rationals (fractions.Fraction) rounded to
nearest-even by the function below for + - * / fma and int->float, Python integers for the
integer ops, IEEE rules spelt out for min/max/compare/rounding, numpy's float64 libm for the
transcendentals (within 1 ulp of the result format, 2 for f64; exact on specials). NaN compares
equal to any NaN (payloads are unspecified, docs/numerics.md). The ops without such an oracle are
listed in NO_ORACLE with the reason; the test fails if an executable elementwise op of the table
is in neither list. One ttref launch per (dtype, op family); one TAP line per (op, dtype).
"""
import math
import os
import re
import subprocess
import sys
import warnings
from fractions import Fraction

import numpy as np

np.seterr(all="ignore")  # the special values overflow on purpose
warnings.simplefilter("ignore")

TTREF, WORK, OPLIST = sys.argv[1], sys.argv[2], sys.argv[3]
N = 1024  # lanes per launch (a power of two for tt.make_range)

FT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
IT = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
UT = {"i8": np.uint8, "i16": np.uint16, "i32": np.uint32, "i64": np.uint64}

# elementwise ops without an oracle here, and where they are tested instead
NO_ORACLE = {
    "tt.addptr": "pointer arithmetic: tests/unit/test_exec.c, the corpus",
    "tt.int_to_ptr": "pointers: the op suite (conformance/suite/ops)",
    "tt.ptr_to_int": "pointers: the op suite (conformance/suite/ops)",
    "tt.bitcast": "pointer and same-width casts: the op suite",
    "tt.fp_to_fp": "bf16/fp8 conversions (no numpy type): tests/unit/test_fp.c, the op suite",
    "tt.extern_elementwise": "libdevice symbols: tests/unit/test_fp_math.c (MPFR), the op suite",
    "tt.clampf": "NaN-policy attribute: the op suite",
    "<vendor op>": "vendor callbacks: tests/vendor/test_vendor.sh",
}

n_tests = 0
n_fail = 0


def tap(ok, desc, detail=""):
    global n_tests, n_fail
    n_tests += 1
    if not ok:
        n_fail += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n_tests, desc))
    if not ok and detail:
        for line in str(detail).splitlines()[:8]:
            print("# " + line)


# ---- exact rounding of a rational to a binary format (round to nearest, ties to even) ------
def round_frac(fr, T):
    """fr (a nonzero Fraction) correctly rounded to numpy float type T, overflow to inf"""
    fi = np.finfo(T)
    p, emin = fi.nmant + 1, fi.minexp
    s = -1 if fr < 0 else 1
    a = abs(fr)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    elif Fraction(2) ** (e + 1) <= a:
        e += 1
    q = max(e, emin) - (p - 1)  # exponent of one ulp
    scaled = a / Fraction(2) ** q
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    v = Fraction(m) * Fraction(2) ** q
    if v > Fraction(float(fi.max)):
        return T(s * np.inf)
    return T(s * float(v))


# ---- inputs ---------------------------------------------------------------------------------
def float_specials(T):
    fi = np.finfo(T)
    sub = np.nextafter(T(0), T(1))
    v = [0.0, -0.0, np.inf, -np.inf, np.nan, float(sub), -float(sub), 3 * float(sub),
         float(fi.tiny), -float(fi.tiny), float(fi.tiny) - float(sub), float(fi.max), -float(fi.max),
         1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, -7.25, 100.0, float(fi.eps), 1 + float(fi.eps),
         float(fi.max) / 3, 65504.0 * 2]
    return np.array(v, dtype=np.float64).astype(T)


def int_specials(name):
    T = IT[name]
    ii = np.iinfo(T)
    w = ii.bits
    v = [0, 1, -1, 2, -2, 3, 7, -7, ii.min, ii.min + 1, ii.max, ii.max - 1, w - 1, w, w + 1,
         int.from_bytes(b"\x55" * (w // 8), "little"), -int.from_bytes(b"\x55" * (w // 8), "little")]
    return np.array([((x - ii.min) % (1 << w)) + ii.min for x in v], dtype=T)


def lanes(vals, arity):
    """arity input arrays of N lanes: every tuple of vals (cycled up to N lanes)"""
    k = len(vals)
    idx = np.arange(N)
    if arity == 1:
        return [vals[idx % k]]
    if arity == 2:
        return [vals[(idx // k) % k], vals[idx % k]]
    return [vals[(idx // (k * k)) % k], vals[(idx // k) % k], vals[(idx * 7 + 3) % k]]


# ---- kernels --------------------------------------------------------------------------------
def kernel(in_types, outs):
    """a kernel loading %x, %y, %z (in_types) and storing one output per entry of outs:
    (result type, body lines computing %r from %a, %b, %c)"""
    names = "xyz"[: len(in_types)]
    args = ["%%%s: !tt.ptr<%s>" % (n, t) for n, t in zip(names, in_types)]
    args += ["%%o%d: !tt.ptr<%s>" % (k, o[0]) for k, o in enumerate(outs)]
    L = ["module {", "  tt.func public @k(%s) {" % ", ".join(args),
         "    %%rg = tt.make_range {end = %d : i32, start = 0 : i32} : tensor<%dxi32>" % (N, N)]
    for n, t, v in zip(names, in_types, "abc"):
        L += ["    %%%sp = tt.splat %%%s : !tt.ptr<%s> -> tensor<%dx!tt.ptr<%s>>" % (n, n, t, N, t),
              "    %%%sa = tt.addptr %%%sp, %%rg : tensor<%dx!tt.ptr<%s>>, tensor<%dxi32>" % (n, n, N, t, N),
              "    %%%s = tt.load %%%sa : tensor<%dx!tt.ptr<%s>>" % (v, n, N, t)]
    for k, (ot, body) in enumerate(outs):
        for line in body:
            L.append("    " + line.replace("%r", "%%r%d_" % k).replace("%t", "%%t%d_" % k))
        L += ["    %%op%d = tt.splat %%o%d : !tt.ptr<%s> -> tensor<%dx!tt.ptr<%s>>" % (k, k, ot, N, ot),
              "    %%oa%d = tt.addptr %%op%d, %%rg : tensor<%dx!tt.ptr<%s>>, tensor<%dxi32>" % (k, k, N, ot, N),
              "    tt.store %%oa%d, %%r%d_ : tensor<%dx!tt.ptr<%s>>" % (k, k, N, ot)]
    L += ["    tt.return", "  }", "}", ""]
    return "\n".join(L)


def launch(tag, in_types, inputs, outs):
    """runs the kernel; returns (list of output arrays or None, error text)"""
    d = os.path.join(WORK, tag)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "k.ttir"), "w") as f:
        f.write(kernel(in_types, outs))
    cmd = [TTREF, "run", os.path.join(d, "k.ttir"), "--grid", "1", "--quiet", "--out", os.path.join(d, "out")]
    for n, a in zip("xyz", inputs):
        np.save(os.path.join(d, n + ".npy"), a)
        cmd += ["--arg", "%s=@%s" % (n, os.path.join(d, n + ".npy"))]
    for k, (ot, _) in enumerate(outs):
        np.save(os.path.join(d, "o%d.npy" % k), np.zeros(N, dtype=npy_type(ot)))
        cmd += ["--arg", "o%d=@%s" % (k, os.path.join(d, "o%d.npy" % k))]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, "exit %d: %s" % (p.returncode, (p.stderr or p.stdout).strip())
    return [np.load(os.path.join(d, "out", "o%d.npy" % k)) for k in range(len(outs))], ""


def npy_type(t):
    return {**FT, **IT}[t] if t != "i1" else np.int8


def ulp_dist(a, b, T):
    """distance in units in the last place between finite a and b of type T"""
    ib = {np.float16: np.int16, np.float32: np.int32, np.float64: np.int64}[T]
    def key(x):
        i = int(np.array(x, dtype=T).view(ib))
        return i if i >= 0 else -(i & ((1 << (8 * np.dtype(T).itemsize - 1)) - 1))
    return abs(key(a) - key(b))


def compare(got, want, T, tol, inputs):
    """first mismatching lane as text, or ''"""
    for i in range(N):
        g, w = got[i], want[i]
        if np.issubdtype(T, np.floating):
            if np.isnan(g) and np.isnan(w):
                continue
            if g.tobytes() == w.tobytes():
                continue
            if tol and np.isfinite(g) and np.isfinite(w) and g != 0 and w != 0 and ulp_dist(g, w, T) <= tol:
                continue
        elif g == w:
            continue
        ins = ", ".join(repr(a[i].item()) for a in inputs)
        return "lane %d: inputs (%s): got %r, oracle %r" % (i, ins, g.item(), w.item())
    return ""


def run_family(dtype, in_types, vals, arity, ops, out_type):
    """ops: list of (label, mnemonic, body, oracle(inputs) -> array, tol)"""
    inputs = lanes(vals, arity)
    outs = [(out_type(o) if callable(out_type) else out_type, o[2]) for o in ops]
    got, err = launch("%s_%s" % (dtype, ops[0][0].replace(" ", "_").replace(".", "_")), in_types, inputs, outs)
    for k, (label, mn, body, oracle, tol) in enumerate(ops):
        desc = "%s %s: special values against the oracle" % (label, dtype)
        if got is None:
            tap(False, desc, err)
            continue
        want = oracle(inputs)
        T = got[k].dtype.type
        tap(not (msg := compare(got[k], want.astype(T), T, tol, inputs)), desc, msg)
        covered.add(mn)


covered = set()


def vec(f, T, *arrs):
    return np.array([f(*xs) for xs in zip(*arrs)], dtype=T)


# ---- float ops ------------------------------------------------------------------------------
def float_ops(dt):
    T = FT[dt]
    ty = "tensor<%dx%s>" % (N, dt)

    def fmod(x, y):  # C fmod: exact; NaN for x infinite or y zero; x for y infinite
        fx, fy = float(x), float(y)
        if math.isnan(fx) or math.isnan(fy) or math.isinf(fx) or fy == 0:
            return T(np.nan)
        return T(fx) if math.isinf(fy) else T(math.fmod(fx, fy))

    def add_zero(x, y, s):  # IEEE: an exact zero sum is +0 unless both addends are -0
        return T(-0.0) if (math.copysign(1, float(x)) < 0 and math.copysign(1, s * float(y)) < 0) else T(0.0)

    def addsub(s):
        def one(x, y):
            if all(math.isfinite(float(v)) for v in (x, y)):
                r = Fraction(float(x)) + s * Fraction(float(y))
                return round_frac(r, T) if r != 0 else add_zero(x, y, s)
            with np.errstate(all="ignore"):
                return T(np.float64(x) + s * np.float64(y))
        return lambda ins: vec(one, T, *ins)

    def muldiv(div):
        def one(x, y):
            fx, fy = float(x), float(y)
            if math.isfinite(fx) and math.isfinite(fy) and not (div and fy == 0):
                r = Fraction(fx) / Fraction(fy) if div else Fraction(fx) * Fraction(fy)
                if r != 0:
                    return round_frac(r, T)
                return T(math.copysign(0.0, math.copysign(1, fx) * math.copysign(1, fy)))
            with np.errstate(all="ignore"):
                return T(np.float64(x) / np.float64(y) if div else np.float64(x) * np.float64(y))
        return lambda ins: vec(one, T, *ins)

    def fma(ins):
        def one(a, b, c):
            fa, fb, fc = float(a), float(b), float(c)
            if all(math.isfinite(v) for v in (fa, fb, fc)):
                r = Fraction(fa) * Fraction(fb) + Fraction(fc)
                if r != 0:
                    return round_frac(r, T)
                ps = math.copysign(1, fa) * math.copysign(1, fb)
                return T(-0.0) if (fa * fb == 0 and ps < 0 and math.copysign(1, fc) < 0) else T(0.0)
            with np.errstate(all="ignore"):  # inf/NaN: the product is exact in binary64 here
                return T(np.float64(fa) * np.float64(fb) + np.float64(fc))
        return vec(one, T, *ins)

    def minmax(is_max, nan_wins):
        def one(x, y):
            fx, fy = float(x), float(y)
            if math.isnan(fx) or math.isnan(fy):
                if nan_wins or (math.isnan(fx) and math.isnan(fy)):
                    return T(np.nan)
                return T(fy if math.isnan(fx) else fx)
            if fx == fy == 0:  # -0 < +0 (docs/semantics.md: +0 for max, -0 for min)
                neg = math.copysign(1, fx) < 0 and math.copysign(1, fy) < 0 if is_max else \
                    math.copysign(1, fx) < 0 or math.copysign(1, fy) < 0
                return T(-0.0 if neg else 0.0)
            return T(max(fx, fy) if is_max else min(fx, fy))
        return lambda ins: vec(one, T, *ins)

    def unary_np(f):
        def g(ins):
            with np.errstate(all="ignore"):
                return f(ins[0].astype(np.float64)).astype(T)
        return g

    def round_half_away(x):
        if not math.isfinite(x):
            return x
        t = math.trunc(x)
        if abs(x - t) >= 0.5:
            t += math.copysign(1, x)
        return math.copysign(float(t), x)

    def erf(ins):
        return np.array([math.erf(float(v)) for v in ins[0]], dtype=np.float64).astype(T)

    tr = 1 if dt != "f64" else 2  # transcendental tolerance (the oracle is libm's binary64)
    b2 = lambda mn: ["%%r = %s %%a, %%b : %s" % (mn, ty)]
    u1 = lambda mn: ["%%r = %s %%a : %s" % (mn, ty)]
    binops = [
        ("arith.addf", "arith.addf", b2("arith.addf"), addsub(1), 0),
        ("arith.subf", "arith.subf", b2("arith.subf"), addsub(-1), 0),
        ("arith.mulf", "arith.mulf", b2("arith.mulf"), muldiv(False), 0),
        ("arith.divf", "arith.divf", b2("arith.divf"), muldiv(True), 0),
        ("tt.precise_divf", "tt.precise_divf", b2("tt.precise_divf"), muldiv(True), 0),
        ("arith.remf", "arith.remf", b2("arith.remf"), lambda ins: vec(fmod, T, *ins), 0),
        ("arith.maxnumf", "arith.maxnumf", b2("arith.maxnumf"), minmax(True, False), 0),
        ("arith.minnumf", "arith.minnumf", b2("arith.minnumf"), minmax(False, False), 0),
        ("arith.maximumf", "arith.maximumf", b2("arith.maximumf"), minmax(True, True), 0),
        ("arith.minimumf", "arith.minimumf", b2("arith.minimumf"), minmax(False, True), 0),
        ("math.powf", "math.powf", b2("math.powf"), lambda ins: unary_np(lambda a: np.power(a, ins[1].astype(np.float64)))(ins), tr),
    ]
    run_family(dt, [dt, dt], float_specials(T), 2, binops, dt)
    unops = [
        ("arith.negf", "arith.negf", u1("arith.negf"), lambda ins: -ins[0], 0),
        ("math.absf", "math.absf", u1("math.absf"), lambda ins: np.abs(ins[0]), 0),
        ("math.sqrt", "math.sqrt", u1("math.sqrt"), unary_np(np.sqrt), 0),
        ("tt.precise_sqrt", "tt.precise_sqrt", u1("tt.precise_sqrt"), unary_np(np.sqrt), 0),
        ("math.rsqrt", "math.rsqrt", u1("math.rsqrt"), unary_np(lambda a: 1 / np.sqrt(a)), tr),
        ("math.floor", "math.floor", u1("math.floor"), unary_np(np.floor), 0),
        ("math.ceil", "math.ceil", u1("math.ceil"), unary_np(np.ceil), 0),
        ("math.trunc", "math.trunc", u1("math.trunc"), unary_np(np.trunc), 0),
        ("math.round", "math.round", u1("math.round"),
         lambda ins: np.array([round_half_away(float(v)) for v in ins[0]]).astype(T), 0),
        ("math.roundeven", "math.roundeven", u1("math.roundeven"), unary_np(np.rint), 0),
        ("math.exp", "math.exp", u1("math.exp"), unary_np(np.exp), tr),
        ("math.exp2", "math.exp2", u1("math.exp2"), unary_np(np.exp2), tr),
        ("math.expm1", "math.expm1", u1("math.expm1"), unary_np(np.expm1), tr),
        ("math.log", "math.log", u1("math.log"), unary_np(np.log), tr),
        ("math.log2", "math.log2", u1("math.log2"), unary_np(np.log2), tr),
        ("math.log10", "math.log10", u1("math.log10"), unary_np(np.log10), tr),
        ("math.log1p", "math.log1p", u1("math.log1p"), unary_np(np.log1p), tr),
        ("math.sin", "math.sin", u1("math.sin"), unary_np(np.sin), tr),
        ("math.cos", "math.cos", u1("math.cos"), unary_np(np.cos), tr),
        ("math.tan", "math.tan", u1("math.tan"), unary_np(np.tan), tr),
        ("math.tanh", "math.tanh", u1("math.tanh"), unary_np(np.tanh), tr),
        ("math.erf", "math.erf", u1("math.erf"), erf, tr),
    ]
    run_family(dt, [dt], float_specials(T), 1, unops, dt)
    run_family(dt, [dt, dt, dt], float_specials(T), 3,
               [("math.fma", "math.fma", ["%%r = math.fma %%a, %%b, %%c : %s" % ty], fma, 0)], dt)
    preds = {"oeq": lambda x, y: x == y, "ogt": lambda x, y: x > y, "oge": lambda x, y: x >= y,
             "olt": lambda x, y: x < y, "ole": lambda x, y: x <= y,
             "one": lambda x, y: x != y and not (math.isnan(x) or math.isnan(y)),
             "ord": lambda x, y: not (math.isnan(x) or math.isnan(y))}
    for p in list(preds):  # unordered = ordered or either is NaN (une: not oeq)
        f = preds[p]
        if p != "ord":
            preds["u" + p[1:]] = (lambda f: lambda x, y: math.isnan(x) or math.isnan(y) or f(x, y))(f)
    preds["uno"] = lambda x, y: math.isnan(x) or math.isnan(y)
    cmps = [("arith.cmpf %s" % p, "arith.cmpf",
             ["%%t = arith.cmpf %s, %%a, %%b : %s" % (p, ty),
              "%%r = arith.extui %%t : tensor<%dxi1> to tensor<%dxi8>" % (N, N)],
             (lambda f: lambda ins: vec(lambda x, y: int(f(float(x), float(y))), np.int8, *ins))(f), 0)
            for p, f in sorted(preds.items())]
    run_family(dt, [dt, dt], float_specials(T), 2, cmps, "i8")


# ---- integer ops ----------------------------------------------------------------------------
def int_ops(dt):
    T, U = IT[dt], UT[dt]
    w = np.iinfo(T).bits
    M = 1 << w
    ty = "tensor<%dx%s>" % (N, dt)
    wrap = lambda v: ((v + M // 2) % M) - M // 2
    u = lambda v: int(v) % M
    imin = -M // 2

    def tdiv(a, b):  # truncating
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    def two(f):
        return lambda ins: vec(lambda a, b: wrap(f(int(a), int(b))), T, *ins)

    b2 = lambda mn: ["%%r = %s %%a, %%b : %s" % (mn, ty)]
    u1 = lambda mn: ["%%r = %s %%a : %s" % (mn, ty)]
    ops = [
        ("arith.addi", "arith.addi", b2("arith.addi"), two(lambda a, b: a + b), 0),
        ("arith.subi", "arith.subi", b2("arith.subi"), two(lambda a, b: a - b), 0),
        ("arith.muli", "arith.muli", b2("arith.muli"), two(lambda a, b: a * b), 0),
        ("arith.divsi", "arith.divsi", b2("arith.divsi"),
         two(lambda a, b: 0 if b == 0 else imin if (a == imin and b == -1) else tdiv(a, b)), 0),
        ("arith.divui", "arith.divui", b2("arith.divui"), two(lambda a, b: 0 if b == 0 else u(a) // u(b)), 0),
        ("arith.ceildivsi", "arith.ceildivsi", b2("arith.ceildivsi"), two(lambda a, b: 0 if b == 0 else -((-a) // b)), 0),
        ("arith.ceildivui", "arith.ceildivui", b2("arith.ceildivui"), two(lambda a, b: 0 if b == 0 else -((-u(a)) // u(b))), 0),
        ("arith.floordivsi", "arith.floordivsi", b2("arith.floordivsi"), two(lambda a, b: 0 if b == 0 else a // b), 0),
        ("arith.remsi", "arith.remsi", b2("arith.remsi"), two(lambda a, b: 0 if b == 0 else a - b * tdiv(a, b)), 0),
        ("arith.remui", "arith.remui", b2("arith.remui"), two(lambda a, b: 0 if b == 0 else u(a) % u(b)), 0),
        ("arith.andi", "arith.andi", b2("arith.andi"), two(lambda a, b: a & b), 0),
        ("arith.ori", "arith.ori", b2("arith.ori"), two(lambda a, b: a | b), 0),
        ("arith.xori", "arith.xori", b2("arith.xori"), two(lambda a, b: a ^ b), 0),
        ("arith.shli", "arith.shli", b2("arith.shli"), two(lambda a, b: 0 if u(b) >= w else a << u(b)), 0),
        ("arith.shrsi", "arith.shrsi", b2("arith.shrsi"), two(lambda a, b: (-1 if a < 0 else 0) if u(b) >= w else a >> u(b)), 0),
        ("arith.shrui", "arith.shrui", b2("arith.shrui"), two(lambda a, b: 0 if u(b) >= w else u(a) >> u(b)), 0),
        ("arith.minsi", "arith.minsi", b2("arith.minsi"), two(min), 0),
        ("arith.maxsi", "arith.maxsi", b2("arith.maxsi"), two(max), 0),
        ("arith.minui", "arith.minui", b2("arith.minui"), two(lambda a, b: min(u(a), u(b))), 0),
        ("arith.maxui", "arith.maxui", b2("arith.maxui"), two(lambda a, b: max(u(a), u(b))), 0),
        ("arith.select", "arith.select",
         ["%%t = arith.cmpi slt, %%a, %%b : %s" % ty, "%%r = arith.select %%t, %%b, %%a : tensor<%dxi1>, %s" % (N, ty)],
         two(lambda a, b: b if a < b else a), 0),
    ]
    if w >= 32:
        ops.append(("tt.mulhiui", "tt.mulhiui", b2("tt.mulhiui"), two(lambda a, b: (u(a) * u(b)) >> w), 0))
    preds = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "slt": lambda a, b: a < b,
             "sle": lambda a, b: a <= b, "sgt": lambda a, b: a > b, "sge": lambda a, b: a >= b,
             "ult": lambda a, b: u(a) < u(b), "ule": lambda a, b: u(a) <= u(b),
             "ugt": lambda a, b: u(a) > u(b), "uge": lambda a, b: u(a) >= u(b)}
    for p, f in sorted(preds.items()):
        ops.append(("arith.cmpi %s" % p, "arith.cmpi",
                    ["%%t = arith.cmpi %s, %%a, %%b : %s" % (p, ty),
                     "%%r = arith.extui %%t : tensor<%dxi1> to tensor<%dxi8>" % (N, N)],
                    (lambda f: lambda ins: vec(lambda a, b: int(f(int(a), int(b))), np.int8, *ins))(f), 0))
    run_family(dt, [dt, dt], int_specials(dt), 2, ops, lambda o: "i8" if "cmpi" in o[0] else dt)
    one = lambda f: (lambda ins: vec(lambda a: wrap(f(int(a))), T, *ins))
    ctlz = lambda a: w - u(a).bit_length()
    cttz = lambda a: w if u(a) == 0 else (u(a) & -u(a)).bit_length() - 1
    unops = [
        ("math.absi", "math.absi", u1("math.absi"), one(abs), 0),
        ("math.ctpop", "math.ctpop", u1("math.ctpop"), one(lambda a: bin(u(a)).count("1")), 0),
        ("math.ctlz", "math.ctlz", u1("math.ctlz"), one(ctlz), 0),
        ("math.cttz", "math.cttz", u1("math.cttz"), one(cttz), 0),
    ]
    run_family(dt, [dt], int_specials(dt), 1, unops, dt)


# ---- casts ----------------------------------------------------------------------------------
def casts():
    def cast(src, dst, mn, oracle, tol=0):
        vals = float_specials(FT[src]) if src in FT else int_specials(src)
        body = ["%%r = %s %%a : tensor<%dx%s> to tensor<%dx%s>" % (mn, N, src, N, dst)]
        run_family("%s->%s" % (src, dst), [src], vals, 1, [(mn, mn, body, oracle, tol)], dst)

    def itof(unsigned, T, wsrc):
        def one(a):
            v = int(a) % (1 << wsrc) if unsigned else int(a)
            return round_frac(Fraction(v), T) if v else T(0.0)
        return lambda ins: vec(one, T, *ins)

    def ftoi(unsigned, dst):
        ii = np.iinfo(IT[dst])
        lo, hi = (0, (1 << ii.bits) - 1) if unsigned else (int(ii.min), int(ii.max))
        def one(x):
            x = float(x)
            if math.isnan(x):
                return 0
            v = lo if x == -math.inf else hi if x == math.inf else math.trunc(x)
            v = min(max(v, lo), hi)
            return v - (1 << ii.bits) if v > ii.max else v  # the unsigned result's bits
        return lambda ins: vec(one, IT[dst], *ins)

    for s, d in (("f16", "f32"), ("f32", "f64"), ("f16", "f64")):
        cast(s, d, "arith.extf", lambda ins, d=d: ins[0].astype(FT[d]))
    for s, d in (("f64", "f32"), ("f64", "f16"), ("f32", "f16")):
        cast(s, d, "arith.truncf", lambda ins, d=d: ins[0].astype(FT[d]))  # numpy rounds RNE, once
    for s, d in (("i32", "f32"), ("i64", "f64"), ("i64", "f32"), ("i16", "f16"), ("i8", "f16"), ("i64", "f16")):
        cast(s, d, "arith.sitofp", itof(False, FT[d], np.iinfo(IT[s]).bits))
        cast(s, d, "arith.uitofp", itof(True, FT[d], np.iinfo(IT[s]).bits))
    for s, d in (("f32", "i32"), ("f64", "i64"), ("f32", "i8"), ("f16", "i16"), ("f64", "i32")):
        cast(s, d, "arith.fptosi", ftoi(False, d))
        cast(s, d, "arith.fptoui", ftoi(True, d))
    for s, d in (("i8", "i32"), ("i16", "i64"), ("i32", "i64")):
        cast(s, d, "arith.extsi", lambda ins, d=d: ins[0].astype(IT[d]))
        cast(s, d, "arith.extui", lambda ins, s=s, d=d: ins[0].view(UT[s]).astype(IT[d]))
    for s, d in (("i64", "i32"), ("i32", "i8"), ("i64", "i16")):
        cast(s, d, "arith.trunci", lambda ins, d=d: ins[0].astype(IT[d]))  # numpy keeps the low bits
    cast("i32", "i64", "arith.index_cast", lambda ins: ins[0].astype(np.int64))
    cast("i64", "i32", "arith.index_cast", lambda ins: ins[0].astype(np.int32))
    for s, d in (("f32", "i32"), ("i32", "f32"), ("f64", "i64"), ("i64", "f64"), ("f16", "i16"), ("i16", "f16")):
        cast(s, d, "arith.bitcast", lambda ins, d=d: ins[0].view(npy_type(d)))


def main():
    for dt in ("f16", "f32", "f64"):
        float_ops(dt)
    for dt in ("i8", "i16", "i32", "i64"):
        int_ops(dt)
    casts()
    # every executable elementwise op of the table has an oracle here or a reason in NO_ORACLE
    rows = re.findall(r'^X\(\w+,\s*"([^"]+)".*?,\s*([^,]*IR_F[^)]*)\)', open(OPLIST).read(), re.M)
    ew = [mn for mn, fl in rows if "IR_F_ELEMENTWISE" in fl and "IR_F_UNSUPPORTED" not in fl]
    missing = [mn for mn in ew if mn not in covered and mn not in NO_ORACLE]
    tap(len(ew) > 60 and not missing,
        "every executable elementwise op of ir_op_list.h (%d) has execution vectors or a reason" % len(ew),
        "no vectors: " + " ".join(missing))
    stale = [mn for mn in NO_ORACLE if mn not in [r[0] for r in rows]]
    tap(not stale, "every op listed without an oracle is in ir_op_list.h", "stale: " + " ".join(stale))
    print("1..%d" % n_tests)
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
