#!/usr/bin/env python3
"""Capture the op-suite kernels on the GPU machine (Triton 3.6, NVIDIA H100).

Usage: python3 scripts/gpu/gen_ops.py --out DIR [--only SUBSTRING] [--jobs N] [--deadline S] [--list]

The op suite (conformance/suite/ops, built by scripts/gen_ops_suite.py) takes its kernels from the
real-GPU corpus (tests/data/corpus/triton-3.6-h100-gen, scripts/gpu/gen_corpus.py) and from this
script, which fills the gaps of the corpus: more dtypes for shape ops, reductions, scans and casts,
atomics over every kind x memory semantics x scope, 2-D/3-D grids, tensor-descriptor reduce,
gather and scatter, and the ops Triton never emits alone.

Two kinds of case, both written in gen_corpus.py's layout (DIR/<case>/kernel.ttir, case.json,
NAME.in.npy, NAME.gpu.npy):
  * generated: a @triton.jit kernel launched with `kernel[grid](...)`; kernel.ttir is
    compiled.asm["ttir"] (gen_corpus.run_case, imported, not copied);
  * derived: TTIR written by rewriting one op or attribute of a generated kernel's TTIR
    (`math.exp` -> `math.tanh`, `arith.cmpf oeq` -> `arith.cmpf ueq`, a `cf.br` block, ...),
    then compiled from the file with triton.compile(path, target=GPUTarget("cuda", 90, 32)) --
    the make_ttir passes are not re-run, as in check_printed_ttir.py -- and launched on the base
    case's inputs. case.json gets "derived_from" and "rewrite".
When Triton cannot compile or run a case, the case is still written, with "gpu_error" in case.json
and no NAME.gpu.npy (for a generated kernel the TTIR comes from Triton's IR dump,
TRITON_KERNEL_DUMP, when make_ttir got that far): the suite tags such cases gpu-unsupported
instead of dropping them. DIR/FAILURES.txt lists every case that has a gpu_error.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# the unary math.* ops Triton 3.6's front end emits itself (tl.exp, tl.sqrt, tl.floor, ...); every
# other unary float math.* row of ir/ir_op_list.h is derived from math.exp's kernel
TRITON_MATH = {"exp", "exp2", "log", "log2", "sin", "cos", "sqrt", "rsqrt", "erf", "floor", "ceil", "absf"}


def derived_math():
    rows = re.findall(r'^X\(\w+,\s*"math\.(\w+)",\s*1,\s*1,[^,]*,\s*SAME,\s*SAME_FLOAT,',
                      open(os.path.join(HERE, "..", "..", "ir", "ir_op_list.h")).read(), re.M)
    return [f for f in rows if f not in TRITON_MATH]

sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import gen_corpus as gc  # noqa: E402  (kernels, dtype tables, Buf/Scalar, run_case)
import check_printed_ttir as cpt  # noqa: E402  (parse_signature, to_torch, from_torch)

triton, tl, torch = gc.triton, gc.tl, gc.torch
Buf, Scalar, DT, TL_DT, fill, vals, ivals, fvals = gc.Buf, gc.Scalar, gc.DT, gc.TL_DT, gc.fill, gc.vals, gc.ivals, gc.fvals

UNITS = []  # [(name, spec, [(derived_name, rewrite_fn, description)])]


def add(name, kernel, grid, args, constexprs=None, derive=(), num_warps=4, unordered=False):
    spec = dict(kernel=kernel, grid=grid, args=args, constexprs=constexprs or {}, num_warps=num_warps,
                unordered=unordered, capture=False, launch_kw={})
    UNITS.append((name, spec, list(derive)))


def add_ttir(name, text, grid, args, description):
    """A hand-written TTIR kernel (no Python source): compiled from the file and launched."""
    UNITS.append((name, dict(ttir=text, grid=grid, args=args, description=description, num_warps=4), []))


def sub(pattern, repl, count=0):
    def f(src):
        out, n = re.subn(pattern, repl, src, count=count)
        if n == 0:
            raise ValueError("rewrite %r did not apply" % pattern)
        return out
    return f


# ============================================================================= rewrites (derived TTIR)
def store_through_poison(src):
    """`tt.store %p, %v, %m : tensor<NxPtr<T>>` -> select(%m, %v, ub.poison) stored under the same mask:
    masked-off lanes hold poison and are never stored, so the result is defined."""
    m = re.search(r"^(\s*)tt\.store (%[\w.]+), (%[\w.]+), (%[\w.]+) : tensor<(\d+)x!tt\.ptr<(\w+)>>", src, re.M)
    if not m:
        raise ValueError("no masked tt.store")
    ind, p, v, msk, n, t = m.groups()
    vt = "tensor<%sx%s>" % (n, t)
    pre = ("%s%%pz = ub.poison : %s\n%s%%vz = arith.select %s, %s, %%pz : tensor<%sxi1>, %s\n"
           % (ind, vt, ind, msk, v, n, vt))
    line = m.group(0).replace(", %s, %s :" % (v, msk), ", %%vz, %s :" % msk)
    return src[:m.start()] + pre + line + src[m.end():]


def cond_br_via_br(src):
    """put a `cf.br ^bbN(%c1 : i32)` with a block argument in front of the second cf.cond_br"""
    m = re.search(r"^(\s*)(%\w+) = arith\.cmpi eq, (%\w+), (%c1_i32) : i32( loc\([^\n]*\))?\n", src, re.M)
    if not m:
        raise ValueError("no cmpi eq with %c1_i32")
    ind, res, pid, one, _ = m.groups()
    new = "%scf.br ^bb9(%s : i32)\n  ^bb9(%%one: i32):  // pred: ^bb2\n%s%s = arith.cmpi eq, %s, %%one : i32\n" % (
        ind, one, ind, res, pid)
    return src[:m.start()] + new + src[m.end():]


def index_cast_direct(src):
    """arith.extsi i32 -> i64 written as arith.index_cast i32 -> i64 (ttref: index = i64; MLIR's
    verifier wants `index` on one side, so Triton may refuse it: then the case is gpu-unsupported)"""
    return sub(r"arith\.extsi (%[\w.]+) : tensor<(\d+)xi32> to tensor<(\d+)xi64>",
               r"arith.index_cast \1 : tensor<\2xi32> to tensor<\3xi64>", 1)(src)


def bitcast_arith(src):
    return sub(r"tt\.bitcast (%[\w.]+) : (tensor<\w+>) -> (tensor<\w+>)", r"arith.bitcast \1 : \2 to \3")(src)


CMPF_SETS = {  # the base kernel stores ==, !=, <, <=, >, >= (oeq une olt ole ogt oge)
    "u": {"oeq": "ueq", "une": "one", "olt": "ult", "ole": "ule", "ogt": "ugt", "oge": "uge"},
    "x": {"oeq": "ord", "une": "uno", "olt": "false", "ole": "true", "ogt": "ogt", "oge": "oge"},
}


def cmpf_set(which):
    def f(src):
        table = CMPF_SETS[which]
        out, n = re.subn(r"arith\.cmpf (oeq|une|olt|ole|ogt|oge),", lambda m: "arith.cmpf %s," % table[m.group(1)], src)
        if n != 6:
            raise ValueError("expected 6 cmpf, found %d" % n)
        return out
    return f


# ============================================================================= new kernels
@triton.jit
def atomic_sem(x_ptr, c_ptr, buf_ptr, old_ptr, n, OP: tl.constexpr, SEM: tl.constexpr, SCOPE: tl.constexpr,
               NSLOT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    uniq = buf_ptr + NSLOT + offs  # one address per lane: the old values are deterministic
    slot = buf_ptr + offs % NSLOT  # conflicting lanes: only the final memory is deterministic
    if OP == "add":
        old = tl.atomic_add(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_add(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "max":
        old = tl.atomic_max(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_max(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "min":
        old = tl.atomic_min(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_min(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "and":
        old = tl.atomic_and(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_and(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "or":
        old = tl.atomic_or(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_or(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "xor":
        old = tl.atomic_xor(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_xor(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "xchg":
        old = tl.atomic_xchg(uniq, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "cas":
        c = tl.load(c_ptr + offs, mask=m)
        old = tl.atomic_cas(uniq, c, v, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + offs, old, mask=m)


@triton.jit
def ew_grid(x_ptr, y_ptr, o_ptr, M, N, OP: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """elementwise over a 2-D (or 3-D: axis 2 picks a plane) grid, masks cutting both dims"""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    pz = tl.program_id(2)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    msk = (rm[:, None] < M) & (rn[None, :] < N)
    off = pz * M * N + rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + off, mask=msk, other=0)
    y = tl.load(y_ptr + off, mask=msk, other=1)
    if OP == "add":
        r = x + y
    if OP == "mul":
        r = x * y
    if OP == "max":
        r = tl.maximum(x, y)
    tl.store(o_ptr + off, r, mask=msk)


@triton.jit
def td_ops(x_ptr, o_ptr, i_ptr, M, N, MODE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])
    od = tl.make_tensor_descriptor(o_ptr, [M, N], [N, 1], [BM, BN])
    if MODE == "reduce_add":
        v = xd.load([pm * BM, 0])
        od.atomic_add([pm * BM, 0], v)
    if MODE == "reduce_max":
        v = xd.load([pm * BM, 0])
        od.atomic_max([pm * BM, 0], v)
    if MODE == "gather":
        gd = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [1, BN])
        rows = tl.load(i_ptr + pm * BM + tl.arange(0, BM))
        g = gd.gather(rows, 0)
        od.store([pm * BM, 0], g)
    if MODE == "scatter":
        sd = tl.make_tensor_descriptor(o_ptr, [M, N], [N, 1], [1, BN])
        rows = tl.load(i_ptr + pm * BM + tl.arange(0, BM))
        v = xd.load([pm * BM, 0])
        sd.scatter(v, rows, 0)


@triton.jit
def mem_cache(x_ptr, o_ptr, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    if MODE == "ca":
        v = tl.load(x_ptr + offs, mask=m, cache_modifier=".ca")
        tl.store(o_ptr + offs, v, mask=m, cache_modifier=".wb")
    if MODE == "cg":
        v = tl.load(x_ptr + offs, mask=m, cache_modifier=".cg")
        tl.store(o_ptr + offs, v, mask=m, cache_modifier=".cg")
    if MODE == "cv":
        v = tl.load(x_ptr + offs, mask=m, cache_modifier=".cv")
        tl.store(o_ptr + offs, v, mask=m, cache_modifier=".cs")
    if MODE == "evict_first":
        v = tl.load(x_ptr + offs, mask=m, eviction_policy="evict_first")
        tl.store(o_ptr + offs, v, mask=m, eviction_policy="evict_last")
    if MODE == "evict_last":
        v = tl.load(x_ptr + offs, mask=m, eviction_policy="evict_last")
        tl.store(o_ptr + offs, v, mask=m, cache_modifier=".wt")
    if MODE == "volatile":
        v = tl.load(x_ptr + offs, mask=m, volatile=True)
        tl.store(o_ptr + offs, v, mask=m)


@triton.jit
def dot_mnia(a_ptr, b_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, MNIA: tl.constexpr):
    """fp8 dot with an explicit max_num_imprecise_acc (how many k-steps Hopper may accumulate imprecisely)"""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b, max_num_imprecise_acc=MNIA)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], c)


# hand-written TTIR (no Triton front end emits these ops alone in 3.6)
UNSPLAT_TTIR = """module {
  tt.func public @unsplat_k(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %o_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
    %xp = tt.addptr %x_ptr, %pid : !tt.ptr<f32>, i32
    %xs = tt.splat %xp : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>
    %xa = tt.addptr %xs, %r : tensor<1x!tt.ptr<f32>>, tensor<1xi32>
    %v = tt.load %xa : tensor<1x!tt.ptr<f32>>
    %s = tt.unsplat %v : tensor<1xf32>
    %t = arith.mulf %s, %s : f32
    %op = tt.addptr %o_ptr, %pid : !tt.ptr<f32>, i32
    tt.store %op, %t : !tt.ptr<f32>
    tt.return
  }
}
"""

BLOCKPTR_TTIR = """module {
  tt.func public @blockptr_k(%x_ptr: !tt.ptr<%T> {tt.divisibility = 16 : i32}, %o_ptr: !tt.ptr<%T> {tt.divisibility = 16 : i32}, %M: i32, %N: i32) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c16_i32 = arith.constant 16 : i32
    %pid = tt.get_program_id x : i32
    %row = arith.muli %pid, %c16_i32 : i32
    %m64 = arith.extsi %M : i32 to i64
    %n64 = arith.extsi %N : i32 to i64
    %bx = tt.make_tensor_ptr %x_ptr, [%m64, %n64], [%n64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16x%T>>
    %bo = tt.make_tensor_ptr %o_ptr, [%m64, %n64], [%n64, %c1_i64], [%row, %c0_i32] {order = array<i32: 1, 0>} : <tensor<16x16x%T>>
    %v0 = tt.load %bx {boundaryCheck = array<i32: 0, 1>, padding = %PAD : i32} : !tt.ptr<tensor<16x16x%T>>
    tt.store %bo, %v0 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16x%T>>
    %bx2 = tt.advance %bx, [%c0_i32, %c16_i32] : <tensor<16x16x%T>>
    %bo2 = tt.advance %bo, [%c0_i32, %c16_i32] : <tensor<16x16x%T>>
    %v1 = tt.load %bx2 {boundaryCheck = array<i32: 0, 1>, padding = %PAD : i32} : !tt.ptr<tensor<16x16x%T>>
    tt.store %bo2, %v1 {boundaryCheck = array<i32: 0, 1>} : !tt.ptr<tensor<16x16x%T>>
    tt.return
  }
}
"""


# ============================================================================= registration
def n_grid(n, b):
    return ((n + b - 1) // b,)


def ew_args(dt, n, *ins, out_dt=None):
    """x_ptr, y_ptr, z_ptr (as many as @ins, dtype @dt), o_ptr (zeros of @out_dt, default @dt) and n"""
    out_dt = out_dt or dt
    return ([(nm, Buf(a, dt)) for nm, a in zip(("x_ptr", "y_ptr", "z_ptr"), ins)] +
            [("o_ptr", Buf(fill(out_dt, n, 0), out_dt)), ("n", Scalar(n, "i32"))])


def cast_ce(src, dst, rnd="", bitcast=False, block=64):
    """constexprs of gen_corpus.cast_op from suite dtypes (u*: unsigned, stored as the signed type)"""
    d_store = ("i" + dst[1:]) if dst.startswith("u") else dst
    return {"DST": TL_DT[dst], "ROUND": rnd, "HAS_SRC_U": src.startswith("u"),
            "SRC_U": TL_DT[src] if src.startswith("u") else tl.int32,
            "DST_U": dst.startswith("u"), "BITCAST": bitcast, "STORE_T": TL_DT[d_store], "BLOCK": block}


def register():
    rng_for = gc.rng_for
    n, B = 160, 64
    # ---- float compares: every arith.cmpf predicate (base: oeq une olt ole ogt oge; derived: the other ten)
    for dt in ["f16", "bf16", "f32", "f64"]:
        rng = rng_for("ops_cmpf" + dt)
        x = fvals(dt, n, rng)
        y = np.roll(fvals(dt, n, rng), 5)
        y[:3] = x[:3]
        z = fvals(dt, n, rng, special=False)
        args = [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("z_ptr", Buf(z, dt)),
                ("o_ptr", Buf(fill("i1", (6, n), 0), "i1")), ("n", Scalar(n, "i32"))]
        add("base_float_cmp_" + dt, gc.float_op, n_grid(n, B), args, {"OP": "cmp", "BLOCK": B},
            derive=[("cmpf_%s_%s" % (w, dt), cmpf_set(w), "cmpf predicates " + " ".join(CMPF_SETS[w].values()))
                    for w in ("u", "x")])
        # negation: Triton emits 0 - x (arith.subf); arith.negf is hand-derived
        args = ew_args(dt, n, x, y, z)
        add("base_float_neg_" + dt, gc.float_op, n_grid(n, B), args, {"OP": "neg", "BLOCK": B},
            derive=[("negf_" + dt, sub(r"arith\.subf %[\w.]+, (%[\w.]+) :", r"arith.negf \1 :", 1),
                     "arith.subf 0, x -> arith.negf x")])
    # ---- math ops Triton reaches only through libdevice: written as math.* from tl.exp / tl.div_rn / tl.abs
    nm, Bm = 128, 64
    for dt in ["f32", "f64"]:
        rng = rng_for("ops_math" + dt)
        x = fvals(dt, nm, rng, scale=3.0)
        y = np.roll(fvals(dt, nm, rng, scale=2.0), 7)
        args = ew_args(dt, nm, x, y)
        der = [("math_%s_%s" % (f, dt), sub(r"math\.exp ", "math.%s " % f, 1), "math.exp -> math." + f)
               for f in derived_math()]
        add("base_math_exp_" + dt, gc.math_op, n_grid(nm, Bm), args, {"OP": "exp", "BLOCK": Bm}, derive=der)
        add("base_float_div_" + dt, gc.float_op, n_grid(nm, Bm), ew_args(dt, nm, x, y, y), {"OP": "div", "BLOCK": Bm},
            derive=[("math_powf_" + dt, sub(r"arith\.divf ", "math.powf ", 1), "arith.divf -> math.powf")])
    for dt in ["i8", "i16", "i32", "i64"]:
        rng = rng_for("ops_bits" + dt)
        x, y = ivals(dt, 200, rng), ivals(dt, 200, rng)
        args = ew_args(dt, 200, x, y)
        ce = {"OP": "abs", "UNSIGNED": False, "UT": gc.UNS[dt], "ST": TL_DT[dt], "BLOCK": 64}
        add("base_int_abs_" + dt, gc.int_binop, n_grid(200, 64), args, ce,
            derive=[("math_%s_%s" % (f, dt), sub(r"math\.absi ", "math.%s " % f, 1), "math.absi -> math." + f)
                    for f in ["ctpop", "ctlz", "cttz"]])
        # ceil/floor division: Triton's cdiv is (x + y - 1) // y; the arith ops are derived from divsi/divui
        x = ivals(dt, 200, rng)
        y = np.roll(ivals(dt, 200, rng), 3)
        y[y == 0] = 3
        for uns in (False, True):
            ce = {"OP": "div", "UNSIGNED": uns, "UT": gc.UNS[dt], "ST": TL_DT[dt], "BLOCK": 64}
            args = ew_args(dt, 200, x, y)
            if uns:
                der = [("int_ceildivui_" + dt, sub(r"arith\.divui ", "arith.ceildivui ", 1), "arith.divui -> arith.ceildivui")]
            else:
                der = [("int_ceildivsi_" + dt, sub(r"arith\.divsi ", "arith.ceildivsi ", 1), "arith.divsi -> arith.ceildivsi"),
                       ("int_floordivsi_" + dt, sub(r"arith\.divsi ", "arith.floordivsi ", 1), "arith.divsi -> arith.floordivsi")]
            add("base_int_div_%s%s" % ("u" if uns else "", dt), gc.int_binop, n_grid(200, 64), args, ce, derive=der)
    # ---- arith.bitcast (Triton emits tt.bitcast), arith.index_cast (Triton emits extsi)
    nc, Bc = 150, 64
    for src, dst in [("f32", "i32"), ("i64", "f64"), ("f16", "i16"), ("bf16", "i16"), ("i32", "f32")]:
        rng = rng_for("ops_bitcast" + src + dst)
        x = vals(src, nc, rng)
        add("base_bitcast_%s_%s" % (src, dst), gc.cast_op, n_grid(nc, Bc), ew_args(src, nc, x, out_dt=dst),
            cast_ce(src, dst, bitcast=True, block=Bc),
            derive=[("arith_bitcast_%s_%s" % (src, dst), bitcast_arith, "tt.bitcast -> arith.bitcast")])
    # the FNUZ fp8 formats (AMD's): Triton's NVIDIA path never emits them; derived from the FN/E5M2 casts
    for src, dst, rnd in [("f32", "f8e4m3", "rtne"), ("f32", "f8e5m2", "rtne"), ("f8e4m3", "f32", ""),
                          ("f8e5m2", "f32", ""), ("f16", "f8e4m3", "rtne"), ("f8e5m2", "f16", "")]:
        rng = rng_for("ops_fnuz" + src + dst)
        x = gc.cast_input(src, dst, rng, nc)
        fmt = "f8E4M3FN" if "f8e4m3" in (src, dst) else "f8E5M2"
        fmt_uz = "f8E4M3FNUZ" if fmt == "f8E4M3FN" else "f8E5M2FNUZ"
        add("base_fnuz_cast_%s_%s" % (src, dst), gc.cast_op, n_grid(nc, Bc), ew_args(src, nc, x, out_dt=dst),
            cast_ce(src, dst, rnd, block=Bc),
            derive=[("cast_%s_%s" % tuple(t + ("fnuz" if t.startswith("f8") else "") for t in (src, dst)),
                     sub(r"%s(?![A-Z])" % fmt, fmt_uz), "%s -> %s" % (fmt, fmt_uz))])
    rng = rng_for("ops_index_cast")
    x = ivals("i32", nc, rng)
    add("base_cast_i32_i64", gc.cast_op, n_grid(nc, Bc), ew_args("i32", nc, x, out_dt="i64"),
        cast_ce("i32", "i64", block=Bc),
        derive=[("index_cast_i32_i64", index_cast_direct, "arith.extsi -> arith.index_cast")])
    # ---- ub.poison on masked-off lanes; cf.br; ttg.barrier
    for dt in ["i32", "f32"]:
        rng = rng_for("ops_poison" + dt)
        x, y = vals(dt, 200, rng), vals(dt, 200, rng)
        if dt == "i32":
            add("base_int_add_i32", gc.int_binop, n_grid(200, 64), ew_args(dt, 200, x, y),
                {"OP": "add", "UNSIGNED": False, "UT": tl.uint32, "ST": tl.int32, "BLOCK": 64},
                derive=[("poison_select_i32", store_through_poison, "stored value = select(mask, v, ub.poison)")])
        else:
            add("base_float_add_f32", gc.float_op, n_grid(200, 64), ew_args(dt, 200, x, y, y), {"OP": "add", "BLOCK": 64},
                derive=[("poison_select_f32", store_through_poison, "stored value = select(mask, v, ub.poison)")])
    for mode, nn, lo, der in [
            ("early_return", 100, 3, [("cf_br_blockarg", cond_br_via_br, "cf.br with a block argument")]),
            ("barrier", 128, 0, [("ttg_barrier", sub(r"gpu\.barrier", "ttg.barrier local"), "gpu.barrier -> ttg.barrier local")])]:
        rng = rng_for("ops_cf" + mode)
        x = gc.fvals("f32", 256, rng, special=False)
        add("base_cf_" + mode, gc.cf_kernel, (4,),
            [("x_ptr", Buf(x, "f32")), ("o_ptr", Buf(fill("f32", 128, -5.0), "f32")), ("n", Scalar(nn, "i32")),
             ("lo", Scalar(lo, "i32")), ("hi", Scalar(4, "i32"))], {"MODE": mode, "BLOCK": 32}, derive=der)
    rng = rng_for("ops_unsplat")
    add_ttir("unsplat_f32", UNSPLAT_TTIR, (7,), [("x_ptr", Buf(fvals("f32", 7, rng), "f32")),
                                                 ("o_ptr", Buf(fill("f32", 7, 0), "f32"))],
             "tt.unsplat of a 1-element tensor")
    for dt, pad in [("f32", 1), ("f16", 2), ("i32", 1)]:
        M, N = 37, 29
        rng = rng_for("ops_bp" + dt)
        text = BLOCKPTR_TTIR.replace("%T", dt).replace("%PAD", str(pad))
        add_ttir("blockptr_ttir_%s_pad%d" % (dt, pad), text, ((M + 15) // 16,),
                 [("x_ptr", Buf(vals(dt, M * N, rng, special=False).reshape(M, N), dt)),
                  ("o_ptr", Buf(fill(dt, (M, N), 0), dt)), ("M", Scalar(M, "i32")), ("N", Scalar(N, "i32"))],
                 "tt.make_tensor_ptr + tt.advance, boundaryCheck, padding %s" % ("zero" if pad == 1 else "nan"))
    # ---- tensor descriptors: reduce, gather, scatter (+ the <=3.3 experimental_* spellings, derived)
    M, N, BM, BN = 32, 16, 8, 16
    for mode, dt in [("reduce_add", "f32"), ("reduce_add", "i32"), ("reduce_max", "i32"), ("gather", "f32"),
                     ("scatter", "f32"), ("gather", "f16")]:
        rng = rng_for("ops_td" + mode + dt)
        x = vals(dt, M * N, rng, special=False).reshape(M, N)
        idx = rng.permutation(M).astype(np.int32)
        o = vals(dt, M * N, rng, special=False).reshape(M, N) if mode.startswith("reduce") else fill(dt, (M, N), 0)
        der = []
        if mode in ("gather", "scatter"):
            der = [("xdesc_%s_%s" % (mode, dt), sub(r"tt\.descriptor_%s" % mode, "tt.experimental_descriptor_%s" % mode),
                    "tt.descriptor_%s -> tt.experimental_descriptor_%s" % (mode, mode))]
        add("td_%s_%s" % (mode, dt), td_ops, (M // BM,),
            [("x_ptr", Buf(x, dt)), ("o_ptr", Buf(o, dt)), ("i_ptr", Buf(idx, "i32")), ("M", Scalar(M, "i32")),
             ("N", Scalar(N, "i32"))], {"MODE": mode, "BM": BM, "BN": BN}, derive=der)
    for dt in ["f32", "i32"]:
        rng = rng_for("ops_tdls" + dt)
        M, N, BM = 40, 48, 16
        gm, gn = (M + BM - 1) // BM, N // BM + 1
        x = vals(dt, M * N, rng, special=False)
        der = [("xdesc_load_store_" + dt, lambda s: sub(r"tt\.descriptor_store", "tt.experimental_descriptor_store")(
            sub(r"tt\.descriptor_load", "tt.experimental_descriptor_load")(s)),
            "tt.descriptor_load/store -> tt.experimental_descriptor_load/store")]
        add("base_tensordesc_" + dt, gc.td_kernel, (gm, gn),
            [("x_ptr", Buf(x, dt)), ("o_ptr", Buf(fill(dt, (M, N), -3), dt)),
             ("p_ptr", Buf(fill(dt, gm * BM * gn * BM, -3), dt)), ("M", Scalar(M, "i32")), ("N", Scalar(N, "i32"))],
            {"MODE": "zero", "BM": BM, "BN": BM}, derive=der)
    # ---- atomics: kind x sem x scope x dtype
    na, Ba, NS = 200, 64, 7
    sems = ["relaxed", "acquire", "release", "acq_rel"]
    todo = [("add", "i32", s, sc) for s in sems for sc in ["gpu", "cta", "sys"]]
    for dt in ["i32", "i64", "u32", "u64"]:
        for op in ["add", "max", "min", "and", "or", "xor", "xchg", "cas"]:
            todo.append((op, dt, "acq_rel", "gpu"))
    for op in ["cas", "xchg", "max", "min", "and"]:
        for s in ["relaxed", "acquire", "release"]:
            todo.append((op, "i32", s, "cta" if s == "relaxed" else "gpu"))
    todo += [("add", "f32", s, "gpu") for s in sems] + [("add", "f16", "acq_rel", "gpu"), ("add", "bf16", "acq_rel", "gpu"),
                                                        ("add", "f64", "acq_rel", "gpu"), ("xchg", "f32", "acq_rel", "gpu"),
                                                        ("max", "f32", "acq_rel", "gpu"), ("min", "f32", "relaxed", "gpu"),
                                                        ("cas", "f32", "acq_rel", "gpu"), ("xchg", "f16", "relaxed", "gpu"),
                                                        ("cas", "i16", "acq_rel", "gpu"), ("xchg", "i64", "relaxed", "sys")]
    seen = set()
    for op, dt, sem, scope in todo:
        name = "atomic_%s_%s_%s_%s" % (op, dt, sem, scope)
        if name in seen:
            continue
        seen.add(name)
        sdt = ("i" + dt[1:]) if dt.startswith("u") else dt
        rng = rng_for("ops_" + name)
        if sdt.startswith("i"):
            x = ivals(sdt, na, rng, special=op not in ("add",), **({"lo": -1000, "hi": 1000} if op == "add" else {}))
        else:
            x = fvals(sdt, na, rng, special=False)
        if sdt.startswith("i"):
            c = (x.astype(np.int64) + 1).astype(x.dtype)
        else:
            c = (x * 2).astype(x.dtype)
        # tl.atomic_cas takes no mask: lanes past n touch memory too, so the buffer covers the whole grid
        nb = n_grid(na, Ba)[0] * Ba
        buf = vals(sdt, NS + nb, rng, special=False)
        if op == "cas":  # even lanes: memory == compare value (swap); odd lanes: memory == x != c (no swap)
            buf[NS:NS + na] = c
            buf[NS + 1:NS + na:2] = x[1::2]
        if op == "and" and sdt.startswith("i"):
            buf[:] = -1
        args = [("x_ptr", Buf(x, sdt)), ("c_ptr", Buf(c, sdt)), ("buf_ptr", Buf(buf, sdt)),
                ("old_ptr", Buf(fill(sdt, na, 0), sdt)), ("n", Scalar(na, "i32"))]
        if dt.startswith("u"):
            add(name, atomic_usem, n_grid(na, Ba), args,
                {"OP": op, "SEM": sem, "SCOPE": scope, "NSLOT": NS, "BLOCK": Ba, "UT": TL_DT[dt], "ST": TL_DT[sdt]})
        else:
            add(name, atomic_sem, n_grid(na, Ba), args, {"OP": op, "SEM": sem, "SCOPE": scope, "NSLOT": NS, "BLOCK": Ba})
    # ---- dot attributes the corpus lacks: bf16x3/bf16x6 input precision, an f16 accumulator over K = 64,
    #      fp8 with max_num_imprecise_acc
    for name, dt, M, N, K, BK, prec, acc, odt in [
            ("f32_bf16x3", "f32", 32, 32, 32, 32, "bf16x3", False, "f32"),
            ("f32_bf16x6", "f32", 32, 32, 32, 32, "bf16x6", False, "f32"),
            ("f16_acc_f16_k64", "f16", 32, 32, 64, 64, "", True, "f16"),
            ("f16_acc_f16_k64_kloop", "f16", 32, 32, 64, 16, "", True, "f16"),
            ("bf16_out_f32_k64", "bf16", 32, 32, 64, 32, "", True, "f32")]:
        rng = rng_for("ops_dot" + name)
        a = gc.dot_input(dt, (M, K), rng)
        b = gc.dot_input(dt, (K, N), rng)
        c = rng.uniform(-4, 4, (M, N)).astype(DT[odt][0])
        add("dot_" + name, gc.dot2d, (1,),
            [("a_ptr", Buf(a, dt)), ("b_ptr", Buf(b, dt)), ("c_ptr", Buf(c, odt)), ("o_ptr", Buf(fill(odt, (M, N)), odt))],
            {"M": M, "N": N, "K": K, "BK": BK, "PREC": prec, "ACC": acc, "ODT": TL_DT[odt]})
    for dt in ["f8e4m3", "f8e5m2"]:
        for mnia in [0, 32]:
            rng = rng_for("ops_dot_mnia" + dt + str(mnia))
            M, N, K = 64, 32, 64
            add("dot_%s_mnia%d" % (dt, mnia), dot_mnia, (1,),
                [("a_ptr", Buf(gc.dot_input(dt, (M, K), rng), dt)), ("b_ptr", Buf(gc.dot_input(dt, (K, N), rng), dt)),
                 ("o_ptr", Buf(fill("f32", (M, N)), "f32"))], {"M": M, "N": N, "K": K, "MNIA": mnia})
    # ---- 2-D and 3-D grids, masks cutting both dims
    for dt, op in [("f32", "add"), ("i32", "mul"), ("f16", "max"), ("bf16", "add"), ("i8", "add"), ("f64", "mul")]:
        for gz in (1, 3):
            M, N, BM, BN = 37, 45, 16, 16
            rng = rng_for("ops_grid" + dt + op + str(gz))
            x = vals(dt, gz * M * N, rng)
            y = vals(dt, gz * M * N, rng)
            add("grid%dd_%s_%s" % (2 if gz == 1 else 3, op, dt), ew_grid, ((M + BM - 1) // BM, (N + BN - 1) // BN, gz),
                [("x_ptr", Buf(x, dt)), ("y_ptr", Buf(y, dt)), ("o_ptr", Buf(fill(dt, gz * M * N, 0), dt)),
                 ("M", Scalar(M, "i32")), ("N", Scalar(N, "i32"))], {"OP": op, "BM": BM, "BN": BN})
    # ---- cache / eviction modifiers and volatile (must not change results) over dtypes
    for dt in ["f16", "i8", "i64", "bf16", "f64"]:
        for mode in ["ca", "cg", "cv", "evict_first", "evict_last", "volatile"]:
            rng = rng_for("ops_mem" + dt + mode)
            x = vals(dt, 333, rng)
            add("mem_%s_%s" % (mode, dt), mem_cache, n_grid(333, 128), ew_args(dt, 333, x),
                {"MODE": mode, "BLOCK": 128})
    # ---- shape ops over more dtypes (gen_corpus.shape_op)
    M, N = 8, 16
    for dt in ["f16", "bf16", "i8", "i64", "f64", "i32"]:
        for op, xs, ish, osh in [("reshape", M * N, None, (N, M)), ("trans", M * N, None, (N, M)),
                                 ("permute", M * N * 4, None, (4, M, N)), ("join", 2 * N, None, (N, 2)),
                                 ("split", 2 * N, None, (2, N)), ("gather1", M * N, N, (M, N)),
                                 ("gather0", M * N, M, (M, N)), ("broadcast", M + N, None, (M, N)),
                                 ("cat", 2 * N, None, (2 * N,))]:
            if dt in ("i32",) and op in ("split", "reshape"):
                continue  # in the corpus
            rng = rng_for("ops_shape_" + op + dt)
            x = vals(dt, xs, rng, special=False)
            idx = rng.integers(0, ish, M * N).astype(np.int32) if ish else np.zeros(1, np.int32)
            add("shape_%s_%s" % (op, dt), gc.shape_op, (1,),
                [("x_ptr", Buf(x, dt)), ("i_ptr", Buf(idx, "i32")), ("o_ptr", Buf(fill(dt, osh), dt))],
                {"OP": op, "M": M, "N": N}, unordered=(op == "cat"))
    # ---- reductions and scans over more dtypes, axes, keep_dims (gen_corpus.reduce_op / scan_op)
    M, N = 8, 32
    red = [("sum", dt, ax, False) for dt in ["f16", "bf16", "f64", "i8", "i64"] for ax in (0, 1, -1)]
    red += [(op, dt, ax, keep) for op in ["max", "min"] for dt in ["f16", "bf16", "f32", "f64", "i8", "i16", "i64"]
            for ax, keep in [(0, False), (1, True)]]
    red += [(op, dt, ax, False) for op in ["argmax", "argmin"] for dt in ["f16", "bf16", "f64", "i8", "i64"] for ax in (0, 1)]
    red += [("xor_sum", dt, ax, False) for dt in ["i8", "i16"] for ax in (0, 1)]
    red += [("prod", "f64", 1, False), ("prod", "i64", 0, False), ("umax", "i32", 0, True)]
    for op, dt, ax, keep in red:
        name = "reduce_%s_%s_ax%s%s" % (op, dt, "None" if ax < 0 else ax, "_keep" if keep else "")
        rng = rng_for("ops_" + name)
        if op == "prod":
            x = rng.uniform(0.8, 1.25, M * N) if dt == "f64" else rng.choice([1, 1, 1, -1, 2], M * N)
            x = x.astype(DT[dt][0])
        else:
            x = vals(dt, M * N, rng)
            x = rng.permutation(x)
        oshape = {0: (N,), 1: (M,), -1: (1,)}[ax]
        odt = "i32" if (op in ("argmax", "argmin") or (op == "sum" and dt in ("i8", "i16"))) else dt
        add(name, gc.reduce_op, (1,),
            [("x_ptr", Buf(x.reshape(M, N), dt)), ("o_ptr", Buf(fill(odt, oshape), odt)),
             ("i_ptr", Buf(fill("i32", oshape, -1), "i32"))],
            {"OP": op, "AXIS": ax, "KEEP": keep, "M": M, "N": N, "HAS_IDX": False})
    M2, N2 = 4, 16
    scans = [(op, dt, ax, rev) for op in ["cumsum", "max"] for dt in ["f16", "bf16", "f64", "i16", "i64"]
             for ax, rev in [(0, True), (1, False)]]
    scans += [("cumsum", "f32", 0, True), ("cumsum", "i32", 1, True), ("cumprod", "f64", 0, False),
              ("cumprod", "f32", 0, True), ("max", "f32", 0, True), ("cumsum", "i8", 1, True)]
    for op, dt, ax, rev in scans:
        name = "scan_%s_%s_ax%d%s" % (op, dt, ax, "_rev" if rev else "")
        rng = rng_for("ops_" + name)
        if op == "cumprod":
            x = rng.uniform(0.7, 1.4, M2 * N2).astype(DT[dt][0])
        else:
            x = vals(dt, M2 * N2, rng, special=(op == "max"))
        add(name, gc.scan_op, (1,), [("x_ptr", Buf(x.reshape(M2, N2), dt)), ("o_ptr", Buf(fill(dt, (M2, N2)), dt))],
            {"OP": op, "AXIS": ax, "REV": rev, "M": M2, "N": N2})
    # ---- casts the corpus lacks (gen_corpus.cast_op)
    pairs = [("f8e4m3", "f64", ""), ("f8e5m2", "f64", ""), ("f64", "f8e4m3", "rtne"), ("f64", "f8e5m2", "rtne"),
             ("f16", "f8e5m2", "rtz"), ("bf16", "f8e5m2", "rtz"), ("f32", "f8e4m3", "rtz"), ("f64", "f16", "rtz"),
             ("f64", "bf16", "rtz"), ("f64", "f32", "rtz"), ("f16", "bf16", ""), ("bf16", "f16", ""),
             ("i64", "f16", ""), ("i64", "bf16", ""), ("u64", "f64", ""), ("u64", "f16", ""), ("u16", "f32", ""),
             ("u8", "bf16", ""), ("u32", "f64", ""), ("f64", "u32", ""), ("f16", "u8", ""), ("bf16", "u16", ""),
             ("f32", "u64", ""), ("f64", "i8", ""), ("bf16", "i64", ""), ("i1", "bf16", ""), ("bf16", "i1", ""),
             ("f64", "i1", ""), ("i1", "i64", ""), ("i8", "u64", ""), ("u8", "i64", ""), ("u32", "i16", ""),
             ("i16", "i8", ""), ("u16", "u8", ""), ("i8", "i16", ""), ("u8", "u16", ""), ("i1", "f64", ""),
             ("f8e4m3", "i32", ""), ("i32", "f8e4m3", ""), ("f8e5m2", "i16", "")]
    for src, dst, rnd in pairs:
        rng = rng_for("ops_cast" + src + dst + rnd)
        s_store = ("i" + src[1:]) if src.startswith("u") else src
        d_store = ("i" + dst[1:]) if dst.startswith("u") else dst
        x = gc.cast_input(src, dst, rng, nc)
        add("cast_%s_%s%s" % (src, dst, ("_" + rnd) if rnd else ""), gc.cast_op, n_grid(nc, Bc),
            ew_args(s_store, nc, x, out_dt=d_store), cast_ce(src, dst, rnd, block=Bc))


@triton.jit
def atomic_usem(x_ptr, c_ptr, buf_ptr, old_ptr, n, OP: tl.constexpr, SEM: tl.constexpr, SCOPE: tl.constexpr,
                NSLOT: tl.constexpr, BLOCK: tl.constexpr, UT: tl.constexpr, ST: tl.constexpr):
    """atomic_sem on unsigned data: pointers and values bitcast to UT (max/min become umax/umin)"""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    ub = buf_ptr.to(tl.pointer_type(UT), bitcast=True)
    v = tl.load(x_ptr + offs, mask=m).to(UT, bitcast=True)
    uniq = ub + NSLOT + offs
    slot = ub + offs % NSLOT
    if OP == "add":
        old = tl.atomic_add(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_add(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "max":
        old = tl.atomic_max(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_max(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "min":
        old = tl.atomic_min(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_min(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "and":
        old = tl.atomic_and(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_and(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "or":
        old = tl.atomic_or(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_or(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "xor":
        old = tl.atomic_xor(uniq, v, mask=m, sem=SEM, scope=SCOPE)
        tl.atomic_xor(slot, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "xchg":
        old = tl.atomic_xchg(uniq, v, mask=m, sem=SEM, scope=SCOPE)
    if OP == "cas":
        c = tl.load(c_ptr + offs, mask=m).to(UT, bitcast=True)
        old = tl.atomic_cas(uniq, c, v, sem=SEM, scope=SCOPE)
    tl.store(old_ptr + offs, old.to(ST, bitcast=True), mask=m)


# ============================================================================= running
def launch_ttir(path, cdir, cj):
    """compile a TTIR file with Triton (no make_ttir passes) and launch it on cdir's inputs"""
    from triton.backends.compiler import GPUTarget
    src = open(path).read()
    _, names = cpt.parse_signature(src)
    k = triton.compile(path, target=GPUTarget("cuda", 90, 32), options={"num_warps": cj.get("num_warps", 4)})
    vals_, bufs = {}, []
    for a in cj["args"]:
        if a["kind"] == "ptr":
            t = cpt.to_torch(np.load(os.path.join(cdir, a["file"])), a["dtype"])
            vals_[a["name"]] = t
            bufs.append((a, t))
        else:
            vals_[a["name"]] = float(a["value"]) if a["dtype"].startswith("f") else int(a["value"])
    if not all(n in vals_ for n in names):
        raise ValueError("TTIR signature %s does not match the case args" % names)
    k[tuple(cj["grid"])](*[vals_[n] for n in names])
    torch.cuda.synchronize()
    for a, t in bufs:
        np.save(os.path.join(cdir, a["name"] + ".gpu.npy"), cpt.from_torch(t, a["dtype"]))


