#!/usr/bin/env bash
# The main job on a bundled default: builds a model weightless, streams its weights in, runs it
# and prints the memory account.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target weightless_mlp
build/release/examples/weightless_mlp
