#!/usr/bin/env bash
# Installs what building and testing webnn-cpp needs on Debian 12 (idempotent).
set -euo pipefail
packages=(build-essential cmake ninja-build pkg-config git
          libgtest-dev libbenchmark-dev nlohmann-json3-dev libcli11-dev
          libdnnl-dev ocl-icd-opencl-dev opencl-c-headers
          libonnx-dev libprotobuf-dev protobuf-compiler
          clang libclang-rt-14-dev)
# Node.js and npm (real-model tests against ONNX Runtime): Debian's, unless a node with npm is
# already there (e.g. NodeSource's nodejs, which ships npm itself and conflicts with Debian's npm).
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
