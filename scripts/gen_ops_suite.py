#!/usr/bin/env python3
"""Build the op conformance suite (conformance/suite/ops) from real Triton 3.6 captures.

Usage: scripts/gen_ops_suite.py --capture DIR [--capture DIR ...] [--out conformance/suite/ops]
                                [--ttref ./ttref]

Each --capture DIR holds case directories in scripts/gpu/gen_corpus.py's layout (kernel.ttir,
case.json, NAME.in.npy, NAME.gpu.npy): tests/data/corpus/triton-3.6-h100-gen (the committed corpus)
and the output of scripts/gpu/gen_ops.py (not committed; run it on the GPU machine). Kernels
whose TTIR (without locations) repeats an earlier one are skipped, so the first capture wins.

For every kernel this writes kernels/NAME.ttir (locations stripped: they name the capture
machine's paths) and NAME.yaml, one case with its specializations:
  * every TTIR argument is bound: scalars from case.json, pointers with the captured shape;
  * inputs are generator recipes derived from the captured input (never the captured bits):
    data with NaN/inf or integer extremes -> `special` (edge: fraction 1, every pair of the set;
    mixed: fraction 0.25 with the data's range); small integer ranges (indices, shift amounts,
    counts) -> `uniform` over that range; integral floats -> `int_valued`; constant buffers ->
    `fill`; permutations -> `file` (a small .npy next to the case: no recipe makes one);
  * divisors of integer division get separate specializations (positive, negative, -1, and
    zero, which is undefined in TTIR: ttref's choice is 0); shift amounts in [0, w) and, as a
    separate specialization, >= w (undefined in LLVM; ttref's choice is documented);
  * elementwise kernels with a scalar `n` also get a `tail` specialization (n cut to an odd
    value, so whole programs and the last block are masked off);
  * outputs: buffers the GPU or ttref changed; the compliance mode follows the ops the kernel
    holds (docs/suite-format.md's defaults);
  * cases whose kernel Triton could not compile or run (gpu_error in case.json) are tagged
    `gpu-unsupported` with the reason: a backend built on Triton 3.6 answers UNSUPPORTED.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fp_tables import float_view
except ImportError:  # --retag needs no numpy; building cases does
    np = None

DT_SUITE = {"i1": "bool", "f8e4m3": "f8E4M3FN", "f8e5m2": "f8E5M2", "f8e4m3fnuz": "f8E4M3FNUZ",
            "f8e5m2fnuz": "f8E5M2FNUZ"}
FLOATS = {"f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2", "f8e4m3fnuz", "f8e5m2fnuz"}
INTS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
APPROX_MATH = re.compile(r"\b(math\.(exp|exp2|log|log2|sin|cos|tan|sqrt|rsqrt|erf|tanh|log1p|expm1|powf)|"
                         r"tt\.extern_elementwise)\b")
SUM_RE = re.compile(r"\b(tt\.reduce|tt\.scan)\b")
DIV_RE = re.compile(r"\barith\.(divsi|divui|remsi|remui|ceildivsi|ceildivui|floordivsi)\b")
SHIFT_RE = re.compile(r"\barith\.(shli|shrsi|shrui)\b")
NAME_OK = re.compile(r"^[A-Za-z0-9_.-]+$")
# Cases that target a built-in mutant (`mutant:NAME` tags, docs/compliance.md section 15): one case
# whose edge inputs kill it (measured by scripts/mutation_score.py), so the score credits a targeting item.
MUTANT_TARGETS = {
    "atomic_add_bf16_acq_rel_gpu": ["atomic-returns-new-value"],
    "cast_bf16_f8e4m3_rtne": ["fp8-overflow-not-saturated"],
    "cast_bf16_i1": ["extui-as-extsi"],
    "cast_bf16_u16": ["fptoui-as-fptosi"],
    "cast_i16_i8": ["trunci-saturates"],
    "cast_i1_bf16": ["uitofp-as-sitofp"],
    "cmpf_u_bf16": ["cmpf-unordered-as-ordered"],
    "float_div_bf16": ["divf-as-reciprocal"],
    "float_fma_bf16": ["fma-unfused"],
    "int_cdiv_i32": ["divsi-as-floordivsi"],
    "int_cmp_ui16": ["cmpi-unsigned-as-signed"],
    "int_div_ui16": ["divui-as-divsi"],
    "int_max_ui16": ["minmaxui-as-signed"],
    "int_mod_ui16": ["remui-as-remsi"],
    "int_shr_ui16": ["shrui-as-shrsi"],
    "int_umulhi_ui32": ["mulhiui-as-signed"],
    "math_exp2_f32": ["exp2-low-precision"],
    "math_exp_f32": ["exp-as-exp2-scaled"],
    "math_roundeven_f32": ["roundeven-as-round"],
    "math_sqrt_f32": ["sqrt-as-x-times-rsqrt"],
    "reduce_max_bf16_ax0": ["reduce-max-init-zero"],
}


def as_f64(a, dt):
    f = float_view(a, dt)
    return np.asarray(a).astype(np.float64) if f is None else f


def drop_loc_attrs(line):
    """remove every ` loc(...)` (balanced parentheses, strings skipped) from one line"""
    out, i = [], 0
    while True:
        j = line.find(" loc(", i)
        if j < 0:
            out.append(line[i:])
            return "".join(out)
        out.append(line[i:j])
        k, depth = j + 5, 1
        while k < len(line) and depth:
            c = line[k]
            if c == '"':
                k = line.index('"', k + 1)
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            k += 1
        i = k


def strip_locs(src):
    out = []
    for line in src.splitlines():
        if line.startswith("#loc"):
            continue
        out.append(drop_loc_attrs(line).rstrip())
    return "\n".join(out).rstrip() + "\n"


def ttir_sig(src):
    """[(name, type)] of the first public tt.func"""
    m = re.search(r"tt\.func public @[\w.$]+\(", src)
    i, depth, j = m.end(), 1, m.end()
    while depth:
        c = src[j]
        depth += (c == "(") - (c == ")")
        j += 1
    out = []
    for part in re.finditer(r"%([\w.$]+)\s*:\s*([^ ,{)]+(?:<[^>]*>+)?)", src[i:j - 1]):
        out.append((part.group(1), part.group(2)))
    return out


def num(v):
    """a YAML scalar for a float or int"""
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 2 ** 53:
        return str(int(v))
    return repr(float("%.6g" % v))


class Recipe:
    """generator recipes for one input buffer: base (data-derived), edge, mixed (None = same as base)"""

    def __init__(self, base, edge=None, mixed=None, kind="data"):
        self.base, self.edge, self.mixed, self.kind = base, edge, mixed, kind


def seed_of(*parts):
    return int(hashlib.sha256("/".join(parts).encode()).hexdigest()[:7], 16) % 100000


def recipe_for(case, arg, data, dt):
    flat = np.asarray(data).reshape(-1)
    s = seed_of(case, arg)
    if flat.size == 0:
        return Recipe(None)
    if dt == "i1":
        if np.all(flat == flat[0]):
            return Recipe("{gen: fill, value: 1}" if flat[0] else None)
        return Recipe("{gen: uniform, seed: %d, range: [0, 1]}" % s)
    if dt in FLOATS:
        f = as_f64(flat, dt)
        fin = f[np.isfinite(f)]
        if np.all(np.isnan(f)) or (fin.size == f.size and np.all(f == f[0])):
            v = f[0]
            return Recipe(None if (v == 0 and not np.signbit(v)) else "{gen: fill, value: %s}" % num(v))
        lo, hi = (float(fin.min()), float(fin.max())) if fin.size else (-4.0, 4.0)
        special = fin.size != f.size or (dt != "f64" and np.any(np.abs(fin) > 6e4) and dt in ("f16",))
        if fin.size and np.all(fin == np.round(fin)) and not special and hi - lo <= 2 ** 20:
            return Recipe("{gen: int_valued, seed: %d, range: [%s, %s]}" % (s, num(lo), num(hi)))
        if special:
            rl, rh = (float(np.percentile(fin, 5)), float(np.percentile(fin, 95))) if fin.size > 4 else (-4.0, 4.0)
            if rl >= rh:
                rl, rh = -4.0, 4.0
            rng = "[%s, %s]" % (num(rl), num(rh))
            return Recipe("{gen: special, seed: %d, set: float, fraction: 0.5, range: %s}" % (s, rng),
                          "{gen: special, seed: %d, set: float}" % (s + 1),
                          "{gen: special, seed: %d, set: float, fraction: 0.25, range: %s}" % (s + 2, rng), "special")
        if lo == hi:
            hi = lo + 1.0
        return Recipe("{gen: uniform, seed: %d, range: [%s, %s]}" % (s, num(lo), num(hi)))
    bits = INTS[dt]
    v = flat.astype(np.int64)
    lo, hi = int(v.min()), int(v.max())
    if lo == hi:
        return Recipe(None if lo == 0 else "{gen: fill, value: %d}" % lo)
    if flat.size > 1 and lo == 0 and hi == flat.size - 1 and len(np.unique(v)) == flat.size and \
            np.any(v != np.arange(flat.size)):
        return Recipe("file", kind="perm")
    imin, imax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if lo == imin and hi == imax:
        return Recipe("{gen: special, seed: %d, set: int, fraction: 0.5}" % s,
                      "{gen: special, seed: %d, set: int}" % (s + 1),
                      "{gen: special, seed: %d, set: int, fraction: 0.25, range: [%d, %d]}" % (
                          s + 2, max(imin, -1000), min(imax, 1000)), "special")
    return Recipe("{gen: uniform, seed: %d, range: [%d, %d]}" % (s, lo, hi))


def out_mode(ttir, dt, case, cj, arg):
    if dt not in FLOATS:
        return "exact"
    ce = cj.get("constexprs", {})
    name = cj["name"]
    if "tt.dot" in ttir:
        k = ce.get("K") or ce.get("BK") or 32
        if name.startswith("rw_matmul"):
            k = [a["value"] for a in cj["args"] if a["name"] == "K"][0]
        return "{mode: dot_product, options: {k: %d}}" % int(k)
    sums = combine_sums(ttir)
    composite = name.startswith(("rw_", "math_softmax", "math_sigmoid", "cf_")) and \
        (APPROX_MATH.search(ttir) or "arith.divf" in ttir or SUM_RE.search(ttir))
    if composite and sums:
        return "{mode: reduce, options: {k: %d}}" % max(int(x) for x in re.findall(r"tensor<(\d+)x", ttir) + ["8"])
    if composite:
        return "{mode: ulp, options: {ulp: 256, precise: true, allow_ftz: true}}"
    if sums:
        M, N = int(ce.get("M", 8)), int(ce.get("N", 32))
        ax = ce.get("AXIS", -1)
        k = {0: M, 1: N}.get(ax, M * N) if name.startswith(("reduce", "scan")) else max(M, N)
        return "{mode: reduce, options: {k: %d}}" % k
    if "tt.atomic_rmw fadd" in ttir or "atomic_rmw fadd" in ttir or "tt.descriptor_reduce add" in ttir:
        n = [a["value"] for a in cj["args"] if a["name"] == "n"]
        slots = int(ce.get("NSLOT", 1))
        k = (int(n[0]) // slots + 2) if n else 4
        return "{mode: reduce, options: {k: %d}}" % k
    if APPROX_MATH.search(ttir):
        u = 2 if "math.rsqrt" in ttir else 4
        if "tt.extern_elementwise" in ttir or "math.powf" in ttir:
            u = 8
        return "{mode: ulp, options: {ulp: %d, precise: true, allow_ftz: true}}" % u
    if "arith.divf" in ttir:
        return "{mode: ulp, options: {ulp: 2, allow_ftz: true}}"
    return "{mode: exact, options: {allow_ftz: true}}"


def combine_sums(ttir):
    """whether some tt.reduce / tt.scan combine region adds or multiplies floats"""
    for m in re.finditer(r"tt\.(reduce|scan)\b", ttir):
        end = ttir.find("tt.%s.return" % m.group(1), m.end())
        if end > 0 and re.search(r"arith\.(addf|mulf)", ttir[m.end():end]):
            return True
    return False


def op_family(name):
    for pre, fam in [("int_", "elementwise"), ("float_", "elementwise"), ("negf", "elementwise"),
                     ("cmpf", "elementwise"), ("poison", "elementwise"), ("grid", "elementwise"),
                     ("cast_", "cast"), ("bitcast", "cast"), ("arith_bitcast", "cast"), ("index_cast", "cast"),
                     ("math_", "math"), ("reduce_", "reduce"), ("scan_", "scan"), ("atomic_", "atomic"),
                     ("dot_", "dot"), ("shape_", "shape"), ("mem_", "memory"), ("copy_", "memory"),
                     ("blockptr", "memory"), ("tensordesc", "memory"), ("td_", "memory"), ("xdesc", "memory"),
                     ("unsplat", "shape"), ("cf_", "control"), ("ttg_", "control"), ("rw_", "kernel")]:
        if name.startswith(pre):
            return fam
    return "misc"


def ops_in(ttir):
    return sorted(set(re.findall(r"(?:=|^)\s*((?:tt|arith|math|scf|cf|gpu|ttg|ub|llvm)\.[a-z_.0-9]+)", ttir, re.M)))


def run_ttref(ttref, kpath, cj, cdir, names):
    """ttref's outputs on the captured inputs (to find which buffers a kernel writes)"""
    tmp = tempfile.mkdtemp(prefix="opsuite.")
    try:
        cmd = [ttref, "run", kpath, "--grid", ",".join(str(g) for g in cj["grid"]), "--out", tmp]
        for a in cj["args"]:
            if a["name"] not in names:
                continue
            if a["kind"] == "ptr":
                cmd += ["--arg", "%s=@%s" % (a["name"], os.path.join(cdir, a["file"]))]
            else:
                v = a["value"]
                cmd += ["--arg", "%s=%s" % (a["name"], ("true" if v else "false") if isinstance(v, bool) else repr(v))]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            return None, (p.stderr or p.stdout).strip().splitlines()[:1]
        outs = {}
        for a in cj["args"]:
            f = os.path.join(tmp, a["name"] + ".npy")
            if a["kind"] == "ptr" and os.path.exists(f):
                outs[a["name"]] = np.load(f)
        return outs, None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


