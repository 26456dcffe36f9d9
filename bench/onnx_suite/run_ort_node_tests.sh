#!/usr/bin/env bash
# ONNX Runtime (onnxruntime-node, CPU, 2 intra-op threads) on the ONNX backend node tests, the cases
# tests/onnx_suite runs through webnn: writes OUT_FILE in the format of webnn's expected-results
# files (tests/onnx_suite/expected/*.txt: <case> pass | refused|failed|wrong <reason>, sorted by
# name), so ONNX Runtime's coverage of the suite can be set beside webnn's, and prints a summary
# line and one machine-readable line (ort-node-tests-json: {...}).
#   bench/onnx_suite/run_ort_node_tests.sh [CASES_DIR] [OUT_FILE] [--case SUBSTRING]
#       [--threads 2] [--timeout 60]
# CASES_DIR defaults to /usr/share/libonnx-testdata/data/node (Debian's libonnx-testdata), OUT_FILE
# to ${TMPDIR:-/tmp}/ort-node-tests.txt. ONNX Runtime comes from scripts/fetch-models.sh (npm,
# cached); exits 77 (SKIP) without it, without node or without the cases. The cases' rule is
# ONNX's (rtol 1e-3, atol 1e-7); see bench/onnx_suite/ort_node_tests.js for the statuses.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
cases="/usr/share/libonnx-testdata/data/node"
out="${TMPDIR:-/tmp}/ort-node-tests.txt"
if [[ $# -gt 0 && "$1" != --* ]]; then cases="$1"; shift; fi
if [[ $# -gt 0 && "$1" != --* ]]; then out="$1"; shift; fi

if ! command -v node >/dev/null 2>&1; then echo "SKIP: node is not installed"; exit 77; fi
if [[ ! -d "${cases}" ]]; then
  echo "SKIP: ${cases} is missing (apt-get install libonnx-testdata)"
  exit 77
fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then echo "SKIP: npm unreachable"; exit 77; fi
if [[ ! -f "${cache}/node_modules/onnxruntime-node/package.json" ]]; then
  echo "SKIP: onnxruntime-node is not in ${cache}/node_modules"
  exit 77
fi
export ORT_NODE_MODULES="${cache}/node_modules"
export NODE_PATH="${cache}/node_modules"

start=${SECONDS}
node "${here}/ort_node_tests.js" "${cases}" "${out}" "$@"
echo "ort-node-tests: results in ${out} ($(( SECONDS - start )) s)"
