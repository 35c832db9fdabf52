/*
 * summa_grid.c -- SUMMA matrix product on a 2-D process grid, in a
 * row-scaled power iteration
 *
 * The P ranks form a pr x pc grid (pr the largest divisor of P not above
 * sqrt(P)); rank (i, j) holds the (n/pr) x (n/pc) blocks A_ij, B_ij, C_ij.
 * Each row and each column of the grid has its own communicator
 * (MPI_Comm_split).  C = A * B is formed by SUMMA: the inner dimension is
 * cut into K = lcm(pr, pc) panels; for each, the grid column owning A's
 * panel broadcasts it along the rows (MPI_Bcast on the row communicator)
 * and the grid row owning B's panel broadcasts it down the columns
 * (MPI_Bcast on the column communicator), and every rank adds the panels'
 * product to its block of C.
 *
 * The main loop is a power iteration B <- D^-1 C, where D scales each row
 * by its largest entry, found with MPI_Allreduce(MPI_MAX) on the row
 * communicator; the Frobenius norm of C (MPI_Allreduce over all ranks)
 * converges to the dominant eigenvalue's scale and is reported.
 *
 * Usage: summa_grid [n [iterations]]
 *   n           matrix order, rounded up to a multiple of pr * pc * K  (default 256)
 *   iterations  power-iteration steps                                   (default 20)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int pr = 1;
    for (int d = 1; d * d <= nprocs; d++)
        if (nprocs % d == 0) pr = d;
    const int pc = nprocs / pr;
    const int K = pr / gcd(pr, pc) * pc;    /* panels of the inner dimension */

    int n = 256, niter = 20;
    if (rank == 0) {
        if (argc > 1) n = atoi(argv[1]);
        if (argc > 2) niter = atoi(argv[2]);
        if (niter < 1) niter = 1;
        if (n < K) n = K;
        n = (n + K - 1) / K * K;
        printf("SUMMA grid: %d x %d ranks, N = %d, %d panels, %d iterations\n", pr, pc, n, K, niter);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&niter, 1, MPI_INT, 0, MPI_COMM_WORLD);

    const int myrow = rank / pc, mycol = rank % pc;
    MPI_Comm rowcomm, colcomm;   /* rank in rowcomm = mycol, in colcomm = myrow */
    MPI_Comm_split(MPI_COMM_WORLD, myrow, mycol, &rowcomm);
    MPI_Comm_split(MPI_COMM_WORLD, mycol, myrow, &colcomm);

    const int mr = n / pr, mc = n / pc, w = n / K;   /* block rows, block columns, panel width */
    double *A = malloc((size_t)mr * mc * sizeof(double));
    double *B = malloc((size_t)mr * mc * sizeof(double));
    double *C = malloc((size_t)mr * mc * sizeof(double));
    double *Ap = malloc((size_t)mr * w * sizeof(double));   /* A's panel: mr x w */
    double *Bp = malloc((size_t)w * mc * sizeof(double));   /* B's panel: w x mc */
    double *rowmax = malloc((size_t)mr * sizeof(double));
    double *gmax = malloc((size_t)mr * sizeof(double));
    if (!A || !B || !C || !Ap || !Bp || !rowmax || !gmax) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < mr; i++) {
        const int gi = myrow * mr + i;
        for (int j = 0; j < mc; j++) {
            const int gj = mycol * mc + j;
            const double d = (double)(gi - gj) / n;
            A[(size_t)i * mc + j] = exp(-6.0 * d * d) / n + (gi == gj ? 0.25 / n : 0.0);
            B[(size_t)i * mc + j] = 1.0 + (double)((gi * 5 + gj * 3) % 13) / 13.0;
        }
    }

    double fro = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int it = 0; it < niter; it++) {
        memset(C, 0, (size_t)mr * mc * sizeof(double));
        for (int k = 0; k < K; k++) {
            const int acol = k * w / mc, aoff = k * w - acol * mc;   /* A's panel: grid column, first column */
            const int brow = k * w / mr, boff = k * w - brow * mr;   /* B's panel: grid row, first row */
            if (mycol == acol)
                for (int i = 0; i < mr; i++) memcpy(Ap + (size_t)i * w, A + (size_t)i * mc + aoff, (size_t)w * sizeof(double));
            if (myrow == brow) memcpy(Bp, B + (size_t)boff * mc, (size_t)w * mc * sizeof(double));
            MPI_Bcast(Ap, mr * w, MPI_DOUBLE, acol, rowcomm);
            MPI_Bcast(Bp, w * mc, MPI_DOUBLE, brow, colcomm);
            for (int i = 0; i < mr; i++) {
                double *c = C + (size_t)i * mc;
                for (int l = 0; l < w; l++) {
                    const double a = Ap[(size_t)i * w + l];
                    const double *b = Bp + (size_t)l * mc;
                    for (int j = 0; j < mc; j++) c[j] += a * b[j];
                }
            }
        }
        for (int i = 0; i < mr; i++) {
            double m = 0.0;
            for (int j = 0; j < mc; j++) m = fmax(m, fabs(C[(size_t)i * mc + j]));
            rowmax[i] = m;
        }
        MPI_Allreduce(rowmax, gmax, mr, MPI_DOUBLE, MPI_MAX, rowcomm);
        double s = 0.0;
        for (int i = 0; i < mr; i++) {
            const double inv = gmax[i] > 0.0 ? 1.0 / gmax[i] : 1.0;
            for (int j = 0; j < mc; j++) {
                const double c = C[(size_t)i * mc + j];
                s += c * c;
                B[(size_t)i * mc + j] = c * inv;
            }
        }
        MPI_Allreduce(&s, &fro, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    const double t1 = MPI_Wtime();

    double loc[2] = {0.0, 0.0}, glob[2];
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < mc; j++) {
            loc[0] += B[(size_t)i * mc + j];
            if (myrow * mr + i == mycol * mc + j) loc[1] += B[(size_t)i * mc + j];
        }
    MPI_Reduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result frobenius %.10e\n", sqrt(fro));
        printf("result checksum %.10e\n", glob[0]);
        printf("result trace %.10e\n", glob[1]);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", niter, t1 - t0, (t1 - t0) / niter);
    }

    MPI_Comm_free(&rowcomm);
    MPI_Comm_free(&colcomm);
    free(A); free(B); free(C); free(Ap); free(Bp); free(rowmax); free(gmax);
    MPI_Finalize();
    return 0;
}
