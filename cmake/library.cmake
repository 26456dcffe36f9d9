# The library. Every source under src/ is compiled once, into the object library webnn_objects
# (position-independent, hidden symbol visibility), and those objects make two libraries:
#   webnn           what users link (shared by default, BUILD_SHARED_LIBS=OFF for static); a
#                   shared libwebnn exports only the API marked WEBNN_EXPORT in include/webnn/.
#   webnn_internal  a static archive of the same objects, linked whole, with src/ on the include
#                   path: the unit tests call the library's internal functions directly.
file(GLOB_RECURSE WEBNN_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*.cpp)
list(FILTER WEBNN_SOURCES EXCLUDE REGEX "/src/(onnx|backends/cpu|backends/vulkan)/")
set(WEBNN_BACKENDS reference)
if(BUILD_SHARED_LIBS)
  set(WEBNN_SHARED_LIBRARY 1)
else()
  set(WEBNN_SHARED_LIBRARY 0)
endif()

# The ONNX importer (src/onnx), when Debian's libonnx-dev (onnx_proto) and protobuf are found.
find_package(Protobuf QUIET)
if(Protobuf_FOUND)
  find_package(ONNX CONFIG QUIET)
endif()
if(TARGET onnx_proto AND TARGET protobuf::libprotobuf)
  file(GLOB WEBNN_ONNX_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/onnx/*.cpp)
  list(APPEND WEBNN_SOURCES ${WEBNN_ONNX_SOURCES})
  set(WEBNN_HAVE_ONNX ON)
  message(STATUS "webnn: ONNX importer enabled (onnx ${ONNX_VERSION}, protobuf ${Protobuf_VERSION})")
else()
  set(WEBNN_HAVE_ONNX OFF)
  message(STATUS "webnn: ONNX importer disabled (libonnx-dev or protobuf not found)")
endif()

# The cpu backend (src/backends/cpu), when oneDNN (Debian's libdnnl-dev, threaded with OpenMP) is
# found. It registers above the reference, so it is the default backend where it is built.
find_package(dnnl CONFIG QUIET)
find_package(OpenMP QUIET COMPONENTS CXX)
if(TARGET DNNL::dnnl AND OpenMP_CXX_FOUND)
  file(GLOB_RECURSE WEBNN_CPU_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backends/cpu/*.cpp)
  list(APPEND WEBNN_SOURCES ${WEBNN_CPU_SOURCES})
  list(APPEND WEBNN_BACKENDS cpu)
  set(WEBNN_HAVE_CPU ON)
  message(STATUS "webnn: cpu backend enabled (oneDNN ${dnnl_VERSION})")
else()
  set(WEBNN_HAVE_CPU OFF)
  message(STATUS "webnn: cpu backend disabled (oneDNN or OpenMP not found)")
endif()

# The vulkan backend (src/backends/vulkan), when Debian's Vulkan loader (libvulkan-dev) and glslc
# are found: compute shaders compiled to SPIR-V at build time and embedded in the library. It
# registers below the cpu backend (never the default): `backend = "vulkan"` selects it.
find_package(Vulkan QUIET)
find_program(WEBNN_GLSLC glslc)
if(WEBNN_WITH_VULKAN AND Vulkan_FOUND AND WEBNN_GLSLC)
  file(GLOB_RECURSE WEBNN_VULKAN_SOURCES CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/src/backends/vulkan/*.cpp)
  file(GLOB WEBNN_VULKAN_SHADERS CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/src/backends/vulkan/shaders/*.comp)
  file(GLOB WEBNN_VULKAN_SHADER_INCLUDES CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/src/backends/vulkan/shaders/*.glsl)
  set(WEBNN_VULKAN_SPIRV_DIR ${PROJECT_BINARY_DIR}/generated/spirv)
  file(MAKE_DIRECTORY ${WEBNN_VULKAN_SPIRV_DIR})
  set(WEBNN_VULKAN_SPIRV "")
  foreach(shader IN LISTS WEBNN_VULKAN_SHADERS)
    get_filename_component(name ${shader} NAME_WE)
    set(spirv ${WEBNN_VULKAN_SPIRV_DIR}/${name}.spv)
    add_custom_command(OUTPUT ${spirv}
      COMMAND ${WEBNN_GLSLC} --target-env=vulkan1.2 -O -Werror
              -I ${PROJECT_SOURCE_DIR}/src/backends/vulkan/shaders -o ${spirv} ${shader}
      DEPENDS ${shader} ${WEBNN_VULKAN_SHADER_INCLUDES}
      COMMENT "glslc ${name}.comp" VERBATIM)
    list(APPEND WEBNN_VULKAN_SPIRV ${spirv})
  endforeach()
  set(WEBNN_VULKAN_EMBEDDED ${PROJECT_BINARY_DIR}/generated/vulkan_shaders.cpp)
  add_custom_command(OUTPUT ${WEBNN_VULKAN_EMBEDDED}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${WEBNN_VULKAN_EMBEDDED} "-DSPIRV_FILES=${WEBNN_VULKAN_SPIRV}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    DEPENDS ${WEBNN_VULKAN_SPIRV} ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    COMMENT "Embedding the vulkan backend's SPIR-V" VERBATIM)
  list(APPEND WEBNN_SOURCES ${WEBNN_VULKAN_SOURCES} ${WEBNN_VULKAN_EMBEDDED})
  list(APPEND WEBNN_BACKENDS vulkan)
  set(WEBNN_HAVE_VULKAN ON)
  message(STATUS "webnn: vulkan backend enabled (Vulkan ${Vulkan_VERSION}, ${WEBNN_GLSLC})")
else()
  set(WEBNN_HAVE_VULKAN OFF)
  message(STATUS "webnn: vulkan backend disabled (libvulkan-dev or glslc not found)")
endif()

# webnn/config.h: version, WEBNN_HAVE_ONNX, the backends built. (The same for a shared and a
# static build, so that both compile the same objects: ccache serves the second from the first.)
set(WEBNN_GENERATED_INCLUDE_DIR ${PROJECT_BINARY_DIR}/generated/include)
string(REPLACE ";" "," WEBNN_BACKENDS_STRING "${WEBNN_BACKENDS}")
block(SCOPE_FOR VARIABLES)
  set(WEBNN_BACKENDS "${WEBNN_BACKENDS_STRING}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/config.h.in
                 ${WEBNN_GENERATED_INCLUDE_DIR}/webnn/config.h @ONLY)
endblock()

# What compiling and linking the library's objects takes.
add_library(webnn_dependencies INTERFACE)
target_link_libraries(webnn_dependencies INTERFACE Threads::Threads
                      $<BUILD_INTERFACE:nlohmann_json::nlohmann_json>)
if(WEBNN_HAVE_ONNX)
  target_link_libraries(webnn_dependencies INTERFACE onnx_proto protobuf::libprotobuf)
endif()
if(WEBNN_HAVE_CPU)
  target_link_libraries(webnn_dependencies INTERFACE DNNL::dnnl OpenMP::OpenMP_CXX)
endif()
if(WEBNN_HAVE_VULKAN)
  target_link_libraries(webnn_dependencies INTERFACE Vulkan::Vulkan)
endif()

add_library(webnn_objects OBJECT ${WEBNN_SOURCES})
set_target_properties(webnn_objects PROPERTIES POSITION_INDEPENDENT_CODE ON
                      CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_include_directories(webnn_objects
  PUBLIC ${PROJECT_SOURCE_DIR}/include ${WEBNN_GENERATED_INCLUDE_DIR}
  PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(webnn_objects PRIVATE webnn_dependencies webnn_build_flags)
target_compile_features(webnn_objects PUBLIC cxx_std_20)

add_library(webnn $<TARGET_OBJECTS:webnn_objects>)
add_library(webnn::webnn ALIAS webnn)
target_include_directories(webnn PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${WEBNN_GENERATED_INCLUDE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(webnn PRIVATE $<BUILD_INTERFACE:webnn_dependencies>
                      $<BUILD_INTERFACE:webnn_build_flags>)
if(NOT BUILD_SHARED_LIBS)
  # What a static libwebnn.a leaves for its users' link (webnn_dependencies stays in the build).
  target_link_libraries(webnn INTERFACE $<INSTALL_INTERFACE:Threads::Threads>)
  if(WEBNN_HAVE_ONNX)
    target_link_libraries(webnn INTERFACE $<INSTALL_INTERFACE:onnx_proto>
                          $<INSTALL_INTERFACE:protobuf::libprotobuf>)
  endif()
  if(WEBNN_HAVE_CPU)
    target_link_libraries(webnn INTERFACE $<INSTALL_INTERFACE:DNNL::dnnl>
                          $<INSTALL_INTERFACE:OpenMP::OpenMP_CXX>)
  endif()
  if(WEBNN_HAVE_VULKAN)
    target_link_libraries(webnn INTERFACE $<INSTALL_INTERFACE:Vulkan::Vulkan>)
  endif()
endif()
if(BUILD_SHARED_LIBS)
  target_link_options(webnn PRIVATE "LINKER:--version-script=${PROJECT_SOURCE_DIR}/cmake/webnn.map")
  set_property(TARGET webnn APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/webnn.map)
endif()
target_compile_features(webnn PUBLIC cxx_std_20)
set_target_properties(webnn PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})

if(NOT WEBNN_BUILD_TESTS)
  return()
endif()
add_library(webnn_internal_archive STATIC $<TARGET_OBJECTS:webnn_objects>)
target_link_libraries(webnn_internal_archive PUBLIC webnn_dependencies)
add_library(webnn_internal INTERFACE)
target_link_libraries(webnn_internal INTERFACE
                      "$<LINK_LIBRARY:WHOLE_ARCHIVE,webnn_internal_archive>")
target_include_directories(webnn_internal INTERFACE ${PROJECT_SOURCE_DIR}/include
                           ${WEBNN_GENERATED_INCLUDE_DIR} ${PROJECT_SOURCE_DIR}/src)
target_compile_features(webnn_internal INTERFACE cxx_std_20)
