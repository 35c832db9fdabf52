#pragma once
// A fresh directory per test, removed afterwards.
#include <gtest/gtest.h>

#include <filesystem>

namespace mheta::io::testing {

inline std::filesystem::path fresh_test_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "mheta-io-tests" /
                                    (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace mheta::io::testing
