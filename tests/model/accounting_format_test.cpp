#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "model/accounting.hpp"
#include "model/call_list.hpp"
#include "model/format_error.hpp"

namespace mheta::model {
namespace {

Accounting two_ranks() {
  Accounting a;
  a.clock = "virtual";
  a.boundary = "mark";
  // Rank 0: a setup iteration, then three of 10, 12 and 11 ms.
  a.ranks.push_back({{0.5, 0.1, 0, 0, 0.6},
                     {0.006, 0.002, 0.0005, 0.0015, 0.010},
                     {0.007, 0.003, 0.0005, 0.0015, 0.012},
                     {0.006, 0.003, 0.0005, 0.0015, 0.011}});
  // Rank 1: waits more; 20 ms in every iteration after the first.
  a.ranks.push_back({{0.4, 0.1, 0, 0.1, 0.6}, {0.004, 0.001, 0.001, 0.014, 0.020}, {0.004, 0.001, 0.001, 0.014, 0.020}});
  return a;
}

FormatError error_after(const std::function<void(Json&)>& edit) {
  Json doc = accounting_to_json(two_ranks());
  edit(doc);
  try {
    parse_accounting(doc.dump(), "accounting.json");
  } catch (const FormatError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << doc.dump();
  return FormatError("", "", "");
}

TEST(AccountingFormat, RoundTripKeepsEveryRecord) {
  const auto path = std::filesystem::temp_directory_path() / "mheta_accounting_round_trip.json";
  write_accounting(path, two_ranks());
  const Accounting back = read_accounting(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.clock, "virtual");
  EXPECT_EQ(back.boundary, "mark");
  ASSERT_EQ(back.ranks.size(), 2u);
  ASSERT_EQ(back.ranks[0].size(), 4u);
  ASSERT_EQ(back.ranks[1].size(), 3u);
  EXPECT_EQ(back.ranks[0][2].values(), two_ranks().ranks[0][2].values());
  EXPECT_EQ(back.ranks[1][1].values(), two_ranks().ranks[1][1].values());
}

TEST(AccountingFormat, TheCallThatEndedTheIterationsIsKept) {
  Accounting a = two_ranks();
  a.boundary = "call";
  a.call = "MPI_Allreduce:2";
  EXPECT_EQ(parse_accounting(accounting_to_json(a).dump(), "a.json").call, "MPI_Allreduce:2");
  EXPECT_FALSE(accounting_to_json(two_ranks()).contains("call"));
}

// Ranks whose iterations end at different calls: one per rank, a rank
// without one (idle in the loop) left empty.
TEST(AccountingFormat, EachRanksCallIsKeptInOrder) {
  Accounting a = two_ranks();
  a.boundary = "call";
  a.call = "MPI_Send:48,,MPI_Send:32";
  EXPECT_EQ(parse_accounting(accounting_to_json(a).dump(), "a.json").call, "MPI_Send:48,,MPI_Send:32");
}

TEST(AccountingFormat, CallListsAreOneCallOrOnePerRank) {
  EXPECT_TRUE(is_call_list("MPI_Allreduce"));
  EXPECT_TRUE(is_call_list("MPI_Allreduce:2"));
  EXPECT_TRUE(is_call_list("MPI_Send:48,MPI_Send:50"));
  EXPECT_TRUE(is_call_list(",MPI_Send:1"));
  EXPECT_FALSE(is_call_list(""));
  EXPECT_FALSE(is_call_list(","));
  EXPECT_FALSE(is_call_list("Allreduce"));
  EXPECT_FALSE(is_call_list("MPI_Send:0"));
  EXPECT_FALSE(is_call_list("MPI_Send:"));
  EXPECT_FALSE(is_call_list("MPI_:3"));
  EXPECT_FALSE(is_call_list("MPI_Send:4x,MPI_Send:2"));
  EXPECT_FALSE(is_call_list("MPI_Send:2,Recv"));
  EXPECT_FALSE(is_call_list("MPI_Send:00"));
  EXPECT_EQ(call_of_rank("MPI_Send:48,,MPI_Send:32", 2), "MPI_Send:32");
  EXPECT_EQ(call_of_rank("MPI_Send:48,,MPI_Send:32", 1), "");
  EXPECT_FALSE(call_of_rank("MPI_Send:48,,MPI_Send:32", 3));
  EXPECT_EQ(call_of_rank("MPI_Allreduce:2", 7), "MPI_Allreduce:2");  // one for every rank
}

TEST(AccountingFormat, TermsAreNamedInTheirOrder) {
  const Json doc = accounting_to_json(two_ranks());
  EXPECT_EQ(doc["terms"], Json::parse(R"(["compute","io","comm","wait","total"])"));
  EXPECT_EQ(doc["ranks"][1]["iterations"][1][3], 0.014);  // wait, the fourth
}

TEST(AccountingFormat, SteadyTermsAreMediansAfterTheFirst) {
  // Rank 0's iterations 1..3: compute 6, 7, 6 ms -> 6; I/O 2, 3, 3 -> 3; total 10, 12, 11 -> 11.
  const IterationTerms t = steady_terms(two_ranks().ranks[0]);
  EXPECT_DOUBLE_EQ(t.compute_s, 0.006);
  EXPECT_DOUBLE_EQ(t.io_s, 0.003);
  EXPECT_DOUBLE_EQ(t.wait_s, 0.0015);
  EXPECT_DOUBLE_EQ(t.total_s, 0.011);
  // One iteration only: that one.
  EXPECT_DOUBLE_EQ(steady_terms({{1, 2, 3, 4, 10}}).total_s, 10);
  EXPECT_DOUBLE_EQ(steady_terms({}).total_s, 0);
}

TEST(AccountingFormat, IterationTimeIsTheSlowestRanksMedian) {
  EXPECT_DOUBLE_EQ(accounted_iteration_seconds(two_ranks()), 0.020);
  EXPECT_DOUBLE_EQ(accounted_iteration_seconds(Accounting{}), 0);
}

// Rank 0 waited for a core 1, 2 and 3 ms of its 10, 12 and 11 ms steady
// iterations (the setup's 50 ms is left out): 6 / 33; rank 1 4 of 40 ms.
Accounting with_run_queue(const std::string& clock) {
  Accounting a = two_ranks();
  a.clock = clock;
  a.queued = {{0.05, 0.001, 0.002, 0.003}, {0.01, 0.002, 0.002}};
  return a;
}

TEST(AccountingFormat, RunQueueDelayIsKeptBesideTheTerms) {
  const Accounting back = parse_accounting(accounting_to_json(with_run_queue("wall")).dump(), "a.json");
  EXPECT_EQ(back.queued, with_run_queue("wall").queued);
  // Records without it (written before it was kept) are read, with none.
  const Accounting old = parse_accounting(accounting_to_json(two_ranks()).dump(), "a.json");
  ASSERT_EQ(old.queued.size(), 2u);
  EXPECT_TRUE(old.queued[0].empty());
  EXPECT_FALSE(queued_share(old));
}

TEST(AccountingFormat, SkippedIterationsAreKeptPerRank) {
  Accounting a = two_ranks();
  a.skipped = {4, 0};
  const Accounting back = parse_accounting(accounting_to_json(a).dump(), "a.json");
  EXPECT_EQ(skipped_iterations(back, 0), 4);
  EXPECT_EQ(skipped_iterations(back, 1), 0);
  // Records without it skip none.
  EXPECT_EQ(skipped_iterations(parse_accounting(accounting_to_json(two_ranks()).dump(), "a.json"), 0), 0);
}

TEST(AccountingFormat, SampledRecordsSayTheirStridePerRank) {
  Accounting a = two_ranks();
  a.skipped = {5, 0};
  a.every = {4, 1};
  const Accounting back = parse_accounting(accounting_to_json(a).dump(), "a.json");
  EXPECT_EQ(sampled_every(back, 0), 4);
  EXPECT_EQ(sampled_every(back, 1), 1);
  EXPECT_EQ(sampled_every(parse_accounting(accounting_to_json(two_ranks()).dump(), "a.json"), 0), 1);
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["every"] = 0; }).where(), "ranks[0].every");
}

