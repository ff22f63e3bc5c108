# TkBundle.cmake -- the `bundle` target: a relocatable directory holding what a GPU machine with
# only an NVIDIA driver needs to run TileKit's examples, GPU tests and benchmarks (docs/deploy.md).
#
#   tk_add_bundle()
#       Call once, at the end of the top-level CMakeLists.txt (after every test and benchmark is
#       defined). Without the backend (TK_BUILD_BACKEND=OFF) it only says so.
#
# `cmake --build <dir> --target bundle` builds what the bundle holds and assembles
# <dir>/bundle/ afresh:
#   bin/                     every example, the program of every test labelled `gpu` (recorded by
#                            tk_add_gpu_test), the benchmarks that exist (bench_*), and
#                            tk_find_backend; stripped
#   lib/libtilekit_backend.so  stripped
#   share/tilekit/           source-tree files the GPU tests take as arguments
#   run-tests.sh, README.txt
#
# It is an install of the component `bundle` (rules EXCLUDE_FROM_ALL, so a plain `cmake --install`
# ignores them): `cmake --install --strip` strips, and replaces the build RPATH of the programs
# that link the backend with their INSTALL_RPATH `$ORIGIN/../lib`, so they find lib/ wherever the
# bundle is copied. The programs that load the backend at run time find it in `<exe dir>/../lib`
# (tk/detail/runtime/backend_loader.hpp). The bundle target fails when the result exceeds
# TK_BUNDLE_MAX_MIB, and warns about a test labelled `gpu` that it does not hold (one added with
# add_test rather than tk_add_gpu_test; cmake/bundle/TkBundleCheck.cmake).
#
# Test bundle.relocated [bundle]: copies the assembled bundle elsewhere and checks it runs there
# (tests/bundle/relocated.sh); skipped while build/bundle/ is missing or older than what it holds
# (bundle.stamp, touched when it is assembled).
# scripts/test.sh builds the target before running CTest.

include_guard(GLOBAL)

set(TK_BUNDLE_MAX_MIB 64 CACHE STRING "Largest size of the bundle (target bundle), in MiB")
# The examples built against tk::separate are the same kernels as the others, in another build
# mode: the bundle takes the GPU tests of these only, to keep within TK_BUNDLE_MAX_MIB (CTest
# runs every one on the interpreter).
set(TK_BUNDLE_SEPARATE_EXAMPLES "" CACHE STRING
  "Examples whose tk::separate build (<name>_separate) the bundle takes")

