#include "io/redistribution_fault.hpp"

#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace mheta::io {

void apply_file_size_limit() {
  const char* spec = std::getenv("MHETA_REDISTRIBUTE_FILE_LIMIT");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(spec, &end, 10);
  if (end == spec || *end != '\0') {
    throw std::invalid_argument(std::string("MHETA_REDISTRIBUTE_FILE_LIMIT=") + spec + ": expected a number of bytes");
  }
  std::signal(SIGXFSZ, SIG_IGN);
  const rlimit limit{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  setrlimit(RLIMIT_FSIZE, &limit);
}

void fault_point(std::string_view point, int rank) {
  const char* spec = std::getenv("MHETA_REDISTRIBUTE_KILL");
  if (spec == nullptr || *spec == '\0') return;
  const std::string_view text(spec);
  const std::size_t at = text.find('@');
  const std::string_view name = text.substr(0, at);
  bool known = false;
  for (std::string_view p : kFaultPoints) known = known || p == name;
  if (!known) {
    std::string points;
    for (std::string_view p : kFaultPoints) points += (points.empty() ? "" : ", ") + std::string(p);
    throw std::invalid_argument("MHETA_REDISTRIBUTE_KILL=" + std::string(text) + ": no such point (" + points + ")");
  }
  const int victim = at == std::string_view::npos ? 0 : std::atoi(std::string(text.substr(at + 1)).c_str());
  if (name != point || victim != rank) return;
  std::fprintf(stderr, "mheta redistribute: rank %d killed at %s (MHETA_REDISTRIBUTE_KILL)\n", rank,
               std::string(point).c_str());
  std::fflush(stderr);
  std::raise(SIGKILL);
}

}  // namespace mheta::io
