#include "interpose/emulated_network.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "interpose/emulation_config.hpp"
#include "model/format_error.hpp"

namespace mheta::interpose {
namespace {

Emulation parse_with_network(const std::string& network, int nodes = 4) {
  std::string ranks;
  for (int i = 0; i < nodes; ++i) ranks += i == 0 ? "{}" : ", {}";
  return parse_emulation(R"({"format": "mheta-emulation/1", "ranks": [)" + ranks + R"(], "network": )" + network + "}",
                         "net.json");
}

std::string error_of(const std::string& network) {
  try {
    parse_with_network(network);
  } catch (const model::FormatError& error) {
    return error.what();
  }
  return "no error";
}

TEST(EmulatedNetwork, PresetsAreGigabitEthernet) {
  for (const std::string& name : emulation_preset_names()) {
    const Emulation e = *emulation_preset(name);
    ASSERT_TRUE(e.network) << name;
    for (int from = 0; from < 8; ++from) {
      for (int to = 0; to < 8; ++to) {
        if (from == to) continue;
        const Link l = e.network->link(from, to, 8);
        EXPECT_DOUBLE_EQ(l.latency_s, 50e-6) << name;
        EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 117e6) << name;
      }
    }
  }
}

TEST(EmulatedNetwork, AFileWithoutNetworkUsesTheMachines) {
  EXPECT_FALSE(parse_emulation(R"({"format": "mheta-emulation/1", "ranks": [{}]})", "e.json").network);
}

TEST(EmulatedNetwork, DefaultLinkInMicrosecondsAndMegabytesPerSecond) {
  const Network n = *parse_with_network(R"({"latency_us": 20, "bandwidth_MBps": 1000})").network;
  const Link l = n.link(0, 3, 4);
  EXPECT_DOUBLE_EQ(l.latency_s, 20e-6);
  EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 1e9);
}

TEST(EmulatedNetwork, ARanksMessagesToItselfCrossNoNetwork) {
  const Network n = *parse_with_network(R"({"latency_us": 20, "bandwidth_MBps": 1000})").network;
  const Link self = n.link(2, 2, 4);
  EXPECT_EQ(self.latency_s, 0);
  EXPECT_TRUE(std::isinf(self.bandwidth_Bps));
}

TEST(EmulatedNetwork, ARankEntryChangesEveryLinkOfThatRankBothWays) {
  const Network n = *parse_with_network(
                         R"({"latency_us": 50, "bandwidth_MBps": 100,
                             "ranks": [{"rank": 1, "latency_us": 200}]})")
                         .network;
  for (int other : {0, 2, 3}) {
    EXPECT_DOUBLE_EQ(n.link(1, other, 4).latency_s, 200e-6);
    EXPECT_DOUBLE_EQ(n.link(other, 1, 4).latency_s, 200e-6);
    EXPECT_DOUBLE_EQ(n.link(1, other, 4).bandwidth_Bps, 100e6);  // not given: the default
  }
  EXPECT_DOUBLE_EQ(n.link(0, 2, 4).latency_s, 50e-6);
}

TEST(EmulatedNetwork, ALinkBetweenTwoChangedRanksIsAsSlowAsItsSlowerEnd) {
  const Network n = *parse_with_network(
                         R"({"latency_us": 50, "bandwidth_MBps": 100,
                             "ranks": [{"rank": 0, "latency_us": 10, "bandwidth_MBps": 20},
                                       {"rank": 2, "latency_us": 300, "bandwidth_MBps": 1000}]})")
                         .network;
  const Link l = n.link(0, 2, 4);
  EXPECT_DOUBLE_EQ(l.latency_s, 300e-6);
  EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 20e6);
  // Rank 0's faster latency applies where the other end says nothing.
  EXPECT_DOUBLE_EQ(n.link(0, 1, 4).latency_s, 10e-6);
  EXPECT_DOUBLE_EQ(n.link(3, 0, 4).bandwidth_Bps, 20e6);
}

