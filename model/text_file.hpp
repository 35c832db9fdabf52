#pragma once
// Whole-file reads and crash-safe writes shared by every format.
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

// Reads a whole file; throws FormatError naming the file when it cannot.
std::string read_text_file(const std::filesystem::path& path);

// Writes through a temporary file in the same directory and renames it over
// `path`, so a reader never sees half a file and a failed write (disk full,
// no permission) leaves the previous contents intact. Throws OutputError
// naming the file on failure.
void write_text_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace mheta::model
