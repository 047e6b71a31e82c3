"""Float views of ttref's raw-bit dtypes, shared by scripts/gen_ops_suite.py and tests/corpus/check_corpus.py.

bf16 and the fp8 formats travel as raw bits (<u2 / |u1 in .npy files); FP8[dtype] maps each of the 256
patterns to its binary64 value (NaN for the NaN patterns), so `FP8[dt][a.view(np.uint8)]` decodes an array.
"""
import numpy as np


def fp8_table(ebits, mbits, bias, fn):
    """the 256 values of an IEEE-like fp8 format; fn: no infinities, all-ones exponent and mantissa is NaN"""
    vals = np.zeros(256)
    for b in range(256):
        s, e, m = b >> 7, (b >> mbits) & ((1 << ebits) - 1), b & ((1 << mbits) - 1)
        if fn and e == (1 << ebits) - 1 and m == (1 << mbits) - 1:
            v = np.nan
        elif not fn and e == (1 << ebits) - 1:
            v = np.inf if m == 0 else np.nan
        elif e == 0:
            v = m * 2.0 ** (1 - bias - mbits)
        else:
            v = (1 + m / 2.0 ** mbits) * 2.0 ** (e - bias)
        vals[b] = -v if s else v
    return vals


def fnuz_table(ebits, mbits, bias):
    """FNUZ: no infinities, no -0; 0x80 is the only NaN"""
    t = np.array([(1 + (b & ((1 << mbits) - 1)) / 2.0 ** mbits) * 2.0 ** (((b >> mbits) & ((1 << ebits) - 1)) - bias)
                  if (b >> mbits) & ((1 << ebits) - 1) else (b & ((1 << mbits) - 1)) * 2.0 ** (1 - bias - mbits)
                  for b in range(128)])
    return np.concatenate([t, [np.nan], -t[1:]])


FP8 = {"f8e4m3": fp8_table(4, 3, 7, True), "f8e5m2": fp8_table(5, 2, 15, False),
       "f8e4m3fnuz": fnuz_table(4, 3, 8), "f8e5m2fnuz": fnuz_table(5, 2, 16)}


def float_view(a, dtype):
    """binary64 values of a float array of suite dtype @dtype (bf16/fp8 as raw bits); None for other dtypes"""
    a = np.asarray(a)
    with np.errstate(invalid="ignore"):  # signaling NaNs widen quietly
        if dtype == "bf16":
            return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        if dtype in FP8:
            return FP8[dtype][a.view(np.uint8)]
        if dtype in ("f16", "f32", "f64"):
            return a.astype(np.float64)
    return None
