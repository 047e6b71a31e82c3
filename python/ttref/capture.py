"""ttref.capture: record real Triton launches (on a GPU) as conformance suite cases.

    with ttref.capture.capture("suite/mine"):          # a context manager
        model(x)                                       # every kernel[grid](...) is recorded
    pytest -p ttref.capture --ttref-capture=suite/mine  # or the pytest plugin

Each launch becomes DIR/NAME.yaml (docs/suite-format.md) with DIR/NAME/kernel.ttir (the TTIR
Triton compiled, compiled.asm["ttir"]), DIR/NAME/ARG.in.npy (each pointer argument's memory
before the launch, from the pointer to the end of its storage, raw bits for bf16/fp8) and
DIR/NAME/ARG.gpu.npy (after it), DIR/NAME/meta.json (Triton version, device, grid, constexprs,
Python arguments). `ttref conform DIR --backend reference` replays the suite on the CPU and
`ttref conform DIR --backend DIR/replay_gpu.py --config DIR/replay_gpu.yml` judges the recorded
GPU outputs against ttref (the config declares the GPU's subnormal flushing).
Launches whose pointer arguments share one storage (two slices of a tensor, a tensor and its
transpose, overlapping views) cannot be a suite case (one buffer per argument) and are never
split into copies: they go to DIR/aliased/NAME/ as whole storages (raw bytes before and after)
plus each argument's storage and byte offset (launch.json), and `python3 -m ttref.capture
replay DIR` replays them on ttref with one buffer per storage, so writes through one view are
seen through the other. Launches that cannot be recorded faithfully at all (tensor
descriptors, distinct storages overlapping in memory, dtypes without a suite spelling, ...) are
listed in DIR/UNCAPTURED.txt and warned about, never silently dropped. DIR/captures.jsonl
indexes every launch seen (test id under pytest, kernel, case or reason).

write_case(), write_aliased(), replay_aliased() and the modes are plain Python over numpy
(tested without Triton or a GPU).
"""
import json
import os
import re
import sys
import threading
import warnings

import numpy as np

from . import BadInput

__all__ = ["capture", "write_case", "write_aliased", "replay_aliased", "replay_dir", "default_mode", "kernel_mode",
           "kernel_unordered", "Capture",
           "REPLAY_ADAPTER"]

# numpy / torch dtype name -> suite dtype
_DTYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int8": "i8", "int16": "i16",
           "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
           "bool": "bool", "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "float8_e4m3fnuz": "f8E4M3FNUZ",
           "float8_e5m2fnuz": "f8E5M2FNUZ"}
# Triton's own dtype names (str(tl.dtype)), as a TensorWrapper from triton.reinterpret carries them
_TL_DTYPES = {"fp8e5": "f8E5M2", "fp8e4nv": "f8E4M3FN", "fp8e5b16": "f8E5M2FNUZ", "fp8e4b8": "f8E4M3FNUZ",
              "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64", "int1": "bool"}
_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2,
          "u32": 4, "u64": 8, "bool": 1, "f8E4M3FN": 1, "f8E5M2": 1, "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1}
_RAW = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def default_mode(dtype, ulp=None):
    """The compliance mode a captured output gets: exact for integers and bool, ulp (default 16
    or $TTREF_CAPTURE_ULP, subnormal flushing allowed) for floats: a GPU's approximate exp/div
    and its own reduction order are expected (docs/triton.md)."""
    if dtype.startswith("f") or dtype == "bf16":
        u = ulp if ulp is not None else float(os.environ.get("TTREF_CAPTURE_ULP", "16"))
        return {"mode": "ulp", "options": {"ulp": u if u != int(u) else int(u), "allow_ftz": True}}
    return {"mode": "exact"}


_DOT = re.compile(r"\btt\.dot(?:_scaled)?\b([^\n]*?):\s*tensor<((?:\d+x)+)[^>]*>")


def kernel_mode(ttir, dtype, ulp=None):
    """The default mode of a float output of kernel `ttir` (TTIR text): dot_product with k = K + 1
    (docs/compliance.md's op table; no bias test) when the kernel has one tt.dot / tt.dot_scaled
    outside any loop, K being the contraction length of its A operand (the GPU's MMA order and
    TF32/fp8 truncation are then judged against the precise dot, not in ulps); else
    default_mode. Integers and bool: exact."""
    base = default_mode(dtype, ulp)
    if base["mode"] != "ulp":
        return base
    dots = _DOT.findall(ttir)
    if len(dots) != 1 or re.search(r"\bscf\.(for|while)\b", ttir):
        return base  # a K loop (or several dots): the number of terms per output is not in the TTIR
    attrs, dims = dots[0]
    k = int(dims.split("x")[-2]) * (2 if re.search(r"\blhs\s*=\s*e2m1\b", attrs) else 1)  # e2m1: two per byte
    return {"mode": "dot_product", "options": {"k": k + 1, "bias_test": False}}


