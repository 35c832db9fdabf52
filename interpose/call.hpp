#pragma once
// One intercepted MPI call, as the category handlers see it.
#include <mpi.h>

#include <cstdint>

#include "model/collective.hpp"

namespace mheta::interpose {

using model::Collective;

// What a call does, for the timeline (docs/interpose.md, "Categories").
enum class Category {
  send,
  recv,
  sendrecv,
  isend,
  irecv,
  send_init,
  recv_init,
  start,
  request_free,
  completion,
  collective,
  icollective,
  file_open,
  file_close,
  file_read,
  file_write,
  file_iread,
  file_iwrite,
  file_sync,
  probe,
  isendrecv,          // MPI-4: both halves complete with one request
  mprobe,             // a matched probe: the message's time is taken where it is matched
  mrecv,              // the receive of a matched message (its time already taken)
  collective_init,    // a persistent collective: its entry goes out at each start
  comm_create,
  comm_icreate,       // a non-blocking communicator creation: its shadow is made alongside
  comm_free,
  comm_connect,       // dynamic processes: followed when every process is of this MPI_COMM_WORLD
  win_create,         // a window: the virtual clock keeps a communicator of its group for its fences
  win_free,
  win_fence,          // a collective over the window's group
  win_transfer,       // a put, get or accumulate: its bytes leave on the rank's link before its epoch ends
  win_atomic,         // a get-accumulate, fetch-and-op or compare-and-swap: the same, unseen by detection
  win_post,           // general active target (PSCW): a target's exposure epoch opens; its time goes to the origins
  win_start,          // an origin's access epoch opens; the targets' post times are awaited without blocking
  win_complete,       // the access epoch ends once the posts are known and its transfers have left
  win_wait,           // the exposure epoch ends (MPI_Win_test: when it returns true) once the origins completed
  win_lock,           // passive target: a lock (or MPI_Win_sync), no time on the clock
  win_flush,          // an unlock or flush: waits for the transfers to the target(s) to arrive
  win_flush_local,    // a local flush: waits for them to have left the rank's link
  neighbour,          // a neighbourhood collective: blocks to and from the topology's neighbours
  ineighbour,         // its non-blocking form
  neighbour_init,     // its persistent form: the blocks' times go out at each start
  file_split_read,    // split collective MPI-IO: the begin, timed as a non-blocking read or write
  file_split_write,
  file_split_end,     // its end: where it completes
  file_control,       // collective over a file's communicator, moving no data (a view, atomicity, info)
  partitioned,        // MPI-4 partitioned communication: passed through, no compute, said once
};

// The synchronous read a non-blocking read becomes while capturing.
enum class SyncRead { none, individual, individual_all, shared, at, at_all };

// Every intercepted function, in table order.
enum class Fn {
#define MHETA_MPI(Name, ...) Name,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
  count_
};

const char* fn_name(Fn fn);  // "MPI_Send", ...
Category fn_category(Fn fn);  // its line's category in mpi_functions.def
// Whether every rank of the file's communicator makes the call: opening,
// closing and syncing a file, the `_all` and `_ordered` reads and writes
// (blocking, non-blocking and split).
bool collective_file_io(Fn fn);
// The function a large-count twin is of (Fn::Send for Fn::Send_c); any
// other function is its own.
Fn fn_base(Fn fn);

// The per-rank counts of a v- or w-collective: `const int[]`, or the
// large-count twins' `const MPI_Count[]`.
class CountArray {
 public:
  CountArray() = default;
  CountArray(const int* counts) : ints_(counts) {}  // NOLINT(google-explicit-constructor): a table field
  CountArray(const MPI_Count* counts) : wide_(counts) {}  // NOLINT(google-explicit-constructor)
  bool empty() const { return ints_ == nullptr && wide_ == nullptr; }
  MPI_Count operator[](int i) const { return ints_ != nullptr ? ints_[i] : wide_[i]; }

 private:
  const int* ints_ = nullptr;
  const MPI_Count* wide_ = nullptr;
};

// Fields a table line fills; the others keep these defaults.
struct CallInfo {
  MPI_Comm comm = MPI_COMM_NULL;
  int peer = MPI_PROC_NULL;
  int tag = 0;
  MPI_Count count = 0;  // MPI_Count: the large-count twins' (int for the others)
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Request* request = nullptr;  // the request a non-blocking call creates
  int nreq = 0;                    // wait/test/start family
  MPI_Request* requests = nullptr;
  MPI_Status* status = MPI_STATUS_IGNORE;
  MPI_Status* statuses = MPI_STATUSES_IGNORE;
  int* index = nullptr;
  int* outcount = nullptr;
  int* indices = nullptr;
  int* flag = nullptr;
  int peer2 = MPI_PROC_NULL;  // the receive half of a sendrecv
  int tag2 = 0;
  MPI_Count count2 = 0;
  MPI_Datatype type2 = MPI_DATATYPE_NULL;
  CountArray counts{};  // v- and w-collectives: per-rank counts
  const MPI_Datatype* types = nullptr;  // w-collectives: per-rank datatypes
  // Neighbourhood collectives: the receive side's counts and datatypes per
  // source (v- and w-forms; the others give count2 and type2 for every source).
  CountArray counts2{};
  const MPI_Datatype* types2 = nullptr;
  Collective collective = Collective::barrier;
  MPI_Info info = MPI_INFO_NULL;
  const char* filename = nullptr;
  MPI_File* fh_out = nullptr;
  MPI_Comm* newcomm = nullptr;  // communicator creation: the new one; MPI_Comm_free: the one freed
  MPI_Message* message = nullptr;  // matched probes
  MPI_Win* win_out = nullptr;      // window creation: the new one; MPI_Win_free: the one freed
  MPI_Win win = MPI_WIN_NULL;      // one-sided synchronization
  MPI_Group group = MPI_GROUP_NULL;  // MPI_Win_post, MPI_Win_start: the epoch's other side
  bool every_target = false;         // MPI_Win_unlock_all, MPI_Win_flush(_local)_all
  MPI_File fh = MPI_FILE_NULL;
  MPI_Offset offset = 0;
  void* buf = nullptr;
  SyncRead sync_read = SyncRead::none;
};

}  // namespace mheta::interpose
