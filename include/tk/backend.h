/**
 * @file backend.h
 * The backend's C ABI: IR text and options in, a GPU binary and its launch metadata out.
 *
 * Plain C, usable from C and C++, with no MLIR, LLVM or CUDA includes. The implementation,
 * libtilekit_backend.so, links MLIR and LLVM statically and exports only the `tk_` functions
 * below, so a program using it never meets LLVM's symbols or version.
 *
 *     tk_compile_options opts;
 *     tk_compile_options_init(&opts);
 *     opts.target = "sm_90a";
 *     tk_compile_result *res = NULL;
 *     if (tk_compile(ir, strlen(ir), &opts, &res) != TK_OK)
 *       fprintf(stderr, "%s\n", tk_compile_result_error(res));
 *     ... tk_compile_result_binary(res, &size) ...
 *     tk_compile_result_free(res);
 *
 * Thread safety: tk_compile may run on many threads at once; a result belongs to its caller.
 * Environment: TK_DEBUG (log each stage and the binary producer's choice to stderr), TK_DUMP (1:
 * print the IR after each pass of the lowering to stderr; a kernel name, or names separated by
 * commas: those kernels only), TK_PTXAS (the ptxas to run), TK_PTXAS_TIMEOUT (seconds a ptxas
 * run may take), TK_NVJITLINK=0 (skip nvJitLink), CUDA_PATH (where CUDA lives); see
 * docs/backend.md.
 */
#ifndef TK_BACKEND_H
#define TK_BACKEND_H

#include <stddef.h>

#if defined(_WIN32)
#if defined(TK_BACKEND_BUILDING)
#define TK_BACKEND_API __declspec(dllexport)
#else
#define TK_BACKEND_API __declspec(dllimport)
#endif
#else
#define TK_BACKEND_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this interface, which tk_backend_abi_version returns; raised whenever a
 *  function is added or changes, so that a program refuses a backend built for another one. */
#define TK_BACKEND_ABI_VERSION 7

/** The values tk_compile_options.num_stages may take. The front end checks launches and
 *  autotuning configs against the same range, so that what the interpreter accepts compiles. */
#define TK_NUM_STAGES_MIN 1
#define TK_NUM_STAGES_MAX 8
/** The range as errors state it: "from 1 to 8". */
#define TK_NUM_STAGES_RANGE                                                                        \
  "from " TK_BACKEND_STRINGIFY(TK_NUM_STAGES_MIN) " to " TK_BACKEND_STRINGIFY(TK_NUM_STAGES_MAX)
#define TK_BACKEND_STRINGIFY(x) TK_BACKEND_STRINGIFY_(x)
#define TK_BACKEND_STRINGIFY_(x) #x

/** What tk_compile returns. */
typedef enum tk_status {
  TK_OK = 0,
  TK_ERROR_INVALID_ARGUMENT = 1, /**< bad options or arguments: nothing was parsed */
  TK_ERROR_PARSE = 2,            /**< the IR text does not parse or verify */
  TK_ERROR_UNSUPPORTED = 3,      /**< valid IR the backend cannot compile (yet) */
  TK_ERROR_CODEGEN = 4,          /**< translation to LLVM IR or PTX failed */
  TK_ERROR_NO_CUBIN = 5 /**< TK_OUTPUT_CUBIN asked for, but neither nvJitLink nor ptxas worked */
} tk_status;

/** The kind of binary wanted, and the kind produced. */
typedef enum tk_output_kind {
  TK_OUTPUT_AUTO = 0, /**< a cubin when nvJitLink or ptxas works, else PTX for the driver's JIT */
  TK_OUTPUT_PTX = 1,  /**< PTX text (NUL-terminated) */
  TK_OUTPUT_CUBIN = 2 /**< an ELF cubin for exactly the target */
} tk_output_kind;

/** Compilation stages, for tk_compile_result_stage_ms. */
typedef enum tk_stage {
  TK_STAGE_PARSE = 0,     /**< parse and verify the IR text */
  TK_STAGE_PASSES = 1,    /**< the tk → LLVM dialect pass pipeline */
  TK_STAGE_TRANSLATE = 2, /**< LLVM dialect → LLVM IR, libdevice linking */
  TK_STAGE_LLVM_OPT = 3,  /**< LLVM's O3 pipeline */
  TK_STAGE_PTX = 4,       /**< NVPTX code generation */
  TK_STAGE_CUBIN = 5,     /**< nvJitLink or ptxas */
  TK_STAGE_COUNT = 6
} tk_stage;

