# cmake -DROOT=<source dir> -DOUTPUT=<seed dir> "-DFILES=<paths relative to ROOT>" -P seeds.cmake
#
# Writes the fuzzer's generated seeds: every golden and lit IR file, split at `// -----` lines
# into one file per module, with whole-line `//` comments (RUN, CHECK, expected-error, headers)
# left out. tests/golden/control.mlir's third module becomes golden-control-2.mlir, and
# tests/lit/Dialect/Tk/ops.mlir's first lit-Dialect-Tk-ops-0.mlir. OUTPUT is emptied first, so
# that seeds of deleted or shortened files go away. Pure string operations: IR text holds `;`
# and brackets, which CMake lists would mangle.
cmake_minimum_required(VERSION 3.25)

foreach(var ROOT OUTPUT FILES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "seeds.cmake: ${var} not given")
  endif()
endforeach()

file(REMOVE_RECURSE "${OUTPUT}")
file(MAKE_DIRECTORY "${OUTPUT}")
set(count 0)
set(mark "@@tk-fuzz-seed-split@@")
foreach(file IN LISTS FILES)
  file(READ "${ROOT}/${file}" text)
  string(REGEX REPLACE "^tests/" "" name "${file}")
  string(REGEX REPLACE "\\.mlir$" "" name "${name}")
  string(REPLACE "/" "-" name "${name}")
  # Mark the split lines with a word IR text does not hold, then drop comment lines (the leading
  # newline lets the first line match too).
  string(REGEX REPLACE "\n// -----[^\n]*" "\n${mark}" text "\n${text}")
  string(REGEX REPLACE "\n[ \t]*//[^\n]*" "" text "${text}")
  set(index 0)
  while(TRUE)
    string(FIND "${text}" "${mark}" split)
    if(split EQUAL -1)
      set(chunk "${text}")
    else()
      string(SUBSTRING "${text}" 0 ${split} chunk)
      string(LENGTH "${mark}" rest)
      math(EXPR rest "${split} + ${rest}")
      string(SUBSTRING "${text}" ${rest} -1 text)
    endif()
    string(STRIP "${chunk}" chunk)
    if(NOT chunk STREQUAL "")
      file(WRITE "${OUTPUT}/${name}-${index}.mlir" "${chunk}\n")
      math(EXPR count "${count} + 1")
    endif()
    math(EXPR index "${index} + 1")
    if(split EQUAL -1)
      break()
    endif()
  endwhile()
endforeach()
file(WRITE "${OUTPUT}.stamp" "${count} seeds\n")
