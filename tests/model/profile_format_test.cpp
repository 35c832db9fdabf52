#include <gtest/gtest.h>

#include <functional>

#include "model/format_error.hpp"
#include "model/profile.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

Profile valid_profile() {
  Profile p = testing::empty_profile({3, 5});
  p.iterations = 10;
  p.variables = {Variable{"A", 800, Access::read_write}};
  for (int r = 0; r < 2; ++r) {
    Stage stage = testing::compute_stage(0.5);
    stage.io.push_back(StageIo{0, IoStats{2, 2400, 0.01}, IoStats{2, 2400, 0.02}, false, 0});
    p.ranks[static_cast<std::size_t>(r)].memory_budget_bytes = 4096;
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(
        Section{{stage}, {testing::send_to(1 - r, 800, 3), testing::recv_from(1 - r, 800, 3),
                          testing::collective(Collective::allreduce, 8)}});
  }
  return p;
}

FormatError error_after(const std::function<void(Json&)>& edit) {
  Json doc = profile_to_json(valid_profile());
  edit(doc);
  try {
    parse_profile(doc.dump(), "profile.json");
  } catch (const FormatError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << doc.dump();
  return FormatError("", "", "");
}

Json& first_section(Json& d, int rank) { return d["ranks"][rank]["sections"][0]; }

TEST(ProfileFormat, RoundTripsThroughJson) {
  const Profile p = parse_profile(profile_to_json(valid_profile()).dump(), "profile.json");
  EXPECT_EQ(p.global_rows(), 8);
  EXPECT_EQ(p.iterations, 10);
  ASSERT_EQ(p.rank_count(), 2);
  const Section& s = p.ranks[1].sections[0];
  EXPECT_DOUBLE_EQ(s.stages[0].io[0].writes.seconds, 0.02);
  ASSERT_EQ(s.comm.size(), 3u);
  EXPECT_EQ(s.comm[0].kind, CommKind::send);
  EXPECT_EQ(s.comm[0].peer, 0);
  EXPECT_EQ(s.comm[0].tag, 3);
  EXPECT_EQ(s.comm[2].collective, Collective::allreduce);
}

TEST(ProfileFormat, RecordsTheClockItsTimesWereTakenWith) {
  EXPECT_EQ(parse_profile(profile_to_json(valid_profile()).dump(), "profile.json").clock, ProfileClock::wall);
  Profile virtual_profile = valid_profile();
  virtual_profile.clock = ProfileClock::virtual_time;
  const Json doc = profile_to_json(virtual_profile);
  EXPECT_EQ(doc["clock"], "virtual");
  EXPECT_EQ(parse_profile(doc.dump(), "profile.json").clock, ProfileClock::virtual_time);
  // Profiles written before the field are wall-clock ones.
  Json old = doc;
  old.erase("clock");
  EXPECT_EQ(parse_profile(old.dump(), "profile.json").clock, ProfileClock::wall);
}

TEST(ProfileFormat, InCoreComputeIsOptionalAndChecked) {
  Profile with = valid_profile();
  with.ranks[1].in_core_compute_s = 0.125;
  const Json doc = profile_to_json(with);
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_FALSE(back.ranks[0].in_core_compute_s.has_value());
  ASSERT_TRUE(back.ranks[1].in_core_compute_s.has_value());
  EXPECT_DOUBLE_EQ(*back.ranks[1].in_core_compute_s, 0.125);
  Json negative = doc;
  negative["ranks"][1]["in_core_compute_s"] = -1;
  EXPECT_THROW(parse_profile(negative.dump(), "profile.json"), FormatError);
}

TEST(ProfileFormat, ComputeVariationIsOptionalAndAsLongOnEveryRank) {
  Profile with = valid_profile();
  for (RankProfile& rank : with.ranks) rank.compute_variation = {1.0, 1.25, 0.75};
  const Json doc = profile_to_json(with);
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_EQ(back.ranks[1].compute_variation, (std::vector<double>{1.0, 1.25, 0.75}));
  EXPECT_TRUE(parse_profile(profile_to_json(valid_profile()).dump(), "p.json").ranks[0].compute_variation.empty());
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][1]["compute_variation"] = {1.0, 2.0}; }).where(),
            "ranks[1].compute_variation");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["compute_variation"] = {1.0, -2.0}; }).where(),
            "ranks[0].compute_variation[1]");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["compute_variation"] = Json::array(); }).where(),
            "ranks[0].compute_variation");
}

TEST(ProfileFormat, UnknownClock) {
  EXPECT_EQ(error_after([](Json& d) { d["clock"] = "sundial"; }).where(), "clock");
}

TEST(ProfileFormat, UnknownFormatVersion) {
  EXPECT_EQ(error_after([](Json& d) { d["format"] = "mheta-profile/0"; }).where(), "format");
}