/** Options; fill with tk_compile_options_init, then set what differs. */
typedef struct tk_compile_options {
  /** "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120a", ...: see
   *  tk_backend_targets. Required. */
  const char *target;
  /** Warps per program (block): a power of two from 1 to 32. Default 4. */
  int num_warps;
  /** Software-pipelining stages for loads in loops: TK_NUM_STAGES_MIN to TK_NUM_STAGES_MAX
   *  (1 to 8). Default 3. */
  int num_stages;
  /** Default TK_OUTPUT_AUTO. */
  tk_output_kind output;
  /** Non-zero: log like TK_DEBUG=1 for this call. */
  int debug;
  /** Non-zero (the default): a float multiply feeding an add may become one fma, rounded once,
   *  as Triton's enable_fp_fusion allows. Zero: every operation is rounded on its own, as the
   *  interpreter does. An explicit tk::fma is an fma either way. */
  int fp_fusion;
  /** The target whose instructions the lowering uses, when older than `target`: "sm_80" with
   *  target "sm_90a" lowers tk.dot to mma.sync instead of wgmma, so that an older GPU's code
   *  path can be measured on a newer GPU. The binary is still made for `target` (the PTX's
   *  .target, ptxas's -arch) and runs there. NULL or "" (the default): `target` itself. Must be
   *  a name tk_backend_targets lists whose compute capability is not above target's; an
   *  architecture-specific one ("sm_90a") only when it is `target`. (Added in ABI version 3.) */
  const char *lowering_target;
  /** Non-zero: the caller builds the tensor maps tk_compile_result_tensor_map describes and
   *  passes them after the kernel's own arguments, so that on sm_90 and newer the tensor
   *  descriptors whose tensor the launch knows are copied by TMA. Zero (the default): every
   *  descriptor takes the pointer path and the kernel has no such parameters. (Added in ABI
   *  version 4.) */
  int tensor_maps;
  /** Non-zero: keep the text of the module after each stage, for tk_compile_result_stage_ir
   *  (Triton's `compiled.asm`). Zero (the default): none is kept. (Added in ABI version 7.) */
  int keep_stages;
} tk_compile_options;

/** The most dimensions of a tensor map. */
#define TK_TENSOR_MAP_MAX_RANK 5

/**
 * A tensor-map parameter of a compiled kernel: a CUtensorMap (128 bytes, 64-byte aligned) the
 * launch encodes with cuTensorMapEncodeTiled and passes by value after the kernel's own
 * arguments, in the order of tk_compile_result_tensor_map's indices. Per dimension, outermost
 * first: the size is the kernel's i32 argument `shape_arg[d]`, or `shape[d]` where that is -1;
 * the stride (in elements) likewise `stride_arg[d]` or `stride[d]` (the last is 1). The tensor
 * starts at the pointer argument `base_arg`; `box` is the block shape a copy moves, laid out in
 * shared memory with the swizzle `swizzle` (0: none; 32, 64 or 128 bytes: the map's
 * CU_TENSOR_MAP_SWIZZLE_32B, _64B or _128B). Elements outside the tensor read as zero (no NaN
 * request), no interleave.
 */
typedef struct tk_tensor_map {
  int rank;          /**< 1 to TK_TENSOR_MAP_MAX_RANK */
  int element_bytes; /**< 1, 2, 4 or 8 */
  int base_arg;
  int shape_arg[TK_TENSOR_MAP_MAX_RANK];
  long long shape[TK_TENSOR_MAP_MAX_RANK];
  int stride_arg[TK_TENSOR_MAP_MAX_RANK];
  long long stride[TK_TENSOR_MAP_MAX_RANK];
  int box[TK_TENSOR_MAP_MAX_RANK];
  int swizzle; /**< 0, 32, 64 or 128 (added in ABI version 5) */
} tk_tensor_map;

