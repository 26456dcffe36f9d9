#!/usr/bin/env bash
# Usage: exported_symbols_test.sh libwebnn.so
# Fails when the library's dynamic symbol table holds anything but the public API: every defined
# symbol must be in namespace webnn (a function, or the vtable/typeinfo of an exported class), none
# in an internal namespace (webnn::detail, ::graph, ::backend, ::reference, ::weights,
# ::onnx_import), and none a template instantiation of std::, nlohmann::, google::, onnx::.
set -euo pipefail
library="$1"
symbols="$(nm -D --defined-only "${library}" | awk '{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' |
             grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$' | c++filt)"
count="$(grep -c . <<< "${symbols}" || true)"
if [[ "${count}" -lt 50 ]]; then
  echo "FAIL: only ${count} exported symbols in ${library}; expected the whole public API"
  exit 1
fi
for required in 'webnn::createContext(' 'webnn::MLGraphBuilder::build(' 'webnn::MLGraph::loadConstants(' \
                'webnn::WeightSource::open(' 'typeinfo for webnn::Error'; do
  if ! grep -q -F "${required}" <<< "${symbols}"; then
    echo "FAIL: ${required} is not exported from ${library}"
    exit 1
  fi
done
outside="$(grep -v -E '^((typeinfo|typeinfo name|vtable|VTT) for )?webnn::' <<< "${symbols}" || true)"
internal="$(grep -E '^((typeinfo|typeinfo name|vtable|VTT) for )?webnn::(detail|graph|backend|reference|weights|onnx_import)::' \
              <<< "${symbols}" || true)"
status=0
if [[ -n "${outside}" ]]; then
  echo "FAIL: exported symbols outside namespace webnn ($(grep -c . <<< "${outside}")):"
  head -n 20 <<< "${outside}"
  status=1
fi
if [[ -n "${internal}" ]]; then
  echo "FAIL: exported symbols of internal namespaces ($(grep -c . <<< "${internal}")):"
  head -n 20 <<< "${internal}"
  status=1
fi
[[ "${status}" -eq 0 ]] && echo "exported symbols: ${count}, all public webnn:: API"
exit "${status}"
