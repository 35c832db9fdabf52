#include "interpose/out_of_core_service.hpp"

#include "interpose/export.hpp"

namespace mheta::interpose {

std::atomic<bool> OutOfCoreService::forced_{false};

}  // namespace mheta::interpose

// <mheta/interposer.h>
extern "C" MHETA_EXPORT int mheta_out_of_core_forced(void) {
  return mheta::interpose::OutOfCoreService::forced() ? 1 : 0;
}
