/// @file Cubin.cpp
/// PTX to cubin through nvJitLink or ptxas.
#include "Target/Cubin.h"

#include "Target/CubinCheck.h"
#include "Target/CudaPaths.h"
#include "Target/Subprocess.h"
#include "tk/detail/env.hpp"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <optional>
#include <sys/stat.h>

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
  NvJitLinkResult (*version)(unsigned *, unsigned *);
  // The info log (-verbose: what the kernel uses); optional, null when the library lacks them.
  NvJitLinkResult (*infoLogSize)(NvJitLinkHandle, size_t *) = nullptr;
  NvJitLinkResult (*infoLog)(NvJitLinkHandle, char *) = nullptr;
  std::string path; // the file that loaded
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
          resolve(library, "__nvJitLinkGetErrorLog_13_0", loaded.errorLog) &&
          resolve(library, "nvJitLinkVersion", loaded.version)) {
        loaded.path = candidate;
        if (!resolve(library, "__nvJitLinkGetInfoLogSize_13_0", loaded.infoLogSize) ||
            !resolve(library, "__nvJitLinkGetInfoLog_13_0", loaded.infoLog)) {
          loaded.infoLogSize = nullptr;
          loaded.infoLog = nullptr;
        }
        return &loaded;
      }
      failure += candidate + ": lacks the CUDA 13.0 entry points; ";
      dlclose(library);
    }
    return nullptr;
  }();
  if (!api)
    why = failure;
  return api;
}

/// The handle's info log: with -verbose, ptxas's lines about the kernel ("" when unavailable).
std::string nvJitLinkInfo(const NvJitLink &api, NvJitLinkHandle handle) {
  size_t size = 0;
  if (!api.infoLogSize || !api.infoLog || api.infoLogSize(handle, &size) != 0 || size == 0)
    return "";
  std::string text(size, '\0');
  if (api.infoLog(handle, text.data()) != 0)
    return "";
  return std::string(llvm::StringRef(text.c_str()));
}

std::optional<std::string> viaNvJitLink(const std::string &ptx, const GpuTarget &target,
                                        std::string &why, std::string &info) {
  const NvJitLink *api = loadNvJitLink(why);
  if (!api)
    return std::nullopt;
  std::string arch = "-arch=" + target.name.str();
  const char *options[] = {arch.c_str(), "-verbose"};
  NvJitLinkHandle handle = nullptr;
  if (api->create(&handle, 2, options) != 0) {
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
    info = nvJitLinkInfo(*api, handle);
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
  if (cubin)
    if (std::string problem = ::tk::detail::cubin_problem(*cubin, target.name); !problem.empty()) {
      why = "nvJitLink (" + api->path + ") made an invalid cubin: " + problem;
      return std::nullopt;
    }
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

/// TK_PTXAS_TIMEOUT: how long a ptxas run may take, in seconds (0: no limit). The largest
/// kernels take ptxas a few seconds; a run 20 times longer than that is hung, and a launch
/// waiting on it should say so rather than wait forever.
unsigned ptxasTimeoutSeconds() {
  constexpr unsigned defaultSeconds = 120;
  const char *value = std::getenv("TK_PTXAS_TIMEOUT");
  if (!value || !*value)
    return defaultSeconds;
  unsigned seconds = 0;
  if (llvm::StringRef(value).trim().getAsInteger(10, seconds)) {
    ::tk::detail::env::complain_once(
        "TK_PTXAS_TIMEOUT", value, "a whole number of seconds (0: no limit)", "the default, 120 s");
    return defaultSeconds;
  }
  return seconds;
}

/// Runs ptxas with `args` (after its path); its stdout and stderr go to `logFile`. "" when it
/// exited with 0, else why not, naming ptxas, its path and, on a timeout, the variable to change.
std::string runPtxas(const std::string &ptxas, llvm::ArrayRef<llvm::StringRef> args,
                     llvm::StringRef logFile) {
  llvm::SmallVector<llvm::StringRef, 8> argv{ptxas};
  argv.append(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logFile, logFile};
  const ToolRun run = runTool(ptxas, argv, redirects, ptxasTimeoutSeconds());
  std::string why = describeToolRun(run, "ptxas (" + ptxas + ")");
  if (run.timedOut)
    why += "; set TK_PTXAS_TIMEOUT to the seconds it may take (0: no limit)";
  return why;
}

/// `log` without ptxas -v's `ptxas info` lines: what is left of a failure's output.
std::string withoutInfo(llvm::StringRef log) {
  std::string out;
  llvm::SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (!line.starts_with("ptxas info") && !line.trim().empty())
      out += (out.empty() ? "" : "\n") + line.str();
  return out;
}

std::optional<std::string> viaPtxas(const std::string &ptx, const GpuTarget &target,
                                    std::string &why, std::string &info) {
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
  // -v last: the arguments before it keep their places (tests' stand-ins for ptxas rely on it).
  std::string failure = runPtxas(ptxas, {arch, input, "-o", output, "-v"}, errors);
  auto log = llvm::MemoryBuffer::getFile(errors);
  const llvm::StringRef logText = log ? (*log)->getBuffer() : llvm::StringRef();
  if (!failure.empty()) {
    std::string text = withoutInfo(logText);
    why = text.empty() ? failure : failure + ": " + text;
    return std::nullopt;
  }
  info = logText.str();
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin || (*cubin)->getBufferSize() == 0) {
    why = "ptxas (" + ptxas + ") exited with 0 but wrote no cubin";
    return std::nullopt;
  }
  std::string bytes = (*cubin)->getBuffer().str();
  if (std::string problem = ::tk::detail::cubin_problem(bytes, target.name); !problem.empty()) {
    why = "ptxas (" + ptxas + ") wrote an invalid cubin: " + problem;
    return std::nullopt;
  }
  return bytes;
}

/// TK_NVJITLINK: off never uses nvJitLink, on tries it before ptxas; unset, ptxas goes first.
/// A cold compile is what users wait for: nvJitLink's first use in a process costs 100-200 ms
/// (loading and initializing the library), a ptxas process 15-70 ms.
enum class NvJitLinkUse { never, first, afterPtxas };

NvJitLinkUse nvJitLinkUse() {
  switch (::tk::detail::env::read("TK_NVJITLINK",
                                  "the default: ptxas first, nvJitLink when ptxas fails")) {
  case ::tk::detail::env::setting::off:
    return NvJitLinkUse::never;
  case ::tk::detail::env::setting::on:
    return NvJitLinkUse::first;
  default:
    return NvJitLinkUse::afterPtxas;
  }
}

/// "ptxas <path> (<its --version line>; <size> bytes, modified <ns since the epoch>)": size and
/// time tell a replaced binary from the one before even when its version is the same, and the
/// version names what a wrapper script runs.
std::string ptxasIdentity(const std::string &ptxas) {
  struct stat st{};
  if (stat(ptxas.c_str(), &st) != 0)
    return "ptxas " + ptxas + " (cannot stat)";
  std::string version = "no version";
  TempFiles temps;
  llvm::SmallString<128> out;
  if (temps.make("version", out)) {
    if (std::string failure = runPtxas(ptxas, {"--version"}, out); !failure.empty()) {
      version = "--version failed: " + failure;
    } else if (auto text = llvm::MemoryBuffer::getFile(out)) {
      llvm::SmallVector<llvm::StringRef> lines;
      (*text)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef line : lines)
        if (line.contains("release"))
          version = line.trim().str();
      if (version == "no version" && !lines.empty())
        version = lines.back().trim().str();
    }
  }
  const long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                          static_cast<long long>(st.st_mtim.tv_nsec);
  return "ptxas " + ptxas + " (" + version + "; " + std::to_string(st.st_size) +
         " bytes, modified " + std::to_string(mtime) + ")";
}

