#!/usr/bin/env bash
# The README's Python install on this build: a venv (Debian's python3, its numpy through
# --system-site-packages, no network), the library and then the package installed into it with
# `cmake --install`, and the example run by the venv's interpreter from outside the repository.
#   venv_install_test.sh BUILD_DIR PYTHON SOURCE_DIR
set -euo pipefail
build="$1"
python="$2"
source_dir="$3"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
"${python}" -m venv --without-pip --system-site-packages "${work}/venv"
cmake --install "${build}" --prefix "${work}/venv" >/dev/null
cmake --install "${build}" --prefix "${work}/venv" --component python >/dev/null
cd "${work}"
env -u PYTHONPATH "${work}/venv/bin/python" "${source_dir}/examples/python/weightless_mlp.py" | tee out.txt
grep -q "pending after load_constants: 0" out.txt
env -u PYTHONPATH "${work}/venv/bin/python" -c "import webnn, sys; assert webnn.__file__.startswith('${work}/venv/'), webnn.__file__"
echo PASS
