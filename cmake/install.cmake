# Installation: the library, its headers (webnn/onnx.h only when the importer is built, and the
# generated webnn/config.h), a CMake package (find_package(webnn CONFIG) + webnn::webnn) and a
# pkg-config file (webnn.pc). The webnn command installs itself from tools/.
include(CMakePackageConfigHelpers)
set(WEBNN_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/webnn)

install(TARGETS webnn EXPORT webnnTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(WEBNN_HAVE_ONNX)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/webnn DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
else()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/webnn DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          PATTERN onnx.h EXCLUDE)
endif()
install(FILES ${WEBNN_GENERATED_INCLUDE_DIR}/webnn/config.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/webnn)

install(EXPORT webnnTargets NAMESPACE webnn:: DESTINATION ${WEBNN_CMAKE_INSTALL_DIR})
configure_package_config_file(cmake/webnnConfig.cmake.in ${PROJECT_BINARY_DIR}/webnnConfig.cmake
                              INSTALL_DESTINATION ${WEBNN_CMAKE_INSTALL_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/webnnConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/webnnConfig.cmake ${PROJECT_BINARY_DIR}/webnnConfigVersion.cmake
        DESTINATION ${WEBNN_CMAKE_INSTALL_DIR})

# webnn.pc finds its prefix from its own folder (${pcfiledir}), so the prefix may move.
file(RELATIVE_PATH WEBNN_PC_PREFIX_FROM_PCFILEDIR
     /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" WEBNN_PC_PREFIX_FROM_PCFILEDIR "${WEBNN_PC_PREFIX_FROM_PCFILEDIR}")
if(BUILD_SHARED_LIBS)
  set(WEBNN_PC_LIBS_PRIVATE "")
  set(WEBNN_PC_REQUIRES_PRIVATE "")
else()
  set(WEBNN_PC_LIBS_PRIVATE "-lpthread")
  set(WEBNN_PC_REQUIRES_PRIVATE "")
  if(WEBNN_HAVE_ONNX)
    string(APPEND WEBNN_PC_LIBS_PRIVATE " -lonnx_proto")
    set(WEBNN_PC_REQUIRES_PRIVATE "protobuf")
  endif()
  if(WEBNN_HAVE_CPU)
    string(APPEND WEBNN_PC_LIBS_PRIVATE " -ldnnl -fopenmp")
  endif()
  if(WEBNN_HAVE_VULKAN)
    string(APPEND WEBNN_PC_REQUIRES_PRIVATE " vulkan")
  endif()
endif()
configure_file(cmake/webnn.pc.in ${PROJECT_BINARY_DIR}/webnn.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/webnn.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
