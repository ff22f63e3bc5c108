/// @file Compile.cpp
/// The backend's C ABI (include/tk/backend.h).
///
/// tk_compile: validate the options (before anything in LLVM could call report_fatal_error),
/// then, on a thread of its own with a large stack (the caller's may be small, and MLIR recurses
/// once per level of nesting), check the text's nesting depth and parse and verify it in a
/// private MLIRContext whose diagnostics are captured as text, check block sizes, lower tk IR to
/// the LLVM dialect (CAPI/Lower.cpp), then generate PTX and a cubin (Target/).
#include "tk/backend.h"
#include "tk/detail/env.hpp"

#include "CAPI/Lower.h"
#include "CAPI/Nesting.h"
#include "CAPI/Result.h"
#include "Dialect/Tk/IR/Dialect.h"
#include "Dialect/TkGPU/IR/Dialect.h"
#include "SourceHash.inc"
#include "Target/Cubin.h"
#include "Target/PTXCodeGen.h"
#include "Target/PtxasInfo.h"
#include "Target/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <pthread.h>
#include <string>
#include <vector>

namespace {

using namespace mlir;

tk_status fail(tk_compile_result &result, tk_status status, std::string message) {
  result.status = status;
  if (!message.empty())
    result.error += message + "\n";
  return status;
}

/// A location as users read it: file:line:col (the innermost file location of fused, named or
/// call-site locations), else MLIR's own printing.
std::string describe(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().strref() + ":" + llvm::Twine(file.getLine()) + ":" +
            llvm::Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<FileLineColLoc>(inner))
        return describe(inner);
  if (auto name = dyn_cast<NameLoc>(loc))
    return describe(name.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describe(callSite.getCallee());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

void appendDiagnostic(std::string &out, Diagnostic &diagnostic) {
  out += describe(diagnostic.getLocation()) + ": " + severityName(diagnostic.getSeverity()) + ": " +
         diagnostic.str() + "\n";
  for (Diagnostic &note : diagnostic.getNotes())
    appendDiagnostic(out, note);
}

/// True when every op is builtin, LLVM or NVVM: ready for code generation.
bool isLLVMDialectModule(ModuleOp module) {
  bool ready = true;
  module.walk([&](Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if (dialect != "llvm" && dialect != "nvvm" && dialect != "builtin") {
      ready = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return ready;
}

const char *validate(const char *ir, size_t irLen, const tk_compile_options *opts,
                     const mlir::tk::GpuTarget *&target) {
  if (!opts)
    return "no options given (tk_compile_options_init, then set target)";
  if (!opts->target || !*opts->target)
    return "no target given: set tk_compile_options.target, e.g. \"sm_90a\"";
  target = mlir::tk::lookupGpuTarget(opts->target);
  if (!target)
    return nullptr; // reported with the list of names by the caller
  int warps = opts->num_warps;
  static_assert(mlir::tkgpu::TkGPUDialect::getMaxNumWarps() == 32, "the message below says 32");
  if (warps < 1 || warps > 32 || (warps & (warps - 1)) != 0)
    return "num_warps must be a power of two from 1 to 32";
  if (opts->num_stages < TK_NUM_STAGES_MIN || opts->num_stages > TK_NUM_STAGES_MAX)
    return "num_stages must be " TK_NUM_STAGES_RANGE;
  if (opts->output != TK_OUTPUT_AUTO && opts->output != TK_OUTPUT_PTX &&
      opts->output != TK_OUTPUT_CUBIN)
    return "output must be TK_OUTPUT_AUTO, TK_OUTPUT_PTX or TK_OUTPUT_CUBIN";
  if (!ir || irLen == 0)
    return "empty IR text";
  return "";
}

/// Checks opts.lowering_target against `target`; sets `lowering` to its row (to `target` when
/// none is given or it names `target`). Returns the error text, "" when it is fine.
std::string checkLoweringTarget(const tk_compile_options &opts, const mlir::tk::GpuTarget &target,
                                const mlir::tk::GpuTarget *&lowering) {
  lowering = &target;
  if (!opts.lowering_target || !*opts.lowering_target)
    return "";
  const llvm::StringRef name = opts.lowering_target;
  const mlir::tk::GpuTarget *row = mlir::tk::lookupGpuTarget(name);
  if (!row)
    return ("unknown lowering_target '" + name + "'; supported: " + mlir::tk::gpuTargetNames())
        .str();
  if (row->computeCapability > target.computeCapability)
    return ("lowering_target " + name + " is newer than target " + target.name +
            ": its code may use instructions that " + target.name +
            " lacks; use a target no newer than " + target.name)
        .str();
  if (name.ends_with("a") && row != &target)
    return ("lowering_target " + name + " is architecture-specific: its instructions exist on " +
            name.drop_back() + " alone, not on " + target.name + "; use " + name.drop_back() +
            " or older")
        .str();
  lowering = row;
  return "";
}

/// TK_DUMP: a boolean word (1, on, ...: docs/environment.md) dumps every kernel's IR, or none;
/// any other value is a kernel name, or names separated by commas, and only a module defining a
/// function of one of those names is dumped. The backend reads it itself, so a name is never
/// complained about as a bad boolean.
bool dumpRequested(ModuleOp module) {
  const char *value = std::getenv("TK_DUMP");
  switch (::tk::detail::env::parse(value)) {
  case ::tk::detail::env::setting::on:
    return true;
  case ::tk::detail::env::setting::off:
  case ::tk::detail::env::setting::unset:
    return false;
  case ::tk::detail::env::setting::invalid:
    break;
  }
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(value).split(names, ',', -1, /*KeepEmpty=*/false);
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isDeclaration())
      for (llvm::StringRef name : names)
        if (name.trim() == function.getSymName())
          return true;
  return false;
}

/// The module's text, for tk_compile_options.keep_stages.
std::string printed(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// The compile thread's stack: MLIR's parser, verifier and passes recurse per level of nesting
/// (2-4 KB a level of regions: about 1 MB at kMaxNesting), a 64th of this.
constexpr size_t kCompileStackBytes = size_t(64) << 20;

/// Runs `body` on a new thread with a kCompileStackBytes stack and waits for it; on the
/// caller's thread when no thread can be made (the nesting limit still applies).
template <class Body> void runWithLargeStack(Body &body, bool debug) {
  pthread_attr_t attr;
  pthread_t thread;
  auto trampoline = [](void *arg) -> void * {
    (*static_cast<Body *>(arg))();
    return nullptr;
  };
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, kCompileStackBytes) == 0 &&
              pthread_create(&thread, &attr, trampoline, &body) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started) {
    pthread_join(thread, nullptr);
    return;
  }
  if (debug)
    llvm::errs() << "tk: no thread with a large stack; compiling on the caller's\n";
  body();
}

tk_status compile(llvm::StringRef ir, llvm::StringRef bufferName, const tk_compile_options &opts,
                  const mlir::tk::GpuTarget &target, const mlir::tk::GpuTarget &loweringTarget,
                  tk_compile_result &result, bool debug) {
  auto start = std::chrono::steady_clock::now();
  std::optional<mlir::tk::NestingPosition> deep =
      mlir::tk::findExcessNesting(ir, mlir::tk::kMaxNesting);
  const double scanMs = msSince(start);
  if (deep)
    return fail(result, TK_ERROR_PARSE,
                (llvm::Twine(bufferName) + ":" + llvm::Twine(deep->line) + ":" +
                 llvm::Twine(deep->column) + ": error: nesting deeper than " +
                 llvm::Twine(mlir::tk::kMaxNesting) +
                 " levels of (), [], {} and <>, the most the compiler accepts")
                    .str());

  DialectRegistry registry;
  registry.insert<mlir::tk::TkDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, math::MathDialect, scf::SCFDialect>();
  mlir::tk::registerPTXCodeGenDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diagnostic) {
    appendDiagnostic(result.error, diagnostic);
    return success();
  });

  start = std::chrono::steady_clock::now();
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(ir, config, bufferName);
  result.stageMs[TK_STAGE_PARSE] = scanMs + msSince(start);
  if (!module)
    return fail(result, TK_ERROR_PARSE, "");
  // The tk ops' verifiers bound their blocks; this covers arith, scf and func values too,
  // before any pass does work in proportion to a block's size.
  if (failed(mlir::tk::verifyBlockSizesIn(*module)))
    return fail(result, TK_ERROR_PARSE, "");

  const bool keepStages = opts.keep_stages != 0;
  const bool tkModule = !isLLVMDialectModule(*module);
  if (keepStages)
    result.stageIR.emplace_back(tkModule ? "tk" : "llvm-dialect", printed(*module));
  if (tkModule) {
    start = std::chrono::steady_clock::now();
    mlir::tk::LoweringOptions lowering;
    lowering.numWarps = static_cast<unsigned>(opts.num_warps);
    lowering.numStages = static_cast<unsigned>(opts.num_stages);
    lowering.computeCapability = loweringTarget.computeCapability;
    lowering.wgmma = loweringTarget.name == "sm_90a";
    lowering.sharedPerMultiprocessor = target.sharedKiBPerSM * 1024;
    lowering.sharedPerBlock = target.sharedKiBPerBlock * 1024;
    lowering.dumpIR = dumpRequested(*module);
    std::string gpuIR;
    if (keepStages)
      lowering.gpuIROut = &gpuIR;
    lowering.tensorMaps = opts.tensor_maps != 0;
    lowering.tensorMapsOut = &result.tensorMaps;
    std::vector<std::pair<const char *, double>> passTimes;
    if (debug)
      lowering.stageTimesOut = &passTimes;
    LogicalResult lowered = mlir::tk::lowerToLLVM(*module, lowering);
    result.stageMs[TK_STAGE_PASSES] = msSince(start);
    for (const auto &[name, ms] : passTimes)
      llvm::errs() << "tk:   pass " << name << " " << llvm::format("%.2f", ms) << " ms\n";
    if (!gpuIR.empty())
      result.stageIR.emplace_back("tkgpu", std::move(gpuIR));
    if (failed(lowered))
      return fail(result, TK_ERROR_UNSUPPORTED, "");
    if (keepStages)
      result.stageIR.emplace_back("llvm-dialect", printed(*module));
    result.dynamicSharedBytes =
        static_cast<size_t>(mlir::tkgpu::TkGPUDialect::getModuleSharedBytes(*module));
  }

  FailureOr<mlir::tk::PTXModule> ptx = mlir::tk::translateToPTX(
      *module, target, static_cast<unsigned>(opts.num_warps) * 32,
      /*fpFusion=*/opts.fp_fusion != 0, mlir::tkgpu::TkGPUDialect::getModulePtxVersion(*module),
      /*keepLLVMIR=*/keepStages);
  if (failed(ptx))
    return fail(result, TK_ERROR_CODEGEN, "");
  if (keepStages) {
    result.stageIR.emplace_back("llir", std::move(ptx->llvmIR));
    result.stageIR.emplace_back("ptx", ptx->ptx);
  }
  result.stageMs[TK_STAGE_TRANSLATE] = ptx->translateMs;
  result.stageMs[TK_STAGE_LLVM_OPT] = ptx->optMs;
  result.stageMs[TK_STAGE_PTX] = ptx->ptxMs;
  result.kernelName = ptx->kernelName;
  result.sharedBytes = ptx->sharedBytes + result.dynamicSharedBytes;
  result.ptx = std::move(ptx->ptx);
  if (debug && !ptx->log.empty())
    llvm::errs() << "tk: " << ptx->log;

  if (opts.output == TK_OUTPUT_PTX) {
    result.producerLog = "none: PTX asked for\n";
  } else {
    start = std::chrono::steady_clock::now();
    std::optional<mlir::tk::Cubin> cubin =
        mlir::tk::compilePTXToCubin(result.ptx, target, result.producerLog);
    result.stageMs[TK_STAGE_CUBIN] = msSince(start);
    if (cubin) {
      result.binary = std::move(cubin->bytes);
      result.kind = TK_OUTPUT_CUBIN;
      const mlir::tk::KernelResources used =
          mlir::tk::parsePtxasInfo(cubin->info, result.kernelName);
      result.registers = used.registers;
      result.spillStoreBytes = used.spillStoreBytes;
      result.spillLoadBytes = used.spillLoadBytes;
      result.stackBytes = used.stackBytes;
    } else if (opts.output == TK_OUTPUT_CUBIN) {
      return fail(result, TK_ERROR_NO_CUBIN, "no cubin: " + result.producerLog);
    } else {
      result.producerLog += "none: PTX for the driver's JIT\n";
    }
  }
  if (result.kind == TK_OUTPUT_PTX)
    result.binary = result.ptx;
  if (debug) {
    llvm::errs() << "tk: " << result.kernelName << " for " << target.name;
    if (&loweringTarget != &target)
      llvm::errs() << " (lowered for " << loweringTarget.name << ")";
    llvm::errs() << ": " << result.producerLog;
    for (int stage = 0; stage < TK_STAGE_COUNT; ++stage)
      llvm::errs() << "tk:   " << tk_stage_name(static_cast<tk_stage>(stage)) << " "
                   << llvm::format("%.2f", result.stageMs[stage]) << " ms\n";
  }
  return TK_OK;
}

} // namespace

