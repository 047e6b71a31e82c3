#!/usr/bin/env python3
"""Combine the report directories of one backend's runs over several suites into one scoreboard.

    python3 scripts/scoreboard.py --out docs/scoreboards/triton-3.6-h100.json [--md FILE.md] \
        [--root REPO] REPORT_DIR...

Each REPORT_DIR is a `ttref conform --report-dir` of one suite (results.json, run.json). The JSON
(format "ttref-scoreboard", version 1) holds per suite its run (suite, config and its sha256,
backend version, start time), its summary and every item's result as results.json has it, plus the
totals over all suites. Paths recorded by the runs (relative to wherever the run's report directory
was, or absolute on the machine that ran it) are rewritten relative to REPO (default: the current
directory) by the longest trailing part that exists there, so the file never shows a machine's
paths. A suite given twice is merged when the second run holds only items the first lacks (cases added
after the first run; recorded under later_runs), and refused when an item repeats. `--md` writes a summary: per suite the verdict counts, then every item that is not PASS with
its verdict and reason (the triage: an expected failure's reason comes from the backend config).
Exit 0, or 2 with one line on stderr for a missing or malformed report directory.
Only the standard library: it runs wherever ttref's reports are.
"""
import argparse
import json
import os
import sys

VERDICTS = ["PASS", "QUALITY_WARNING", "XFAIL", "UNSUPPORTED", "SKIP", "FAIL", "XPASS", "ERROR", "CRASH", "TIMEOUT"]


class Bad(Exception):
    pass


def rel_to_root(path, root):
    """The longest trailing part of `path` that names something under root, or path's basename."""
    if not path:
        return path
    prefix = ""
    if ":" in path and not os.path.isabs(path) and path.split(":", 1)[0] in ("batch", "plugin"):
        prefix, path = path.split(":", 1)[0] + ":", path.split(":", 1)[1]
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    for i in range(len(parts)):
        tail = parts[i:]
        if ".." in tail:
            continue
        if os.path.exists(os.path.join(root, *tail)):
            return prefix + "/".join(tail)
    return prefix + (parts[-1] if parts else path)


def load(d):
    out = {}
    for name in ("results.json", "run.json"):
        p = os.path.join(d, name)
        try:
            with open(p) as f:
                out[name] = json.load(f)
        except OSError as e:
            raise Bad("%s: cannot read: %s" % (p, e.strerror))
        except ValueError as e:
            raise Bad("%s: not JSON: %s" % (p, e))
    r = out["results.json"]
    if not isinstance(r, dict) or r.get("format") != "ttref-conform-results" or not isinstance(r.get("results"), list) \
            or not isinstance(r.get("summary"), dict):
        raise Bad("%s: not a ttref conform results.json (format ttref-conform-results)" % os.path.join(d, "results.json"))
    return r, out["run.json"]


def combine(dirs, root):
    suites, totals, backend, name = [], {v: 0 for v in VERDICTS}, None, None
    totals.update(total=0, unexpected=0)
    seen = {}
    for d in dirs:
        r, run = load(d)
        env = r.get("environment", {})
        suite = rel_to_root(run.get("suite") or env.get("suite", ""), root)
        if suite in seen:  # a later run of items the first did not have (cases added since): merged
            prev = seen[suite]
            ids = {x.get("id") for x in prev["results"]}
            dup = [x.get("id") for x in r["results"] if x.get("id") in ids]
            if dup:
                raise Bad("%s: suite %s appears twice with the same item %s" % (d, suite, dup[0]))
            prev["results"] += r["results"]
            for k, v in r["summary"].items():
                if isinstance(v, int) and k in prev["summary"]:
                    prev["summary"][k] += v
                    if k in totals:
                        totals[k] += v
            prev.setdefault("later_runs", []).append({"started": run.get("started", ""), "items": len(r["results"]),
                                                      "config": rel_to_root(run.get("config", ""), root)})
            continue
        b = (env.get("backend_version"), env.get("ttref_version"), env.get("semantics_version"))
        if backend is None:
            backend = b
        elif b != backend:
            raise Bad("%s: another backend or ttref version (%s) than the first directory (%s)" % (d, b, backend))
        if run.get("config") and not name:
            name = run.get("backend")  # the backend config's name
        s = r["summary"]
        for k in totals:
            totals[k] += int(s.get(k, 0) or 0)
        seen[suite] = {"suite": suite, "suite_name": run.get("suite_name", os.path.basename(suite)),
                       "backend_spec": rel_to_root(run.get("backend_spec", ""), root),
                       "config": rel_to_root(run.get("config", ""), root), "config_sha256": run.get("config_sha256", ""),
                       "started": run.get("started", ""), "jobs": run.get("jobs"), "shard": run.get("shard", "0/1"),
                       "summary": dict(s), "results": list(r["results"])}
        suites.append(seen[suite])
    if backend is None:
        raise Bad("no report directory given")
    return {"format": "ttref-scoreboard", "format_version": 1,
            "backend": name or rel_to_root(suites[0]["backend_spec"], root), "backend_version": backend[0],
            "ttref_version": backend[1], "semantics_version": backend[2], "totals": totals, "suites": suites}