ILLEGAL = set()  # ops Triton's lowering refused ("failed to legalize operation 'X'"), from --gpu-log


def gpu_reason(err, cj):
    """one line: why Triton 3.6 on the H100 cannot run this kernel"""
    if not err:
        return None
    rw = cj.get("rewrite", "")
    target = rw.split("-> ")[-1].split()[0] if "->" in rw else ""
    if "FNUZ" in rw:
        return "Triton 3.6's NVIDIA backend has no conversion to or from the FNUZ fp8 formats (AMD's)"
    if target in ILLEGAL:
        return "Triton 3.6's NVIDIA lowering has no pattern for %s (failed to legalize)" % target
    table = [(r"custom op '([\w.]+)' is unknown", r"Triton 3.6 does not know the op \1 (parse error)"),
             (r"Parse MLIR file failed", "Triton 3.6 cannot parse it: %s" % (
                 "arith.index_cast needs `index` on one side in MLIR (ttref takes i32 -> i64)" if "index_cast" in rw
                 else "unknown op %s" % target)),
             (r"ptxas", "the TMA gather4/scatter4 instructions it lowers to need sm_100 (ptxas refuses them on sm_90a)")]
    for pat, why in table:
        m = re.search(pat, err)
        if m:
            return m.expand(why)
    if cj.get("handwritten", "").startswith("tt.make_tensor_ptr"):
        return ("ConvertTritonGPUToLLVM fails: Triton rewrites block pointers only in make_ttir "
                "(rewrite-tensor-pointer), so TTIR holding tt.make_tensor_ptr cannot be compiled from a file")
    if cj.get("kernel") == "cast_op":
        return "ConvertTritonGPUToLLVM has no conversion for this float cast / rounding mode on sm_90"
    return err[:160]