_UNORDERED = re.compile(r"\btt\.atomic_rmw\s+exch\b|\btt\.atomic_cas\b|\btt\.cat\b")
_FADD = re.compile(r"(%[\w.$-]+)\s*=\s*tt\.atomic_rmw\s+fadd\b")


def kernel_unordered(ttir):
    """True when kernel `ttir` leaves the order of its results open, so captured outputs are
    compared as multisets: atomic exchange / compare-and-swap (which program wins is the
    hardware's choice), a float atomic add whose returned old value is used (which program saw
    which partial sum), and tt.cat (its element order is unspecified). A float atomic add whose
    result is unused lands where it is aimed in any order (only its rounding depends on the
    order, which the output's mode bounds): compared element by element."""
    if _UNORDERED.search(ttir):
        return True
    for m in _FADD.finditer(ttir):
        if re.search(re.escape(m.group(1)) + r"(?![\w.$-])", ttir[m.end():]):
            return True
    return False


def _yaml_scalar(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return "nan" if f != f else "inf" if f == float("inf") else "-inf" if f == -float("inf") else repr(f)
    raise BadInput("error: scalar of type %s cannot be written to a suite case" % type(v).__name__)


_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def _case_name(dirpath, kernel, ext=".yaml", inside=None):
    base = _NAME.sub("_", kernel).lstrip(".") or "kernel"
    n = 0
    taken = (lambda c: os.path.exists(os.path.join(dirpath, c, inside))) if inside else \
        (lambda c: os.path.exists(os.path.join(dirpath, c + ext)))
    while taken("%s_%d" % (base, n)):
        n += 1
    return "%s_%d" % (base, n)


REPLAY_ADAPTER = '''#!/usr/bin/env python3
"""Process adapter (docs/adapter-protocol.md) replaying the GPU outputs ttref.capture recorded:
copies SUITE/CASE/ARG.gpu.npy to CASE_DIR/outputs/ARG.npy for every output of case.yaml."""
import os, re, shutil, sys
case_dir = sys.argv[1]
suite = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(case_dir, "case.yaml")).read()
case = re.search(r'^case: "?([^"\\n]+)"?', text, re.M).group(1)
outs = text.split("\\noutputs:", 1)[1] if "\\noutputs:" in text else ""
names = re.findall(r'- name: "?([^"\\n]+)"?', outs)
for name in names:
    src = os.path.join(suite, case, name + ".gpu.npy")
    if not os.path.exists(src):
        sys.exit("no recorded GPU output %s" % src)
    shutil.copyfile(src, os.path.join(case_dir, "outputs", name + ".npy"))
'''


REPLAY_CONFIG = '''# Backend config (docs/adapter-protocol.md; .yml, so `ttref conform` does not read it as a case)
# for replay_gpu.py: the recorded GPU flushes subnormals
# in some ops (sqrt, ceil, ... of a subnormal input), so every item is also run by the reference
# with --ftz and an element equal to either reference passes.
backend: captured-gpu
device: "%s"
capabilities:
  ftz: true
'''


def write_case(dirpath, record, modes=None):
    """Write one launch record as a suite case; returns the case name. `record` is a dict:
    kernel (name), ttir (text), grid (1-3 ints), args: a list in TTIR order of
    {"name", "kind": "ptr", "dtype" (suite dtype), "before", "after" (numpy arrays of raw bits
    or values, the memory from the pointer to the end of its storage)} or
    {"name", "kind": "scalar", "value"}; optional "meta" (dict, into meta.json).
    `modes` maps an argument name to {"mode", "options", "unordered"} (default: kernel_mode, and
    kernel_unordered for every output)."""
    os.makedirs(dirpath, exist_ok=True)
    name = record.get("name") or _case_name(dirpath, record["kernel"])
    cdir = os.path.join(dirpath, name)
    os.makedirs(cdir, exist_ok=True)
    with open(os.path.join(cdir, "kernel.ttir"), "w") as f:
        f.write(record["ttir"])
    grid = [int(g) for g in record["grid"]]
    if not 1 <= len(grid) <= 3:
        raise BadInput("error: grid %r: 1 to 3 dimensions" % (record["grid"],))
    grid += [1] * (3 - len(grid))
    lines = ["# captured by ttref.capture: a real Triton launch (%s)" % record.get("meta", {}).get("device", "GPU"),
             'description: "captured launch of %s"' % record["kernel"], "kernel: %s/kernel.ttir" % name,
             "op: captured", "tags: [captured]", "grid: [%s]" % ", ".join(map(str, grid)), "args:"]
    outputs = []
    for a in record["args"]:
        if a["kind"] == "scalar":
            lines.append("  %s: %s" % (a["name"], _yaml_scalar(a["value"])))
            continue
        dt = a["dtype"]
        if dt not in _BYTES:
            raise BadInput("error: argument '%s': dtype %s cannot be written to a suite case" % (a["name"], dt))
        before, after = np.asarray(a["before"]), np.asarray(a["after"])
        if before.shape != after.shape or before.dtype.itemsize != _BYTES[dt]:
            raise BadInput("error: argument '%s': before %s%s and after %s%s do not match dtype %s"
                           % (a["name"], before.dtype, before.shape, after.dtype, after.shape, dt))
        raw = _RAW[_BYTES[dt]] if dt in ("bf16",) or dt.startswith("f8") else None
        for arr, sfx in ((before, "in"), (after, "gpu")):
            out = arr.view(raw) if raw is not None else arr.view(_NP[dt]) if dt in _NP else arr  # reinterpret()ed bits
            np.save(os.path.join(cdir, "%s.%s.npy" % (a["name"], sfx)), np.ascontiguousarray(out).reshape(-1))
        lines.append("  %s: {shape: [%d], dtype: %s, input: {gen: file, file: %s/%s.in.npy}}"
                     % (a["name"], before.size, dt, name, a["name"]))
        outputs.append((a["name"], (modes or {}).get(a["name"]) or kernel_mode(record["ttir"], dt)))
    lines.append("outputs:")
    unordered = kernel_unordered(record["ttir"])
    for n, m in outputs:
        opts = m.get("options") or {}
        o = ", ".join("%s: %s" % (k, _yaml_scalar(v) if not isinstance(v, str) else v) for k, v in opts.items())
        un = m.get("unordered", unordered)
        lines.append("  %s: {mode: %s%s%s}" % (n, m["mode"], ", options: {%s}" % o if o else "",
                                               ", unordered: true" if un else ""))
    with open(os.path.join(dirpath, name + ".yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(cdir, "meta.json"), "w") as f:
        json.dump(record.get("meta", {}), f, indent=1, sort_keys=True, default=str)
    adapter = os.path.join(dirpath, "replay_gpu.py")
    if not os.path.exists(adapter):
        with open(adapter, "w") as f:
            f.write(REPLAY_ADAPTER)
        os.chmod(adapter, 0o755)
    config = os.path.join(dirpath, "replay_gpu.yml")
    if not os.path.exists(config):
        dev = str(record.get("meta", {}).get("device", "GPU")).replace('"', "'")
        with open(config, "w") as f:
            f.write(REPLAY_CONFIG % dev)
    return name


def note_uncaptured(dirpath, kernel, reason):
    """Record a launch that could not be captured (DIR/UNCAPTURED.txt) and warn."""
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "UNCAPTURED.txt"), "a") as f:
        f.write("%s: %s\n" % (kernel, reason))
    warnings.warn("ttref.capture: launch of %s not captured: %s" % (kernel, reason), stacklevel=3)


def note_launch(dirpath, entry):
    """Append one line to DIR/captures.jsonl, the index of every launch seen: {"test" (pytest
    node id or null), "kernel", "case" (suite case), "aliased" (DIR/aliased case) or
    "uncaptured" (the reason)}."""
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "captures.jsonl"), "a") as f:
        f.write(json.dumps(entry, sort_keys=True) + "\n")


