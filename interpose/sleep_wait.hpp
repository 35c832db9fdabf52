#pragma once
// Waiting without spinning (MHETA_WAIT=sleep): a blocking call becomes its
// non-blocking form polled with short sleeps, so ranks that wait leave the
// cores to ranks that compute (4-8 ranks on a 2-core machine measure their
// compute cleanly). The core calls it only when the mode is on.
#include <mpi.h>

#include "interpose/function_ref.hpp"

namespace mheta::interpose {

// Polls `test` (returns an MPI error code and sets *done) until done,
// sleeping between polls with a backoff capped at kMaxSleep.
int poll_with_sleeps(FunctionRef<int(int* done)> test);

// Whether `request` completes by `deadline` (now_s()), polled with sleeps
// (backing off to 1 ms): the progress it needs is made by the tests. A
// request that does not is left as it is.
bool completes_by(MPI_Request& request, double deadline);

// Issues `nonblocking` and polls its request to completion.
int sleep_wait(FunctionRef<int(MPI_Request*)> nonblocking, MPI_Status* status);

}  // namespace mheta::interpose
