# Installs both libraries (and the MPI layer's, where built), the public headers (include/zgpu/),
# zgpuConfig.cmake with its version file, targets and the Find modules it needs, and zgpu.pc.
include(CMakePackageConfigHelpers)
set(ZGPU_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/zgpu")

install(TARGETS zgpu zgpu_shared EXPORT zgpuTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# The MPI layer, where built: its library and its own headers.
if(ZGPU_WITH_MPI)
  install(TARGETS zgpu_mpi EXPORT zgpuTargets ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  install(DIRECTORY plugin/mpi/include/zgpu DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# The plugins are loaded by path (LD_PRELOAD) or linked by name; they have no headers.
install(TARGETS zgpu_flint zgpu_ntl LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
# Only the include/ folders hold public headers; internal ones stay beside their sources.
foreach(dir base adapters plugin)
  install(DIRECTORY "${dir}/include/zgpu" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()

# The FLINT this build used, for the package's users who name none (FLINT_ROOT).
get_filename_component(ZGPU_FLINT_ROOT "${FLINT_INCLUDE_DIR}" DIRECTORY)
install(EXPORT zgpuTargets NAMESPACE zgpu:: DESTINATION "${ZGPU_CMAKE_DIR}")
configure_package_config_file(cmake/zgpuConfig.cmake.in zgpuConfig.cmake INSTALL_DESTINATION "${ZGPU_CMAKE_DIR}")
write_basic_package_version_file(zgpuConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/zgpuConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/zgpuConfigVersion.cmake"
  cmake/FindFLINT.cmake cmake/FindGMP.cmake cmake/FindNTL.cmake
  DESTINATION "${ZGPU_CMAKE_DIR}")

# pkg-config: FLINT, NTL and GMP are in Libs because the public headers are written in their
# types (users call them too); what only the static library needs is in Libs.private.
function(zgpu_pc_link_flags out)
  set(flags)
  foreach(library IN LISTS ARGN)
    get_filename_component(dir "${library}" DIRECTORY)
    get_filename_component(name "${library}" NAME_WE)
    string(REGEX REPLACE "^lib" "" name "${name}")
    if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
      list(APPEND flags "-L${dir}")
    endif()
    list(APPEND flags "-l${name}")
  endforeach()
  list(REMOVE_DUPLICATES flags)
  list(JOIN flags " " flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
zgpu_pc_link_flags(ZGPU_PC_LIBS "${FLINT_LIBRARY}" "${NTL_LIBRARY}" "${GMP_LIBRARY}")
set(ZGPU_PC_CFLAGS)
foreach(dir IN ITEMS "${FLINT_INCLUDE_DIR}" "${NTL_INCLUDE_DIR}" "${GMP_INCLUDE_DIR}")
  if(NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES AND NOT " -I${dir}" IN_LIST ZGPU_PC_CFLAGS)
    list(APPEND ZGPU_PC_CFLAGS " -I${dir}")
  endif()
endforeach()
list(JOIN ZGPU_PC_CFLAGS "" ZGPU_PC_CFLAGS)
set(ZGPU_PC_LIBS_PRIVATE "${CMAKE_THREAD_LIBS_INIT}")
if(ZGPU_WITH_CUDA)
  # cudart_static needs libdl and librt (as CUDA::cudart_static links them).
  zgpu_pc_link_flags(cudart "${CUDA_cudart_static_LIBRARY}")
  string(PREPEND ZGPU_PC_LIBS_PRIVATE "${cudart} -ldl -lrt ")
endif()
# The prefix relative to the .pc file, so that cmake --install --prefix elsewhere still works.
file(RELATIVE_PATH ZGPU_PC_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
configure_file(cmake/zgpu.pc.in zgpu.pc @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/zgpu.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
