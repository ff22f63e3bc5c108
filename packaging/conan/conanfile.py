"""Conan 2 recipe for TileKit (docs/install.md).

    conan create packaging/conan --build=missing                      # front end only
    conan create packaging/conan --build=missing -o "tilekit/*:backend=True"

Builds the checkout this file lies in (../..). Components, as CMake targets of
find_package(TileKit):
    frontend  tk::frontend  the header-only C++20 front end (Boost.Hana headers, range-v3)
    backend   tk::backend   libtilekit_backend.so, the C ABI (tk/backend.h); option backend=True
    tk        tk::tk        the front end plus the GPU runtime (dl; with the backend,
                            TK_BACKEND_LIBRARY_PATH naming the packaged library)
The backend needs LLVM/MLIR 22 from the system (MLIR_DIR, default /usr/lib/llvm-22/lib/cmake/mlir):
Conan Center has no MLIR 22. The CMake cache options are those of packaging/cmake-options.json,
shared with the vcpkg port.
"""

import json
import os

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, rmdir

# What the build needs from the checkout, relative to its root (see export_sources).
_SOURCES = ["CMakeLists.txt", "LICENSE", "cmake/*", "include/*", "lib/*", "tools/*", "bench/*",
            "tests/bundle/*", "packaging/cmake-options.json"]


class TileKitConan(ConanFile):
    name = "tilekit"
    version = "0.1.0"
    license = "MIT"
    description = ("Triton's block-level GPU programming model as a header-only C++20 front end, "
                   "with an optional MLIR backend")
    topics = ("gpu", "triton", "mlir", "header-only", "kernels")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"backend": [True, False]}
    default_options = {"backend": False, "boost/*:header_only": True}

    def export_sources(self):
        root = os.path.join(self.recipe_folder, "..", "..")
        for pattern in _SOURCES:
            copy(self, pattern, src=root, dst=self.export_sources_folder)

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        # Headers only (Boost.Hana, range-v3); users include them through TileKit's headers.
        self.requires("boost/1.83.0", transitive_headers=True)
        self.requires("range-v3/0.12.0", transitive_headers=True)

    def validate(self):
        check_min_cppstd(self, 20)

    def package_id(self):
        # Without the backend, the package is headers only: one package for every configuration.
        if not self.info.options.backend:
            self.info.clear()

    def cmake_options(self):
        """The cache options TileKit is configured with (packaging/cmake-options.json)."""
        with open(os.path.join(self.source_folder, "packaging", "cmake-options.json")) as f:
            options = json.load(f)
        values = dict(options["cache"])
        values[options["backend_option"]] = "ON" if self.options.backend else "OFF"
        return values

    def generate(self):
        toolchain = CMakeToolchain(self)
        for key, value in self.cmake_options().items():
            toolchain.cache_variables[key] = value
        toolchain.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        copy(self, "LICENSE", src=self.source_folder,
             dst=os.path.join(self.package_folder, "licenses"))
        CMake(self).install()
        # CMakeDeps writes the consumers' config files from package_info() below.
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "share"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "TileKit")
        self.cpp_info.set_property("cmake_target_name", "tk::tilekit")

        frontend = self.cpp_info.components["frontend"]
        frontend.set_property("cmake_target_name", "tk::frontend")
        frontend.includedirs = ["include"]
        frontend.libdirs = []
        frontend.bindirs = []
        frontend.requires = ["boost::headers", "range-v3::range-v3"]

        tk = self.cpp_info.components["tk"]
        tk.set_property("cmake_target_name", "tk::tk")
        tk.includedirs = []
        tk.libdirs = []
        tk.bindirs = []
        tk.requires = ["frontend"]
        if self.settings.os in ("Linux", "FreeBSD"):
            tk.system_libs = ["dl"]

        if self.options.backend:
            backend = self.cpp_info.components["backend"]
            backend.set_property("cmake_target_name", "tk::backend")
            backend.libs = ["tilekit_backend"]
            backend.includedirs = ["include"]
            library = os.path.join(self.package_folder, "lib", "libtilekit_backend.so")
            # The runtime loads it at run time (it is not linked): compile its path in, as the
            # CMake package does. tk-compile and tk-opt are in bin/.
            tk.defines = [f'TK_BACKEND_LIBRARY_PATH="{library}"']
