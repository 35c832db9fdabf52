#pragma once
// HDF5 local arrays: each rank keeps its block of a distributed variable in
// <dir>/<variable>.<rank>.h5, one contiguous two-dimensional dataset "rows"
// (local rows x elements per row) with attributes naming the variable, the
// global row count, the first global row, the bytes per row, the rank and
// the distribution (rows per rank).
//
// HDF5 (MPI-IO driver) writes and checks the metadata only. Row data moves
// with MPI_File_read_at / MPI_File_write_at / MPI_File_iread_at on
// MPI_COMM_SELF at the dataset's byte offset, through a file opened with an
// MPI_Info naming the variable (include/mheta/hints.h), so the interposer
// sees every access to distributed data and knows whose it is. Bypassing
// HDF5 for the data keeps it to exactly one MPI-IO call per row range.
// (The redistribution, between iterations, reads blocks through a mapping
// instead: io/mapped_rows.hpp.)
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/gen_block.hpp"

namespace mheta::io {

// A local array file is missing, unreadable, truncated, of another variable
// or inconsistent with the run; the message starts with the file's path.
class LocalArrayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ElementType { f64, i64, u8 };

// What one row of a variable holds.
struct RowShape {
  std::string variable;
  ElementType element = ElementType::f64;
  std::int64_t elements_per_row = 0;

  std::int64_t bytes_per_row() const;
};

std::filesystem::path local_array_path(const std::filesystem::path& dir, std::string_view variable, int rank);

class LocalArray {
 public:
  // Creates (replacing any old file) the block of `rank` under `dist`. The
  // rows are allocated but not written.
  static LocalArray create(const std::filesystem::path& dir, const RowShape& shape, const model::GenBlock& dist,
                           int rank);
  // Opens the block of `rank` and checks it against `shape` and `dist`.
  static LocalArray open(const std::filesystem::path& dir, const RowShape& shape, const model::GenBlock& dist,
                         int rank);

  LocalArray(LocalArray&& other) noexcept;
  LocalArray& operator=(LocalArray&& other) noexcept;
  LocalArray(const LocalArray&) = delete;
  LocalArray& operator=(const LocalArray&) = delete;
  ~LocalArray();

  const std::filesystem::path& path() const { return path_; }
  const RowShape& shape() const { return shape_; }
  const model::GenBlock& distribution() const { return dist_; }
  int rank() const { return rank_; }
  std::int64_t bytes_per_row() const { return shape_.bytes_per_row(); }
  std::int64_t local_rows() const { return dist_.rows[static_cast<std::size_t>(rank_)]; }
  std::int64_t first_row() const { return first_row_; }  // global index of local row 0
  std::int64_t global_rows() const { return dist_.total_rows(); }
  // Byte offset of local row 0 in the file (the dataset is contiguous).
  std::int64_t data_offset() const { return static_cast<std::int64_t>(data_offset_); }

  // Forces the rows written so far to disk. Throws LocalArrayError.
  void sync();
  // Renames the file to `path` (same file system); it stays open and usable.
  // Throws LocalArrayError.
  void rename_to(const std::filesystem::path& path);

  // Local rows [first, first + count): one MPI-IO call each.
  void read_rows(std::int64_t first, std::int64_t count, void* out);
  void write_rows(std::int64_t first, std::int64_t count, const void* in);
  // Starts reading; complete with wait().
  MPI_Request start_read_rows(std::int64_t first, std::int64_t count, void* out);
  static void wait(MPI_Request& request);

 private:
  LocalArray(std::filesystem::path path, RowShape shape, model::GenBlock dist, int rank);
  // `extra_mode`: MPI_MODE_CREATE for a new file.
  void open_data(MPI_Offset data_offset, int extra_mode = 0);
  // Writes a new file's metadata, built in memory, and sizes the file.
  void write_image(const std::vector<std::byte>& image);
  void check_range(std::int64_t first, std::int64_t count, const char* what) const;
  MPI_Offset byte_offset(std::int64_t first) const;

  std::filesystem::path path_;
  RowShape shape_;
  model::GenBlock dist_;
  int rank_ = 0;
  std::int64_t first_row_ = 0;
  MPI_Offset data_offset_ = 0;
  MPI_File file_ = MPI_FILE_NULL;
  MPI_Datatype row_type_ = MPI_DATATYPE_NULL;
};

}  // namespace mheta::io
