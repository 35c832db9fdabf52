/*
 * column_halo.c -- 2-D Jacobi relaxation decomposed by columns
 *
 * A row-major NY x NX grid is split into blocks of columns, one per rank
 * (as codes whose arrays are stored the other way round from their
 * decomposition are).  Each rank's block has a halo column on either side;
 * a column is NY doubles a row apart in memory, so the halos go as an
 * MPI_Type_vector of NY single doubles, sent and received in place by
 * MPI_Sendrecv to the left and to the right neighbour (MPI_PROC_NULL at
 * the ends), with no packing by the program.  Each step relaxes the block
 * (a weighted Jacobi sweep with a fixed source, computed once); every 10th step the
 * update's largest change is reduced with MPI_Allreduce(MPI_MAX).
 *
 * Usage: column_halo [ny [nx [steps]]]   (defaults 2048 256 600)
 * Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const int ny = argc > 1 ? atoi(argv[1]) : 2048;
    const int nx = argc > 2 ? atoi(argv[2]) : 256;
    const int steps = argc > 3 ? atoi(argv[3]) : 600;
    const int base = nx / nprocs, extra = nx % nprocs;
    const int cols = base + (rank < extra ? 1 : 0);
    const int first = rank * base + (rank < extra ? rank : extra);
    const int width = cols + 2; /* with the halo columns 0 and cols + 1 */
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int right = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;

    double *u = calloc((size_t)ny * width, sizeof(double));
    double *unew = calloc((size_t)ny * width, sizeof(double));
    double *f = calloc((size_t)ny * width, sizeof(double));
    if (!u || !unew || !f) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < ny; i++)
        for (int j = 1; j <= cols; j++)
            f[(size_t)i * width + j] = 1e-3 * sin(6.0 * (double)(first + j) / nx) * cos(4.0 * (double)i / ny);
    MPI_Datatype column;
    MPI_Type_vector(ny, 1, width, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double change = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int step = 1; step <= steps; step++) {
        /* my first column to the left, the right neighbour's first into my right halo; then the other way */
        MPI_Sendrecv(&u[1], 1, column, left, 1, &u[cols + 1], 1, column, right, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[cols], 1, column, right, 2, &u[0], 1, column, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double largest = 0.0;
        for (int i = 1; i < ny - 1; i++) {
            for (int j = 1; j <= cols; j++) {
                const double *c = &u[(size_t)i * width + j];
                const double v = 0.2 * c[0] + 0.2 * (c[-1] + c[1] + c[-width] + c[width]) + f[(size_t)i * width + j];
                unew[(size_t)i * width + j] = v;
                if (fabs(v - c[0]) > largest) largest = fabs(v - c[0]);
            }
        }
        for (int i = 1; i < ny - 1; i++)
            for (int j = 1; j <= cols; j++) u[(size_t)i * width + j] = unew[(size_t)i * width + j];
        if (step % 10 == 0) MPI_Allreduce(&largest, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* per-rank sums gathered and added in rank order */
    double mine = 0.0;
    for (int i = 1; i < ny - 1; i++)
        for (int j = 1; j <= cols; j++) mine += u[(size_t)i * width + j] * (1.0 + (double)(first + j) / nx);
    double *all = rank == 0 ? malloc((size_t)nprocs * sizeof(double)) : NULL;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double sum = 0.0;
        for (int r = 0; r < nprocs; r++) sum += all[r];
        printf("result change %.10e\n", change);
        printf("result weighted_sum %.10e\n", sum);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, tmax, tmax / steps);
        free(all);
    }
    MPI_Type_free(&column);
    free(u);
    free(unew);
    free(f);
    MPI_Finalize();
    return 0;
}
