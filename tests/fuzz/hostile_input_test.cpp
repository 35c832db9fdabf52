// The hostile inputs that once crashed mheta, hung it or made it print
// absurd figures, each now refused with the file, the field and a short
// message (docs/formats.md, "Limits").
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "interpose/emulation_config.hpp"
#include "interpose/row_weights_file.hpp"
#include "model/cluster.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "model/profile.hpp"
#include "model/text_file.hpp"
#include "tests/fuzz/fuzz_targets.hpp"

namespace mheta {
namespace {

using model::Json;

std::string example(const std::string& name) {
  std::ifstream in(std::string(EXAMPLES_DIR) + "/jacobi-hy1/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The FormatError `parse` throws; fails the test when it throws none.
template <class Parse>
model::FormatError refusal(Parse parse) {
  try {
    parse();
  } catch (const model::FormatError& error) {
    return error;
  }
  ADD_FAILURE() << "no FormatError";
  return model::FormatError("", "", "");
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(HostileInput, DeepNestingIsRefusedInEveryJsonFormat) {
  const std::string deep = nested(100000);
  const auto profile = refusal([&] { model::parse_profile(deep, "p.json"); });
  EXPECT_NE(profile.reason().find("nesting deeper than the 100 levels"), std::string::npos) << profile.what();
  EXPECT_EQ(profile.file(), "p.json");
  const auto cluster = refusal([&] { model::parse_cluster("{\"nodes\": " + deep + "}", "c.json"); });
  EXPECT_TRUE(cluster.where().starts_with("nodes[0][0]")) << cluster.what();
  const auto emulation = refusal([&] {
    interpose::parse_emulation("{\"format\": \"mheta-emulation/1\", \"ranks\": " + deep + "}", "e.json");
  });
  EXPECT_NE(emulation.reason().find("nesting"), std::string::npos);
  // As deep as allowed still parses (and then fails on what it means).
  const auto shallow = refusal([&] { model::parse_profile(nested(100), "p.json"); });
  EXPECT_EQ(shallow.reason(), "must be a JSON object");
}

TEST(HostileInput, NumberPastADoubleNamesTheFieldNotTheValue) {
  Json cluster = Json::parse(example("cluster.json"));
  std::string text = cluster.dump();
  const std::string key = "\"send_overhead_s\":";
  const std::size_t at = text.find(key) + key.size();
  text.replace(at, text.find_first_of(",}", at) - at, "1e309");
  const auto error = refusal([&] { model::parse_cluster(text, "c.json"); });
  EXPECT_EQ(error.where(), "network.send_overhead_s") << error.what();
  EXPECT_NE(error.reason().find("out of range"), std::string::npos);
  EXPECT_EQ(error.reason().find("1e309"), std::string::npos) << "the value is echoed: " << error.what();
}

TEST(HostileInput, MillionDigitNumberIsNotEchoed) {
  const std::string digits(1000000, '7');
  for (const std::string& number : {digits, "0." + digits}) {
    const auto error = refusal([&] {
      model::parse_profile("{\"format\": \"mheta-profile/1\", \"iterations\": " + number + "}", "p.json");
    });
    EXPECT_EQ(error.where(), "iterations") << model::excerpt(error.what(), 200);
    EXPECT_LT(std::string(error.what()).size(), 300u);
  }
  const auto dist = refusal([&] { model::parse_gen_block("100\n" + digits + "\n", "d.txt"); });
  EXPECT_LT(std::string(dist.what()).size(), 300u);
  EXPECT_NE(std::string(dist.what()).find("1000000 characters"), std::string::npos) << dist.what();
}

TEST(HostileInput, EmulationFactorsHaveADocumentedRange) {
  for (const char* factor : {"1e19", "1000001", "1e300"}) {
    const auto error = refusal([&] {
      interpose::parse_emulation(
          std::string("{\"format\": \"mheta-emulation/1\", \"ranks\": [{\"io_factor\": ") + factor + "}]}", "e.json");
    });
    EXPECT_EQ(error.where(), "ranks[0].io_factor") << error.what();
  }
  const auto dilation = refusal([&] {
    interpose::parse_emulation("{\"format\": \"mheta-emulation/1\", \"dilation\": 1e7, \"ranks\": [{}]}", "e.json");
  });
  EXPECT_EQ(dilation.where(), "dilation");
  EXPECT_NO_THROW(interpose::parse_emulation(
      "{\"format\": \"mheta-emulation/1\", \"ranks\": [{\"cpu_factor\": 1e6, \"io_factor\": 1e6}]}", "e.json"));
}

TEST(HostileInput, HugeRowWeightsAreRefused) {
  const auto file = refusal([&] { interpose::parse_row_weights("1\n1e308\n", "w.txt"); });
  EXPECT_EQ(file.where(), "line 2");
  Json profile = Json::parse(example("profile.json"));
  profile["row_weights"] = Json::array();
  for (std::int64_t i = 0; i < profile["global_rows"].get<std::int64_t>(); ++i) profile["row_weights"].push_back(1.0);
  profile["row_weights"][3] = 1e308;
  const auto field = refusal([&] { model::parse_profile(profile.dump(), "p.json"); });
  EXPECT_EQ(field.where(), "row_weights[3]");
}

TEST(HostileInput, BytesThatOverflowSixtyFourBitsAreRefused) {
  Json profile = Json::parse(example("profile.json"));
  profile["variables"][0]["bytes_per_row"] = std::int64_t{1} << 60;
  const auto error = refusal([&] { model::parse_profile(profile.dump(), "p.json"); });
  EXPECT_EQ(error.where(), "variables");
  EXPECT_NE(error.reason().find("64 bits"), std::string::npos);
}

TEST(HostileInput, TimesPastTheLimitAreRefusedAndTheLargestAllowedStayFinite) {
  Json profile = Json::parse(example("profile.json"));
  profile["ranks"][0]["sections"][0]["stages"][0]["compute_s"] = 1e300;
  EXPECT_EQ(refusal([&] { model::parse_profile(profile.dump(), "p.json"); }).where(),
            "ranks[0].sections[0].stages[0].compute_s");
  // Every time and cost at its largest allowed value: the prediction is
  // large but finite.
  Json cluster = Json::parse(example("cluster.json"));
  for (auto& node : cluster["nodes"]) {
    for (auto& [key, value] : node["disk"].items()) {
      if (value.is_number()) value = model::kMaxInputReal;
    }
  }
  for (auto& [key, value] : cluster["network"].items()) {
    if (value.is_number()) value = model::kMaxInputReal;
  }
  for (auto& rank : profile["ranks"]) {
    for (auto& section : rank["sections"]) {
      for (auto& stage : section["stages"]) stage["compute_s"] = model::kMaxInputReal;
    }
  }
  const model::Profile p = model::parse_profile(profile.dump(), "p.json");
  const model::Model m(p, model::parse_cluster(cluster.dump(), "c.json"));
  const model::Prediction prediction = m.predict(p.distribution.rows);
  EXPECT_TRUE(std::isfinite(prediction.run_s));
  EXPECT_GE(prediction.iteration_s, model::kMaxInputReal);
}

TEST(HostileInput, APredictionThatIsNotFiniteIsRefused) {
  model::Prediction p;
  p.ranks.resize(2);
  p.ranks[1].wait_s = std::nan("");
  try {
    model::require_finite(p);
    FAIL() << "accepted a NaN";
  } catch (const model::ModelError& error) {
    EXPECT_NE(std::string(error.what()).find("rank 1 waiting time"), std::string::npos) << error.what();
  }
  p.ranks[1].wait_s = 0;
  p.iteration_s = INFINITY;
  EXPECT_THROW(model::require_finite(p), model::ModelError);
}

class SpecialInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mheta-hostile-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SpecialInput, AFifoOrADeviceIsRefusedWithoutWaiting) {
  const auto fifo = dir_ / "dist.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(refusal([&] { model::read_gen_block(fifo); }).reason().find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal([&] { interpose::read_row_weights_file("/dev/zero"); }).reason().find("not a regular file"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_NE(refusal([&] { model::read_profile(dir_); }).reason().find("directory"), std::string::npos);
}

TEST_F(SpecialInput, AFileLargerThanTheLimitIsRefused) {
  const auto big = dir_ / "profile.json";
  std::ofstream(big) << std::string(2000, ' ');
  EXPECT_NE(refusal([&] { model::read_text_file(big, 1000); }).reason().find("more than the 1000"), std::string::npos);
  EXPECT_EQ(model::read_text_file(big, 2000).size(), 2000u);
}

TEST(FuzzTargets, TheSeedsPassEveryTarget) {
  fuzz::set_model_inputs(example("profile.json"), example("cluster.json"));
  // A target that finds something aborts: returning is the assertion.
  fuzz::target_by_name("model-profile")->run(example("profile.json"));
  fuzz::target_by_name("model-cluster")->run(example("cluster.json"));
  fuzz::target_by_name("profile")->run(nested(100000));
  fuzz::target_by_name("emulation")->run("{\"format\": \"mheta-emulation/1\", \"ranks\": [{\"cpu_factor\": 1e19}]}");
  EXPECT_EQ(fuzz::targets().size(), 7u);
  EXPECT_EQ(fuzz::target_by_name("no-such"), nullptr);
}

}  // namespace
}  // namespace mheta
