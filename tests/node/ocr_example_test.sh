#!/usr/bin/env bash
# examples/node/ocr.js end to end: the rendered sample text (upright and turned 180 degrees) read
# through ONNX Runtime Web's WebNN provider on this binding, >= 95% of the characters, the boxed
# PNG written. Exits 77 (CTest SKIP) when npm, ImageMagick or the font is missing.
#   ocr_example_test.sh  (WEBNN_NODE_ADDON: the addon built by CMake)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
if ! command -v convert >/dev/null 2>&1 || [[ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]]; then
  echo "SKIP: ImageMagick or the DejaVu font is missing"
  exit 77
fi
if ! "${here}/ort_web/fetch.sh" >/dev/null; then
  echo "SKIP: could not fetch onnxruntime-web and the models from npm"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cp "${root}/examples/ocr/sample.txt" "${work}/text.txt"
"${root}/scripts/render-text-image.sh" "${work}/text.txt" "${work}/text.png"
convert "${work}/text.png" -rotate 180 "${work}/turned.png"
tac "${work}/text.txt" > "${work}/turned.txt"
for name in text turned; do
  node --liftoff-only "${root}/examples/node/ocr.js" "${work}/${name}.png" --truth "${work}/${name}.txt" \
    --min-accuracy 0.95
  [[ -s "${work}/${name}.boxes.png" ]] || { echo "FAIL: ${name}.boxes.png was not written"; exit 1; }
done
echo PASS