# Internal: whether <target> links the backend library directly.
function(_tk_links_backend target out_var)
  get_target_property(libs ${target} LINK_LIBRARIES)
  if(libs AND "tilekit_backend" IN_LIST libs)
    set(${out_var} TRUE PARENT_SCOPE)
  else()
    set(${out_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Internal: a bash word for <value>, single-quoted.
function(_tk_bash_quote value out_var)
  string(REPLACE "'" "'\\''" value "${value}")
  set(${out_var} "'${value}'" PARENT_SCOPE)
endfunction()

function(tk_add_bundle)
  if(NOT TARGET tilekit_backend)
    message(STATUS "TileKit: no backend library; target bundle not created")
    return()
  endif()
  set(bundle_dir "${PROJECT_BINARY_DIR}/bundle")
  set(files_dir "${PROJECT_BINARY_DIR}/bundle-files")
  set(programs) # targets installed to bin/
  set(runs)     # the lines of run-tests.sh that run them
  set(bundled_tests) # the CTest names of the GPU tests among them

  # tk_find_backend: loads the backend the way the runtime does and says from where. Its
  # compiled-in path names no file, as for a program whose build tree is on another machine.
  add_executable(tk_find_backend EXCLUDE_FROM_ALL
    "${PROJECT_SOURCE_DIR}/tests/bundle/find_backend.cpp")
  target_link_libraries(tk_find_backend PRIVATE tk::frontend ${CMAKE_DL_LIBS})
  target_compile_definitions(tk_find_backend PRIVATE
    TK_BACKEND_LIBRARY_PATH="${PROJECT_BINARY_DIR}/no-such-dir/libtilekit_backend.so")
  set_target_properties(tk_find_backend PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/tests/bundle")
  tk_target_warnings(tk_find_backend)
  list(APPEND programs tk_find_backend)
  string(APPEND runs
    "run check backend.load tk_find_backend "
    "--expect \"\${TK_BACKEND_LIBRARY:-$bundle/lib/libtilekit_backend.so}\"\n")

  # The GPU tests, examples among them (tk_add_gpu_test records each).
  get_property(gpu_tests GLOBAL PROPERTY TK_GPU_TESTS)
  set(data)
  foreach(test IN LISTS gpu_tests)
    get_property(command GLOBAL PROPERTY TK_GPU_TEST_COMMAND_${test})
    get_property(labels GLOBAL PROPERTY TK_GPU_TEST_LABELS_${test})
    set(original_name ${test})
    list(POP_FRONT command target)
    if(NOT TARGET ${target})
      message(STATUS "TileKit: GPU test ${test} runs ${target}, not a target; not in the bundle")
      continue()
    endif()
    get_target_property(name ${target} OUTPUT_NAME)
    if(NOT name)
      set(name ${target})
    endif()
    if(target MATCHES "^tk_example_(.*)_separate$" AND
       NOT CMAKE_MATCH_1 IN_LIST TK_BUNDLE_SEPARATE_EXAMPLES)
      continue()
    endif()
    set(line "${name}")
    foreach(arg IN LISTS command)
      if(IS_ABSOLUTE "${arg}" AND EXISTS "${arg}")
        file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}" "${arg}")
        if(relative MATCHES "^\\.\\./")
          message(FATAL_ERROR "GPU test ${test}: argument ${arg} is outside the source tree; "
            "the bundle cannot ship it")
        endif()
        list(APPEND data "${relative}")
        string(APPEND line " \"$bundle/share/tilekit/${relative}\"")
      else()
        _tk_bash_quote("${arg}" word)
        string(APPEND line " ${word}")
      endif()
    endforeach()
    if("example" IN_LIST labels)
      string(REGEX REPLACE "\\.gpu$" "" test "${test}")
      string(APPEND runs "run example ${test} ${line}\n")
    else()
      string(APPEND runs "run gpu ${test} ${line}\n")
    endif()
    list(APPEND bundled_tests ${original_name})
    list(APPEND programs ${target})
  endforeach()

  # Every example, tested or not.
  foreach(name IN LISTS TK_EXAMPLES)
    if(TARGET tk_example_${name})
      list(APPEND programs tk_example_${name})
    endif()
  endforeach()

  # The benchmarks that exist; run by hand (README.txt).
  foreach(target IN ITEMS bench_trace bench_gpu)
    if(TARGET ${target})
      list(APPEND programs ${target})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES programs)

  foreach(target IN LISTS programs)
    _tk_links_backend(${target} links)
    if(links)
      set_property(TARGET ${target} PROPERTY INSTALL_RPATH "$ORIGIN/../lib")
    endif()
  endforeach()
  install(TARGETS ${programs} RUNTIME DESTINATION bin COMPONENT bundle EXCLUDE_FROM_ALL)
  install(TARGETS tilekit_backend LIBRARY DESTINATION lib COMPONENT bundle EXCLUDE_FROM_ALL)
  list(REMOVE_DUPLICATES data)
  foreach(path IN LISTS data)
    get_filename_component(parent "share/tilekit/${path}" DIRECTORY)
    if(IS_DIRECTORY "${PROJECT_SOURCE_DIR}/${path}")
      install(DIRECTORY "${PROJECT_SOURCE_DIR}/${path}" DESTINATION "${parent}"
        COMPONENT bundle EXCLUDE_FROM_ALL)
    else()
      install(FILES "${PROJECT_SOURCE_DIR}/${path}" DESTINATION "${parent}"
        COMPONENT bundle EXCLUDE_FROM_ALL)
    endif()
  endforeach()

  set(TK_BUNDLE_RUNS "${runs}")
  configure_file("${PROJECT_SOURCE_DIR}/cmake/bundle/run-tests.sh.in"
    "${files_dir}/run-tests.sh" @ONLY)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/bundle/README.txt.in"
    "${files_dir}/README.txt" @ONLY)
  install(PROGRAMS "${files_dir}/run-tests.sh" DESTINATION . COMPONENT bundle EXCLUDE_FROM_ALL)
  install(FILES "${files_dir}/README.txt" DESTINATION . COMPONENT bundle EXCLUDE_FROM_ALL)

  string(REPLACE ";" "," bundled_tests_arg "${bundled_tests}")
  add_custom_target(bundle
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${bundle_dir}" "${PROJECT_BINARY_DIR}/bundle.stamp"
    COMMAND "${CMAKE_COMMAND}" --install "${PROJECT_BINARY_DIR}" --config $<CONFIG>
            --component bundle --strip --prefix "${bundle_dir}"
    COMMAND "${CMAKE_COMMAND}" -D "DIR=${bundle_dir}" -D "MAX_MIB=${TK_BUNDLE_MAX_MIB}"
            -D "BUILD_DIR=${PROJECT_BINARY_DIR}" -D "CTEST=${CMAKE_CTEST_COMMAND}"
            -D "TESTS=${bundled_tests_arg}"
            -P "${PROJECT_SOURCE_DIR}/cmake/bundle/TkBundleCheck.cmake"
    COMMAND "${CMAKE_COMMAND}" -E touch "${PROJECT_BINARY_DIR}/bundle.stamp"
    COMMENT "Assembling the relocatable bundle in ${bundle_dir}"
    VERBATIM)
  add_dependencies(bundle tilekit_backend ${programs})

  if(TK_BUILD_TESTS)
    set(stamps "$<TARGET_FILE:tilekit_backend>")
    foreach(target IN LISTS programs)
      list(APPEND stamps "$<TARGET_FILE:${target}>")
    endforeach()
    add_test(NAME bundle.relocated
      COMMAND bash "${PROJECT_SOURCE_DIR}/tests/bundle/relocated.sh" "${bundle_dir}"
              "${PROJECT_BINARY_DIR}/bundle.stamp" "${TK_BUNDLE_MAX_MIB}" ${stamps})
    set_tests_properties(bundle.relocated PROPERTIES
      LABELS bundle SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
endfunction()