/**
 * What the compiled kernel uses, as ptxas reports it (Triton's `n_regs`, `n_spills` and
 * metadata); -1 for what is unknown: registers, spills and stack without a cubin (PTX for the
 * driver's JIT, or TK_OUTPUT_PTX), or from a producer that did not say. (Added in ABI version 7.)
 */
typedef struct tk_resources {
  int registers;         /**< registers per thread */
  int spill_store_bytes; /**< bytes of spill stores per thread */
  int spill_load_bytes;  /**< bytes of spill loads per thread */
  int stack_bytes;       /**< the stack frame per thread, spills included: local memory */
  int shared_bytes;      /**< shared memory per block, static and dynamic */
  int threads;           /**< threads per block: num_warps * 32 */
} tk_resources;

/** The outcome of one tk_compile; opaque, freed by tk_compile_result_free. */
typedef struct tk_compile_result tk_compile_result;

/** Sets the defaults: no target, 4 warps, 3 stages, TK_OUTPUT_AUTO, no debug, fp fusion on, no
 *  lowering_target, no tensor maps, no stages kept. */
TK_BACKEND_API void tk_compile_options_init(tk_compile_options *opts);

/**
 * Compiles one module of IR text (`tk` dialect as the front end prints it, or a module already
 * in the LLVM and NVVM dialects with one `llvm.func` marked `nvvm.kernel`).
 *
 * `ir` need not be NUL-terminated. On return *out holds a result (also on failure, when out is
 * not NULL): the binary on TK_OK, else the error text, each diagnostic as
 * `file:line:col: error: message` with the user's source locations when the IR carries them.
 * Never aborts or prints on bad input (only TK_DEBUG logs to stderr). Runs on a thread of its
 * own with a 64 MB stack, so the caller's stack size does not matter; text nested deeper than
 * 256 levels of brackets, or with a block of more than 2^20 elements, is TK_ERROR_PARSE.
 */
TK_BACKEND_API tk_status tk_compile(const char *ir, size_t ir_len, const tk_compile_options *opts,
                                    tk_compile_result **out);

/**
 * tk_compile with the name diagnostics give the text: `source_name` (a file name, say) where
 * tk_compile writes `<tk-ir>`, in `name:line:col: error: ...` for positions in the text itself.
 * Locations the IR carries (`loc("kernel.cpp":12:7)`) are reported as they are. NULL or "" is
 * `<tk-ir>`. Added after tk_compile: a caller that must run with older libraries looks it up
 * (dlsym) and falls back to tk_compile.
 */
TK_BACKEND_API tk_status tk_compile_named(const char *ir, size_t ir_len, const char *source_name,
                                          const tk_compile_options *opts, tk_compile_result **out);

/** Frees a result; NULL is allowed. */
TK_BACKEND_API void tk_compile_result_free(tk_compile_result *res);

/** The status tk_compile returned with this result. */
TK_BACKEND_API tk_status tk_compile_result_status(const tk_compile_result *res);
/** The error text ("" on success): one diagnostic per line. */
TK_BACKEND_API const char *tk_compile_result_error(const tk_compile_result *res);
/** The binary (NULL on failure) and its size in bytes; PTX is NUL-terminated, the size excludes
 *  the NUL. */
TK_BACKEND_API const void *tk_compile_result_binary(const tk_compile_result *res, size_t *size);
/** TK_OUTPUT_PTX or TK_OUTPUT_CUBIN: what tk_compile_result_binary holds. */
TK_BACKEND_API tk_output_kind tk_compile_result_kind(const tk_compile_result *res);
/** The PTX text, also when the binary is a cubin ("" on failure). */
TK_BACKEND_API const char *tk_compile_result_ptx(const tk_compile_result *res);
/** The kernel's symbol name, for cuModuleGetFunction. */
TK_BACKEND_API const char *tk_compile_result_kernel_name(const tk_compile_result *res);
/** The target compiled for ("sm_90a"). */
TK_BACKEND_API const char *tk_compile_result_target(const tk_compile_result *res);
/** Shared memory in bytes the kernel uses in all: static arrays plus the dynamic part. */
TK_BACKEND_API size_t tk_compile_result_shared_bytes(const tk_compile_result *res);
/** Dynamic shared memory in bytes the launch must provide (cuLaunchKernel's sharedMemBytes;
 *  above 48 KB the function needs CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES first). */
