#!/usr/bin/env python3
"""Triton (CUDA) backend adapter for `ttref conform` (docs/adapter-protocol.md, protocol 1).

Per case:  triton_adapter.py CASE_DIR        exit 0 ok, 3 unsupported, anything else error
Batch:     triton_adapter.py --batch         case directories on stdin, one reply line each:
                                             "ok DIR" | "unsupported DIR [why]" | "error DIR [why]"
Version:   triton_adapter.py --version

It compiles CASE_DIR/kernel.ttir with triton.compile(path, target=GPUTarget("cuda", 90, 32),
options={"num_warps": 4}), binds CASE_DIR/inputs/NAME.npy by the TTIR argument names of
case.yaml, launches on case.yaml's grid and writes every output to CASE_DIR/outputs/NAME.npy
with the input's dtype and shape (bf16/fp8 as raw bits, as ttref does). Compiled kernels are
cached by the sha256 of kernel.ttir, so batch mode compiles each kernel once.
Environment: TTREF_ADAPTER_ARCH (default 90), TTREF_ADAPTER_NUM_WARPS (default 4).
"""
import contextlib
import ctypes
import hashlib
import os
import sys
import traceback

try:
    import numpy as np
    import yaml
except ImportError as _e:  # one clear line instead of a traceback (docs/adapter-protocol.md, Requirements)
    sys.stderr.write("triton_adapter.py: error: needs the python module %s (apt install python3-numpy python3-yaml, "
                     "or pip install numpy pyyaml) in %s: %s\n" % (getattr(_e, "name", None) or "numpy/yaml",
                                                                   sys.executable, _e))
    sys.exit(2)

PROTOCOL = 1
EXIT_OK, EXIT_ERROR, EXIT_UNSUPPORTED = 0, 1, 3
_cache = {}


class Unsupported(Exception):
    pass


def torch_dtype(dt):
    import torch
    table = {
        "bool": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
        "u8": torch.uint8, "u16": torch.int16, "u32": torch.int32, "u64": torch.int64,
        "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
        "f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2,
    }
    if dt not in table:
        raise Unsupported("dtype %s" % dt)
    return table[dt]


def to_device(arr, dt):
    """npy array (raw bits for bf16/fp8) -> CUDA tensor of the kernel's element type."""
    import torch
    if dt == "bf16":
        return torch.from_numpy(arr.view(np.int16).copy()).view(torch.bfloat16).cuda()
    if dt.startswith("f8"):
        return torch.from_numpy(arr.view(np.uint8).copy()).view(torch_dtype(dt)).cuda()
    if dt in ("u16", "u32", "u64"):  # torch lacks these: same bits as signed
        return torch.from_numpy(arr.view({"u16": np.int16, "u32": np.int32, "u64": np.int64}[dt]).copy()).cuda()
    return torch.from_numpy(arr.copy()).cuda()


def from_device(t, like):
    """CUDA tensor -> npy array with the dtype and shape of the input file `like`."""
    import torch
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        a = t.view(torch.int16).numpy()
    elif t.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        a = t.view(torch.uint8).numpy()
    else:
        a = t.numpy()
    return a.view(like.dtype).reshape(like.shape)


def scalar(arg):
    ty, v = arg["type"], str(arg["value"])
    if ty.startswith("f") or ty == "bf16":
        return float(v)
    if v in ("true", "false"):
        return v == "true"
    return int(v, 0)


def compile_kernel(path):
    import triton
    from triton.backends.compiler import GPUTarget
    key = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if key not in _cache:
        arch = int(os.environ.get("TTREF_ADAPTER_ARCH", "90"))
        warps = int(os.environ.get("TTREF_ADAPTER_NUM_WARPS", "4"))
        _cache[key] = triton.compile(path, target=GPUTarget("cuda", arch, 32), options={"num_warps": warps})
    return _cache[key]


@contextlib.contextmanager
def stdout_to_stderr():
    """fd 1 carries the batch protocol: tt.print output and the compiler's own prints (ptxas
    failures) go to stderr, the item's log, instead"""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        ctypes.CDLL(None).fflush(None)  # the CUDA runtime and the compiler print through C stdio
        os.dup2(saved, 1)
        os.close(saved)


def run_case(cdir):
    import torch
    case = yaml.safe_load(open(os.path.join(cdir, "case.yaml")))
    if case.get("protocol") != PROTOCOL:
        raise Unsupported("protocol %r (this adapter speaks %d)" % (case.get("protocol"), PROTOCOL))
    try:
        with stdout_to_stderr():
            kernel = compile_kernel(os.path.join(cdir, case["kernel"]))
    except Exception as e:  # the compiler rejected it: the backend cannot run this case
        raise Unsupported("compile: %s" % str(e).splitlines()[0] if str(e) else type(e).__name__)
    bound, outs = [], []
    for a in case["args"]:
        if a["kind"] == "ptr":
            arr = np.load(os.path.join(cdir, a["file"]))
            t = to_device(arr, a["dtype"])
            bound.append(t)
            outs.append((a, t, arr))
        else:
            bound.append(scalar(a))
    grid = tuple(int(g) for g in case["grid"])
    with stdout_to_stderr():
        kernel[grid](*bound)
        torch.cuda.synchronize()
    os.makedirs(os.path.join(cdir, "outputs"), exist_ok=True)
    for a, t, arr in outs:
        np.save(os.path.join(cdir, "outputs", a["name"] + ".npy"), from_device(t, arr))


def one(cdir):
    """Run one case; returns (word, message)."""
    try:
        run_case(cdir)
        return "ok", ""
    except Unsupported as e:
        return "unsupported", str(e)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        return "error", ("%s: %s" % (type(e).__name__, e)).replace("\n", " ")[:300]


def setup():
    import torch
    import triton
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))


def main(argv):
    if len(argv) == 2 and argv[1] == "--version":
        import triton
        import torch
        print("triton %s, torch %s, %s" % (triton.__version__, torch.__version__, torch.cuda.get_device_name()))
        return EXIT_OK
    setup()
    if len(argv) == 2 and argv[1] == "--batch":
        for line in sys.stdin:
            cdir = line.rstrip("\n")
            if not cdir:
                continue
            word, msg = one(cdir)
            sys.stdout.write("%s %s%s\n" % (word, cdir, (" " + msg) if msg else ""))
            sys.stdout.flush()
        return EXIT_OK
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return EXIT_ERROR
    word, msg = one(argv[1])
    if msg:
        sys.stderr.write(msg + "\n")
    return {"ok": EXIT_OK, "unsupported": EXIT_UNSUPPORTED}.get(word, EXIT_ERROR)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
