// plain_io: the baseline of scripts/bench-io.sh. pwrite() then pread()
// `--bytes` bytes in `--chunk`-byte calls over the first `--block` bytes of
// an existing file, sequentially, from and into one buffer allocated like
// an ICLA's; prints {"write_seconds":..,"read_seconds":..}.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  std::string path;
  std::int64_t bytes = 0;
  std::int64_t chunk = 0;
  std::int64_t block = 0;
  CLI::App cli("Plain sequential pwrite/pread of a file, the baseline of the apps' I/O bandwidth", "plain_io");
  cli.add_option("--file", path, "An existing file")->required()->check(CLI::ExistingFile);
  cli.add_option("--bytes", bytes, "Bytes to write, then to read")->required()->check(CLI::PositiveNumber);
  cli.add_option("--chunk", chunk, "Bytes per call")->required()->check(CLI::PositiveNumber);
  cli.add_option("--block", block, "Offsets wrap around at this many bytes")->required()->check(CLI::PositiveNumber);
  CLI11_PARSE(cli, argc, argv);
  const int fd = open(path.c_str(), O_RDWR);
  if (fd < 0) {
    std::perror(path.c_str());
    return 2;
  }
  std::vector<std::byte> buffer(static_cast<std::size_t>(chunk), std::byte{1});
  auto sweep = [&](bool write) {
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t done = 0; done < bytes;) {
      const std::int64_t offset = done % block;
      const std::int64_t n = std::min({chunk, block - offset, bytes - done});
      const ssize_t moved = write ? pwrite(fd, buffer.data(), static_cast<std::size_t>(n), offset)
                                  : pread(fd, buffer.data(), static_cast<std::size_t>(n), offset);
      if (moved != n) {
        std::perror(path.c_str());
        std::exit(2);
      }
      done += n;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const double write_seconds = sweep(true);
  const double read_seconds = sweep(false);
  close(fd);
  std::printf("{\"write_seconds\":%.9f,\"read_seconds\":%.9f}\n", write_seconds, read_seconds);
  return 0;
}
