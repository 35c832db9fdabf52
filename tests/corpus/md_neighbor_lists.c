/* Molecular dynamics of a Lennard-Jones melt, written the way MD codes are:
 * the box is cut into slabs along x, one per rank; each rank keeps a
 * neighbour list over its atoms and the ghost atoms of its right
 * neighbour's face, rebuilt every 20 steps with a skin. At a rebuild the
 * atoms that left a slab migrate and the faces are sent again, each as a
 * count (MPI_Sendrecv) and then the data (MPI_Irecv, MPI_Send, MPI_Wait).
 * Every step sends the face's positions forward and the ghosts' forces
 * back the same way, the pairs with ghosts being computed on one side only
 * (Newton's third law). So the halo's sizes hold for 20 steps and change
 * at every rebuild, and one function and peer sends data of three sizes
 * (the migrating atoms, the faces, the forces); the energies are reduced
 * every 100th step.
 *
 * Usage: md_neighbor_lists [cells [steps]]   (default 8 fcc cells per rank
 * along x, 600 steps). Prints "result atoms <n>", "result energy <e>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CHECK_DISPLACEMENT 1 (md_displacement_check.c): the lists are rebuilt
 * when an atom has moved half the skin since the last rebuild, checked
 * every step once CHECK_DELAY steps have passed (a flag reduced by
 * MPI_Allreduce), as LAMMPS's "neigh_modify delay 5 check yes": rebuilds
 * come as far apart as the atoms' motion says, not every REBUILD_EVERY
 * steps. */
#ifndef CHECK_DISPLACEMENT
#define CHECK_DISPLACEMENT 0
#define PROGRAM "md_neighbor_lists"
#endif
#define CHECK_DELAY 5

#define CUTOFF 2.5
#define SKIN 0.3
#define REBUILD_EVERY 20
#define THERMO_EVERY 100
#define CELLS_YZ 9
#define DT 0.005

typedef struct {
  double x[3], v[3];
} Atom;

static int rank, size, left, right;
static double box[3], lo, hi;
static Atom* atoms; /* owned atoms, then ghosts */
static double (*force)[3];
static double (*x_at_rebuild)[3]; /* owned atoms' positions at the last rebuild */
static int owned, ghosts, capacity;
static int* face; /* owned atoms on the left face, sent as the left neighbour's ghosts */
static int faced;
static double ghost_shift; /* added to the ghosts' x: the periodic image */
static int *pairs_first, *pairs; /* neighbour list: pairs of atom i in pairs[pairs_first[i]..pairs_first[i+1]) */
static int pairs_capacity;

