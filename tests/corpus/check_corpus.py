#!/usr/bin/env python3
"""Run every captured GPU case under ttref and compare with the GPU's outputs.

A case directory holds kernel.ttir, case.json, NAME.in.npy and NAME.gpu.npy
(the layout of tests/data/corpus/*). For each case this runs
`ttref run kernel.ttir --grid ... --arg NAME=@NAME.in.npy ...` and compares
each pointer argument's buffer with NAME.gpu.npy.

Verdict per case (interim rules until the conformance harness's compliance
modes take over; see docs/semantics.md §10 for what GPUs do differently):
  * integers, bools and pointers: bit for bit (sorted multisets when the case
    is `unordered`);
  * floats: NaN matches NaN (payloads are unspecified); otherwise bit for bit
    against ttref's exact answer OR against one of the modelled GPU behaviours
    (`--ftz`: subnormals flushed; `--contract`: LLVM's mulf+addf -> fma); kernels
    using approximate or reordered ops (math.*, divf, dot, reduce, scan,
    libdevice, float atomics) are compared with a relative bound
    rtol = c * eps(format) * sqrt(K) (K = the longest tensor dim), measured
    against max|ttref| for dot and reduce kernels, whose sums GPUs reorder;
    dot bounds are 4*K*eps(accumulator) (fp8 inputs: eps >= 2^-16 for Hopper's
    reduced-precision accumulator); tf32 inputs are modelled exactly (truncation).
Cases listed in expected_divergence.txt are known GPU deviations: they are
reported as TAP TODO (XFAIL); if one passes it is an XPASS, which fails.
Prints TAP and exits non-zero on any failure.
"""
import json, os, re, subprocess, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from fp_tables import float_view  # noqa: E402  (shared with scripts/gen_ops_suite.py)
EPS = {"f16": 2.0**-10, "bf16": 2.0**-7, "f32": 2.0**-23, "f64": 2.0**-52, "f8e4m3": 2.0**-3, "f8e5m2": 2.0**-2}
TOP = os.path.dirname(os.path.dirname(HERE))


def approx_ops():
    """the mnemonics whose default compliance mode is not EXACT (the mode column, the last, of
    ir/ir_op_list.h: the harness's own table)"""
    rows = re.findall(r'^X\(\w+,\s*"([^"]+)".*,\s*(EXACT|ULP\([^)]*\)|DOT_PRODUCT|REDUCE)\)\s*/\*',
                      open(os.path.join(TOP, "ir", "ir_op_list.h")).read(), re.M)
    return sorted(mn for mn, mode in rows if mode != "EXACT")


# kernels with approximate or reordered ops, and float atomics (atomic_rmw fadd: order open)
APPROX = re.compile(r"\b(" + "|".join(re.escape(m) for m in approx_ops()) + r"|fadd)\b")
SUMS = re.compile(r"\b(tt\.dot|tt\.dot_scaled|tt\.reduce|tt\.scan)\b")
VARIANTS = ([], ["--ftz"], ["--contract"], ["--ftz", "--contract"])


def same_bits(ref, gpu, dtype, unordered):
    a, b = ref.reshape(-1), gpu.reshape(-1)
    if unordered:
        a, b = np.sort(a), np.sort(b)
    diff = a.view(f"u{a.dtype.itemsize}") != b.view(f"u{b.dtype.itemsize}")
    fa = float_view(a, dtype)
    if fa is not None:  # NaN payloads are not specified: any NaN matches any NaN
        diff &= ~(np.isnan(fa) & np.isnan(float_view(b, dtype)))
    return diff


def within_bound(ref, gpu, dtype, rtol, sums):
    fr, fg = float_view(ref, dtype).reshape(-1), float_view(gpu, dtype).reshape(-1)
    fin = np.abs(fr[np.isfinite(fr)])
    scale = float(fin.max()) if fin.size else 0.0
    with np.errstate(invalid="ignore", over="ignore"):
        tol = rtol * (scale if sums else np.abs(fr))
        return (np.isnan(fr) & np.isnan(fg)) | ((fr == fg)) | (np.abs(fr - fg) <= tol)