def write_inputs(cdir, name, spec):
    grid = tuple(spec["grid"]) + (1,) * (3 - len(spec["grid"]))
    meta = []
    for an, a in spec["args"]:
        if isinstance(a, Buf):
            np.save(os.path.join(cdir, an + ".in.npy"), a.arr)
            meta.append({"name": an, "kind": "ptr", "dtype": a.dt, "shape": list(a.arr.shape), "file": an + ".in.npy"})
        else:
            meta.append({"name": an, "kind": "scalar", "dtype": a.dt, "value": a.value})
    kname = getattr(getattr(spec.get("kernel"), "fn", None), "__name__", None) or "ttir"
    return {"name": name, "kernel": kname, "grid": list(grid), "args": meta,
            "constexprs": {k: gc.jsonable(v) for k, v in spec.get("constexprs", {}).items()},
            "unordered": bool(spec.get("unordered")), "num_warps": spec.get("num_warps", 4)}


def save_json(cdir, cj):
    with open(os.path.join(cdir, "case.json"), "w") as f:
        json.dump(cj, f, indent=1)


def run_generated(name, spec, out, dump_root):
    """gen_corpus.run_case; on failure keep the inputs and the TTIR Triton dumped, with gpu_error"""
    dump = os.path.join(dump_root, name)
    os.environ["TRITON_KERNEL_DUMP"] = "1"
    os.environ["TRITON_DUMP_DIR"] = dump
    try:
        gc.run_case(name, spec, out)
        return None
    except Exception as e:
        err = gc.last_line(e)
    cdir = os.path.join(out, name)
    shutil.rmtree(cdir, ignore_errors=True)
    shutil.rmtree(os.path.join(out, "." + name + ".tmp"), ignore_errors=True)
    os.makedirs(cdir)
    cj = write_inputs(cdir, name, spec)
    cj["gpu_error"] = err
    ttirs = []
    for root, _, files in os.walk(dump):
        ttirs += [os.path.join(root, f) for f in files if f.endswith(".ttir")]
    if ttirs:
        shutil.copy(sorted(ttirs)[0], os.path.join(cdir, "kernel.ttir"))
        cj["ttir_from"] = "TRITON_KERNEL_DUMP (make_ttir output; a later stage failed)"
    save_json(cdir, cj)
    return err