MANT = {"f64": 52, "f32": 23, "f16": 10, "bf16": 7, "f8e4m3": 3, "f8e5m2": 2, "f8e4m3fnuz": 3, "f8e5m2fnuz": 2}


def halfway_recipe(name, dtypes):
    """arange from -3 in steps of half the destination's spacing in [1, 2): every other value in [-3, 4)
    is an exact tie of a float downcast; steps of 0.25 give the x.5 ties of rounding to integers"""
    src, dst = dtypes.get("x_ptr"), dtypes.get("o_ptr")
    if src not in MANT:
        return None
    if name.startswith("cast_") and dst in MANT and MANT[dst] < MANT[src]:
        return "{gen: arange, start: -3, step: %r}" % (2.0 ** -(MANT[dst] + 1))  # exact in binary64
    if (name.startswith("cast_") and dst in INTS) or re.match(
            r"math_(round|roundeven|floor|ceil|trunc|ld_rint|ld_trunc)_", name):
        return "{gen: arange, start: -3, step: 0.25}"
    return None


def specs_for(name, ttir, cj, recipes, scal, bufs):
    """[(variant_key, {arg: recipe-yaml}, {scalar: value})]"""
    specs = []
    has_special = any(r.kind == "special" for r in recipes.values())
    divisor = "y_ptr" if DIV_RE.search(ttir) and "y_ptr" in recipes and not name.startswith("cf_") else None
    shift = "y_ptr" if SHIFT_RE.search(ttir) and name.startswith("int_sh") and "y_ptr" in recipes else None
    if divisor or shift:
        dt = [a["dtype"] for a in cj["args"] if a["name"] == "y_ptr"][0]
        bits = INTS.get(dt, 32)
        imin, imax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        sd = seed_of(name, "div")
        x_edge = {k: (r.edge or r.base) for k, r in recipes.items() if k != "y_ptr"}
        if divisor:
            specs.append(("pos", dict(x_edge, y_ptr="{gen: uniform, seed: %d, range: [1, %d]}" % (sd, imax)), {}))
            specs.append(("small", dict({k: r.base for k, r in recipes.items()},
                                        y_ptr="{gen: uniform, seed: %d, range: [1, 9]}" % (sd + 3)), {}))
            specs.append(("neg", dict(x_edge, y_ptr="{gen: uniform, seed: %d, range: [%d, -1]}" % (sd + 1, imin)), {}))
            specs.append(("minus1", dict(x_edge, y_ptr="{gen: fill, value: -1}"), {}))
            specs.append(("zero_ub", dict(x_edge, y_ptr="{gen: fill, value: 0}"), {}))
        else:
            specs.append(("in_range", dict(x_edge, y_ptr="{gen: uniform, seed: %d, range: [0, %d]}" % (sd, bits - 1)), {}))
            specs.append(("wide_ub", dict(x_edge, y_ptr="{gen: uniform, seed: %d, range: [%d, %d]}" % (sd + 1, bits, 2 * bits + 3)), {}))
        return specs
    if name.startswith("atomic_cas_") and "c_ptr" in recipes:  # compare values: equal, unequal, half and half
        sd = seed_of(name, "cas")
        base = {k: (r.edge or r.base) for k, r in recipes.items()}
        half = "{gen: int_valued, seed: %d, range: [0, 1]}"
        return [("swap", dict(base, c_ptr="{gen: fill, value: 5}", buf_ptr="{gen: fill, value: 5}"), {}),
                ("noswap", dict(base, c_ptr="{gen: fill, value: 5}", buf_ptr="{gen: fill, value: 6}"), {}),
                ("half", dict(base, c_ptr=half % sd, buf_ptr=half % (sd + 1)), {})]
    if "tt.dot" in ttir:  # dot operands: no NaN/inf (E8M0 scale 0xff is NaN); TOSA's sets live in core
        base = {}
        for k, r in recipes.items():
            b = r.base
            if r.kind == "special":
                b = re.sub(r"gen: special, (seed: \d+), set: \w+, fraction: [\d.]+, (range: \[[^]]*\])",
                           r"gen: uniform, \1, \2", b)
                if "gen: special" in b:
                    b = "{gen: uniform, seed: %d, range: [%s]}" % (seed_of(name, k), "110, 127" if k in (
                        "as_ptr", "bs_ptr") else "-100, 100")
            base[k] = b
        specs = [("data", base, {})]
        shapes, dtypes = bufs
        sa, sb = shapes.get("a_ptr"), shapes.get("b_ptr")
        dt = dtypes.get("a_ptr")
        if "tt.dot " in ttir and sa and sb and len(sa) == 2 and len(sb) == 2 and dt in (
                "f16", "bf16", "f32", "f8e4m3", "f8e5m2") and sa[1] == sb[0] and dtypes.get("b_ptr") == dt:
            K, N = sa[1], sb[1]
            acc = "f16" if dtypes.get("o_ptr") == "f16" else "f32"
            for st in (0, 3, 4):  # TOSA's dot-product sets: cancellation, varying magnitude, mixed zeros
                rec = dict(base)
                rec["a_ptr"] = "{gen: dot_product, set: %d, ks: %d, operand: a, k_stride: 1, acc: %s}" % (st, K, acc)
                rec["b_ptr"] = "{gen: dot_product, set: %d, ks: %d, operand: b, k_stride: %d, acc: %s}" % (st, K, N, acc)
                specs.append(("tosa_s%d" % st, rec, {}))
        return specs
    specs.append(("data", {k: r.base for k, r in recipes.items()}, {}))
    if has_special:
        specs.append(("edge", {k: (r.edge or r.base) for k, r in recipes.items()}, {}))
        specs.append(("mixed", {k: (r.mixed or r.base) for k, r in recipes.items()}, {}))
    halfway = halfway_recipe(name, bufs[1])
    if halfway:  # exact ties of the rounding the op performs (RNE, RTZ, round-half-away, to-int truncation)
        specs.append(("halfway", dict({k: r.base for k, r in recipes.items()}, x_ptr=halfway), {}))
    n = scal.get("n")
    if n is not None and isinstance(n[0], int) and n[0] > 64 and not re.search(r"%n: i32 \{tt\.divisibility", ttir) and \
            name.startswith(("int_", "float_", "cast_", "math_", "copy_", "mem_cache", "negf", "cmpf", "bitcast",
                             "arith_bitcast", "poison", "mem_c", "mem_e", "mem_v")):
        specs.append(("tail", {k: (r.edge or r.base) for k, r in recipes.items()}, {"n": (n[0] - 37) | 1}))
    return specs


