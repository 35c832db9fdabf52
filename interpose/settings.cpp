#include "interpose/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <mheta/environment.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "model/call_list.hpp"
#include "model/format_error.hpp"

namespace mheta::interpose {

namespace {

const char* set_value(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

// A whole number in [1, 2^63 - 1]; anything else (signs, spaces, a value
// past 64 bits) is nullopt.
std::optional<std::int64_t> parse_positive(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value)) {
      return std::nullopt;
    }
  }
  if (value <= 0) return std::nullopt;
  return value;
}

void warn(int rank, const std::string& message) {
  std::fprintf(stderr, "mheta interpose (rank %d): %s\n", rank, message.c_str());
}

// "MPI_Name[:k]" (`call`, of the variable `variable` set to `text`) into
// `name` and `every`: false when the name is no MPI function's; a bad count
// is warned about and taken as 1.
bool read_call(int rank, const char* variable, std::string_view text, std::string_view call, std::string& name,
               std::int64_t& every) {
  const std::size_t colon = call.find(':');
  name = std::string(call.substr(0, colon));
  if (colon != std::string_view::npos) {
    const auto k = parse_positive(call.substr(colon + 1));
    if (!k) {
      warn(rank, std::string(variable) + "=" + model::excerpt(text) +
                     ": the count after the function name must be a positive integer; using 1");
    }
    every = k.value_or(1);
  }
  return name.starts_with("MPI_");
}

void read_capture_mode(int rank, Settings& s) {
  const char* mode = set_value(env::kCapture);
  if (mode == nullptr) return;
  const std::string_view m(mode);
  if (m == "off") {
    s.capture = CaptureMode::off;
  } else if (m == "auto") {
    s.capture = CaptureMode::automatic;
  } else if (m == "mark") {
    s.capture = CaptureMode::mark;
  } else if (m == "pcontrol") {
    s.capture = CaptureMode::pcontrol;
  } else if (m.starts_with("call:")) {
    s.capture = CaptureMode::call;
    if (!read_call(rank, env::kCapture, m, m.substr(5), s.call_name, s.call_every)) {
      warn(rank, "MHETA_CAPTURE=" + model::excerpt(m) + ": expected call:MPI_Name[:k]; capturing automatically instead");
      s.capture = CaptureMode::automatic;
    }
  } else {
    warn(rank,
         "MHETA_CAPTURE=" + model::excerpt(m) + " is not one of auto, mark, pcontrol, call:MPI_Name[:k], off; using auto");
  }
}

// A positive integer from the environment variable `name` into `value`;
// anything else is warned about (saying what happens instead) and leaves
// `value` as it was.
void read_positive(int rank, const char* name, const char* otherwise, std::int64_t& value) {
  const char* text = set_value(name);
  if (text == nullptr) return;
  if (const auto parsed = parse_positive(text)) {
    value = *parsed;
  } else {
    warn(rank, std::string(name) + "=" + model::excerpt(text) + " is not a positive integer below 2^63; " + otherwise);
  }
}

// One of a few named values of the variable `name`: nothing when it is
// unset, and when it is none of them (warned about, saying `otherwise`).
template <typename Value>
std::optional<Value> read_choice(int rank, const char* name,
                                 std::initializer_list<std::pair<std::string_view, Value>> choices,
                                 const char* otherwise) {
  const char* text = set_value(name);
  if (text == nullptr) return std::nullopt;
  std::string names;
  for (const auto& [choice, value] : choices) {
    if (choice == text) return value;
    names += (names.empty() ? "" : " or ") + std::string(choice);
  }
  warn(rank, std::string(name) + "=" + model::excerpt(text) + " is not " + names + "; " + otherwise);
  return std::nullopt;
}

}  // namespace

Settings read_settings(int rank) {
  Settings s;
  read_capture_mode(rank, s);
  read_positive(rank, env::kCaptureIteration, "capturing iteration 2", s.capture_iteration);
  if (const char* p = set_value(env::kProfile)) s.profile_path = p;
  read_positive(rank, env::kRows, "ignored", s.global_rows);
  if (const char* d = set_value(env::kDist)) s.dist_path = d;
  read_positive(rank, env::kIterations, "counting the iterations instead", s.stated_iterations);
  read_positive(rank, env::kGatherWait, "waiting 60 s", s.gather_wait_s);
  if (const char* w = set_value(env::kRowWeights)) s.row_weights_path = w;
  if (const char* a = set_value(env::kAccounting)) s.accounting_path = a;
  read_positive(rank, env::kAccountingSamples, "accounting every iteration", s.accounting_samples);
  if (const char* c = set_value(env::kAccountingCall)) {
    // One call for every rank, or one per rank separated by commas (ranks
    // whose iterations end at different calls: accounting.json's `call`).
    const std::optional<std::string_view> mine = model::call_of_rank(c, rank);
    if (!mine) {
      warn(rank, std::string("MHETA_ACCOUNTING_CALL=") + model::excerpt(c) + ": no entry for rank " +
                     std::to_string(rank) + " (one call, or one per rank separated by commas); ignored");
    } else if (mine->empty()) {
      // This rank's iterations end at no call (it takes no part in the loop).
    } else if (!read_call(rank, env::kAccountingCall, c, *mine, s.accounting_call, s.accounting_call_every)) {
      warn(rank, std::string("MHETA_ACCOUNTING_CALL=") + model::excerpt(c) + ": expected MPI_Name[:k]; ignored");
      s.accounting_call.clear();
    }
  }
  if (const char* e = set_value(env::kEmulate)) {
    try {
      s.emulation = load_emulation(e);
      s.wait = s.emulation->wait;
    } catch (const std::exception& error) {
      warn(rank, std::string("MHETA_EMULATE: ") + error.what() + "; running without emulation");
    }
  }
  if (const auto wait =
          read_choice<WaitMode>(rank, env::kWait, {{"sleep", WaitMode::sleep}, {"spin", WaitMode::spin}}, "ignored")) {
    s.wait = *wait;
  }
  // The virtual clock is the default when emulating; an unknown clock is the wall.
  s.clock = s.emulation ? ClockMode::virtual_time : ClockMode::wall;
  if (set_value(env::kClock) != nullptr) {
    s.clock =
        read_choice<ClockMode>(rank, env::kClock, {{"virtual", ClockMode::virtual_time}, {"wall", ClockMode::wall}},
                               "using the wall clock")
            .value_or(ClockMode::wall);
  }
  return s;
}

}  // namespace mheta::interpose
