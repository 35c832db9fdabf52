#include "interpose/emulated_disk.hpp"

#include <gtest/gtest.h>

#include <string>

#include "interpose/emulation_config.hpp"
#include "model/format_error.hpp"

namespace mheta::interpose {
namespace {

Emulation parse_with_disk(const std::string& disk) {
  return parse_emulation(R"({"format": "mheta-emulation/1", "ranks": [{}, {"io_factor": 4}], "disk": )" + disk + "}",
                         "disk.json");
}

std::string error_of(const std::string& disk) {
  try {
    parse_with_disk(disk);
  } catch (const model::FormatError& error) {
    return error.what();
  }
  return "no error";
}

TEST(EmulatedDisk, ARequestPaysTheLatencyThenItsBytesAtTheDirectionsRate) {
  const Disk disk = parse_with_disk(R"({"latency_us": 250, "read_MBps": 40, "write_MBps": 20})").disk.value();
  // 1 MB read: 250 us + 10^6 / (40 x 10^6) s = 0.00025 + 0.025 = 0.02525 s.
  EXPECT_NEAR(disk.seconds(DiskOp::read, 1000000, 1), 0.02525, 1e-12);
  // The same written: 0.00025 + 0.05 = 0.05025 s; on a node 4x slower, 0.201 s.
  EXPECT_NEAR(disk.seconds(DiskOp::write, 1000000, 1), 0.05025, 1e-12);
  EXPECT_NEAR(disk.seconds(DiskOp::write, 1000000, 4), 0.201, 1e-12);
  // Open, close, sync move no bytes: the latency alone.
  EXPECT_NEAR(disk.seconds(DiskOp::other, 1000000, 2), 0.0005, 1e-12);
}

TEST(EmulatedDisk, ARanksDiskServesItsRequestsOneAtATimeInTheirOrder) {
  const Disk disk{.latency_s = 1e-3, .read_Bps = 10e6, .write_Bps = 5e6};
  DiskQueue queue(disk, 2);
  // A 10 kB read issued at 1 s on an idle disk 2x slower: 2 x (1 ms + 1 ms)
  // = 4 ms, done at 1.004 s.
  EXPECT_NEAR(queue.request(1.0, DiskOp::read, 10000), 1.004, 1e-12);
  // A 10 kB write issued at 1.001 s waits for the read: from 1.004 s,
  // 2 x (1 ms + 2 ms) = 6 ms, done at 1.010 s.
  EXPECT_NEAR(queue.request(1.001, DiskOp::write, 10000), 1.010, 1e-12);
  // A sync issued once the disk is idle again starts at its issue:
  // 2 x 1 ms from 2 s.
  EXPECT_NEAR(queue.request(2.0, DiskOp::other, 0), 2.002, 1e-12);
}

TEST(EmulatedDisk, PresetsGiveEveryNodeTheSameDiskAndAFileWithoutOneTheMachines) {
  for (const std::string& name : emulation_preset_names()) {
    const Emulation e = *emulation_preset(name);
    ASSERT_TRUE(e.disk) << name;
    EXPECT_DOUBLE_EQ(e.disk->latency_s, 100e-6) << name;
    EXPECT_DOUBLE_EQ(e.disk->read_Bps, 500e6) << name;
    EXPECT_DOUBLE_EQ(e.disk->write_Bps, 450e6) << name;
  }
  const Emulation file = parse_emulation(R"({"format": "mheta-emulation/1", "ranks": [{}]})", "plain.json");
  EXPECT_FALSE(file.disk);
}

TEST(EmulatedDisk, MalformedBlocksNameTheFileAndTheField) {
  const auto names = [](const std::string& error, const std::string& field) {
    return error.find("disk.json") != std::string::npos && error.find(field) != std::string::npos &&
           error.find('\n') == std::string::npos;
  };
  EXPECT_TRUE(names(error_of(R"({"read_MBps": 100, "write_MBps": 100})"), "disk.latency_us"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 100, "write_MBps": 100})"), "disk.read_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 100, "read_MBps": 100})"), "disk.write_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": -1, "read_MBps": 100, "write_MBps": 100})"), "disk.latency_us"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 100, "read_MBps": 0, "write_MBps": 100})"), "disk.read_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 100, "read_MBps": 100, "write_MBps": "fast"})"), "disk.write_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 100, "read_MBps": 100, "write_MBps": 100, "seek_ms": 8})"),
                    "disk.seek_ms"));
  EXPECT_TRUE(names(error_of("[100, 500, 450]"), "disk"));
}

}  // namespace
}  // namespace mheta::interpose