def build_case(ttref, src_dir, name, cj, ttir_raw, out, stats):
    ttir = strip_locs(ttir_raw)
    sig = ttir_sig(ttir)
    names = [s[0] for s in sig]
    types = dict(sig)
    by = {a["name"]: a for a in cj["args"]}
    if not all(n in by for n in names):
        stats["skipped"].append("%s: TTIR args %s not in case.json" % (name, names))
        return None
    kfile = os.path.join("kernels", name + ".ttir")
    with open(os.path.join(out, kfile), "w") as f:
        f.write(ttir)
    gpu_err = cj.get("gpu_error")
    ref, why = run_ttref(ttref, os.path.join(out, kfile), cj, src_dir, set(names))
    if ref is None:
        stats["skipped"].append("%s: ttref fails on the captured inputs: %s" % (name, why))
        os.remove(os.path.join(out, kfile))
        return None
    recipes, shapes, dtypes, outputs, scal = {}, {}, {}, [], {}
    for n in names:
        a = by[n]
        if a["kind"] != "ptr":
            scal[n] = (a["value"], types.get(n, ""))
            continue
        data = np.load(os.path.join(src_dir, a["file"]))
        shapes[n] = list(data.shape)
        dtypes[n] = a["dtype"] + ("fnuz" if "FNUZ" in types.get(n, "") else "")
        changed = not np.array_equal(ref[n].view(np.uint8), data.view(np.uint8))
        gfile = os.path.join(src_dir, a["file"].replace(".in.npy", ".gpu.npy"))
        if os.path.exists(gfile) and not changed:
            g = np.load(gfile)
            changed = g.shape == data.shape and not np.array_equal(g.view(np.uint8), data.view(np.uint8))
        if changed:
            outputs.append(n)
        r = recipe_for(name, n, data, dtypes[n])
        if r.base == "file":
            np.save(os.path.join(out, "data", "%s.%s.npy" % (name, n)), data)
            r.base = "{gen: file, file: data/%s.%s.npy}" % (name, n)
        recipes[n] = r
    if not outputs:
        stats["skipped"].append("%s: writes no buffer" % name)
        os.remove(os.path.join(out, kfile))
        return None
    specs = specs_for(name, ttir, cj, recipes, scal, (shapes, dtypes))
    fam = op_family(name)
    ops = ops_in(ttir)
    dts = sorted(set(DT_SUITE.get(d, d) for d in dtypes.values()))
    feats = []
    if any(d.startswith("f8") for d in dtypes.values()):
        feats.append("fp8")
    if "inputPrecision = tf32" in ttir:
        feats.append("tf32")
    if "tt.atomic_" in ttir or "tt.descriptor_reduce" in ttir:
        feats.append("atomics")
    if re.search(r"\b(i64|f64)\b", ttir) and any(d in ("i64", "f64") for d in dtypes.values()):
        feats.append("64bit")
    if "tt.dot" in ttir:
        feats.append("dot")
    if re.search(r"tt\.(make_tensor_ptr|make_tensor_descriptor)", ttir):
        feats.append("block_ptr")
    tags = [fam] + [o for o in ops if o.split(".")[0] in ("arith", "math", "tt", "scf", "cf", "ub", "ttg", "gpu", "llvm")
                    and o not in ("tt.return", "tt.get_program_id", "tt.make_range", "tt.splat", "tt.addptr",
                                  "tt.load", "tt.store", "arith.constant", "scf.yield", "tt.func", "arith.muli",
                                  "arith.addi", "arith.cmpi")]
    tags += ["mutant:" + m for m in MUTANT_TARGETS.get(name, [])]
    desc = "Triton 3.6 kernel %s (%s)" % (cj.get("kernel", "?"), ", ".join("%s=%s" % kv for kv in
                                                                         sorted(cj.get("constexprs", {}).items())
                                                                         if kv[0] not in ("BLOCK",))[:120])
    if cj.get("derived_from"):
        desc = "TTIR derived from Triton 3.6 kernel %s: %s" % (cj["derived_from"], cj["rewrite"])
        tags.append("hand-written")
    if cj.get("handwritten"):
        desc = "hand-written TTIR: %s" % cj["handwritten"]
        tags.append("hand-written")
    if gpu_err:
        why = gpu_reason(gpu_err, cj)
        desc += "; gpu-unsupported on Triton 3.6/H100: %s" % why
        tags.append("gpu-unsupported")
        stats["gpu_unsupported"].append((name, why))
    desc = desc.replace('"', "'").replace("\\", "/")
    lines = ["# %s: generated by scripts/gen_ops_suite.py from %s" % (
        name, "the H100 corpus (scripts/gpu/gen_corpus.py)" if "tests/data/corpus" in src_dir else
        "scripts/gpu/gen_ops.py"),
             'description: "%s"' % desc, "kernel: %s" % kfile, "op: %s" % fam,
             "tags: [%s]" % ", ".join(tags)]
    req = "requires: {dtypes: [%s]%s}" % (", ".join(dts), (", features: [%s]" % ", ".join(feats)) if feats else "")
    lines.append(req)
    g = list(cj["grid"]) + [1] * (3 - len(cj["grid"]))
    lines.append("grid: [%d, %d, %d]" % tuple(g[:3]))

    def arg_lines(rec, sc, indent):
        res = []
        for n in names:
            if n in shapes:
                dt = DT_SUITE.get(dtypes[n], dtypes[n])
                inp = rec.get(n)
                s = "%s%s: {shape: [%s], dtype: %s%s}" % (indent, n, ", ".join(str(x) for x in shapes[n]), dt,
                                                          (", input: " + inp) if inp else "")
                res.append(s)
            else:
                v = sc.get(n, scal[n][0])
                res.append("%s%s: %s" % (indent, n, num(v) if not isinstance(v, bool) else ("true" if v else "false")))
        return res

    base_rec, base_sc = specs[0][1], specs[0][2]
    lines.append("args:")
    lines += arg_lines(base_rec, base_sc, "  ")
    lines.append("outputs:")
    unordered = re.search(r"\btt\.cat\b", ttir) is not None  # tt.cat leaves the element order open (can_reorder)
    for n in outputs:
        m = out_mode(ttir, dtypes[n], name, cj, n)
        if unordered:
            m = ("{%s, unordered: true}" % m[1:-1]) if m.startswith("{") else "{mode: %s, unordered: true}" % m
        lines.append("  %s: %s" % (n, m))
    lines.append("specializations:")
    for key, rec, sc in specs:
        lines.append("  - variant_key: %s" % key)
        if rec != base_rec or sc != base_sc:
            changed = [n for n in names if (n in shapes and rec.get(n) != base_rec.get(n)) or
                       (n not in shapes and sc.get(n, scal[n][0]) != base_sc.get(n, scal[n][0]))]
            lines.append("    args:")
            lines += [l for l in arg_lines(rec, sc, "      ") if l.strip().split(":")[0] in changed]
    with open(os.path.join(out, name + ".yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    stats["items"] += len(specs)
    stats["ops"].update(ops)
    return len(specs)


# Why the H100 deviates, by item id (first match wins). Each reason was checked against the item's
# worst element in the H100 run (docs/scoreboards, conformance/suite/ops/README.md).
H100_REASONS = [
    (r"\[zero_ub\]$", "integer division by zero is undefined in TTIR/LLVM; the H100 returns all ones in the low 32 bits "
                      "(-1, or 4294967295 for 64-bit), ttref's documented choice is 0 (docs/semantics.md)"),
    (r"^float_mod_", "arith.remf is lowered as x - trunc(x/y)*y with approximate division: sign of zero results, inf "
                     "operands and tiny divisors differ from C fmod (ttref: exact fmod)"),
    (r"^(float_muladd_|cf_static_range|cf_tl_range_unroll)", "mulf feeding addf is contracted to one FMA (LLVM's "
                                                            "enable_fp_fusion default); ttref rounds each op (`--contract` models it)"),
    (r"^cast_f8e5m2_bf16", "Triton's f8E5M2 -> bf16 conversion treats exponent 31 as finite: inf and NaN become 65536/98304"),
    (r"^math_ld_cbrt_f32", "libdevice __nv_cbrtf under Triton's FTZ setting returns NaN for subnormal inputs"),
    (r"^math_ld_nextafter_f32", "libdevice __nv_nextafterf under FTZ steps from 0 to 2^-126, skipping subnormals"),
    (r"^math_ld_pow_f32", "libdevice __nv_powf under FTZ: subnormal intermediates flushed (8% error near 1e-5) and "
                          "overflow returns 2^127 instead of inf"),
    (r"^math_ld_fmod_f32", "libdevice __nv_fmodf under FTZ returns NaN for subnormal divisors (C fmod: exact result)"),
    (r"^math_exp_f32", "math.exp is ex2.approx(x * log2 e): error grows with |x| (4-55 ulp), beyond ULP(4)"),
    (r"^(math_(ceil|floor|sqrt|rsqrt|erf)_f32|math_ld_(atan2|expm1|hypot|log1p)_f32)",
     "f32 math runs with flush-to-zero: subnormal inputs are read as 0 and subnormal results flushed "
     "(ceil(2^-149) = 0, sqrt(-2^-149) = -0, erf/expm1/log1p of subnormals = 0); ttref is IEEE"),
    (r"^dot_f8e", "Hopper's fp8 MMA accumulates with a reduced-precision adder unless max_num_imprecise_acc = 0 "
                  "(the dot_f8e*_mnia0 items pass; the default and 32 do not): errors reach 10-300x the TOSA bound"),
    (r"^dot_f32_bf16x3", "input_precision bf16x3 drops the lo*lo product of the bf16 split: its error variance on "
                         "uniform inputs is 4x the f32 dot-product bound (bf16x6 passes)"),
    (r"^(reduce_arg(max|min)_|rw_argminmax_f32)", "argmax/argmin with NaN or tied values: Triton's combine keeps an "
                                                  "operand that depends on the reduction tree; ttref's canonical tree "
                                                  "picks another index"),
    (r"^reduce_tuple_f32_axNone_keep", "argmax over axis=None reshapes values and indices with allow_reorder; the GPU "
                                       "applies different element orders to the two tensors"),
    (r"^reduce_sum_f16_", "f16 sum of +-max finite values: whether a partial sum overflows to +inf (then inf - inf = "
                          "NaN) depends on the summation order"),
]
# Items whose GPU result depends on scheduling: they pass or fail from run to run, so they are skipped
# (a strict expected failure would turn into XPASS at random) until order-free judging covers them.
H100_SKIPS = [
    ("atomic_xchg_i32", "conflicting atomic_xchg on shared slots: the final slots depend on which exchange lands "
                        "last (needs multiset judging)"),
    ("atomic_xchg_i64", "conflicting atomic_xchg on shared slots: the final slots depend on which exchange lands "
                        "last (needs multiset judging)"),
    ("atomic_cas_spinlock", "the order in which programs take the spin lock (the lock log) depends on scheduling"),
]


def write_backend_config(results, out):
    d = json.load(open(results))
    env = d.get("environment", {})
    lines = ["# Item patterns (docs/suite-format.md): a report id such as `case[variant]` matches itself.",
             "# Triton 3.6 (NVIDIA backend) on an H100: expected failures of conformance/suite/ops.",
             "# Generated by scripts/gen_ops_suite.py --h100-results from the H100 run's results.json; every",
             "# entry is a deviation of the GPU from the op's definition, with the reason (conformance/suite/ops/README.md).",
             "backend: triton-3.6-h100",
             'version: "%s"' % env.get("backend_version", "triton 3.6.0").replace('"', "'"),
             "expected_failures:"]
    missing = []
    skipped = set(c for c, _ in H100_SKIPS)
    for r in d["results"]:
        verdict = r.get("raw_verdict") or r["verdict"]  # a run under an older config reports XFAIL
        if verdict not in ("FAIL", "ERROR") or r["case"] in skipped:
            continue
        why = next((w for pat, w in H100_REASONS if re.search(pat, r["id"])), None)
        if why is None:
            missing.append(r["id"])
            continue
        lines.append('  - case: "%s"' % r["id"])
        lines.append('    reason: "%s"' % why.replace('"', "'"))
        lines.append("    verdict: %s" % verdict)
    lines.append("skip:")
    for c, why in H100_SKIPS:
        lines += ['  - case: "%s"' % c, '    reason: "%s"' % why]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    return missing


def drop_reference_failures(ttref, out):
    """run the suite on the reference; a specialization whose reference result falls outside its own
    compliance bound (ttref's canonical order against the binary64 value) is removed and listed in
    reference_drops.txt -- the suite must pass on the reference by construction"""
    rep = tempfile.mkdtemp(prefix="opsuite.ref.")
    try:
        p = subprocess.run([ttref, "conform", out, "--backend", "reference", "-j", "2", "--report-dir", rep,
                            "--no-progress"], capture_output=True, text=True)
        bad = re.findall(r"^\[\d+/\d+\] FAIL +([\w.-]+)\[([\w.=,-]+)\][^:]*: (.*)$", p.stdout + p.stderr, re.M)
    finally:
        shutil.rmtree(rep, ignore_errors=True)
    with open(os.path.join(out, "reference_drops.txt"), "w") as f:
        for case, variant, why in bad:
            path = os.path.join(out, case + ".yaml")
            text = open(path).read()
            blocks = re.split(r"(?m)^(?=  - variant_key: )", text)
            keep = [b for b in blocks if not b.startswith("  - variant_key: %s\n" % variant)]
            if len(keep) == len(blocks) or blocks.index(next(b for b in blocks if b.startswith(
                    "  - variant_key: %s\n" % variant))) == 1:
                raise SystemExit("%s[%s] fails on the reference and cannot be dropped: %s" % (case, variant, why))
            with open(path, "w") as g:
                g.write("".join(keep))
            f.write("%s[%s]: %s\n" % (case, variant, why))
            print("dropped %s[%s]: %s" % (case, variant, why))
    return len(bad)


def retag(out):
    """set the mutant:NAME tags of every case in OUT to MUTANT_TARGETS, as build_case writes them"""
    for f in sorted(os.listdir(out)):
        if not f.endswith(".yaml"):
            continue
        path = os.path.join(out, f)
        text = open(path).read()
        m = re.search(r"(?m)^tags: \[(.*)\]$", text)
        if not m:
            continue
        tags = [t for t in m.group(1).split(", ") if t and not t.startswith("mutant:")]
        tags += ["mutant:" + x for x in MUTANT_TARGETS.get(f[:-5], [])]
        new = text[:m.start()] + "tags: [%s]" % ", ".join(tags) + text[m.end():]
        if new != text:
            with open(path, "w") as g:
                g.write(new)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--capture", action="append", default=[])
    ap.add_argument("--h100-results", help="results.json of the H100 run: write --backend-config and stop")
    ap.add_argument("--backend-config", default="conformance/backends/triton-3.6-h100.yaml")
    ap.add_argument("--out", default="conformance/suite/ops")
    ap.add_argument("--ttref", default="./ttref")
    ap.add_argument("--gpu-log", help="gen_ops.py's log: names the ops Triton failed to legalize")
    ap.add_argument("--exclude", default="", help="comma-separated case names to leave out")
    ap.add_argument("--retag", action="store_true",
                    help="only rewrite the mutant:NAME tags of the cases in --out from MUTANT_TARGETS (no capture needed)")
    args = ap.parse_args()
    if args.retag:
        return retag(args.out)
    if args.h100_results:
        missing = write_backend_config(args.h100_results, args.backend_config)
        for m in missing:
            print("untriaged:", m)
        return 1 if missing else 0
    out = args.out
    for sub in ("kernels", "data"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        os.makedirs(os.path.join(out, sub))
    for f in os.listdir(out):
        if f.endswith(".yaml"):
            os.remove(os.path.join(out, f))
    exclude = set(x for x in args.exclude.split(",") if x)
    if args.gpu_log:
        ILLEGAL.update(re.findall(r"failed to legalize operation '([\w.]+)'", open(args.gpu_log).read()))
    seen = {}
    stats = {"items": 0, "ops": set(), "skipped": [], "gpu_unsupported": [], "cases": 0}
    for cap in args.capture:
        for d in sorted(os.listdir(cap)):
            cdir = os.path.join(cap, d)
            cjf = os.path.join(cdir, "case.json")
            if not os.path.isfile(cjf) or d in exclude:
                continue
            cj = json.load(open(cjf))
            kf = os.path.join(cdir, "kernel.ttir")
            if not os.path.exists(kf):
                stats["skipped"].append("%s: no TTIR (%s)" % (d, cj.get("gpu_error", "?")))
                continue
            raw = open(kf).read()
            h = hashlib.sha256(strip_locs(re.sub(r"@\w+\(", "@k(", raw, count=1)).encode()).hexdigest()
            name = d[5:] if d.startswith("base_") else d
            if h in seen:
                continue
            if not NAME_OK.match(name) or os.path.exists(os.path.join(out, name + ".yaml")):
                name = name + "_ops"
            seen[h] = name
            if build_case(args.ttref, cdir, name, cj, raw, out, stats):
                stats["cases"] += 1
    for s in stats["skipped"]:
        print("skipped", s)
    ndrop = drop_reference_failures(args.ttref, out)
    print("cases %d, items %d, distinct ops %d" % (stats["cases"], stats["items"] - ndrop, len(stats["ops"])))
    with open(os.path.join(out, "gpu_unsupported.txt"), "w") as f:
        for n, why in sorted(stats["gpu_unsupported"]):
            f.write("%s: %s\n" % (n, why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
