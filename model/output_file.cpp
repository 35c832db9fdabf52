#include "model/output_file.hpp"

#include <cstdio>

#include "model/text_file.hpp"

namespace mheta::model {

void write_output(const std::filesystem::path& path, std::string_view text) {
  if (path != "-") {
    write_text_file_atomically(path, text);
    return;
  }
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    throw OutputError("cannot write to standard output");
  }
}

}  // namespace mheta::model
