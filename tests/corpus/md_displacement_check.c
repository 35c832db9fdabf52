/* md_neighbor_lists.c's melt with the neighbour lists rebuilt the way most
 * MD inputs ask for (LAMMPS's default "check yes"): every step once 5 have
 * passed since the last rebuild, the ranks reduce whether an atom moved
 * half the skin (MPI_Allreduce), and rebuild when one did. The rebuilds
 * come 7 to 20 steps apart as the melt moves, so the loop of rebuild
 * periods has no fixed length, and each step's calls differ with its
 * place in it (no check, a check, a rebuild).
 *
 * Usage: md_displacement_check [cells [steps]]   (default 8 fcc cells per
 * rank along x, 600 steps). Prints md_neighbor_lists's results and loop.
 */
#define CHECK_DISPLACEMENT 1
#define PROGRAM "md_displacement_check"
#include "md_neighbor_lists.c"
