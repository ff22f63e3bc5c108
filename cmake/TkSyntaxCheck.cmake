# TkSyntaxCheck.cmake -- run as
#   cmake -DTK_FLAGS_FILE=<file> -DSOURCE=<file.cpp> -P TkSyntaxCheck.cmake \
#         -- <c++ compiler> [extra flags...]
#
# Passes iff SOURCE compiles cleanly with
#   <compiler> -std=c++20 -fsyntax-only <tk::frontend includes> <extra flags>

cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/TkScriptCommon.cmake")

if(NOT SOURCE OR NOT EXISTS "${SOURCE}")
  message(FATAL_ERROR "TkSyntaxCheck: SOURCE='${SOURCE}' does not exist")
endif()
tk_script_args(cmd)
if(NOT cmd)
  message(FATAL_ERROR "TkSyntaxCheck: no compiler given after `--`")
endif()
tk_frontend_compile_args(frontend_args "${TK_FLAGS_FILE}")

set(full_cmd ${cmd} -std=c++20 -fsyntax-only -fdiagnostics-color=never
             ${frontend_args} "${SOURCE}")
list(JOIN full_cmd " " shown)
message(STATUS "${shown}")
execute_process(COMMAND ${full_cmd}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(NOT result STREQUAL "0")
  tk_print_excerpt("compiler diagnostics (exit status ${result})" "${out}")
  message(FATAL_ERROR "${SOURCE}: does not compile")
endif()
if(NOT out STREQUAL "")
  message("${out}")
endif()
