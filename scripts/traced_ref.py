#!/usr/bin/env python3
"""Independent numpy reference for the traced (TK) conformance suite, as a backend adapter.

`ttref conform conformance/suite/traced --backend scripts/traced_ref.py` (or batch:...) runs
every case of conformance/suite/traced with numpy instead of ttref and lets the harness judge
the results against ttref's goldens with each output's compliance mode. It reads only the
staged case directory (case.yaml, inputs/*.npy; not kernel.ttir or kernel.fx): every case is
re-implemented here from TK's semantics (docs/semantics.md, "Traced kernel graphs"):

- every op computes in binary64 and rounds once to its dtype (RNE, overflow to inf);
- reductions without acc start from 0, float max ignores NaN (fmax), axis 0 reduces all;
- integer floordiv rounds down, integer mod has the dividend's sign (C remainder);
- vector_dot and the tiled GEMM are exact binary64 sums rounded once (judged by dot_product).

Needs numpy and PyYAML (Debian: python3-numpy, python3-yaml).
"""
import math
import os
import sys

import numpy as np
import yaml

PROTOCOL = 1

# (significand bits, minimum normal exponent, largest finite) of the float formats
FMT = {"f16": (11, -14, 65504.0), "bf16": (8, -126, 3.3895313892515355e38),
       "f32": (24, -126, 3.4028234663852886e38), "f64": None}
INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def rnd(x, dt):
    """Round binary64 values to dtype dt (RNE; overflow to inf), returned as binary64."""
    x = np.asarray(x, dtype=np.float64)
    if dt in INT_BITS:
        bits = INT_BITS[dt]
        v = np.asarray(x, dtype=object) if bits == 64 else x
        w = 1 << bits
        return np.vectorize(lambda t: ((int(t) + w // 2) % w) - w // 2, otypes=[np.float64])(v)
    if FMT.get(dt) is None:
        return x.copy()
    p, emin, big = FMT[dt]
    out = x.copy()
    fin = np.isfinite(x) & (x != 0)
    _, e = np.frexp(np.where(fin, x, 1.0))  # x = m * 2**e, 0.5 <= |m| < 1
    q = np.ldexp(1.0, np.maximum(e - p, emin - p + 1))  # the quantum at x
    r = np.round(np.where(fin, x, 0.0) / q) * q  # np.round: half to even
    r = np.where(np.abs(r) > big, np.copysign(np.inf, x), r)
    out[fin] = r[fin]
    return out


def decode(arr, dt):
    if dt == "bf16":
        return (arr.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return arr.astype(np.float64)


def encode(x, dt, like):
    x = rnd(x, dt) if dt in FMT else np.asarray(x)
    if dt == "bf16":
        f = np.asarray(x, dtype=np.float32)
        b = (f.view(np.uint32) >> 16).astype(np.uint16)
        b[np.isnan(f)] = 0x7FC0
        return b.reshape(like.shape)
    return np.asarray(x).astype(like.dtype).reshape(like.shape)


def syms_of(case):
    out = {}
    for kv in str(case.get("constexprs") or "").split(","):
        if "=" in kv:
            k, v = kv.split("=", 1)
            out[k] = int(v)
    return out


def fmax0(x, axis=None, acc=None):
    """vector_max: NaN-ignoring max (fmax) combined with acc, or with 0 without one."""
    r = np.fmax.reduce(x, axis=axis)
    return np.fmax(0.0 if acc is None else acc, r)


def c_mod(a, b):
    return np.fmod(a, b)


# ---- one function per case: inputs (binary64 or exact ints) -> outputs ------------------------
def softmax_f32(x, dt, s):
    m = fmax0(x["input"], axis=1)[:, None]
    e = rnd(np.exp2(rnd(x["input"] - m, "f32")), "f32")
    tot = rnd(rnd(e.sum(axis=1), "f32") + 0.0, "f32")[:, None]
    return {"output": rnd(e / tot, "f32")}


def gemm_f32(x, dt, s):
    return {"output": rnd(x["A"] @ x["B"], "f32")}


def attention_f16(x, dt, s):
    q, k, v = x["Q"], x["K"], x["V"]
    qk = rnd(q @ k.transpose(0, 1, 3, 2), "f32")
    m = np.maximum(np.fmax.reduce(qk, axis=-1), -1e9)[..., None]
    p = rnd(np.exp2(rnd(qk - m, "f32")), "f32")
    acc = rnd(rnd(p, "f16") @ v, "f32")
    tot = rnd(p.sum(axis=-1), "f32")[..., None]
    return {"O": rnd(rnd(1.0 / tot, "f32") * acc, "f32")}


def pid_index_i32(x, dt, s):
    out = np.zeros((s["P0"], s["P1"], s["P2"]))
    for p0 in range(s["P0"]):
        d = p0 - 3
        v = ((d // -2) * 1000 + int(math.fmod(d, -2)) * 100 + (d // 2) * 10 + int(math.fmod(d, 2))) * 100
        for p1 in range(s["P1"]):
            for p2 in range(s["P2"]):
                out[p0, p1, p2] = v + p1 * 10 + p2
    return {"out": out}


def load_store_4d(x, dt, s):
    return {"out": rnd(x["x"] + x["x"], dt["out"])}


def getitem_setitem(x, dt, s):
    return {"out": rnd(x["a"] + 1, dt["out"])}


def constant_edge(x, dt, s):
    n = s["N"]
    row = lambda vals: np.repeat(np.array(vals, dtype=np.float64)[:, None], n, axis=1)
    return {"o32": row([-0.0, np.inf, -np.inf, 3.4028234663852886e38]),
            "o16": row([65504.0, 5.960464477539063e-08, 65520.0]),
            "obf": row([3.3895313892515355e38, 9.183549615799121e-41, np.nan]),
            "oi": row([2147483647, -2147483648])}


def exp2(x, dt, s):
    with np.errstate(over="ignore"):
        return {"out": np.exp2(x["x"])}


def reduce_case(x, dt, s):
    v, a = x["x"], x["acc"]
    d = dt["x"]
    if d in INT_BITS:
        mx = lambda t, axis=None, acc=None: np.maximum(0 if acc is None else acc, t.max(axis=axis))
        sm = lambda t, axis=None, acc=None: (0 if acc is None else acc) + t.sum(axis=axis)
    else:
        mx = fmax0
        sm = lambda t, axis=None, acc=None: rnd((0.0 if acc is None else acc) + rnd(t.sum(axis=axis), d), d)
    return {"omax": mx(v, 1), "osum": sm(v, 1), "omax_all": np.array([mx(v)]),
            "osum_all": np.array([sm(v)]), "omax_acc": mx(v, 1, a), "osum_acc": sm(v, 1, a)}


def max_nan_f32(x, dt, s):
    v, a = x["x"], x["acc"]
    return {"omax": fmax0(v, 1), "omax_all": np.array([fmax0(v)]), "omax_acc": fmax0(v, 1, a)}


def dot(x, dt, s):
    return {"out": x["c"] + x["a"] @ x["b"]}


def shape(x, dt, s):
    xv, y, z = x["x"], x["y"], x["z"]
    return {"ob": np.broadcast_to(xv, (4, s["N"])), "obid": np.broadcast_to(xv, (s["M"], s["N"])),
            "obid2": np.broadcast_to(y.T[:, None, :], (s["B"], s["C"], s["A"])), "ot": z.transpose(2, 0, 1)}


def to_dtype(x, dt, s):
    return {"o16": x["x"], "obf": x["x"], "oif": x["i"], "ohb": x["h"], "ohf": x["h"]}


def binary_float(x, dt, s):
    a, b, c = x["a"], x["b"], x["c"]
    d = dt["a"]
    return {"oadd": a + b, "osub": a - c, "omul": b * c, "odiv": a / b, "omod": c_mod(a, c),
            "olit": rnd(rnd(a * 3, d) + 0.5, d)}


def binary_int(x, dt, s):
    a, b = x["a"], x["b"]
    return {"oadd": a + b, "osub": a - b, "omul": a * b, "ofd": np.floor_divide(a, b), "omod": c_mod(a, b),
            "ofdn": np.floor_divide(a, -b), "omodn": c_mod(a, -b)}


def loop_index(x, dt, s):
    acc = np.zeros(s["N"])
    for i in range(s["R"]):
        acc = rnd(acc + x["x"][i], "f32")
    return {"out": acc, "cnt": np.array([sum(range(s["R"]))])}


CASES = {"softmax_f32": softmax_f32, "gemm_f32": gemm_f32, "attention_f16": attention_f16,
         "pid_index_i32": pid_index_i32, "load_store_4d": load_store_4d, "getitem_setitem": getitem_setitem,
         "constant_edge": constant_edge, "exp2": exp2, "reduce_f32": reduce_case, "reduce_i32": reduce_case,
         "max_nan_f32": max_nan_f32, "dot": dot, "shape": shape, "to_dtype": to_dtype,
         "binary_float": binary_float, "binary_float_half": binary_float, "exp2_half": exp2,
         "binary_int": binary_int, "loop_index": loop_index}


def one(cdir):
    case = yaml.safe_load(open(os.path.join(cdir, "case.yaml")))
    if case.get("protocol") != PROTOCOL:
        return "unsupported", "protocol %r" % case.get("protocol")
    fn = CASES.get(case["case"])
    if fn is None:
        return "unsupported", "no numpy reference for case %s" % case["case"]
    raw, vals, dts = {}, {}, {}
    for a in case["args"]:
        if a["kind"] != "ptr":
            continue
        raw[a["name"]] = np.load(os.path.join(cdir, a["file"]))
        dts[a["name"]] = a["dtype"]
        vals[a["name"]] = decode(raw[a["name"]], a["dtype"])
    with np.errstate(invalid="ignore", divide="ignore"):
        res = fn(vals, dts, syms_of(case))
    for o in case["outputs"]:
        name = o["name"]
        np.save(os.path.join(cdir, o["file"]), encode(np.asarray(res[name], dtype=np.float64), dts[name], raw[name]))
    return "ok", ""


def main(argv):
    if argv[1:] == ["--version"]:
        print("traced_ref (numpy %s) protocol %d" % (np.__version__, PROTOCOL))
        return 0
    if argv[1:] == ["--batch"]:
        for line in sys.stdin:
            cdir = line.rstrip("\n")
            if cdir:
                try:
                    word, msg = one(cdir)
                except Exception as e:  # report, keep serving
                    word, msg = "error", repr(e)[:300]
                sys.stdout.write("%s %s%s\n" % (word, cdir, " " + msg if msg else ""))
                sys.stdout.flush()
        return 0
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 1
    word, msg = one(argv[1])
    if msg:
        sys.stderr.write(msg + "\n")
    return {"ok": 0, "unsupported": 3}.get(word, 1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
