#!/usr/bin/env python3
"""Find out how the GPU reduces f32 dot inputs to tf32 (run on the GPU machine).

D = A @ I with I the identity: each output is one product a*1 accumulated into
0, so D == tf32(a) exactly and shows how the hardware dropped a's low 13
mantissa bits: truncation (RZ), round-to-nearest-even (RNE), or nearest with
ties away from zero (RNA, the PTX cvt.rna.tf32.f32 mode). The same with
A = I and B = b shows the B operand. Prints one verdict line per operand and
precision, and writes the raw outputs to OUT/tf32_probe.npz.
"""
import os, sys
import numpy as np
import torch, triton, triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, o_ptr, PREC: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    o = tl.dot(a, b, input_precision=PREC)
    tl.store(o_ptr + r[:, None] * 16 + r[None, :], o)


def tf32_modes(x):
    u = x.view(np.uint32).astype(np.uint64)
    low = u & 0x1FFF
    rz = (u & ~np.uint64(0x1FFF)) & 0xFFFFFFFF
    half = np.uint64(0x1000)
    up = (rz + 0x2000) & 0xFFFFFFFF
    lsb = (u >> 13) & 1
    rne = np.where((low > half) | ((low == half) & (lsb == 1)), up, rz)
    rna = np.where(low >= half, up, rz)
    f = lambda v: v.astype(np.uint32).view(np.float32)
    return {"rz": f(rz), "rne": f(rne), "rna": f(rna)}


def main():
    out = os.environ.get("OUT", ".")
    rng = np.random.default_rng(7)
    bits = rng.integers(0x3F800000, 0x40000000, size=256, dtype=np.uint32)
    # force ties (low 13 bits == 0x1000) with odd and even kept lsb, and just-above/below ties
    bits[:32] = (bits[:32] & ~np.uint32(0x1FFF)) | 0x1000
    bits[32:48] = (bits[32:48] & ~np.uint32(0x1FFF)) | 0x0FFF
    bits[48:64] = (bits[48:64] & ~np.uint32(0x1FFF)) | 0x1001
    x = bits.view(np.float32).reshape(16, 16)
    x[1::2] *= -1
    eye = np.eye(16, dtype=np.float32)
    res = {}
    for prec in ("tf32", "tf32x3", "ieee"):
        for side in ("A", "B"):
            a = torch.tensor(x if side == "A" else eye, device="cuda")
            b = torch.tensor(eye if side == "A" else x, device="cuda")
            o = torch.empty((16, 16), dtype=torch.float32, device="cuda")
            dot_kernel[(1,)](a, b, o, PREC=prec)
            got = o.cpu().numpy()
            res[f"{prec}_{side}"] = got
            modes = tf32_modes(x)
            modes["exact"] = x
            match = [k for k, v in modes.items() if np.array_equal(v.view(np.uint32), got.view(np.uint32))]
            print(f"tf32-probe {prec} operand {side}: matches {match or 'none'}")
    np.savez(os.path.join(out, "tf32_probe.npz"), x=x, **res)


if __name__ == "__main__":
    main()
