#include "interpose/profile_assembly.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "interpose/variable_name.hpp"

namespace mheta::interpose {
namespace {

RankRecord record(int rank, std::int64_t local_rows, const std::string& variable, bool written) {
  RankRecord r;
  r.rank = rank;
  r.complete = true;
  r.iterations = 3;
  r.memory_budget_bytes = 1000;
  VariableSeen v;
  v.name = variable;
  v.local_rows = local_rows;
  v.file_bytes = local_rows * 80;
  v.written = written;
  r.variables.push_back(v);
  model::Section s;
  s.stages.emplace_back();
  s.stages[0].compute_s = 0.5;
  model::StageIo io;
  io.variable = 0;
  io.reads = {2, local_rows * 80, 0.01};
  s.stages[0].io.push_back(io);
  model::CommOp op;
  op.kind = rank == 0 ? model::CommKind::send : model::CommKind::recv;
  op.peer = 1 - rank;
  op.bytes = 80;
  s.comm.push_back(op);
  r.sections.push_back(s);
  return r;
}

TEST(ProfileAssembly, MergesVariablesAndTakesTheHintedRows) {
  std::vector<std::string> warnings;
  const auto p = assemble_profile({record(0, 30, "x.{rank}", false), record(1, 70, "x.{rank}", true)},
                                  {"prog", 0, "", 0, {}}, warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(p.distribution.rows, (std::vector<std::int64_t>{30, 70}));
  ASSERT_EQ(p.variables.size(), 1u);
  EXPECT_EQ(p.variables[0].name, "x.{rank}");
  EXPECT_EQ(p.variables[0].access, model::Access::read_write);  // written on rank 1
  EXPECT_EQ(p.variables[0].bytes_per_row, 80);                  // file bytes over rows
  EXPECT_EQ(p.iterations, 3);
  EXPECT_EQ(p.ranks[1].sections[0].comm[0].kind, model::CommKind::recv);
}

TEST(ProfileAssembly, RowsFromTheEnvironmentWinOverHintsThatDoNotAddUp) {
  std::vector<std::string> warnings;
  const auto p =
      assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, {"prog", 1000, "", 0, {}}, warnings);
  EXPECT_EQ(p.distribution.rows, (std::vector<std::int64_t>{500, 500}));
  EXPECT_EQ(p.variables[0].access, model::Access::read_only);
}

TEST(ProfileAssembly, ADistFileGivesTheDistribution) {
  const std::string path = ::testing::TempDir() + "/assembly_dist.txt";
  std::ofstream(path) << "# two ranks\n200\n800\n";
  std::vector<std::string> warnings;
  const auto p =
      assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, {"prog", 1000, path, 0, {}}, warnings);
  EXPECT_EQ(p.distribution.rows, (std::vector<std::int64_t>{200, 800}));
  std::remove(path.c_str());
}

TEST(ProfileAssembly, ABadDistFileIsAWarningNotAFailure) {
  const std::string path = ::testing::TempDir() + "/assembly_bad_dist.txt";
  std::ofstream(path) << "200\n";
  std::vector<std::string> warnings;
  const auto p =
      assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, {"prog", 100, path, 0, {}}, warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(path), std::string::npos);
  EXPECT_EQ(p.distribution.rows, (std::vector<std::int64_t>{30, 70}));
  std::remove(path.c_str());
}

TEST(ProfileAssembly, RecordsSurviveTheTripToRankZero) {
  const RankRecord r = record(1, 70, "v", true);
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(r).dump()));
  EXPECT_EQ(back.rank, 1);
  EXPECT_EQ(back.variables[0].local_rows, 70);
  EXPECT_TRUE(back.variables[0].written);
  EXPECT_EQ(back.sections[0].stages[0].io[0].reads.bytes, 70 * 80);
  EXPECT_EQ(back.sections[0].comm[0].peer, 0);
  EXPECT_FALSE(back.sections[0].comm[0].nonblocking);
}

