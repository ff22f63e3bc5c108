# cmake -D DIR=<bundle dir> -D MAX_MIB=<n> -D BUILD_DIR=<build dir> -D CTEST=<ctest>
#       -D TESTS=<bundled test,...> -P TkBundleCheck.cmake
# Run by the target bundle (cmake/TkBundle.cmake) once the bundle is assembled: prints its size and
# fails when it is above MAX_MIB, and warns about every CTest test labelled `gpu` that is not among
# the bundled TESTS (one registered with add_test rather than tk_add_gpu_test).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" TESTS "${TESTS}")

file(GLOB_RECURSE files LIST_DIRECTORIES false "${DIR}/*")
set(bytes 0)
foreach(file IN LISTS files)
  if(NOT IS_SYMLINK "${file}")
    file(SIZE "${file}" size)
    math(EXPR bytes "${bytes} + ${size}")
  endif()
endforeach()
list(LENGTH files count)
math(EXPR kib "(${bytes} + 1023) / 1024")
math(EXPR limit "${MAX_MIB} * 1024 * 1024")
message(STATUS "TileKit bundle: ${DIR}: ${count} files, ${kib} KiB (limit ${MAX_MIB} MiB)")
if(bytes GREATER limit)
  message(FATAL_ERROR "the bundle is ${kib} KiB, more than the ${MAX_MIB} MiB allowed "
    "(TK_BUNDLE_MAX_MIB)")
endif()

execute_process(COMMAND "${CTEST}" --show-only=json-v1 -L gpu
  WORKING_DIRECTORY "${BUILD_DIR}" OUTPUT_VARIABLE json RESULT_VARIABLE status ERROR_QUIET)
if(NOT status EQUAL 0)
  return()
endif()
string(JSON count ERROR_VARIABLE error LENGTH "${json}" tests)
if(error OR count EQUAL 0)
  return()
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${json}" tests ${i} name)
  if(NOT name IN_LIST TESTS)
    message(WARNING "TileKit bundle: the test ${name} is labelled gpu but is not in the bundle "
      "nor run by run-tests.sh: register it with tk_add_gpu_test (cmake/TkTesting.cmake)")
  endif()
endforeach()
