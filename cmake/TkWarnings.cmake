# TkWarnings.cmake -- warning flags for TileKit's own targets.
#
#   tk_target_warnings(<target>)
#
# Adds -Wall -Wextra (and -Werror when TK_WARNINGS_AS_ERRORS is ON, the
# default) to <target> as PRIVATE compile options. Only use this on targets we
# compile ourselves (tests, examples, header checks); tk::frontend is an
# INTERFACE library and never forces warning flags on its consumers.

include_guard(GLOBAL)

set(TK_WARNING_FLAGS -Wall -Wextra)
if(TK_WARNINGS_AS_ERRORS)
  list(APPEND TK_WARNING_FLAGS -Werror)
endif()

function(tk_target_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE ${TK_WARNING_FLAGS})
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${TK_WARNINGS_AS_ERRORS}>:/WX>)
  endif()
endfunction()
