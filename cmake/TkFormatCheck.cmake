# TkFormatCheck.cmake -- run as
#   cmake -DCLANG_FORMAT=<clang-format> -DSTYLE_ROOT=<dir with .clang-format> \
#         -P TkFormatCheck.cmake -- <dir>...
#
# Runs `clang-format --dry-run -Werror` over every C++ file found, at test
# time, under the given directories. Fails if any file needs reformatting;
# fix with: clang-format-22 -i <files>

cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/TkScriptCommon.cmake")

if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "TkFormatCheck: CLANG_FORMAT not set")
endif()
if(NOT EXISTS "${STYLE_ROOT}/.clang-format")
  message(FATAL_ERROR "TkFormatCheck: ${STYLE_ROOT}/.clang-format not found")
endif()
tk_script_args(dirs)

set(files "")
foreach(dir IN LISTS dirs)
  if(IS_DIRECTORY "${dir}")
    file(GLOB_RECURSE found LIST_DIRECTORIES false
      "${dir}/*.hpp" "${dir}/*.h" "${dir}/*.cpp" "${dir}/*.cc" "${dir}/*.ipp" "${dir}/*.cu")
    list(APPEND files ${found})
  endif()
endforeach()
list(SORT files)
list(LENGTH files count)
if(count EQUAL 0)
  message(STATUS "no C++ files to check")
  return()
endif()

execute_process(
  COMMAND "${CLANG_FORMAT}" --dry-run -Werror --style=file ${files}
  WORKING_DIRECTORY "${STYLE_ROOT}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(NOT result STREQUAL "0")
  # List the offending files first (the full diagnostics can be huge).
  string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: [a-z]+: code should be clang-formatted"
    violations "${out}")
  set(bad_files "")
  foreach(v IN LISTS violations)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: [a-z]+: code should be clang-formatted$" "" f "${v}")
    file(RELATIVE_PATH f "${STYLE_ROOT}" "${f}")
    list(APPEND bad_files "${f}")
  endforeach()
  list(REMOVE_DUPLICATES bad_files)
  list(LENGTH bad_files bad_count)
  list(LENGTH violations violation_count)
  string(SUBSTRING "${out}" 0 3000 excerpt)
  tk_print_excerpt("clang-format (first lines)" "${excerpt}")
  list(JOIN bad_files " " bad_files_shown)
  string(REPLACE ";" "\n  " bad_files_list "${bad_files}")
  message(FATAL_ERROR "${bad_count} of ${count} file(s) need formatting "
    "(${violation_count} places):\n  ${bad_files_list}\n"
    "Fix with (from ${STYLE_ROOT}):\n  ${CLANG_FORMAT} -i ${bad_files_shown}")
endif()
message(STATUS "${count} file(s) correctly formatted")
