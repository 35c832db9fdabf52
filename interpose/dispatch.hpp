#pragma once
// The category handlers behind every generated wrapper.
#include "interpose/call.hpp"
#include "interpose/function_ref.hpp"

namespace mheta::interpose {

using CallRef = FunctionRef<int()>;
// The non-blocking form of a blocking call (sleep-wait mode), or empty.
using NonblockingRef = FunctionRef<int(MPI_Request*)>;

int dispatch(Fn fn, Category category, CallInfo& info, CallRef call, NonblockingRef nonblocking);

}  // namespace mheta::interpose