std::string nvJitLinkIdentity(const NvJitLink &api) {
  unsigned major = 0, minor = 0;
  api.version(&major, &minor);
  return "nvJitLink " + std::to_string(major) + "." + std::to_string(minor) + " (" + api.path + ")";
}

/// The first producer compilePTXToCubin would try that is there.
std::string findProducer() {
  const NvJitLinkUse use = nvJitLinkUse();
  std::string why;
  if (use == NvJitLinkUse::first)
    if (const NvJitLink *api = loadNvJitLink(why))
      return nvJitLinkIdentity(*api);
  std::string tried;
  if (std::string ptxas = findPtxas(tried); !ptxas.empty())
    return ptxasIdentity(ptxas);
  if (use == NvJitLinkUse::afterPtxas)
    if (const NvJitLink *api = loadNvJitLink(why))
      return nvJitLinkIdentity(*api);
  return "driver JIT";
}

} // namespace

std::optional<Cubin> compilePTXToCubin(const std::string &ptx, const GpuTarget &target,
                                       std::string &log) {
  const NvJitLinkUse use = nvJitLinkUse();
  auto tryNvJitLink = [&]() -> std::optional<Cubin> {
    std::string why, info;
    if (auto bytes = viaNvJitLink(ptx, target, why, info)) {
      log += "cubin by nvJitLink\n";
      return Cubin{std::move(*bytes), "nvJitLink", std::move(info)};
    }
    log += "nvJitLink failed: " + why + "\n";
    return std::nullopt;
  };
  if (use == NvJitLinkUse::first)
    if (auto cubin = tryNvJitLink())
      return cubin;
  std::string why, info;
  if (auto bytes = viaPtxas(ptx, target, why, info)) {
    log += "cubin by ptxas\n";
    return Cubin{std::move(*bytes), "ptxas", std::move(info)};
  }
  log += "ptxas failed: " + why + "\n";
  if (use == NvJitLinkUse::afterPtxas)
    return tryNvJitLink();
  if (use == NvJitLinkUse::never)
    log += "nvJitLink: skipped (TK_NVJITLINK is off)\n";
  return std::nullopt;
}

const char *cubinProducer() {
  // What chooses the producer: computed once per value of these (a process normally has one),
  // kept for the life of the process so that the pointers returned stay valid.
  std::string inputs;
  for (const char *name : {"TK_NVJITLINK", "TK_PTXAS", "CUDA_PATH", "PATH"}) {
    const char *value = std::getenv(name);
    inputs += value ? std::string(value) + '\0' : std::string("\1");
  }
  static std::mutex mutex;
  static auto *known = new std::map<std::string, std::string>;
  std::lock_guard lock(mutex);
  auto [it, inserted] = known->try_emplace(inputs);
  if (inserted)
    it->second = findProducer();
  return it->second.c_str();
}

} // namespace mlir::tk
