#pragma once
// Profile output as a service: every rank's captured iteration is gathered
// to rank 0 and written as profile.json (profile_output.hpp) where the
// capture ends at a point every rank reaches, else at MPI_Finalize. The
// program learns where through mheta_profile_written() (<mheta/interposer.h>).
#include <atomic>

#include "interpose/service.hpp"

namespace mheta::interpose {

class ProfileService final : public Service {
 public:
  const char* name() const override { return "profile"; }
  void on_capture_end(Runtime& rt, bool collective_point) override;
  void on_finish(Runtime& rt) override;

  // The path of the profile written in this run, or null.
  static const char* written_path();

 private:
  void write_collectively(Runtime& rt);
  bool tried_ = false;
};

}  // namespace mheta::interpose
