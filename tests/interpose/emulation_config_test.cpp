#include "interpose/emulation_config.hpp"

#include <gtest/gtest.h>

#include "model/format_error.hpp"

namespace mheta::interpose {
namespace {

TEST(EmulationConfig, PresetsDescribeEightNodes) {
  for (const std::string& name : emulation_preset_names()) {
    const auto preset = emulation_preset(name);
    ASSERT_TRUE(preset) << name;
    EXPECT_EQ(preset->ranks.size(), 8u) << name;
    for (const RankEmulation& r : preset->ranks) {
      EXPECT_GE(r.cpu_factor, 1);
      EXPECT_GE(r.io_factor, 1);
    }
  }
  EXPECT_FALSE(emulation_preset("HY3"));
}

TEST(EmulationConfig, IoPresetOnFourRanksKeepsHalfTheNodesSlowAndSmall) {
  const Emulation io = *emulation_preset("IO");
  int slow = 0;
  for (int r = 0; r < 4; ++r) {
    const RankEmulation& e = io.for_rank(r, 4);
    EXPECT_EQ(e.cpu_factor, 1);
    if (e.io_factor > 1) {
      ++slow;
      EXPECT_LT(*e.memory_bytes, *io.for_rank(0, 4).memory_bytes);
    }
  }
  EXPECT_EQ(slow, 2);
}

TEST(EmulationConfig, ParsesAFile) {
  const Emulation e = parse_emulation(
      R"({"format": "mheta-emulation/1", "name": "two", "wait": "spin",
          "ranks": [{"cpu_factor": 2}, {"io_factor": 4, "memory_bytes": 1024}]})",
      "two.json");
  EXPECT_EQ(e.name, "two");
  EXPECT_EQ(e.wait, WaitMode::spin);
  ASSERT_EQ(e.ranks.size(), 2u);
  EXPECT_EQ(e.ranks[0].cpu_factor, 2);
  EXPECT_FALSE(e.ranks[0].memory_bytes);
  EXPECT_EQ(e.ranks[1].io_factor, 4);
  EXPECT_EQ(*e.ranks[1].memory_bytes, 1024u);
  // Four ranks over two nodes: ranks 0,1 on node 0 and 2,3 on node 1.
  EXPECT_EQ(e.for_rank(1, 4).cpu_factor, 2);
  EXPECT_EQ(e.for_rank(2, 4).io_factor, 4);
}

TEST(EmulationConfig, DilationIsAutomaticUnlessGiven) {
  EXPECT_FALSE(emulation_preset("HY1")->dilation);
  EXPECT_FALSE(parse_emulation(R"({"format": "mheta-emulation/1", "dilation": "auto", "ranks": [{}]})", "e.json").dilation);
  EXPECT_EQ(parse_emulation(R"({"format": "mheta-emulation/1", "dilation": 2.5, "ranks": [{}]})", "e.json").dilation,
            2.5);
  EXPECT_THROW(parse_emulation(R"({"format": "mheta-emulation/1", "dilation": 0.5, "ranks": [{}]})", "e.json"),
               model::FormatError);
  EXPECT_THROW(parse_emulation(R"({"format": "mheta-emulation/1", "dilation": "fast", "ranks": [{}]})", "e.json"),
               model::FormatError);
}

TEST(EmulationConfig, RejectsBadFilesNamingTheField) {
  const auto error_of = [](const char* text) {
    try {
      parse_emulation(text, "e.json");
    } catch (const model::FormatError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of(R"({"format": "mheta-emulation/1", "ranks": [{"cpu_factor": 0.5}]})").find("ranks[0].cpu_factor"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"format": "mheta-emulation/1", "ranks": []})").find("ranks"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "mheta-emulation/1", "wait": "nap", "ranks": [{}]})").find("wait"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"format": "mheta-cluster/1", "ranks": [{}]})").find("format"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": )").find("e.json"), std::string::npos);
  EXPECT_THROW(load_emulation("no-such-preset-or-file"), model::FormatError);
}

}  // namespace
}  // namespace mheta::interpose
