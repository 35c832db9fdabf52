#include "model/text_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "model/format_error.hpp"

namespace mheta::model {

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FormatError(path.string(), "", "is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw FormatError(path.string(), "", std::string("cannot open: ") + std::strerror(errno));
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw FormatError(path.string(), "", "read failed");
  return buffer.str();
}

void write_text_file_atomically(const std::filesystem::path& path, std::string_view text) {
  const std::filesystem::path temporary =
      path.string() + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  auto fail = [&](const char* what) {
    const int saved = errno;
    std::remove(temporary.c_str());
    throw OutputError(path.string() + ": " + what + ": " + std::strerror(saved));
  };
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (file == nullptr) fail("cannot create");
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const bool flushed = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const bool closed = std::fclose(file) == 0;
  if (!written || !flushed || !closed) fail("cannot write");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot replace");
}

}  // namespace mheta::model