def _check_name(what, name):
    if not isinstance(name, str) or not name or name.startswith(".") or _NAME.search(name):
        raise BadInput("error: %s name %r: use [A-Za-z0-9_.-], not starting with '.'" % (what, name))


def write_aliased(dirpath, record, modes=None):
    """Write one launch whose pointer arguments share storages as DIR/aliased/NAME/; returns
    NAME. `record`: kernel, ttir, grid, storages: a list of (before, after) numpy arrays (the
    whole storage, any dtype, read as raw bytes, equal sizes), args in TTIR order: {"name",
    "kind": "ptr", "dtype" (suite dtype), "storage" (index), "offset" (bytes)} or {"name",
    "kind": "scalar", "value"}; optional name, meta. `modes` maps an argument name to
    {"mode", "options"}. Nothing is copied per argument: replay_aliased rebuilds the storages
    and binds every argument at its offset."""
    adir = os.path.join(dirpath, "aliased")
    os.makedirs(adir, exist_ok=True)
    name = record.get("name") or _case_name(adir, record["kernel"], ".json", "launch.json")
    _check_name("case", name)
    grid = [int(g) for g in record["grid"]]
    if not 1 <= len(grid) <= 3:
        raise BadInput("error: grid %r: 1 to 3 dimensions" % (record["grid"],))
    storages = []
    for i, (before, after) in enumerate(record["storages"]):
        b = np.ascontiguousarray(before).reshape(-1).view(np.uint8)
        a = np.ascontiguousarray(after).reshape(-1).view(np.uint8)
        if b.size != a.size:
            raise BadInput("error: storage %d: %d bytes before the launch, %d after" % (i, b.size, a.size))
        storages.append((b, a))
    args, used = [], set()
    for a in record["args"]:
        _check_name("argument", a["name"])
        if a["kind"] == "scalar":
            _yaml_scalar(a["value"])  # refuses what a replay could not bind
            v = a["value"]
            args.append({"name": a["name"], "kind": "scalar",
                         "value": bool(v) if isinstance(v, (bool, np.bool_)) else
                         int(v) if isinstance(v, (int, np.integer)) else repr(float(v))})
            continue
        dt, s, off = a["dtype"], a["storage"], a["offset"]
        if dt not in _BYTES:
            raise BadInput("error: argument '%s': dtype %s cannot be replayed" % (a["name"], dt))
        if not (isinstance(s, int) and 0 <= s < len(storages)):
            raise BadInput("error: argument '%s': storage %r of %d" % (a["name"], s, len(storages)))
        if not (isinstance(off, int) and 0 <= off <= storages[s][0].size):
            raise BadInput("error: argument '%s': offset %r is outside storage %d (%d bytes)"
                           % (a["name"], off, s, storages[s][0].size))
        used.add(s)
        args.append({"name": a["name"], "kind": "ptr", "dtype": dt, "storage": s, "offset": off})
    if len(used) != len(storages):
        raise BadInput("error: %d storages but arguments point into %d of them" % (len(storages), len(used)))
    cdir = os.path.join(adir, name)
    os.makedirs(cdir, exist_ok=True)
    with open(os.path.join(cdir, "kernel.ttir"), "w") as f:
        f.write(record["ttir"])
    for i, (b, a) in enumerate(storages):
        np.save(os.path.join(cdir, "S%d.in.npy" % i), b)
        np.save(os.path.join(cdir, "S%d.gpu.npy" % i), a)
    launch = {"format": "ttref-aliased-launch", "format_version": 1, "kernel": record["kernel"], "grid": grid,
              "storages": [{"nbytes": int(b.size), "input": "S%d.in.npy" % i, "gpu": "S%d.gpu.npy" % i}
                           for i, (b, _) in enumerate(storages)],
              "args": args, "modes": {k: v for k, v in (modes or {}).items() if any(x["name"] == k for x in args)}}
    with open(os.path.join(cdir, "launch.json"), "w") as f:
        json.dump(launch, f, indent=1, sort_keys=True)
    with open(os.path.join(cdir, "meta.json"), "w") as f:
        json.dump(record.get("meta", {}), f, indent=1, sort_keys=True, default=str)
    return name