TEST(ProfileAssembly, WhereThePeriodBeganInEachChannelSurvivesTheTrip) {
  RankRecord r = record(0, 30, "v", false);
  r.channel_starts = {{{model::CommKind::send, 1, 0}, 41}, {collective_channel(), 7}};
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(r).dump()));
  ASSERT_EQ(back.channel_starts.size(), 2u);
  EXPECT_EQ(back.channel_starts[0].channel, (Channel{model::CommKind::send, 1, 0}));
  EXPECT_EQ(back.channel_starts[0].first, 41);
  EXPECT_EQ(back.channel_starts[1].channel, collective_channel());
  EXPECT_EQ(back.channel_starts[1].first, 7);
}

TEST(ProfileAssembly, ANonblockingSendsCompletionSurvivesTheTrip) {
  RankRecord r = record(0, 30, "v", true);  // rank 0's op is a send
  ASSERT_EQ(r.sections[0].comm[0].kind, model::CommKind::send);
  model::CommOp& send = r.sections[0].comm[0];
  send.nonblocking = true;
  send.completed_section = 0;
  send.completed_comm = static_cast<int>(r.sections[0].comm.size());
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(r).dump()));
  EXPECT_TRUE(back.sections[0].comm[0].nonblocking);
  EXPECT_EQ(back.sections[0].comm[0].completed_section, 0);
  EXPECT_EQ(back.sections[0].comm[0].completed_comm, send.completed_comm);
}

TEST(ProfileAssembly, ACollectivesTimeInsideSurvivesTheTrip) {
  RankRecord r = record(0, 30, "v", true);
  r.sections[0].comm.push_back({.kind = model::CommKind::collective, .bytes = 8, .inside_s = 3.5e-4});
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(r).dump()));
  EXPECT_DOUBLE_EQ(back.sections[0].comm.back().inside_s, 3.5e-4);
  EXPECT_LT(back.sections[0].comm[0].inside_s, 0);  // a send: not timed
}

TEST(ProfileAssembly, StatedIterationsWinOverTheCountSeenAtCapture) {
  std::vector<std::string> warnings;
  AssemblyInputs in{"prog", 0, "", 0, {}};
  const auto seen = assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, in, warnings);
  EXPECT_EQ(seen.iterations, 3);  // the records' count
  in.stated_iterations = 500;
  const auto stated = assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, in, warnings);
  EXPECT_EQ(stated.iterations, 500);
  EXPECT_TRUE(warnings.empty());
}

// An automatic capture is as sure as its least sure rank; a rank that was
// not detecting (marks, MPI_Pcontrol, call:) leaves the field out.
TEST(ProfileAssembly, TheCaptureIsAsSureAsItsLeastSureRank) {
  std::vector<std::string> warnings;
  RankRecord a = record(0, 30, "v", false);
  RankRecord b = record(1, 70, "v", false);
  a.repetitions = 40;
  a.time_share = 0.6;
  b.repetitions = 12;
  b.time_share = 0.9;
  const auto p = assemble_profile({a, b}, {"prog", 0, "", 0, {}}, warnings);
  ASSERT_TRUE(p.capture);
  EXPECT_EQ(p.capture->repetitions, 12);
  EXPECT_DOUBLE_EQ(p.capture->time_share, 0.6);
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(b).dump()));
  EXPECT_EQ(back.repetitions, 12);
  EXPECT_DOUBLE_EQ(back.time_share, 0.9);
  b.repetitions = -1;
  b.time_share = -1;
  EXPECT_FALSE(assemble_profile({a, b}, {"prog", 0, "", 0, {}}, warnings).capture);
}

