#!/usr/bin/env bash
# The benchmark's generated models (bench/onnx) at test sizes, on a seeded random input, against
# ONNX Runtime (relative L2 <= 1e-4, random_input_test.sh). Exits 77 (CTest SKIP) when npm is
# unreachable.
#   generated_model_test.sh WEBNN_TOOL GENERATOR mlp|encoder|decoder|dynamic_quant [BACKEND]
set -euo pipefail
webnn="$1"
generator="$2"
kind="$3"
backend=("${@:4}")
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
case "${kind}" in
  # 4 x Linear(1024) + Gelu, weights in an external data file (16 MiB).
  mlp)
    "${generator}" "${work}" --layers 4 --dim 1024 --only external
    model="${work}/mlp_external.onnx" ;;
  # 2 layers of a BERT-like encoder: attention with 4 heads over 64 tokens, FFN 1024 (6 MiB).
  encoder)
    model="${work}/encoder.onnx"
    "${generator}" "${model}" --layers 2 --hidden 256 --heads 4 --ffn 1024 --seq 64 ;;
  # 2 layers of an LLM-shaped decoder with 4-bit MatMulNBits weights (bench/models/
  # make_decoder_onnx.py; GENERATOR is the Python that runs it): hidden 256, 4 heads, FFN 512,
  # 16 past positions. ONNX Runtime runs MatMulNBits in float (accuracy_level 0).
  decoder)
    model="${work}/decoder.onnx"
    if ! "${generator}" -c 'import onnx, numpy' 2>/dev/null; then
      echo "SKIP: ${generator} has no onnx / numpy"; exit 77
    fi
    "${generator}" "${here}/../../bench/models/make_decoder_onnx.py" "${model}" --layers 2 \
      --hidden 256 --heads 4 --ffn 512 --kv 16 ;;
  # A small CNN in ONNX Runtime's dynamic-quantization form (DynamicQuantizeLinear, ConvInteger,
  # MatMulInteger with uint8 weights and zero points; tests/models/make_dynamic_quant_onnx.py).
  dynamic_quant)
    model="${work}/dynamic_quant.onnx"
    if ! "${generator}" -c 'import onnx, numpy' 2>/dev/null; then
      echo "SKIP: ${generator} has no onnx / numpy"; exit 77
    fi
    "${generator}" "${here}/make_dynamic_quant_onnx.py" "${model}" --channels 16 --size 32 ;;
  *) echo "generated_model_test: unknown model ${kind} (mlp, encoder, decoder, dynamic_quant)" >&2
     exit 2 ;;
esac
"${here}/random_input_test.sh" "${webnn}" "${model}" - "${backend[@]}"
