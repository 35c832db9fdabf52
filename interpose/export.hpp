#pragma once
// The library exports only the MPI_ functions and the marks; everything
// else is hidden so it cannot clash with the program's own symbols.
#define MHETA_EXPORT __attribute__((visibility("default")))
