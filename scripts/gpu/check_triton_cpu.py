#!/usr/bin/env python3
"""Run tutorial-style Triton kernels three ways and compare them (docs/triton.md):

  gpu     the real launch on the GPU (CUDA tensors), also recorded with ttref.capture
  ttref   the GPU hidden (CUDA_VISIBLE_DEVICES=), TTREF_TRITON=1: the same program on CPU tensors
  interp  the GPU hidden, TRITON_INTERPRET=1 (Triton's numpy interpreter)

    python3 scripts/gpu/check_triton_cpu.py OUTDIR      # needs Triton, torch, numpy and libttref
                                                         # (TTREF_LIB, PYTHONPATH=python)
Kernels: vector add, fused softmax, matmul with tl.dot under an autotuner (2 configs),
layer-norm forward and backward (dx per row, dw/db partial sums per row group, then reduced),
fused attention forward (online softmax with exp2 over key blocks, f16 tl.dot), low-memory
dropout (tl.rand), a strided in-place update of two views of one
storage, tl.device_print, and an out-of-bounds load (ttref: KernelFault). Inputs are made on
the CPU from fixed seeds in every mode; each mode saves its outputs to OUTDIR/MODE.npz and its
timings to OUTDIR/MODE.json (first launch incl. compile, then the mean of repeated launches).
Then the captured suite is replayed: `ttref conform OUTDIR/suite --backend OUTDIR/suite/replay_gpu.py`,
and its launches with aliased arguments by `python3 -m ttref.capture replay OUTDIR/suite`.
"""
import json
import os
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def kernels():
    import triton
    import triton.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
        pid = tl.program_id(axis=0)
        offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_elements
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_ptr + row * in_row_stride + cols, mask=cols < n_cols, other=-float("inf"))
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        tl.store(out_ptr + row * out_row_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)

    @triton.autotune(configs=[triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4),
                              triton.Config({"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 64}, num_warps=4)],
                     key=["M", "N", "K"])
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            kk = k * BLOCK_K + rk
            a = tl.load(a_ptr + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))

    @triton.jit
    def layernorm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0)
        X += row * stride
        Y += row * stride
        cols = tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        mean = tl.sum(x, axis=0) / N
        xc = tl.where(cols < N, x - mean, 0.)
        var = tl.sum(xc * xc, axis=0) / N
        rstd = 1 / tl.sqrt(var + eps)
        tl.store(Mean + row, mean)
        tl.store(Rstd + row, rstd)
        w = tl.load(W + cols, mask=cols < N)
        b = tl.load(B + cols, mask=cols < N)
        tl.store(Y + cols, xc * rstd * w + b, mask=cols < N)

    @triton.jit
    def layernorm_bwd_dx(DX, DY, PDW, PDB, X, W, Mean, Rstd, stride, M, N, G: tl.constexpr, BLOCK_SIZE: tl.constexpr):
        # program g handles rows g, g + G, ...: dx per row, and its rows' dw / db partial sums
        gid = tl.program_id(0)
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask, other=0.).to(tl.float32)
        dw = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
        db = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
        for row in range(gid, M, G):
            x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)
            dy = tl.load(DY + row * stride + cols, mask=mask, other=0.).to(tl.float32)
            mean = tl.load(Mean + row)
            rstd = tl.load(Rstd + row)
            xhat = tl.where(mask, (x - mean) * rstd, 0.)
            wdy = tl.where(mask, w * dy, 0.)
            c1 = tl.sum(xhat * wdy, axis=0) / N
            c2 = tl.sum(wdy, axis=0) / N
            tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=mask)
            dw += dy * xhat
            db += dy
        tl.store(PDW + gid * N + cols, dw, mask=mask)
        tl.store(PDB + gid * N + cols, db, mask=mask)

    @triton.jit
    def layernorm_bwd_dwdb(PDW, PDB, DW, DB, G, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
        dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for i in range(0, G, BLOCK_M):
            rows = i + tl.arange(0, BLOCK_M)
            mask = (rows[:, None] < G) & (cols[None, :] < N)
            offs = rows[:, None] * N + cols[None, :]
            dw += tl.load(PDW + offs, mask=mask, other=0.)
            db += tl.load(PDB + offs, mask=mask, other=0.)
        tl.store(DW + cols, tl.sum(dw, axis=0), mask=cols < N)
        tl.store(DB + cols, tl.sum(db, axis=0), mask=cols < N)

    @triton.jit
    def attn_fwd(Q, K, V, O, sm_scale, N_CTX, stride_h, stride_m, HEAD_D: tl.constexpr, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr):
        # one block of query rows of one head; online softmax over key blocks (exp2, scaled by log2 e)
        start_m = tl.program_id(0)
        base = tl.program_id(1) * stride_h
        offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, HEAD_D)
        q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.)
        m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
        l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
        acc = tl.zeros((BLOCK_M, HEAD_D), dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504
        for start_n in range(0, N_CTX, BLOCK_N):
            cols = start_n + offs_n
            kt = tl.load(K + base + cols[None, :] * stride_m + offs_d[:, None], mask=cols[None, :] < N_CTX, other=0.)
            qk = tl.where(cols[None, :] < N_CTX, tl.dot(q, kt) * qk_scale, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.math.exp2(qk - m_new[:, None])
            alpha = tl.math.exp2(m_i - m_new)
            l_i = l_i * alpha + tl.sum(p, 1)
            v = tl.load(V + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.)
            acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
            m_i = m_new
        acc = acc / l_i[:, None]
        tl.store(O + base + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)

    @triton.jit
    def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        keep = tl.rand(seed, offs) > p
        tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)

    @triton.jit
    def views_kernel(a_ptr, b_ptr, n, sa, sb, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs * sa, mask=mask)
        b = tl.load(b_ptr + offs * sb, mask=mask)
        tl.store(b_ptr + offs * sb, b * 2.0 + a, mask=mask)

    @triton.jit
    def print_kernel(x_ptr, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
        tl.device_print("x", x)

    @triton.jit
    def oob_kernel(x_ptr, o_ptr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(o_ptr + offs, tl.load(x_ptr + offs) * 2)

    return locals()


def make_inputs(torch):
    g = torch.Generator().manual_seed(1234)
    r = lambda *s, dt=torch.float32: torch.randn(*s, generator=g).to(dt)
    return {
        "add": (r(98432), r(98432)),
        "softmax": (r(1823, 781),),
        "matmul": (r(256, 192, dt=torch.float16), r(192, 320, dt=torch.float16)),
        "layernorm": (r(512, 1000), r(1000), r(1000)),
        "dropout": (r(50000),),
        "views": (r(2 * 40000 + 1),),
        "print": (torch.arange(8, dtype=torch.float32),),
        "oob": (r(1000),),
        "layernorm_bwd": (r(512, 1000),),  # dy; x, w, b are layernorm's
        "attention": (r(4, 256, 64, dt=torch.float16), r(4, 256, 64, dt=torch.float16), r(4, 256, 64, dt=torch.float16)),
    }


def run_all(mode, dev, out):
    import torch
    import triton
    K = kernels()
    ins = make_inputs(torch)
    res, times, notes = {}, {}, {}

    def timed(name, fn, reps):
        t0 = time.perf_counter()
        r = fn()
        if dev == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        if dev == "cuda":
            torch.cuda.synchronize()
        times[name] = {"first_s": first, "mean_s": (time.perf_counter() - t0) / max(reps, 1)}
        return r

    def case(name, body):
        try:
            body()
        except Exception as e:  # noqa: BLE001 - every failure is reported
            notes[name] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            notes[name + ".detail"] = str(e)[:1500] + "\n" + traceback.format_exc()[-1500:]
        print("[%s] %s %s" % (mode, name, notes.get(name, "ok")), flush=True)

    reps = 1 if mode == "interp" else 3

    def add():
        x, y = (t.to(dev) for t in ins["add"])
        o = torch.empty_like(x)
        n = x.numel()
        timed("add", lambda: K["add_kernel"][lambda m: (triton.cdiv(n, m["BLOCK_SIZE"]),)](x, y, o, n, BLOCK_SIZE=1024), reps)
        res["add"] = o.cpu()
    case("add", add)

    def softmax():
        x = ins["softmax"][0].to(dev)
        o = torch.empty_like(x)
        timed("softmax", lambda: K["softmax_kernel"][(x.shape[0],)](o, x, x.stride(0), o.stride(0), x.shape[1],
                                                                     BLOCK_SIZE=1024), reps)
        res["softmax"] = o.cpu()
    case("softmax", softmax)

    def matmul():
        a, b = (t.to(dev) for t in ins["matmul"])
        M, K_ = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), dtype=torch.float16, device=dev)
        grid = lambda m: (triton.cdiv(M, m["BLOCK_M"]), triton.cdiv(N, m["BLOCK_N"]))
        timed("matmul", lambda: K["matmul_kernel"][grid](a, b, c, M, N, K_, a.stride(0), a.stride(1), b.stride(0),
                                                        b.stride(1), c.stride(0), c.stride(1)), reps)
        res["matmul"] = c.cpu()
        notes["matmul.config"] = str(getattr(K["matmul_kernel"], "best_config", None))
    case("matmul", matmul)

    def layernorm():
        x, w, b = (t.to(dev) for t in ins["layernorm"])
        y = torch.empty_like(x)
        mean = torch.empty(x.shape[0], device=dev)
        rstd = torch.empty(x.shape[0], device=dev)
        timed("layernorm", lambda: K["layernorm_fwd"][(x.shape[0],)](x, y, w, b, mean, rstd, x.stride(0), x.shape[1],
                                                                    1e-5, BLOCK_SIZE=1024), reps)
        res["layernorm"] = y.cpu()
        res["layernorm.rstd"] = rstd.cpu()
    case("layernorm", layernorm)

    def layernorm_bwd():
        x, w, b = (t.to(dev) for t in ins["layernorm"])
        dy = ins["layernorm_bwd"][0].to(dev)
        M, N = x.shape
        y = torch.empty_like(x)
        mean = torch.empty(M, device=dev)
        rstd = torch.empty(M, device=dev)
        K["layernorm_fwd"][(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=1024)
        G = 64
        dx = torch.empty_like(x)
        pdw = torch.empty((G, N), device=dev)
        pdb = torch.empty((G, N), device=dev)
        dw = torch.empty(N, device=dev)
        db = torch.empty(N, device=dev)

        def go():
            K["layernorm_bwd_dx"][(G,)](dx, dy, pdw, pdb, x, w, mean, rstd, x.stride(0), M, N, G=G, BLOCK_SIZE=1024)
            K["layernorm_bwd_dwdb"][(triton.cdiv(N, 128),)](pdw, pdb, dw, db, G, N, BLOCK_M=32, BLOCK_N=128)
        timed("layernorm_bwd", go, reps)
        res["layernorm_bwd.dx"], res["layernorm_bwd.dw"], res["layernorm_bwd.db"] = dx.cpu(), dw.cpu(), db.cpu()
    case("layernorm_bwd", layernorm_bwd)

    def attention():
        q, k, v = (t.to(dev) for t in ins["attention"])
        o = torch.empty_like(q)
        H, N_CTX, D = q.shape
        timed("attention", lambda: K["attn_fwd"][(triton.cdiv(N_CTX, 64), H)](
            q, k, v, o, D ** -0.5, N_CTX, q.stride(0), q.stride(1), HEAD_D=D, BLOCK_M=64, BLOCK_N=32), reps)
        res["attention"] = o.cpu()
    case("attention", attention)

    def dropout():
        x = ins["dropout"][0].to(dev)
        o = torch.empty_like(x)
        timed("dropout", lambda: K["dropout_kernel"][(triton.cdiv(x.numel(), 1024),)](x, o, x.numel(), 0.5, 42,
                                                                                     BLOCK=1024), reps)
        res["dropout"] = o.cpu()
    case("dropout", dropout)

    def views():
        t = ins["views"][0].to(dev)
        a, b = t[1::2], t[0:-1:2]  # two strided views of one storage, b updated in place
        n = a.numel()
        K["views_kernel"][(triton.cdiv(n, 1024),)](a, b, n, a.stride(0), b.stride(0), BLOCK=1024)
        res["views"] = t.cpu()
    case("views", views)

    def printk():
        K["print_kernel"][(2,)](ins["print"][0].to(dev), BLOCK=4)
        if dev == "cuda":
            torch.cuda.synchronize()
        sys.stdout.flush()
    case("print", printk)

    import numpy as np

    def save():
        np.savez(os.path.join(out, mode + ".npz"), **{k: (v.view(torch.int16).numpy() if v.dtype == torch.bfloat16
                                                           else v.numpy()) for k, v in res.items()})
        with open(os.path.join(out, mode + ".json"), "w") as f:
            json.dump({"times": times, "notes": notes, "triton": triton.__version__, "torch": torch.__version__}, f, indent=1)
    save()
    if mode != "gpu":  # an out-of-bounds access would poison the CUDA context; last, as it may crash
        def oob():
            x = ins["oob"][0].to(dev)
            o = torch.empty(2048, device=dev)
            K["oob_kernel"][(2,)](x, o, BLOCK=1024)
            notes["oob.result"] = "no error"
        case("oob", oob)
        save()


def compare(out):
    import numpy as np
    import ttref
    data = {m: dict(np.load(os.path.join(out, m + ".npz"))) for m in ("gpu", "ttref", "interp")
            if os.path.exists(os.path.join(out, m + ".npz"))}
    meta = {m: json.load(open(os.path.join(out, m + ".json"))) for m in data}
    # softmax and layer-norm outputs: absolute bounds of a few ulp of the rows' scale (1 for
    # probabilities, ~3 for normalised values): an element far below that scale (a probability of
    # 1e-11, a normalised value that cancels to 1e-6) carries the row's rounding, not its own ulp
    tol = {"add": ("exact", {}), "views": ("exact", {}), "softmax": ("abs", {"abs_tol": 1e-6}), "matmul": ("abs", {"abs_tol": 0.05}),
           "layernorm": ("abs", {"abs_tol": 1e-5}), "layernorm.rstd": ("ulp", {"ulp": 8}), "dropout": ("ulp", {"ulp": 1}),
           "layernorm_bwd.dx": ("abs", {"abs_tol": 1e-4}), "layernorm_bwd.dw": ("abs", {"abs_tol": 1e-3}),
           "layernorm_bwd.db": ("abs", {"abs_tol": 1e-3}), "attention": ("abs", {"abs_tol": 1e-2})}
    rows = []
    for k, (mode, opts) in tol.items():
        row = [k]
        for a, b in (("ttref", "gpu"), ("ttref", "interp"), ("interp", "gpu")):
            if k in data.get(a, {}) and k in data.get(b, {}):
                x, y = data[a][k], data[b][k]
                v = ttref.compare(x, y, mode, **opts)
                d = np.abs(x.astype(np.float64) - y.astype(np.float64))
                row.append("%s (max|d| %.3g, %d/%d equal)" % ("PASS" if v.passed else "FAIL", d.max(), int((x == y).sum()), x.size))
            else:
                row.append("-")
        rows.append(row)
    print("\n%-15s %-40s %-40s %-40s" % ("output", "ttref vs gpu", "ttref vs interp", "interp vs gpu"))
    for r in rows:
        print("%-15s %-40s %-40s %-40s" % tuple(r))
    print("\ntimes (s): first launch incl. compile / mean of later launches")
    for k in ("add", "softmax", "matmul", "layernorm", "layernorm_bwd", "attention", "dropout"):
        print("%-10s" % k + "".join("  %s %s" % (m, "%.3f/%.4f" % (meta[m]["times"][k]["first_s"], meta[m]["times"][k]["mean_s"])
                                                 if k in meta[m]["times"] else "-") for m in meta))
    for m in meta:
        for k, v in meta[m]["notes"].items():
            if not k.endswith(".detail"):
                print("note %s %s: %s" % (m, k, v))
    d = meta.get("ttref", {}).get("notes", {}).get("oob.detail")
    if d:
        print("ttref oob fault message:\n" + d[:700])


def sub(cmd, env, timeout):
    """subprocess.run that reports a timeout instead of raising: (rc, stdout, stderr)."""
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        dec = lambda b: (b.decode(errors="replace") if isinstance(b, bytes) else b) or ""
        return 124, dec(e.stdout), dec(e.stderr) + "\n(timed out after %d s)" % timeout


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "triton-cpu-check")
    os.makedirs(out, exist_ok=True)
    mode = os.environ.get("CHECK_MODE")
    if mode:
        if mode == "ttref":
            import site
            site.addsitedir(os.environ["TTREF_PTH_DIR"])  # stands in for the installed ttref_triton.pth
        run_all(mode, "cuda" if mode == "gpu" else "cpu", out)
        return
    env = dict(os.environ)
    # the GPU run, with every launch recorded as a suite case
    suite = os.environ.get("CHECK_SUITE") or os.path.join(out, "suite")
    t0 = time.perf_counter()
    # the captured suite judges those outputs with the same absolute bounds (by argument name)
    modes = {"out_ptr": None, "Y": {"mode": "abs", "options": {"abs_tol": 1e-5}},
             "DX": {"mode": "abs", "options": {"abs_tol": 1e-4}}}
    rc, so, se = sub([sys.executable, "-c", "import runpy,sys,ttref.capture as c\nwith c.capture(%r, %r) as k:\n"
                        "    sys.argv=[%r,%r]; runpy.run_path(%r, run_name='__main__')\nprint('captured', k.count, 'missed', k.missed)"
                        % (suite, {k: v for k, v in modes.items() if v}, __file__, out, __file__)],
                     dict(env, CHECK_MODE="gpu"), int(env.get("CHECK_TIMEOUT", "150")))
    print("== gpu (rc %d, %.1f s)\n%s\n%s" % (rc, time.perf_counter() - t0, so[-1200:], se[-1500:]))
    with open(os.path.join(out, "gpu.log"), "w") as f:
        f.write(so + "\n--- stderr\n" + se)
    hidden = dict(env, CUDA_VISIBLE_DEVICES="")
    for mode, extra in (("ttref", {"TTREF_TRITON": "1"}), ("interp", {"TRITON_INTERPRET": "1"})):
        t0 = time.perf_counter()
        rc, so, se = sub([sys.executable, __file__, out], dict(hidden, CHECK_MODE=mode, **extra),
                         int(env.get("CHECK_TIMEOUT", "150")))
        print("== %s (rc %d, %.1f s)\n%s\n%s" % (mode, rc, time.perf_counter() - t0, so[-1200:], se[-1200:]))
        with open(os.path.join(out, mode + ".log"), "w") as f:
            f.write(so + "\n--- stderr\n" + se)
    try:
        compare(out)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
    ttref_bin = os.environ.get("TTREF_BIN", "./ttref")
    if os.path.isdir(suite):
        for be in ("reference", os.path.join(suite, "replay_gpu.py")):
            cfg = os.path.join(suite, "replay_gpu.yml")  # the GPU's subnormal flushing
            rc, so, se = sub([ttref_bin, "conform", suite, "--backend", be, "--report-dir",
                              os.path.join(out, "rep-" + os.path.basename(be)), "--no-progress"]
                             + (["--config", cfg] if be != "reference" and os.path.exists(cfg) else []), env, 60)
            print("== conform --backend %s: rc %d\n%s" % (os.path.basename(be), rc, (so + se)[-1200:]))
        if os.path.isdir(os.path.join(suite, "aliased")):  # launches with aliased arguments (the strided views)
            rc, so, se = sub([sys.executable, "-m", "ttref.capture", "replay", suite], env, 120)
            print("== python3 -m ttref.capture replay: rc %d\n%s" % (rc, (so + se)[-1200:]))
        if os.path.exists(os.path.join(suite, "UNCAPTURED.txt")):
            print("UNCAPTURED:\n" + open(os.path.join(suite, "UNCAPTURED.txt")).read())


if __name__ == "__main__":
    main()