// The profile's pace is its furthest rank's from 1, either way: a rank
// whose run's mean iteration took half its captured one (0.5) is further
// off than one whose took 1.6 times it; a rank that timed too few periods
// to have a mean (-1) has none, and without any rank's: none.
TEST(ProfileAssembly, ThePaceIsTheRankFurthestFromOne) {
  std::vector<std::string> warnings;
  std::vector<RankRecord> records = {record(0, 30, "v", false), record(1, 40, "v", false)};
  const double paces[] = {1.6, 0.5};
  for (std::size_t r = 0; r < records.size(); ++r) {
    records[r].repetitions = 20;
    records[r].time_share = 0.9;
    records[r].pace = paces[r];
  }
  auto p = assemble_profile(records, {"prog", 0, "", 0, {}}, warnings);
  ASSERT_TRUE(p.capture);
  EXPECT_DOUBLE_EQ(p.capture->pace.value_or(0), 0.5);
  EXPECT_DOUBLE_EQ(rank_record_from_json(model::Json::parse(rank_record_to_json(records[0]).dump())).pace, 1.6);
  records[1].pace = -1;
  EXPECT_DOUBLE_EQ(assemble_profile(records, {"prog", 0, "", 0, {}}, warnings).capture->pace.value_or(0), 1.6);
  records[1].pace = 1.2;
  EXPECT_DOUBLE_EQ(assemble_profile(records, {"prog", 0, "", 0, {}}, warnings).capture->pace.value_or(0), 1.6);
  for (RankRecord& r : records) r.pace = -1;
  p = assemble_profile(records, {"prog", 0, "", 0, {}}, warnings);
  ASSERT_TRUE(p.capture);
  EXPECT_FALSE(p.capture->pace);
}

// Ranks 0 and 1 captured their ping-pong; ranks 2 and 3 found no loop.
std::vector<RankRecord> ping_pong_onlookers(double compute2_s, double compute3_s) {
  std::vector<RankRecord> records = {record(0, 1, "v", false), record(1, 1, "v", false), record(2, 1, "v", false),
                                     record(3, 1, "v", false)};
  records[0].loop_s = 2.0;
  records[1].loop_s = 1.5;
  records[2].complete = records[3].complete = false;
  records[2].compute_without_loop_s = compute2_s;
  records[3].compute_without_loop_s = compute3_s;
  return records;
}

TEST(ProfileAssembly, RanksThatWaitOutTheOthersLoopGetAnEmptyIteration) {
  std::vector<RankRecord> records = ping_pong_onlookers(0.01, 0.05);
  EXPECT_EQ(admit_idle_ranks(records), (std::vector<int>{2, 3}));
  EXPECT_TRUE(records[2].complete && records[3].complete);
  EXPECT_TRUE(records[2].sections.empty());
  std::vector<std::string> warnings;
  const auto p = assemble_profile(records, {"prog", 0, "", 0, {}}, warnings);
  EXPECT_TRUE(p.ranks[3].sections.empty());
  EXPECT_EQ(p.ranks[0].sections.size(), 1u);
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(records[3]).dump()));
  EXPECT_DOUBLE_EQ(back.compute_without_loop_s, 0.05);
}

// 5 % of the longest loop (2 s) is the most an idle rank computes.
TEST(ProfileAssembly, ARankThatComputesThroughTheLoopIsNotIdle) {
  std::vector<RankRecord> records = ping_pong_onlookers(0.01, 0.2);
  EXPECT_EQ(admit_idle_ranks(records), (std::vector<int>{2}));
  EXPECT_FALSE(records[3].complete);
}

TEST(ProfileAssembly, ARankTheOthersMessageOrACollectiveIsNotIdle) {
  std::vector<RankRecord> records = ping_pong_onlookers(0.01, 0.01);
  records[1].sections[0].comm.push_back({model::CommKind::send, 3, 8, 0, model::Collective::barrier, -1});
  EXPECT_EQ(admit_idle_ranks(records), (std::vector<int>{2}));
  records = ping_pong_onlookers(0.01, 0.01);
  records[0].sections[0].comm.push_back({model::CommKind::collective, -1, 8, 0, model::Collective::allreduce, -1});
  EXPECT_TRUE(admit_idle_ranks(records).empty());
  EXPECT_FALSE(records[2].complete);
}