TEST(EmulatedNetwork, APairOverridesRankEntriesAndTheDefaultInBothDirections) {
  const Network n = *parse_with_network(
                         R"({"latency_us": 50, "bandwidth_MBps": 100,
                             "ranks": [{"rank": 1, "latency_us": 200, "bandwidth_MBps": 10}],
                             "pairs": [{"between": [3, 1], "latency_us": 5}]})")
                         .network;
  for (const Link l : {n.link(1, 3, 4), n.link(3, 1, 4)}) {
    EXPECT_DOUBLE_EQ(l.latency_s, 5e-6);
    EXPECT_DOUBLE_EQ(l.bandwidth_Bps, 10e6);  // not given by the pair: rank 1's
  }
  EXPECT_DOUBLE_EQ(n.link(1, 2, 4).latency_s, 200e-6);
}

TEST(EmulatedNetwork, RanksOfARunAreStretchedOverTheConfigurationsNodes) {
  // Two nodes, run on 4 ranks: ranks 0,1 emulate node 0 and 2,3 node 1.
  const Network n = *parse_with_network(
                         R"({"latency_us": 50, "bandwidth_MBps": 100,
                             "pairs": [{"between": [0, 1], "latency_us": 500}]})",
                         2)
                         .network;
  EXPECT_DOUBLE_EQ(n.link(1, 2, 4).latency_s, 500e-6);
  EXPECT_DOUBLE_EQ(n.link(0, 3, 4).latency_s, 500e-6);
  EXPECT_DOUBLE_EQ(n.link(0, 1, 4).latency_s, 50e-6);  // two ranks of node 0
  EXPECT_DOUBLE_EQ(n.link(2, 3, 4).latency_s, 50e-6);
  EXPECT_EQ(node_of_rank(3, 4, 2), 1);
  EXPECT_EQ(node_of_rank(5, 16, 8), 2);
}

TEST(EmulatedNetwork, MalformedBlocksNameTheFileAndTheField) {
  const auto names = [](const std::string& error, const std::string& field) {
    return error.find("net.json") != std::string::npos && error.find(field) != std::string::npos;
  };
  EXPECT_TRUE(names(error_of(R"({"bandwidth_MBps": 100})"), "network.latency_us"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 50})"), "network.bandwidth_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": -1, "bandwidth_MBps": 100})"), "network.latency_us"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 50, "bandwidth_MBps": 0})"), "network.bandwidth_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": "50", "bandwidth_MBps": 100})"), "network.latency_us"));
  EXPECT_TRUE(names(error_of(R"({"latency_ms": 50, "latency_us": 50, "bandwidth_MBps": 100})"), "network.latency_ms"));
  EXPECT_TRUE(names(error_of("[50, 100]"), "network"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "ranks": {"rank": 0}})"), "network.ranks"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "ranks": [{"rank": 4, "latency_us": 1}]})"),
                    "network.ranks[0].rank"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "ranks": [{"rank": 1}]})"), "network.ranks[0]"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1,
                                 "ranks": [{"rank": 1, "latency_us": 1}, {"rank": 1, "latency_us": 2}]})"),
                    "network.ranks[1].rank"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1,
                                 "ranks": [{"rank": 1, "bandwidth_MBps": -3}]})"),
                    "network.ranks[0].bandwidth_MBps"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "pairs": [{"between": [1], "latency_us": 1}]})"),
                    "network.pairs[0].between"));
  EXPECT_TRUE(
      names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "pairs": [{"between": [2, 2], "latency_us": 1}]})"),
            "network.pairs[0].between"));
  EXPECT_TRUE(
      names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "pairs": [{"between": [0, 1.5], "latency_us": 1}]})"),
            "network.pairs[0].between[1]"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1,
                                 "pairs": [{"between": [0, 1], "latency_us": 1}, {"between": [1, 0], "latency_us": 2}]})"),
                    "network.pairs[1].between"));
  EXPECT_TRUE(names(error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "pairs": [{"from": 0, "to": 1}]})"),
                    "network.pairs[0].from"));
}

TEST(EmulatedNetwork, AnErrorIsOneLine) {
  const std::string error =
      error_of(R"({"latency_us": 5, "bandwidth_MBps": 1, "ranks": [{"rank": 9, "latency_us": 1}]})");
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_NE(error.find("4 nodes"), std::string::npos) << error;
}

}  // namespace
}  // namespace mheta::interpose
