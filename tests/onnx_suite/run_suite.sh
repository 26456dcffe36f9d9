#!/usr/bin/env bash
# tests/onnx_suite: webnn onnx-test on the ONNX node tests against a backend's expected results.
#   run_suite.sh WEBNN_TOOL NODE_TESTS_DIR BACKEND EXPECTED_FILE SCOPE_OPS
# Exits 77 (CTest SKIP) when NODE_TESTS_DIR is missing.
set -euo pipefail
tool="$1" cases="$2" backend="$3" expected="$4" scope="$5"
if [[ ! -d "$cases" ]]; then
  echo "SKIP: $cases is missing (apt-get install libonnx-testdata)"
  exit 77
fi
exec "$tool" onnx-test "$cases" --backend "$backend" --expected "$expected" --scope-ops "$scope"
