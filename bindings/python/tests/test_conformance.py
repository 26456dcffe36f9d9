"""The WPT conformance suite (tests/conformance/wpt) through the Python API, classic and hollow,
with the C++ runner's known failures: none fails, and when WEBNN_TOOL names the `webnn` command,
the count equals the C++ runner's on the same backend."""
import os
import re
import subprocess

import webnn

from conformance.runner import run_conformance, summary_line

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
VECTORS = os.path.join(ROOT, "tests", "conformance", "wpt")


def test_the_wpt_conformance_suite_passes_through_the_python_api():
    backend = webnn.ml.create_context().backend_name
    known = os.path.join(ROOT, "tests", "conformance", "known_failures", f"{backend}.txt")
    report = run_conformance(VECTORS, known_failures=known)
    print(summary_line(report))
    assert report["failures"] == []
    assert report["now_passing"] == []
    assert report["stale"] == []
    assert report["passed"] > 1700
    tool = os.environ.get("WEBNN_TOOL")
    if tool:
        output = subprocess.run([tool, "conformance", VECTORS, "--backend", backend,
                                 "--known-failures", known], capture_output=True, text=True).stdout
        cpp = re.search(r"conformance: \d+ passed, \d+ failed, \d+ known", output).group(0)
        assert summary_line(report) == cpp
