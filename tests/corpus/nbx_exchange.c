/*
 * nbx_exchange.c -- particle-in-cell style sparse exchange with the
 * nonblocking consensus algorithm (NBX: Hoefler, Siebert and Lumsdaine)
 *
 * Each rank owns a set of cells.  Every step it updates them, then sends a
 * block of its boundary values to each rank it currently borrows from (a
 * set that shifts from step to step), without telling the receivers in
 * advance how many messages to expect: each block goes by MPI_Issend;
 * the rank receives whatever arrives (MPI_Iprobe of MPI_ANY_SOURCE, then
 * MPI_Recv), and once its own sends have all been received (MPI_Testall)
 * it enters a non-blocking barrier (MPI_Ibarrier), polling it with
 * MPI_Test while it keeps receiving; the step's exchange is over when the
 * barrier completes.  The checksum of the received blocks and of the cells
 * is reported.
 *
 * Usage: nbx_exchange [cells [block [steps]]]   (defaults 200000 4096 100)
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

    int params[3] = {200000, 4096, 100};
    if (rank == 0)
        for (int i = 0; i < 3 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) params[i] = v;
        }
    MPI_Bcast(params, 3, MPI_INT, 0, MPI_COMM_WORLD);
    const int total = params[0], block = params[1], steps = params[2];
    const int cells = total / nprocs + (rank < total % nprocs ? 1 : 0);
    if (rank == 0) printf("nbx exchange: %d cells, %d ranks, blocks of %d, %d steps\n", total, nprocs, block, steps);

    double *field = malloc((size_t)cells * sizeof(double));
    double *out = malloc((size_t)3 * block * sizeof(double));
    double *in = malloc((size_t)block * sizeof(double));
    if (!field || !out || !in) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int c = 0; c < cells; c++) field[c] = sin(0.001 * (rank * cells + c));

    /* What came from each rank, summed in step order: the same sums whatever
     * order the messages of a step arrive in. */
    double *from = calloc((size_t)nprocs, sizeof(double));
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        for (int c = 0; c < cells; c++) field[c] = 0.5 * field[c] + 0.25 * cos(field[c] + 0.01 * s);
        /* The ranks this step sends to: one or two, shifting with the step. */
        int dest[2], ndest = 0;
        if (nprocs > 1) {
            dest[ndest++] = (rank + 1 + s % (nprocs - 1)) % nprocs;
            if ((rank + s) % 3 == 0 && nprocs > 2) {
                const int d = (rank + nprocs - 1) % nprocs;
                if (d != dest[0]) dest[ndest++] = d;
            }
        }
        MPI_Request sends[2];
        for (int k = 0; k < ndest; k++) {
            double *b = out + (size_t)k * block;
            for (int i = 0; i < block; i++) b[i] = field[(i * 7 + k) % cells];
            MPI_Issend(b, block, MPI_DOUBLE, dest[k], 7 + s % 2, MPI_COMM_WORLD, &sends[k]);
        }
        MPI_Request barrier = MPI_REQUEST_NULL;
        int done = 0, barrier_entered = 0;
        while (!done) {
            int arrived = 0;
            MPI_Status status;
            /* a rank already in the next step sends with the other tag */
            MPI_Iprobe(MPI_ANY_SOURCE, 7 + s % 2, MPI_COMM_WORLD, &arrived, &status);
            if (arrived) {
                MPI_Recv(in, block, MPI_DOUBLE, status.MPI_SOURCE, 7 + s % 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                for (int i = 0; i < block; i += 64) from[status.MPI_SOURCE] += in[i];
            }
            if (barrier_entered) {
                MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
            } else {
                int sent = 0;
                MPI_Testall(ndest, sends, &sent, MPI_STATUSES_IGNORE);
                if (sent) {
                    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
                    barrier_entered = 1;
                }
            }
        }
    }
    const double t1 = MPI_Wtime();

    double local = 0.0, sum = 0.0, received = 0.0, all_received = 0.0;
    for (int c = 0; c < cells; c++) local += field[c];
    for (int r = 0; r < nprocs; r++) received += from[r] * (1 + r);
    MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&received, &all_received, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result field %.10e\n", sum);
        printf("result received %.10e\n", all_received);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }
    free(field);
    free(from);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
