"""ttref.capture: record real Triton launches (on a GPU) as conformance suite cases.

    with ttref.capture.capture("suite/mine"):          # a context manager
        model(x)                                       # every kernel[grid](...) is recorded
    pytest -p ttref.capture --ttref-capture=suite/mine  # or the pytest plugin

Each launch becomes DIR/NAME.yaml (docs/suite-format.md) with DIR/NAME/kernel.ttir (the TTIR
Triton compiled, compiled.asm["ttir"]), DIR/NAME/ARG.in.npy (each pointer argument's memory
before the launch, from the pointer to the end of its storage, raw bits for bf16/fp8) and
DIR/NAME/ARG.gpu.npy (after it), DIR/NAME/meta.json (Triton version, device, grid, constexprs,
Python arguments). `ttref conform DIR --backend reference` replays the suite on the CPU and
`ttref conform DIR --backend DIR/replay_gpu.py` judges the recorded GPU outputs against ttref.
Launches that cannot be recorded faithfully (arguments aliasing one storage, tensor
descriptors, ...) are listed in DIR/UNCAPTURED.txt and warned about, never silently dropped.

write_case() and the modes are plain Python over numpy (tested without Triton or a GPU).
"""
import json
import os
import re
import sys
import threading
import warnings

import numpy as np

from . import BadInput

__all__ = ["capture", "write_case", "default_mode", "Capture", "REPLAY_ADAPTER"]

# numpy / torch dtype name -> suite dtype
_DTYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int8": "i8", "int16": "i16",
           "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
           "bool": "bool", "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "float8_e4m3fnuz": "f8E4M3FNUZ",
           "float8_e5m2fnuz": "f8E5M2FNUZ"}
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


def _case_name(dirpath, kernel):
    base = _NAME.sub("_", kernel) or "kernel"
    n = 0
    while os.path.exists(os.path.join(dirpath, "%s_%d.yaml" % (base, n))):
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


def write_case(dirpath, record, modes=None):
    """Write one launch record as a suite case; returns the case name. `record` is a dict:
    kernel (name), ttir (text), grid (1-3 ints), args: a list in TTIR order of
    {"name", "kind": "ptr", "dtype" (suite dtype), "before", "after" (numpy arrays of raw bits
    or values, the memory from the pointer to the end of its storage)} or
    {"name", "kind": "scalar", "value"}; optional "meta" (dict, into meta.json).
    `modes` maps an argument name to {"mode", "options"} (default: default_mode)."""
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
            out = arr.view(raw) if raw is not None else arr
            np.save(os.path.join(cdir, "%s.%s.npy" % (a["name"], sfx)), np.ascontiguousarray(out).reshape(-1))
        lines.append("  %s: {shape: [%d], dtype: %s, input: {gen: file, file: %s/%s.in.npy}}"
                     % (a["name"], before.size, dt, name, a["name"]))
        outputs.append((a["name"], (modes or {}).get(a["name"]) or default_mode(dt)))
    lines.append("outputs:")
    for n, m in outputs:
        opts = m.get("options") or {}
        o = ", ".join("%s: %s" % (k, _yaml_scalar(v) if not isinstance(v, str) else v) for k, v in opts.items())
        lines.append("  %s: {mode: %s%s}" % (n, m["mode"], ", options: {%s}" % o if o else ""))
    with open(os.path.join(dirpath, name + ".yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(cdir, "meta.json"), "w") as f:
        json.dump(record.get("meta", {}), f, indent=1, sort_keys=True, default=str)
    adapter = os.path.join(dirpath, "replay_gpu.py")
    if not os.path.exists(adapter):
        with open(adapter, "w") as f:
            f.write(REPLAY_ADAPTER)
        os.chmod(adapter, 0o755)
    return name


def note_uncaptured(dirpath, kernel, reason):
    """Record a launch that could not be captured (DIR/UNCAPTURED.txt) and warn."""
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, "UNCAPTURED.txt"), "a") as f:
        f.write("%s: %s\n" % (kernel, reason))
    warnings.warn("ttref.capture: launch of %s not captured: %s" % (kernel, reason), stacklevel=3)


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
        return self

    def stop(self):
        if self._orig is not None:
            import triton.runtime.jit as jit
            jit.JITFunction.run = self._orig
            self._orig = None

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
        tensors = {n: v for n, v in params.items() if hasattr(v, "data_ptr") and hasattr(v, "untyped_storage")}
        reason = None
        ranges = sorted((t.untyped_storage().data_ptr(), t.untyped_storage().data_ptr() + t.untyped_storage().nbytes(), n)
                        for n, t in tensors.items())
        top, top_name = None, None  # the furthest-reaching storage so far
        for lo, hi, n in ranges:
            if top is not None and lo < top and reason is None:
                reason = "arguments %s and %s share one storage (the suite format has one buffer per argument)" % (top_name, n)
            if top is None or hi > top:
                top, top_name = hi, n
        try:
            before = {} if reason else {n: _torch_raw(t) for n, t in tensors.items()}
        except Exception as e:  # noqa: BLE001 - reported below
            reason = "reading the inputs failed: %s: %s" % (type(e).__name__, e)
        ret = self._orig(fn, *args, grid=grid, warmup=False, **kwargs)
        name = getattr(fn, "__name__", "kernel")
        if reason:
            note_uncaptured(self.dir, name, reason)
            self.missed += 1
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
                    b, dt = before[a.name]
                    after, _ = _torch_raw(tensors[a.name])
                    if dt is None:
                        raise BadInput("dtype %s of %s" % (tensors[a.name].dtype, a.name))
                    rec_args.append({"name": a.name, "kind": "ptr", "dtype": dt, "before": b, "after": after})
                elif a.kind == "scalar":
                    rec_args.append({"name": a.name, "kind": "scalar", "value": v.value if hasattr(v, "value") else v})
                else:
                    raise BadInput("argument %s has a type the suite format cannot hold" % a.name)
            dev = torch.cuda.get_device_name() if torch.cuda.is_available() else "?"
            meta = {"triton": triton.__version__, "torch": torch.__version__, "device": dev, "grid": g,
                    "kernel": name, "python_args": {n: repr(v) if n not in tensors else
                                                    {"dtype": str(v.dtype), "shape": list(v.shape),
                                                     "stride": list(v.stride()), "storage_offset": v.storage_offset()}
                                                    for n, v in meta_args.items()}}
            write_case(self.dir, {"kernel": name, "ttir": ttir, "grid": g, "args": rec_args, "meta": meta},
                       self.modes)
            self.count += 1
        except Exception as e:  # noqa: BLE001 - every miss is reported
            note_uncaptured(self.dir, name, "%s: %s" % (type(e).__name__, e))
            self.missed += 1
        return ret


def capture(dirpath, modes=None):
    """A context manager recording every Triton launch inside it into suite directory `dirpath`."""
    return Capture(dirpath, modes)


# ---- pytest plugin: pytest -p ttref.capture --ttref-capture=DIR ----------------------------------

_plugin = {}


def pytest_addoption(parser):
    parser.addoption("--ttref-capture", metavar="DIR", default=None,
                     help="record every Triton launch as a ttref conformance suite case in DIR")


def pytest_configure(config):
    d = config.getoption("--ttref-capture", default=None)
    if d:
        _plugin["cap"] = Capture(d).start()


def pytest_unconfigure(config):
    cap = _plugin.pop("cap", None)
    if cap is not None:
        cap.stop()
        sys.stderr.write("ttref.capture: %d launches recorded, %d not (see UNCAPTURED.txt) in %s\n"
                         % (cap.count, cap.missed, cap.dir))
