#!/usr/bin/env python3
"""Check printed TTIR files against a real-GPU corpus (run on the GPU machine).

Usage: python3 scripts/gpu/check_printed_ttir.py --corpus DIR --printed DIR [--only SUBSTR] [--jobs N]

For each case DIR/<case>/ of the corpus (see scripts/gpu/gen_corpus.py) with a printed file
PRINTED/<case>.ttir: compile the printed TTIR with
    triton.compile(path, target=GPUTarget("cuda", 90, 32), options={"num_warps": ...})
(the make_ttir passes are not re-run), launch it on the case's grid with the case's inputs
(NAME.in.npy), binding only the arguments present in the TTIR signature (constexprs and int
args equal to 1 are specialised away; the `tt.func public @name(%a: .., %b: ..)` argument names are
used, or, when they do not match the case's names, the non-specialised args in Python order), and
compare every pointer buffer bit for bit with NAME.gpu.npy (as a sorted multiset of bit patterns
when the case is `unordered`).

Prints `PASS|FAIL|ERROR <case> <detail>` per case and a final `N passed, N failed` line
(errors count as failed). Exit status 0 when everything passed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import traceback

import numpy as np

TORCH_DT = None


def torch_dtypes():
    import torch
    return {
        "i1": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
        "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
        "f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2,
    }


def parse_signature(src):
    """(kernel name, [arg names]) of the first public tt.func."""
    m = re.search(r"tt\.func\s+public\s+@([\w$.]+)\s*\(", src)
    if not m:
        m = re.search(r"tt\.func\s+@([\w$.]+)\s*\(", src)
    if not m:
        raise ValueError("no tt.func found")
    i = m.end()
    depth = 1
    j = i
    while j < len(src) and depth:
        c = src[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == '"':  # skip string literals (locations)
            j = src.index('"', j + 1)
        j += 1
    args = src[i:j - 1]
    return m.group(1), re.findall(r"%([\w$.-]+)\s*:", args)


def to_torch(arr, dt):
    import torch
    if dt == "bf16":
        return torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16).cuda()
    if dt.startswith("f8"):
        return torch.from_numpy(arr.copy()).view(torch_dtypes()[dt]).cuda()
    return torch.from_numpy(arr.copy()).cuda()


def from_torch(t, dt):
    import torch
    t = t.detach().cpu()
    if dt == "bf16":
        return t.view(torch.int16).numpy().view(np.uint16)
    if dt.startswith("f8"):
        return t.view(torch.uint8).numpy()
    return t.numpy()


def bits(a):
    a = np.ascontiguousarray(a)
    if a.dtype == np.bool_:
        return a.view(np.uint8)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def compare(got, ref, unordered):
    g, r = bits(got).reshape(-1), bits(ref).reshape(-1)
    if g.shape != r.shape:
        return "shape %s vs %s" % (got.shape, ref.shape)
    if unordered:
        g, r = np.sort(g), np.sort(r)
    bad = np.nonzero(g != r)[0]
    if len(bad) == 0:
        return None
    i = bad[0]
    gv, rv = got.reshape(-1)[i], ref.reshape(-1)[i]
    return "%d/%d elements differ%s, first at %d: got %r (0x%x) want %r (0x%x)" % (
        len(bad), g.size, " (as multisets)" if unordered else "", i, gv, int(g[i]), rv, int(r[i]))


def check_case(cdir, ppath):
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    cj = json.load(open(os.path.join(cdir, "case.json")))
    src = open(ppath).read()
    _, names = parse_signature(src)
    k = triton.compile(ppath, target=GPUTarget("cuda", 90, 32), options={"num_warps": cj["num_warps"]})
    vals, bufs = {}, []
    for a in cj["args"]:
        if a["kind"] == "ptr":
            t = to_torch(np.load(os.path.join(cdir, a["file"])), a["dtype"])
            vals[a["name"]] = t
            bufs.append((a, t))
        else:
            v = a["value"]
            vals[a["name"]] = float(v) if a["dtype"].startswith("f") else int(v)
    if names and all(n in vals for n in names):
        bound = [vals[n] for n in names]
    else:  # positional: drop int scalars equal to 1 (specialised away)
        bound = [vals[a["name"]] for a in cj["args"]
                 if not (a["kind"] == "scalar" and not a["dtype"].startswith("f") and a["value"] == 1)]
        if names and len(bound) != len(names):
            raise ValueError("cannot bind %d case args to TTIR signature %s" % (len(bound), names))
    grid = tuple(cj["grid"])
    quiet = os.path.exists(os.path.join(cdir, "stdout.txt"))
    if quiet:
        sys.stdout.flush()
        saved, dn = os.dup(1), os.open(os.devnull, os.O_WRONLY)
        os.dup2(dn, 1)
    try:
        k[grid](*bound)
        torch.cuda.synchronize()
    finally:
        if quiet:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
            os.close(dn)
    problems = []
    for a, t in bufs:
        ref = np.load(os.path.join(cdir, a["file"].replace(".in.npy", ".gpu.npy")))
        d = compare(from_torch(t, a["dtype"]), ref, cj.get("unordered", False))
        if d:
            problems.append("%s: %s" % (a["name"], d))
    return problems


def worker(args, cases):
    import torch
    import triton
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    k, n = (int(v) for v in args.shard.split("/"))
    deadline = args.t0 + args.deadline
    for i, case in enumerate(cases):
        if i % n != k:
            continue
        if time.time() > deadline:
            print("ERROR %s not checked: deadline reached" % case, flush=True)
            continue
        ppath = os.path.join(args.printed, case + ".ttir")
        if not os.path.exists(ppath):
            print("ERROR %s no printed file %s" % (case, ppath), flush=True)
            continue
        try:
            probs = check_case(os.path.join(args.corpus, case), ppath)
            if probs:
                print("FAIL %s %s" % (case, "; ".join(probs)), flush=True)
            else:
                print("PASS %s" % case, flush=True)
        except Exception as e:
            s = "".join(traceback.format_exception_only(type(e), e)).strip().splitlines()
            print("ERROR %s %s" % (case, (s[-1] if s else repr(e))[:300]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--printed", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=12)
    ap.add_argument("--deadline", type=float, default=100.0)
    ap.add_argument("--shard", default="", help=argparse.SUPPRESS)
    ap.add_argument("--t0", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not args.t0:
        args.t0 = time.time()
    cases = sorted(d for d in os.listdir(args.corpus)
                   if os.path.isfile(os.path.join(args.corpus, d, "case.json")) and args.only in d)
    if args.shard:
        worker(args, cases)
        return 0
    jobs = max(1, min(args.jobs, len(cases)))
    procs = []
    for k in range(jobs):
        cmd = [sys.executable, os.path.abspath(__file__), "--corpus", args.corpus, "--printed", args.printed,
               "--only", args.only, "--shard", "%d/%d" % (k, jobs), "--t0", repr(args.t0),
               "--deadline", repr(args.deadline)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True))
    results = {}
    hard = args.t0 + args.deadline + 20
    for p in procs:
        try:
            out, _ = p.communicate(timeout=max(1.0, hard - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
        for line in out.splitlines():
            parts = line.split(" ", 2)
            if len(parts) >= 2 and parts[0] in ("PASS", "FAIL", "ERROR") and parts[1] in cases:
                results[parts[1]] = line
    npass = nfail = 0
    for c in cases:
        line = results.get(c, "ERROR %s no result (worker killed or crashed)" % c)
        print(line)
        if line.startswith("PASS"):
            npass += 1
        else:
            nfail += 1
    print("%d passed, %d failed" % (npass, nfail))
    return 0 if nfail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
