# Finds NTL 11 built on GMP (Debian ships no CMake or pkg-config file). Defines NTL::NTL.
find_path(NTL_INCLUDE_DIR NTL/ZZ.h)
find_library(NTL_LIBRARY ntl)
find_package(GMP REQUIRED)
find_package(Threads REQUIRED)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NTL REQUIRED_VARS NTL_LIBRARY NTL_INCLUDE_DIR)
if(NTL_FOUND AND NOT TARGET NTL::NTL)
  add_library(NTL::NTL UNKNOWN IMPORTED)
  set_target_properties(NTL::NTL PROPERTIES
    IMPORTED_LOCATION "${NTL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NTL_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "GMP::GMP;Threads::Threads")
endif()
mark_as_advanced(NTL_INCLUDE_DIR NTL_LIBRARY)
