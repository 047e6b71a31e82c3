#!/usr/bin/env python3
"""Run a sample of Triton's own language tests (python/test/unit/language/test_core.py) on the
GPU while ttref.capture records every launch, replay the launches on ttref, and write a summary
(docs/triton.md, "test_core sample"):

    python3 scripts/gpu/run_test_core.py OUTDIR --tests TESTDIR [--launches 300] [--budget-s 540]

TESTDIR holds Triton's python/test/unit tree of the installed Triton's tag (conftest.py and
language/test_core.py; not part of ttref: copy it from the Triton sources). Phases, each
resumable (a phase whose output exists is not redone, so a 10-minute device call can stop and
the next call goes on):

  collect  pytest --collect-only: OUTDIR/collected.txt
  select   a seeded, stratified order over the test functions (every function's parametrisations
           interleaved, so a prefix samples all of them): OUTDIR/order.txt
  run      chunks of that order under `pytest -p ttref.capture --ttref-capture=OUTDIR/suite`
           until OUTDIR/suite/captures.jsonl holds --launches launches (or --budget-s runs out);
           each chunk's ids in OUTDIR/chunks/N.txt, done chunks marked N.done
  replay   no GPU needed: cases whose TTIR ttref cannot load are moved to OUTDIR/unsupported/
           with ttref's message, `ttref conform OUTDIR/suite --backend OUTDIR/suite/replay_gpu.py
           --config OUTDIR/suite/replay_gpu.yml` judges the GPU's outputs against ttref,
           `ttref.capture.replay_dir` the aliased ones
  summary  OUTDIR/summary.json and OUTDIR/summary.md: per test pass / fail / unsupported /
           no_launch / gpu_skipped / gpu_failed with the reason, and the launch agreement rate

`--on ttref --phases run,summary` then runs the tests the GPU run ran once more with the GPU
hidden (CUDA_VISIBLE_DEVICES=, `--ttref-triton --device cpu`): Triton's own assertions judge
ttref.triton end to end, and the summary adds the per-test comparison (compare_outcomes).

Needs Triton, torch, pytest, numpy and libttref (TTREF_LIB, TTREF_BIN, PYTHONPATH=python) for
collect and run; replay and summary need only ttref and numpy. The pure parts (parse_collected,
stratified_order, chunks_of, quarantine_reason, summarize, render_md) are tested in make check
(tests/python/test_run_test_core.py), as is compare_outcomes.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

PHASES = ("collect", "select", "run", "replay", "summary")

# ---- pure parts ---------------------------------------------------------------------------------


def parse_collected(text):
    """Node ids from `pytest --collect-only -q` output: lines 'path::name[params]', in order,
    without duplicates; the summary and warning lines are dropped."""
    out, seen = [], set()
    for line in text.splitlines():
        line = line.strip()
        if "::" not in line or line.startswith(("=", "<", "ERROR", "FAILED", "WARNING")) or " " in line.split("[")[0]:
            continue
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


def function_of(nodeid):
    """'path::test_fn[p1-p2]' -> 'path::test_fn' (the test function, parametrisations folded)."""
    return nodeid.split("[", 1)[0]


def stratified_order(nodeids, seed, exclude=None):
    """Every node id once, in an order whose every prefix samples the test functions evenly:
    round-robin over the functions (in order of first appearance), each function's
    parametrisations shuffled by sha256(seed, id). Deterministic for a seed; `exclude` is a
    regex searched in the id."""
    rx = re.compile(exclude) if exclude else None
    groups, order = {}, []
    for n in nodeids:
        if rx and rx.search(n):
            continue
        f = function_of(n)
        if f not in groups:
            groups[f] = []
            order.append(f)
        groups[f].append(n)
    key = lambda n: hashlib.sha256(("%s\0%s" % (seed, n)).encode()).hexdigest()
    queues = [sorted(groups[f], key=key) for f in order]
    out = []
    for i in range(max(map(len, queues), default=0)):
        out.extend(q[i] for q in queues if i < len(q))
    return out


def chunks_of(order, size):
    """The run order cut into chunks of `size` ids (the last may be shorter)."""
    if size < 1:
        raise ValueError("chunk size %d" % size)
    return [order[i:i + size] for i in range(0, len(order), size)]


_CASE_ERR = re.compile(r"(?:^|/)([A-Za-z0-9_.-]+)\.yaml:\d+:\d+: error: (.*)")


def quarantine_reason(stderr):
    """(case, message) of the first `SUITE/CASE.yaml:L:C: error: ...` line `ttref conform` printed
    when it refused to load a suite, or None when no case is named."""
    for line in stderr.splitlines():
        m = _CASE_ERR.search(line)
        if m:
            return m.group(1), m.group(2).strip()
    return None


def read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


_PASSING = ("PASS", "QUALITY_WARNING", "XFAIL")
_ODD = ("UNSUPPORTED", "UNCAPTURED", "NOT_REPLAYED")  # no verdict on the launch: explained, not judged


def kind_of(verdict):
    """agree | disagree (FAIL: the GPU's output is outside the bound) | error (the replay could
    not judge: ttref faulted, crashed, timed out) | unsupported | uncaptured | not_replayed."""
    if verdict in _PASSING:
        return "agree"
    if verdict == "FAIL":
        return "disagree"
    if verdict in _ODD:
        return verdict.lower()
    return "error"


_NOT_INTERPRETED = "is not supported by the interpreter"  # ttref's message for tt.elementwise_inline_asm
# CPU-run failures that are not ttref's: the test itself calls CUDA (torch.cuda, pinned memory)
_NEEDS_CUDA = ("No CUDA GPUs are available", "exchangeDevice", "Found no NVIDIA driver")

_SEE_LOG = re.compile(r"see (work/\S+\.log)")


def explain(reason, report_dir):
    """A conform reason that points at a log (`... see work/CASE/VARIANT/ref.log`) with the log's
    first error line appended, so the summary carries ttref's own message."""
    m = _SEE_LOG.search(reason or "")
    if not m:
        return reason
    try:
        with open(os.path.join(report_dir, m.group(1)), errors="replace") as f:
            for line in f:
                if "error:" in line:
                    return "%s: %s" % (reason, line.strip()[:400])
    except OSError:
        pass
    return reason


