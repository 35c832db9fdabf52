#pragma once
// Whole-file reads and crash-safe writes shared by every format.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mheta::model {

// An output file could not be written (no permission, disk full, ...).
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest input file any reader takes (docs/formats.md, "Limits"): far
// above any real profile, small enough that a wrong path cannot exhaust memory.
inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{256} << 20;

// Reads a whole regular file of at most `limit` bytes; throws FormatError
// naming the file when it cannot, when it is not a regular file (a FIFO,
// /dev/zero, a directory: reading those could block or never end) or when
// it is larger than the limit.
std::string read_text_file(const std::filesystem::path& path, std::uintmax_t limit = kMaxInputFileBytes);

// Writes `text` to `path` without ever replacing something that is not a
// regular file:
//  - a regular file or a new name: written through a temporary file in the
//    same directory and renamed over `path`, so a reader never sees half a
//    file and a failed write (disk full, no permission) leaves the previous
//    contents intact;
//  - a symbolic link: the same, on the file it points to (the link stays);
//  - a character device (/dev/null, a terminal) or a FIFO with a reader
//    (within two seconds): written in place, never created, truncated or
//    renamed over;
//  - anything else (a directory, a block device, a socket, a dangling link,
//    a FIFO nobody reads): refused.
// Throws OutputError naming the file on failure.
void write_text_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace mheta::model
