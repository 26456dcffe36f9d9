#!/usr/bin/env bash
# Installs the dependencies, builds, and runs every test (unit tests, the WebNN conformance suite
# on every backend, real-model tests). Usage: scripts/test.sh [preset] (default: debug;
# "asan" builds with AddressSanitizer + UndefinedBehaviorSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-debug}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset"
