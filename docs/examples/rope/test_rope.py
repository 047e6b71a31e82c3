"""Python tests of a rope wrapper against goldens by dispatch key, pytest style with plain
asserts (runs under pytest, or alone: python3 test_rope.py GOLDEN_DIR). The wrapper here is
numpy; the goldens come from `ttref golden --library MANIFEST.yaml --out GOLDEN_DIR` and are
found by the same (head_dim, dtype) key the wrapper dispatches on."""
import json
import os
import sys

import numpy as np

import ttref

GOLDEN = os.environ.get("ROPE_GOLDEN", "golden")
REGISTRY = {(64, "bf16"): "hd64_bf16", (128, "bf16"): "hd128_bf16"}  # the wrapper's compiled variants


def dispatch_key(head_dim, dtype):
    return "head_dim=%d,dtype=%s" % (head_dim, dtype)


def bf16_round(f32):
    """float32 -> bf16 bits, round to nearest even."""
    u = f32.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def rope(x_bits, cos_t, sin_t):
    """The numpy wrapper: o1 = x1*c - x2*s, o2 = x2*c + x1*s in f32, stored as bf16."""
    x = ttref.decode(x_bits, "bf16").astype(np.float32)
    h = x.shape[1] // 2
    x1, x2 = x[:, :h], x[:, h:]
    o = np.concatenate([x1 * cos_t - x2 * sin_t, x2 * cos_t + x1 * sin_t], axis=1)
    return bf16_round(o)


def goldens(head_dim, dtype):
    with open(os.path.join(GOLDEN, "index.json")) as f:
        index = json.load(f)
    entry = index["variants"][dispatch_key(head_dim, dtype)]
    assert entry["variant_key"] == REGISTRY[(head_dim, dtype)]
    load = lambda rel: np.load(os.path.join(GOLDEN, rel))
    ins = {name: load(a["file"]) for name, a in entry["args"].items() if "file" in a}
    return entry, ins


def judge(head_dim, dtype, corrupt=0):
    entry, ins = goldens(head_dim, dtype)
    out = entry["outputs"]["o_ptr"]
    got = rope(ins["x_ptr"], ins["cos_ptr"], ins["sin_ptr"])
    got.reshape(-1)[7] += np.uint16(corrupt)
    opts = dict(kv.split("=") for kv in out["options"].split(",") if kv)
    return ttref.compare(got, np.load(os.path.join(GOLDEN, out["file"])), out["mode"], dtype=out["dtype"], **opts)


def test_every_variant_matches_its_goldens():
    for head_dim, dtype in REGISTRY:
        v = judge(head_dim, dtype)
        assert v.passed, (head_dim, v.reason)


def test_wrong_output_fails_at_its_element():
    for head_dim, dtype in REGISTRY:
        v = judge(head_dim, dtype, corrupt=2)
        assert not v.passed and v.worst["flat_index"] == 7 and v.worst["index"] == (0, 7)


def test_index_is_keyed_by_dispatch_values():
    with open(os.path.join(GOLDEN, "index.json")) as f:
        index = json.load(f)
    assert [d["name"] for d in index["dispatch"]] == ["head_dim", "dtype"]
    assert sorted(index["variants"]) == sorted(dispatch_key(*k) for k in REGISTRY)
    for key, entry in index["variants"].items():
        assert dispatch_key(entry["dispatch"]["head_dim"], entry["dispatch"]["dtype"]) == key


def test_the_reference_itself_reproduces_the_goldens():
    """ttref.run on the golden inputs gives the golden output bit for bit."""
    here = os.path.dirname(os.path.abspath(__file__))
    for head_dim, dtype in REGISTRY:
        entry, ins = goldens(head_dim, dtype)
        kernel = os.path.join(here, "kernels", "rope_hd%d_%s.ttir" % (head_dim, dtype))
        scalars = {n: a["value"] for n, a in entry["args"].items() if "value" in a}
        got = ttref.run(kernel, entry["grid"], dict(ins, **scalars))["o_ptr"]
        assert got.tobytes() == np.load(os.path.join(GOLDEN, entry["outputs"]["o_ptr"]["file"])).tobytes()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        GOLDEN = sys.argv[1]
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]
    failed = 0
    for i, (name, fn) in enumerate(tests, 1):
        try:
            fn()
            print("ok %d - %s" % (i, name))
        except Exception as e:
            failed += 1
            print("not ok %d - %s: %r" % (i, name, e))
    print("1..%d" % len(tests))
    sys.exit(1 if failed else 0)