def summarize(order, tests, captures, results, aliased, unsupported, meta=None):
    """The summary of one sample run.
    order: node ids run, in order; tests: DIR/tests.jsonl entries ({test, when, outcome, reason});
    captures: DIR/captures.jsonl entries ({test, kernel, case | aliased | uncaptured});
    results: `ttref conform` results.json "results" list ({case, verdict, reason, output, ...});
    aliased: ttref.capture.replay_dir results ({case, verdict, reason});
    unsupported: {case: ttref's message} of cases ttref could not load (quarantined).
    Returns a dict: totals, rates and one entry per test run: status pass | fail | unsupported |
    no_launch | gpu_skipped | gpu_failed, with launches and reasons."""
    order = list(dict.fromkeys(order))  # a test run twice (a re-run chunk) counts once
    gpu = {}
    for t in tests:
        cur = gpu.get(t["test"])
        # a failed or skipped phase wins over a passed call; the first non-pass is kept
        if cur is None or (cur["outcome"] == "passed" and t["outcome"] != "passed"):
            gpu[t["test"]] = t
    by_case = {r["case"]: r for r in results}
    by_alias = {r["case"]: r for r in aliased}
    launches = {}
    for c in captures:
        launches.setdefault(c.get("test"), []).append(c)
    per_test, counts = [], {}
    tally = {"launches": 0, "agree": 0, "disagree": 0, "error": 0, "unsupported": 0, "uncaptured": 0,
             "not_replayed": 0}
    for tid in order:
        ls = []
        for c in launches.get(tid, []):
            if "uncaptured" in c:
                v, why, where = "UNCAPTURED", c["uncaptured"], None
            elif "aliased" in c:
                r = by_alias.get(c["aliased"])
                where = "aliased/" + c["aliased"]
                v, why = (r["verdict"], r["reason"]) if r else ("NOT_REPLAYED", "no replay result")
            else:
                where = c["case"]
                if c["case"] in unsupported:
                    v, why = "UNSUPPORTED", unsupported[c["case"]]
                else:
                    r = by_case.get(c["case"])
                    v, why = (r["verdict"], r.get("reason", "")) if r else ("NOT_REPLAYED", "no replay result")
                    if v == "ERROR" and _NOT_INTERPRETED in why:  # an op ttref refuses by design (inline asm)
                        v = "UNSUPPORTED"
            ls.append({"kernel": c.get("kernel"), "case": where, "verdict": v, "reason": why})
            tally["launches"] += 1
            tally[kind_of(v)] += 1
        g = gpu.get(tid)
        go = g["outcome"] if g else "not_run"
        bad = [l for l in ls if kind_of(l["verdict"]) in ("disagree", "error")]
        odd = [l for l in ls if l["verdict"] in _ODD]
        if bad:
            st, why = "fail", "%s: %s: %s" % (bad[0]["case"], bad[0]["verdict"], bad[0]["reason"])
        elif odd:
            st, why = "unsupported", "%s: %s: %s" % (odd[0]["case"] or odd[0]["kernel"], odd[0]["verdict"],
                                                     odd[0]["reason"])
        elif ls:
            st, why = "pass", ""
        elif go == "skipped":
            st, why = "gpu_skipped", g.get("reason", "")
        elif go == "failed":
            st, why = "gpu_failed", g.get("reason", "")
        else:
            st, why = "no_launch", "the test launched no kernel" if g else "no pytest outcome recorded"
        counts[st] = counts.get(st, 0) + 1
        per_test.append({"test": tid, "status": st, "gpu": go, "reason": why, "launches": ls})
    judged = tally["agree"] + tally["disagree"] + tally["error"]
    return {"format": "ttref-test-core-sample", "format_version": 1, "meta": meta or {},
            "tests": len(order), "status": dict(sorted(counts.items())), "launch_totals": tally,
            "agreement": round(100.0 * tally["agree"] / judged, 2) if judged else None,
            "agreement_all": round(100.0 * tally["agree"] / tally["launches"], 2) if tally["launches"] else None,
            "per_test": per_test}


