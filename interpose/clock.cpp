#include "interpose/clock.hpp"

#include <cerrno>
#include <cmath>

namespace mheta::interpose {

void sleep_s(double seconds) {
  if (!(seconds > 0)) return;
  const double whole = std::floor(seconds);
  timespec request{static_cast<time_t>(whole), static_cast<long>((seconds - whole) * 1e9)};
  timespec remaining{};
  while (nanosleep(&request, &remaining) != 0 && errno == EINTR) request = remaining;
}

}  // namespace mheta::interpose
