# webnn_node_addon(<target> <output dir>): the Node-API addon (webnn.node) over the `webnn`
# library target, with NODE_API_INCLUDE_DIR (node_api.h) and NODE_ADDON_API_INCLUDE_DIR (napi.h).
# Used by this package's CMakeLists.txt (npm install) and by tests/node (the repository's build).
function(webnn_node_addon target output_dir)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/src/*.cpp)
  add_library(${target} MODULE ${sources})
  target_include_directories(${target} PRIVATE ${NODE_API_INCLUDE_DIR} ${NODE_ADDON_API_INCLUDE_DIR})
  target_compile_definitions(${target} PRIVATE NAPI_VERSION=8 NAPI_CPP_EXCEPTIONS
                             NODE_ADDON_API_DISABLE_DEPRECATED)
  target_compile_options(${target} PRIVATE -Wall -Wextra -fvisibility=hidden)
  target_link_libraries(${target} PRIVATE webnn::webnn)
  # Node resolves the addon's napi_* symbols from the node binary itself.
  target_link_options(${target} PRIVATE -Wl,--unresolved-symbols=ignore-all)
  set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME webnn SUFFIX ".node"
                        LIBRARY_OUTPUT_DIRECTORY ${output_dir}
                        BUILD_RPATH "$ORIGIN;$<TARGET_FILE_DIR:webnn>" INSTALL_RPATH "$ORIGIN")
endfunction()
