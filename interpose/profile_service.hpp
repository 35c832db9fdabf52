#pragma once
// Profile output as a service: every rank's captured iteration is gathered
// to rank 0 and written as profile.json (profile_output.hpp) where the
// capture ends at a point every rank reaches, else at MPI_Finalize. The
// program learns where through mheta_profile_written() (<mheta/interposer.h>).
// A rank waits at that point at most MHETA_GATHER_WAIT seconds for the
// others (a program that marks its iterations on some ranks only would
// otherwise never go on), rank 0 for their records, the others for its
// answer (every step non-blocking: profile_output.hpp); then it says so,
// goes on, and the gather ends at MPI_Finalize, where every rank joins it.
#include <atomic>
#include <memory>

#include "interpose/profile_output.hpp"

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
  void write_collectively(Runtime& rt, bool bounded);
  void finish_gather(Runtime& rt);
  bool tried_ = false;
  std::unique_ptr<ProfileGather> gather_;  // started, not finished
};

}  // namespace mheta::interpose