TEST(ProfileFormat, WrongRowSum) {
  const FormatError e = error_after([](Json& d) { d["global_rows"] = 9; });
  EXPECT_EQ(e.where(), "distribution");
  EXPECT_NE(e.reason().find("add up to 8"), std::string::npos);
}

TEST(ProfileFormat, WrongRankCount) {
  const FormatError e = error_after([](Json& d) { d["ranks"].erase(1); });
  EXPECT_EQ(e.where(), "ranks");
  EXPECT_NE(e.reason().find("1 ranks"), std::string::npos);
}

TEST(ProfileFormat, NegativeRows) {
  EXPECT_EQ(error_after([](Json& d) { d["distribution"][1] = -5; }).where(), "distribution[1]");
}

TEST(ProfileFormat, NonIntegerBytes) {
  const FormatError e = error_after([](Json& d) { first_section(d, 0)["comm"][0]["bytes"] = "lots"; });
  EXPECT_EQ(e.where(), "ranks[0].sections[0].comm[0].bytes");
}

TEST(ProfileFormat, NegativeOrNaNTimes) {
  EXPECT_EQ(error_after([](Json& d) { first_section(d, 1)["stages"][0]["compute_s"] = -0.1; }).where(),
            "ranks[1].sections[0].stages[0].compute_s");
  EXPECT_EQ(error_after([](Json& d) { first_section(d, 1)["stages"][0]["io"][0]["reads"]["seconds"] = "NaN"; })
                .where(),
            "ranks[1].sections[0].stages[0].io[0].reads.seconds");
}

TEST(ProfileFormat, MissingField) {
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0].erase("memory_budget_bytes"); }).where(),
            "ranks[0].memory_budget_bytes");
}

TEST(ProfileFormat, UnknownVariableAndOperation) {
  EXPECT_NE(error_after([](Json& d) { first_section(d, 0)["stages"][0]["io"][0]["variable"] = "Z"; })
                .reason()
                .find("'Z'"),
            std::string::npos);
  EXPECT_NE(error_after([](Json& d) { first_section(d, 0)["comm"][2]["op"] = "allsort"; }).reason().find("allsort"),
            std::string::npos);
}

TEST(ProfileFormat, PeerOutOfRangeOrSelf) {
  EXPECT_EQ(error_after([](Json& d) { first_section(d, 0)["comm"][0]["peer"] = 2; }).where(),
            "ranks[0].sections[0].comm[0].peer");
  EXPECT_NE(error_after([](Json& d) { first_section(d, 0)["comm"][0]["peer"] = 0; }).reason().find("itself"),
            std::string::npos);
}

TEST(ProfileFormat, RowWeightsMustCoverEveryRow) {
  EXPECT_EQ(error_after([](Json& d) { d["row_weights"] = {1, 2, 3}; }).where(), "row_weights");
}

TEST(ProfileFormat, CaptureConfidenceIsOptionalAndChecked) {
  EXPECT_FALSE(parse_profile(profile_to_json(valid_profile()).dump(), "profile.json").capture);
  Profile sure = valid_profile();
  sure.capture = CaptureConfidence{40, 0.97, std::nullopt};
  const Profile back = parse_profile(profile_to_json(sure).dump(), "profile.json");
  ASSERT_TRUE(back.capture);
  EXPECT_EQ(back.capture->repetitions, 40);
  EXPECT_DOUBLE_EQ(back.capture->time_share, 0.97);
  EXPECT_FALSE(back.capture->pace);
  sure.capture->pace = 1.8;
  EXPECT_DOUBLE_EQ(parse_profile(profile_to_json(sure).dump(), "profile.json").capture->pace.value_or(0), 1.8);
  EXPECT_EQ(error_after([](Json& d) { d["capture"] = {{"repetitions", 3}, {"time_share", 0.5}, {"pace", 0}}; }).where(),
            "capture.pace");
  EXPECT_EQ(error_after([](Json& d) { d["capture"] = {{"repetitions", 3}, {"time_share", 1.5}}; }).where(),
            "capture.time_share");
  EXPECT_EQ(error_after([](Json& d) { d["capture"] = {{"repetitions", 0}, {"time_share", 0.5}}; }).where(),
            "capture.repetitions");
  EXPECT_EQ(error_after([](Json& d) { d["capture"] = 3; }).where(), "capture");
}

