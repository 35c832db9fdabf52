#include "io/redistribution_fault.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

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

namespace {

// Whether the variable `name`, "<point>[@<rank>]", names `point` and `rank`.
// Throws std::invalid_argument when it names no known point.
bool names(const char* name, std::string_view point, int rank) {
  const char* spec = std::getenv(name);
  if (spec == nullptr || *spec == '\0') return false;
  const std::string_view text(spec);
  const std::size_t at = text.find('@');
  const std::string_view wanted = text.substr(0, at);
  bool known = false;
  for (std::string_view p : kFaultPoints) known = known || p == wanted;
  if (!known) {
    std::string points;
    for (std::string_view p : kFaultPoints) points += (points.empty() ? "" : ", ") + std::string(p);
    throw std::invalid_argument(std::string(name) + "=" + std::string(text) + ": no such point (" + points + ")");
  }
  const int victim = at == std::string_view::npos ? 0 : std::atoi(std::string(text.substr(at + 1)).c_str());
  return wanted == point && victim == rank;
}

void fill_disk(std::string_view point, int rank) {
  const char* path = std::getenv("MHETA_REDISTRIBUTE_FILL_FILE");
  if (path == nullptr || *path == '\0') {
    throw std::invalid_argument("MHETA_REDISTRIBUTE_FILL needs MHETA_REDISTRIBUTE_FILL_FILE, the file to fill the disk with");
  }
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  constexpr std::size_t kBlock = std::size_t{64} << 10;
  constexpr std::size_t kMost = std::size_t{1} << 30;
  const std::vector<char> block(kBlock, 'x');
  std::size_t written = 0;
  // Whole blocks, then single bytes: the disk is full to the last byte.
  for (std::size_t size = kBlock; size > 0 && written < kMost; size /= 2) {
    ssize_t n = 0;
    while (written < kMost && (n = ::write(fd, block.data(), size)) > 0) written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  std::fprintf(stderr, "mheta redistribute: rank %d filled the disk at %s with %zu bytes (MHETA_REDISTRIBUTE_FILL)\n",
               rank, std::string(point).c_str(), written);
}

}  // namespace

void corrupt_point(int rank, const std::filesystem::path& file, std::int64_t first_byte, std::int64_t bytes) {
  const char* spec = std::getenv("MHETA_REDISTRIBUTE_CORRUPT");
  if (spec == nullptr || *spec == '\0') return;
  char* end = nullptr;
  const long victim = std::strtol(spec, &end, 10);
  if (end == spec || *end != '\0') {
    throw std::invalid_argument(std::string("MHETA_REDISTRIBUTE_CORRUPT=") + spec + ": expected a rank number");
  }
  if (victim != rank || bytes <= 0) return;
  const int fd = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  const off_t at = static_cast<off_t>(first_byte + bytes / 2);
  unsigned char byte = 0;
  if (::pread(fd, &byte, 1, at) == 1) {
    byte = static_cast<unsigned char>(byte ^ 0xffu);
    if (::pwrite(fd, &byte, 1, at) == 1) {
      std::fprintf(stderr, "mheta redistribute: rank %d corrupted byte %lld of %s (MHETA_REDISTRIBUTE_CORRUPT)\n", rank,
                   static_cast<long long>(at), file.c_str());
    }
  }
  ::close(fd);
}

void fault_point(std::string_view point, int rank) {
  if (names("MHETA_REDISTRIBUTE_FILL", point, rank)) fill_disk(point, rank);
  if (!names("MHETA_REDISTRIBUTE_KILL", point, rank)) return;
  std::fprintf(stderr, "mheta redistribute: rank %d killed at %s (MHETA_REDISTRIBUTE_KILL)\n", rank,
               std::string(point).c_str());
  std::fflush(stderr);
  std::raise(SIGKILL);
}

}  // namespace mheta::io
