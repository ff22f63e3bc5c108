# TkIrCheck.cmake -- run as
#   cmake -P TkIrCheck.cmake -- <exe> [args...] "|" <checker> [checker args...]
#
# Runs `<exe> args | <checker> args` and fails if either process fails (the
# equivalent of `set -o pipefail`). The checker is tk-opt, or mlir-opt without
# the backend. Used by tk_add_ir_check().

cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/TkScriptCommon.cmake")

tk_script_args(args)
list(FIND args "|" bar)
if(bar LESS 1)
  message(FATAL_ERROR "TkIrCheck: expected `-- <exe> [args] | <checker> [args]`")
endif()
list(SUBLIST args 0 ${bar} producer)
math(EXPR consumer_begin "${bar} + 1")
list(SUBLIST args ${consumer_begin} -1 consumer)
if(NOT consumer)
  message(FATAL_ERROR "TkIrCheck: no checker command after `|`")
endif()

execute_process(
  COMMAND ${producer}
  COMMAND ${consumer}
  RESULTS_VARIABLE results
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
list(GET results 0 producer_result)
list(GET results 1 consumer_result)

if(NOT producer_result STREQUAL "0" OR NOT consumer_result STREQUAL "0")
  tk_print_excerpt("stderr" "${err}")
  tk_print_excerpt("checker output" "${out}")
  list(JOIN producer " " producer_shown)
  list(JOIN consumer " " consumer_shown)
  message(FATAL_ERROR "IR check failed:\n"
    "  producer: ${producer_shown} -> ${producer_result}\n"
    "  checker:  ${consumer_shown} -> ${consumer_result}")
endif()
list(GET consumer 0 checker)
get_filename_component(checker "${checker}" NAME)
message(STATUS "IR parsed and verified by ${checker}")
