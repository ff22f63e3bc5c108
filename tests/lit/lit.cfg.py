# lit configuration of TileKit's backend tests. Run from the build tree:
#   /usr/lib/llvm-22/bin/lit -sv build/ci/tests/lit      (or: ctest -L lit, ninja check-tk)
import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "TileKit"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tk_obj_root, "tests", "lit")

# FileCheck, not and count from LLVM 22; tk-opt from this build.
llvm_config.use_default_substitutions()
# %python: generates inputs too large to keep as files (tests/lit/Dialect/Tk/nesting.mlir).
config.substitutions.append(("%python", sys.executable))
llvm_config.add_tool_substitutions(["tk-opt"], [config.tk_tools_dir])
# `not` and `count` run as plain commands (external shell): put LLVM's tools on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# tk-compile (the C ABI's command line) when built: tests of code generation REQUIRE it.
if os.path.exists(os.path.join(config.tk_tools_dir, "tk-compile")):
    config.available_features.add("tk-compile")
    llvm_config.add_tool_substitutions(["tk-compile"], [config.tk_tools_dir])
# ptxas, where tk-compile looks for it (CUDA_PATH, /usr/local/cuda, PATH): tests of cubins
# REQUIRE it. The variables that choose it reach the tests.
llvm_config.with_system_environment(["CUDA_PATH", "TK_PTXAS"])
# TK_PTXAS, when set, is the only one tried (as the backend does).
if os.environ.get("TK_PTXAS"):
    _ptxas_candidates = [os.environ["TK_PTXAS"]]
else:
    _ptxas_candidates = ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""]
    if os.environ.get("CUDA_PATH"):
        _ptxas_candidates.append(os.path.join(os.environ["CUDA_PATH"], "bin", "ptxas"))
if any(p and os.access(p, os.X_OK) for p in _ptxas_candidates):
    config.available_features.add("ptxas")