static void* grow(void* p, size_t bytes) {
  void* q = realloc(p, bytes);
  if (!q) {
    fprintf(stderr, "out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return q;
}

static void reserve(int atoms_needed) {
  if (atoms_needed <= capacity) return;
  capacity = 2 * atoms_needed;
  atoms = grow(atoms, sizeof(Atom) * (size_t)capacity);
  force = grow(force, sizeof(double[3]) * (size_t)capacity);
  x_at_rebuild = grow(x_at_rebuild, sizeof(double[3]) * (size_t)capacity);
  face = grow(face, sizeof(int) * (size_t)capacity);
  pairs_first = grow(pairs_first, sizeof(int) * (size_t)(capacity + 1));
}

static double uniform(uint64_t* s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) / 9007199254740992.0;
}

/* An fcc lattice at the melt's density, velocities by atom number, so the
 * melt is the same however the box is cut. */
static void make_lattice(int cells) {
  const double a = cbrt(4.0 / 0.8442);
  const int cells_x = cells * size;
  box[0] = a * cells_x;
  box[1] = box[2] = a * CELLS_YZ;
  lo = box[0] * rank / size;
  hi = box[0] * (rank + 1) / size;
  static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  for (int i = cells * rank; i < cells * (rank + 1); ++i)
    for (int j = 0; j < CELLS_YZ; ++j)
      for (int k = 0; k < CELLS_YZ; ++k)
        for (int b = 0; b < 4; ++b) {
          reserve(owned + 1);
          Atom* at = &atoms[owned++];
          const long id = (((long)i * CELLS_YZ + j) * CELLS_YZ + k) * 4 + b;
          uint64_t s = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(id + 1) * 0xBF58476D1CE4E5B9ULL;
          at->x[0] = a * (i + basis[b][0]);
          at->x[1] = a * (j + basis[b][1]);
          at->x[2] = a * (k + basis[b][2]);
          for (int d = 0; d < 3; ++d) at->v[d] = sqrt(1.44 * 3.0) * (2 * uniform(&s) - 1);
        }
}

/* Data to `to` and from `from`, the receive posted first. */
static void exchange(const void* out, int count_out, int to, void* in, int count_in, int from, int tag) {
  MPI_Request r;
  MPI_Irecv(in, count_in, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &r);
  MPI_Send(out, count_out, MPI_DOUBLE, to, tag, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Atoms that left the slab go to the neighbour on that side (they move
 * far less than a slab between two rebuilds): a count, then the atoms,
 * each way. */
static void migrate(void) {
  Atom* out = grow(NULL, sizeof(Atom) * (size_t)(owned + 1));
  for (int i = 0; i < owned; ++i) atoms[i].x[0] = fmod(fmod(atoms[i].x[0], box[0]) + box[0], box[0]);
  for (int side = 0; side < 2; ++side) {
    const int to = side == 0 ? left : right, from = side == 0 ? right : left;
    int leaving = 0, kept = 0;
    for (int i = 0; i < owned; ++i) {
      int owner = (int)(atoms[i].x[0] / (box[0] / size));
      owner = owner >= size ? size - 1 : owner;
      if (owner != rank && owner == to)
        out[leaving++] = atoms[i];
      else
        atoms[kept++] = atoms[i];
    }
    owned = kept;
    int coming = 0;
    MPI_Sendrecv(&leaving, 1, MPI_INT, to, 1, &coming, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    reserve(owned + coming);
    exchange(out, leaving * 6, to, &atoms[owned], coming * 6, from, 2);
    owned += coming;
  }
  free(out);
}

static void send_face_positions(double* send, int count, double* received) {
  for (int n = 0; n < count; ++n) memcpy(&send[3 * n], atoms[face[n]].x, sizeof(double[3]));
  exchange(send, 3 * count, left, received, 3 * ghosts, right, 3);
}

/* The left face's atoms become the left neighbour's ghosts: a count, then
 * their positions. */
static void send_faces(void) {
  faced = 0;
  for (int i = 0; i < owned; ++i)
    if (atoms[i].x[0] < lo + CUTOFF + SKIN) face[faced++] = i;
  MPI_Sendrecv(&faced, 1, MPI_INT, left, 4, &ghosts, 1, MPI_INT, right, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  reserve(owned + ghosts);
  double* send = grow(NULL, sizeof(double[3]) * (size_t)(faced + 1));
  double* received = grow(NULL, sizeof(double[3]) * (size_t)(ghosts + 1));
  for (int n = 0; n < faced; ++n) memcpy(&send[3 * n], atoms[face[n]].x, sizeof(double[3]));
  exchange(send, 3 * faced, left, received, 3 * ghosts, right, 5);
  ghost_shift = rank == size - 1 ? box[0] : 0;
  for (int g = 0; g < ghosts; ++g) {
    memcpy(atoms[owned + g].x, &received[3 * g], sizeof(double[3]));
    atoms[owned + g].x[0] += ghost_shift;
  }
  free(send);
  free(received);
}

static double image(double d, int axis) { return d - box[axis] * nearbyint(d / box[axis]); }

/* Pairs within the cutoff and skin, by bins: every owned pair once, and
 * every pair of an owned atom and a ghost (the ghosts' forces go back). */
static void build_neighbour_lists(void) {
  const double reach = CUTOFF + SKIN;
  const int bins_x = (int)((hi + reach - lo) / reach) + 1;
  const int bins_y = (int)(box[1] / reach), bins_z = (int)(box[2] / reach);
  const int bins = bins_x * bins_y * bins_z, all = owned + ghosts;
  int* head = grow(NULL, sizeof(int) * (size_t)bins);
  int* next = grow(NULL, sizeof(int) * (size_t)(all + 1));
  int* bin_of = grow(NULL, sizeof(int) * (size_t)(all + 1));
  for (int b = 0; b < bins; ++b) head[b] = -1;
  for (int i = all - 1; i >= 0; --i) {
    int bx = (int)((atoms[i].x[0] - lo) / reach);
    bx = bx < 0 ? 0 : bx >= bins_x ? bins_x - 1 : bx;
    int by = (int)(fmod(atoms[i].x[1] + box[1], box[1]) / (box[1] / bins_y)) % bins_y;
    int bz = (int)(fmod(atoms[i].x[2] + box[2], box[2]) / (box[2] / bins_z)) % bins_z;
    bin_of[i] = (bx * bins_y + by) * bins_z + bz;
    next[i] = head[bin_of[i]];
    head[bin_of[i]] = i;
  }
  int n = 0;
  for (int i = 0; i < owned; ++i) {
    pairs_first[i] = n;
    const int b = bin_of[i], bx = b / (bins_y * bins_z), by = (b / bins_z) % bins_y, bz = b % bins_z;
    for (int dx = -1; dx <= 1; ++dx) {
      if (bx + dx < 0 || bx + dx >= bins_x) continue;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const int nb = ((bx + dx) * bins_y + (by + dy + bins_y) % bins_y) * bins_z + (bz + dz + bins_z) % bins_z;
          for (int j = head[nb]; j >= 0; j = next[j]) {
            if (j < owned && j <= i) continue;
            double r2 = 0;
            for (int d = 0; d < 3; ++d) {
              const double dd = d == 0 ? atoms[i].x[0] - atoms[j].x[0] : image(atoms[i].x[d] - atoms[j].x[d], d);
              r2 += dd * dd;
            }
            if (r2 >= reach * reach) continue;
            if (n == pairs_capacity) {
              pairs_capacity = 2 * pairs_capacity + 1024;
              pairs = grow(pairs, sizeof(int) * (size_t)pairs_capacity);
            }
            pairs[n++] = j;
          }
        }
    }
  }
  pairs_first[owned] = n;
  free(head);
  free(next);
  free(bin_of);
}

static double compute_forces(void) {
  double potential = 0;
  memset(force, 0, sizeof(double[3]) * (size_t)(owned + ghosts));
  for (int i = 0; i < owned; ++i)
    for (int p = pairs_first[i]; p < pairs_first[i + 1]; ++p) {
      const int j = pairs[p];
      double d[3], r2 = 0;
      for (int k = 0; k < 3; ++k) {
        d[k] = k == 0 ? atoms[i].x[0] - atoms[j].x[0] : image(atoms[i].x[k] - atoms[j].x[k], k);
        r2 += d[k] * d[k];
      }
      if (r2 >= CUTOFF * CUTOFF) continue;
      const double inv2 = 1 / r2, inv6 = inv2 * inv2 * inv2;
      const double f = 48 * inv6 * (inv6 - 0.5) * inv2;
      for (int k = 0; k < 3; ++k) {
        force[i][k] += f * d[k];
        force[j][k] -= f * d[k];
      }
      potential += 4 * inv6 * (inv6 - 1);
    }
  return potential;
}

/* Whether any rank's atom moved half the skin since the last rebuild. */
static int moved_too_far(void) {
  int mine = 0, any = 0;
  for (int i = 0; i < owned && !mine; ++i) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) d2 += (atoms[i].x[k] - x_at_rebuild[i][k]) * (atoms[i].x[k] - x_at_rebuild[i][k]);
    mine = d2 > 0.25 * SKIN * SKIN;
  }
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

static int rebuild_due(int step, int last_rebuild) {
  if (!CHECK_DISPLACEMENT) return step % REBUILD_EVERY == 0;
  return step == 0 || (step - last_rebuild >= CHECK_DELAY && moved_too_far());
}

/* The ghosts' forces go back to the atoms they are images of. */
static void send_ghost_forces(double* received) {
  exchange(force[owned], 3 * ghosts, right, received, 3 * faced, left, 6);
  for (int n = 0; n < faced; ++n)
    for (int k = 0; k < 3; ++k) force[face[n]][k] += received[3 * n + k];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  left = (rank + size - 1) % size;
  right = (rank + 1) % size;
  const int cells = argc > 1 ? atoi(argv[1]) : 8;
  const int steps = argc > 2 ? atoi(argv[2]) : 600;
  if (cells < 2 || steps < 1) {
    if (rank == 0) fprintf(stderr, "usage: " PROGRAM " [cells >= 2 [steps >= 1]]\n");
    MPI_Finalize();
    return 2;
  }
  make_lattice(cells);
  double *positions_out = NULL, *positions_in = NULL, *forces_in = NULL;
  double energies[2] = {0, 0}, totals[2] = {0, 0};
  int last_rebuild = 0, rebuilds = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    if (rebuild_due(step, last_rebuild)) {
      migrate();
      send_faces();
      build_neighbour_lists();
      for (int i = 0; i < owned; ++i) memcpy(x_at_rebuild[i], atoms[i].x, sizeof(double[3]));
      last_rebuild = step;
      ++rebuilds;
      positions_out = grow(positions_out, sizeof(double[3]) * (size_t)(faced + 1));
      positions_in = grow(positions_in, sizeof(double[3]) * (size_t)(ghosts + 1));
      forces_in = grow(forces_in, sizeof(double[3]) * (size_t)(faced + 1));
    } else {
      send_face_positions(positions_out, faced, positions_in);
      for (int g = 0; g < ghosts; ++g) {
        memcpy(atoms[owned + g].x, &positions_in[3 * g], sizeof(double[3]));
        atoms[owned + g].x[0] += ghost_shift;
      }
    }
    energies[1] = compute_forces();
    send_ghost_forces(forces_in);
    energies[0] = 0;
    for (int i = 0; i < owned; ++i)
      for (int k = 0; k < 3; ++k) {
        atoms[i].v[k] += DT * force[i][k]; /* kick (unit mass), then drift */
        atoms[i].x[k] += DT * atoms[i].v[k];
        energies[0] += 0.5 * atoms[i].v[k] * atoms[i].v[k];
      }
    if ((step + 1) % THERMO_EVERY == 0) MPI_Allreduce(energies, totals, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  const double seconds = MPI_Wtime() - start;

  long mine = owned, atoms_total = 0;
  MPI_Reduce(&mine, &atoms_total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(energies, totals, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result atoms %ld\n", atoms_total);
    printf("result energy %.6e\n", (totals[0] + totals[1]) / (double)atoms_total);
    printf("result rebuilds %d\n", rebuilds);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, seconds, seconds / steps);
  }
  free(positions_out);
  free(positions_in);
  free(forces_in);
  free(atoms);
  free(force);
  free(x_at_rebuild);
  free(face);
  free(pairs_first);
  free(pairs);
  MPI_Finalize();
  return 0;
}