TEST(AccountingFormat, ASampledRecordHoldsAMultipleOfItsStride) {
  // Skipped 5, every 4: record 0 is iteration 5, then 8, 12, 16.
  EXPECT_EQ(recorded_iteration(5, 4, 0), 5);
  EXPECT_EQ(recorded_iteration(5, 4, 1), 8);
  EXPECT_EQ(recorded_iteration(5, 4, 3), 16);
  // Skipped 8 (a multiple): record 0 is 8 itself, record 1 is 12.
  EXPECT_EQ(recorded_iteration(8, 4, 1), 12);
  // Not sampled: record k is iteration skipped + k.
  EXPECT_EQ(recorded_iteration(3, 1, 7), 10);
  Accounting a = two_ranks();  // 4 records of rank 0, 3 of rank 1
  a.skipped = {5, 2};
  a.every = {4, 1};
  EXPECT_EQ(record_of_iteration(a, 0, 5), 0u);
  EXPECT_EQ(record_of_iteration(a, 0, 12), 2u);
  EXPECT_EQ(record_of_iteration(a, 0, 16), 3u);
  EXPECT_FALSE(record_of_iteration(a, 0, 10));  // not a multiple of 4
  EXPECT_FALSE(record_of_iteration(a, 0, 20));  // past the last record
  EXPECT_FALSE(record_of_iteration(a, 0, 4));   // before the first
  EXPECT_EQ(record_of_iteration(a, 1, 4), 2u);
  // The last records: rank 0's fourth, 5 skipped, every 4: 16; rank 1's
  // third, 2 skipped, every 1: 4.
  EXPECT_EQ(last_recorded_iteration(a, 0), 16);
  EXPECT_EQ(last_recorded_iteration(a, 1), 4);
}