def _outcomes(entries):
    """node id -> the entry that decides the test (a failed or skipped phase wins over a pass)."""
    out = {}
    for t in entries:
        cur = out.get(t["test"])
        if cur is None or (cur["outcome"] == "passed" and t["outcome"] != "passed"):
            out[t["test"]] = t
    return out


def compare_outcomes(order, gpu_tests, cpu_tests):
    """The same tests run on the GPU and on the CPU through ttref.triton (their own assertions
    judging ttref): per test pass (both passed), ttref_fail (passed on the GPU, failed on ttref:
    the reason is ttref's E line), ttref_skip, needs_gpu_code (the test reads a GPU compilation
    stage such as asm["ptx"], which a CPU run has not: not counted), ttref_unsupported (an op ttref
    refuses by design, tt.elementwise_inline_asm), needs_cuda (the test calls CUDA itself, e.g.
    torch.cuda or pinned memory), gpu_failed / gpu_skipped (not meaningful), or not_run; without a GPU record the CPU outcome alone decides. Rate: pass / (pass + ttref_fail)."""
    gpu, cpu = _outcomes(gpu_tests), _outcomes(cpu_tests)
    per, counts = [], {}
    for tid in order:
        g, c = gpu.get(tid), cpu.get(tid)
        go, co = (g["outcome"] if g else None), (c["outcome"] if c else None)
        if co is None:
            st, why = "not_run", "no outcome on ttref (the chunk timed out?)"
        elif go in ("failed", "skipped"):
            st, why = "gpu_" + go, g.get("reason", "")
        elif co == "passed":
            st, why = "pass", ""
        elif co == "skipped":
            st, why = "ttref_skip", c.get("reason", "")
        elif "ttref.triton stops at TTIR" in (c.get("reason") or ""):
            st, why = "needs_gpu_code", c.get("reason", "")  # the test inspects ptx/cubin: not a semantic result
        elif _NOT_INTERPRETED in (c.get("reason") or ""):
            st, why = "ttref_unsupported", c.get("reason", "")  # an op ttref refuses by design (inline asm)
        elif any(s in (c.get("reason") or "") for s in _NEEDS_CUDA):
            st, why = "needs_cuda", c.get("reason", "")  # the test itself uses CUDA outside Triton
        else:
            st, why = "ttref_fail", c.get("reason", "")
        counts[st] = counts.get(st, 0) + 1
        per.append({"test": tid, "gpu": go, "ttref": co, "status": st, "reason": why})
    judged = counts.get("pass", 0) + counts.get("ttref_fail", 0)
    return {"tests": len(order), "status": dict(sorted(counts.items())),
            "pass_rate": round(100.0 * counts.get("pass", 0) / judged, 2) if judged else None, "per_test": per}


