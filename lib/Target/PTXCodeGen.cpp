/// @file PTXCodeGen.cpp
/// LLVM + NVVM dialect module to PTX.
#include "Target/PTXCodeGen.h"

#include "Target/CudaPaths.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace mlir::tk {

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit pointers to shared, local and constant memory (NVPTX's -nvptx-short-ptr, set as
    // Triton sets it): with 64-bit ones every shared address the kernel computes (ring slots,
    // wgmma descriptors, cp.async destinations) is 64-bit arithmetic. The option is process
    // state, read when a target machine is created: it applies to every NVPTX compile in this
    // process's LLVM.
    auto &options = llvm::cl::getRegisteredOptions();
    if (auto found = options.find("nvptx-short-ptr"); found != options.end())
      static_cast<llvm::cl::opt<bool> *>(found->second)->setValue(true);
  });
}

/// Collects LLVM's own diagnostics (linker, back end) instead of letting them reach stderr.
struct LLVMDiagnostics {
  std::string errors;
  static void handle(const llvm::DiagnosticInfo *info, void *context) {
    auto *self = static_cast<LLVMDiagnostics *>(context);
    if (info->getSeverity() != llvm::DS_Error)
      return;
    llvm::raw_string_ostream os(self->errors);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info->print(printer);
    os << "\n";
  }
};

bool callsLibdevice(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_"))
      return true;
  return false;
}

/// libdevice's bytes, read once per process and kept (about 0.5 MB); "" when unreadable, with
/// the reason in `error`.
llvm::StringRef libdeviceBitcode(std::string &path, std::string &error) {
  static std::once_flag once;
  static std::unique_ptr<llvm::MemoryBuffer> bitcode;
  static std::string foundPath, readError;
  std::call_once(once, [] {
    foundPath = findLibdevice();
    if (foundPath.empty()) {
      readError = "libdevice.10.bc was not found (set CUDA_PATH)";
      return;
    }
    auto buffer = llvm::MemoryBuffer::getFile(foundPath);
    if (buffer)
      bitcode = std::move(*buffer);
    else
      readError = "cannot read " + foundPath + ": " + buffer.getError().message();
  });
  path = foundPath;
  error = readError;
  return bitcode ? bitcode->getBuffer() : llvm::StringRef();
}

/// Links libdevice's functions that `module` calls, loading only those (lazily) from the
/// bitcode; libdevice's __nvvm_reflect calls are folded by the NVPTX back end's NVVMReflect
/// pass during optimization (no flush-to-zero).
LogicalResult linkLibdevice(llvm::Module &module, ModuleOp op, std::string &log) {
  std::string path, error;
  llvm::StringRef bitcode = libdeviceBitcode(path, error);
  if (bitcode.empty())
    return op.emitError("the kernel calls libdevice (__nv_*) functions, but ") << error;
  auto libdevice =
      llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(bitcode, path), module.getContext());
  if (!libdevice)
    return op.emitError("cannot parse ") << path << ": " << llvm::toString(libdevice.takeError());
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
  if (llvm::Linker::linkModules(module, std::move(*libdevice), llvm::Linker::LinkOnlyNeeded))
    return op.emitError("linking libdevice failed");
  // Linked definitions are external: make them internal so that they are inlined and then
  // dropped instead of each emitted as a .visible .func.
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.getName().starts_with("__nv_"))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  log += "libdevice: linked " + path + "\n";
  return success();
}

