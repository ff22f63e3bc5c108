# link.separate_mistakes: the two ways to get TK_SEPARATE_COMPILATION wrong at link time must
# each name what to do in the linker's first error about them (docs/errors.md, "Linking"):
#
#   no file includes <tk/implementation.hpp>    the first undefined reference/symbol is the name
#   two files include it                        the first multiple definition/duplicate symbol is
#
# and the program with exactly one such file links and runs.
#
#   cmake -DTK_FLAGS_FILE=<file> -DDIR=<tests/link> -DWORK_DIR=<dir> [-DLINK_FLAGS=<flags>]
#         [-DLIBS=<libs>] -P separate_mistakes.cmake -- <c++ compiler>
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/TkScriptCommon.cmake")

set(name tk_separate_compilation_needs_exactly_one_source_file_including_tk_implementation_hpp)
tk_script_args(cxx)
if(NOT cxx)
  message(FATAL_ERROR "separate_mistakes: no compiler given after `--`")
endif()
tk_frontend_compile_args(frontend_args "${TK_FLAGS_FILE}")
list(TRANSFORM LIBS PREPEND "-l") # names, as CMAKE_DL_LIBS gives them
file(MAKE_DIRECTORY "${WORK_DIR}")
set(ENV{LC_ALL} C)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(result "${result}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
endfunction()

function(compile source object)
  run(compile ${cxx} -std=c++20 -O1 -DTK_SEPARATE_COMPILATION ${frontend_args} -c "${source}"
      -o "${object}")
  if(NOT result STREQUAL "0")
    tk_print_excerpt("compiler output" "${out}")
    message(FATAL_ERROR "cannot compile ${source}")
  endif()
endfunction()

# Links the objects after `first` into a program, which must fail, and checks that the first line
# matching `first` (the linker's words for the error) names the symbol.
function(expect_link_error mistake first)
  run(link ${cxx} ${LINK_FLAGS} ${ARGN} ${LIBS} -o "${WORK_DIR}/program")
  if(result STREQUAL "0")
    message(FATAL_ERROR "${mistake}: the program linked")
  endif()
  string(REGEX MATCH "[^\n]*(${first})[^\n]*" line "${out}")
  if(NOT line MATCHES "${name}")
    tk_print_excerpt("linker output" "${out}")
    message(FATAL_ERROR "${mistake}: the linker's first error does not name ${name}: ${line}")
  endif()
  message(STATUS "${mistake}: ${line}")
endfunction()

compile("${DIR}/kernels.cpp" "${WORK_DIR}/kernels.o")
compile("${DIR}/implementation.cpp" "${WORK_DIR}/implementation.o")
# A second file including the header: the same file compiled again.
file(COPY_FILE "${WORK_DIR}/implementation.o" "${WORK_DIR}/implementation_again.o")

expect_link_error("no file includes <tk/implementation.hpp>" "undefined"
                  "${WORK_DIR}/kernels.o")
expect_link_error("two files include <tk/implementation.hpp>"
                  "multiple definition|duplicate symbol" "${WORK_DIR}/kernels.o"
                  "${WORK_DIR}/implementation.o" "${WORK_DIR}/implementation_again.o")

run(link ${cxx} ${LINK_FLAGS} "${WORK_DIR}/kernels.o" "${WORK_DIR}/implementation.o" ${LIBS}
    -o "${WORK_DIR}/program")
if(NOT result STREQUAL "0")
  tk_print_excerpt("linker output" "${out}")
  message(FATAL_ERROR "the program with one file including <tk/implementation.hpp> does not link")
endif()
run(program "${WORK_DIR}/program")
if(NOT result STREQUAL "0")
  tk_print_excerpt("program output" "${out}")
  message(FATAL_ERROR "the separately compiled program failed: ${result}")
endif()
message(STATUS "one file including <tk/implementation.hpp>: links and runs")
