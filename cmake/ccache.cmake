# WEBNN_USE_CCACHE (on in the presets): compile through ccache when it is installed; without it the
# build goes on uncached. A launcher set by the user (CMAKE_CXX_COMPILER_LAUNCHER) wins.
if(WEBNN_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(WEBNN_CCACHE_PROGRAM ccache)
  if(WEBNN_CCACHE_PROGRAM)
    # Paths relative to the source tree and the working directory left out of the hash: a second
    # build folder with the same flags (check-install's build/static beside build/debug, a CI
    # clone elsewhere) is served from the cache instead of compiling everything again.
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
                                    CCACHE_NOHASHDIR=1 ${WEBNN_CCACHE_PROGRAM})
    message(STATUS "webnn: compiling through ${WEBNN_CCACHE_PROGRAM}")
  else()
    message(STATUS "webnn: ccache not found; compiling without a cache")
  endif()
endif()
