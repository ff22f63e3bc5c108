# PackageTest.cmake -- the tests labelled `package` (tests/CMakeLists.txt), run as
#   cmake -D MODE=install|subdirectory|recipes -D SOURCE_DIR=<checkout> -D BUILD_DIR=<build dir>
#         -D WORK_DIR=<scratch dir> -D GENERATOR=<generator> -D CXX=<compiler>
#         -D BUILD_TYPE=<type> [-D LAUNCHER=<ccache>] [-D PYTHON=<python3>] -P PackageTest.cmake
#
# install       package.install: `cmake --install <build dir>` into a prefix, which is then moved;
#               tests/package/consumer (find_package(TileKit CONFIG), tk::tk, tk::separate,
#               tk::backend) is built against the moved prefix and run: a kernel on the
#               interpreter, and the runtime must load the backend library from the moved prefix.
#               Also runs the moved bin/tk-compile. Installs what the build made: nothing of
#               TileKit is rebuilt.
# subdirectory  package.subdirectory: tests/package/fetchcontent builds TileKit as a subproject
#               (FetchContent with SOURCE_DIR, TK_BUILD_BACKEND=OFF) and runs the same program.
# recipes       package.recipes: the vcpkg port and the Conan recipe (packaging/). Parses their
#               JSON files, runs the portfile with stand-ins for vcpkg's functions and loads the
#               conanfiles with a stand-in `conan` module (check_recipes.py), checking that both
#               pass the options of packaging/cmake-options.json; then configures TileKit with
#               those options (backend OFF: nothing is compiled), installs it, and builds and runs
#               the vcpkg example and the Conan test_package against it with plain find_package.
#
# WORK_DIR is removed first; its paths are fixed so that ccache (LAUNCHER) serves the consumers'
# compiles on the next run.
cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS MODE SOURCE_DIR WORK_DIR GENERATOR CXX BUILD_TYPE)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "PackageTest: -D ${var}=... is required")
  endif()
endforeach()

# Nothing from the caller's environment may point the consumers or the runtime elsewhere.
foreach(var IN ITEMS TK_BACKEND_LIBRARY TK_INTERPRET TK_REQUIRE_GPU CMAKE_PREFIX_PATH
                     TileKit_DIR)
  unset(ENV{${var}})
endforeach()

# tk_run(<what> <command>...): runs the command, prints how long it took; fails with its output.
function(tk_run what)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT status STREQUAL "0")
    string(LENGTH "${out}" length)
    if(length GREATER 6000)
      math(EXPR from "${length} - 6000")
      string(SUBSTRING "${out}" ${from} -1 out)
    endif()
    list(JOIN ARGN " " shown)
    message(FATAL_ERROR "${what} failed (${status}, ${seconds} s): ${shown}\n${out}")
  endif()
  message(STATUS "${what}: OK (${seconds} s)")
  set(tk_run_output "${out}" PARENT_SCOPE)
endfunction()

