# source.file_headers: every C++ source file of the project opens with the same header,
#
#   /// @file <its own file name>
#   /// <what the file is, one or more lines>
#
# and the C header of the backend's ABI with the same in a C comment (` * @file backend.h`). Files
# whose first line is a directive for their test (tests/compile_fail: `// expect: ...`) are not
# sources. Fails naming each file that does not follow it.
#
#   cmake -DROOT=<source dir> -P file_headers.cmake
cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED ROOT)
  message(FATAL_ERROR "file_headers.cmake: -DROOT=<source dir> is required")
endif()

set(globs)
foreach(dir include lib tools examples tests bench docs)
  foreach(ext h hpp ipp cpp cu)
    list(APPEND globs "${ROOT}/${dir}/*.${ext}")
  endforeach()
endforeach()
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${ROOT}" ${globs})
list(FILTER files EXCLUDE REGEX "^tests/compile_fail/")
list(LENGTH files count)
if(count LESS 100)
  message(FATAL_ERROR "found only ${count} source files under ${ROOT}: is ROOT the source tree?")
endif()

set(bad "")
foreach(rel IN LISTS files)
  get_filename_component(name "${rel}" NAME)
  file(STRINGS "${ROOT}/${rel}" head LIMIT_COUNT 2)
  list(LENGTH head n)
  if(n LESS 2)
    string(APPEND bad "\n  ${rel}: fewer than two lines")
    continue()
  endif()
  list(GET head 0 first)
  list(GET head 1 second)
  if(rel MATCHES "\\.h$" AND first STREQUAL "/**")
    set(want " * @file ${name}")
    set(got "${second}")
  else()
    set(want "/// @file ${name}")
    set(got "${first}")
    if(NOT second MATCHES "^/// [^ ]")
      string(APPEND bad "\n  ${rel}: line 2 should describe the file (`/// ...`), is `${second}`")
    endif()
  endif()
  if(NOT got STREQUAL want)
    string(APPEND bad "\n  ${rel}: should open with `${want}`, opens with `${got}`")
  endif()
endforeach()

if(bad)
  message(FATAL_ERROR "source files without the project's file header:${bad}")
endif()
message(STATUS "${count} source files open with `/// @file <name>` and a description")
