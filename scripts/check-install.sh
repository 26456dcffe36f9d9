#!/usr/bin/env bash
# Installs the package into a temporary prefix and builds + runs tests/install_consumer against it
# with find_package(webnn CONFIG), as a user's project would.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
# Reuses the debug build of scripts/test.sh when there is one.
cmake --preset debug >/dev/null
cmake --build --preset debug
cmake --install build/debug --prefix "$prefix/install" >/dev/null
cmake -S tests/install_consumer -B "$prefix/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/install" >/dev/null
cmake --build "$prefix/build"
LD_LIBRARY_PATH="$prefix/install/lib:${LD_LIBRARY_PATH:-}" "$prefix/build/consumer"
