#!/usr/bin/env python3
"""TRITON_INTERPRET=1 column of make bench (docs/performance.md), for the GPU machine.

Runs the bench kernels (scripts/bench/bench.py's list: the same sizes, the same generated inputs)
under Triton's interpreter and under `ttref run` (all threads) side by side, in one run, and checks
that the outputs are close (the interpreter's float order differs: loose tolerance).

    TTREF=./ttref python3 scripts/bench/triton_interp_bench.py [--only K1,K2] [--tiny] [--reps N]

Needs Triton, torch and numpy (not installed on the development machine): it runs on the GPU
machine; its first results are in docs/performance.md. ttref writes only the compared buffers
(--outputs). The Python kernels below were written from the corpus TTIR. dot2d and ln_tutorial
are imported from scripts/gpu/gen_corpus.py. The other kernels' original source
(kernels.py) is not in the repository, so re-capture the TTIR of these definitions with Triton
3.6 to confirm that they match the corpus before trusting the comparison. Where the interpreter
raises (the issue saw matmul crash on `range(tl.cdiv(K, BK))`), the row says so.
"""
import argparse
import os
import subprocess
import sys
import time
import traceback

os.environ["TRITON_INTERPRET"] = "1"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "gpu")]

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import bench  # noqa: E402


@triton.jit
def vadd(x_ptr, y_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def softmax_rows(x_ptr, o_ptr, stride, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < ncols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=-float("inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(o_ptr + row * stride + cols, e / tl.sum(e, 0), mask=m)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(tl.cdiv(K, BK)):
        kk = k * BK + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def layernorm(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, 0) / N
    xc = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(xc * xc, 0) / N + eps)
    y = xc * rstd * tl.load(w_ptr + cols, mask=m) + tl.load(b_ptr + cols, mask=m)
    tl.store(y_ptr + row * N + cols, y.to(tl.float16), mask=m)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
             NBLK: tl.constexpr):
    pid_m = tl.program_id(0)
    base = tl.program_id(1) * S * D
    rm = pid_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < S, other=0.0)
    m_i = tl.full((BM, 1), float("-inf"), tl.float32)
    l_i = tl.zeros((BM, 1), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for j in tl.static_range(NBLK):
        rn = j * BN + tl.arange(0, BN)
        kt = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < S, other=0.0)
        qk = tl.dot(q, kt) * sm_scale
        qk = tl.where((rn[None, :] < S) & (rm[:, None] >= rn[None, :]), qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1)[:, None])
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.exp(qk - m_safe)
        alpha = tl.exp(m_i - m_safe)
        l_i = l_i * alpha + tl.sum(p, 1)[:, None]
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < S, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha)
        m_i = m_new
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], (acc / l_i).to(tl.float16), mask=rm[:, None] < S)


