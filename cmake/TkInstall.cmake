# TkInstall.cmake -- `cmake --install`: the relocatable CMake package TileKit (docs/install.md).
#
#   tk_add_install_rules()
#       Call once from the top-level CMakeLists.txt, after tk_frontend, tk_tk and (when built)
#       tilekit_backend exist.
#
# Installs, under the prefix (GNUInstallDirs, so lib/ may be lib64/ or lib/<multiarch>/):
#   include/tk/**                              the front end and the C ABI header tk/backend.h
#   lib/libtilekit_backend.so                  the backend (when built)
#   bin/tk-compile, bin/tk-opt                 the backend's tools (when built; TK_INSTALL_TOOLS)
#   lib/cmake/TileKit/                         TileKitConfig.cmake, its version file, the targets,
#                                              tk_separate.cpp (tk::separate's source)
#   share/doc/TileKit/LICENSE
# The rules use the default component (Unspecified); the `bundle` component (cmake/TkBundle.cmake)
# is EXCLUDE_FROM_ALL and stays out of a plain `cmake --install`.
#
# The package (cmake/TileKitConfig.cmake.in) exports tk::frontend and tk::backend and defines
# tk::tk itself, with TK_BACKEND_LIBRARY_PATH computed from the package's own location, so that
# the installed tree can be moved. The test package.install (tests/package/) checks that.

include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

option(TK_INSTALL_TOOLS "Install tk-compile and tk-opt to bin/ (with the backend)" ON)
set(TK_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/TileKit" CACHE STRING
  "Where `cmake --install` puts TileKitConfig.cmake, relative to the prefix")

function(tk_add_install_rules)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/tk"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
    COMPONENT TileKit_Development
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.ipp")

  set_target_properties(tk_frontend PROPERTIES EXPORT_NAME frontend)
  if(TARGET tilekit_backend)
    set_target_properties(tilekit_backend PROPERTIES EXPORT_NAME backend)
    set(TK_PACKAGE_HAS_BACKEND ON)
  else()
    set(TK_PACKAGE_HAS_BACKEND OFF)
  endif()
  install(TARGETS tk_frontend EXPORT TileKitTargets) # its include directory is in its interface
  if(TARGET tilekit_backend)
    install(TARGETS tilekit_backend EXPORT TileKitTargets
      LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT TileKit_Runtime
              NAMELINK_COMPONENT TileKit_Development
      INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  endif()
  install(EXPORT TileKitTargets
    NAMESPACE tk::
    DESTINATION "${TK_INSTALL_CMAKEDIR}"
    COMPONENT TileKit_Development)

  if(TARGET tilekit_backend AND TK_INSTALL_TOOLS)
    if(TARGET tk-compile)
      # tk-compile links the backend: it finds it in ../lib wherever the prefix is moved. (tk-opt
      # links LLVM and MLIR statically and keeps the RPATH LLVM's CMake gives it.)
      file(RELATIVE_PATH rpath "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
      set_property(TARGET tk-compile PROPERTY INSTALL_RPATH "$ORIGIN/${rpath}")
    endif()
    foreach(tool IN ITEMS tk-compile tk-opt)
      if(TARGET ${tool})
        install(TARGETS ${tool} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
          COMPONENT TileKit_Tools)
      endif()
    endforeach()
  endif()

  # The file name the runtime looks for (tk/detail/runtime/backend_loader.hpp), in the installed libdir.
  set(TK_PACKAGE_BACKEND_FILE
    "${CMAKE_SHARED_LIBRARY_PREFIX}tilekit_backend${CMAKE_SHARED_LIBRARY_SUFFIX}")
  set(TK_PACKAGE_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
  configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/TileKitConfig.cmake.in"
    "${PROJECT_BINARY_DIR}/package/TileKitConfig.cmake"
    INSTALL_DESTINATION "${TK_INSTALL_CMAKEDIR}"
    PATH_VARS TK_PACKAGE_LIBDIR)
  # 0.x: every minor release may break the API, so only the same major.minor is accepted
  # (SameMajorVersion would let a project asking for 0.1 take 0.2). Without the backend the
  # package is headers only, usable from any architecture.
  if(TK_PACKAGE_HAS_BACKEND)
    set(arch_independent)
  else()
    set(arch_independent ARCH_INDEPENDENT)
  endif()
  write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/TileKitConfigVersion.cmake"
    VERSION "${PROJECT_VERSION}"
    COMPATIBILITY SameMinorVersion
    ${arch_independent})
  install(FILES
    "${PROJECT_BINARY_DIR}/package/TileKitConfig.cmake"
    "${PROJECT_BINARY_DIR}/package/TileKitConfigVersion.cmake"
    DESTINATION "${TK_INSTALL_CMAKEDIR}"
    COMPONENT TileKit_Development)
  # tk::separate's one source file: the package builds it in the consumer's project, with the
  # consumer's compiler and flags (cmake/TileKitConfig.cmake.in).
  install(FILES "${PROJECT_SOURCE_DIR}/lib/Separate/implementation.cpp"
    DESTINATION "${TK_INSTALL_CMAKEDIR}"
    RENAME tk_separate.cpp
    COMPONENT TileKit_Development)
  if(EXISTS "${PROJECT_SOURCE_DIR}/LICENSE")
    install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
      COMPONENT TileKit_Development)
  endif()
endfunction()
