// Particles in a periodic 1-D domain split into equal slabs, one per rank,
// advected by a smooth velocity field and pushed by the local density
// (deposited on a grid). Particles that leave a slab go to the neighbour:
// each side first sends how many (MPI_Send of a count), and the particles
// themselves only when there are some, received with MPI_Probe /
// MPI_Get_count. The particles start bunched in the middle of each slab and
// spread, so the messages exchanged, and the work per rank, change slowly
// over the run.
//
// Usage: particle_drift [particles [steps]]   (default 40000 per rank, 200)
// Prints "result particles <count>", "result moment <m>" and
// "loop: <k> iterations, <t> s, <t/k> s per iteration".
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kCells = 256;  // density cells per slab

struct Particle {
  double x, v;
};

class Slab {
 public:
  Slab(int rank, int size) : rank_(rank), size_(size), lo_(static_cast<double>(rank) / size),
                             hi_(static_cast<double>(rank + 1) / size) {}

  void seed(long count) {
    std::uint64_t state = 88172645463325252ULL + static_cast<std::uint64_t>(rank_);
    for (long k = 0; k < count; ++k) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
      const double centre = 0.5 * (lo_ + hi_), width = 0.05 * (hi_ - lo_);
      particles_.push_back({centre + width * (2 * u - 1), 0.0});
    }
  }

  void push(double dt) {
    std::vector<double> density(kCells + 2, 0.0);
    const double cell = (hi_ - lo_) / kCells;
    for (const Particle& p : particles_) density[1 + std::min(kCells - 1, static_cast<int>((p.x - lo_) / cell))] += 1;
    for (Particle& p : particles_) {
      const int c = 1 + std::min(kCells - 1, static_cast<int>((p.x - lo_) / cell));
      const double gradient = (density[c + 1] - density[c - 1]) / (2 * cell * static_cast<double>(particles_.size()));
      const double drift = 0.02 * std::sin(2 * M_PI * p.x) + 0.01 * std::cos(6 * M_PI * p.x);
      p.v = 0.9 * p.v - 1e-7 * gradient + drift;
      p.x += dt * p.v;
      p.x -= std::floor(p.x);
    }
  }

  // Sends the leavers to the neighbours, receives theirs.
  void migrate() {
    const int left = (rank_ + size_ - 1) % size_, right = (rank_ + 1) % size_;
    std::vector<Particle> stay, to_left, to_right;
    for (const Particle& p : particles_) {
      if (p.x >= lo_ && p.x < hi_) {
        stay.push_back(p);
      } else if (going_left(p.x)) {
        to_left.push_back(p);
      } else {
        to_right.push_back(p);
      }
    }
    particles_.swap(stay);
    outgoing_[0].swap(to_right);
    outgoing_[1].swap(to_left);
    send_to(right, 0, 10);
    send_to(left, 1, 20);
    receive_from(left, 10);
    receive_from(right, 20);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    requests_.clear();
  }

  const std::vector<Particle>& particles() const { return particles_; }

 private:
  bool going_left(double x) const {
    const double distance_left = std::fmod(lo_ - x + 1.0, 1.0), distance_right = std::fmod(x - hi_ + 1.0, 1.0);
    return distance_left < distance_right;
  }

  // The count and the particles stay in members until MPI_Waitall.
  void send_to(int peer, int direction, int tag) {
    const std::vector<Particle>& leaving = outgoing_[direction];
    counts_[direction] = static_cast<int>(leaving.size());
    requests_.emplace_back();
    MPI_Isend(&counts_[direction], 1, MPI_INT, peer, tag, MPI_COMM_WORLD, &requests_.back());
    if (!leaving.empty()) {
      requests_.emplace_back();
      MPI_Isend(leaving.data(), static_cast<int>(2 * leaving.size()), MPI_DOUBLE, peer, tag + 1, MPI_COMM_WORLD,
                &requests_.back());
    }
  }

  void receive_from(int peer, int tag) {
    int count = 0;
    MPI_Recv(&count, 1, MPI_INT, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (count == 0) return;
    MPI_Status status;
    MPI_Probe(peer, tag + 1, MPI_COMM_WORLD, &status);
    int doubles = 0;
    MPI_Get_count(&status, MPI_DOUBLE, &doubles);
    std::vector<Particle> incoming(static_cast<std::size_t>(doubles / 2));
    MPI_Recv(incoming.data(), doubles, MPI_DOUBLE, peer, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    particles_.insert(particles_.end(), incoming.begin(), incoming.end());
  }

  int rank_, size_;
  double lo_, hi_;
  std::vector<Particle> particles_;
  std::array<std::vector<Particle>, 2> outgoing_;  // to the right, to the left
  std::array<int, 2> counts_{};
  std::vector<MPI_Request> requests_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long count = argc > 1 ? std::atol(argv[1]) : 40000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 200;
  Slab slab(rank, size);
  slab.seed(count);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 0; step < steps; ++step) {
    slab.push(0.05);
    slab.migrate();
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  double local[2] = {static_cast<double>(slab.particles().size()), 0.0}, total[2] = {0, 0};
  for (const Particle& p : slab.particles()) local[1] += p.x * p.x;
  MPI_Reduce(local, total, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("result particles %.0f\n", total[0]);
    std::printf("result moment %.12e\n", total[1] / total[0]);
    std::printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  MPI_Finalize();
  return 0;
}
