#pragma once
// One local array swept in ICLAs (in-core local arrays, MHETA §3): the rows
// of chunk k of the rank's block are brought into memory, used, and written
// back when changed. An array the policy keeps in core is read once, on its
// first use, and stays in memory; flush() writes it back at the end.
//
// With prefetch, reading chunk k starts the read of chunk k+1 into a second
// buffer (MPI_File_iread_at) that acquiring chunk k+1 completes (MPI_Wait):
// the double buffering of the paper's Eq 2. The first chunk of a sweep is
// read synchronously: nothing is prefetched across the end of a sweep.
//
// At most one chunk of an array is held at a time: release chunk k before
// acquiring another.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/local_array.hpp"
#include "model/icla_policy.hpp"

namespace mheta::io {

// Local rows [first, first + count).
struct RowRange {
  std::int64_t first = 0;
  std::int64_t count = 0;
  std::int64_t end() const { return first + count; }
};

class IclaArray {
 public:
  IclaArray(LocalArray& array, const model::IclaPlan& plan, bool prefetch);
  IclaArray(const IclaArray&) = delete;
  IclaArray& operator=(const IclaArray&) = delete;
  ~IclaArray();

  LocalArray& array() { return *array_; }
  const LocalArray& array() const { return *array_; }
  const model::IclaPlan& plan() const { return plan_; }
  bool in_core() const { return plan_.in_core; }
  // N_L out of core; 1 in core; 0 when the rank owns no rows.
  std::int64_t chunk_count() const;
  RowRange chunk(std::int64_t k) const;

  // The rows of chunk k, read from the file (or already in memory).
  std::span<std::byte> acquire(std::int64_t k);
  // A buffer for chunk k whose rows the caller overwrites all: nothing is read.
  std::span<std::byte> acquire_for_write(std::int64_t k);
  // Ends the use of chunk k; out of core, writes it back when `dirty`.
  void release(std::int64_t k, bool dirty);
  // Writes an in-core array back to its file if it changed since loading.
  void flush();
  // The block's values are no longer needed (the program overwrites them
  // all before reading): an in-core block is not written back.
  void discard() { changed_ = false; }
  // Continues under another plan from the next sweep on: an in-core block
  // is written back first if it changed, and reloaded when next in core.
  void switch_plan(const model::IclaPlan& plan);

 private:
  std::span<std::byte> buffer(int which, std::int64_t rows);
  void finish_pending();

  LocalArray* array_;
  model::IclaPlan plan_;
  bool prefetch_requested_;
  bool prefetch_;
  std::vector<std::byte> storage_;   // one ICLA (or the whole block), twice when prefetching
  int current_ = 0;                  // the buffer holding the acquired chunk
  std::int64_t pending_chunk_ = -1;  // chunk being prefetched into buffer 1 - current_
  MPI_Request pending_ = MPI_REQUEST_NULL;
  bool loaded_ = false;   // in core: the block has been read
  bool changed_ = false;  // in core: written since loading
};

// The bytes of acquired rows seen as elements.
template <class T>
std::span<T> rows_as(std::span<std::byte> bytes) {
  return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
}

}  // namespace mheta::io