extern "C" {

void tk_compile_options_init(tk_compile_options *opts) {
  if (!opts)
    return;
  opts->target = nullptr;
  opts->num_warps = 4;
  opts->num_stages = 3;
  opts->output = TK_OUTPUT_AUTO;
  opts->debug = 0;
  opts->fp_fusion = 1;
  opts->lowering_target = nullptr;
  opts->tensor_maps = 0;
  opts->keep_stages = 0;
}

tk_status tk_compile(const char *ir, size_t ir_len, const tk_compile_options *opts,
                     tk_compile_result **out) {
  return tk_compile_named(ir, ir_len, nullptr, opts, out);
}

tk_status tk_compile_named(const char *ir, size_t ir_len, const char *source_name,
                           const tk_compile_options *opts, tk_compile_result **out) {
  if (!out)
    return TK_ERROR_INVALID_ARGUMENT;
  auto *result = new tk_compile_result();
  *out = result;
  const mlir::tk::GpuTarget *target = nullptr;
  const char *problem = validate(ir, ir_len, opts, target);
  if (!problem)
    return fail(*result, TK_ERROR_INVALID_ARGUMENT,
                std::string("unknown target '") + opts->target +
                    "'; supported: " + mlir::tk::gpuTargetNames());
  if (*problem)
    return fail(*result, TK_ERROR_INVALID_ARGUMENT, problem);
  const mlir::tk::GpuTarget *lowering = target;
  if (std::string why = checkLoweringTarget(*opts, *target, lowering); !why.empty())
    return fail(*result, TK_ERROR_INVALID_ARGUMENT, why);
  result->target = target->name.str();
  result->threadsPerBlock = opts->num_warps * 32;
  bool debug = opts->debug || ::tk::detail::env::flag("TK_DEBUG");
  // MLIR's lexer reads the byte after the text, expecting a NUL: `ir` need not have one.
  std::string text(ir, ir_len);
  const std::string name = source_name && *source_name ? source_name : "<tk-ir>";
  tk_status status = TK_OK;
  auto body = [&] { status = compile(text, name, *opts, *target, *lowering, *result, debug); };
  runWithLargeStack(body, debug);
  if (status != TK_OK) {
    result->status = status;
    result->binary.clear();
    if (debug)
      llvm::errs() << "tk: compilation failed:\n" << result->error;
  }
  return status;
}

void tk_compile_result_free(tk_compile_result *res) { delete res; }

tk_status tk_compile_result_status(const tk_compile_result *res) {
  return res ? res->status : TK_ERROR_INVALID_ARGUMENT;
}

const char *tk_compile_result_error(const tk_compile_result *res) {
  return res ? res->error.c_str() : "no result";
}

const void *tk_compile_result_binary(const tk_compile_result *res, size_t *size) {
  bool ok = res && res->status == TK_OK;
  if (size)
    *size = ok ? res->binary.size() : 0;
  return ok ? res->binary.data() : nullptr;
}

tk_output_kind tk_compile_result_kind(const tk_compile_result *res) {
  return res ? res->kind : TK_OUTPUT_PTX;
}

const char *tk_compile_result_ptx(const tk_compile_result *res) {
  return res && res->status == TK_OK ? res->ptx.c_str() : "";
}

const char *tk_compile_result_kernel_name(const tk_compile_result *res) {
  return res ? res->kernelName.c_str() : "";
}

const char *tk_compile_result_target(const tk_compile_result *res) {
  return res ? res->target.c_str() : "";
}

size_t tk_compile_result_shared_bytes(const tk_compile_result *res) {
  return res ? res->sharedBytes : 0;
}

size_t tk_compile_result_dynamic_shared_bytes(const tk_compile_result *res) {
  return res ? res->dynamicSharedBytes : 0;
}

int tk_compile_result_tensor_map_count(const tk_compile_result *res) {
  return res && res->status == TK_OK ? int(res->tensorMaps.size()) : 0;
}

int tk_compile_result_tensor_map(const tk_compile_result *res, int index, tk_tensor_map *out) {
  if (!out || index < 0 || index >= tk_compile_result_tensor_map_count(res))
    return -1;
  *out = res->tensorMaps[size_t(index)];
  return 0;
}

int tk_compile_result_threads_per_block(const tk_compile_result *res) {
  return res ? res->threadsPerBlock : 0;
}

const char *tk_compile_result_producer_log(const tk_compile_result *res) {
  return res ? res->producerLog.c_str() : "";
}

double tk_compile_result_stage_ms(const tk_compile_result *res, tk_stage stage) {
  if (!res || stage < 0 || stage >= TK_STAGE_COUNT)
    return 0;
  return res->stageMs[stage];
}

int tk_compile_result_resources(const tk_compile_result *res, tk_resources *out) {
  if (!res || !out || res->status != TK_OK)
    return -1;
  out->registers = res->registers;
  out->spill_store_bytes = res->spillStoreBytes;
  out->spill_load_bytes = res->spillLoadBytes;
  out->stack_bytes = res->stackBytes;
  out->shared_bytes = int(res->sharedBytes);
  out->threads = res->threadsPerBlock;
  return 0;
}

int tk_compile_result_stage_ir_count(const tk_compile_result *res) {
  return res ? int(res->stageIR.size()) : 0;
}

const char *tk_compile_result_stage_ir(const tk_compile_result *res, int index, const char **name) {
  const bool inRange = index >= 0 && index < tk_compile_result_stage_ir_count(res);
  if (name)
    *name = inRange ? res->stageIR[size_t(index)].first.c_str() : nullptr;
  return inRange ? res->stageIR[size_t(index)].second.c_str() : nullptr;
}

const char *tk_compile_result_stage_ir_named(const tk_compile_result *res, const char *name) {
  if (!res || !name)
    return nullptr;
  for (const auto &[stage, text] : res->stageIR)
    if (stage == name)
      return text.c_str();
  return nullptr;
}

const char *tk_stage_name(tk_stage stage) {
  static const char *const names[TK_STAGE_COUNT] = {"parse",    "passes", "translate",
                                                    "llvm-opt", "ptx",    "cubin"};
  return stage >= 0 && stage < TK_STAGE_COUNT ? names[stage] : nullptr;
}

const char *tk_backend_targets(void) { return mlir::tk::gpuTargetNames(); }

const char *tk_backend_version(void) {
  return "0.1.0 (LLVM " LLVM_VERSION_STRING "; source " TK_BACKEND_SOURCE_HASH ")";
}

int tk_backend_abi_version(void) { return TK_BACKEND_ABI_VERSION; }

const char *tk_backend_producer(void) { return mlir::tk::cubinProducer(); }

} // extern "C"
