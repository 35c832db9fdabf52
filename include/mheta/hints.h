/* MPI_Info keys by which a program (or mheta's io/ library) tells the
 * interposer what a file holds. Passed to MPI_File_open; HDF5's MPI-IO
 * driver passes the MPI_Info given to H5Pset_fapl_mpio through to it.
 */
#ifndef MHETA_HINTS_H
#define MHETA_HINTS_H

/* Name of the distributed variable the file holds a block of. */
#define MHETA_HINT_VARIABLE "mheta_variable"
/* Bytes of one row of the variable. */
#define MHETA_HINT_BYTES_PER_ROW "mheta_bytes_per_row"
/* Rows of the variable in the whole program, and owned by this rank. */
#define MHETA_HINT_GLOBAL_ROWS "mheta_global_rows"
#define MHETA_HINT_LOCAL_ROWS "mheta_local_rows"

#endif /* MHETA_HINTS_H */
