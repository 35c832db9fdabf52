#include "interpose/virtual_time.hpp"

#include <algorithm>
#include <cmath>

namespace mheta::interpose {

namespace {

double per_byte(const Link& link) { return link.bandwidth_Bps > 0 ? 1.0 / link.bandwidth_Bps : 0.0; }

// ceil(log2(ranks)): the rounds of a tree or recursive-doubling algorithm.
double rounds(int ranks) { return ranks > 1 ? std::ceil(std::log2(static_cast<double>(ranks))) : 0.0; }

}  // namespace

double message_arrival(double sent, const Link& link, std::int64_t bytes) {
  return sent + link.latency_s + injection_time(link, bytes);
}

double injection_time(const Link& link, std::int64_t bytes) {
  return static_cast<double>(std::max<std::int64_t>(bytes, 0)) * per_byte(link);
}

double collective_cost(model::Collective op, int ranks, double bytes, const Link& link) {
  if (ranks <= 1) return 0;
  using model::Collective;
  const double alpha = link.latency_s;
  const double n_beta = std::max(bytes, 0.0) * per_byte(link);
  const double k = rounds(ranks);
  const double others = ranks - 1;
  switch (op) {
    case Collective::barrier:
      return k * alpha;
    case Collective::bcast:
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
      return k * (alpha + n_beta);
    case Collective::gather:
    case Collective::scatter:
    case Collective::allgather:
    case Collective::reduce_scatter:
      return k * alpha + others * n_beta;
    case Collective::alltoall:
      return others * (alpha + n_beta);
  }
  return k * alpha;
}

Link slowest(const Link& a, const Link& b) {
  return Link{.latency_s = std::max(a.latency_s, b.latency_s),
              .bandwidth_Bps = std::min(a.bandwidth_Bps, b.bandwidth_Bps)};
}

double VirtualClock::advance_compute(double cpu_s, double cpu_factor) {
  const double advance = cpu_s > 0 ? cpu_s * cpu_factor : 0;
  now_ += advance;
  return advance;
}

double VirtualClock::advance_io(double wall_s, double queued_s, double io_factor) {
  const double io = std::clamp(wall_s - queued_s, 0.0, std::max(wall_s, 0.0));
  const double advance = io * io_factor;
  now_ += advance;
  return advance;
}

void VirtualClock::wait_until(double t) { now_ = std::max(now_, t); }

void VirtualClock::advance(double seconds) {
  if (seconds > 0) now_ += seconds;
}

}  // namespace mheta::interpose
