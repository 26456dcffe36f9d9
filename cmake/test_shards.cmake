# webnn_add_gtest(TARGET PREFIX <p> [LABELS ...] [ENVIRONMENT ...] [ENVIRONMENT_MODIFICATION ...])
#
# Registers a GoogleTest program with CTest. With WEBNN_TEST_SHARDS = N > 0 it is N CTest
# entries "<p>shard-<i>-of-<N>", each running a gtest shard (GTEST_TOTAL_SHARDS /
# GTEST_SHARD_INDEX: every N-th test case, so shards are balanced): one process per shard instead
# of one per test case. Starting a process costs more than most cases (a Vulkan instance on
# lavapipe, the sanitizers' start-up), so CI runs the suites sharded. With WEBNN_TEST_SHARDS = 0 each
# test case is its own entry "<p><Suite>.<Case>" (gtest_discover_tests), for `ctest -R` on one
# case; the tsan preset uses that to pick its cases by name.
set(WEBNN_TEST_SHARDS 8 CACHE STRING
    "CTest entries per GoogleTest program (gtest shards); 0: one entry per test case")

function(webnn_add_gtest target)
  cmake_parse_arguments(ARG "" "PREFIX" "LABELS;ENVIRONMENT;ENVIRONMENT_MODIFICATION" ${ARGN})
  if(WEBNN_TEST_SHARDS GREATER 0)
    math(EXPR last_shard "${WEBNN_TEST_SHARDS} - 1")
    foreach(shard RANGE ${last_shard})
      set(name "${ARG_PREFIX}shard-${shard}-of-${WEBNN_TEST_SHARDS}")
      add_test(NAME ${name} COMMAND ${target})
      set(environment ${ARG_ENVIRONMENT} "GTEST_TOTAL_SHARDS=${WEBNN_TEST_SHARDS}"
                      "GTEST_SHARD_INDEX=${shard}")
      set_tests_properties(${name} PROPERTIES ENVIRONMENT "${environment}")
      if(ARG_ENVIRONMENT_MODIFICATION)
        set_tests_properties(${name} PROPERTIES ENVIRONMENT_MODIFICATION
                                                "${ARG_ENVIRONMENT_MODIFICATION}")
      endif()
      if(ARG_LABELS)
        set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}")
      endif()
    endforeach()
    return()
  endif()
  # gtest_discover_tests splits a list-valued ENVIRONMENT: one variable each, the rest through
  # ENVIRONMENT_MODIFICATION.
  set(properties "")
  list(LENGTH ARG_ENVIRONMENT environment_count)
  if(environment_count GREATER 1)
    message(FATAL_ERROR "webnn_add_gtest: one ENVIRONMENT variable at most without shards")
  endif()
  if(ARG_ENVIRONMENT)
    list(APPEND properties ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
  if(ARG_ENVIRONMENT_MODIFICATION)
    list(APPEND properties ENVIRONMENT_MODIFICATION "${ARG_ENVIRONMENT_MODIFICATION}")
  endif()
  if(ARG_LABELS)
    list(APPEND properties LABELS "${ARG_LABELS}")
  endif()
  set(discover_properties "")
  if(properties)
    set(discover_properties PROPERTIES ${properties})
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_PREFIX "${ARG_PREFIX}"
                       ${discover_properties})
endfunction()