TK_BACKEND_API size_t tk_compile_result_dynamic_shared_bytes(const tk_compile_result *res);
/** The tensor-map parameters the launch must pass (0 without tk_compile_options::tensor_maps).
 *  (Added in ABI version 4.) */
TK_BACKEND_API int tk_compile_result_tensor_map_count(const tk_compile_result *res);
/** Copies the `index`-th tensor map's recipe to *out; returns 0, or -1 when `index` is out of
 *  range (or either pointer is NULL). (Added in ABI version 4.) */
TK_BACKEND_API int tk_compile_result_tensor_map(const tk_compile_result *res, int index,
                                                tk_tensor_map *out);
/** Threads per block to launch with: num_warps * 32. */
TK_BACKEND_API int tk_compile_result_threads_per_block(const tk_compile_result *res);
/** What produced the binary: "nvJitLink", "ptxas" or "none" (PTX for the driver's JIT), and
 *  why the ones before it failed. */
TK_BACKEND_API const char *tk_compile_result_producer_log(const tk_compile_result *res);
/** Milliseconds spent in a stage (0 for stages not run). */
TK_BACKEND_API double tk_compile_result_stage_ms(const tk_compile_result *res, tk_stage stage);

/**
 * Copies what the kernel uses to *out (tk_resources; -1 for what is unknown); returns 0, or -1
 * for a failed result or a NULL pointer. A result from the disk cache has them too. (Added in
 * ABI version 7.)
 */
TK_BACKEND_API int tk_compile_result_resources(const tk_compile_result *res, tk_resources *out);

/**
 * The texts tk_compile_options.keep_stages kept: the module after each stage, in order, each
 * under a stable name:
 *   "tk"           the `tk` IR as parsed (verified, printed without locations)
 *   "tkgpu"        the last form in the tk and tkgpu dialects, before conversion to LLVM:
 *                  layouts, coalescing, tensor-core layouts, pipelining and shared memory decided
 *   "llvm-dialect" the module in the LLVM and NVVM dialects
 *   "llir"         the LLVM IR after optimization (libdevice linked and inlined)
 *   "ptx"          the PTX
 * A module given in the LLVM dialect has no "tk" or "tkgpu" stage: its "llvm-dialect" is the
 * text as parsed. The cubin, when one was made, is tk_compile_result_binary. A failed compile
 * keeps the stages before the failure. 0 without keep_stages. (Added in ABI version 7.)
 */
TK_BACKEND_API int tk_compile_result_stage_ir_count(const tk_compile_result *res);
/** The `index`-th stage's text (NUL-terminated), its name in *name when name is not NULL; NULL
 *  (and *name NULL) when index is out of range. Both live as long as the result. (Added in ABI
 *  version 7.) */
TK_BACKEND_API const char *tk_compile_result_stage_ir(const tk_compile_result *res, int index,
                                                      const char **name);
/** The text of the stage named `name` ("tk", "tkgpu", "llvm-dialect", "llir", "ptx"), or NULL
 *  when the result has none. (Added in ABI version 7.) */
TK_BACKEND_API const char *tk_compile_result_stage_ir_named(const tk_compile_result *res,
                                                            const char *name);

/** "parse", "passes", "translate", "llvm-opt", "ptx", "cubin"; NULL when out of range. */
TK_BACKEND_API const char *tk_stage_name(tk_stage stage);
/** The supported targets, space-separated ("sm_75 sm_80 ..."). */
TK_BACKEND_API const char *tk_backend_targets(void);
/** The backend's version, "0.1.0 (LLVM 22.1.8; source 1f0c9a2b3d4e)": the release, LLVM's version
 *  and a hash of the sources it was built from; part of every cache key. */
