# headers.lean: #include <tk/tk.hpp> must not bring in the standard headers that cost the most to
# parse (docs/build-cost.md), directly or through another header. Lists the include tree with the
# compiler's -H and fails naming each such header and the chain that brought it in.
#
#   cmake -DCXX=<compiler> -DINCLUDE_DIR=<include/> -DSOURCE=<tu.cpp> -P lean_includes.cmake
cmake_minimum_required(VERSION 3.25)

foreach(var CXX INCLUDE_DIR SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "lean_includes.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(
  COMMAND "${CXX}" -std=c++20 -fsyntax-only -H -I "${INCLUDE_DIR}" "${SOURCE}"
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE tree)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} failed:\n${tree}")
endif()

# What -H prints: one line per header, its depth as leading dots.
set(heavy memory functional sstream istream algorithm unordered_map filesystem fstream thread)
string(REPLACE "\n" ";" lines "${tree}")
set(chain "")
set(found "")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^(\\.+) (.+)$")
    continue()
  endif()
  string(LENGTH "${CMAKE_MATCH_1}" depth)
  set(path "${CMAKE_MATCH_2}")
  list(LENGTH chain n)
  while(n GREATER_EQUAL depth)
    list(POP_BACK chain)
    list(LENGTH chain n)
  endwhile()
  list(APPEND chain "${path}")
  get_filename_component(name "${path}" NAME)
  if(name IN_LIST heavy AND path MATCHES "c\\+\\+")
    list(JOIN chain "\n    -> " via)
    string(APPEND found "  <${name}>, through\n    ${via}\n")
  endif()
endforeach()

if(found)
  message(FATAL_ERROR
    "<tk/tk.hpp> includes standard headers it should not (each costs parse time in every "
    "translation unit; docs/build-cost.md says what to use instead):\n${found}")
endif()
message(STATUS "<tk/tk.hpp> includes none of: ${heavy}")