// Without a detected loop on any rank (marks, another mode) nobody is idle.
TEST(ProfileAssembly, NoRankIsIdleWhenNoRankDetectedALoop) {
  std::vector<RankRecord> records = ping_pong_onlookers(0.0, 0.0);
  records[0].loop_s = records[1].loop_s = -1;
  EXPECT_TRUE(admit_idle_ranks(records).empty());
}

// Rank 0 captured a period that sends to rank 1 once, rank 1 one that
// receives twice: the periods are of different iterations.
TEST(ProfileAssembly, CapturedIterationsThatDoNotPairUpAreTold) {
  std::vector<std::string> warnings;
  std::vector<RankRecord> records = {record(0, 30, "v", false), record(1, 70, "v", false)};
  EXPECT_FALSE(iterations_misfit(assemble_profile(records, {"prog", 0, "", 0, {}}, warnings)));
  // A collective fits whatever the cluster will price it at.
  std::vector<RankRecord> reducing = records;
  for (RankRecord& r : reducing) {
    r.sections[0].comm.push_back({model::CommKind::collective, -1, 8, 0, model::Collective::allreduce, -1});
  }
  EXPECT_FALSE(iterations_misfit(assemble_profile(reducing, {"prog", 0, "", 0, {}}, warnings)));
  records[1].sections.push_back(records[1].sections[0]);
  const auto problem = iterations_misfit(assemble_profile(records, {"prog", 0, "", 0, {}}, warnings));
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("rank 1"), std::string::npos) << *problem;
  EXPECT_NE(problem->find("no matching send"), std::string::npos) << *problem;
}

TEST(ProfileAssembly, RowWeightsGoIntoTheProfileOnePerGlobalRow) {
  std::vector<double> weights(100, 1.0);
  for (std::size_t i = 0; i < 30; ++i) weights[i] = 2.5 + static_cast<double>(i);
  std::vector<std::string> warnings;
  const auto p =
      assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)}, {"prog", 0, "", 0, weights}, warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(p.row_weights, weights);
}

TEST(ProfileAssembly, RowWeightsOfAnotherRowCountAreAWarningAndLeftOut) {
  std::vector<std::string> warnings;
  const auto p = assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)},
                                  {"prog", 0, "", 0, std::vector<double>(99, 1.0)}, warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("99 weights for 100 global rows"), std::string::npos) << warnings[0];
  EXPECT_TRUE(p.row_weights.empty());
}

TEST(ProfileAssembly, TheProfileTextSaysWhereItsIterationsComeFromAndStillReads) {
  std::vector<std::string> warnings;
  const auto p = assemble_profile({record(0, 30, "v", false), record(1, 70, "v", false)},
                                  {"prog", 0, "", 0, std::vector<double>(100, 0.5)}, warnings);
  for (const IterationSource source : {IterationSource::stated, IterationSource::counted, IterationSource::captured}) {
    const std::string text = profile_text(p, source);
    EXPECT_EQ(model::Json::parse(text)["iterations_source"], iteration_source_name(source));
    const model::Profile back = model::parse_profile(text, "profile_text");
    EXPECT_EQ(back.iterations, p.iterations);
    EXPECT_EQ(back.row_weights, p.row_weights);
  }
  EXPECT_NE(iteration_source_name(IterationSource::stated), iteration_source_name(IterationSource::counted));
}

// Rows 30 and 70 (hinted), each rank having read and written [begin, end)
// of the unhinted file `name` in the captured iteration.
model::Profile with_extents(const std::string& name, FileExtent rank0, FileExtent rank1, bool hinted = false) {
  RankRecord a = record(0, 30, name, true);
  RankRecord b = record(1, 70, name, true);
  a.variables[0].accessed = rank0;
  b.variables[0].accessed = rank1;
  a.variables[0].hinted = b.variables[0].hinted = hinted;
  std::vector<std::string> warnings;
  return assemble_profile({a, b}, {"prog", 0, "", 0, {}}, warnings);
}

