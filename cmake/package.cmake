# A Debian package of what `cmake --install` installs (the library, headers, CMake and pkg-config
# files, the webnn command): `cpack -G DEB --config <build>/CPackConfig.cmake`. Its dependencies
# are computed by dpkg-shlibdeps from the libraries the binaries link.
set(CPACK_PACKAGE_NAME webnn-cpp)
set(CPACK_PACKAGE_VENDOR "webnn-cpp")
set(CPACK_PACKAGE_CONTACT "webnn-cpp developers <webnn-cpp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The headers' own needs: a C++20 compiler's standard library.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libstdc++-12-dev | libstdc++-dev")
if(WEBNN_HAVE_ONNX AND NOT BUILD_SHARED_LIBS)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libonnx-dev, libprotobuf-dev")
endif()
if(WEBNN_HAVE_CPU AND NOT BUILD_SHARED_LIBS)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libdnnl-dev")
endif()
include(CPack)
