"""The WPT conformance suite through the WebNN API for Python: every case of every vector file,
classic and (for cases with constants) hollow, with the C++ runner's known-failure list
(tests/conformance/known_failures/<backend>.txt). Counted as `webnn conformance` counts: a case
passes when every path passes; a listed case that fails is "known"."""
import json
import os

import webnn

from .replay import replay_case


def load_known_failures(path):
    known = {}
    if not path:
        return known
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if not line.strip() or line.startswith("#"):
                continue
            at = line.rfind("  #")
            if at < 0:
                raise ValueError(f"{path}: no reason on line {line!r}")
            known[line[:at].strip()] = line[at + 3:].strip()
    return known


def load_cases(directory, ops=None):
    cases = []
    for file in sorted(os.listdir(directory)):
        if not file.endswith(".json") or file == "index.json":
            continue
        op = file[: -len(".json")]
        if ops and op not in ops:
            continue
        with open(os.path.join(directory, file), encoding="utf-8") as f:
            vectors = json.load(f)
        for case in vectors["cases"]:
            cases.append({**case, "op": op, "id": f"{op}/{case['name']}"})
    return cases


def run_conformance(directory, known_failures=None, ops=None, backend=None, on_case=None):
    known = load_known_failures(known_failures)
    context = webnn.ml.create_context(backend)
    report = {"backend": context.backend_name, "passed": 0, "failed": 0, "known": 0,
              "failures": [], "now_passing": []}
    seen = set()
    for case in load_cases(directory, ops):
        seen.add(case["id"])
        paths = ["classic"]
        if any(tensor.get("constant") for tensor in case["inputs"].values()):
            paths.append("hollow")
        failures = []
        for path in paths:
            failure = replay_case(context, case, path)
            if failure:
                failures.append(f"{path}: {failure}")
        reason = known.get(case["id"])
        if not failures:
            report["passed"] += 1
            if reason:
                report["now_passing"].append(case["id"])
        elif reason:
            report["known"] += 1
        else:
            report["failed"] += 1
            report["failures"].append({"id": case["id"], "failures": failures})
        if on_case:
            on_case(case, failures)
    report["stale"] = [] if ops else sorted(k for k in known if k not in seen)
    context.destroy()
    return report


def summary_line(report):
    return (f"conformance: {report['passed']} passed, {report['failed']} failed, "
            f"{report['known']} known")