TEST(ProgramFiles, EachRanksBlockOfASharedFileFollowsTheRows) {
  // 100 bytes a row: rank 0 rows 0-29, rank 1 rows 30-99, after a 512-byte header.
  const auto p = with_extents("/d/field.dat", {512, 512 + 3000}, {512 + 3000, 512 + 10000});
  ASSERT_EQ(p.variables.size(), 1u);
  EXPECT_EQ(p.variables[0].io, model::VariableIo::program_file);
  EXPECT_TRUE(p.variables[0].per_row);
  EXPECT_EQ(p.variables[0].bytes_per_row, 100);
}

TEST(ProgramFiles, EachRanksOwnFileFollowsTheRowsFromTheSameOffset) {
  EXPECT_TRUE(with_extents("/d/x.{rank}.bin", {0, 3000}, {0, 7000}).variables[0].per_row);
  EXPECT_FALSE(with_extents("/d/x.{rank}.bin", {0, 3000}, {100, 7100}).variables[0].per_row);
}

TEST(ProgramFiles, AccessesThatAreNotTheRanksRowsCostTheSameAtAnyRows) {
  // The same 2100 bytes each (a fixed-size record per rank): 70 a row on
  // rank 0, 30 on rank 1.
  EXPECT_FALSE(with_extents("/d/ckpt.dat", {0, 2100}, {2100, 4200}).variables[0].per_row);
  // 100 bytes a row on both, but rank 1's block is not where its rows are.
  EXPECT_FALSE(with_extents("/d/ckpt.dat", {0, 3000}, {5000, 12000}).variables[0].per_row);
  // A log only rank 0 writes.
  EXPECT_FALSE(with_extents("/d/log.txt", {0, 3000}, {}).variables[0].per_row);
  // At the shared file pointer: where is not known.
  EXPECT_FALSE(with_extents("/d/field.dat", {0, 3000}, {3000, 10000, true}).variables[0].per_row);
  EXPECT_EQ(with_extents("/d/log.txt", {0, 3000}, {}).variables[0].io, model::VariableIo::program_file);
}

TEST(ProgramFiles, AFileNamedByTheHintIsAnOutOfCoreArray) {
  const auto p = with_extents("A", {0, 2400}, {0, 5600}, true);
  EXPECT_EQ(p.variables[0].io, model::VariableIo::out_of_core_array);
  EXPECT_FALSE(p.variables[0].per_row);
  EXPECT_EQ(p.variables[0].bytes_per_row, 80);  // the file's bytes over its rows, as before
}

TEST(ProgramFiles, TheAccessedBytesSurviveTheTripToRankZero) {
  RankRecord r = record(1, 70, "v", true);
  r.variables[0].accessed = {3000, 10000, true};
  const RankRecord back = rank_record_from_json(model::Json::parse(rank_record_to_json(r).dump()));
  EXPECT_EQ(back.variables[0].accessed.begin, 3000);
  EXPECT_EQ(back.variables[0].accessed.end, 10000);
  EXPECT_TRUE(back.variables[0].accessed.unknown);
}

TEST(VariableName, TheRankNumberInAFileNameBecomesAPlaceholder) {
  EXPECT_EQ(variable_name_from_path("/d/A.3.h5", 3), "/d/A.{rank}.h5");
  EXPECT_EQ(variable_name_from_path("/run3/x_3", 3), "/run3/x_{rank}");
  EXPECT_EQ(variable_name_from_path("/d/A13.h5", 3), "/d/A13.h5");
  EXPECT_EQ(variable_name_from_path("/d/matrix.h5", 0), "/d/matrix.h5");
}

}  // namespace
}  // namespace mheta::interpose
