#pragma once
// The category handlers behind every generated wrapper.
#include "interpose/call.hpp"
#include "interpose/service.hpp"

namespace mheta::interpose {

int dispatch(Fn fn, Category category, CallInfo& info, CallRef call, NonblockingRef nonblocking);

}  // namespace mheta::interpose