def run_derived(base, dname, fn, desc, out):
    bdir, cdir = os.path.join(out, base), os.path.join(out, dname)
    shutil.rmtree(cdir, ignore_errors=True)
    os.makedirs(cdir)
    cj = json.load(open(os.path.join(bdir, "case.json")))
    cj.pop("gpu_error", None)
    cj.update(name=dname, derived_from=base, rewrite=desc)
    for a in cj["args"]:
        if a["kind"] == "ptr":
            shutil.copy(os.path.join(bdir, a["file"]), os.path.join(cdir, a["file"]))
    try:
        src = fn(open(os.path.join(bdir, "kernel.ttir")).read())
    except Exception as e:
        cj["gpu_error"] = "derivation: " + gc.last_line(e)
        save_json(cdir, cj)
        return cj["gpu_error"]
    path = os.path.join(cdir, "kernel.ttir")
    with open(path, "w") as f:
        f.write(src)
    try:
        launch_ttir(path, cdir, cj)
        err = None
    except Exception as e:
        err = gc.last_line(e)
        cj["gpu_error"] = err
    save_json(cdir, cj)
    return err


def run_handwritten(name, spec, out):
    cdir = os.path.join(out, name)
    shutil.rmtree(cdir, ignore_errors=True)
    os.makedirs(cdir)
    cj = write_inputs(cdir, name, spec)
    cj["handwritten"] = spec["description"]
    path = os.path.join(cdir, "kernel.ttir")
    with open(path, "w") as f:
        f.write(spec["ttir"])
    try:
        launch_ttir(path, cdir, cj)
        err = None
    except Exception as e:
        err = gc.last_line(e)
        cj["gpu_error"] = err
    save_json(cdir, cj)
    return err


