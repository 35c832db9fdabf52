#pragma once
// The files the program opened with MPI-IO and the distributed variables
// they hold, as this rank saw them (hints or the file's name), for the
// profile; and the last captured write of each variable, which a sync of
// its file adds its time to.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpose/timeline.hpp"

namespace mheta::interpose {

// The bytes of a file this rank read or wrote in the captured iteration,
// from the first to the last (absolute offsets in the file).
struct FileExtent {
  std::int64_t begin = -1;  // -1: nothing accessed
  std::int64_t end = -1;
  bool unknown = false;  // some access's place is not known (the shared file pointer)

  void add(std::int64_t from, std::int64_t bytes) {
    begin = begin < 0 ? from : std::min(begin, from);
    end = std::max(end, from + bytes);
  }
};

// Where an MPI-IO call reads or writes: at its explicit offset, at this
// rank's file pointer, or at the pointer the ranks share.
enum class FilePointer { explicit_offset, individual, shared };

// A distributed variable as this rank saw it (from MPI_File_open).
struct VariableSeen {
  std::string name;
  std::int64_t bytes_per_row = 0;  // 0: unknown (no hint)
  std::int64_t global_rows = 0;
  std::int64_t local_rows = -1;
  std::int64_t file_bytes = 0;
  bool hinted = false;   // named by the mheta_variable hint
  bool written = false;  // written in the captured iteration (setup writes do not count)
  FileExtent accessed;   // of this rank's files of the variable, in the captured iteration
};

// Not locked: the caller holds the runtime's mutex.
class FileVariables {
 public:
  // `filename` and `info` as given to MPI_File_open, which returned `fh`.
  void open(MPI_File fh, const char* filename, MPI_Info info, int rank);
  void close(MPI_File fh) {
    files_.erase(fh);
    last_offsets_.erase(fh);
  }
  // The variable `fh` holds (-1: none followed).
  int variable_of(MPI_File fh) const;
  void note_write(int variable);
  // A captured read or write of `bytes` on `fh` (of `variable`), after the
  // call: at `offset` (explicit_offset, in the view's units) or ending at
  // the individual file pointer.
  void note_access(MPI_File fh, int variable, FilePointer pointer, MPI_Offset offset, std::int64_t bytes);
  void note_write_record(int variable, Timeline::IoRef ref) { last_write_[variable] = ref; }
  void add_to_last_write(Timeline& timeline, int variable, double seconds);
  // For detection: how far this access's explicit offset is from the last
  // one on the same file (0 for calls without one). A loop streaming a
  // block through a buffer then repeats once an iteration, not once a
  // chunk, and one appending at growing offsets still repeats. The file's
  // first access is 0 from where it is: a loop that writes its block once
  // an iteration, first in its first iteration, repeats from there on
  // every rank, not only on the one whose block is at offset 0 (the
  // others' loops began an iteration later, and their inner loop then
  // took more time than the whole: graph_halo's rank 1 captured one step
  // of ten, rank 0 ten).
  int offset_step(MPI_File fh, MPI_Offset offset);
  // A new capture: no write recorded yet, no variable written or accessed
  // in it (a setup loop captured before may have written the input).
  void begin_capture();
  const std::vector<VariableSeen>& variables() const { return variables_; }

 private:
  std::unordered_map<MPI_File, int> files_;
  std::unordered_map<MPI_File, MPI_Offset> last_offsets_;
  std::vector<VariableSeen> variables_;
  std::unordered_map<int, Timeline::IoRef> last_write_;
};

}  // namespace mheta::interpose
