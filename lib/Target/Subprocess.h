/// @file Subprocess.h
/// Run a tool with a time limit.
///
/// ptxas as a child process that may hang or crash: a time limit that holds with many compiling
/// threads, and the signal that ended it. llvm::sys::ExecuteAndWait's limit uses alarm() and
/// SIGALRM, which are process-wide: concurrent compiles cancel each other's alarms, the signal
/// may reach another thread, and a user's SIGALRM handler is replaced meanwhile.
#ifndef TK_TARGET_SUBPROCESS_H
#define TK_TARGET_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tk {

struct ToolRun {
  bool started = false;  // false: it could not be run at all (`error` says why)
  bool timedOut = false; // it ran past `limitSeconds` and was killed
  unsigned limitSeconds = 0;
  int exitCode = -1; // when it exited
  int signal = 0;    // when a signal ended it (not the one sent on a timeout)
  std::string error;
};

/// Runs `program` with `args` (args[0] is the program's name), stdin, stdout and stderr
/// redirected as llvm::sys::ExecuteNoWait takes them, and waits at most `seconds` (0: no
/// limit); a child that runs longer is killed with SIGKILL.
ToolRun runTool(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args,
                llvm::ArrayRef<std::optional<llvm::StringRef>> redirects, unsigned seconds);

/// "ptxas (/usr/local/cuda/bin/ptxas) exited with 1", "... was killed by signal 11 (SIGSEGV)",
/// "... did not finish within 120 s and was killed", as a sentence about `tool` (its name and
/// path); "" for a run that exited with 0.
std::string describeToolRun(const ToolRun &run, llvm::StringRef tool);

} // namespace mlir::tk

#endif // TK_TARGET_SUBPROCESS_H