def worker(args, units):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    k, nsh = (int(v) for v in args.shard.split("/"))
    dump_root = os.path.join(args.out, ".dump.%d" % k)
    fails = open(os.path.join(args.out, ".fail.%d" % k), "a")
    deadline = args.t0 + args.deadline
    for i, (name, spec, derive) in enumerate(units):
        if i % nsh != k:
            continue
        if time.time() > deadline:
            fails.write("%s: SKIPPED: deadline\n" % name)
            continue
        errs = []
        try:
            err = run_handwritten(name, spec, args.out) if "ttir" in spec else run_generated(name, spec, args.out, dump_root)
            errs.append((name, err))
            has_ttir = os.path.exists(os.path.join(args.out, name, "kernel.ttir"))
            for dname, fn, desc in derive:
                if not has_ttir:
                    errs.append((dname, "base case %s has no TTIR" % name))
                    continue
                errs.append((dname, run_derived(name, dname, fn, desc, args.out)))
        except Exception as e:
            errs.append((name, "harness: " + gc.last_line(e)))
        for n, e in errs:
            print(("FAIL %s: %s" % (n, e)) if e else ("ok   %s" % n), flush=True)
            if e:
                fails.write("%s: %s\n" % (n, e.replace("\n", " ")))
                fails.flush()
        try:
            torch.cuda.synchronize()
        except Exception as e:  # sticky CUDA error: the rest of this shard cannot run
            fails.write("%s: CUDA context broken: %s\n" % (name, gc.last_line(e)))
            break
    fails.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="", help="comma-separated substrings of case names")
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--deadline", type=float, default=400.0)
    ap.add_argument("--shard", default="", help=argparse.SUPPRESS)
    ap.add_argument("--t0", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if not args.t0:
        args.t0 = time.time()
    register()
    names = [u[0] for u in UNITS] + [d[0] for u in UNITS for d in u[2]]
    assert len(names) == len(set(names)), "duplicate case names"
    only = args.only.split(",")
    units = [u for u in UNITS if any(o in u[0] or any(o in d[0] for d in u[2]) for o in only)]
    if args.list:
        for u in units:
            print(u[0], " ".join(d[0] for d in u[2]))
        print(len(units), "units,", sum(1 + len(u[2]) for u in units), "cases")
        return 0
    os.makedirs(args.out, exist_ok=True)
    if args.shard:
        worker(args, units)
        return 0
    jobs = max(1, min(args.jobs, len(units)))
    print("gen_ops: %d units, %d workers, triton %s, %s" % (len(units), jobs, triton.__version__,
                                                            torch.cuda.get_device_name(0)), flush=True)
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--out", args.out, "--only", args.only,
                               "--shard", "%d/%d" % (k, jobs), "--t0", repr(args.t0),
                               "--deadline", repr(args.deadline)]) for k in range(jobs)]
    for p in procs:
        try:
            p.wait(timeout=max(1.0, args.t0 + args.deadline + 60 - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    fails = {}
    for k in range(jobs):
        fp = os.path.join(args.out, ".fail.%d" % k)
        if os.path.exists(fp):
            for line in open(fp):
                n, _, e = line.partition(": ")
                fails[n] = e.strip()
            os.remove(fp)
        shutil.rmtree(os.path.join(args.out, ".dump.%d" % k), ignore_errors=True)
    want = [u[0] for u in units] + [d[0] for u in units for d in u[2]]
    for n in want:
        if n not in fails and not os.path.isfile(os.path.join(args.out, n, "case.json")):
            fails[n] = "MISSING: worker died"
    with open(os.path.join(args.out, "FAILURES.txt"), "w") as f:
        for n in sorted(fails):
            f.write("%s: %s\n" % (n, fails[n]))
    print("SUMMARY: %d cases, %d with a gpu_error, %.0fs" % (len(want), len(fails), time.time() - args.t0), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