/// Links from each library of `libraries` ([library, symbol] pairs: kExternLibrariesAttr) the
/// functions `module` calls, and checks that each symbol then has a definition. Linked functions
/// become internal, so that they are inlined and dropped like libdevice's.
LogicalResult linkExternLibraries(llvm::Module &module, ModuleOp op, ArrayAttr libraries,
                                  std::string &log) {
  llvm::SmallVector<std::pair<StringRef, StringRef>> pairs;
  llvm::SmallVector<StringRef> paths;
  for (Attribute entry : libraries) {
    auto pair = dyn_cast<ArrayAttr>(entry);
    if (!pair || pair.size() != 2 || !isa<StringAttr>(pair[0]) || !isa<StringAttr>(pair[1]))
      return op.emitError() << kExternLibrariesAttr << " must hold [library, symbol] pairs";
    pairs.push_back({cast<StringAttr>(pair[0]).getValue(), cast<StringAttr>(pair[1]).getValue()});
    if (!llvm::is_contained(paths, pairs.back().first))
      paths.push_back(pairs.back().first);
  }
  llvm::StringSet<> linked;
  for (StringRef path : paths) {
    llvm::SMDiagnostic diagnostic;
    std::unique_ptr<llvm::Module> library =
        llvm::parseIRFile(path, diagnostic, module.getContext());
    if (!library) {
      std::string message;
      llvm::raw_string_ostream os(message);
      diagnostic.print(nullptr, os, /*ShowColors=*/false);
      return op.emitError() << "cannot read the device-function library " << path << ": "
                            << llvm::StringRef(message).trim();
    }
    library->setTargetTriple(module.getTargetTriple());
    library->setDataLayout(module.getDataLayout());
    for (llvm::Function &function : *library)
      if (!function.isDeclaration())
        linked.insert(function.getName());
    if (llvm::Linker::linkModules(module, std::move(library), llvm::Linker::LinkOnlyNeeded))
      return op.emitError() << "linking the device-function library " << path << " failed";
    log += "extern library: linked " + path.str() + "\n";
  }
  for (auto [path, symbol] : pairs) {
    llvm::Function *function = module.getFunction(symbol);
    if (function && function->isDeclaration())
      return op.emitError() << "the device function `" << symbol << "` is not defined in " << path;
  }
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && linked.contains(function.getName()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
  return success();
}

/// The LLVM passes our modules get: not O3, but the few of its passes that find work in them.
/// The lowering hands over code that MLIR has already folded and CSE'd, fully unrolled over each
/// thread's elements, and ptxas does the loop work (unrolling, strength reduction, scheduling)
/// again on its own. O3's other passes changed a handful of integer instructions in the PTX of
/// the attention and matmul kernels, and cost 20-38 ms per tensor-core kernel where this
/// pipeline costs 6-11 (build machine).
/// - nvvm-reflect, nvvm-intr-range: what NVPTX's callbacks add at the start of O3 (libdevice
///   asks __nvvm_reflect for the denormal mode).
/// - inline, globaldce: libdevice's functions (made internal) into the kernel, then gone.
/// - sroa, early-cse, instcombine, simplifycfg: libdevice's locals and branches after inlining;
///   the lowering's per-element index arithmetic (bit tricks, shifts for divisions).
/// - licm: address arithmetic that depends only on a loop's bounds out of the loop.
/// - gvn, instcombine, simplifycfg: what licm and inlining exposed.
/// (instcombine as O3 runs it: without the fixpoint check, which is a debugging aid that ends
/// the process when one run leaves more to combine.)
constexpr const char *kLLVMPipeline =
    "nvvm-reflect,function(nvvm-intr-range),cgscc(inline),"
    "function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"
    "loop-mssa(licm),gvn,instcombine<no-verify-fixpoint>,simplifycfg),globaldce";

LogicalResult optimize(llvm::Module &module, llvm::TargetMachine &machine, Operation *op) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // The target machine registers NVPTX's passes (nvvm-reflect, ...) and its TTI.
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(passes, kLLVMPipeline))
    return op->emitError("bad LLVM pass pipeline: ") << llvm::toString(std::move(error));
  passes.run(module, mam);
  return success();
}

uint64_t staticSharedBytes(const llvm::Module &module) {
  constexpr unsigned kSharedAddressSpace = 3;
  const llvm::DataLayout &layout = module.getDataLayout();
  uint64_t bytes = 0;
  for (const llvm::GlobalVariable &global : module.globals()) {
    if (global.getAddressSpace() != kSharedAddressSpace || global.isDeclaration())
      continue;
    uint64_t align = global.getAlign().valueOrOne().value();
    bytes = (bytes + align - 1) / align * align;
    bytes += layout.getTypeAllocSize(global.getValueType());
  }
  return bytes;
}

} // namespace

void registerPTXCodeGenDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

/// Marks every float add, subtract and multiply of `module`'s functions as contractible into an
/// fma (LLVM's `contract` flag), which FPOpFusion::Standard then fuses.
static void allowContraction(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (llvm::isa<llvm::FPMathOperator>(instruction) &&
          (instruction.getOpcode() == llvm::Instruction::FAdd ||
           instruction.getOpcode() == llvm::Instruction::FSub ||
           instruction.getOpcode() == llvm::Instruction::FMul))
        instruction.setHasAllowContract(true);
}