@triton.jit
def scan1d(x_ptr, o_ptr, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    tl.store(o_ptr + x, tl.cumsum(tl.load(x_ptr + x), 0))


@triton.jit
def atomics(x_ptr, acc_ptr, mx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(acc_ptr + offs % 7, x, mask=m)
    tl.atomic_max(mx_ptr + offs % 5, x, mask=m)


def launcher(name):
    """(jit function, constexpr kwargs, argument order) for a bench row"""
    import gen_corpus as g
    if name.startswith("vadd"):
        return vadd, dict(BLOCK=1024)
    if name.startswith("softmax"):
        return softmax_rows, dict(BLOCK=1024)
    if name.startswith("matmul_i8"):
        return g.bench_matmul_i8, dict(BM=64, BN=64, BK=32)
    if name.startswith("matmul"):
        return matmul, dict(BM=64, BN=32, BK=32)
    if name.startswith("layernorm_f16"):
        return layernorm, dict(BLOCK=1024)
    if name.startswith("attn"):
        return attn_fwd, dict(D=64, BM=32, BN=32, NBLK=4)
    if name.startswith("dot_i8"):
        return g.dot2d, dict(M=64, N=32, K=64, BK=32, PREC="", ACC=True, ODT=tl.int32)
    if name.startswith("layernorm tutorial"):
        return g.ln_tutorial, dict(BLOCK=128)
    if name.startswith("scan rows"):
        return g.bench_scan_rows, dict(BLOCK=256)
    if name.startswith("scan"):
        return scan1d, dict(BLOCK=256)
    if name.startswith("atomics"):
        return atomics, dict(BLOCK=128)
    raise KeyError(name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ttref", default=os.environ.get("TTREF", os.path.join(bench.TOP, "ttref")))
    ap.add_argument("--only", default="")
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--reps", type=int, default=3, help="ttref runs per row (the best is kept; the interpreter runs once)")
    a = ap.parse_args()
    import tempfile
    work = tempfile.mkdtemp(prefix="ttref-tibench.")
    bb = os.path.join(work, "bench_base")
    with open(os.path.join(work, "config.h"), "w") as f:
        f.write('#define PACKAGE_VERSION "bench"\n')
    subprocess.run(["cc", "-std=gnu11", "-O2", "-I" + work, "-I" + os.path.join(bench.TOP, "ir"), "-I" + os.path.join(bench.TOP, "interp"),
                    os.path.join(bench.TOP, "scripts/bench/bench_base.c"), os.path.join(bench.TOP, "interp/npy_io.c"),
                    os.path.join(bench.TOP, "ir/ir_base.c"), os.path.join(bench.TOP, "ir/ir_base_fs.c"), "-o", bb, "-lm"], check=True)
    print(f"| kernel | size | TRITON_INTERPRET=1 s | ttref {os.cpu_count()} thr s | ratio | outputs |")
    print("|---|---|---|---|---|---|")
    for k in bench.kernels(a.tiny):
        if a.only and not any(k["name"].startswith(o) for o in a.only.split(",")):
            continue
        d = os.path.join(work, "k")
        subprocess.run(["rm", "-rf", d], check=True)
        os.makedirs(os.path.join(d, "in"))
        for i, (nm, dt, shp) in enumerate(k["bufs"]):  # the inputs bench.py generates (same seeds)
            subprocess.run([bb, "gen", dt, "x".join(map(str, shp)), str(i + 1), os.path.join(d, "in", nm + ".npy")], check=True)
        args = [w for nm, _, _ in k["bufs"] for w in ("--arg", f"{nm}=@{d}/in/{nm}.npy")] + [w for s, v in k["scalars"].items() for w in ("--arg", f"{s}={v}")]
        t_ttref = None
        for _ in range(max(1, a.reps)):
            t = time.perf_counter()
            subprocess.run([a.ttref, "run", os.path.join(bench.TOP, k["ttir"], "kernel.ttir"), "--grid", ",".join(map(str, k["grid"])),
                            "--quiet", "--out", os.path.join(d, "ttref"), "--outputs", ",".join(nm for nm, _, _ in k["cmp"])] + args,
                           check=True, stdout=subprocess.DEVNULL)  # only the compared buffers are written
            t_ttref = min(t_ttref or 1e30, time.perf_counter() - t)
        fn, cx = launcher(k["name"])
        bufs = {nm: torch.from_numpy(np.load(os.path.join(d, "in", nm + ".npy"))) for nm, _, _ in k["bufs"]}
        sc = {s: (float(v) if isinstance(v, str) else v) for s, v in k["scalars"].items()}
        kw = dict(bufs)
        kw.update(sc)
        if k["name"].startswith("matmul"):
            kw.update(sak=1, sbn=1, scn=1)  # specialised away in the TTIR (value 1)
        try:
            t = time.perf_counter()
            fn[tuple(k["grid"])](**kw, **cx)
            t_int = time.perf_counter() - t
        except Exception as e:  # the interpreter's own failure is a result
            print(f"| {k['name']} | {k['size']} | crashes: {traceback.format_exception_only(type(e), e)[-1].strip()[:80]} | {t_ttref:.3f} | - | - |")
            continue
        close = all(np.allclose(bufs[nm].numpy().astype(np.float64), np.load(os.path.join(d, "ttref", nm + ".npy")).astype(np.float64),
                                rtol=1e-2, atol=max(atol, 1e-3)) for nm, atol, _ in k["cmp"])
        print(f"| {k['name']} | {k['size']} | {t_int:.3f} | {t_ttref:.3f} | {t_int / t_ttref:.0f}x | {'close' if close else 'DIFFER'} |", flush=True)
    subprocess.run(["rm", "-rf", work], check=True)


if __name__ == "__main__":
    main()