# tk_build_consumer(<name> <source dir> <prefix or ""> [cmake args...]): configures and builds a
# consumer project in WORK_DIR/<name>.
function(tk_build_consumer name source prefix)
  set(args -S "${source}" -B "${WORK_DIR}/${name}" -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
  if(prefix)
    list(APPEND args "-DCMAKE_PREFIX_PATH=${prefix}")
  endif()
  if(LAUNCHER)
    list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
  endif()
  tk_run("${name}: configure" "${CMAKE_COMMAND}" ${args} ${ARGN})
  # What the consumer's configure said about TileKit (tests/package/consumer prints it).
  string(REGEX MATCHALL "TileKit [^\n]*" found "${tk_run_output}")
  foreach(line IN LISTS found)
    message(STATUS "  ${line}")
  endforeach()
  tk_run("${name}: build" "${CMAKE_COMMAND}" --build "${WORK_DIR}/${name}")
endfunction()

# tk_run_program(<what> <program> [args...]): runs it, prints its output.
function(tk_run_program what)
  tk_run("${what}" ${ARGN})
  message("${tk_run_output}")
endfunction()

# The cache options of packaging/cmake-options.json, as -D arguments, backend set to <on_off>.
function(tk_recipe_options out_var on_off)
  file(READ "${SOURCE_DIR}/packaging/cmake-options.json" json)
  string(JSON count LENGTH "${json}" cache)
  math(EXPR last "${count} - 1")
  set(options)
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${json}" cache ${i})
    string(JSON value GET "${json}" cache "${key}")
    list(APPEND options "-D${key}=${value}")
  endforeach()
  string(JSON backend GET "${json}" backend_option)
  list(APPEND options "-D${backend}=${on_off}")
  set(${out_var} "${options}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

if(MODE STREQUAL "install")
  if(NOT BUILD_DIR)
    message(FATAL_ERROR "PackageTest: -D BUILD_DIR=... is required")
  endif()
  set(staging "${WORK_DIR}/staging/tilekit")
  set(moved "${WORK_DIR}/moved/tilekit")
  tk_run("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --config "${BUILD_TYPE}"
    --prefix "${staging}")

  file(GLOB_RECURSE config LIST_DIRECTORIES false "${staging}/*/TileKitConfig.cmake")
  if(NOT config)
    message(FATAL_ERROR "no TileKitConfig.cmake installed under ${staging}")
  endif()
  if(NOT EXISTS "${staging}/include/tk/tk.hpp" OR NOT EXISTS "${staging}/include/tk/backend.h")
    message(FATAL_ERROR "the headers are not installed in ${staging}/include/tk")
  endif()
  # The bundle component (cmake/TkBundle.cmake) stays out of a plain install.
  foreach(path IN ITEMS run-tests.sh README.txt share/tilekit bin/tk_find_backend bin/01-vector-add)
    if(EXISTS "${staging}/${path}")
      message(FATAL_ERROR "a plain install put the bundle's ${path} in ${staging}")
    endif()
  endforeach()
  file(GLOB_RECURSE backend LIST_DIRECTORIES false "${staging}/*/libtilekit_backend.so")

  # Relocate: the staging prefix disappears, so nothing may refer to it.
  file(MAKE_DIRECTORY "${WORK_DIR}/moved")
  file(RENAME "${staging}" "${moved}")
  file(GLOB_RECURSE package_files LIST_DIRECTORIES false "${moved}/*.cmake")
  foreach(file IN LISTS package_files)
    file(READ "${file}" content)
    string(FIND "${content}" "${WORK_DIR}/staging" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${file} names the install prefix it was installed to: not relocatable")
    endif()
  endforeach()
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${moved}" "${moved}/*")
  list(LENGTH files count)
  message(STATUS "installed and moved to ${moved}: ${count} files")

  tk_build_consumer(consumer "${SOURCE_DIR}/tests/package/consumer" "${moved}")
  if(backend)
    tk_run_program("consumer (tk::tk)" "${WORK_DIR}/consumer/tk_package_consumer"
      --backend-in "${moved}")
    tk_run_program("consumer (tk::separate)" "${WORK_DIR}/consumer/tk_package_separate"
      --backend-in "${moved}")
    tk_run_program("consumer (tk::backend)" "${WORK_DIR}/consumer/tk_package_backend_abi")
    if(EXISTS "${moved}/bin/tk-compile")
      # Links the library: its RPATH must find the moved copy.
      tk_run("moved bin/tk-compile" "${moved}/bin/tk-compile" --target=sm_80 --emit=ptx
        -o "${WORK_DIR}/vector_add.ptx" "${SOURCE_DIR}/tests/backend/inputs/vector_add_tk.mlir")
    endif()
  else()
    tk_run_program("consumer (tk::tk, no backend)" "${WORK_DIR}/consumer/tk_package_consumer"
      --no-backend)
    tk_run_program("consumer (tk::separate, no backend)"
      "${WORK_DIR}/consumer/tk_package_separate" --no-backend)
  endif()
  # The installed copy is large (the backend with its debug information); the consumer's build
  # stays, and the paths stay the same for ccache.
  file(REMOVE_RECURSE "${WORK_DIR}/moved")

elseif(MODE STREQUAL "subdirectory")
  tk_build_consumer(fetchcontent "${SOURCE_DIR}/tests/package/fetchcontent" ""
    "-DTILEKIT_SOURCE_DIR=${SOURCE_DIR}")
  tk_run_program("consumer (FetchContent, tk::tk)"
    "${WORK_DIR}/fetchcontent/tk_package_consumer" --no-backend)

elseif(MODE STREQUAL "recipes")
  if(NOT PYTHON)
    message(FATAL_ERROR "PackageTest: -D PYTHON=... is required for MODE=recipes")
  endif()
  set(packaging "${SOURCE_DIR}/packaging")
  set(json_files
    "${packaging}/cmake-options.json"
    "${packaging}/vcpkg/ports/tilekit/vcpkg.json"
    "${packaging}/vcpkg/example/vcpkg.json"
    "${packaging}/vcpkg/example/vcpkg-configuration.json")
  tk_run("JSON files parse" "${PYTHON}" -c
    "import json, sys\nfor f in sys.argv[1:]:\n    json.load(open(f))" ${json_files})

  tk_recipe_options(options_off OFF)
  tk_recipe_options(options_on ON)
  string(REPLACE ";" "," expected_off "${options_off}")
  string(REPLACE ";" "," expected_on "${options_on}")

  # The portfile, with stand-ins for vcpkg's functions, without and with the feature backend.
  foreach(features IN ITEMS "" "backend")
    if(features)
      set(expected "${expected_on}")
    else()
      set(expected "${expected_off}")
    endif()
    tk_run("vcpkg portfile (features: '${features}')" "${CMAKE_COMMAND}"
      "-DPORTFILE=${packaging}/vcpkg/ports/tilekit/portfile.cmake" "-DFEATURES=${features}"
      "-DEXPECTED=${expected}" "-DSOURCE_DIR=${SOURCE_DIR}"
      "-DWORK_DIR=${WORK_DIR}/vcpkg-stub" -P "${SOURCE_DIR}/tests/package/VcpkgPortStub.cmake")
  endforeach()

  # The conanfiles, loaded with a stand-in conan module.
  tk_run("conan recipes" "${PYTHON}" "${SOURCE_DIR}/tests/package/check_recipes.py"
    "${packaging}/conan/conanfile.py" "${packaging}/conan/test_package/conanfile.py"
    "${expected_off}" "${expected_on}")
  message("${tk_run_output}")

  # The CMake build the recipes drive, without the backend (nothing to compile), installed.
  set(prefix "${WORK_DIR}/prefix")
  tk_run("TileKit with the recipes' options: configure" "${CMAKE_COMMAND}"
    -S "${SOURCE_DIR}" -B "${WORK_DIR}/tilekit" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DCMAKE_INSTALL_PREFIX=${prefix}" ${options_off})
  tk_run("TileKit with the recipes' options: build" "${CMAKE_COMMAND}" --build "${WORK_DIR}/tilekit")
  tk_run("TileKit with the recipes' options: install" "${CMAKE_COMMAND}"
    --install "${WORK_DIR}/tilekit")

  tk_build_consumer(vcpkg-example "${packaging}/vcpkg/example" "${prefix}")
  tk_run_program("vcpkg example" "${WORK_DIR}/vcpkg-example/tilekit_example")
  tk_build_consumer(conan-test-package "${packaging}/conan/test_package" "${prefix}")
  tk_run_program("conan test_package" "${WORK_DIR}/conan-test-package/test_package")

else()
  message(FATAL_ERROR "PackageTest: unknown MODE '${MODE}'")
endif()