def dump(board, f):
    """Indented JSON with one item result per line: readable diffs, a compact file."""
    head = {k: v for k, v in board.items() if k != "suites"}
    f.write("{\n")
    for k, v in head.items():
        f.write("  %s: %s,\n" % (json.dumps(k), json.dumps(v, sort_keys=True)))
    f.write('  "suites": [\n')
    for i, s in enumerate(board["suites"]):
        f.write("    {\n")
        for k, v in s.items():
            if k != "results":
                f.write("      %s: %s,\n" % (json.dumps(k), json.dumps(v, sort_keys=True)))
        f.write('      "results": [\n')
        res = s["results"]
        for j, item in enumerate(res):
            f.write("        %s%s\n" % (json.dumps(item, separators=(",", ":")), "," if j + 1 < len(res) else ""))
        f.write("      ]\n    }%s\n" % ("," if i + 1 < len(board["suites"]) else ""))
    f.write("  ]\n}\n")


def md(board):
    t = board["totals"]
    out = ["# Scoreboard: %s" % board["backend"], "",
           "%s; ttref %s, semantics %s. Generated by `scripts/scoreboard.py` from the runs' report directories; "
           "the JSON beside this file has every item." % (board["backend_version"], board["ttref_version"],
                                                        board["semantics_version"]), "",
           "| suite | config | items | unexpected | " + " | ".join(VERDICTS) + " |",
           "|---|---|---|---|" + "---|" * len(VERDICTS)]
    for s in board["suites"]:
        sm = s["summary"]
        out.append("| `%s` | %s | %d | %d | %s |" % (s["suite"], "`%s`" % s["config"] if s["config"] else "-",
                                                    sm.get("total", 0), sm.get("unexpected", 0),
                                                    " | ".join(str(sm.get(v, 0)) for v in VERDICTS)))
    out.append("| **all** | | %d | %d | %s |" % (t["total"], t["unexpected"], " | ".join(str(t[v]) for v in VERDICTS)))
    for s in board["suites"]:
        rows = [r for r in s["results"] if r.get("verdict") != "PASS"]
        out += ["", "## `%s`: every item that is not PASS (%d)" % (s["suite"], len(rows)), ""]
        if not rows:
            out.append("(none)")
            continue
        out += ["| item | verdict | why |", "|---|---|---|"]
        for r in rows:
            why = r.get("expected_reason") or r.get("reason") or ""
            if r.get("verdict") == "QUALITY_WARNING" and not why:
                why = "within the bound, max %.3g of it (%s)" % (r.get("max_ratio", 0), r.get("mode", ""))
            out.append("| `%s` | %s | %s |" % (r.get("id"), r.get("verdict"), str(why).replace("|", "\\|").replace("\n", " ")))
    return "\n".join(out) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", metavar="REPORT_DIR")
    ap.add_argument("--out", required=True)
    ap.add_argument("--md")
    ap.add_argument("--root", default=".")
    a = ap.parse_args(argv)
    try:
        board = combine(a.dirs, a.root)
    except Bad as e:
        sys.stderr.write("scoreboard.py: error: %s\n" % e)
        return 2
    with open(a.out, "w") as f:
        dump(board, f)
    if a.md:
        with open(a.md, "w") as f:
            f.write(md(board))
    t = board["totals"]
    print("%s: %d suites, %d items, %d unexpected" % (a.out, len(board["suites"]), t["total"], t["unexpected"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
