#!/usr/bin/env python3
"""Run every captured GPU case under ttref and compare with the GPU's outputs.

A case directory holds kernel.ttir, case.json, NAME.in.npy and NAME.gpu.npy
(the layout of tests/data/corpus/*). For each case this runs
`ttref run kernel.ttir --grid ... --arg NAME=@NAME.in.npy ...` and compares
each pointer argument's buffer with NAME.gpu.npy:
  * integers and bools: bit for bit (as a multiset when the case is unordered);
  * floats: bit for bit where the kernel only uses exactly rounded ops, else
    within |ttref - gpu| <= atol + rtol * |ttref| with rtol/atol derived from
    the output format and the approximate ops the kernel uses (GPU exp/div/sqrt
    are approximate, reductions and dot reorder sums). This is the interim
    bound until the conformance harness's compliance modes take over.
Prints TAP (one line per case) and exits non-zero if any case fails.
"""
import json, os, re, subprocess, sys, tempfile
import numpy as np

FMT_EPS = {"f16": 2.0**-10, "bf16": 2.0**-7, "f32": 2.0**-23, "f64": 2.0**-52,
           "f8e4m3": 2.0**-3, "f8e5m2": 2.0**-2}
APPROX = re.compile(r"\b(math\.(exp|exp2|log|log2|sin|cos|sqrt|rsqrt|erf|tanh)|arith\.divf|tt\.dot|tt\.reduce|tt\.scan|tt\.extern_elementwise|atomic_rmw fadd)\b")


def float_view(a, dtype):
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if dtype in ("f16", "f32", "f64"):
        return a.astype(np.float64)
    return None


def compare(name, dtype, ref, gpu, ttir, unordered, K, ref_ftz=None):
    """None when gpu agrees with ref (or, for approximate kernels, with the
    flush-to-zero run ref_ftz), else a one-line reason."""
    if ref.shape != gpu.shape or ref.dtype != gpu.dtype:
        return f"{name}: shape/dtype {ref.shape}/{ref.dtype} vs gpu {gpu.shape}/{gpu.dtype}"
    fr = float_view(ref, dtype)
    a, b = ref.reshape(-1), gpu.reshape(-1)
    if fr is None or not APPROX.search(ttir):
        if unordered:
            a, b = np.sort(a), np.sort(b)
        diff = a.view(f"u{a.dtype.itemsize}") != b.view(f"u{b.dtype.itemsize}")
        if fr is not None:  # NaN payloads are not specified: any NaN matches any NaN
            diff &= ~(np.isnan(float_view(a, dtype)) & np.isnan(float_view(b, dtype)))
        if diff.any():
            bad = np.nonzero(diff)[0]
            i = int(bad[0])
            return f"{name}: {len(bad)} elements differ bit-wise; first at flat index {i}: ttref {a[i]!r} gpu {b[i]!r}"
        return None
    fg = float_view(gpu, dtype).reshape(-1)
    eps = FMT_EPS[dtype]
    # GPU approximations (ex2.approx, div.full ~2 ulp of f32) and reordered sums of K terms
    rtol = max(8 * eps, 4 * 2.0**-22) * max(1.0, np.sqrt(K))
    ok = np.zeros(fg.shape, bool)
    for r in (ref, ref_ftz):
        if r is None:
            continue
        fr = float_view(r, dtype).reshape(-1)
        fin = np.abs(fr[np.isfinite(fr)])
        atol = rtol * (float(fin.max()) if fin.size else 0.0) * 1e-3
        with np.errstate(invalid="ignore"):
            err = np.abs(fr - fg)
            ok |= (np.isnan(fr) & np.isnan(fg)) | (np.isinf(fr) & (fr == fg)) | (err <= atol + rtol * np.abs(fr))
    if not ok.all():
        bad = np.nonzero(~ok)[0]
        i = int(bad[0])
        fr = float_view(ref, dtype).reshape(-1)
        return (f"{name}: {len(bad)} of {ok.size} elements outside the interim bound (rtol {rtol:.3g}); "
                f"first at flat index {i}: ttref {fr[i]!r} gpu {fg[i]!r}")
    return None


def ttir_args(ttir):
    m = re.search(r"tt\.func public @[\w.$]+\((.*?)\)\s*(attributes|\{)", ttir, re.S)
    return re.findall(r"%([\w.$]+)\s*:", m.group(1)) if m else []


def run_case(ttref, d, out):
    case = json.load(open(os.path.join(d, "case.json")))
    ttir = open(os.path.join(d, "kernel.ttir")).read()
    names = set(ttir_args(ttir))
    cmd = [ttref, "run", os.path.join(d, "kernel.ttir"), "--grid", ",".join(str(g) for g in case["grid"])]
    for a in case["args"]:
        if a["name"] not in names:
            continue
        if a["kind"] == "ptr":
            cmd += ["--arg", f"{a['name']}=@{os.path.join(d, a['file'])}"]
        else:
            v = a["value"]
            v = ("true" if v else "false") if isinstance(v, bool) else repr(v)
            cmd += ["--arg", f"{a['name']}={v}"]
    p = subprocess.run(cmd + ["--out", out], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return f"ttref exited {p.returncode}: {(p.stderr or p.stdout).strip().splitlines()[:3]}"
    approx = bool(APPROX.search(ttir))
    if approx:  # GPU approximate ops flush subnormals: also accept ttref's FTZ answer
        p = subprocess.run(cmd + ["--ftz", "--out", out + "_ftz"], capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return f"ttref --ftz exited {p.returncode}: {(p.stderr or p.stdout).strip().splitlines()[:3]}"
    K = max([int(x) for x in re.findall(r"tensor<(\d+)x", ttir)] + [1])
    for a in case["args"]:
        if a["kind"] != "ptr" or a["name"] not in names:
            continue
        gpu = np.load(os.path.join(d, a["file"].replace(".in.npy", ".gpu.npy")))
        ref = np.load(os.path.join(out, a["name"] + ".npy"))
        ref_ftz = np.load(os.path.join(out + "_ftz", a["name"] + ".npy")) if approx else None
        why = compare(a["name"], a["dtype"], ref, gpu, ttir, case.get("unordered", False), K, ref_ftz)
        if why:
            return why
    return None


def main():
    ttref = os.environ.get("TTREF_BIN", "ttref")
    roots = sys.argv[1:] or [os.path.join(os.environ.get("TTREF_TEST_DATA", "tests/data"), "corpus")]
    cases = []
    for r in roots:
        for dp, dn, fn in os.walk(r):
            if "case.json" in fn and "kernel.ttir" in fn:
                cases.append(dp)
    cases.sort()
    print(f"1..{len(cases)}")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, d in enumerate(cases, 1):
            out = os.path.join(tmp, str(i))
            try:
                why = run_case(ttref, d, out)
            except Exception as e:  # a harness problem is a failure, never a pass
                why = f"harness error: {e!r}"
            name = os.path.relpath(d, roots[0]) if len(roots) == 1 else d
            if why:
                failed += 1
                print(f"not ok {i} - {name}\n# {why}")
            else:
                print(f"ok {i} - {name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
