#pragma once
// Calls that reach MPI by its PMPI_ names (docs/interpose.md, "Fortran"):
// MPICH's `mpi_f08` bindings (libmpichfort) call PMPI_Init, PMPI_Wtime,
// PMPI_Barrier and many more directly, so a program written with
// `use mpi_f08` would never enter the library's MPI_ functions. At load
// (and again at MPI_Init, for libraries loaded since) every loaded shared
// library but this one and the one that defines PMPI_Init (the MPI library
// itself) has its PLT and GOT entries for the PMPI_ twin of a function
// this library wraps pointed at the wrapper: such a call then goes through
// the wrapper as if the program had made it, and the wrapper's own PMPI_
// call, through this library's entries, reaches MPI. The program's own
// executable is left alone: a program that calls MPI by its PMPI_ names
// means to go past tools.

namespace mheta::interpose {

struct PmpiRedirects {
  int entries = 0;  // PLT or GOT entries pointed at a wrapper
  int failed = 0;   // entries that could not be written (their page stayed read-only)
};

// Idempotent; safe before MPI_Init (it calls no MPI).
PmpiRedirects redirect_pmpi_calls();

}  // namespace mheta::interpose
