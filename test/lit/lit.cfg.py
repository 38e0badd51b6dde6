# lit configuration for tgc's IR and pass tests.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "tgc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tgc_obj_root, "test", "lit")
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"
config.substitutions.append(("%models", os.path.join(config.tgc_src_root, "models")))
config.substitutions.append(("%runtime", os.path.join(config.tgc_src_root, "lib", "Runtime")))

# nvcc, where CUDA is installed: the CUDA renderer's output is compiled
# with it too (`%if nvcc %{ ... %}`).
nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tgc_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tgc-opt", "tgc-translate", "tgc"], [config.tgc_tools_dir])
