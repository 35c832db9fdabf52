#pragma once
// A service of the interposer's runtime (runtime.hpp): one concern
// (capture, emulation, sleep-waiting, out-of-core forcing, profile output)
// that the core calls at fixed points. A service overrides the hooks it
// needs; the others do nothing. Services are made from the table in
// services.cpp, in its order, when the settings ask for them; the core
// calls each hook on every service in that order.
//
// Where the core calls a hook from, and what it may do there:
// - lifecycle: on_start after MPI_Init (settings read, the core's state
//   ready); at MPI_Finalize on_run_end on every service, then on_finish on
//   every service (what one service settles at the run's end, another's
//   on_finish may read: the run's iteration count, settled by the capture,
//   numbers the accounting's records); on_program_mark and on_pcontrol
//   from mheta_iteration() and MPI_Pcontrol (no lock held).
// - around every handled call: before_call with the compute section the call
//   ends (a service may stretch it: emulation), run_blocking to block its own
//   way (sleep-waiting), after_call once the call returned; before a
//   passive target's lock, flush or unlock, before_passive_target_sync (a
//   sleeping target is woken).
// - what the call did (with mutex() held, after the core recorded it in the
//   timeline while capturing): on_message, on_collective, on_file_io,
//   time_file_io (outside the lock: a service may make it last longer);
//   on_call, the call as automatic detection knows it.
// - MPI_Wtime: on_wtime may change the time the program reads.
// - the capture's boundaries (published by the core, with mutex() held):
//   on_capture_near (the next iteration is the captured one),
//   on_capture_begin, on_capture_end.
#include <mpi.h>

#include <cstdint>
#include <optional>

#include "interpose/call.hpp"
#include "interpose/call_signature.hpp"
#include "interpose/emulated_disk.hpp"
#include "interpose/function_ref.hpp"

namespace mheta::interpose {

class Runtime;

using CallRef = FunctionRef<int()>;
// The non-blocking form of a blocking call, or empty.
using NonblockingRef = FunctionRef<int(MPI_Request*)>;
// One poll of a completion call's requests: an MPI error code, *done set.
using TestRef = FunctionRef<int(int* done)>;

// The compute between the last intercepted call and this one.
struct ComputeSection {
  double wall_s = 0;
  double cpu_s = 0;    // the thread's CPU time in it, when Runtime::measures_cpu()
  double seconds = 0;  // what the capture records; a service may change it
  // Times the thread was preempted in it, when Runtime::measures_preemptions()
  // (clock.hpp; -1: unknown).
  long preemptions = 0;
};

// A blocking call, and the ways it could be run otherwise.
struct BlockingCall {
  Fn fn;
  CallInfo& info;
  CallRef call;
  NonblockingRef nonblocking;  // empty when the call has no non-blocking form
  TestRef test;                // completion calls: one poll of their requests; else empty
};

// A point-to-point message: sent, received by a blocking call, a receive
// posted (its message is recorded where it completes), or such a receive
// completed.
struct MessageEvent {
  enum class Kind { send, recv, recv_posted, recv_completed };
  Fn fn;
  Kind kind;
  int world_peer;  // MPI_COMM_WORLD rank; for recv_posted the communicator's rank (may be MPI_ANY_SOURCE)
  std::int64_t bytes;
  int tag;
};

// A collective over every rank.
struct CollectiveEvent {
  Fn fn;
  Collective collective;
  std::int64_t bytes;  // this rank's contribution
};

// An MPI-IO call on a followed file (variable < 0: a file of no variable).
struct FileIoEvent {
  Fn fn;
  int variable;
  bool write;
  std::int64_t bytes;
};

// A communication or I/O call as automatic detection knows it
// (docs/interpose.md, "Which iteration"): its function and a signature of
// what it was given; a collective over every rank is a point every rank
// reaches in the same order.
struct CallSeen {
  Fn fn;
  CallSignature signature;
  bool collective_point = false;
};

// The time of a blocking MPI-IO call: `io_s` of it not spent waiting for a
// core (when Runtime::measures_cpu(); else the wall time), `wall_s` as it
// lasted; `seconds` what is recorded. A service may make it last longer,
// or time it on an emulated disk by what it moved (`op`, `bytes`).
struct FileTiming {
  double io_s = 0;
  double wall_s = 0;
  double seconds = 0;
  DiskOp op = DiskOp::other;
  std::int64_t bytes = 0;
};

class Service {
 public:
  virtual ~Service() = default;
  virtual const char* name() const = 0;

  virtual void on_start(Runtime&) {}
  virtual void on_run_end(Runtime&) {}
  virtual void on_finish(Runtime&) {}
  // Whether the wrappers must handle calls for this service (asked again
  // whenever the core's state changes: Runtime::refresh()).
  virtual bool keeps_engaged(const Runtime&) const { return false; }
  // Whether requests, files and calls must be followed for it.
  virtual bool follows_calls(const Runtime&) const { return false; }
  // Whether compute is measured in CPU time (Runtime::measures_cpu()).
  virtual bool measures_cpu() const { return false; }
  // Whether each compute section's preemptions are counted too.
  virtual bool measures_preemptions() const { return false; }

  virtual void before_call(Runtime&, Fn, ComputeSection&) {}
  // The compute since the last call as before_call would make it, without
  // waiting (the end of a capture).
  virtual void value_compute(Runtime&, ComputeSection&) {}
  virtual std::optional<int> run_blocking(Runtime&, const BlockingCall&) { return std::nullopt; }
  // A lock, flush or unlock of a passive target is about to wait for
  // `rank` of `win`'s group (every rank of it: `every_rank`).
  virtual void before_passive_target_sync(Runtime&, MPI_Win /*win*/, int /*rank*/, bool /*every_rank*/) {}
  // `call` holds what the call set (a test's flag, its count of completed
  // requests); `rc` is its error code.
  virtual void after_call(Runtime&, Fn, const CallInfo& /*call*/, int /*rc*/) {}

  virtual void on_message(Runtime&, const MessageEvent&) {}
  virtual void on_collective(Runtime&, const CollectiveEvent&) {}
  virtual void on_file_io(Runtime&, const FileIoEvent&) {}
  virtual void on_call(Runtime&, const CallSeen&) {}
  virtual void time_file_io(Runtime&, FileTiming&) {}
  // A non-blocking MPI-IO request issued at wall time `issued_at`, when the
  // service times MPI-IO on the emulated cluster's disk: its turn there, in
  // the service's time (virtual or wall), which its completion waits for.
  virtual std::optional<DiskTurn> disk_request(Runtime&, DiskOp, std::int64_t /*bytes*/, double /*issued_at*/) {
    return std::nullopt;
  }
  // The factor a slower disk multiplies MPI-IO transfers by (1: none): the
  // core delays the completion of non-blocking ones by it.
  virtual double file_io_factor() const { return 1; }
  // The factor compute between calls is multiplied by (an emulated CPU
  // factor, with the wall clock's dilation; 1: none): the profile's rates.
  virtual double compute_factor() const { return 1; }

  virtual void on_wtime(Runtime&, double& /*seconds*/) {}

  virtual void on_program_mark(Runtime&) {}
  virtual void on_pcontrol(Runtime&, int /*level*/) {}

  virtual void on_capture_near(Runtime&) {}
  virtual void on_capture_begin(Runtime&) {}
  virtual void on_capture_end(Runtime&, bool /*collective_point*/) {}
};

}  // namespace mheta::interpose
