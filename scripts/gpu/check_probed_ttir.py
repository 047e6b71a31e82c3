#!/usr/bin/env python3
"""Check that Triton accepts TTIR instrumented by `ttref fmt --probes` (run on the GPU machine).

Usage: python3 scripts/gpu/check_probed_ttir.py DIR [--jobs N]

Compiles every DIR/*.ttir (made with `ttref fmt KERNEL --probes -o DIR/NAME.ttir`) with
    triton.compile(path, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
in N worker processes and prints `PASS|FAIL <file> [first error line]` per file and a final
`N passed, N failed` line. Exit status 0 when every file compiled. This is the check that the
probe stores `ttref conform --localize` inserts are TTIR a real backend takes.
"""
import argparse
import glob
import os
import sys
from concurrent.futures import ProcessPoolExecutor


def compile_one(path):
    try:
        import triton
        from triton.backends.compiler import GPUTarget
        triton.compile(path, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
        return path, None
    except Exception as e:  # noqa: BLE001 - any compiler error is a finding
        lines = [l for l in str(e).splitlines() if l.strip()]
        err = next((l for l in lines if "error" in l), lines[0] if lines else type(e).__name__)
        return path, err.strip()[:300]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--jobs", type=int, default=8)
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "*.ttir")))
    passed = failed = 0
    with ProcessPoolExecutor(a.jobs) as ex:
        for path, err in ex.map(compile_one, files):
            if err is None:
                passed += 1
                print("PASS", os.path.basename(path))
            else:
                failed += 1
                print("FAIL", os.path.basename(path), err)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