FailureOr<PTXModule> translateToPTX(ModuleOp module, const GpuTarget &target,
                                    unsigned threadsPerBlock, bool fpFusion, unsigned minPtxVersion,
                                    bool keepLLVMIR) {
  PTXModule result;
  auto start = std::chrono::steady_clock::now();

  LLVM::LLVMFuncOp kernel;
  StringRef kernelAttr = NVVM::NVVMDialect::getKernelFuncAttrName();
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!function->hasAttr(kernelAttr))
      continue;
    if (kernel)
      return function.emitError("a module may hold one kernel; ")
             << kernel.getName() << " is one already";
    kernel = function;
  }
  if (!kernel)
    return module.emitError("no kernel: no llvm.func carries the nvvm.kernel attribute");
  result.kernelName = kernel.getName().str();
  MLIRContext *context = module.getContext();
  if (!kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()) &&
      !kernel->hasAttr(NVVM::NVVMDialect::getReqntidAttrName()))
    kernel->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                    DenseI32ArrayAttr::get(context, {static_cast<int32_t>(threadsPerBlock), 1, 1}));

  initializeNVPTX();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!nvptx)
    return module.emitError("NVPTX target unavailable: ") << error;
  std::string features = "+ptx" + std::to_string(std::max(target.ptxVersion, minPtxVersion));
  // With fpFusion, the kernel's own multiplies and adds may fuse into fma (one rounding instead
  // of two), as Triton's default (enable_fp_fusion) allows: they carry LLVM's `contract` flag
  // (allowContraction below). Fusion is not allowed globally, which would also fuse inside
  // libdevice's functions, written for the roundings they spell out. Without fpFusion NVPTX
  // writes mul.rn / add.rn, which ptxas may not contract either, so each operation is rounded
  // as the interpreter rounds it.
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(
      nvptx->createTargetMachine(triple, target.name, features, options, std::nullopt, std::nullopt,
                                 llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return module.emitError("cannot create the NVPTX target machine for ") << target.name;

  // The libraries to link, taken off the module, which translation would not know what to do
  // with.
  auto externLibraries = module->getAttrOfType<ArrayAttr>(kExternLibrariesAttr);
  module->removeAttr(kExternLibrariesAttr);

  llvm::LLVMContext llvmContext;
  LLVMDiagnostics diagnostics;
  llvmContext.setDiagnosticHandlerCallBack(&LLVMDiagnostics::handle, &diagnostics);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, result.kernelName);
  if (!llvmModule)
    return failure(); // translation emitted its diagnostics
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  if (fpFusion)
    allowContraction(*llvmModule); // before libdevice joins the module
  if (externLibraries &&
      failed(linkExternLibraries(*llvmModule, module, externLibraries, result.log)))
    return failure();
  if (callsLibdevice(*llvmModule) && failed(linkLibdevice(*llvmModule, module, result.log)))
    return failure();
  {
    std::string message;
    llvm::raw_string_ostream os(message);
    if (llvm::verifyModule(*llvmModule, &os))
      return module.emitError("invalid LLVM IR after translation: ") << message;
  }
  result.translateMs = msSince(start);

  start = std::chrono::steady_clock::now();
  if (failed(optimize(*llvmModule, *machine, module)))
    return failure();
  result.optMs = msSince(start);
  result.sharedBytes = staticSharedBytes(*llvmModule);
  if (keepLLVMIR) {
    llvm::raw_string_ostream os(result.llvmIR);
    llvmModule->print(os, nullptr);
  }

  start = std::chrono::steady_clock::now();
  llvm::SmallString<0> ptx;
  {
    llvm::raw_svector_ostream os(ptx);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
      return module.emitError("the NVPTX target cannot emit PTX");
    codegen.run(*llvmModule);
  }
  result.ptxMs = msSince(start);
  if (!diagnostics.errors.empty())
    return module.emitError("NVPTX code generation failed: ") << diagnostics.errors;
  result.ptx = ptx.str().str();
  return result;
}

} // namespace mlir::tk
