/// @file Subprocess.cpp
/// Run a tool with a time limit.
#include "Target/Subprocess.h"

#include "llvm/Support/Program.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <thread>

namespace mlir::tk {

namespace {

const char *signalName(int signal) {
  switch (signal) {
  case SIGHUP:
    return "SIGHUP";
  case SIGINT:
    return "SIGINT";
  case SIGQUIT:
    return "SIGQUIT";
  case SIGILL:
    return "SIGILL";
  case SIGTRAP:
    return "SIGTRAP";
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGKILL:
    return "SIGKILL";
  case SIGSEGV:
    return "SIGSEGV";
  case SIGPIPE:
    return "SIGPIPE";
  case SIGTERM:
    return "SIGTERM";
  case SIGXCPU:
    return "SIGXCPU";
  case SIGXFSZ:
    return "SIGXFSZ";
  default:
    return nullptr;
  }
}

} // namespace

ToolRun runTool(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args,
                llvm::ArrayRef<std::optional<llvm::StringRef>> redirects, unsigned seconds) {
  ToolRun run;
  run.limitSeconds = seconds;
  bool failed = false;
  llvm::sys::ProcessInfo child = llvm::sys::ExecuteNoWait(program, args, std::nullopt, redirects,
                                                          /*MemoryLimit=*/0, &run.error, &failed);
  if (failed || child.Pid == llvm::sys::ProcessInfo::InvalidPid)
    return run;
  run.started = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int status = 0;
  // Polled rather than waited for with a signal (see the file comment of Subprocess.h): every
  // millisecond for a second, which adds at most that to a ptxas run of 15-70 ms, then every
  // 10 ms.
  for (int polls = 0;; ++polls) {
    const pid_t done = waitpid(child.Pid, &status, WNOHANG);
    if (done == child.Pid)
      break;
    if (done == -1 && errno != EINTR) {
      run.error = std::string("cannot wait for it: ") + std::strerror(errno);
      run.started = false;
      return run;
    }
    if (seconds && std::chrono::steady_clock::now() >= deadline) {
      kill(child.Pid, SIGKILL);
      while (waitpid(child.Pid, &status, 0) == -1 && errno == EINTR) {
      }
      run.timedOut = true;
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(polls < 1000 ? 1 : 10));
  }
  if (WIFEXITED(status))
    run.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    run.signal = WTERMSIG(status);
  return run;
}

std::string describeToolRun(const ToolRun &run, llvm::StringRef tool) {
  if (!run.started)
    return tool.str() + " could not be run: " + run.error;
  if (run.timedOut)
    return tool.str() + " did not finish within " + std::to_string(run.limitSeconds) +
           " s and was killed";
  if (run.signal) {
    const char *name = signalName(run.signal);
    return tool.str() + " was killed by signal " + std::to_string(run.signal) +
           (name ? std::string(" (") + name + ")" : std::string());
  }
  if (run.exitCode != 0)
    return tool.str() + " exited with " + std::to_string(run.exitCode);
  return "";
}

} // namespace mlir::tk
