// The runtime's service table and the services testable without MPI
// programs: which settings switch which service on, and out-of-core forcing
// as <mheta/interposer.h> reports it.
#include "interpose/services.hpp"

#include <gtest/gtest.h>
#include <mheta/interposer.h>

#include <string_view>
#include <vector>

#include "interpose/out_of_core_service.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {
namespace {

using Names = std::vector<std::string_view>;

TEST(Services, CaptureAloneByDefault) {
  EXPECT_EQ(service_names(Settings{}), (Names{"capture", "out-of-core", "profile"}));
}

TEST(Services, NoneWhenCaptureIsOffAndNothingIsEmulated) {
  Settings s;
  s.capture = CaptureMode::off;
  EXPECT_TRUE(service_names(s).empty());
  EXPECT_TRUE(make_services(s).empty());
}

TEST(Services, EmulationAndSleepWaitComeFirst) {
  Settings s;
  s.emulation = Emulation{};
  s.wait = WaitMode::sleep;
  EXPECT_EQ(service_names(s), (Names{"emulation", "sleep-wait", "capture", "out-of-core", "profile"}));
  s.capture = CaptureMode::off;
  EXPECT_EQ(service_names(s), (Names{"emulation", "sleep-wait"}));
}

// Accounting reads the clock after emulation and the virtual clock moved it,
// and sees a wait's requests before sleep-waiting runs the wait.
TEST(Services, AccountingOnlyWhenItHasAFileBetweenTheClocksAndSleepWait) {
  Settings s;
  s.capture = CaptureMode::off;
  s.accounting_path = "accounting.json";
  EXPECT_EQ(service_names(s), (Names{"accounting"}));
  s.emulation = Emulation{};
  s.clock = ClockMode::virtual_time;
  s.wait = WaitMode::sleep;
  EXPECT_EQ(service_names(s), (Names{"virtual-clock", "accounting", "sleep-wait"}));
  s.accounting_path.clear();
  EXPECT_EQ(service_names(s), (Names{"virtual-clock", "sleep-wait"}));
}

TEST(Services, MadeInTableOrderUnderTheirNames) {
  Settings s;
  s.wait = WaitMode::sleep;
  const auto services = make_services(s);
  Names names;
  for (const auto& service : services) names.emplace_back(service->name());
  EXPECT_EQ(names, service_names(s));
}

TEST(OutOfCoreService, ForcedFromTheIterationBeforeTheCaptureToItsEnd) {
  Runtime& rt = Runtime::get();  // not started: the hooks use none of it
  OutOfCoreService service;
  ASSERT_NE(mheta_out_of_core_forced, nullptr);  // defined in this program, as in the interposer
  EXPECT_EQ(mheta_out_of_core_forced_now(), 0);
  service.on_capture_near(rt);
  EXPECT_EQ(mheta_out_of_core_forced_now(), 1);
  service.on_capture_begin(rt);
  EXPECT_EQ(mheta_out_of_core_forced_now(), 1);
  service.on_capture_end(rt, true);
  EXPECT_EQ(mheta_out_of_core_forced_now(), 0);
  // pcontrol: the capture begins without an iteration before it.
  service.on_capture_begin(rt);
  EXPECT_TRUE(OutOfCoreService::forced());
  service.on_capture_end(rt, false);
  EXPECT_FALSE(OutOfCoreService::forced());
}

TEST(ProfileService, NoProfileWrittenBeforeTheCaptureEnds) {
  ASSERT_NE(mheta_profile_written, nullptr);
  EXPECT_EQ(mheta_written_profile(), nullptr);
}

}  // namespace
}  // namespace mheta::interpose
