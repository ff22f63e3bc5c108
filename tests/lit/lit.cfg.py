# lit configuration of TileKit's backend tests. Run from the build tree:
#   /usr/lib/llvm-22/bin/lit -sv build/ci/tests/lit      (or: ctest -L lit, ninja check-tk)
import os
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
