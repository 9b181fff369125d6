# Finds FLINT 2.9 or 3.x (Debian's 2.9 ships no CMake or pkg-config file). Defines FLINT::FLINT.
# Another FLINT (3.6 in /opt/flint-3.6.0, say) is found first when named by CMAKE_PREFIX_PATH,
# or by FLINT_ROOT (a CMake or environment variable).
find_path(FLINT_INCLUDE_DIR flint/flint.h HINTS ${FLINT_ROOT} ENV FLINT_ROOT PATH_SUFFIXES include)
find_library(FLINT_LIBRARY flint HINTS ${FLINT_ROOT} ENV FLINT_ROOT PATH_SUFFIXES lib)
if(FLINT_INCLUDE_DIR)
  # FLINT 2.9 and 3.x both define FLINT_VERSION "x.y.z" in flint.h.
  file(STRINGS "${FLINT_INCLUDE_DIR}/flint/flint.h" _flint_version_line REGEX "^#define FLINT_VERSION \"")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" FLINT_VERSION "${_flint_version_line}")
  # As flint.h's __FLINT_RELEASE: x.y.z is x * 10000 + y * 100 + z.
  string(REPLACE "." ";" _flint_version_parts "${FLINT_VERSION}")
  list(GET _flint_version_parts 0 _major)
  list(GET _flint_version_parts 1 _minor)
  list(GET _flint_version_parts 2 _patch)
  math(EXPR FLINT_RELEASE "${_major} * 10000 + ${_minor} * 100 + ${_patch}")
endif()
find_package(GMP REQUIRED)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FLINT REQUIRED_VARS FLINT_LIBRARY FLINT_INCLUDE_DIR VERSION_VAR FLINT_VERSION)
if(FLINT_FOUND AND NOT TARGET FLINT::FLINT)
  add_library(FLINT::FLINT UNKNOWN IMPORTED)
  set_target_properties(FLINT::FLINT PROPERTIES
    IMPORTED_LOCATION "${FLINT_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${FLINT_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES GMP::GMP)
endif()
mark_as_advanced(FLINT_INCLUDE_DIR FLINT_LIBRARY)
