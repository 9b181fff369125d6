// Stops a build whose compiler read another FLINT's headers than the FLINT that CMake found and
// links (an include path such as CPATH naming a second FLINT): the two versions lay out their
// structures differently, and the program would fail at run time instead. The build defines
// ZGPU_FLINT_RELEASE as the found version's __FLINT_RELEASE.
#pragma once

#include <flint/flint.h>

#if defined(ZGPU_FLINT_RELEASE) && __FLINT_RELEASE != ZGPU_FLINT_RELEASE
#error "zgpu: these FLINT headers are not those of the FLINT the build links; another FLINT's include folder comes first (CPATH?)"
#endif
