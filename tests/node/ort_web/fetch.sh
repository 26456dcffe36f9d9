#!/usr/bin/env bash
# Fetches what the ONNX Runtime Web test needs from npm into the model cache outside the
# repository (scripts/fetch-models.sh's folder): the PaddleOCR models, onnxruntime-node (the
# reference) and onnxruntime-web@1.30.0 (the client). Prints the cache's node_modules folder.
# Exit status: 0 when everything is there, 2 when npm (or the registry) is unreachable.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cache="$("${root}/scripts/fetch-models.sh")" || exit 2
if [[ ! -f "${cache}/node_modules/onnxruntime-web/dist/ort.all.min.js" ]]; then
  (cd "${cache}" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
     onnxruntime-web@1.30.0 >&2) || { echo "fetch: npm install onnxruntime-web failed" >&2; exit 2; }
fi
echo "${cache}/node_modules"
