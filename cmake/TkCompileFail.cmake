# TkCompileFail.cmake -- run as
#   cmake -DTK_FLAGS_FILE=<file> -DSOURCE=<file.cpp> -P TkCompileFail.cmake \
#         -- <c++ compiler> [extra flags...]
#
# Passes iff compiling SOURCE with
#   <compiler> -std=c++20 -fsyntax-only <tk::frontend includes> <extra flags>
# FAILS (non-zero exit status) AND the compiler's diagnostics (stdout+stderr)
# match every regex given by the leading `// expect: <regex>` lines of SOURCE
# (at least the first line must be one) AND hold exactly one error (a line
# `<file>:<line>:<col>: error: ...` or `fatal error:`), or the number a leading
# `// errors: <n>` line gives: one mistake should give one error, not a cascade.
# Regexes use CMake's regex syntax (`.` also matches a newline; no \d or \s --
# use [0-9] and [ \t\n]). The compiler runs with LC_ALL=C, so GCC quotes with
# plain ' characters.

cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/TkScriptCommon.cmake")

if(NOT SOURCE OR NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "TkCompileFail: SOURCE='${SOURCE}' does not exist")
endif()
tk_script_args(cmd)
if(NOT cmd)
  message(FATAL_ERROR "TkCompileFail: no compiler given after `--`")
endif()
tk_frontend_compile_args(frontend_args "${TK_FLAGS_FILE}")

# --- collect the leading `// expect:` lines (kept as strings, not lists, so
# --- regexes may contain `;`) and the `// errors:` line.
file(READ "${SOURCE}" content LIMIT 16384)
string(REPLACE "\r" "" content "${content}")
set(regexes_count 0)
set(expected_errors 1)
while(TRUE)
  string(FIND "${content}" "\n" nl)
  if(nl EQUAL -1)
    set(line "${content}")
    set(content "")
  else()
    string(SUBSTRING "${content}" 0 ${nl} line)
    math(EXPR next "${nl} + 1")
    string(SUBSTRING "${content}" ${next} -1 content)
  endif()
  if(line MATCHES "^// errors: *([0-9]+) *$")
    set(expected_errors ${CMAKE_MATCH_1})
    if(content STREQUAL "")
      break()
    endif()
    continue()
  endif()
  if(NOT line MATCHES "^// expect: (.*)$")
    break()
  endif()
  string(STRIP "${CMAKE_MATCH_1}" regex)
  if(regex STREQUAL "")
    message(FATAL_ERROR "${SOURCE}: empty `// expect:` regex")
  endif()
  set(regex_${regexes_count} "${regex}")
  math(EXPR regexes_count "${regexes_count} + 1")
  if(content STREQUAL "")
    break()
  endif()
endwhile()
if(regexes_count EQUAL 0)
  message(FATAL_ERROR "${SOURCE}: first line must be `// expect: <regex>`")
endif()

# --- compile (C locale: plain ASCII quotes in GCC's messages)
set(ENV{LC_ALL} C)
execute_process(
  COMMAND ${cmd} -std=c++20 -fsyntax-only -fdiagnostics-color=never
          ${frontend_args} "${SOURCE}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)

if(result STREQUAL "0")
  tk_print_excerpt("compiler output" "${out}")
  message(FATAL_ERROR "${SOURCE}: compiled successfully but was expected to FAIL")
endif()
if(NOT result MATCHES "^[0-9]+$")
  message(FATAL_ERROR "${SOURCE}: could not run the compiler: ${result}")
endif()

set(failed FALSE)
math(EXPR last "${regexes_count} - 1")
foreach(i RANGE 0 ${last})
  if("${out}" MATCHES "${regex_${i}}")
    message(STATUS "matched: ${regex_${i}}")
  else()
    message("NOT matched: ${regex_${i}}")
    set(failed TRUE)
  endif()
endforeach()
# Diagnostic lines start in column 1 (source excerpts and notes under them are
# indented), so an `error:` quoted in a message does not count.
string(REGEX MATCHALL "\n[^ \t\n][^\n]*: (fatal )?error: " errors "\n${out}")
list(LENGTH errors error_count)
if(error_count EQUAL expected_errors)
  message(STATUS "${error_count} error(s), as expected")
else()
  message("${error_count} error(s), expected ${expected_errors}: a mistake should give one "
    "error (guard what depends on a failed static_assert with `if constexpr`), or the test "
    "states the count with `// errors: <n>`")
  set(failed TRUE)
endif()
if(failed)
  tk_print_excerpt("compiler diagnostics (exit status ${result})" "${out}")
  message(FATAL_ERROR "${SOURCE}: failed to compile as expected, but the diagnostics "
    "do not match the `// expect:` regex(es) or the error count above")
endif()
message(STATUS "${SOURCE}: failed to compile as expected (exit status ${result})")