TEST(AccountingFormat, TheMachinesShareIsTheLargestRanksWaitForACore) {
  // max(6 / 33, 4 / 40) = 0.1818...
  EXPECT_NEAR(queued_share(with_run_queue("wall")).value(), 6.0 / 33.0, 1e-12);
  // Under the virtual clock none of it is in the times.
  EXPECT_FALSE(queued_share(with_run_queue("virtual")));
}

TEST(AccountingFormat, RejectsMalformedInput) {
  EXPECT_NE(std::string(error_after([](Json& d) { d["format"] = "mheta-accounting/9"; }).what()).find("format"),
            std::string::npos);
  EXPECT_EQ(error_after([](Json& d) { d["clock"] = "sundial"; }).where(), "clock");
  EXPECT_EQ(error_after([](Json& d) { d["boundary"] = "moon"; }).where(), "boundary");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][1]["rank"] = 0; }).where(), "ranks[1].rank");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["iterations"][1] = Json::array({1, 2, 3}); }).where(),
            "ranks[0].iterations[1]");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["iterations"][2][1] = -0.5; }).where(),
            "ranks[0].iterations[2][1]");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][1]["iterations"][0][4] = "slow"; }).where(),
            "ranks[1].iterations[0][4]");
  EXPECT_EQ(error_after([](Json& d) { d.erase("ranks"); }).where(), "ranks");
  EXPECT_EQ(error_after([](Json& d) { d["call"] = "Allreduce"; }).where(), "call");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][1]["queued"] = Json::array({0.1}); }).where(), "ranks[1].queued");
  EXPECT_EQ(error_after([](Json& d) {
              d["ranks"][1]["queued"] = Json::array({0, -1, 0});
            }).where(),
            "ranks[1].queued[1]");
  EXPECT_EQ(error_after([](Json& d) { d["ranks"][0]["skipped"] = -3; }).where(), "ranks[0].skipped");
  EXPECT_THROW(parse_accounting("[1, 2]", "accounting.json"), FormatError);
  EXPECT_THROW(parse_accounting("{\"format\": ", "accounting.json"), FormatError);
}

}  // namespace
}  // namespace mheta::model
