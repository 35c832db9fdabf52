#include "io/mapped_rows.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace mheta::io {

MappedRows::MappedRows(const LocalArray& block)
    : path_(block.path()),
      data_offset_(block.data_offset()),
      bytes_per_row_(block.bytes_per_row()),
      local_rows_(block.local_rows()) {
  if (local_rows_ == 0) return;
  length_ = static_cast<std::size_t>(data_offset_ + local_rows_ * bytes_per_row_);
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LocalArrayError(path_.string() + ": cannot open to map its rows: " + std::strerror(errno));
  // Populated at once: one pass of the kernel over the cached pages rather
  // than a page fault per 4 KiB.
  base_ = ::mmap(nullptr, length_, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  const int saved = errno;
  ::close(fd);
  if (base_ == MAP_FAILED) {
    base_ = nullptr;
    throw LocalArrayError(path_.string() + ": cannot map its rows: " + std::strerror(saved));
  }
  ::madvise(base_, length_, MADV_SEQUENTIAL);
}

MappedRows::~MappedRows() {
  if (base_ != nullptr) ::munmap(base_, length_);
}

const std::byte* MappedRows::rows(std::int64_t first) const {
  if (first < 0 || first > local_rows_) {
    throw LocalArrayError(path_.string() + ": local row " + std::to_string(first) + " outside the block's " +
                          std::to_string(local_rows_) + " rows");
  }
  if (base_ == nullptr) return nullptr;
  return static_cast<const std::byte*>(base_) + data_offset_ + first * bytes_per_row_;
}

}  // namespace mheta::io