// A non-blocking send and where it was completed: written and read back,
// absent in a profile written before (a blocking send, as the model took
// every send then), and checked against the rank's iteration.
TEST(ProfileFormat, NonblockingSendsAndTheirCompletionRoundTrip) {
  Profile p = valid_profile();
  CommOp& send = p.ranks[0].sections[0].comm[0];
  send.nonblocking = true;
  send.completed_section = 0;
  send.completed_comm = 2;  // before the allreduce, after the receive
  const Json doc = profile_to_json(p);
  EXPECT_EQ(doc["ranks"][0]["sections"][0]["comm"][0]["nonblocking"], true);
  EXPECT_EQ(doc["ranks"][0]["sections"][0]["comm"][0]["completed_at"], Json({{"section", 0}, {"comm", 2}}));
  EXPECT_FALSE(doc["ranks"][1]["sections"][0]["comm"][0].contains("nonblocking"));
  const Profile back = parse_profile(doc.dump(), "profile.json");
  const CommOp& read = back.ranks[0].sections[0].comm[0];
  EXPECT_TRUE(read.nonblocking);
  EXPECT_EQ(read.completed_section, 0);
  EXPECT_EQ(read.completed_comm, 2);
  const CommOp& blocking = back.ranks[1].sections[0].comm[0];
  EXPECT_FALSE(blocking.nonblocking);
  EXPECT_EQ(blocking.completed_section, -1);
  // Not completed in the iteration: nonblocking without a place.
  Json open = doc;
  open["ranks"][0]["sections"][0]["comm"][0].erase("completed_at");
  const Profile reopened = parse_profile(open.dump(), "profile.json");
  const CommOp& pending = reopened.ranks[0].sections[0].comm[0];
  EXPECT_TRUE(pending.nonblocking);
  EXPECT_EQ(pending.completed_section, -1);
}

TEST(ProfileFormat, ASendsCompletionMustBeAfterItInTheRanksIteration) {
  const auto completed_at = [](Json at, bool nonblocking = true) {
    return [at, nonblocking](Json& d) {
      Json& send = first_section(d, 0)["comm"][0];
      send["nonblocking"] = nonblocking;
      send["completed_at"] = at;
    };
  };
  const std::string where = "ranks[0].sections[0].comm[0].completed_at";
  EXPECT_EQ(error_after(completed_at({{"section", 0}, {"comm", 0}})).where(), where);  // at the send itself
  EXPECT_NE(error_after(completed_at({{"section", 0}, {"comm", 0}})).reason().find("before the send"),
            std::string::npos);
  EXPECT_NE(error_after(completed_at({{"section", 1}, {"comm", 0}})).reason().find("has 1"), std::string::npos);
  EXPECT_NE(error_after(completed_at({{"section", 0}, {"comm", 4}})).reason().find("which has 3"), std::string::npos);
  EXPECT_NE(error_after(completed_at({{"section", 0}, {"comm", 1}}, false)).reason().find("nonblocking send only"),
            std::string::npos);
  EXPECT_EQ(error_after(completed_at({{"section", -1}, {"comm", 1}})).where(), where + ".section");
  EXPECT_EQ(error_after(completed_at(3)).where(), where);
}

// A synchronous send (the rounds of a collective over a group): written
// only when set, read back, and refused on a blocking send.
TEST(ProfileFormat, SynchronousSendsRoundTrip) {
  Profile p = valid_profile();
  CommOp& send = p.ranks[0].sections[0].comm[0];
  send.nonblocking = true;
  send.synchronous = true;
  send.completed_section = 0;
  send.completed_comm = 2;
  const Json doc = profile_to_json(p);
  EXPECT_EQ(doc["ranks"][0]["sections"][0]["comm"][0]["synchronous"], true);
  EXPECT_FALSE(doc["ranks"][1]["sections"][0]["comm"][0].contains("synchronous"));
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_TRUE(back.ranks[0].sections[0].comm[0].synchronous);
  EXPECT_FALSE(back.ranks[1].sections[0].comm[0].synchronous);
  const FormatError blocking = error_after([](Json& d) { first_section(d, 0)["comm"][0]["synchronous"] = true; });
  EXPECT_EQ(blocking.where(), "ranks[0].sections[0].comm[0].synchronous");
  EXPECT_NE(blocking.reason().find("nonblocking send only"), std::string::npos);
}

