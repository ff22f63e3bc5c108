"""Checks the Conan recipes (test package.recipes, PackageTest.cmake) without Conan:

    check_recipes.py <conanfile.py> <test_package/conanfile.py> <options backend off> <on>

Parses both files with ast, then imports the recipe with a stand-in `conan` package and calls its
methods: name and version, the components with their CMake target names and requirements, and
the CMake cache options it passes, which must be the comma-separated -DKEY=VALUE lists given
(packaging/cmake-options.json, backend off and on).
"""

import ast
import importlib.util
import os
import sys
import types

sys.dont_write_bytecode = True  # nothing written into the source tree


def stub_conan():
    """A `conan` package with the names the recipes import, doing nothing."""

    class ConanFile:
        def __init__(self):
            self.options = types.SimpleNamespace(backend=False)
            self.settings = types.SimpleNamespace(os="Linux")

    class Component:
        def __init__(self):
            self.properties = {}
            self.includedirs, self.libdirs, self.bindirs = ["include"], ["lib"], ["bin"]
            self.requires, self.libs, self.system_libs, self.defines = [], [], [], []

        def set_property(self, key, value):
            self.properties[key] = value

    class CppInfo(Component):
        def __init__(self):
            super().__init__()
            self.components = {}

    class Components(dict):
        def __missing__(self, key):
            self[key] = Component()
            return self[key]

    def nothing(*args, **kwargs):
        return None

    modules = {
        "conan": types.ModuleType("conan"),
        "conan.tools": types.ModuleType("conan.tools"),
        "conan.tools.build": types.ModuleType("conan.tools.build"),
        "conan.tools.cmake": types.ModuleType("conan.tools.cmake"),
        "conan.tools.files": types.ModuleType("conan.tools.files"),
    }
    modules["conan"].ConanFile = ConanFile
    for name in ("check_min_cppstd", "can_run"):
        setattr(modules["conan.tools.build"], name, nothing)
    for name in ("CMake", "CMakeDeps", "CMakeToolchain", "cmake_layout"):
        setattr(modules["conan.tools.cmake"], name, nothing)
    for name in ("copy", "rmdir"):
        setattr(modules["conan.tools.files"], name, nothing)
    sys.modules.update(modules)

    def new_cpp_info():
        info = CppInfo()
        info.components = Components()
        return info

    return new_cpp_info


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    recipe_path, test_path, expected_off, expected_on = sys.argv[1:5]
    for path in (recipe_path, test_path):
        with open(path) as f:
            ast.parse(f.read(), path)
    new_cpp_info = stub_conan()
    recipe = load(recipe_path)
    classes = [c for c in vars(recipe).values()
               if isinstance(c, type) and getattr(c, "name", None) == "tilekit"]
    if len(classes) != 1:
        fail(f"{recipe_path}: no recipe class with name = 'tilekit'")
    cls = classes[0]
    print(f"recipe {cls.name}/{cls.version}, options {cls.options}")
    if cls.options.get("backend") != [True, False]:
        fail("the recipe has no option backend = [True, False]")

    checkout = os.path.abspath(os.path.join(os.path.dirname(recipe_path), "..", ".."))
    for backend, expected in ((False, expected_off), (True, expected_on)):
        conanfile = cls()
        conanfile.options.backend = backend
        conanfile.source_folder = checkout
        conanfile.package_folder = "/pkg"
        conanfile.cpp_info = new_cpp_info()
        options = [f"-D{k}={v}" for k, v in conanfile.cmake_options().items()]
        if sorted(options) != sorted(expected.split(",")):
            fail(f"backend={backend}: the recipe passes {options}, expected {expected}")

        conanfile.package_info()
        info = conanfile.cpp_info
        if info.properties.get("cmake_file_name") != "TileKit":
            fail("cmake_file_name is not TileKit")
        targets = {name: c.properties.get("cmake_target_name")
                   for name, c in info.components.items()}
        wanted = {"frontend": "tk::frontend", "tk": "tk::tk"}
        if backend:
            wanted["backend"] = "tk::backend"
        if targets != wanted:
            fail(f"backend={backend}: components {targets}, expected {wanted}")
        components = info.components
        if "frontend" not in components["tk"].requires:
            fail("component tk does not require frontend")
        if not {"boost::headers", "range-v3::range-v3"} <= set(components["frontend"].requires):
            fail("component frontend does not require boost::headers and range-v3::range-v3")
        if backend:
            if components["backend"].libs != ["tilekit_backend"]:
                fail("component backend does not name the library tilekit_backend")
            defines = components["tk"].defines
            if defines != ['TK_BACKEND_LIBRARY_PATH="/pkg/lib/libtilekit_backend.so"']:
                fail(f"component tk defines {defines}")
        print(f"backend={backend}: options {' '.join(options)}; targets {targets}")

    load(test_path)
    print("test_package/conanfile.py loads")


if __name__ == "__main__":
    main()