TK_BACKEND_API const char *tk_backend_version(void);
/** TK_BACKEND_ABI_VERSION as the library was built. (Version 1 had no such function.) */
TK_BACKEND_API int tk_backend_abi_version(void);
/** What would make the cubin of a tk_compile call now (TK_OUTPUT_AUTO or TK_OUTPUT_CUBIN): the
 *  first producer that is there, in the order tk_compile tries them: "ptxas <path> (<its
 *  --version line>; <size> bytes, modified <ns>)", "nvJitLink 13.0 (<library>)", or "driver
 *  JIT" (PTX for the driver). Part of every cache key, so that a cubin made by one toolchain is
 *  not reused under another. Looked up once per process (and setting of TK_NVJITLINK, TK_PTXAS,
 *  CUDA_PATH and PATH): the first call runs `ptxas --version`; the text lives as long as the
 *  process. */
TK_BACKEND_API const char *tk_backend_producer(void);

/** How tk_compile_cached uses the disk cache. (Added in ABI version 6.) */
typedef enum tk_cache_mode {
  /** Take the binary from the cache entry when there is a valid one, else compile; the caller
   *  stores a fresh binary with tk_compile_result_cache_store once it has loaded it. */
  TK_CACHE_USE = 0,
  /** Delete the entry, then compile: for an entry whose binary the driver rejected. */
  TK_CACHE_REPLACE = 1
} tk_cache_mode;

/**
 * tk_compile_named through the disk cache of compiled kernels: `$TK_CACHE_DIR`, else the user's
 * cache directory (tk_cache_directory; docs/runtime.md, "Disk cache"), keyed by everything that
 * decides the binary: the IR, the options (target, num_warps, num_stages, fp_fusion,
 * lowering_target, tensor_maps, output), tk_backend_version and tk_backend_producer. Entries are
 * verified on every read; a damaged or stale one is a miss (TK_DEBUG=1 says why). Without a
 * cache directory, or when it cannot be written, it compiles as tk_compile_named does.
 *
 * A result from the cache has the binary, its launch metadata, shared_bytes and resources
 * (tk_compile_result_resources); its PTX is "" (unless the binary is PTX) and its stage times
 * are 0. With tk_compile_options.keep_stages, the entry is not read (it keeps no stage IR): the
 * kernel is compiled afresh, and its result may be stored as any other. keep_stages is not part
 * of the key. (Added in ABI version 6.)
 */
TK_BACKEND_API tk_status tk_compile_cached(const char *ir, size_t ir_len, const char *source_name,
                                           const tk_compile_options *opts, tk_cache_mode mode,
                                           tk_compile_result **out);
/** Non-zero when tk_compile_cached took the binary from the disk cache. */
TK_BACKEND_API int tk_compile_result_from_cache(const tk_compile_result *res);
/** The path of the result's cache entry; "" without a disk cache (or for tk_compile's
 *  results). */
TK_BACKEND_API const char *tk_compile_result_cache_entry(const tk_compile_result *res);
/** Writes a freshly compiled result of tk_compile_cached to its cache entry (atomically,
 *  replacing what is there): 1 when written; 0 for a result from the cache, a failed one, one
 *  without a cache, or a directory that cannot be written (TK_DEBUG=1 says why, once). */
TK_BACKEND_API int tk_compile_result_cache_store(const tk_compile_result *res);

/** The disk cache's directory as tk_compile_cached would use it now; "" when there is none. The
 *  text lives until the next call on the same thread. */
TK_BACKEND_API const char *tk_cache_directory(void);
/**
 * Other entries of the disk cache (autotuning results, say): the payload stored under `kind`
 * (1 to 16 characters of [a-z0-9_-], not "cubin") and the key made of `count` byte strings
 * `parts[i]` of `sizes[i]` bytes (and tk_backend_version), or NULL for a miss. *size receives its
 * length; free it with tk_cache_free.
 */
TK_BACKEND_API void *tk_cache_load(const char *kind, const char *const *parts, const size_t *sizes,
                                   size_t count, size_t *size);
/** Stores `payload` for tk_cache_load's `kind` and key: 1 when written, else 0. */
TK_BACKEND_API int tk_cache_store(const char *kind, const char *const *parts, const size_t *sizes,
                                  size_t count, const void *payload, size_t size);
/** Frees what tk_cache_load returned; NULL is allowed. */
TK_BACKEND_API void tk_cache_free(void *payload);

#ifdef __cplusplus
}
#endif

#endif /* TK_BACKEND_H */
