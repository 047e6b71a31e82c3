"""Plain-assert tests of scripts/gpu/run_test_core.py (the test_core sample runner) without
Triton, torch, pytest or a GPU: collection parsing, the stratified order, chunking, the
replay phase on a captured suite (cases ttref cannot load are set aside with ttref's message,
the rest judged by `ttref conform`, aliased launches by ttref.capture), the summary and its
markdown, and the pytest plugin's per-test records. Run by tests/python/test_triton_bind.sh;
expected values come from the runner's inputs or from ttref itself."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types

import numpy as np

import ttref
import ttref.capture as cap

SRC = os.environ.get("TTREF_SRCDIR", ".")
DATA = os.environ.get("TTREF_TEST_DATA", "tests/data")
BIN = os.environ.get("TTREF_BIN", "./ttref")
CORPUS = os.path.join(DATA, "corpus", "triton-3.6-h100")
RUNNER = os.path.join(SRC, "scripts", "gpu", "run_test_core.py")
TMP = tempfile.mkdtemp(prefix="ttref-rtc-")

_spec = importlib.util.spec_from_file_location("run_test_core", RUNNER)
rtc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rtc)


def test_parse_collected():
    text = ("language/test_core.py::test_empty_kernel[int8]\n"
            "language/test_core.py::test_bin_op[1-float32-float32-+]\n"
            "language/test_core.py::test_empty_kernel[int8]\n"
            "\n"
            "=============================== warnings summary ===============================\n"
            "language/test_core.py:42: DeprecationWarning: something::odd\n"
            "  language/test_core.py::indented[x]\n"
            "12345 tests collected in 31.2s\n")
    ids = rtc.parse_collected(text)
    assert ids == ["language/test_core.py::test_empty_kernel[int8]", "language/test_core.py::test_bin_op[1-float32-float32-+]",
                   "language/test_core.py::indented[x]"], ids


def test_stratified_order():
    ids = ["f.py::a[%d]" % i for i in range(7)] + ["f.py::b[%d]" % i for i in range(3)] + ["f.py::c"] + \
          ["f.py::d[%d]" % i for i in range(5)]
    o = rtc.stratified_order(ids, "1")
    assert sorted(o) == sorted(ids) and len(set(o)) == len(o)
    # every prefix is balanced: the first 4 are one of each function, then the next round
    assert [rtc.function_of(n) for n in o[:4]] == ["f.py::a", "f.py::b", "f.py::c", "f.py::d"], o
    assert sorted(rtc.function_of(n) for n in o[4:7]) == ["f.py::a", "f.py::b", "f.py::d"], o
    assert o == rtc.stratified_order(list(ids), "1")
    assert o != rtc.stratified_order(ids, "2") and sorted(rtc.stratified_order(ids, "2")) == sorted(ids)
    assert [n for n in rtc.stratified_order(ids, "1", exclude=r"::(a|d)\[")] == [n for n in o if "::a[" not in n and "::d[" not in n]
    ch = rtc.chunks_of(o, 6)
    assert [len(c) for c in ch] == [6, 6, 4] and sum(ch, []) == o


def corpus_record(case):
    d = os.path.join(CORPUS, case)
    cj = json.load(open(os.path.join(d, "case.json")))
    args = []
    for a in cj["args"]:
        if a["kind"] == "ptr":
            args.append({"name": a["name"], "kind": "ptr", "dtype": a["dtype"],
                         "before": np.load(os.path.join(d, a["name"] + ".in.npy")),
                         "after": np.load(os.path.join(d, a["name"] + ".gpu.npy"))})
        else:
            args.append({"name": a["name"], "kind": "scalar", "value": a["value"]})
    return {"kernel": cj["kernel"], "ttir": open(os.path.join(d, "kernel.ttir")).read(), "grid": cj["grid"], "args": args}


def aliased_record(corrupt=False):
    vadd = open(os.path.join(DATA, "ttir", "vadd_f32.ttir")).read()
    n = 4096
    st = np.arange(2 * n, dtype=np.float32)
    after = st.copy()
    after[n:] = st[:n] + st[n:]  # in place: o = x + y with x = st[0:n], y = o = st[n:2n]
    if corrupt:
        after[n + 3] += 1
    return {"kernel": "vadd", "ttir": vadd, "grid": [4], "storages": [(st, after)],
            "args": [{"name": "x_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": 0},
                     {"name": "y_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": n * 4},
                     {"name": "o_ptr", "kind": "ptr", "dtype": "f32", "storage": 0, "offset": n * 4},
                     {"name": "n", "kind": "scalar", "value": n}]}


def test_quarantine_reason():
    suite = os.path.join(TMP, "qsuite")
    name = cap.write_case(suite, corpus_record("int_op0"))
    y = os.path.join(suite, name + ".yaml")
    with open(y) as f:
        text = f.read()
    with open(y, "w") as f:
        f.write(text.replace("args:\n", "args:\n  bogus: 3\n", 1))
    p = subprocess.run([BIN, "conform", suite, "--backend", "reference", "--report-dir", os.path.join(TMP, "qrep")],
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stdout + p.stderr
    q = rtc.quarantine_reason(p.stderr)
    assert q is not None and q[0] == name and "bogus" in q[1], (q, p.stderr)
    assert rtc.quarantine_reason("error: cannot open suite\n") is None


def test_replay_and_summary():
    """A captured suite as the run phase leaves it; the replay and summary phases run here."""
    out = os.path.join(TMP, "sample")
    suite = os.path.join(out, "suite")
    T = "language/test_core.py::"
    tests = [T + "test_bin_op[int]", T + "test_unary[exp]", T + "test_bad[ttir]", T + "test_bad[yaml]",
             T + "test_alias[ok]", T + "test_alias[bad]", T + "test_compile_error", T + "test_skip", T + "test_desc",
             T + "test_oob", T + "test_inline_asm"]
    c_int = cap.write_case(suite, corpus_record("int_op0"))
    c_float = cap.write_case(suite, corpus_record("binary_op0"))
    wrong = corpus_record("int_op0")
    wrong["args"][[a["name"] for a in wrong["args"]].index("o_ptr")]["after"].reshape(-1)[9] += 1
    c_wrong = cap.write_case(suite, wrong)
    broken = corpus_record("int_op0")
    broken["ttir"] = broken["ttir"].replace("tt.load", "tt.frobnicate", 1)
    c_broken = cap.write_case(suite, broken)
    c_yaml = cap.write_case(suite, corpus_record("int_op0"))
    with open(os.path.join(suite, c_yaml + ".yaml")) as f:
        text = f.read()
    with open(os.path.join(suite, c_yaml + ".yaml"), "w") as f:
        f.write(text.replace("args:\n", "args:\n  bogus: 3\n", 1))
    oob = corpus_record("int_op0")
    n_at = [a["name"] for a in oob["args"]].index("n")
    oob["args"][n_at]["value"] = 10 ** 6  # the reference run reads past the buffers: ttref faults
    c_oob = cap.write_case(suite, oob)
    asm = corpus_record("int_op0")  # an op ttref refuses by design: the launch is unsupported, not a replay error
    asm["ttir"] = asm["ttir"].replace(
        "%offs_3 = arith.addi %offs_2, %offs_1 : tensor<512xi32>",
        '%offs_3 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, '
        'pure = true} %offs_2 : tensor<512xi32> -> tensor<512xi32>', 1)
    assert "elementwise_inline_asm" in asm["ttir"]
    c_asm = cap.write_case(suite, asm)
    a_ok = cap.write_aliased(suite, aliased_record())
    a_bad = cap.write_aliased(suite, aliased_record(corrupt=True))
    caps = [(tests[0], {"case": c_int}), (tests[0], {"case": c_float}), (tests[1], {"case": c_wrong}),
            (tests[2], {"case": c_broken}), (tests[3], {"case": c_yaml}), (tests[4], {"aliased": a_ok}),
            (tests[5], {"aliased": a_bad}), (tests[8], {"uncaptured": "argument desc has a type the suite format cannot hold"}),
            (tests[9], {"case": c_oob}), (tests[10], {"case": c_asm})]
    for t, e in caps:
        cap.note_launch(suite, dict(e, test=t, kernel="k"))
    with open(os.path.join(suite, "tests.jsonl"), "w") as f:
        for t in tests:
            e = {"test": t, "when": "call", "outcome": "passed", "reason": ""}
            if t.endswith("test_compile_error"):
                e.update(outcome="failed", reason="E   triton.compiler.errors.CompilationError: at 3:4")
            if t.endswith("test_skip"):
                e.update(when="setup", outcome="skipped", reason="bfloat16 is not supported")
            f.write(json.dumps(e) + "\n")
    os.makedirs(os.path.join(out, "chunks"))
    with open(os.path.join(out, "chunks", "0000.txt"), "w") as f:
        f.write("\n".join(tests + tests[:2]) + "\n")  # two tests listed again: counted once
    open(os.path.join(out, "chunks", "0000.done"), "w").close()
    env = dict(os.environ, TTREF_BIN=BIN)
    p = subprocess.run([sys.executable, RUNNER, out, "--phases", "replay,summary", "--jobs", "1"], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    s = json.load(open(os.path.join(out, "summary.json")))
    st = {e["test"][len(T):]: e["status"] for e in s["per_test"]}
    assert st == {"test_bin_op[int]": "pass", "test_unary[exp]": "fail", "test_bad[ttir]": "unsupported",
                  "test_bad[yaml]": "unsupported", "test_alias[ok]": "pass", "test_alias[bad]": "fail",
                  "test_compile_error": "gpu_failed", "test_skip": "gpu_skipped", "test_desc": "unsupported",
                  "test_oob": "fail", "test_inline_asm": "unsupported"}, st
    why = {e["test"][len(T):]: e["reason"] for e in s["per_test"]}
    assert "tt.frobnicate" in why["test_bad[ttir]"] and "bogus" in why["test_bad[yaml]"], why
    assert why["test_unary[exp]"].startswith(c_wrong + ": FAIL") and "aliased/" + a_bad + ": FAIL" in why["test_alias[bad]"], why
    assert "CompilationError" in why["test_compile_error"] and "UNCAPTURED" in why["test_desc"], why
    assert c_oob + ": ERROR: the reference run failed" in why["test_oob"] and "out-of-bounds" in why["test_oob"], why
    t = s["launch_totals"]
    assert "elementwise_inline_asm" in why["test_inline_asm"], why
    assert (t["launches"], t["agree"], t["disagree"], t["error"], t["unsupported"], t["uncaptured"]) == (10, 3, 2, 1, 3, 1), t
    assert s["agreement"] == 50.0 and s["agreement_all"] == 30.0, s
    assert sorted(os.listdir(os.path.join(out, "unsupported"))) == sorted([c_broken, c_broken + ".yaml", c_yaml,
                                                                           c_yaml + ".yaml", "reasons.jsonl"])
    md = open(os.path.join(out, "summary.md")).read()
    for needle in ("| 10 | 3 | 2 | 1 | 3 | 1 | 0 |", "Agreement (judged launches): 50.00%", c_wrong, "aliased/" + a_bad,
                   "tt.frobnicate", "test_skip | gpu_skipped | bfloat16 is not supported"):
        assert needle in md, (needle, md)
    assert "10 launches: 3 agree, 2 disagree, 1 replay errors, 3 unsupported, 1 not captured" in p.stdout, p.stdout
    # usage errors
    p = subprocess.run([sys.executable, RUNNER, out, "--phases", "run"], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "--tests" in p.stderr, p.stderr
    p = subprocess.run([sys.executable, RUNNER, out, "--phases", "replay,frob"], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "unknown phase frob" in p.stderr, p.stderr


def test_compare_outcomes():
    """The CPU run (the GPU run's tests on ttref.triton with the GPU hidden) against the GPU's."""
    T = "t.py::"
    order = [T + n for n in ("a", "b", "c", "d", "e", "f", "g")]
    gpu = [{"test": T + "a", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "b", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "c", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "d", "when": "call", "outcome": "failed", "reason": "E   GPU said no"},
           {"test": T + "e", "when": "setup", "outcome": "skipped", "reason": "needs sm100"},
           {"test": T + "g", "when": "call", "outcome": "passed", "reason": ""}]
    cpu = [{"test": T + "a", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "b", "when": "call", "outcome": "failed", "reason": "E   ttref.KernelFault: out-of-bounds"},
           {"test": T + "c", "when": "setup", "outcome": "skipped", "reason": "Only for cuda or HIP"},
           {"test": T + "d", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "e", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "f", "when": "call", "outcome": "passed", "reason": ""},
           {"test": T + "a", "when": "teardown", "outcome": "passed", "reason": ""}]
    c = rtc.compare_outcomes(order, gpu, cpu)
    assert [(e["test"][len(T):], e["status"]) for e in c["per_test"]] == [
        ("a", "pass"), ("b", "ttref_fail"), ("c", "ttref_skip"), ("d", "gpu_failed"), ("e", "gpu_skipped"),
        ("f", "pass"), ("g", "not_run")], c
    assert c["per_test"][1]["reason"] == "E   ttref.KernelFault: out-of-bounds" and c["pass_rate"] == 66.67, c
    s = rtc.summarize([], [], [], [], [], {})
    s["ttref_run"] = c
    md = rtc.render_md(s)
    assert "pass rate (pass / (pass + ttref_fail)): 66.67%" in md and "| t.py::b | passed | failed | ttref_fail |" in md, md
    assert "| t.py::a |" not in md.split("## The same tests")[1], md
    # a test that reads a GPU compilation stage (asm["ptx"]) is not a ttref failure, and says why
    import ttref.triton as tt
    k = tt.TTIRKernel("k", "tt.func", "k.ttir", None, {}, {})
    try:
        k.asm["ptx"]
        raise AssertionError("no KeyError")
    except KeyError as e:
        why = "E       KeyError: %s" % e
    assert k.asm["ttir"] == "tt.func" and "ptx" in why
    cpu[1] = {"test": T + "b", "when": "call", "outcome": "failed", "reason": why}
    c = rtc.compare_outcomes(order, gpu, cpu)
    assert c["per_test"][1]["status"] == "needs_gpu_code" and c["pass_rate"] == 100.0, c
    for reason, st in (("E   ttref.BadInput: k.ttir:15:5: error: 'tt.elementwise_inline_asm' is not supported by the "
                        "interpreter", "ttref_unsupported"), ("E   RuntimeError: No CUDA GPUs are available", "needs_cuda"),
                       ("E   AssertionError: 5 != 6", "ttref_fail")):
        cpu[1] = {"test": T + "b", "when": "call", "outcome": "failed", "reason": reason}
        assert rtc.compare_outcomes(order, gpu, cpu)["per_test"][1]["status"] == st, reason


FAKE_PYTEST = r'''
"""A stand-in for `python3 -m pytest`: --collect-only prints FAKE_IDS' node ids; a run records,
as the ttref.capture plugin would, one launch and one outcome per node id, and logs its argv."""
import json, os, sys
argv = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(json.dumps({"argv": argv, "cuda": os.environ.get("CUDA_VISIBLE_DEVICES"), "cwd": os.getcwd()}) + "\n")
if "--collect-only" in argv:
    print(open(os.environ["FAKE_IDS"]).read() + "\n12 tests collected in 0.1s")
    sys.exit(0)
ids = [a for a in argv if "::" in a]
opt = lambda name: next((a.split("=", 1)[1] for a in argv if a.startswith(name + "=")), None)
cap, outs = opt("--ttref-capture"), opt("--ttref-outcomes")
for t in ids:
    rec = {"test": t, "when": "call", "outcome": "passed", "reason": ""}
    if cap:
        os.makedirs(cap, exist_ok=True)
        open(os.path.join(cap, "captures.jsonl"), "a").write(json.dumps({"test": t, "kernel": "k", "uncaptured": "fake"}) + "\n")
        open(os.path.join(cap, "tests.jsonl"), "a").write(json.dumps(rec) + "\n")
    if outs:
        os.makedirs(os.path.dirname(outs), exist_ok=True)
        open(outs, "a").write(json.dumps(rec) + "\n")
'''


def test_run_phase_with_a_fake_pytest():
    """collect, select and run (GPU and --on ttref) with a stand-in pytest: chunks stop at the
    launch target, a second call goes on without re-running a chunk, the budget is honoured,
    and the CPU run hides the GPU and asks for --ttref-triton --device cpu."""
    root = os.path.join(TMP, "fakepytest")
    os.makedirs(os.path.join(root, "pytest"))
    open(os.path.join(root, "pytest", "__init__.py"), "w").close()
    with open(os.path.join(root, "pytest", "__main__.py"), "w") as f:
        f.write(FAKE_PYTEST)
    tests = os.path.join(TMP, "unit")
    os.makedirs(os.path.join(tests, "language"))
    for f in ("conftest.py", "language/test_core.py"):
        open(os.path.join(tests, f), "w").close()
    ids = ["language/test_core.py::test_%s[%d]" % (fn, i) for fn in "abc" for i in range(4)]
    with open(os.path.join(TMP, "ids.txt"), "w") as f:
        f.write("\n".join(ids))
    log = os.path.join(TMP, "fakepytest.log")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]), FAKE_IDS=os.path.join(TMP, "ids.txt"),
               FAKE_LOG=log, CUDA_VISIBLE_DEVICES="0", TTREF_BIN=BIN)
    out = os.path.join(TMP, "runout")
    run = lambda *a: subprocess.run([sys.executable, RUNNER, out, "--tests", tests, "--chunk", "3"] + list(a),
                                    capture_output=True, text=True, env=env)
    p = run("--launches", "5", "--phases", "collect,select,run")
    assert p.returncode == 0 and "run (gpu): 6 launches seen" in p.stdout, p.stdout + p.stderr
    order = open(os.path.join(out, "order.txt")).read().split()
    assert sorted(order) == sorted(ids) and order == rtc.stratified_order(ids, "1")
    assert sorted(os.listdir(os.path.join(out, "chunks"))) == ["0000.done", "0000.log", "0000.txt", "0001.done", "0001.log",
                                                               "0001.txt"]
    p = run("--launches", "8", "--phases", "collect,select,run")  # goes on: one more chunk, none re-run
    assert "run (gpu): 9 launches seen" in p.stdout, p.stdout + p.stderr
    assert rtc.ran_tests(out) == order[:9]
    p = run("--launches", "12", "--phases", "run", "--budget-s", "60")  # under 2 minutes left: no chunk starts
    assert "9 launches seen (budget spent" in p.stdout, p.stdout + p.stderr
    p = run("--on", "ttref", "--phases", "run,summary")
    assert p.returncode == 0 and "on ttref (GPU hidden): {'pass': 9}; pass rate 100.0%" in p.stdout, p.stdout + p.stderr
    calls = [json.loads(l) for l in open(log)]
    assert sum("--collect-only" in c["argv"] for c in calls) == 1 and all(c["cwd"] == tests for c in calls)
    gpu = [c for c in calls if "--ttref-triton" not in c["argv"] and "--collect-only" not in c["argv"]]
    cpu = [c for c in calls if "--ttref-triton" in c["argv"]]
    assert len(gpu) == 3 and all(c["cuda"] == "0" and "ttref.capture" in c["argv"] for c in gpu), gpu
    assert len(cpu) == 3 and all(c["cuda"] == "" and c["argv"][-4:-3] != ["--ttref-capture"] and "--device" in c["argv"]
                                 and c["argv"][c["argv"].index("--device") + 1] == "cpu" for c in cpu), cpu
    assert sum((c["argv"][c["argv"].index("--device") + 2:] for c in cpu), []) == order[:9]


class _Report:
    def __init__(self, nodeid, when, outcome, longrepr=None, text=""):
        self.nodeid, self.when, self.outcome, self.longrepr, self.longreprtext = nodeid, when, outcome, longrepr, text


def test_pytest_plugin_records():
    """The plugin's hooks with pytest-shaped fakes: the test id reaches the capture while a test
    runs, and every test's outcome lands in DIR/tests.jsonl with the reason's E line."""
    d = os.path.join(TMP, "plug")
    fake = types.SimpleNamespace(dir=d, test=None)
    cap._plugin["cap"] = fake
    cap._plugin["outcomes"] = os.path.join(TMP, "plug-out", "cpu.jsonl")  # --ttref-outcomes, as well
    try:
        cap.pytest_runtest_protocol(types.SimpleNamespace(nodeid="t.py::test_a[1]"), None)
        assert fake.test == "t.py::test_a[1]"
        cap.pytest_runtest_logreport(_Report("t.py::test_a[1]", "setup", "passed"))  # not recorded
        cap.pytest_runtest_logreport(_Report("t.py::test_a[1]", "call", "failed",
                                             text="def test_a():\n>   assert x\nE   AssertionError: 3 != 4\n\nt.py:9: AssertionError"))
        cap.pytest_runtest_logfinish("t.py::test_a[1]", None)
        assert fake.test is None
        cap.pytest_runtest_logreport(_Report("t.py::test_b", "setup", "skipped", longrepr=("t.py", 3, "Skipped: no bf16")))
        cap.pytest_runtest_logreport(_Report("t.py::test_c", "call", "passed"))
    finally:
        cap._plugin.pop("cap", None)
        cap._plugin.pop("outcomes", None)
    assert open(os.path.join(d, "tests.jsonl")).read() == open(os.path.join(TMP, "plug-out", "cpu.jsonl")).read()
    got = [json.loads(l) for l in open(os.path.join(d, "tests.jsonl"))]
    # the options: --ttref-triton runs launches on ttref, so it cannot be combined with capturing
    opts = []
    cap.pytest_addoption(types.SimpleNamespace(addoption=lambda name, **kw: opts.append(name)))
    assert opts == ["--ttref-capture", "--ttref-triton", "--ttref-outcomes"], opts
    conf = lambda **v: types.SimpleNamespace(getoption=lambda name, default=None: v.get(name, default))
    raises_bad = False
    try:
        cap.pytest_configure(conf(**{"--ttref-triton": True, "--ttref-capture": d}))
    except ttref.BadInput as e:
        raises_bad = "cannot be combined with --ttref-triton" in str(e)
    assert raises_bad and "cap" not in cap._plugin
    cap.pytest_configure(conf(**{"--ttref-outcomes": "x.jsonl"}))
    assert cap._plugin.pop("outcomes") == "x.jsonl" and "cap" not in cap._plugin
    assert got == [{"test": "t.py::test_a[1]", "when": "call", "outcome": "failed", "reason": "E   AssertionError: 3 != 4"},
                   {"test": "t.py::test_b", "when": "setup", "outcome": "skipped", "reason": "Skipped: no bf16"},
                   {"test": "t.py::test_c", "when": "call", "outcome": "passed", "reason": ""}], got


if __name__ == "__main__":
    n = fail = 0
    for name, fn in list(globals().items()):
        if name.startswith("test_") and callable(fn):
            n += 1
            try:
                fn()
                print("ok %d - %s" % (n, name))
            except Exception as e:  # noqa: BLE001
                fail += 1
                print("not ok %d - %s: %s: %s" % (n, name, type(e).__name__, e))
    print("1..%d" % n)
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(1 if fail else 0)
