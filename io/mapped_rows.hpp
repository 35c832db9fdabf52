#pragma once
// A local array's rows seen in place, read-only, through a memory mapping of
// its file: the redistribution hashes the rows it keeps or sends, sends
// them, and hashes the new block back, without first copying every byte
// into a buffer (a copy the plain write of the same bytes does not make).
// The bytes are the file's as any reader sees them (the page cache), as a
// read would return them.
#include <cstddef>
#include <cstdint>
#include <filesystem>

#include "io/local_array.hpp"

namespace mheta::io {

class MappedRows {
 public:
  // Maps the rows of `block`, whose file must hold them (LocalArray::open
  // checks its size). Throws LocalArrayError naming the file.
  explicit MappedRows(const LocalArray& block);
  MappedRows(const MappedRows&) = delete;
  MappedRows& operator=(const MappedRows&) = delete;
  ~MappedRows();

  // Local row `first` and the rows after it, `bytes_per_row` bytes each.
  const std::byte* rows(std::int64_t first) const;

 private:
  std::filesystem::path path_;
  void* base_ = nullptr;
  std::size_t length_ = 0;
  std::int64_t data_offset_ = 0;
  std::int64_t bytes_per_row_ = 0;
  std::int64_t local_rows_ = 0;
};

}  // namespace mheta::io
