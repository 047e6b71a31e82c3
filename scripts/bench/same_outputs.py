#!/usr/bin/env python3
"""Check that two ttref builds give byte-identical results on the whole corpus.

    python3 scripts/bench/same_outputs.py --before OLD/ttref --after ./ttref [--corpus tests/data/corpus]

Runs every case of tests/data/corpus/*/* (the layout check_corpus.py reads) with
both builds, under each variant (default, --ftz, --contract, --precise, --ftz
--contract) with --threads 1, and the default also with --threads 2, and compares the exit status, stdout,
stderr and every file written to --out byte for byte. Used to show that an
executor optimisation changes no output. Prints `N same, N differ` and exits 1
on any difference. Needs only Python's standard library.
"""
import argparse, filecmp, json, os, re, shutil, subprocess, sys, tempfile

VARIANTS = ([], ["--ftz"], ["--contract"], ["--precise"], ["--ftz", "--contract"])  # each with --threads 1; the default also with 2


def case_cmd(ttref, d):
    case = json.load(open(os.path.join(d, "case.json")))
    ttir = open(os.path.join(d, "kernel.ttir")).read()
    m = re.search(r"tt\.func\s+(?:public\s+)?@\w+\((.*?)\)\s*(?:attributes|\{)", ttir, re.S)
    names = set(re.findall(r"%([\w.$]+)\s*:", m.group(1))) if m else set()
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
    return cmd


def run(ttref, d, extra, out):
    cmd = case_cmd(ttref, d) + extra + ["--out", out]
    p = subprocess.run(cmd, capture_output=True, timeout=600)
    # the binary's own path may appear in messages: compare without it
    return p.returncode, p.stdout, p.stderr.replace(ttref.encode(), b"TTREF")


def same_dirs(a, b):
    fa = sorted(os.listdir(a)) if os.path.isdir(a) else []
    fb = sorted(os.listdir(b)) if os.path.isdir(b) else []
    if fa != fb:
        return False
    return all(filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False) for f in fa)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "corpus"))
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    cases = sorted(os.path.join(root, d) for root in [os.path.join(args.corpus, s) for s in sorted(os.listdir(args.corpus))]
                   if os.path.isdir(root) for d in os.listdir(root) if os.path.exists(os.path.join(root, d, "case.json")))
    same = differ = 0
    tmp = tempfile.mkdtemp(prefix="same_outputs.")
    try:
        for d in cases:
            for extra in VARIANTS:
                for t in (args.threads.split(",") if not extra else ["1"]):
                    ex = extra + ["--threads", t]
                    oa, ob = os.path.join(tmp, "a"), os.path.join(tmp, "b")
                    ra = run(os.path.abspath(args.before), d, ex, oa)
                    rb = run(os.path.abspath(args.after), d, ex, ob)
                    if ra[0] == rb[0] and ra[1] == rb[1] and ra[2].replace(os.path.abspath(args.before).encode(), b"") == rb[2].replace(os.path.abspath(args.after).encode(), b"") and same_dirs(oa, ob):
                        same += 1
                    else:
                        differ += 1
                        print(f"DIFFER: {os.path.relpath(d, args.corpus)} {' '.join(ex)} (exit {ra[0]} / {rb[0]})")
                    shutil.rmtree(oa, ignore_errors=True)
                    shutil.rmtree(ob, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{same} same, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
