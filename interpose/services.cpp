#include "interpose/services.hpp"

#include "interpose/accounting_service.hpp"
#include "interpose/capture_service.hpp"
#include "interpose/emulation_service.hpp"
#include "interpose/out_of_core_service.hpp"
#include "interpose/profile_service.hpp"
#include "interpose/sleep_wait_service.hpp"
#include "interpose/virtual_clock.hpp"

namespace mheta::interpose {

namespace {

struct ServiceEntry {
  std::string_view name;
  bool (*wanted)(const Settings&);
  std::unique_ptr<Service> (*make)();
};

template <typename S>
std::unique_ptr<Service> make() {
  return std::make_unique<S>();
}

bool capturing(const Settings& s) { return s.capture != CaptureMode::off; }

// A new service is one line here. Order is the order of the hooks' calls:
// emulation stretches a compute section before anything reads it; the
// capture moves the phase before out-of-core forcing and profile output
// follow it; the profile is written after out of core is released.
// The virtual clock replaces emulation by sleeping (the wall clock's).
// Accounting reads the clock once those two moved it, and sees a wait's
// requests before sleep-waiting runs it.
constexpr ServiceEntry kServices[] = {
    {"emulation", [](const Settings& s) { return s.emulation.has_value() && s.clock == ClockMode::wall; },
     make<EmulationService>},
    {"virtual-clock", [](const Settings& s) { return s.clock == ClockMode::virtual_time; }, make<VirtualClockService>},
    {"accounting", [](const Settings& s) { return !s.accounting_path.empty(); }, make<AccountingService>},
    {"sleep-wait", [](const Settings& s) { return s.wait == WaitMode::sleep; }, make<SleepWaitService>},
    {"capture", capturing, make<CaptureService>},
    {"out-of-core", capturing, make<OutOfCoreService>},
    {"profile", capturing, make<ProfileService>},
};

}  // namespace

std::vector<std::string_view> service_names(const Settings& settings) {
  std::vector<std::string_view> names;
  for (const ServiceEntry& e : kServices) {
    if (e.wanted(settings)) names.push_back(e.name);
  }
  return names;
}

std::vector<std::unique_ptr<Service>> make_services(const Settings& settings) {
  std::vector<std::unique_ptr<Service>> services;
  for (const ServiceEntry& e : kServices) {
    if (e.wanted(settings)) services.push_back(e.make());
  }
  return services;
}

}  // namespace mheta::interpose
