#!/usr/bin/env bash
# The vulkan backend's device check (issue 10), under 5 minutes on a machine with a GPU:
#   1. lists the Vulkan devices (vulkaninfo --summary, and what `webnn backends` would use);
#   2. runs the vulkan backend's tests (its own, the per-backend suite on vulkan and vulkan-ring,
#      the conformance suite on vulkan) on the first non-CPU device;
#   3. loads a 1 GiB safetensors model onto the device through the staging ring and prints the
#      host staging peak, device bytes, load speed and host RSS growth during the load (target on
#      a discrete GPU: host RSS grows by <= 64 MiB; staging peak <= 16 MiB with the default ring).
# Where only a CPU Vulkan device (lavapipe) exists it says so and runs there (device memory is
# host memory then, so RSS grows by the model's size).
#   scripts/device-check.sh [BUILD_DIR]   (default build/release, configured and built if missing)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-${root}/build/release}"
start=$(date +%s)
say() { printf 'device-check: %s\n' "$*"; }

if ! command -v vulkaninfo >/dev/null 2>&1; then
  say "vulkaninfo not found (apt-get install vulkan-tools); listing devices through webnn only"
else
  vulkaninfo --summary 2>/dev/null | grep -E "GPU[0-9]+:|deviceType|deviceName|driverName" || true
fi

if [[ ! -x "${build}/tools/webnn" ]]; then
  say "building ${build} (release)"
  cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "${build}" --target webnn_tool webnn_tests webnn_backend_tests >/dev/null
webnn="${build}/tools/webnn"
if ! "${webnn}" backends | grep -q '^vulkan'; then
  say "this build has no vulkan backend (libvulkan-dev and glslc are needed at configure time)"
  exit 1
fi

# The first non-CPU device, by the index vkEnumeratePhysicalDevices gives.
index=""
if command -v vulkaninfo >/dev/null 2>&1; then
  index="$(vulkaninfo --summary 2>/dev/null | awk '/^\s*GPU[0-9]+:/ {gsub(/[^0-9]/, "", $1); gpu=$1}
           /deviceType/ && $3 != "PHYSICAL_DEVICE_TYPE_CPU" && gpu != "" {print gpu; exit}')"
fi
if [[ -n "${index}" ]]; then
  export WEBNN_VULKAN_DEVICE="${index}"
  say "running on Vulkan device #${index}"
else
  unset WEBNN_VULKAN_DEVICE
  say "only a CPU Vulkan device found (lavapipe): running there; its device memory is host memory"
fi
"${webnn}" backends | grep '^vulkan'

say "tests"
(cd "${build}" && ctest -R '^(vulkan/|vulkan-ring/|conformance\.vulkan$|Vulkan)' -j"$(nproc)" \
  --output-on-failure | tail -3)

say "memory benchmark: 1 GiB safetensors onto the device through the staging ring (4 x 4 MiB)"
WEBNN_VULKAN_DIRECT=0 "${webnn}" load-bench --sizes 1G --paths c --backend vulkan 2>&1 |
  grep -E 'backend vulkan|^1 GiB|c hollow'
if [[ -z "${index}" ]]; then
  say "(CPU device: host RSS growth includes the 1 GiB of 'device' memory; judge the staging peak)"
else
  say "target on a discrete GPU: host RSS growth <= 64 MiB, host staging peak <= 16 MiB"
fi
say "done in $(( $(date +%s) - start )) s"
