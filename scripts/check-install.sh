#!/usr/bin/env bash
# Installs the package into a temporary prefix that is in no loader path, then uses it as a user
# would:
#   - the installed `webnn` runs from there (install RPATH): --version, backends, inspect, run on
#     a small ONNX model;
#   - tests/install_consumer builds against it with find_package(webnn CONFIG): the weightless
#     round trip, loadConstants from a file, the ONNX importer, and the README's C++ example;
#   - the README's example builds again with `pkg-config webnn` alone.
#
#   scripts/check-install.sh            the debug build of scripts/test.sh (shared libwebnn)
#   scripts/check-install.sh --static   a static libwebnn.a (BUILD_SHARED_LIBS=OFF, the library
#                                       alone in build/static: same flags and config.h as the
#                                       debug build, so ccache serves its objects from there),
#                                       consumed the same way (backends, kernels and op limits
#                                       register explicitly, so a static link keeps them all).
#   scripts/check-install.sh --deb      the debug build packed by `cpack -G DEB`, installed with
#                                       dpkg -i (as root, or through sudo), consumed from /usr,
#                                       then removed again
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
mode="${1:-shared}"
mode="${mode#--}"
case "${mode}" in
  shared | static | deb) ;;
  *) echo "check-install: unknown argument $1 (--static, --deb)" >&2; exit 2 ;;
esac

work="$(mktemp -d)"
sudo_cmd=""
[[ "$(id -u)" -ne 0 ]] && sudo_cmd="sudo"
cleanup() {
  if [[ "${mode}" == deb ]] && dpkg-query -W webnn-cpp >/dev/null 2>&1; then
    $sudo_cmd dpkg --purge webnn-cpp >/dev/null
  fi
  rm -rf "${work}"
}
trap cleanup EXIT
step() { echo "check-install (${mode}): $*"; }
unset LD_LIBRARY_PATH

# The debug build of scripts/test.sh, when there is one (its make_mlp_onnx writes the small model).
cmake --preset debug >/dev/null
cmake --build --preset debug
build="${root}/build/debug"
prefix="${work}/install"
case "${mode}" in
  shared)
    cmake --install "${build}" --prefix "${prefix}" >/dev/null
    ;;
  static)
    step "configure and build the static library alone (build/static)"
    cmake --preset debug -B "${root}/build/static" -DBUILD_SHARED_LIBS=OFF -DWEBNN_BUILD_TESTS=OFF \
          -DWEBNN_BUILD_TOOLS=OFF -DWEBNN_BUILD_EXAMPLES=OFF -DWEBNN_BUILD_BENCHMARKS=OFF >/dev/null
    cmake --build "${root}/build/static"
    cmake --install "${root}/build/static" --prefix "${prefix}" >/dev/null
    [[ -f "${prefix}/lib/libwebnn.a" && ! -e "${prefix}/lib/libwebnn.so" ]] ||
      { echo "check-install: the static install has no lib/libwebnn.a (or has a .so)" >&2; exit 1; }
    ;;
  deb)
    step "cpack -G DEB"
    (cd "${work}" && cpack -G DEB --config "${build}/CPackConfig.cmake" >/dev/null)
    deb="$(ls "${work}"/webnn-cpp_*.deb)"
    dpkg-deb --info "${deb}" | sed -n 's/^ *\(Package\|Version\|Depends\):/  \1:/p'
    step "dpkg -i $(basename "${deb}")"
    $sudo_cmd dpkg -i "${deb}" >/dev/null
    prefix=/usr
    ;;
esac

have_onnx=0
grep -q '^#define WEBNN_HAVE_ONNX 1' "${prefix}/include/webnn/config.h" && have_onnx=1
if [[ "${have_onnx}" == 1 ]]; then
  [[ -f "${prefix}/include/webnn/onnx.h" ]] ||
    { echo "check-install: WEBNN_HAVE_ONNX but webnn/onnx.h is not installed" >&2; exit 1; }
  "${build}/bench/onnx/make_mlp_onnx" "${work}" --layers 2 --dim 8 --only external >/dev/null
  model="${work}/mlp_external.onnx"
elif [[ -e "${prefix}/include/webnn/onnx.h" ]]; then
  echo "check-install: webnn/onnx.h is installed without the ONNX importer" >&2
  exit 1
fi

if [[ "${mode}" != static ]]; then
  step "the installed webnn, from ${prefix}/bin (no LD_LIBRARY_PATH)"
  "${prefix}/bin/webnn" --version
  "${prefix}/bin/webnn" backends
fi

step "tests/install_consumer against ${prefix} (find_package(webnn CONFIG))"
cmake -S tests/install_consumer -B "${work}/consumer" -G Ninja -DCMAKE_PREFIX_PATH="${prefix}" \
      -DWEBNN_SOURCE_DIR="${root}" >/dev/null
cmake --build "${work}/consumer" >/dev/null
"${work}/consumer/consumer" "${work}" ${model:+"${model}"}

step "the C++ examples of README.md and docs/quickstart.md"
expected="y = [4, 6]"
for example in readme_example quickstart_example; do
  for weights in "" "${work}/readme.safetensors"; do
    got="$("${work}/consumer/${example}" ${weights:+"${weights}"})"
    [[ "${got}" == "${expected}" ]] || {
      echo "check-install: ${example} ${weights} printed '${got}', not '${expected}'" >&2
      exit 1
    }
  done
  echo "${example}: ${got} (weights from memory, then from a file)"
done

step "the README's example with pkg-config webnn"
export PKG_CONFIG_PATH="${prefix}/lib/pkgconfig"
libdir="$(pkg-config --variable=libdir webnn)"
static_flag=""
[[ "${mode}" == static ]] && static_flag="--static"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
c++ -std=c++20 -o "${work}/readme_pkgconfig" "${work}/consumer/readme_example.cpp" \
    $(pkg-config --cflags --libs ${static_flag} webnn) -Wl,-rpath,"${libdir}"
got="$("${work}/readme_pkgconfig")"
[[ "${got}" == "${expected}" ]] ||
  { echo "check-install: the pkg-config build printed '${got}', not '${expected}'" >&2; exit 1; }
echo "${got} (pkg-config webnn $(pkg-config --modversion webnn))"

if [[ "${mode}" != static ]]; then
  step "webnn inspect and webnn run, installed"
  "${prefix}/bin/webnn" inspect "${work}/readme.safetensors"
  if [[ "${have_onnx}" == 1 ]]; then
    "${prefix}/bin/webnn" run "${model}" --random-inputs --iterations 1 --output-dir "${work}"
  fi
fi
step "OK"