def _md(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def render_md(summary):
    """summary.md: the totals, the rates and every non-passing test and launch with its reason."""
    t = summary["launch_totals"]
    m = summary.get("meta") or {}
    out = ["# Triton test_core sample on ttref", ""]
    if m:
        out += ["%s" % ", ".join("%s %s" % (k, _md(v)) for k, v in sorted(m.items())), ""]
    out += ["%d tests run; status: %s." % (summary["tests"], ", ".join("%s %d" % kv for kv in summary["status"].items())),
            "",
            "| launches | agree | disagree | replay error | ttref unsupported | not captured | not replayed |",
            "|---|---|---|---|---|---|---|",
            "| %d | %d | %d | %d | %d | %d | %d |" % (t["launches"], t["agree"], t["disagree"], t["error"],
                                                    t["unsupported"], t["uncaptured"], t["not_replayed"]), ""]
    out.append("Agreement (judged launches): %s; over every launch: %s." % (
        "-" if summary["agreement"] is None else "%.2f%%" % summary["agreement"],
        "-" if summary["agreement_all"] is None else "%.2f%%" % summary["agreement_all"]))
    out += ["", "## Every launch that did not agree", "", "| test | kernel | case | verdict | reason |", "|---|---|---|---|---|"]
    n = 0
    for e in summary["per_test"]:
        for l in e["launches"]:
            if l["verdict"] not in _PASSING:
                out.append("| %s | %s | %s | %s | %s |" % (_md(e["test"]), _md(l["kernel"]), _md(l["case"]),
                                                         l["verdict"], _md(l["reason"])))
                n += 1
    if not n:
        out.append("| (none) | | | | |")
    out += ["", "## Tests without a judged launch", "", "| test | status | reason |", "|---|---|---|"]
    for e in summary["per_test"]:
        if e["status"] in ("no_launch", "gpu_skipped", "gpu_failed"):
            out.append("| %s | %s | %s |" % (_md(e["test"]), e["status"], _md(e["reason"])))
    c = summary.get("ttref_run")
    if c:
        out += ["", "## The same tests on the CPU through ttref.triton (GPU hidden, their own assertions)", "",
                "%d tests; status: %s; pass rate (pass / (pass + ttref_fail)): %s." % (
                    c["tests"], ", ".join("%s %d" % kv for kv in c["status"].items()),
                    "-" if c["pass_rate"] is None else "%.2f%%" % c["pass_rate"]),
                "", "| test | GPU | ttref | status | reason |", "|---|---|---|---|---|"]
        for e in c["per_test"]:
            if e["status"] not in ("pass", "gpu_failed", "gpu_skipped"):
                out.append("| %s | %s | %s | %s | %s |" % (_md(e["test"]), e["gpu"], e["ttref"], e["status"], _md(e["reason"])))
    return "\n".join(out) + "\n"


# ---- phases (collect and run need the GPU machine) -------------------------------------------------

def _env():
    env = {k: v for k, v in os.environ.items() if k not in ("TTREF_TRITON", "TRITON_INTERPRET")}  # the real GPU
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(here, "python"), env.get("PYTHONPATH")) if p)
    return env


def _core(tests):
    for need in ("conftest.py", os.path.join("language", "test_core.py")):
        if not os.path.isfile(os.path.join(tests, need)):
            sys.exit("error: %s: no %s (give Triton's python/test/unit directory of the installed release)" % (tests, need))
    return os.path.join(tests, "language", "test_core.py")


def phase_collect(out, tests):
    path = os.path.join(out, "collected.txt")
    if os.path.exists(path):
        return
    _core(tests)
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--rootdir", tests,
                        os.path.join("language", "test_core.py")], capture_output=True, text=True, cwd=tests, env=_env())
    ids = parse_collected(p.stdout)
    if not ids:
        sys.exit("error: pytest collected no tests (exit %d): %s" % (p.returncode, (p.stdout + p.stderr)[-2000:]))
    with open(path, "w") as f:
        f.write("\n".join(ids) + "\n")


def phase_select(out, seed, exclude):
    path = os.path.join(out, "order.txt")
    if os.path.exists(path):
        return
    with open(os.path.join(out, "collected.txt")) as f:
        ids = [l.strip() for l in f if l.strip()]
    with open(path, "w") as f:
        f.write("\n".join(stratified_order(ids, seed, exclude)) + "\n")


def ran_tests(out, sub="chunks"):
    """The node ids of the done chunks of OUTDIR/SUB, in run order."""
    order, cdir = [], os.path.join(out, sub)
    for n in sorted(os.listdir(cdir)) if os.path.isdir(cdir) else []:
        if n.endswith(".done"):
            with open(os.path.join(cdir, n[:-5] + ".txt")) as f:
                order += [l.strip() for l in f if l.strip()]
    return order


