#!/usr/bin/env bash
# The ONNX memory benchmark: writes the MatMul/Add/Gelu stack (W = 1 GiB by default) once with
# external data and once with embedded weights, then measures, each in a fresh process, the peak
# RSS of `webnn run MODEL --random-inputs --iterations 1` and of ONNX Runtime (onnxruntime-node,
# CPU: session + one run) on the same files, checks that both outputs agree (rel L2 <= 1e-4), and
# prints a table of peak / W. The model files are deleted at the end.
#   bench/onnx/run_onnx_memory.sh WEBNN_TOOL MAKE_MLP_ONNX [--layers 16] [--dim 4096]
#                                 [--work DIR] [--keep]
# ONNX Runtime comes from scripts/fetch-models.sh (npm, cached); without it only ours is measured.
set -euo pipefail
webnn="$(realpath "$1")"
maker="$(realpath "$2")"
shift 2
layers=16
dim=4096
work="${TMPDIR:-/tmp}"
keep=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --layers) layers="$2"; shift 2 ;;
    --dim) dim="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "${here}/../.." && pwd)"

weight_bytes=$(( layers * (dim * dim + dim) * 4 ))
need_kib=$(( weight_bytes * 21 / 10 / 1024 + 65536 ))
avail_kib="$(df -Pk "${work}" | awk 'NR == 2 { print $4 }')"
if (( avail_kib < need_kib )); then
  echo "run_onnx_memory: ${work} has $(( avail_kib / 1024 )) MiB free, needs $(( need_kib / 1024 )) MiB" >&2
  exit 1
fi
dir="$(mktemp -d "${work}/webnn-onnx-memory-XXXXXX")"
if (( keep == 0 )); then trap 'rm -rf "${dir}"' EXIT; fi

ort_modules=""
if command -v node >/dev/null 2>&1 && cache="$("${root}/scripts/fetch-models.sh" 2>/dev/null)"; then
  ort_modules="${cache}/node_modules"
else
  echo "run_onnx_memory: ONNX Runtime unavailable (node or npm missing); measuring webnn only" >&2
fi

echo "== generating (W = ${weight_bytes} bytes: ${layers} x ([${dim}, ${dim}] + [${dim}]) float32)"
"${maker}" "${dir}" --layers "${layers}" --dim "${dim}"
ls -l "${dir}"

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
ratio() { awk -v b="$1" -v w="${weight_bytes}" 'BEGIN { printf "%.3f", b / w }'; }

declare -A result
status=0
# measure KIND MODEL: peak RSS (wait4's ru_maxrss, through /usr/bin/time) of `webnn run` and of
# ONNX Runtime on MODEL, each in a fresh process; ORT's output is compared with ours.
measure() {
  local kind="$1" model="$2" kib
  mkdir -p "${dir}/${kind}-in" "${dir}/${kind}-out"
  echo "== webnn run (${kind})"
  echo "\$ webnn run ${model##*/} --random-inputs --iterations 1"
  /usr/bin/time -f "time-maxrss-kib %M" "${webnn}" run "${model}" --random-inputs --iterations 1 \
    --seed 1 --save-inputs "${dir}/${kind}-in" --output-dir "${dir}/${kind}-out" \
    > "${dir}/webnn-${kind}.log" 2>&1 || { cat "${dir}/webnn-${kind}.log"; exit 1; }
  cat "${dir}/webnn-${kind}.log"
  kib="$(awk '/^time-maxrss-kib/ { print $2 }' "${dir}/webnn-${kind}.log")"
  result[ours-${kind}]=$(( kib * 1024 ))
  [[ -n "${ort_modules}" ]] || return 0
  echo "== ONNX Runtime (${kind})"
  echo "\$ node bench/onnx/ort_peak.js ${model##*/} --x x.npy --compare y.npy"
  if ! NODE_PATH="${ort_modules}" /usr/bin/time -f "time-maxrss-kib %M" node "${here}/ort_peak.js" \
      "${model}" --x "${dir}/${kind}-in/x.npy" --compare "${dir}/${kind}-out/y.npy" \
      > "${dir}/ort-${kind}.log" 2>&1; then
    status=1
  fi
  cat "${dir}/ort-${kind}.log"
  kib="$(awk '/^time-maxrss-kib/ { print $2 }' "${dir}/ort-${kind}.log")"
  result[ort-${kind}]=$(( kib * 1024 ))
}

# The fixed cost of each process (libraries, runtime): the same stack at 1 layer of [64, 64].
mkdir -p "${dir}/tiny"
"${maker}" "${dir}/tiny" --layers 1 --dim 64 --only external > /dev/null
measure tiny "${dir}/tiny/mlp_external.onnx" > "${dir}/tiny.log" 2>&1 || { cat "${dir}/tiny.log"; exit 1; }
for kind in external embedded; do
  measure "${kind}" "${dir}/mlp_${kind}.onnx"
done

over() { awk -v b="$1" -v base="$2" -v w="${weight_bytes}" 'BEGIN { printf "%.3f", (b - base) / w }'; }
echo
echo "W = ${weight_bytes} bytes ($(mib "${weight_bytes}") MiB); peak = the process's max RSS (wait4 ru_maxrss);"
echo "fixed = peak on a 1-layer [64, 64] model (webnn $(mib "${result[ours-tiny]}") MiB, ONNX Runtime $(mib "${result[ort-tiny]:-0}") MiB)"
echo "| weights | webnn peak | peak / W | (peak - fixed) / W | ONNX Runtime peak | peak / W | (peak - fixed) / W |"
echo "|---|---|---|---|---|---|---|"
for kind in external embedded; do
  ours="${result[ours-${kind}]}"
  line="| ${kind} | $(mib "${ours}") MiB | $(ratio "${ours}") | $(over "${ours}" "${result[ours-tiny]}") |"
  if [[ -n "${result[ort-${kind}]:-}" ]]; then
    theirs="${result[ort-${kind}]}"
    line+=" $(mib "${theirs}") MiB | $(ratio "${theirs}") | $(over "${theirs}" "${result[ort-tiny]}") |"
  else
    line+=" - | - | - |"
  fi
  echo "${line}"
done
echo "targets: webnn peak <= 1.05 x W + 64 MiB (external), <= 1.10 x W + 64 MiB (embedded)"
for kind in external embedded; do
  limit=105
  [[ "${kind}" == embedded ]] && limit=110
  if (( result[ours-${kind}] > weight_bytes * limit / 100 + 64 * 1048576 )); then
    echo "MISSED: ${kind} ($(mib "${result[ours-${kind}]}") MiB > ${limit}% of W + 64 MiB)"
    status=1
  fi
done
exit "${status}"
