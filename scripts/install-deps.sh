#!/usr/bin/env bash
# Installs what building and testing webnn-cpp needs on Debian 12 (idempotent). Prints one line
# per step; apt-get's own output goes to a log that is shown only when a step fails.
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git ccache
          libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
          libdnnl-dev ocl-icd-opencl-dev opencl-c-headers
          libvulkan-dev glslc mesa-vulkan-drivers
          libonnx-dev libprotobuf-dev protobuf-compiler
          libonnx-testdata  # tests/onnx_suite: ONNX's backend node tests
          libstb-dev imagemagick fonts-dejavu-core  # webnn ocr: images; its test renders text
          clang libclang-rt-14-dev
          python3-onnx python3-numpy  # bench/models/to_float16.py (float16 model benchmark)
          python3-dev python3-venv pybind11-dev python3-pytest python3-mypy)  # bindings/python
# Node.js and npm (real-model tests against ONNX Runtime): Debian's, unless a node with npm is
# already there (e.g. NodeSource's nodejs, which ships npm itself and conflicts with Debian's npm).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
log="$(mktemp "${TMPDIR:-/tmp}/webnn-install-deps.XXXXXX.log")"
# Runs "$@" with its output in the log; on failure prints the log and stops.
step() {
  local title="$1"
  shift
  printf 'install-deps: %s ... ' "$title"
  local started=$SECONDS
  if "$@" >>"$log" 2>&1; then
    echo "done ($((SECONDS - started)) s)"
  else
    local status=$?
    echo "FAILED (exit status $status); its output ($log):"
    cat "$log"
    exit "$status"
  fi
}
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
else
  step "apt-get update" $sudo_cmd apt-get update
  step "installing ${#missing[@]} packages: ${missing[*]}" \
    $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
# The Node.js binding's npm packages (node-addon-api, node-api-headers): with them the CMake build
# compiles the addon and CTest runs the binding's tests.
node_package="$(cd "$(dirname "$0")/.." && pwd)/bindings/node"
if [ ! -f "$node_package/node_modules/node-addon-api/napi.h" ]; then
  step "npm packages of the Node.js binding" \
    sh -c "cd '$node_package' && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
fi
rm -f "$log"
