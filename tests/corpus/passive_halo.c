/*
 * passive_halo.c -- Jacobi relaxation whose halos are written into the
 * neighbours' memory with passive target one-sided communication
 *
 * An R x C grid is split into block rows.  Each rank's halo rows arrive in
 * a window (MPI_Win_allocate) of two pairs of rows, used in turn from step
 * to step, so that a neighbour one step ahead writes the pair the rank is
 * not reading.  The whole run is one passive target epoch on every rank
 * (MPI_Win_lock_all at the start, MPI_Win_unlock_all at the end).  Each
 * step copies its halos in from the window, relaxes its rows, puts its
 * first and last rows into the ranks above and below (MPI_Put), makes them
 * complete there (MPI_Win_flush_all), and meets the other ranks
 * (MPI_Barrier); every 20th step the change is reduced (MPI_Allreduce)
 * instead of the barrier.  The final change and the field's checksum are
 * reported.
 *
 * Usage: passive_halo [rows [columns [steps]]]   (defaults 512 4096 100)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* My first row goes to the halo below of the rank above, my last to the
 * halo above of the rank below, in window pair `pair`; complete there. */
static void send_halos(const double *u, int nl, int cols, int up, int down, int pair, MPI_Win win)
{
    const size_t width = (size_t)cols;
    if (up != MPI_PROC_NULL)
        MPI_Put(&u[width], cols, MPI_DOUBLE, up, (MPI_Aint)((2 * pair + 1) * width), cols, MPI_DOUBLE, win);
    if (down != MPI_PROC_NULL)
        MPI_Put(&u[nl * width], cols, MPI_DOUBLE, down, (MPI_Aint)(2 * pair * width), cols, MPI_DOUBLE, win);
    MPI_Win_flush_all(win);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int dims[3] = {512, 4096, 100};
    if (rank == 0)
        for (int i = 0; i < 3 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) dims[i] = v;
        }
    MPI_Bcast(dims, 3, MPI_INT, 0, MPI_COMM_WORLD);
    const int rows = dims[0], cols = dims[1], steps = dims[2];
    const int nl = rows / nprocs + (rank < rows % nprocs ? 1 : 0);
    int first = 0;
    for (int r = 0; r < rank; r++) first += rows / nprocs + (r < rows % nprocs ? 1 : 0);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) printf("passive halo: %d x %d grid, %d ranks, %d steps\n", rows, cols, nprocs, steps);

    /* Window rows: pair p (0 or 1) is rows 2p (halo above) and 2p + 1 (halo below). */
    const size_t width = (size_t)cols;
    double *halo;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)(4 * width * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &halo,
                     &win);
    double *u = malloc((size_t)(nl + 2) * width * sizeof(double));
    double *unew = malloc((size_t)(nl + 2) * width * sizeof(double));
    if (!u || !unew) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < nl + 2; i++)
        for (size_t j = 0; j < width; j++) {
            const int g = first + i - 1;
            u[i * width + j] = (g < 0 || g >= rows) ? 1.0 : sin(2.0 * g / rows) * cos(3.0 * j / cols);
        }
    memcpy(unew, u, (size_t)(nl + 2) * width * sizeof(double));

    MPI_Win_lock_all(0, win);
    send_halos(u, nl, cols, up, down, 1, win); /* the halos step 0 reads */
    MPI_Barrier(MPI_COMM_WORLD);
    double change = 0.0;
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        const int in = (s + 1) % 2; /* the pair written at the step before */
        MPI_Win_sync(win);
        if (up != MPI_PROC_NULL) memcpy(&u[0], &halo[2 * in * width], width * sizeof(double));
        if (down != MPI_PROC_NULL) memcpy(&u[(nl + 1) * width], &halo[(2 * in + 1) * width], width * sizeof(double));
        double local = 0.0;
        for (int i = 1; i <= nl; i++)
            for (size_t j = 1; j + 1 < width; j++) {
                const size_t c = i * width + j;
                unew[c] = 0.25 * (u[c - width] + u[c + width] + u[c - 1] + u[c + 1]);
                local += fabs(unew[c] - u[c]);
            }
        for (int i = 1; i <= nl; i++) memcpy(&u[i * width + 1], &unew[i * width + 1], (width - 2) * sizeof(double));
        send_halos(u, nl, cols, up, down, s % 2, win);
        if ((s + 1) % 20 == 0)
            MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Barrier(MPI_COMM_WORLD);
    }
    const double t1 = MPI_Wtime();
    MPI_Win_unlock_all(win);

    double local = 0.0, checksum = 0.0;
    for (int i = 1; i <= nl; i++)
        for (size_t j = 0; j < width; j++) local += u[i * width + j] * (1.0 + (double)((first + i) % 3));
    MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result change %.10e\n", change);
        printf("result checksum %.10e\n", checksum);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }
    free(u);
    free(unew);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
