/* include/tk/backend.h is plain C: this file compiles it as C into tk_backend_test. */
#include "tk/backend.h"

int tk_backend_header_is_c(void);

int tk_backend_header_is_c(void) {
  tk_compile_options opts;
  tk_resources used;
  tk_compile_options_init(&opts);
  return opts.num_warps == 4 && opts.keep_stages == 0 && tk_stage_name(TK_STAGE_PARSE) != NULL &&
         tk_compile_result_resources(NULL, &used) == -1 &&
         tk_compile_result_stage_ir_count(NULL) == 0;
}