def rtol_for(dtype, ttir, K):
    eps = EPS[dtype]
    if "tt.dot" in ttir:
        # accumulation error of K terms in the accumulator format; Hopper's fp8 MMA
        # accumulates with a reduced-precision adder (about 2^-16 per step measured)
        if re.search(r"tt\.dot [^\n]*f8E", ttir):
            eps = max(eps, 2.0**-16)
        return 4 * eps * K
    return max(8 * eps, 2.0**-21) * max(1.0, np.sqrt(K))


def ttir_args(ttir):
    m = re.search(r"tt\.func public @[\w.$]+\((.*?)\)\s*(attributes|\{)", ttir, re.S)
    return re.findall(r"%([\w.$]+)\s*:", m.group(1)) if m else []


def run_case(ttref, d, tmp):
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
    ptrs = [a for a in case["args"] if a["kind"] == "ptr" and a["name"] in names]
    gpu = {a["name"]: np.load(os.path.join(d, a["file"].replace(".in.npy", ".gpu.npy"))) for a in ptrs}
    approx = bool(APPROX.search(ttir))
    sums = bool(SUMS.search(ttir))
    K = max([int(x) for x in re.findall(r"(\d+)x", ttir)] + [1])
    unordered = case.get("unordered", False)
    first_why = None
    ok_all = {a["name"]: None for a in ptrs}
    for k, extra in enumerate(VARIANTS):
        if k and not any(v is not None and not v.all() for v in ok_all.values()):
            break
        out = os.path.join(tmp, f"v{k}")
        p = subprocess.run(cmd + extra + ["--out", out], capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return f"ttref {' '.join(extra)} exited {p.returncode}: {(p.stderr or p.stdout).strip().splitlines()[:3]}"
        gpu_out = os.path.join(d, "stdout.txt")
        if k == 0 and os.path.exists(gpu_out):
            # tt.print: the GPU prints each element once per thread holding it; compare the sets
            want, got = set(open(gpu_out).read().splitlines()), set(p.stdout.splitlines())
            if want != got:
                return f"tt.print output differs: gpu-only {sorted(want - got)[:2]}, ttref-only {sorted(got - want)[:2]}"
        for a in ptrs:
            name, dt = a["name"], a["dtype"]
            ref, g = np.load(os.path.join(out, name + ".npy")), gpu[name]
            if ref.shape != g.shape or ref.dtype != g.dtype:
                return f"{name}: shape/dtype {ref.shape}/{ref.dtype} vs gpu {g.shape}/{g.dtype}"
            if float_view(ref, dt) is not None and approx and not unordered:
                good = within_bound(ref, g, dt, rtol_for(dt, ttir, K), sums)
            else:
                good = ~same_bits(ref, g, dt, unordered)
            ok_all[name] = good if ok_all[name] is None else (ok_all[name] | good)
            if k == 0 and not good.all() and first_why is None:
                i = int(np.nonzero(~good)[0][0])
                r0, g0 = ref.reshape(-1)[i], g.reshape(-1)[i]
                first_why = f"{name}: {int((~good).sum())} of {good.size} elements differ; first at flat index {i}: ttref {r0!r} gpu {g0!r}"
    for name, good in ok_all.items():
        if good is not None and not good.all():
            return first_why or f"{name}: differs"
    return None


def main():
    ttref = os.environ.get("TTREF_BIN", "ttref")
    roots = sys.argv[1:] or [os.path.join(os.environ.get("TTREF_TEST_DATA", "tests/data"), "corpus")]
    expected = {}
    for line in open(os.path.join(HERE, "expected_divergence.txt")):
        if line.strip() and not line.startswith("#"):
            k, _, why = line.partition(":")
            expected[k.strip()] = why.strip()
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
            base = os.path.basename(d.rstrip("/"))
            try:
                why = run_case(ttref, d, os.path.join(tmp, str(i)))
            except Exception as e:  # a harness problem is a failure, never a pass
                why = f"harness error: {e!r}"
            name = os.path.relpath(d, roots[0]) if len(roots) == 1 else d
            if base in expected:
                if why:
                    print(f"not ok {i} - {name} # TODO known GPU divergence: {expected[base]}\n# {why}")
                else:
                    failed += 1
                    print(f"ok {i} - {name} # TODO listed as a known divergence but agrees: remove it from expected_divergence.txt")
            elif why:
                failed += 1
                print(f"not ok {i} - {name}\n# {why}")
            else:
                print(f"ok {i} - {name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
