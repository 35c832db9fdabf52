// MPI-IO: files opened and closed, blocking, non-blocking and split
// collective requests timed on the emulated disk and recorded as the
// variables' I/O; prefetches made synchronous while capturing (MHETA §4.1.1).
#include <algorithm>
#include <mutex>
#include <optional>
#include <vector>

#include "interpose/clock.hpp"
#include "interpose/emulator.hpp"
#include "interpose/handlers.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose::handlers {

namespace {

// MPI-IO calls collective over the file's communicator. Under the virtual
// clock they synchronize the ranks first, then their I/O is timed.
bool collective_file_call(Fn fn) {
  switch (fn_base(fn)) {
    case Fn::File_open:
    case Fn::File_close:
    case Fn::File_read_all:
    case Fn::File_read_at_all:
    case Fn::File_read_ordered:
    case Fn::File_write_all:
    case Fn::File_write_at_all:
    case Fn::File_write_ordered:
    case Fn::File_sync:
    case Fn::File_set_size:
    case Fn::File_preallocate:
    case Fn::File_set_view:
    case Fn::File_set_atomicity:
    case Fn::File_set_info:
    case Fn::File_seek_shared:
      return true;
    default:
      return false;
  }
}

void synchronize_file_call(Runtime& rt, Fn fn, MPI_File fh) {
  if (rt.clock().carrying() && collective_file_call(fn)) rt.clock().synchronize(rt.clock().file_comm(fh));
}

// An MPI-IO call's time. Emulating, it is stretched by the emulated disk
// (and so returned), after the time the thread waited for a core is taken
// out, as compute is measured by CPU time (docs/emulation.md); the virtual
// clock's emulated disk times it by what it moved instead.
struct IoTimer {
  explicit IoTimer(const Runtime& rt) : start(now_s()), queued(rt.measures_cpu() ? thread_queued_s() : 0) {}
  double seconds(Runtime& rt, DiskOp op = DiskOp::other, std::int64_t bytes = 0) const {
    const double wall = now_s() - start;
    return rt.time_file_io(rt.measures_cpu() ? wall - (thread_queued_s() - queued) : wall, wall, op, bytes);
  }
  double start;
  double queued;
};

// Where an MPI-IO call reads or writes (FileVariables::note_access).
FilePointer file_pointer(Fn fn) {
  switch (fn_base(fn)) {
    case Fn::File_read_at:
    case Fn::File_read_at_all:
    case Fn::File_read_at_all_begin:
    case Fn::File_write_at:
    case Fn::File_write_at_all:
    case Fn::File_write_at_all_begin:
    case Fn::File_iread_at:
    case Fn::File_iread_at_all:
    case Fn::File_iwrite_at:
    case Fn::File_iwrite_at_all:
      return FilePointer::explicit_offset;
    case Fn::File_read_shared:
    case Fn::File_read_ordered:
    case Fn::File_read_ordered_begin:
    case Fn::File_write_shared:
    case Fn::File_write_ordered:
    case Fn::File_write_ordered_begin:
    case Fn::File_iread_shared:
    case Fn::File_iwrite_shared:
      return FilePointer::shared;
    default:
      return FilePointer::individual;
  }
}

// A prefetch issued as a synchronous read while capturing (MHETA §4.1.1,
// Fig 5) hands the program an already complete generalized request, so its
// wait is a no-op whatever wait function it uses.
struct ReadDone {
  MPI_Datatype type;
  MPI_Count count;
};

int query_read(void* state, MPI_Status* status) {
  const auto* done = static_cast<ReadDone*>(state);
  PMPI_Status_set_elements_x(status, done->type, done->count);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
int free_read(void* state) {
  delete static_cast<ReadDone*>(state);
  return MPI_SUCCESS;
}
int cancel_read(void*, int) { return MPI_SUCCESS; }

// The reads take the count of the call, an int's or a large-count twin's:
// MPI-4's large-count reads take either.
#if MPI_VERSION >= 4
#define MHETA_READ(Name) PMPI_##Name##_c
#else
#define MHETA_READ(Name) PMPI_##Name
#endif
int synchronous_read(const CallInfo& c, MPI_Status* status) {
  switch (c.sync_read) {
    case SyncRead::individual:
      return MHETA_READ(File_read)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::individual_all:
      return MHETA_READ(File_read_all)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::shared:
      return MHETA_READ(File_read_shared)(c.fh, c.buf, c.count, c.type, status);
    case SyncRead::at:
      return MHETA_READ(File_read_at)(c.fh, c.offset, c.buf, c.count, c.type, status);
    case SyncRead::at_all:
      return MHETA_READ(File_read_at_all)(c.fh, c.offset, c.buf, c.count, c.type, status);
    case SyncRead::none:
      break;
  }
  return MPI_ERR_INTERN;
}
#undef MHETA_READ

// A non-blocking MPI-IO request issued at `timer`'s start, of `seconds` at
// its issue; on an emulated disk it completes at its `turn`.
PendingRequest issued_file_request(Runtime& rt, const IoTimer& timer, bool write, double seconds,
                                   const std::optional<DiskTurn>& turn) {
  PendingRequest file;
  file.kind = Kind::file;
  file.issued_at = timer.start;
  file.issue_seconds = turn ? turn->seconds : seconds;
  file.write = write;
  if (turn) file.disk_done_at = turn->done_at;
  if (rt.clock().on()) {
    file.posted_at = rt.clock().now();
    file.queued_at_issue = timer.queued;
  }
  return file;
}

// An MPI-IO call's access (mutex held): the variable of its file, noted
// as written by a write while capturing, with where it read or wrote.
int note_file_access(Runtime& rt, Fn fn, const CallInfo& c, bool write, std::int64_t bytes) {
  const int variable = rt.files().variable_of(c.fh);
  if (rt.capturing()) {
    if (write) rt.files().note_write(variable);
    rt.files().note_access(c.fh, variable, file_pointer(fn), c.offset, bytes);
  }
  return variable;
}

// A request's I/O recorded where it was issued, while capturing (mutex
// held): its time at the issue now, the rest where it completes.
void record_at_issue(Runtime& rt, int variable, std::int64_t bytes, PendingRequest& file) {
  if (!rt.capturing() || variable < 0) return;
  file.io = rt.timeline().add_io(variable, file.write, bytes, file.issue_seconds, false);
  file.recorded = true;
  if (file.write) rt.files().note_write_record(variable, file.io);
}

// Whether a request issued is followed to its completion: its time is
// recorded, or emulated.
bool followed_to_completion(Runtime& rt, const PendingRequest& file) {
  return file.recorded || file.disk_done_at || rt.file_io_factor() > 1 || rt.clock().on();
}

// An MPI-IO call, told to the services and to detection (mutex held). The
// step from the file's last offset is seen as a value that varies where it
// does (varying_values.hpp): records of changing sizes appended one after
// another.
void tell_file_io(Runtime& rt, Fn fn, const CallInfo& c, int variable, bool write, std::int64_t bytes) {
  if (!rt.following()) return;
  rt.file_io({fn, variable, write, bytes});
  constexpr std::uint64_t kOffsets = 0x0ff5e75ULL << 20;  // keeps the steps' calls from the sizes'
  int step = rt.files().offset_step(c.fh, c.offset);
  const std::uint64_t file_call =
      (static_cast<std::uint64_t>(fn) << 48) ^ kOffsets ^ static_cast<std::uint32_t>(variable);
  const VaryingValues::Seen seen_step = rt.varying_values().see(file_call, step, step);
  const SeenStep seen{.step = step, .varies = seen_step.varies, .steps_vary = seen_step.call_varies};
  rt.call_seen({fn, signature_of_step(rt, fn, variable, seen, bytes)});
}

}  // namespace

// A non-blocking MPI-IO request (or a split collective's) has completed:
// the virtual clock, or the sleep of the wall clock's slower disk
// (`delay.until`), moves to its emulated completion: its turn on the
// emulation's disk, or its transfer stretched by the I/O factor.
void complete_file(Runtime& rt, PendingRequest& p, FileDelay& delay) {
  VirtualClockService& clock = rt.clock();
  if (p.disk_done_at) {  // its time was the disk's from the issue (and recorded then)
    if (clock.on()) {
      clock.wait_until(*p.disk_done_at);
    } else {
      delay.until = std::max(delay.until, *p.disk_done_at);
    }
    return;
  }
  double transfer = delay.blocked ? delay.done_at - p.issued_at : p.issue_seconds + (delay.done_at - delay.call_start);
  // Virtual time: the time the thread waited for a core between the
  // issue and the end of the wait is not the disk's.
  if (clock.on() && delay.blocked) transfer = std::max(0.0, transfer - (thread_queued_s() - p.queued_at_issue));
  const double emulated = rt.file_io_factor() * transfer;
  // The captured write already holds the issue's time; the rest of the
  // emulated transfer is the write's too.
  if (p.recorded && rt.capturing()) rt.timeline().add_io_seconds(p.io, p.write, emulated - p.issue_seconds);
  delay.until = std::max(delay.until, p.issued_at + emulated);
  clock.wait_until(p.posted_at + emulated);
}

// Opening and closing a file: collective, and disk time under the virtual
// clock (the profile records neither).
int handle_file_open(Runtime& rt, CallInfo& c, CallRef call) {
  if (rt.clock().carrying()) rt.clock().synchronize(c.comm);
  const IoTimer timer(rt);
  const int rc = call();
  if (rt.clock().on()) timer.seconds(rt);
  rt.leave();
  if (rc == MPI_SUCCESS) rt.clock().file_opened(*c.fh_out, c.comm);
  if (rt.following() && rc == MPI_SUCCESS) {
    std::lock_guard lock(rt.mutex());
    rt.files().open(*c.fh_out, c.filename, c.info, rt.world_rank());
  }
  return rc;
}

int handle_file_close(Runtime& rt, CallInfo& c, CallRef call) {
  const MPI_File fh = *c.fh_out;
  synchronize_file_call(rt, Fn::File_close, fh);
  const IoTimer timer(rt);
  const int rc = call();
  if (rt.clock().on()) timer.seconds(rt);
  rt.leave();
  rt.clock().file_closed(fh);
  std::lock_guard lock(rt.mutex());
  rt.files().close(fh);
  return rc;
}

// Blocking MPI-IO: timed, stretched by the emulated disk, recorded.
int handle_file_io(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  synchronize_file_call(rt, fn, c.fh);
  const IoTimer timer(rt);
  const int rc = call();
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const double seconds = timer.seconds(rt, write ? DiskOp::write : DiskOp::read, bytes);
  rt.leave();
  if (!rt.following() || rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = rt.files().variable_of(c.fh);
  if (rt.capturing()) {
    rt.timeline().blocking_io();  // of any file: a rank has one disk
    if (write) rt.files().note_write(variable);
    if (variable >= 0) {
      const Timeline::IoRef ref = rt.timeline().add_io(variable, write, bytes, seconds, false);
      if (write) rt.files().note_write_record(variable, ref);
      rt.files().note_access(c.fh, variable, file_pointer(fn), c.offset, bytes);
    }
  }
  tell_file_io(rt, fn, c, variable, write, bytes);
  return rc;
}

// MPI_File_sync (and set_size, preallocate): where a synced write spends
// its time, so the cost of the writes before it. Stretched like them by the
// emulated disk, and recorded with the last write of the file's variable.
int handle_file_sync(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  synchronize_file_call(rt, fn, c.fh);
  const IoTimer timer(rt);
  const int rc = call();
  const double seconds = timer.seconds(rt);
  rt.leave();
  if (!rt.capturing() || rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  rt.timeline().blocking_io();  // the disk serves it after a prefetch in flight too
  rt.files().add_to_last_write(rt.timeline(), rt.files().variable_of(c.fh), seconds);
  return rc;
}

// A view, atomicity, info or shared-pointer seek: the ranks synchronized
// under the virtual clock; its time, a wait for the last rank, is no I/O.
int handle_file_control(Runtime& rt, Fn fn, CallInfo& c, CallRef call) {
  synchronize_file_call(rt, fn, c.fh);
  const int rc = call();
  rt.leave();
  return rc;
}

int handle_file_nonblocking(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  const IoTimer timer(rt);
  const double start = timer.start;
  const bool as_sync_read = !write && rt.capturing() && c.sync_read != SyncRead::none;
  int rc = MPI_SUCCESS;
  if (as_sync_read) {
    MPI_Status status{};
    rc = synchronous_read(c, &status);
    if (rc == MPI_SUCCESS) {
      rc = PMPI_Grequest_start(query_read, free_read, cancel_read, new ReadDone{c.type, c.count}, c.request);
      if (rc == MPI_SUCCESS) PMPI_Grequest_complete(*c.request);
    }
  } else {
    rc = call();
  }
  const double issue_seconds = now_s() - start;
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const DiskOp op = write ? DiskOp::write : DiskOp::read;
  // On an emulated disk the request takes its turn on the disk from its
  // issue; its whole time is known then.
  const std::optional<DiskTurn> turn =
      !as_sync_read && rc == MPI_SUCCESS ? rt.disk_request(op, bytes, start) : std::nullopt;
  const double seconds = as_sync_read ? timer.seconds(rt, op, bytes) : issue_seconds;
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = note_file_access(rt, fn, c, write, bytes);
  if (as_sync_read && variable >= 0) {
    const Timeline::IoRef ref = rt.timeline().add_io(variable, false, bytes, seconds, true);
    rt.requests().add(*c.request, {.kind = Kind::prefetch, .overlap_from = rt.timeline().overlap_start(), .io = ref});
  } else {
    PendingRequest file = issued_file_request(rt, timer, write, seconds, turn);
    // ROMIO performs a write's transfer inside the call; its time is the
    // write's, and so is the emulated rest of it, slept where the request
    // completes.
    if (write) record_at_issue(rt, variable, bytes, file);
    if (followed_to_completion(rt, file)) rt.requests().add(*c.request, file);
  }
  tell_file_io(rt, fn, c, variable, write, bytes);
  return rc;
}

// Split collective MPI-IO (MPI_File_read_all_begin ... _end): timed as the
// non-blocking collective I/O it is (MPI_File_iread_all ...), issued at the
// begin (on the emulated disk when the emulation has one)
// and completed at the end. The capture records it as the collective read
// or write it is, where it begins (ROMIO does the transfer there), with the
// time of its end added when that waited (complete_file).
int handle_file_split_begin(Runtime& rt, Fn fn, bool write, CallInfo& c, CallRef call) {
  const IoTimer timer(rt);
  const int rc = call();
  const double issue_seconds = now_s() - timer.start;
  const std::int64_t bytes = type_bytes(c.count, c.type);
  const std::optional<DiskTurn> turn =
      rc == MPI_SUCCESS ? rt.disk_request(write ? DiskOp::write : DiskOp::read, bytes, timer.start) : std::nullopt;
  rt.leave();
  if (rc != MPI_SUCCESS) return rc;
  std::lock_guard lock(rt.mutex());
  const int variable = note_file_access(rt, fn, c, write, bytes);
  PendingRequest file = issued_file_request(rt, timer, write, issue_seconds, turn);
  record_at_issue(rt, variable, bytes, file);
  if (followed_to_completion(rt, file)) rt.split_file_io()[c.fh] = file;
  tell_file_io(rt, fn, c, variable, write, bytes);
  return rc;
}

int handle_file_split_end(Runtime& rt, CallInfo& c, CallRef call) {
  FileDelay delay;
  delay.call_start = now_s();
  const int rc = call();
  delay.done_at = now_s();
  delay.blocked = delay.done_at - delay.call_start > kBlocked;
  {
    std::lock_guard lock(rt.mutex());
    const auto begun = rt.split_file_io().find(c.fh);
    if (begun != rt.split_file_io().end()) {
      if (rc == MPI_SUCCESS) complete_file(rt, begun->second, delay);
      rt.split_file_io().erase(begun);
    }
  }
  // Under the virtual clock a late completion is a time, not a sleep.
  if (!rt.clock().on()) sleep_io_until(delay.until);
  rt.leave();
  return rc;
}

}  // namespace mheta::interpose::handlers
