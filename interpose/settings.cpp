#include "interpose/settings.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace mheta::interpose {

namespace {

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

std::optional<std::int64_t> parse_positive(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value <= 0) return std::nullopt;
  return value;
}

void warn(int rank, const std::string& message) {
  std::fprintf(stderr, "mheta interpose (rank %d): %s\n", rank, message.c_str());
}

void read_capture_mode(int rank, Settings& s) {
  const char* mode = env("MHETA_CAPTURE");
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
    // call:MPI_Name[:k]
    const std::string_view rest = m.substr(5);
    const std::size_t colon = rest.find(':');
    s.call_name = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) {
      const auto k = parse_positive(rest.substr(colon + 1));
      if (!k) {
        warn(rank, "MHETA_CAPTURE=" + std::string(m) +
                       ": the count after the function name must be a positive integer; using 1");
      }
      s.call_every = k.value_or(1);
    }
    s.capture = CaptureMode::call;
    if (!s.call_name.starts_with("MPI_")) {
      warn(rank, "MHETA_CAPTURE=" + std::string(m) + ": expected call:MPI_Name[:k]; capturing automatically instead");
      s.capture = CaptureMode::automatic;
    }
  } else {
    warn(rank,
         "MHETA_CAPTURE=" + std::string(m) + " is not one of auto, mark, pcontrol, call:MPI_Name[:k], off; using auto");
  }
}

}  // namespace

Settings read_settings(int rank) {
  Settings s;
  read_capture_mode(rank, s);
  if (const char* n = env("MHETA_CAPTURE_ITERATION")) {
    const auto value = parse_positive(n);
    if (value) {
      s.capture_iteration = *value;
    } else {
      warn(rank, std::string("MHETA_CAPTURE_ITERATION=") + n + " is not a positive integer; capturing iteration 2");
    }
  }
  if (const char* p = env("MHETA_PROFILE")) s.profile_path = p;
  if (const char* r = env("MHETA_ROWS")) {
    const auto value = parse_positive(r);
    if (value) {
      s.global_rows = *value;
    } else {
      warn(rank, std::string("MHETA_ROWS=") + r + " is not a positive integer; ignored");
    }
  }
  if (const char* d = env("MHETA_DIST")) s.dist_path = d;
  if (const char* n = env("MHETA_ITERATIONS")) {
    const auto value = parse_positive(n);
    if (value) {
      s.stated_iterations = *value;
    } else {
      warn(rank, std::string("MHETA_ITERATIONS=") + n + " is not a positive integer; counting the iterations instead");
    }
  }
  if (const char* w = env("MHETA_ROW_WEIGHTS")) s.row_weights_path = w;
  if (const char* e = env("MHETA_EMULATE")) {
    try {
      s.emulation = load_emulation(e);
      s.wait = s.emulation->wait;
    } catch (const std::exception& error) {
      warn(rank, std::string("MHETA_EMULATE: ") + error.what() + "; running without emulation");
    }
  }
  if (const char* w = env("MHETA_WAIT")) {
    const std::string_view mode(w);
    if (mode == "sleep") {
      s.wait = WaitMode::sleep;
    } else if (mode == "spin") {
      s.wait = WaitMode::spin;
    } else {
      warn(rank, std::string("MHETA_WAIT=") + w + " is not sleep or spin; ignored");
    }
  }
  return s;
}

}  // namespace mheta::interpose
