# Checks that CTest's entries for a Catch2 program run what they name (cmake -P, with
# -DTEST_PROGRAM=<program>):
#  - no test case name contains ';', which test discovery splits into several entries that each
#    match nothing;
#  - a test spec that matches no test case makes the program fail with exit status 2 and
#    "No test cases matched", so such an entry can never pass (tests/support/catch_strict.hpp).
if(NOT TEST_PROGRAM)
  message(FATAL_ERROR "check_discovery.cmake: pass -DTEST_PROGRAM=<program>")
endif()

execute_process(COMMAND "${TEST_PROGRAM}" --list-test-names-only
  OUTPUT_VARIABLE names RESULT_VARIABLE status)
string(REPLACE ";" "<semicolon>" names "${names}")
string(REPLACE "\n" ";" names "${names}")
set(count 0)
foreach(name IN LISTS names)
  if(name STREQUAL "")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  if(name MATCHES "<semicolon>")
    string(REPLACE "<semicolon>" ";" name "${name}")
    message(SEND_ERROR "test case name contains ';' (CTest would split it): ${name}")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_PROGRAM} lists no test cases (exit status ${status})")
endif()

execute_process(COMMAND "${TEST_PROGRAM}" "no test case has this name"
  OUTPUT_VARIABLE output ERROR_VARIABLE output RESULT_VARIABLE status)
if(NOT status EQUAL 2 OR NOT output MATCHES "No test cases matched")
  message(FATAL_ERROR "an unmatched test spec must fail with exit status 2 and say "
                      "'No test cases matched'; got exit status ${status}:\n${output}")
endif()
message(STATUS "${count} test case names, none with ';'; an unmatched spec fails")