def phase_run(out, tests, launches, chunk, deadline, per_test_s, on="gpu"):
    """on="gpu": the GPU run under the capture plugin until `launches` launches are seen.
    on="ttref": the tests the GPU run ran (else the whole order) with the GPU hidden, every
    launch on ttref (--ttref-triton, --device cpu); outcomes in OUTDIR/ttref/tests.jsonl."""
    suite = os.path.join(out, "suite")
    cdir = os.path.join(out, "chunks" if on == "gpu" else "ttref-chunks")
    os.makedirs(cdir, exist_ok=True)
    with open(os.path.join(out, "order.txt")) as f:
        order = [l.strip() for l in f if l.strip()]
    env = _env()
    extra = ["--ttref-capture=" + os.path.abspath(suite)]
    if on == "ttref":
        order = ran_tests(out) or order
        env["CUDA_VISIBLE_DEVICES"] = ""
        extra = ["--ttref-triton", "--ttref-outcomes=" + os.path.abspath(os.path.join(out, "ttref", "tests.jsonl")),
                 "--device", "cpu"]
    for i, ids in enumerate(chunks_of(order, chunk)):
        if on == "gpu" and len(read_jsonl(os.path.join(suite, "captures.jsonl"))) >= launches:
            return True
        done = os.path.join(cdir, "%04d.done" % i)
        if os.path.exists(done):
            continue
        left = deadline - time.time()
        if left < 120:  # too little left for a chunk: the next call starts it
            return False
        with open(os.path.join(cdir, "%04d.txt" % i), "w") as f:
            f.write("\n".join(ids) + "\n")
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", tests, "-p",
               "ttref.capture"] + extra + ids
        try:
            p = subprocess.run(cmd, cwd=tests, env=env, capture_output=True, text=True,
                               timeout=min(left, per_test_s * len(ids)))
            with open(os.path.join(cdir, "%04d.log" % i), "w") as f:
                f.write(p.stdout[-20000:] + p.stderr[-20000:])
        except subprocess.TimeoutExpired:  # what it recorded stays; tests it did not reach show "no outcome"
            with open(os.path.join(cdir, "%04d.log" % i), "w") as f:
                f.write("timed out\n")
        open(done, "w").close()  # never re-run a chunk: its launches are already in the suite
    return on != "gpu" or len(read_jsonl(os.path.join(suite, "captures.jsonl"))) >= launches


def quarantine(out, case, reason):
    """Move suite case `case` to OUTDIR/unsupported/ and record ttref's reason."""
    suite, q = os.path.join(out, "suite"), os.path.join(out, "unsupported")
    os.makedirs(q, exist_ok=True)
    for p in (os.path.join(suite, case + ".yaml"), os.path.join(suite, case)):
        if os.path.exists(p):
            shutil.move(p, os.path.join(q, os.path.basename(p)))
    with open(os.path.join(q, "reasons.jsonl"), "a") as f:
        f.write(json.dumps({"case": case, "reason": reason}) + "\n")


