//===- Cubin.cpp - PTX to cubin through nvJitLink or ptxas ----------------===//
#include "Target/Cubin.h"

#include "Target/CudaPaths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>
#include <optional>

namespace mlir::tk {

namespace {

// nvJitLink's C API (nvJitLink.h), resolved by its versioned names so that no CUDA header or
// library is needed to build or load the backend.
using NvJitLinkHandle = void *;
using NvJitLinkResult = int;
constexpr int kNvJitLinkInputPtx = 2;
struct NvJitLink {
  NvJitLinkResult (*create)(NvJitLinkHandle *, unsigned, const char **);
  NvJitLinkResult (*destroy)(NvJitLinkHandle *);
  NvJitLinkResult (*addData)(NvJitLinkHandle, int, const void *, size_t, const char *);
  NvJitLinkResult (*complete)(NvJitLinkHandle);
  NvJitLinkResult (*cubinSize)(NvJitLinkHandle, size_t *);
  NvJitLinkResult (*cubin)(NvJitLinkHandle, void *);
  NvJitLinkResult (*errorLogSize)(NvJitLinkHandle, size_t *);
  NvJitLinkResult (*errorLog)(NvJitLinkHandle, char *);
};

template <typename F> bool resolve(void *library, const char *name, F &function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}

/// Loaded once per process and kept: nullptr when unavailable, with the reason in `why`.
const NvJitLink *loadNvJitLink(std::string &why) {
  static std::string failure;
  static const NvJitLink *api = []() -> const NvJitLink * {
    for (const std::string &candidate : nvJitLinkCandidates()) {
      void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library) {
        failure += candidate + ": not loadable; ";
        continue;
      }
      static NvJitLink loaded;
      if (resolve(library, "__nvJitLinkCreate_13_0", loaded.create) &&
          resolve(library, "__nvJitLinkDestroy_13_0", loaded.destroy) &&
          resolve(library, "__nvJitLinkAddData_13_0", loaded.addData) &&
          resolve(library, "__nvJitLinkComplete_13_0", loaded.complete) &&
          resolve(library, "__nvJitLinkGetLinkedCubinSize_13_0", loaded.cubinSize) &&
          resolve(library, "__nvJitLinkGetLinkedCubin_13_0", loaded.cubin) &&
          resolve(library, "__nvJitLinkGetErrorLogSize_13_0", loaded.errorLogSize) &&
          resolve(library, "__nvJitLinkGetErrorLog_13_0", loaded.errorLog))
        return &loaded;
      failure += candidate + ": lacks the CUDA 13.0 entry points; ";
      dlclose(library);
    }
    return nullptr;
  }();
  if (!api)
    why = failure;
  return api;
}

std::optional<std::string> viaNvJitLink(const std::string &ptx, const GpuTarget &target,
                                        std::string &why) {
  const NvJitLink *api = loadNvJitLink(why);
  if (!api)
    return std::nullopt;
  std::string arch = "-arch=" + target.name.str();
  const char *options[] = {arch.c_str()};
  NvJitLinkHandle handle = nullptr;
  if (api->create(&handle, 1, options) != 0) {
    why = "nvJitLinkCreate failed for " + arch;
    return std::nullopt;
  }
  std::optional<std::string> cubin;
  if (api->addData(handle, kNvJitLinkInputPtx, ptx.data(), ptx.size(), "kernel.ptx") == 0 &&
      api->complete(handle) == 0) {
    size_t size = 0;
    api->cubinSize(handle, &size);
    std::string bytes(size, '\0');
    if (api->cubin(handle, bytes.data()) == 0)
      cubin = std::move(bytes);
  }
  if (!cubin) {
    size_t size = 0;
    api->errorLogSize(handle, &size);
    std::string text(size, '\0');
    if (size)
      api->errorLog(handle, text.data());
    why = "nvJitLink: " + llvm::StringRef(text.c_str()).trim().str();
  }
  api->destroy(&handle);
  return cubin;
}

/// Removes the temporary files it names when it goes out of scope.
struct TempFiles {
  llvm::SmallVector<llvm::SmallString<128>, 3> paths;
  ~TempFiles() {
    for (auto &path : paths)
      llvm::sys::fs::remove(path);
  }
  bool make(llvm::StringRef suffix, llvm::SmallString<128> &path) {
    if (llvm::sys::fs::createTemporaryFile("tk", suffix, path))
      return false;
    paths.push_back(path);
    return true;
  }
};

std::optional<std::string> viaPtxas(const std::string &ptx, const GpuTarget &target,
                                    std::string &why) {
  std::string tried;
  std::string ptxas = findPtxas(tried);
  if (ptxas.empty()) {
    why = "ptxas: " + tried;
    return std::nullopt;
  }
  TempFiles temps;
  llvm::SmallString<128> input, output, errors;
  if (!temps.make("ptx", input) || !temps.make("cubin", output) || !temps.make("log", errors)) {
    why = "ptxas: cannot create temporary files";
    return std::nullopt;
  }
  {
    std::error_code error;
    llvm::raw_fd_ostream os(input, error);
    if (error) {
      why = "ptxas: cannot write " + input.str().str();
      return std::nullopt;
    }
    os << ptx;
  }
  std::string arch = "-arch=" + target.name.str();
  llvm::StringRef args[] = {ptxas, arch, input, "-o", output};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, errors.str(), errors.str()};
  std::string message;
  int code = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &message);
  if (code != 0) {
    auto log = llvm::MemoryBuffer::getFile(errors);
    why = "ptxas (" + ptxas + ") exited with " + std::to_string(code) + ": " +
          (log ? (*log)->getBuffer().trim().str() : message);
    return std::nullopt;
  }
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin) {
    why = "ptxas: no output " + output.str().str();
    return std::nullopt;
  }
  return (*cubin)->getBuffer().str();
}