// A send of a non-contiguous datatype, its data in 12 blocks: written only
// when more than one, read back, part of what makes two operations the
// same, refused on a receive and below 1.
TEST(ProfileFormat, SegmentsOfASendRoundTrip) {
  Profile p = valid_profile();
  p.ranks[0].sections[0].comm[0].segments = 12;
  const Json doc = profile_to_json(p);
  EXPECT_EQ(doc["ranks"][0]["sections"][0]["comm"][0]["segments"], 12);
  EXPECT_FALSE(doc["ranks"][1]["sections"][0]["comm"][0].contains("segments"));
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_EQ(back.ranks[0].sections[0].comm[0].segments, 12);
  EXPECT_EQ(back.ranks[1].sections[0].comm[0].segments, 1);
  EXPECT_FALSE(back.ranks[0].sections[0].comm[0] == back.ranks[1].sections[0].comm[0]);
  const FormatError on_receive = error_after([](Json& d) { first_section(d, 0)["comm"][1]["segments"] = 2; });
  EXPECT_EQ(on_receive.where(), "ranks[0].sections[0].comm[1].segments");
  EXPECT_NE(on_receive.reason().find("send only"), std::string::npos);
  EXPECT_EQ(error_after([](Json& d) { first_section(d, 0)["comm"][0]["segments"] = 0; }).where(),
            "ranks[0].sections[0].comm[0].segments");
}

// A non-blocking collective (MPI_Iallreduce): posted, and completed where
// its wait was; written only when set, read back, and checked as a send's
// completion is. Synchronous applies to sends only.
TEST(ProfileFormat, NonblockingCollectivesAndTheirCompletionRoundTrip) {
  Profile p = valid_profile();
  p.ranks[0].sections.push_back(Section{{testing::compute_stage(0.1)}, {}});
  CommOp& sums = p.ranks[0].sections[0].comm[2];
  sums.nonblocking = true;
  sums.completed_section = 1;
  sums.completed_comm = 0;
  const Json doc = profile_to_json(p);
  const Json& written = doc["ranks"][0]["sections"][0]["comm"][2];
  EXPECT_EQ(written["op"], "allreduce");
  EXPECT_EQ(written["nonblocking"], true);
  EXPECT_EQ(written["completed_at"], Json({{"section", 1}, {"comm", 0}}));
  EXPECT_FALSE(doc["ranks"][1]["sections"][0]["comm"][2].contains("nonblocking"));
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_EQ(back.ranks[0].sections[0].comm[2], sums);
  EXPECT_FALSE(back.ranks[1].sections[0].comm[2].nonblocking);

  const auto edited = [](const std::function<void(Json&)>& edit) {
    return [edit](Json& d) { edit(first_section(d, 0)["comm"][2]); };
  };
  const std::string where = "ranks[0].sections[0].comm[2]";
  const FormatError blocking = error_after(edited([](Json& c) { c["completed_at"] = {{"section", 0}, {"comm", 3}}; }));
  EXPECT_EQ(blocking.where(), where + ".completed_at");
  EXPECT_NE(blocking.reason().find("nonblocking collective only"), std::string::npos);
  const FormatError before = error_after(edited([](Json& c) {
    c["nonblocking"] = true;
    c["completed_at"] = {{"section", 0}, {"comm", 1}};
  }));
  EXPECT_NE(before.reason().find("before the collective"), std::string::npos);
  const FormatError synchronous = error_after(edited([](Json& c) {
    c["nonblocking"] = true;
    c["synchronous"] = true;
  }));
  EXPECT_EQ(synchronous.where(), where + ".synchronous");
}

// A blocking collective's time inside, captured on the wall clock: written
// when measured, read back, and not part of what makes two operations the
// same (a period captured twice has other times).
TEST(ProfileFormat, ACollectivesTimeInsideRoundTripsAndIsChecked) {
  Profile p = valid_profile();
  p.ranks[0].sections[0].comm[2].inside_s = 2.5e-4;
  const Json doc = profile_to_json(p);
  EXPECT_EQ(doc["ranks"][0]["sections"][0]["comm"][2]["inside_s"], 2.5e-4);
  EXPECT_FALSE(doc["ranks"][1]["sections"][0]["comm"][2].contains("inside_s"));
  const Profile back = parse_profile(doc.dump(), "profile.json");
  EXPECT_DOUBLE_EQ(back.ranks[0].sections[0].comm[2].inside_s, 2.5e-4);
  EXPECT_LT(back.ranks[1].sections[0].comm[2].inside_s, 0);
  EXPECT_EQ(back.ranks[0].sections[0].comm[2], back.ranks[1].sections[0].comm[2]);

  const std::string where = "ranks[0].sections[0].comm[2].inside_s";
  EXPECT_EQ(error_after([](Json& d) { first_section(d, 0)["comm"][2]["inside_s"] = -1e-6; }).where(), where);
  const FormatError posted = error_after([](Json& d) {
    first_section(d, 0)["comm"][2]["inside_s"] = 1e-6;
    first_section(d, 0)["comm"][2]["nonblocking"] = true;
  });
  EXPECT_EQ(posted.where(), where);
  EXPECT_NE(posted.reason().find("blocking collective only"), std::string::npos);
}

TEST(ProfileFormat, RanksOutOfOrder) {
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["rank"] = 1; }).where(), "ranks[0].rank");
}

}  // namespace
}  // namespace mheta::model
