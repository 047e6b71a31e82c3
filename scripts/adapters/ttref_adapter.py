#!/usr/bin/env python3
"""Example adapter (docs/adapter-protocol.md, protocol 1) that runs a case with `ttref run`.

It exists to show the protocol end to end and to test the harness's process and batch
adapter paths: `ttref conform SUITE --backend scripts/adapters/ttref_adapter.py` (per case)
or `--backend batch:scripts/adapters/ttref_adapter.py`. The ttref binary is $TTREF_BIN
(default: `ttref` on PATH).
"""
import os
import subprocess
import sys

try:
    import yaml
except ImportError as _e:  # one clear line instead of a traceback (docs/adapter-protocol.md, Requirements)
    sys.stderr.write("ttref_adapter.py: error: needs the python module yaml (PyYAML: apt install python3-yaml or "
                     "pip install pyyaml) in %s: %s\n" % (sys.executable, _e))
    sys.exit(2)

PROTOCOL = 1


def one(cdir):
    case = yaml.safe_load(open(os.path.join(cdir, "case.yaml")))
    if case.get("protocol") != PROTOCOL:
        return "unsupported", "protocol %r" % case.get("protocol")
    cmd = [os.environ.get("TTREF_BIN", "ttref"), "run", os.path.join(cdir, case["kernel"]),
           "--grid", ",".join(str(g) for g in case["grid"]), "--out", os.path.join(cdir, "outputs")]
    if case.get("function"):
        cmd += ["--kernel", case["function"]]
    for a in case["args"]:
        v = "@" + os.path.join(cdir, a["file"]) if a["kind"] == "ptr" else str(a["value"])
        cmd += ["--arg", "%s=%s" % (a["name"], v)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        return "error", p.stdout.strip().replace("\n", " ")[:300]
    return "ok", ""


def main(argv):
    if argv[1:] == ["--version"]:
        print("ttref_adapter protocol %d" % PROTOCOL)
        return 0
    if argv[1:] == ["--batch"]:
        for line in sys.stdin:
            cdir = line.rstrip("\n")
            if cdir:
                word, msg = one(cdir)
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
