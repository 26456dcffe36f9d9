#!/usr/bin/env bash
# Issue 19's "models larger than memory": a float32 MLP (make_mlp_onnx: LAYERS x Linear(DIM) + Gelu,
# external data) run by `webnn run` inside a memory cgroup whose limit is the weights / RATIO
# (default 1.5: the model is 1.5 x the memory it may use), loaded whole (expected: OOM-killed) and
# with --memory-budget (the largest weights stay file-backed, read as stored: expected to finish,
# with the output of an unconstrained run). Prints a table and one bench-json line.
# --model decoder: the 4-bit LLM decoder of run_decoder_bench.sh instead (make_decoder_onnx.py:
# ONNX MatMulNBits, --layers 4 and hidden --dim 2048 unless given; needs python3-onnx), whose
# 4-bit weights the cpu backend reads as stored, so they stay file-backed under the budget.
#   bench/models/run_budget_bench.sh BUILD_DIR [--model mlp|decoder] [--layers 16] [--dim 4096]
#       [--ratio 1.5] [--budget BYTES (default 64 MiB)] [--iterations 3] [--work DIR]
# Needs a cgroup v1 memory controller we may write (/sys/fs/cgroup/memory) or cgroup v2 with the
# memory controller enabled; exits 77 (CTest SKIP) without one. /usr/bin/python3 with numpy
# compares the outputs.
set -euo pipefail
build="$(realpath "$1")"
shift
layers="" dim="" ratio=1.5 budget=$((64 << 20)) iterations=3 work="" kind=mlp
while (($#)); do
  case "$1" in
    --model) kind="$2"; shift 2 ;;
    --layers) layers="$2"; shift 2 ;;
    --dim) dim="$2"; shift 2 ;;
    --ratio) ratio="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    *) echo "run_budget_bench: unknown option $1" >&2; exit 2 ;;
  esac
done
webnn="${build}/tools/webnn"
make_mlp="${build}/bench/onnx/make_mlp_onnx"
here="$(cd "$(dirname "$0")" && pwd)"
case "${kind}" in
  mlp) layers="${layers:-16}" dim="${dim:-4096}" ;;
  decoder)
    layers="${layers:-4}" dim="${dim:-2048}"
    /usr/bin/python3 -c 'import onnx, numpy' 2>/dev/null ||
      { echo "run_budget_bench: --model decoder needs python3-onnx and numpy: SKIP" >&2; exit 77; } ;;
  *) echo "run_budget_bench: --model mlp or decoder, not ${kind}" >&2; exit 2 ;;
esac
[[ -z "${work}" ]] && work="$(mktemp -d)"
mkdir -p "${work}"

# The cgroup.
group=""
if [[ -w /sys/fs/cgroup/memory ]]; then
  group="/sys/fs/cgroup/memory/webnn-budget-$$"
  mkdir "${group}"
  limit_file="${group}/memory.limit_in_bytes"
elif [[ -w /sys/fs/cgroup/cgroup.subtree_control ]] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
  group="/sys/fs/cgroup/webnn-budget-$$"
  mkdir "${group}"
  limit_file="${group}/memory.max"
else
  echo "run_budget_bench: no writable memory cgroup here: SKIP" >&2
  exit 77
fi
cleanup() { rmdir "${group}" 2>/dev/null || true; }
trap cleanup EXIT

if [[ "${kind}" == mlp ]]; then
  "${make_mlp}" "${work}" --layers "${layers}" --dim "${dim}" --only external > /dev/null
  model="${work}/mlp_external.onnx"
  weights=$(( layers * (dim * dim + dim) * 4 ))
  what="${layers} x Linear(${dim}) float32"
else
  model="${work}/decoder.onnx"
  /usr/bin/python3 "${here}/make_decoder_onnx.py" "${model}" --layers "${layers}" --hidden "${dim}" \
    --heads 16 --ffn $(( dim * 11 / 4 / 32 * 32 )) > /dev/null
  weights=$(stat -c %s "${model}.data")
  what="4-bit decoder (MatMulNBits), ${layers} layers of hidden ${dim}"
fi
limit=$(/usr/bin/python3 -c "print(int(${weights} / ${ratio}))")
echo "${limit}" > "${limit_file}"
[[ -w "${group}/memory.memsw.limit_in_bytes" ]] && echo "${limit}" > "${group}/memory.memsw.limit_in_bytes" 2>/dev/null || true
[[ -w "${group}/memory.swap.max" ]] && echo 0 > "${group}/memory.swap.max" || true

