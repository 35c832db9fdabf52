#include "interpose/emulated_disk.hpp"

#include <algorithm>
#include <string>

namespace mheta::interpose {

namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;
constexpr double kBytesPerMegabyte = 1e6;  // MB/s as disk figures are given: 10^6 bytes

double rate(const model::JsonFields& f, const model::Json& block, const char* key) {
  const std::string path = model::field_path("disk", key);
  const double mbps = f.non_negative_value(f.member(block, key, "disk"), path);
  if (mbps == 0) f.fail(path, "must be greater than zero (a disk that moves nothing never completes a request)");
  return mbps * kBytesPerMegabyte;
}

}  // namespace

double Disk::seconds(DiskOp op, std::int64_t bytes, double io_factor) const {
  const double n = static_cast<double>(std::max<std::int64_t>(bytes, 0));
  double transfer = 0;
  if (op == DiskOp::read) transfer = n / read_Bps;
  if (op == DiskOp::write) transfer = n / write_Bps;
  return io_factor * (latency_s + transfer);
}

double DiskQueue::request(double issued_at, DiskOp op, std::int64_t bytes) {
  free_at_ = std::max(free_at_, issued_at) + disk_.seconds(op, bytes, io_factor_);
  return free_at_;
}

Disk sata_ssd() {
  // A SATA solid-state disk of a commodity node: the SATA 3 link carries
  // 600 MB/s, of which such disks sustain about 500 MB/s of sequential
  // reads and a little less of writes once their cache is full; about
  // 100 us from a request to its first byte through the kernel and the
  // controller.
  return Disk{.latency_s = 100 * kSecondsPerMicrosecond,
              .read_Bps = 500 * kBytesPerMegabyte,
              .write_Bps = 450 * kBytesPerMegabyte};
}

Disk parse_disk(const model::JsonFields& f, const model::Json& block) {
  f.only_keys(block, "disk", {"latency_us", "read_MBps", "write_MBps"});
  Disk disk{};
  disk.latency_s = f.non_negative_value(f.member(block, "latency_us", "disk"), "disk.latency_us") *
                   kSecondsPerMicrosecond;
  disk.read_Bps = rate(f, block, "read_MBps");
  disk.write_Bps = rate(f, block, "write_MBps");
  return disk;
}

}  // namespace mheta::interpose