_TT_NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16,
          "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
          "bool": np.bool_, "bf16": np.uint16, "f8E4M3FN": np.uint8, "f8E5M2": np.uint8, "f8E4M3FNUZ": np.uint8,
          "f8E5M2FNUZ": np.uint8}


def _judge_view(launch, s, nbytes):
    """(dtype, mode dict, byte start) storage `s` is judged in: the dtype and mode of its first
    pointer argument in TTIR order, from the first whole element at or before that argument's
    offset, when every argument into it sits a whole number of elements from there; else raw
    bytes, exactly."""
    ptrs = [a for a in launch["args"] if a["kind"] == "ptr" and a["storage"] == s]
    first = ptrs[0]
    size = _BYTES[first["dtype"]]
    start = first["offset"] % size
    if all((a["offset"] - start) % size == 0 for a in ptrs) and nbytes - start >= size:
        mode = launch.get("modes", {}).get(first["name"]) or default_mode(first["dtype"])
        return first["dtype"], mode, start
    return "u8", {"mode": "exact"}, 0


def replay_aliased(case_dir, threads=None):
    """Replay one DIR/aliased/NAME/ launch on ttref: each storage is rebuilt from S<i>.in.npy as
    one array, every pointer argument is bound at its byte offset into it (one ttref
    allocation per storage, ttref.triton.run_ttir), and each storage after the run is judged
    against the GPU's (S<i>.gpu.npy) with the mode of _judge_view (ttref is the reference).
    Returns {"case", "verdict": PASS | FAIL | UNSUPPORTED | ERROR, "reason", "storages": [...]}:
    UNSUPPORTED when ttref cannot load the TTIR, ERROR when the replay faults."""
    from . import Error, Kernel, compare
    from .triton import run_ttir
    name = os.path.basename(os.path.normpath(case_dir))
    res = {"case": name, "verdict": "PASS", "reason": "", "storages": []}
    try:
        with open(os.path.join(case_dir, "launch.json")) as f:
            launch = json.load(f)
        if launch.get("format") != "ttref-aliased-launch":
            raise BadInput("error: %s: not a ttref aliased launch" % os.path.join(name, "launch.json"))
        roots = [np.load(os.path.join(case_dir, os.path.basename(st["input"])), allow_pickle=False)
                 .reshape(-1).view(np.uint8).copy() for st in launch["storages"]]
        gpus = [np.load(os.path.join(case_dir, os.path.basename(st["gpu"])), allow_pickle=False).reshape(-1).view(np.uint8)
                for st in launch["storages"]]
        for a in launch["args"]:  # a hand-edited or damaged launch.json must not bind out of place
            if a["kind"] == "ptr":
                s, off = a["storage"], a["offset"]
                if not (type(s) is int and 0 <= s < len(roots) and type(off) is int and 0 <= off <= roots[s].size
                        and a["dtype"] in _BYTES):
                    raise ValueError("launch.json: argument %r: storage %r, offset %r, dtype %r do not fit"
                                     % (a.get("name"), s, off, a.get("dtype")))
            elif a["kind"] != "scalar":
                raise ValueError("launch.json: argument %r: kind %r" % (a.get("name"), a["kind"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return dict(res, verdict="ERROR", reason="%s: %s" % (type(e).__name__, e))
    except Error as e:
        return dict(res, verdict="ERROR", reason=str(e))
    try:
        kernel = Kernel(os.path.join(case_dir, "kernel.ttir"))
    except Error as e:
        return dict(res, verdict="UNSUPPORTED", reason=str(e).splitlines()[0] if str(e) else "ttref cannot load it")
    try:
        params = {}
        for a in launch["args"]:
            if a["kind"] == "ptr":
                params[a["name"]] = roots[a["storage"]][a["offset"]:]  # a view: one root per storage
            else:
                v = a["value"]
                params[a["name"]] = float(v) if isinstance(v, str) else v
        run_ttir(kernel, tuple(launch["grid"]), params, threads=threads)
    except Error as e:
        return dict(res, verdict="ERROR", reason=str(e).splitlines()[0])
    finally:
        kernel.close()
    for s, (ref, gpu) in enumerate(zip(roots, gpus)):
        if gpu.size != ref.size:
            res["storages"].append({"storage": s, "verdict": "ERROR", "reason": "GPU storage has %d bytes" % gpu.size})
            res["verdict"], res["reason"] = "ERROR", "storage %d: GPU output has the wrong size" % s
            continue
        dt, mode, start = _judge_view(launch, s, ref.size)
        nd = _TT_NP[dt]
        cnt = (ref.size - start) // np.dtype(nd).itemsize
        view = lambda b: b[start:start + cnt * np.dtype(nd).itemsize].view(nd)
        v = compare(view(gpu), view(ref), mode["mode"], dtype=dt, **(mode.get("options") or {}))
        ent = {"storage": s, "dtype": dt, "mode": mode["mode"], "verdict": "PASS" if v.passed else "FAIL",
               "reason": v.reason, "worst": v.worst}
        res["storages"].append(ent)
        if not v.passed and res["verdict"] == "PASS":
            res["verdict"] = "FAIL"
            res["reason"] = "storage %d (%s, %s): %s" % (s, dt, mode["mode"], v.reason or "outside the bound")
    return res


def replay_dir(dirpath, threads=None):
    """replay_aliased for every DIR/aliased/*/launch.json, in name order."""
    adir = os.path.join(dirpath, "aliased")
    names = sorted(n for n in os.listdir(adir) if os.path.isfile(os.path.join(adir, n, "launch.json"))) \
        if os.path.isdir(adir) else []
    return [replay_aliased(os.path.join(adir, n), threads=threads) for n in names]


# ---- the GPU side (torch + Triton, imported lazily) ---------------------------------------------

def _torch_raw(t):
    """The memory from t's first element to the end of its storage, as a CPU numpy array."""
    import torch
    es = t.element_size()
    n = t.untyped_storage().nbytes() // es - t.storage_offset()
    flat = t.detach().as_strided((n,), (1,), t.storage_offset()).cpu()
    b = flat.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[es]).numpy().view(_RAW[es]).copy()
    dt = _DTYPES.get(str(t.dtype).split(".")[-1])
    if dt in _NP:
        return b.view(_NP[dt]), dt
    return b.view(_RAW[es]), dt  # bf16, fp8 (raw bits); None: a dtype the suite cannot hold


def _torch_storage_bytes(t):
    """The whole storage t is a view of, as raw bytes (a CPU numpy uint8 array)."""
    import torch
    es = t.element_size()
    nb = t.untyped_storage().nbytes()
    if nb % es:
        raise BadInput("a storage of %d bytes is not a whole number of %d-byte elements" % (nb, es))
    flat = t.detach().as_strided((nb // es,), (1,), 0).cpu()
    b = flat.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[es]).numpy()
    return np.ascontiguousarray(b).view(np.uint8).reshape(-1).copy()


_NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16, "i32": np.int32,
       "i64": np.int64, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "bool": np.bool_}


def _benchmarking():
    """True inside an autotuner's benchmark (triton.testing.do_bench): those launches are not recorded."""
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_name in ("do_bench", "do_bench_cudagraph", "_bench"):
            return True
        f = f.f_back
    return False


class Capture:
    """Patch Triton's JITFunction.run to record every launch into `dirpath` (GPU launches run
    as usual). Use as a context manager or start()/stop()."""

    def __init__(self, dirpath, modes=None):
        self.dir, self.modes, self.count, self.missed = dirpath, modes or {}, 0, 0
        self.aliased = 0  # of count: launches recorded under DIR/aliased (python3 -m ttref.capture replay DIR)
        self.test = None  # the pytest node id while the plugin runs a test
        self._orig = None
        self._busy = threading.local()

    def start(self):
        import triton.runtime.jit as jit
        self._orig = jit.JITFunction.run
        cap = self

        def run(fn, *args, grid, warmup, **kwargs):
            if warmup or getattr(cap._busy, "on", False) or _benchmarking():
                return cap._orig(fn, *args, grid=grid, warmup=warmup, **kwargs)
            cap._busy.on = True
            try:
                return cap._record(fn, args, grid, kwargs)
            finally:
                cap._busy.on = False
        jit.JITFunction.run = run
        try:  # launches of a compiled kernel (triton.compile(...)[grid](...)) bypass JITFunction.run
            from triton.compiler.compiler import CompiledKernel
        except ImportError:
            CompiledKernel = None
        if CompiledKernel is not None and "__getitem__" in CompiledKernel.__dict__:
            self._ck = (CompiledKernel, CompiledKernel.__dict__["__getitem__"])
            orig_getitem = self._ck[1]

            def getitem(ck, grid):
                runner = orig_getitem(ck, grid)

                def launch(*a, **k):
                    ret = runner(*a, **k)
                    if not getattr(cap._busy, "on", False) and not _benchmarking():
                        meta = getattr(ck, "metadata", None)
                        name = getattr(ck, "name", None) or getattr(meta, "name", None) or "kernel"
                        cap._miss(name, "launched as a compiled kernel (triton.compile(...)[grid]), not through a "
                                        "@triton.jit function: its Python arguments are not known", cap.test)
                    return ret
                return launch
            CompiledKernel.__getitem__ = getitem
        return self

    def stop(self):
        if self._orig is not None:
            import triton.runtime.jit as jit
            jit.JITFunction.run = self._orig
            self._orig = None
        if getattr(self, "_ck", None):
            self._ck[0].__getitem__ = self._ck[1]
            self._ck = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def _record(self, fn, args, grid, kwargs):
        import torch
        import triton
        from . import Kernel
        sig = fn.signature
        names = list(sig.parameters)
        bound = sig.bind_partial(*args, **{k: v for k, v in kwargs.items() if k in names})
        bound.apply_defaults()
        params = dict(bound.arguments)
        from .triton import unwrap_tensor
        wrapped = {n: str(v.dtype) for n, v in params.items() if unwrap_tensor(v) is not v}  # reinterpret()ed: its dtype
        tensors = {n: unwrap_tensor(v) for n, v in params.items()
                   if hasattr(unwrap_tensor(v), "data_ptr") and hasattr(unwrap_tensor(v), "untyped_storage")}
        name = getattr(fn, "__name__", "kernel")
        groups, reason = {}, None  # (storage base, nbytes) -> argument names
        for n, t in tensors.items():
            st = t.untyped_storage()
            groups.setdefault((st.data_ptr(), st.nbytes()), []).append(n)
        keys = sorted(groups)
        for (lo, nb), (lo2, _) in zip(keys, keys[1:]):
            if lo2 < lo + nb:
                reason = ("arguments %s and %s are distinct storages that overlap in memory (not replayable exactly)"
                          % (groups[(lo, nb)][0], groups[(lo2, _)][0]))
        aliased = any(len(v) > 1 for v in groups.values())
        try:
            if reason:
                before = {}
            elif aliased:
                before = {k: _torch_storage_bytes(tensors[groups[k][0]]) for k in keys}
            else:
                before = {n: _torch_raw(t) for n, t in tensors.items()}
        except Exception as e:  # noqa: BLE001 - reported below
            reason = "reading the inputs failed: %s: %s" % (type(e).__name__, e)
        ret = self._orig(fn, *args, grid=grid, warmup=False, **kwargs)
        test = self.test
        if reason:
            self._miss(name, reason, test)
            return ret
        try:
            torch.cuda.synchronize()
            ttir = ret.asm["ttir"]
            meta_args = dict(params)
            meta_args.update({k: v for k, v in kwargs.items() if k not in names})
            g = grid(meta_args) if callable(grid) else grid
            g = [int(x) for x in (g if isinstance(g, (tuple, list)) else (g,))]
            k = Kernel(ttir)
            rec_args = []
            for a in k.args:
                v = params.get(a.name)
                if a.kind == "pointer":
                    if a.name not in tensors:
                        raise BadInput("pointer argument %s is not a torch tensor" % a.name)
                    t = tensors[a.name]
                    dt = _DTYPES.get(str(t.dtype).split(".")[-1])
                    wname = wrapped.get(a.name, "").split(".")[-1]
                    wdt = _DTYPES.get(wname) or _TL_DTYPES.get(wname)
                    if wdt is not None and _BYTES[wdt] == t.element_size():
                        dt = wdt  # the reinterpreted type; the bits are the base tensor's
                    if dt is None:
                        raise BadInput("dtype %s of %s" % (wrapped.get(a.name) or t.dtype, a.name))
                    if aliased:
                        st = t.untyped_storage()
                        rec_args.append({"name": a.name, "kind": "ptr", "dtype": dt,
                                         "storage": keys.index((st.data_ptr(), st.nbytes())),
                                         "offset": t.data_ptr() - st.data_ptr()})
                    else:
                        b, _ = before[a.name]
                        after, _ = _torch_raw(t)
                        rec_args.append({"name": a.name, "kind": "ptr", "dtype": dt, "before": b, "after": after})
                elif a.kind == "scalar":
                    rec_args.append({"name": a.name, "kind": "scalar", "value": v.value if hasattr(v, "value") else v})
                else:
                    raise BadInput("argument %s has a type the suite format cannot hold" % a.name)
            k.close()
            if not any(a["kind"] == "ptr" for a in rec_args):
                raise BadInput("the kernel has no buffer argument: no output to judge")
            dev = torch.cuda.get_device_name() if torch.cuda.is_available() else "?"
            meta = {"triton": triton.__version__, "torch": torch.__version__, "device": dev, "grid": g,
                    "kernel": name, "test": test,
                    "python_args": {n: repr(v) if n not in tensors else
                                    {"dtype": str(v.dtype), "shape": list(tensors[n].shape),
                                     "stride": list(tensors[n].stride()), "storage_offset": tensors[n].storage_offset()}
                                    for n, v in meta_args.items()}}
            rec = {"kernel": name, "ttir": ttir, "grid": g, "args": rec_args, "meta": meta}
            if aliased:
                used = []  # storages numbered in TTIR argument order; ones only Python-side arguments use drop out
                for a in rec_args:
                    if a["kind"] == "ptr" and a["storage"] not in used:
                        used.append(a["storage"])
                remap = {s: i for i, s in enumerate(used)}
                for a in rec_args:
                    if a["kind"] == "ptr":
                        a["storage"] = remap[a["storage"]]
                rec["storages"] = [(before[keys[s]], _torch_storage_bytes(tensors[groups[keys[s]][0]])) for s in used]
                case = write_aliased(self.dir, rec, self.modes)
                self.aliased += 1
                note_launch(self.dir, {"test": test, "kernel": name, "aliased": case})
            else:
                case = write_case(self.dir, rec, self.modes)
                note_launch(self.dir, {"test": test, "kernel": name, "case": case})
            self.count += 1
        except Exception as e:  # noqa: BLE001 - every miss is reported
            self._miss(name, "%s: %s" % (type(e).__name__, e), test)
        return ret

    def _miss(self, name, reason, test):
        note_uncaptured(self.dir, name, reason)
        note_launch(self.dir, {"test": test, "kernel": name, "uncaptured": reason})
        self.missed += 1


def capture(dirpath, modes=None):
    """A context manager recording every Triton launch inside it into suite directory `dirpath`."""
    return Capture(dirpath, modes)


# ---- pytest plugin: pytest -p ttref.capture --ttref-capture=DIR ----------------------------------
# Besides the launches, DIR/tests.jsonl gets each test's outcome (test_outcome) and every launch
# in DIR/captures.jsonl carries the node id of the test that made it. `--ttref-triton` runs the
# tests' launches on ttref instead (the CPU run of scripts/gpu/run_test_core.py) and
# `--ttref-outcomes=FILE` records the outcomes without capturing.

_plugin = {}


def pytest_addoption(parser):
    parser.addoption("--ttref-capture", metavar="DIR", default=None,
                     help="record every Triton launch as a ttref conformance suite case in DIR")
    parser.addoption("--ttref-triton", action="store_true", default=False,
                     help="run every Triton launch on ttref (ttref.triton.enable(), as TTREF_TRITON=1)")
    parser.addoption("--ttref-outcomes", metavar="FILE", default=None,
                     help="append each test's outcome to FILE as JSON lines (as DIR/tests.jsonl)")


def pytest_configure(config):
    if config.getoption("--ttref-triton", default=False):
        if config.getoption("--ttref-capture", default=None):
            raise BadInput("error: --ttref-capture records GPU launches; it cannot be combined with --ttref-triton")
        from . import triton as ttref_triton
        ttref_triton.enable()  # before test modules import triton's driver (the GPU may be hidden)
        try:  # test modules ask torch.cuda for the capability at import (Triton's supports_tma())
            import torch
            ttref_triton._patch_torch_cuda(torch)
        except ImportError:
            pass
    _plugin["outcomes"] = config.getoption("--ttref-outcomes", default=None)
    d = config.getoption("--ttref-capture", default=None)
    if d:
        _plugin["cap"] = Capture(d).start()


def pytest_runtest_protocol(item, nextitem):
    cap = _plugin.get("cap")
    if cap is not None:  # before setup, so launches in fixtures count for the test too
        cap.test = item.nodeid
    return None  # pytest runs the test as usual


def pytest_runtest_logfinish(nodeid, location):
    cap = _plugin.get("cap")
    if cap is not None:
        cap.test = None


def test_outcome(report):
    """The DIR/tests.jsonl entry of a pytest TestReport, or None: the call phase, and setup or
    teardown when they did not pass (skips and errors), with the first line of the reason."""
    if report.when != "call" and report.outcome == "passed":
        return None
    text = getattr(report, "longreprtext", "") or ""
    if report.outcome == "skipped" and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        text = str(report.longrepr[2])
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    why = next((l for l in reversed(lines) if l.startswith("E ")), lines[-1] if lines else "")
    return {"test": report.nodeid, "when": report.when, "outcome": report.outcome, "reason": why[:300]}


def pytest_runtest_logreport(report):
    cap, out = _plugin.get("cap"), _plugin.get("outcomes")
    e = test_outcome(report) if cap is not None or out else None
    if e is None:
        return
    files = [os.path.join(cap.dir, "tests.jsonl")] if cap is not None else []
    files += [out] if out else []
    for path in files:
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(path, "a") as f:
            f.write(json.dumps(e, sort_keys=True) + "\n")


def pytest_unconfigure(config):
    cap = _plugin.pop("cap", None)
    if cap is not None:
        cap.stop()
        sys.stderr.write("ttref.capture: %d launches recorded (%d with aliased arguments: python3 -m ttref.capture "
                         "replay DIR), %d not (see UNCAPTURED.txt) in %s\n" % (cap.count, cap.aliased, cap.missed, cap.dir))


# ---- python3 -m ttref.capture replay DIR ---------------------------------------------------------

def main(argv=None):
    """`python3 -m ttref.capture replay DIR [--threads N] [--json FILE]`: replay DIR/aliased/* on
    ttref and judge the recorded GPU storages; prints one line per launch and `N passed, N
    failed`; exit 0 when every launch passed (or was UNSUPPORTED), 1 otherwise, 2 on bad usage."""
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m ttref.capture",
                                 description="replay captured launches whose arguments alias one storage")
    ap.add_argument("cmd", choices=["replay"])
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.dir):
        sys.stderr.write("%s: error: no such suite directory\n" % a.dir)
        return 2
    res = replay_dir(a.dir, threads=a.threads)
    for r in res:
        print("%s: %s%s" % (r["case"], r["verdict"], " (%s)" % r["reason"] if r["reason"] else ""))
    n = {v: sum(r["verdict"] == v for r in res) for v in ("PASS", "FAIL", "UNSUPPORTED", "ERROR")}
    print("%d passed, %d failed (%d unsupported, %d errors)" % (n["PASS"], n["FAIL"] + n["ERROR"], n["UNSUPPORTED"],
                                                              n["ERROR"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1, sort_keys=True, default=str)
    return 1 if n["FAIL"] or n["ERROR"] else 0


if __name__ == "__main__":
    sys.exit(main())