# Drops the model's pages from the page cache (so the cgroup pays for what it reads).
uncache() {
  /usr/bin/python3 -c "
import os, sys
for path in sys.argv[1:]:
    fd = os.open(path, os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)
" "${model}" "${model}.data"
}

# run NAME IN_CGROUP [webnn options...]: prints "rc median_ms first_ms peak_mib"
run() {
  local name="$1" confined="$2"
  shift 2
  uncache
  local out="${work}/${name}.txt" rc=0
  if ((confined)); then
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "${group}" \
      "${webnn}" run "${model}" --random-inputs --seed 1 --iterations "${iterations}" --backend cpu \
      --output "y=${work}/${name}.npy" --json "$@" > "${out}" 2>&1 || rc=$?
  else
    "${webnn}" run "${model}" --random-inputs --seed 1 --iterations "${iterations}" --backend cpu \
      --output "y=${work}/${name}.npy" --json "$@" > "${out}" 2>&1 || rc=$?
  fi
  local json
  json=$(grep '^run-json:' "${out}" | sed 's/^run-json: //' || true)
  if [[ -n "${json}" ]]; then
    /usr/bin/python3 -c "
import json, sys
j = json.loads(sys.argv[2]); print(sys.argv[1], j['median_ms'], j['first_dispatch_ms'], j['load_ms'], j['peak_rss_bytes'] / 2**20)
" "${rc}" "${json}"
  else
    echo "${rc} - - - -"
  fi
}

echo "model: ${what}, weights $((weights >> 20)) MiB; cgroup limit $((limit >> 20)) MiB (weights / ${ratio}); budget $((budget >> 20)) MiB"
read -r free_rc free_ms free_first free_load free_peak < <(run free 0)
read -r freeb_rc freeb_ms freeb_first freeb_load freeb_peak < <(run free_budget 0 --memory-budget "${budget}")
read -r whole_rc whole_ms whole_first whole_load whole_peak < <(run whole 1)
read -r conf_rc conf_ms conf_first conf_load conf_peak < <(run confined 1 --memory-budget "${budget}")

same="-"
if [[ "${conf_rc}" == 0 && -f "${work}/free.npy" && -f "${work}/confined.npy" ]]; then
  same=$(/usr/bin/python3 -c "
import numpy, sys
a = numpy.load(sys.argv[1]).astype('float64'); b = numpy.load(sys.argv[2]).astype('float64')
print('%.2e' % (numpy.linalg.norm(a - b) / max(numpy.linalg.norm(a), 1e-30)))
" "${work}/free.npy" "${work}/confined.npy")
fi
printf '%-44s %5s %12s %12s %10s %10s\n' "run" "exit" "median ms" "first ms" "load ms" "peak MiB"
printf '%-44s %5s %12s %12s %10s %10s\n' "no limit, whole" "${free_rc}" "${free_ms}" "${free_first}" "${free_load}" "${free_peak}"
printf '%-44s %5s %12s %12s %10s %10s\n' "no limit, --memory-budget" "${freeb_rc}" "${freeb_ms}" "${freeb_first}" "${freeb_load}" "${freeb_peak}"
printf '%-44s %5s %12s %12s %10s %10s\n' "cgroup $((limit >> 20)) MiB, whole" "${whole_rc}" "${whole_ms}" "${whole_first}" "${whole_load}" "${whole_peak}"
printf '%-44s %5s %12s %12s %10s %10s\n' "cgroup $((limit >> 20)) MiB, --memory-budget" "${conf_rc}" "${conf_ms}" "${conf_first}" "${conf_load}" "${conf_peak}"
echo "confined output vs unconstrained: rel L2 ${same}"
echo "bench-json: {\"model\": \"${kind}\", \"weights_bytes\": ${weights}, \"cgroup_limit_bytes\": ${limit}, \"budget_bytes\": ${budget}, \"whole_exit\": ${whole_rc}, \"confined_exit\": ${conf_rc}, \"free_ms\": \"${free_ms}\", \"free_budget_ms\": \"${freeb_ms}\", \"confined_ms\": \"${conf_ms}\", \"confined_rel_l2\": \"${same}\"}"
[[ "${conf_rc}" == 0 ]]