def phase_replay(out, ttref_bin, jobs):
    """Replay the captured suite on ttref (no GPU); writes OUTDIR/replay/results.json and
    OUTDIR/aliased.json. Returns the conform exit status (0 or 1; 2 only when the suite cannot
    be loaded for a reason no case is named in)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                    "python"))
    import ttref
    import ttref.capture as cap
    suite = os.path.join(out, "suite")
    for y in sorted(os.listdir(suite)) if os.path.isdir(suite) else []:
        if y.endswith(".yaml"):
            case = y[:-5]
            try:
                ttref.Kernel(os.path.join(suite, case, "kernel.ttir")).close()
            except ttref.Error as e:
                quarantine(out, case, str(e).splitlines()[0])
    rep = os.path.join(out, "replay")
    rc = 0
    if any(y.endswith(".yaml") for y in os.listdir(suite)):
        for _ in range(10000):
            shutil.rmtree(rep, ignore_errors=True)
            cfg = os.path.join(suite, "replay_gpu.yml")  # the GPU's subnormal flushing (ttref.capture writes it)
            p = subprocess.run([ttref_bin, "conform", suite, "--backend", os.path.join(suite, "replay_gpu.py"),
                                "--report-dir", rep, "-j", str(jobs), "--no-progress"]
                               + (["--config", cfg] if os.path.exists(cfg) else []), capture_output=True, text=True)
            rc = p.returncode
            if rc != 2:
                break
            q = quarantine_reason(p.stderr)
            if q is None or not os.path.exists(os.path.join(suite, q[0] + ".yaml")):
                sys.stderr.write(p.stderr)
                return 2
            quarantine(out, q[0], q[1])
    res = cap.replay_dir(suite)
    with open(os.path.join(out, "aliased.json"), "w") as f:
        json.dump(res, f, indent=1, sort_keys=True, default=str)
    return rc


def phase_summary(out, meta):
    suite = os.path.join(out, "suite")
    order = ran_tests(out)
    results = []
    rj = os.path.join(out, "replay", "results.json")
    if os.path.exists(rj):
        with open(rj) as f:
            results = json.load(f)["results"]
        for r in results:
            r["reason"] = explain(r.get("reason", ""), os.path.join(out, "replay"))
    aliased = []
    if os.path.exists(os.path.join(out, "aliased.json")):
        with open(os.path.join(out, "aliased.json")) as f:
            aliased = json.load(f)
    unsup = {e["case"]: e["reason"] for e in read_jsonl(os.path.join(out, "unsupported", "reasons.jsonl"))}
    gpu_tests = read_jsonl(os.path.join(suite, "tests.jsonl"))
    s = summarize(order, gpu_tests, read_jsonl(os.path.join(suite, "captures.jsonl")), results, aliased, unsup, meta)
    cpu_order = ran_tests(out, "ttref-chunks")
    if cpu_order:
        s["ttref_run"] = compare_outcomes(cpu_order, gpu_tests, read_jsonl(os.path.join(out, "ttref", "tests.jsonl")))
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(s, f, indent=1, sort_keys=True, default=str)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(render_md(s))
    return s


def _meta():
    m = {}
    for mod in ("triton", "torch"):
        try:
            m[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - replay and summary run without them
            pass
    try:
        import torch
        if torch.cuda.is_available():
            m["device"] = torch.cuda.get_device_name()
    except Exception:  # noqa: BLE001
        pass
    return m


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--tests", help="Triton's python/test/unit directory (collect and run)")
    ap.add_argument("--phases", default=",".join(PHASES), help="comma list of %s" % ", ".join(PHASES))
    ap.add_argument("--launches", type=int, default=300, help="stop running chunks once this many launches are seen")
    ap.add_argument("--chunk", type=int, default=60, help="tests per pytest process")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--exclude", default=None, help="regex of node ids not to run")
    ap.add_argument("--budget-s", type=float, default=540, help="stop starting chunks after this many seconds")
    ap.add_argument("--per-test-s", type=float, default=60, help="a chunk's time limit per test")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--on", choices=["gpu", "ttref"], default="gpu",
                    help="run phase: on the GPU with capture (default), or the GPU run's tests on ttref with the GPU "
                         "hidden (--ttref-triton --device cpu)")
    a = ap.parse_args(argv)
    phases = a.phases.split(",")
    bad = [p for p in phases if p not in PHASES]
    if bad:
        ap.error("unknown phase %s" % bad[0])
    deadline = time.time() + a.budget_s
    os.makedirs(a.out, exist_ok=True)
    if ("collect" in phases or "run" in phases) and not a.tests:
        ap.error("--tests is needed for collect and run")
    if "collect" in phases:
        phase_collect(a.out, os.path.abspath(a.tests))
    if "select" in phases:
        phase_select(a.out, a.seed, a.exclude)
    if "run" in phases:
        enough = phase_run(a.out, os.path.abspath(a.tests), a.launches, a.chunk, deadline, a.per_test_s, a.on)
        print("run (%s): %d launches seen%s" % (a.on, len(read_jsonl(os.path.join(a.out, "suite", "captures.jsonl"))),
                                                "" if enough else " (budget spent: call again to go on)"))
    rc = 0
    if "replay" in phases:
        rc = phase_replay(a.out, os.environ.get("TTREF_BIN", "ttref"), a.jobs)
        if rc == 2:
            return 2
    if "summary" in phases:
        s = phase_summary(a.out, _meta())
        t = s["launch_totals"]
        print("%d tests, %d launches: %d agree, %d disagree, %d replay errors, %d unsupported, %d not captured; "
              "agreement %s%%" % (s["tests"], t["launches"], t["agree"], t["disagree"], t["error"], t["unsupported"],
                                  t["uncaptured"], s["agreement"]))
        if "ttref_run" in s:
            print("on ttref (GPU hidden): %s; pass rate %s%%" % (s["ttref_run"]["status"], s["ttref_run"]["pass_rate"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