/// TK_NVJITLINK: "0" never uses nvJitLink, "1" tries it before ptxas; by default ptxas goes
/// first. A cold compile is what users wait for: nvJitLink's first use in a process costs
/// 100-200 ms (loading and initializing the library), a ptxas process 15-70 ms.
enum class NvJitLinkUse { never, first, afterPtxas };

NvJitLinkUse nvJitLinkUse() {
  const char *value = std::getenv("TK_NVJITLINK");
  if (value && llvm::StringRef(value) == "0")
    return NvJitLinkUse::never;
  if (value && llvm::StringRef(value) == "1")
    return NvJitLinkUse::first;
  return NvJitLinkUse::afterPtxas;
}

} // namespace

std::optional<Cubin> compilePTXToCubin(const std::string &ptx, const GpuTarget &target,
                                       std::string &log) {
  const NvJitLinkUse use = nvJitLinkUse();
  auto tryNvJitLink = [&]() -> std::optional<Cubin> {
    std::string why;
    if (auto bytes = viaNvJitLink(ptx, target, why)) {
      log += "cubin by nvJitLink\n";
      return Cubin{std::move(*bytes), "nvJitLink"};
    }
    log += "nvJitLink failed: " + why + "\n";
    return std::nullopt;
  };
  if (use == NvJitLinkUse::first)
    if (auto cubin = tryNvJitLink())
      return cubin;
  std::string why;
  if (auto bytes = viaPtxas(ptx, target, why)) {
    log += "cubin by ptxas\n";
    return Cubin{std::move(*bytes), "ptxas"};
  }
  log += "ptxas failed: " + why + "\n";
  if (use == NvJitLinkUse::afterPtxas)
    return tryNvJitLink();
  if (use == NvJitLinkUse::never)
    log += "nvJitLink: skipped (TK_NVJITLINK=0)\n";
  return std::nullopt;
}

} // namespace mlir::tk
