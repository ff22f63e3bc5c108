# vcpkg overlay port for TileKit (docs/install.md): builds the TileKit checkout this port lies in
# (packaging/vcpkg/ports/tilekit/ -> ../../../..), or the one named by the environment variable
# VCPKG_TILEKIT_SOURCE (pass it through with VCPKG_KEEP_ENV_VARS=VCPKG_TILEKIT_SOURCE). Nothing is
# downloaded. vcpkg does not see changes in a local source tree: after editing TileKit, reinstall
# with `vcpkg remove tilekit` (classic mode) or with binary caching off (manifest mode).
#
# Feature `backend`: the MLIR backend, against LLVM/MLIR 22 from the system (MLIR_DIR, default
# /usr/lib/llvm-22/lib/cmake/mlir); vcpkg's own llvm port is not MLIR 22. Without it the package is
# the header-only front end, and tk::tk finds a backend library at run time only.
#
# The cache options are those of packaging/cmake-options.json, shared with the Conan recipe.

if(DEFINED ENV{VCPKG_TILEKIT_SOURCE} AND NOT "$ENV{VCPKG_TILEKIT_SOURCE}" STREQUAL "")
  file(TO_CMAKE_PATH "$ENV{VCPKG_TILEKIT_SOURCE}" SOURCE_PATH)
else()
  get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
endif()
if(NOT EXISTS "${SOURCE_PATH}/CMakeLists.txt" OR NOT EXISTS "${SOURCE_PATH}/include/tk/tk.hpp")
  message(FATAL_ERROR "tilekit: ${SOURCE_PATH} is not a TileKit checkout; set VCPKG_TILEKIT_SOURCE "
    "(and VCPKG_KEEP_ENV_VARS=VCPKG_TILEKIT_SOURCE) to one")
endif()

file(READ "${SOURCE_PATH}/packaging/cmake-options.json" tk_options_json)
string(JSON tk_count LENGTH "${tk_options_json}" cache)
math(EXPR tk_last "${tk_count} - 1")
set(tk_options)
foreach(tk_i RANGE ${tk_last})
  string(JSON tk_key MEMBER "${tk_options_json}" cache ${tk_i})
  string(JSON tk_value GET "${tk_options_json}" cache "${tk_key}")
  list(APPEND tk_options "-D${tk_key}=${tk_value}")
endforeach()
string(JSON tk_backend_option GET "${tk_options_json}" backend_option)

vcpkg_check_features(OUT_FEATURE_OPTIONS tk_feature_options
  FEATURES
    backend ${tk_backend_option})

# The backend links LLVM/MLIR's release archives; a debug build of it would only double the
# (long) build. The front end is headers only.
set(VCPKG_BUILD_TYPE release)

vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    ${tk_options}
    ${tk_feature_options})
vcpkg_cmake_install()
# share/tilekit/TileKitConfig.cmake (find_package matches the directory name case-insensitively).
vcpkg_cmake_config_fixup(PACKAGE_NAME tilekit CONFIG_PATH lib/cmake/TileKit)

if("backend" IN_LIST FEATURES)
  # To tools/tilekit/; vcpkg rewrites their RPATH to find lib/.
  vcpkg_copy_tools(TOOL_NAMES tk-compile tk-opt AUTO_CLEAN)
endif()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
